/* SPDX-License-Identifier: MIT */
/*
 * One row of explain (emit/explain.h): its key, its value, where the value
 * comes from ("given", "default", "derived", "target") and why. What
 * explain.c and explain_devices.c both write rows with.
 */
#ifndef QG_EXPLAIN_ROW_H
#define QG_EXPLAIN_ROW_H

#include <cjson/cJSON.h>

/* A row added to rows, value taken over; the row, for explain_of(). */
cJSON *explain_row(cJSON *rows, const char *key, cJSON *value, const char *source,
		   const char *reason);
/* A row about one device names it: the text groups alike hosts by it, --host picks by it. */
void explain_of(cJSON *r, const char *device);
/* A row whose value is the string v (NULL: null). */
cJSON *explain_row_str(cJSON *rows, const char *key, const char *v, const char *source,
		       const char *reason);

#endif
