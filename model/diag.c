/* SPDX-License-Identifier: MIT */
#include "diag.h"

#include "../lib/escape.h"

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

static void diag_add(struct qg_diags *d, enum qg_sev sev, enum qg_warning_id w, const char *name,
		     struct qg_pos pos, const char *fmt, va_list ap)
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
	snprintf(d->v[d->n].warning_name, sizeof(d->v[d->n].warning_name), "%s", name);
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
	diag_add(d, QG_SEV_ERROR, QG_W_NONE, "", pos, fmt, ap);
	va_end(ap);
}

void qg_error_in(struct qg_diags *d, const char *file, struct qg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(d, QG_SEV_ERROR, QG_W_NONE, "", pos, fmt, ap);
	va_end(ap);
	if (d->n > 0 && !(d->v[d->n - 1].file = strdup(file)))
		d->oom = true;
}

void qg_warning(struct qg_diags *d, struct qg_pos pos, enum qg_warning_id w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const struct qg_warning_info *info = qg_warning_info(w);
	diag_add(d, QG_SEV_WARNING, w, info ? info->name : "", pos, fmt, ap);
	va_end(ap);
}

void qg_warning_named(struct qg_diags *d, struct qg_pos pos, enum qg_warning_id w, const char *name,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_add(d, QG_SEV_WARNING, w, name ? name : "", pos, fmt, ap);
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
		const char *w = g->warning_name[0] ? g->warning_name : NULL;
		print_prefix(out, file, g->pos);
		if (g->sev == QG_SEV_ERROR)
			fprintf(out, "error: %s\n", g->msg);
		else
			fprintf(out, "%s: %s%s%s%s%s\n", strict ? "error" : "warning", g->msg,
				w ? " [" : "", w ? w : "", w ? "]" : "",
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

/* Where msg names a target of names ("the NAME target"): its offset, length and name; false: none.
 */
static bool target_phrase(const char *msg, const char *const *names, size_t n_names, size_t *at,
			  size_t *len, size_t *name)
{
	for (const char *p = strstr(msg, "the "); p; p = strstr(p + 1, "the ")) {
		for (size_t k = 0; k < n_names; k++) {
			size_t nl = strlen(names[k]);
			if (strncmp(p + 4, names[k], nl) || strncmp(p + 4 + nl, " target", 7) ||
			    isalpha((unsigned char)p[4 + nl + 7]))
				continue;
			*at = (size_t)(p - msg);
			*len = 4 + nl + 7;
			*name = k;
			return true;
		}
	}
	return false;
}

/* Whether a and b say the same but for their target phrases (at, len each). */
static bool same_but_target(const char *a, size_t at_a, size_t len_a, const char *b, size_t at_b,
			    size_t len_b)
{
	return at_a == at_b && !strncmp(a, b, at_a) && !strcmp(a + at_a + len_a, b + at_b + len_b);
}

void qg_diags_merge_targets(struct qg_diags *d, size_t from, const char *const *names,
			    size_t n_names)
{
	size_t *gone = calloc(d->n ? d->n : 1, sizeof(*gone));
	bool *merged = calloc(d->n ? d->n : 1, sizeof(*merged));
	if (!gone || !merged) {
		free(gone);
		free(merged);
		d->oom = true;
		return;
	}
	size_t n_gone = 0;
	for (size_t i = from; i < d->n; i++) {
		struct qg_diag *g = &d->v[i];
		size_t at, len, name;
		if (merged[i] || g->sev != QG_SEV_ERROR ||
		    !target_phrase(g->msg, names, n_names, &at, &len, &name))
			continue;
		size_t who[16], n_who = 0;
		who[n_who++] = name;
		for (size_t j = i + 1; j < d->n && n_who < 16; j++) {
			const struct qg_diag *h = &d->v[j];
			size_t at2, len2, name2;
			if (merged[j] || h->sev != QG_SEV_ERROR || h->pos.line != g->pos.line ||
			    h->pos.col != g->pos.col || !h->file != !g->file ||
			    (h->file && strcmp(h->file, g->file)) ||
			    !target_phrase(h->msg, names, n_names, &at2, &len2, &name2) ||
			    !same_but_target(g->msg, at, len, h->msg, at2, len2))
				continue;
			merged[j] = true;
			gone[n_gone++] = j;
			who[n_who++] = name2;
		}
		if (n_who == 1)
			continue;
		/* "the A, B and C targets" in the place of "the A target". */
		size_t cap = strlen(g->msg) + 32;
		for (size_t k = 0; k < n_who; k++)
			cap += strlen(names[who[k]]) + 2;
		char *msg = malloc(cap);
		if (!msg) {
			d->oom = true;
			break;
		}
		size_t o = (size_t)snprintf(msg, cap, "%.*sthe ", (int)at, g->msg);
		for (size_t k = 0; k < n_who; k++)
			o += (size_t)snprintf(msg + o, cap - o, "%s%s",
					      k == 0	       ? ""
					      : k + 1 == n_who ? " and "
							       : ", ",
					      names[who[k]]);
		snprintf(msg + o, cap - o, " targets%s", g->msg + at + len);
		free(g->msg);
		g->msg = msg;
	}
	/* gone[] is in the order found: ascending for qg_diags_remove. */
	for (size_t a = 1; a < n_gone; a++)
		for (size_t b = a; b > 0 && gone[b - 1] > gone[b]; b--) {
			size_t x = gone[b];
			gone[b] = gone[b - 1];
			gone[b - 1] = x;
		}
	qg_diags_remove(d, gone, n_gone);
	free(gone);
	free(merged);
}
