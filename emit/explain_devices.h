/* SPDX-License-Identifier: MIT */
/*
 * explain's rows of each device (emit/explain.h): a device's keys from the
 * key table's rows of its list, each value where it lands, given or default
 * (a host's group after its address); a switch's port roles; a switch's
 * lossless headroom.
 */
#ifndef QG_EXPLAIN_DEVICES_H
#define QG_EXPLAIN_DEVICES_H

#include "../model/model.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Device i of list ("switches[]", "hosts[]", "dvs[]"): "switches.NAME.port" and the rest. */
void explain_device_rows(cJSON *rows, const struct qg_model *m, const char *list, size_t i);
/* Switch i's port roles: each one's ports, cable length and ECN thresholds. */
void explain_role_rows(cJSON *rows, const struct qg_model *m, size_t i);
/* Switch i's headroom: "headroom.NAME" and "headroom.NAME.ROLE" (issue 34). */
void explain_headroom_rows(cJSON *rows, const struct qg_model *m, size_t i);

#endif
