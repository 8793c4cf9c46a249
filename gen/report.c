/* SPDX-License-Identifier: MIT */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"ok", "changed", "failed", "missing", "n/a", "reboot", "differs"};

const char *qg_report_status_name(enum qg_report_status s)
{
	return names[s];
}

int qg_report_parse(const char *text, struct qg_report *out)
{
	memset(out, 0, sizeof(*out));
	size_t cap = 0;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *close = memchr(line, ']', len);
		int status = -1;
		if (line[0] == '[' && close)
			for (int s = 0; s < 7; s++)
				if ((size_t)(close - line - 1) == strlen(names[s]) &&
				    !strncmp(line + 1, names[s], strlen(names[s])))
					status = s;
		/* "[status] key: detail", or "[reboot] detail" without a key. */
		const char *body = close ? close + 2 : NULL;
		const char *colon = body && body <= line + len
					? memchr(body, ':', len - (size_t)(body - line))
					: NULL;
		if (status < 0 || !body || body > line + len ||
		    (status != QG_REPORT_REBOOT && !colon)) {
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
				snprintf(r->detail, sizeof(r->detail), "%.*s",
					 (int)(len - (size_t)(body - line)), body);
			} else {
				snprintf(r->key, sizeof(r->key), "%.*s", (int)(colon - body), body);
				const char *d = colon + 1 + (colon[1] == ' ');
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
