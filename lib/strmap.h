/* SPDX-License-Identifier: MIT */
/*
 * A map from strings to pointers, for the lookups that grow with the fabric
 * (device names, references to them): constant time each, so validating
 * 100,000 devices is linear. The keys are not copied: they must outlive the map.
 */
#ifndef QG_STRMAP_H
#define QG_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct qg_strmap {
	const char **keys;
	void **vals;
	size_t n, cap; /* cap a power of two, at most half full */
};

/* The value of key, or NULL. */
void *qg_strmap_get(const struct qg_strmap *m, const char *key);

/*
 * Put key -> val unless key is there: then *old (if not NULL) is its value
 * and nothing changes. 0, 1 when the key was there, or -ENOMEM.
 */
int qg_strmap_put(struct qg_strmap *m, const char *key, void *val, void **old);

/* Give key, which is there, the value val; false (and nothing changed) when it is not. */
bool qg_strmap_replace(struct qg_strmap *m, const char *key, void *val);

void qg_strmap_free(struct qg_strmap *m);

#endif
