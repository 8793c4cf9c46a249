/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics in compiler form: "file:line:col: error: what is wrong".
 * Everything is collected first and printed sorted by position, so that a
 * user fixes a file top to bottom and sees every problem in one run.
 */
#ifndef QG_DIAG_H
#define QG_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "warning_ids.h"

/* A position in the intent file, 1-based; line 0 means "not from the file". */
struct qg_pos {
	int line;
	int col;
};

enum qg_sev { QG_SEV_NOTE, QG_SEV_WARNING, QG_SEV_ERROR };

struct qg_note {
	struct qg_pos pos;
	char *msg;
};

struct qg_diag {
	char *file; /* NULL: the diags' file; else another input (a template) */
	struct qg_pos pos;
	enum qg_sev sev;
	size_t seq;		    /* insertion order: ties on position keep it */
	enum qg_warning_id warning; /* a warning's id (model/warning_ids.h); QG_W_NONE otherwise */
	/*
	 * What a warning prints after it, its own copy: the diagnostics may
	 * outlive the model whose feature warning it is. "" for the rest.
	 */
	char warning_name[QG_WARNING_NAME_LEN];
	bool acknowledged; /* by the intent: not printed, not counted */
	char *msg;
	struct qg_note *notes;
	size_t n_notes;
};

struct qg_diags {
	const char *file; /* as the user named it */
	struct qg_diag *v;
	size_t n, cap;
	size_t errors, warnings; /* warnings: those not acknowledged */
	bool oom;
};

/* The line and column of `at` in text (a parser's stopping point); {1, 1} when at is NULL. */
struct qg_pos qg_text_pos(const char *text, const char *at);

/*
 * Where a device's read-back starts: the offset of its first non-space
 * byte; or -1 with an error in d, at 1:1, when it is empty ("expected ..."
 * says what should have been there) or holds a NUL byte (not text).
 */
long qg_readback_start(const char *text, size_t len, const char *expected, struct qg_diags *d);

void qg_diags_init(struct qg_diags *d, const char *file);
void qg_diags_free(struct qg_diags *d);

void qg_error(struct qg_diags *d, struct qg_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Every warning has a name (model/warning_ids.h), printed after it: "... [no-ecn]". */
void qg_warning(struct qg_diags *d, struct qg_pos pos, enum qg_warning_id w, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same for a warning whose name is not a fixed one: a model's feature warning, w named name. */
void qg_warning_named(struct qg_diags *d, struct qg_pos pos, enum qg_warning_id w, const char *name,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An error in another input than the intent, such as a template file. */
void qg_error_in(struct qg_diags *d, const char *file, struct qg_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Attach a note to the diagnostic added last. */
void qg_note(struct qg_diags *d, struct qg_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The first error added (in the order found), or NULL: for a one-line report. */
const struct qg_diag *qg_diags_first_error(const struct qg_diags *d);

/* With strict, warnings count as errors. */
bool qg_diags_failed(const struct qg_diags *d, bool strict);
/* Sort by position, the order every output uses (text and --json alike). */
void qg_diags_sort(struct qg_diags *d);
/*
 * Print sorted by position; with strict, warnings print as errors tagged
 * "[--strict]" (as gcc tags -Werror), so the user sees why the build stopped.
 * A warning's name follows its message: "warning: ... [name]".
 */
void qg_diags_print(struct qg_diags *d, FILE *out, bool strict);

/*
 * Acknowledge the warnings named w (the intent's `acknowledge` key): they
 * stay in d, marked, but are neither printed nor counted, so --strict passes.
 * Returns how many d holds, acknowledged before or now.
 */
size_t qg_diags_acknowledge(struct qg_diags *d, enum qg_warning_id w);

/*
 * Forget the diagnostics at the n indices idx (ascending; in the order
 * added, before any sort), with their notes: ones that turned out to follow
 * from another already said (issue 25, item 4). One pass, however many.
 */
void qg_diags_remove(struct qg_diags *d, const size_t *idx, size_t n);

/*
 * One cause, one message (issue 37): the errors from index from on (in the
 * order added) that say the same at the same place but for the target they
 * name, "the A target" in one and "the B target" in another (A, B among
 * names), become one naming them all, "the A and B targets". A message that
 * means to be merged so names its target with no verb after it.
 */
void qg_diags_merge_targets(struct qg_diags *d, size_t from, const char *const *names,
			    size_t n_names);

/* Forget the warnings (with their notes): a caller that printed them once already. */
void qg_diags_drop_warnings(struct qg_diags *d);

#endif
