/* SPDX-License-Identifier: MIT */
/* The unified diff of two texts in memory (lib/udiff.c). */
#ifndef QG_UDIFF_H
#define QG_UDIFF_H

#include "buf.h"

#include <stddef.h>

/*
 * Append the unified diff (three lines of context, the format of `diff -u
 * --label A --label B`) of text a against text b to out; nothing when they
 * are equal. Line text is escaped as lib/escape.h does, tabs kept. Pure.
 */
void qg_udiff(struct qg_buf *out, const char *label_a, const char *a, size_t alen,
	      const char *label_b, const char *b, size_t blen);

#endif
