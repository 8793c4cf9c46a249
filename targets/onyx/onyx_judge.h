/* SPDX-License-Identifier: MIT */
/*
 * What the diff cannot decide about a read-back, and whose switch it is.
 */
#ifndef QG_ONYX_JUDGE_H
#define QG_ONYX_JUDGE_H

#include "onyx_config.h"

/*
 * Can the difference from `have` (a read-back) to `want` be computed exactly?
 * Errors in d, at the read-back's lines, for each thing that makes it
 * impossible: advanced buffer mode or Onyx's RoCE auto-configuration; a split
 * that disagrees with want's ports; a QoS line qosgen does not model on one of
 * want's ports; PFC or a lossless pool on another switch-priority; another
 * pool owning want's priority that cannot simply give it up; pools over 100 %
 * of the buffer. Returns the number of errors added (0: diff away).
 */
int onyx_config_judge(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_diags *d);

/*
 * Does the read-back's hostname name this switch? True when it has none, or
 * it equals (case aside) the switch's name or, when its address is a DNS
 * name, that name's first label.
 */
bool onyx_config_hostname_matches(const struct onyx_config *have, const char *name,
				  const char *address);

#endif
