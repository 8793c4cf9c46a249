/* SPDX-License-Identifier: MIT */
/*
 * Text skeletons of the generated files (headers, script preambles) with
 * named placeholders {{name}}. Templates hold text, not logic: no loops, no
 * conditions; emitters compute the pieces and fill them in. A site may
 * override any template with `--templates DIR`.
 *
 * A placeholder the emitter does not know, or one it knows but leaves
 * unfilled, is an error: a template must never quietly print nothing where a
 * setting belongs.
 */
#ifndef QG_TEMPLATE_H
#define QG_TEMPLATE_H

#include "../lib/buf.h"
#include "diag.h"

#include <stddef.h>

struct qg_builtin_template {
	const char *name;
	const char *text;
};
/* From templates/NAME.in, embedded at build time (tools/embed.c); ends with {0, 0}. */
extern const struct qg_builtin_template qg_builtin_templates[];

/* templates_builtin.c asserts at build time that every built-in template fits. */
#define QG_TEMPLATE_MAX 24

struct qg_templates {
	size_t n;
	const char *name[QG_TEMPLATE_MAX];
	char *text[QG_TEMPLATE_MAX];
	char *origin[QG_TEMPLATE_MAX]; /* "templates/x.in" or DIR/x.in, for diagnostics */
};

/*
 * Load the built-in templates, replacing each with DIR/<name>.in where that
 * file exists (dir may be NULL). Returns 0, or -1 with a diagnostic in d.
 */
int qg_templates_load(struct qg_templates *t, const char *dir, struct qg_diags *d);
void qg_templates_free(struct qg_templates *t);

struct qg_tvar {
	const char *name;
	const char *value; /* NULL: known but unfilled, an error if used */
};

/*
 * Fill template `name` into out. Returns 0, or -1 after reporting every bad
 * placeholder to d, each pointing into the template file.
 */
int qg_template_fill(const struct qg_templates *t, const char *name, const struct qg_tvar *vars,
		     size_t n_vars, struct qg_buf *out, struct qg_diags *d);

/* Pure core, for tests: fill `text`; diagnostics name `origin`. */
int qg_template_fill_text(const char *text, const char *origin, const struct qg_tvar *vars,
			  size_t n_vars, struct qg_buf *out, struct qg_diags *d);

#endif
