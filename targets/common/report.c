/* SPDX-License-Identifier: MIT */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"ok",  "changed", "failed", "missing",
				    "n/a", "reboot",  "differs"};

const char *qg_report_status_name(enum qg_report_status s)
{
	return names[s];
}

/*
 * "[NAME] " at the start of a line, NAME a known status: the status, and in
 * *body what follows the space; -1 for any other line. Every bound is the
 * line's own: a host's output is untrusted (tests/fuzz/fuzz_host_report.c).
 */
static int line_status(const char *line, size_t len, const char **body)
{
	for (int s = 0; s < (int)(sizeof(names) / sizeof(names[0])); s++) {
		size_t n = strlen(names[s]);
		if (len >= n + 3 && line[0] == '[' && !memcmp(line + 1, names[s], n) &&
		    line[n + 1] == ']' && line[n + 2] == ' ') {
			*body = line + n + 3;
			return s;
		}
	}
	return -1;
}

int qg_report_parse(const char *text, struct qg_report *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = 0;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *body = NULL;
		int status = line_status(line, len, &body);
		size_t rest = status >= 0 ? len - (size_t)(body - line) : 0;
		/* "[status] key: detail", or "[reboot] detail" without a key. */
		const char *colon = status >= 0 ? memchr(body, ':', rest) : NULL;
		if (status < 0 || (status != QG_REPORT_REBOOT && !colon)) {
			out->other_lines++;
		} else {
			if (out->n == cap) {
				cap = cap ? cap * 2 : 16;
				struct qg_report_line *v = realloc(out->v, cap * sizeof(*v));
				if (!v) {
					qg_report_free(out);
					return -ENOMEM;
				}
				out->v = v;
			}
			struct qg_report_line *r = &out->v[out->n++];
			memset(r, 0, sizeof(*r));
			r->status = (enum qg_report_status)status;
			if (status == QG_REPORT_REBOOT) {
				snprintf(r->detail, sizeof(r->detail), "%.*s", (int)rest, body);
			} else {
				snprintf(r->key, sizeof(r->key), "%.*s", (int)(colon - body), body);
				const char *d = colon + 1;
				if (d < line + len && *d == ' ')
					d++;
				snprintf(r->detail, sizeof(r->detail), "%.*s",
					 (int)(len - (size_t)(d - line)), d);
			}
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

void qg_report_free(struct qg_report *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
