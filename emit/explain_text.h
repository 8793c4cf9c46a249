/* SPDX-License-Identifier: MIT */
/*
 * explain's rows (emit/explain.h) as an aligned text table. emit/explain.h
 * includes this header: explain's callers need only that one.
 */
#ifndef QG_EXPLAIN_TEXT_H
#define QG_EXPLAIN_TEXT_H

#include "../lib/buf.h"

#include <cjson/cJSON.h>

/*
 * The rows of qg_explain_json() as an aligned text table: every row but the
 * grouped hosts', then one block per group of alike hosts, its rows once and
 * its hosts with their addresses (issue 25: 64 alike hosts were 64 times the
 * same rows).
 */
void qg_explain_text(const cJSON *explain, struct qg_buf *out);

#endif
