/* SPDX-License-Identifier: MIT */
#include "outset.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int index_put(struct qg_outset *o, size_t k)
{
	return qg_strmap_put(&o->index, o->v[k].path, (void *)(uintptr_t)(k + 1), NULL) < 0
		   ? -ENOMEM
		   : 0;
}

int qg_outset_add(struct qg_outset *o, const char *path, char *data, size_t len, unsigned mode)
{
	if (qg_outset_find(o, path)) {
		free(data);
		return -EEXIST;
	}
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		struct qg_outfile *v = realloc(o->v, cap * sizeof(*v));
		if (!v) {
			free(data);
			return -ENOMEM;
		}
		o->v = v;
		o->cap = cap;
	}
	char *p = strdup(path);
	if (!p) {
		free(data);
		return -ENOMEM;
	}
	o->v[o->n++] = (struct qg_outfile){.path = p, .data = data, .len = len, .mode = mode};
	/* The path stays allocated as long as the entry: the index keys on it. */
	return index_put(o, o->n - 1);
}

const struct qg_outfile *qg_outset_find(const struct qg_outset *o, const char *path)
{
	uintptr_t k = (uintptr_t)qg_strmap_get(&o->index, path);
	return k ? &o->v[k - 1] : NULL;
}

int qg_outset_append(struct qg_outset *o, size_t k, const char *data, size_t n)
{
	struct qg_outfile *f = &o->v[k];
	size_t cap = f->cap > f->len ? f->cap : f->len + 1;
	if (f->len + n + 1 > cap) {
		while (cap < f->len + n + 1) {
			if (cap > SIZE_MAX / 2)
				return -ENOMEM;
			cap *= 2;
		}
		char *p = realloc(f->data, cap);
		if (!p)
			return -ENOMEM;
		f->data = p;
		f->cap = cap;
	}
	memcpy(f->data + f->len, data, n);
	f->len += n;
	f->data[f->len] = '\0';
	return 0;
}

int qg_outset_set_owner(struct qg_outset *o, const char *path, enum qg_file_owner owner)
{
	const struct qg_outfile *f = qg_outset_find(o, path);
	if (!f)
		return -ENOENT;
	o->v[f - o->v].owner = owner;
	return 0;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qg_outfile *)a)->path, ((const struct qg_outfile *)b)->path);
}

void qg_outset_sort(struct qg_outset *o)
{
	if (o->n < 2)
		return;
	qsort(o->v, o->n, sizeof(o->v[0]), file_cmp);
	/* The same keys at new places: no key is added, so nothing can fail. */
	for (size_t k = 0; k < o->n; k++)
		qg_strmap_replace(&o->index, o->v[k].path, (void *)(uintptr_t)(k + 1));
}

void qg_outset_free(struct qg_outset *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].path);
		free(o->v[i].data);
	}
	free(o->v);
	qg_strmap_free(&o->index);
	memset(o, 0, sizeof(*o));
}
