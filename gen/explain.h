/* SPDX-License-Identifier: MIT */
/*
 * `qosgen explain`: the normalised model as rows of key, value, source
 * (given / default / derived / target) and reason. One list of rows serves
 * the text table and --json, so the two can never disagree.
 */
#ifndef QG_EXPLAIN_H
#define QG_EXPLAIN_H

#include "buf.h"
#include "model.h"

#include <cjson/cJSON.h>

/* {"fabric", "intent_sha256", "rows": [{key, value, source, reason}]} */
cJSON *qg_explain_json(const struct qg_model *m);
/* The same rows as an aligned text table. */
void qg_explain_text(const cJSON *explain, struct qg_buf *out);

#endif
