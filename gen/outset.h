/* SPDX-License-Identifier: MIT */
/*
 * The generated files, in memory. Emitters add to it; nothing touches the
 * disk until every target has emitted without error (gen/outdir.c).
 */
#ifndef QG_OUTSET_H
#define QG_OUTSET_H

#include <stddef.h>

struct qg_outfile {
	char *path; /* relative to the output directory: "onyx/swx-1.cli" */
	char *data;
	size_t len;
	unsigned mode; /* 0644, or 0755 for scripts */
};

struct qg_outset {
	struct qg_outfile *v;
	size_t n, cap;
};

/* Takes ownership of data (even on failure). Returns 0, -EEXIST or -ENOMEM. */
int qg_outset_add(struct qg_outset *o, const char *path, char *data, size_t len, unsigned mode);
const struct qg_outfile *qg_outset_find(const struct qg_outset *o, const char *path);
/* Sort by path, so that every listing of the set is stable. */
void qg_outset_sort(struct qg_outset *o);
void qg_outset_free(struct qg_outset *o);

#endif
