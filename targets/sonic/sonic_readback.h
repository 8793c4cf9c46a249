/* SPDX-License-Identifier: MIT */
/*
 * A SONiC switch's read-back: `show runningconfiguration all` as config_db JSON.
 */
#ifndef QG_SONIC_READBACK_H
#define QG_SONIC_READBACK_H

#include "../../model/diag.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/*
 * `show runningconfiguration all` of a single-ASIC switch (config_db as
 * JSON) into *out. -EINVAL with errors in d (at the text's line and column)
 * when it is not that: empty, not JSON, a multi-ASIC switch's namespaces,
 * or a table qosgen writes whose rows are not objects of strings. 0 or
 * -ENOMEM otherwise.
 */
int sonic_readback_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d);

/*
 * A device's answer that must be one JSON object (expected: what it should
 * be, for the errors): the tree, and in *start where its text begins; NULL
 * with an error in d, at the text's line and column, when it is empty, not
 * text or not a JSON object there.
 */
cJSON *sonic_json_object(const char *text, size_t len, const char *expected, long *start,
			 struct qg_diags *d);

/* DEVICE_METADATA|localhost hostname, or "". */
const char *sonic_readback_hostname(const cJSON *have);

#endif
