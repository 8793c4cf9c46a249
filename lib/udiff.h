/* SPDX-License-Identifier: MIT */
/* The unified diff of two texts in memory (lib/udiff.c). */
#ifndef QG_UDIFF_H
#define QG_UDIFF_H

#include "buf.h"

#include <stddef.h>

/* One side of a diff: its text, len bytes, and the label its header names it by. */
struct qg_udiff_side {
	const char *label;
	const char *text;
	size_t len;
};

/*
 * Append the unified diff (three lines of context, the format of `diff -u
 * --label A --label B`) of side a against side b to out; nothing when they
 * are equal. Line text is escaped as lib/escape.h does, tabs kept. Pure.
 */
void qg_udiff(struct qg_buf *out, const struct qg_udiff_side *sa, const struct qg_udiff_side *sb);

#endif
