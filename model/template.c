/* SPDX-License-Identifier: MIT */
#include "template.h"

#include "../lib/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int qg_template_fill_text(const char *text, const char *origin, const struct qg_tvar *vars,
			  size_t n_vars, struct qg_buf *out, struct qg_diags *d)
{
	size_t errors = d->errors;
	const char *p = text;
	/* Positions are counted (qg_text_pos) only for a diagnostic, never per byte filled. */
	while (*p) {
		if (p[0] != '{' || p[1] != '{') {
			/* The text up to the next brace, in one append: a host's lib is 10 KB. */
			size_t n = strcspn(p + 1, "{") + 1;
			qg_buf_append(out, p, n);
			p += n;
			continue;
		}
		const char *name = p + 2;
		size_t len = 0;
		while (name_char(name[len]))
			len++;
		if (len == 0 || name[len] != '}' || name[len + 1] != '}') {
			qg_error_in(
			    d, origin, qg_text_pos(text, p),
			    "malformed placeholder; expected {{name}} with a-z 0-9 _ in the name");
			qg_buf_append(out, p, 2);
			p += 2;
			continue;
		}
		const struct qg_tvar *var = NULL;
		for (size_t i = 0; i < n_vars; i++)
			if (strlen(vars[i].name) == len && memcmp(vars[i].name, name, len) == 0)
				var = &vars[i];
		if (!var) {
			char known[256];
			size_t used = 0;
			known[0] = '\0';
			for (size_t i = 0; i < n_vars && used < sizeof(known); i++)
				used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
							 i ? ", " : "", vars[i].name);
			qg_error_in(d, origin, qg_text_pos(text, p),
				    "unknown placeholder '{{%.*s}}'; this template knows: %s",
				    (int)len, name, known);
		} else if (!var->value) {
			qg_error_in(d, origin, qg_text_pos(text, p),
				    "placeholder '{{%.*s}}' has no value for this file", (int)len,
				    name);
		} else {
			qg_buf_puts(out, var->value);
		}
		p = name + len + 2;
	}
	return d->errors == errors ? 0 : -1;
}

int qg_templates_load(struct qg_templates *t, const char *dir, struct qg_diags *d)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; qg_builtin_templates[i].name; i++) {
		const char *name = qg_builtin_templates[i].name;
		char origin[4096];
		char *text = NULL;
		snprintf(origin, sizeof(origin), "templates/%s.in", name);
		if (dir) {
			char path[4096];
			int err = 0;
			snprintf(path, sizeof(path), "%s/%s.in", dir, name);
			size_t len;
			text = qg_read_file(path, 1u << 20, false, &len, &err);
			if (text) {
				snprintf(origin, sizeof(origin), "%s", path);
			} else if (err != ENOENT) {
				qg_error_in(d, path, (struct qg_pos){0}, "cannot read template: %s",
					    strerror(err));
				qg_templates_free(t);
				return -1;
			}
		}
		if (!text)
			text = strdup(qg_builtin_templates[i].text);
		t->name[t->n] = name;
		t->text[t->n] = text;
		t->origin[t->n] = strdup(origin);
		t->n++;
		if (!text || !t->origin[t->n - 1]) {
			d->oom = true;
			qg_templates_free(t);
			return -1;
		}
	}
	return 0;
}

void qg_templates_free(struct qg_templates *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->text[i]);
		free(t->origin[i]);
	}
	memset(t, 0, sizeof(*t));
}

int qg_template_fill(const struct qg_templates *t, const char *name, const struct qg_tvar *vars,
		     size_t n_vars, struct qg_buf *out, struct qg_diags *d)
{
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->name[i], name) != 0)
			continue;
		return qg_template_fill_text(t->text[i], t->origin[i], vars, n_vars, out, d);
	}
	qg_error(d, (struct qg_pos){0}, "no template named '%s'", name);
	return -1;
}
