/* SPDX-License-Identifier: MIT */
/* One row of explain (explain_row.h). */
#include "explain_row.h"

cJSON *explain_row(cJSON *rows, const char *key, cJSON *value, const char *source,
		   const char *reason)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "key", key);
	cJSON_AddItemToObject(r, "value", value);
	cJSON_AddStringToObject(r, "source", source);
	cJSON_AddStringToObject(r, "reason", reason ? reason : "");
	cJSON_AddItemToArray(rows, r);
	return r;
}

void explain_of(cJSON *r, const char *device)
{
	cJSON_AddStringToObject(r, "device", device);
}

cJSON *explain_row_str(cJSON *rows, const char *key, const char *v, const char *source,
		       const char *reason)
{
	return explain_row(rows, key, v ? cJSON_CreateString(v) : cJSON_CreateNull(), source,
			   reason);
}
