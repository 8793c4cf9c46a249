/* SPDX-License-Identifier: MIT */
#include "strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a: short keys, no adversary able to choose them against a seed (the intent is the input). */
static size_t hash(const char *s)
{
	uint64_t h = 14695981039346656037u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

static size_t slot(const struct qg_strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *qg_strmap_get(const struct qg_strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = slot(m, key);
	return m->keys[i] ? m->vals[i] : NULL;
}

static int grow(struct qg_strmap *m)
{
	struct qg_strmap g = {.cap = m->cap ? m->cap * 2 : 64};
	g.keys = calloc(g.cap, sizeof(*g.keys));
	g.vals = calloc(g.cap, sizeof(*g.vals));
	if (!g.keys || !g.vals) {
		free(g.keys);
		free(g.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i]) {
			size_t j = slot(&g, m->keys[i]);
			g.keys[j] = m->keys[i];
			g.vals[j] = m->vals[i];
			g.n++;
		}
	qg_strmap_free(m);
	*m = g;
	return 0;
}

int qg_strmap_put(struct qg_strmap *m, const char *key, void *val, void **old)
{
	if (2 * (m->n + 1) > m->cap && grow(m) != 0)
		return -ENOMEM;
	size_t i = slot(m, key);
	if (m->keys[i]) {
		if (old)
			*old = m->vals[i];
		return 1;
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return 0;
}

bool qg_strmap_replace(struct qg_strmap *m, const char *key, void *val)
{
	if (!m->cap)
		return false;
	size_t i = slot(m, key);
	if (!m->keys[i])
		return false;
	m->vals[i] = val;
	return true;
}

void qg_strmap_free(struct qg_strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
