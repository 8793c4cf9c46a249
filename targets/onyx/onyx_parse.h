/* SPDX-License-Identifier: MIT */
/*
 * The Onyx read-back: `show running-config` text into a struct onyx_config.
 */
#ifndef QG_ONYX_PARSE_H
#define QG_ONYX_PARSE_H

#include "onyx_config.h"

/*
 * Parse `show running-config` text, len bytes (prefix mode off, as Onyx
 * prints it: "## ..." comments, indented lines, "interface ethernet 1/7-1/8
 * ..." ranges). Text that is not a running-config at all (onyx_text_check) is
 * refused: -EINVAL with the error in d. Lines qosgen does not manage are
 * skipped, but what it cannot judge is kept for onyx_config_judge(); a managed
 * line it cannot read is a warning in d and skipped. 0, -EINVAL or -ENOMEM.
 */
int onyx_config_parse(const char *text, size_t len, struct onyx_config *out, struct qg_diags *d);

#endif
