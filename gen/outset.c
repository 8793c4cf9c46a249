/* SPDX-License-Identifier: MIT */
#include "outset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	return 0;
}

const struct qg_outfile *qg_outset_find(const struct qg_outset *o, const char *path)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].path, path) == 0)
			return &o->v[i];
	return NULL;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qg_outfile *)a)->path, ((const struct qg_outfile *)b)->path);
}

void qg_outset_sort(struct qg_outset *o)
{
	if (o->n > 1)
		qsort(o->v, o->n, sizeof(o->v[0]), file_cmp);
}

void qg_outset_free(struct qg_outset *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].path);
		free(o->v[i].data);
	}
	free(o->v);
	memset(o, 0, sizeof(*o));
}
