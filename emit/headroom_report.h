/* SPDX-License-Identifier: MIT */
/*
 * What the headroom arithmetic (model/headroom.h) tells the user (issue 34):
 * `check`'s diagnostics, a switch whose lossless headroom does not fit its
 * budget (an error at the key that adds the most, with the numbers and the
 * fixes) and one whose headroom cannot be proven (the named warning
 * headroom-unproven, saying what is missing); and the figures as JSON, for
 * explain's rows and plan.json. Pure.
 */
#ifndef QG_HEADROOM_REPORT_H
#define QG_HEADROOM_REPORT_H

#include "../model/diag.h"
#include "../model/model.h"

#include <cjson/cJSON.h>

/* Every switch of m: run where the targets' checks run (emit/build.c). */
void qg_headroom_check(const struct qg_model *m, struct qg_diags *d);

/*
 * Switch i's headroom (docs/json.md, "headroom"): its model, budget and use,
 * the largest lossless PG of its ports in no role, and under "roles" each
 * role's. NULL when out of memory.
 */
cJSON *qg_headroom_json(const struct qg_model *m, size_t i);

#endif
