/* SPDX-License-Identifier: MIT */
#include "diag.h"

#include "escape.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void qg_diags_init(struct qg_diags *d, const char *file)
{
	memset(d, 0, sizeof(*d));
	d->file = file;
}

/* What one diagnostic owns: its message, its file, its notes. */
static void diag_release(struct qg_diag *g)
{
	free(g->msg);
	free(g->file);
	for (size_t j = 0; j < g->n_notes; j++)
		free(g->notes[j].msg);
	free(g->notes);
}

void qg_diags_free(struct qg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		diag_release(&d->v[i]);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

/*
 * Format a message, escaping control characters: messages quote the user's
 * values, and a newline or an escape sequence in a value must not forge a
 * second diagnostic line or drive the terminal.
 */
static char *vformat(const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	char *raw = malloc((size_t)n + 1);
	if (!raw)
		return NULL;
	vsnprintf(raw, (size_t)n + 1, fmt, ap);
	char *s = qg_escape(raw);
	free(raw);
	return s;
}

static void diag_add(struct qg_diags *d, enum qg_sev sev, enum qg_warning_id w, struct qg_pos pos,
		     const char *fmt, va_list ap)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct qg_diag *v = realloc(d->v, cap * sizeof(*v));
		if (!v) {
			d->oom = true;
			return;
		}
		d->v = v;
		d->cap = cap;
	}
	char *msg = vformat(fmt, ap);
	if (!msg) {
		d->oom = true;
		return;
	}
	d->v[d->n] =
	    (struct qg_diag){.pos = pos, .sev = sev, .seq = d->n, .warning = w, .msg = msg};
	d->n++;
	if (sev == QG_SEV_ERROR)
		d->errors++;
	else
		d->warnings++;
}

void qg_error(struct qg_diags *d, struct qg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(d, QG_SEV_ERROR, QG_W_NONE, pos, fmt, ap);
	va_end(ap);
}

void qg_error_in(struct qg_diags *d, const char *file, struct qg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(d, QG_SEV_ERROR, QG_W_NONE, pos, fmt, ap);
	va_end(ap);
	if (d->n > 0 && !(d->v[d->n - 1].file = strdup(file)))
		d->oom = true;
}

void qg_warning(struct qg_diags *d, struct qg_pos pos, enum qg_warning_id w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(d, QG_SEV_WARNING, w, pos, fmt, ap);
	va_end(ap);
}

void qg_note(struct qg_diags *d, struct qg_pos pos, const char *fmt, ...)
{
	if (d->n == 0)
		return;
	struct qg_diag *last = &d->v[d->n - 1];
	struct qg_note *v = realloc(last->notes, (last->n_notes + 1) * sizeof(*v));
	if (!v) {
		d->oom = true;
		return;
	}
	last->notes = v;
	va_list ap;
	va_start(ap, fmt);
	char *msg = vformat(fmt, ap);
	va_end(ap);
	if (!msg) {
		d->oom = true;
		return;
	}
	last->notes[last->n_notes++] = (struct qg_note){.pos = pos, .msg = msg};
}

bool qg_diags_failed(const struct qg_diags *d, bool strict)
{
	return d->oom || d->errors > 0 || (strict && d->warnings > 0);
}

static int diag_cmp(const void *a, const void *b)
{
	const struct qg_diag *x = a, *y = b;
	/* The intent's own diagnostics first, then other inputs by name. */
	if (!x->file != !y->file)
		return x->file ? 1 : -1;
	if (x->file) {
		int c = strcmp(x->file, y->file);
		if (c)
			return c;
	}
	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.col != y->pos.col)
		return x->pos.col < y->pos.col ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void print_prefix(FILE *out, const char *file, struct qg_pos pos)
{
	if (pos.line > 0)
		fprintf(out, "%s:%d:%d: ", file, pos.line, pos.col);
	else
		fprintf(out, "%s: ", file);
}

void qg_diags_sort(struct qg_diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(d->v[0]), diag_cmp);
}

void qg_diags_print(struct qg_diags *d, FILE *out, bool strict)
{
	qg_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		const struct qg_diag *g = &d->v[i];
		if (g->acknowledged)
			continue;
		const char *file = g->file ? g->file : d->file;
		const struct qg_warning_info *w = qg_warning_info(g->warning);
		print_prefix(out, file, g->pos);
		if (g->sev == QG_SEV_ERROR)
			fprintf(out, "error: %s\n", g->msg);
		else
			fprintf(out, "%s: %s%s%s%s%s\n", strict ? "error" : "warning", g->msg,
				w ? " [" : "", w ? w->name : "", w ? "]" : "",
				strict ? " [--strict]" : "");
		for (size_t j = 0; j < g->n_notes; j++) {
			print_prefix(out, file, g->notes[j].pos);
			fprintf(out, "note: %s\n", g->notes[j].msg);
		}
	}
	if (d->oom)
		fprintf(out, "%s: error: out of memory while collecting diagnostics\n", d->file);
}

const struct qg_diag *qg_diags_first_error(const struct qg_diags *d)
{
	for (size_t k = 0; k < d->n; k++)
		if (d->v[k].sev == QG_SEV_ERROR)
			return &d->v[k];
	return NULL;
}

struct qg_pos qg_text_pos(const char *text, const char *at)
{
	struct qg_pos p = {1, 1};
	for (const char *c = text; at && c < at && *c; c++) {
		if (*c == '\n') {
			p.line++;
			p.col = 1;
		} else {
			p.col++;
		}
	}
	return p;
}

long qg_readback_start(const char *text, size_t len, const char *expected, struct qg_diags *d)
{
	size_t i = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i == len) {
		qg_error(d, (struct qg_pos){1, 1}, "the read-back is empty; expected %s", expected);
		return -1;
	}
	if (memchr(text, '\0', len)) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back holds a NUL byte; it is not text");
		return -1;
	}
	return (long)i;
}

size_t qg_diags_acknowledge(struct qg_diags *d, enum qg_warning_id w)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct qg_diag *g = &d->v[i];
		if (g->sev != QG_SEV_WARNING || g->warning != w)
			continue;
		if (!g->acknowledged) {
			g->acknowledged = true;
			d->warnings--;
		}
		n++;
	}
	return n;
}

void qg_diags_drop_warnings(struct qg_diags *d)
{
	size_t kept = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct qg_diag *g = &d->v[i];
		if (g->sev != QG_SEV_WARNING) {
			d->v[kept++] = *g;
			continue;
		}
		diag_release(g);
	}
	d->n = kept;
	d->warnings = 0;
}

void qg_diags_remove(struct qg_diags *d, const size_t *idx, size_t n)
{
	size_t kept = 0, k = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct qg_diag *g = &d->v[i];
		while (k < n && idx[k] < i)
			k++;
		if (k == n || idx[k] != i) {
			d->v[kept++] = *g;
			continue;
		}
		if (g->sev == QG_SEV_ERROR)
			d->errors--;
		else if (!g->acknowledged) /* an acknowledged one was never counted */
			d->warnings--;
		diag_release(g);
	}
	d->n = kept;
}
