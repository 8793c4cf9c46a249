/* SPDX-License-Identifier: MIT */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool buf_reserve(struct qg_buf *b, size_t extra)
{
	if (b->failed)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1) {
		if (cap > ((size_t)-1) / 2) {
			b->failed = true;
			return false;
		}
		cap *= 2;
	}
	char *p = realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void qg_buf_append(struct qg_buf *b, const char *s, size_t n)
{
	if (!buf_reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void qg_buf_puts(struct qg_buf *b, const char *s)
{
	qg_buf_append(b, s, strlen(s));
}

void qg_buf_printf(struct qg_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (!buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *qg_buf_steal(struct qg_buf *b, size_t *len)
{
	if (b->failed) {
		qg_buf_free(b);
		return NULL;
	}
	if (!b->data) {
		if (!buf_reserve(b, 0))
			return NULL;
		b->data[0] = '\0';
	}
	char *p = b->data;
	if (len)
		*len = b->len;
	memset(b, 0, sizeof(*b));
	return p;
}

void qg_buf_free(struct qg_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
