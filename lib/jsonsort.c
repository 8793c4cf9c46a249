/* SPDX-License-Identifier: MIT */
#include "jsonsort.h"

#include <ctype.h>
#include <stdlib.h>

int qg_natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long va = strtoul(a, &ea, 10), vb = strtoul(b, &eb, 10);
			if (va != vb)
				return va < vb ? -1 : 1;
			a = ea;
			b = eb;
		} else if (*a != *b) {
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		} else {
			a++;
			b++;
		}
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int key_cmp(const void *x, const void *y)
{
	return qg_natural_cmp((*(cJSON *const *)x)->string, (*(cJSON *const *)y)->string);
}

bool qg_json_sort(cJSON *o)
{
	if (!cJSON_IsObject(o))
		return true;
	size_t n = (size_t)cJSON_GetArraySize(o);
	if (n == 0)
		return true;
	cJSON **v = calloc(n, sizeof(*v));
	if (!v)
		return false;
	size_t k = 0;
	while (o->child)
		v[k++] = cJSON_DetachItemViaPointer(o, o->child);
	qsort(v, k, sizeof(*v), key_cmp);
	bool ok = true;
	for (size_t i = 0; i < k; i++) {
		ok &= qg_json_sort(v[i]);
		/* cJSON copies the key before it frees the item's own: passing it is safe. */
		cJSON_AddItemToObject(o, v[i]->string, v[i]);
	}
	free(v);
	return ok;
}
