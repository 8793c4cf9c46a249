/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as what a host's script printed over SSH (the
 * report lines "[changed] mtu: 1500 -> 9000", stray tool output, a hostile
 * host's escape sequences), read by targets/common/report.c and judged by
 * targets/common/script_push.c into a push result.
 *
 * Input: byte 0 picks the exit status (low 7 bits) and the dry run (high
 * bit); the rest is stdout, then after the first NUL byte, stderr.
 *
 * Beyond "no crash", it asserts what the printing side relies on: every
 * line is a report line or counted as other output; a parsed key and detail
 * hold no newline and were in that line; the result's message is one line;
 * r.sent has exactly one line per [changed]/[differs] report line (a host
 * cannot forge a line); r.failed, when filled, one bounded line per [failed]
 * report line; and the message escaped (lib/escape.h), as push/push.c
 * prints it, holds no control character a terminal would act on.
 */
#include "../../lib/escape.h"
#include "../../targets/common/report.h"
#include "../../targets/common/script_push.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_escaped(const char *s)
{
	char *e = qg_escape(s);
	if (!e)
		return;
	for (const unsigned char *p = (const unsigned char *)e; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)) {
			fprintf(stderr, "a control byte 0x%02x survives escaping\n", *p);
			abort();
		}
	free(e);
}

/*
 * The format, stated again here independently of the parser: "[NAME] KEY:
 * DETAIL" (one space after the bracket, the first colon ends the key, one
 * space after it skipped), or "[reboot] DETAIL". Returns the status or -1.
 */
static int report_line(const char *line, size_t len, const char **body)
{
	static const char *const names[] = {"ok",  "changed", "failed", "missing",
					    "n/a", "reboot",  "differs"};
	for (int s = 0; s < 7; s++) {
		size_t n = strlen(names[s]);
		if (len < n + 3 || line[0] != '[' || memcmp(line + 1, names[s], n) ||
		    line[n + 1] != ']' || line[n + 2] != ' ')
			continue;
		*body = line + n + 3;
		if (s == QG_REPORT_REBOOT || memchr(*body, ':', len - (n + 3)))
			return s;
	}
	return -1;
}

/* The parse: every line accounted for, each parsed one exactly its own line's text. */
static void check_parse(const char *out)
{
	struct qg_report rep;
	if (qg_report_parse(out, &rep) != 0)
		return;
	size_t lines = 0, k = 0;
	char want_key[sizeof(rep.v[0].key)], want_detail[sizeof(rep.v[0].detail)];
	for (const char *line = out; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *body;
		int s = report_line(line, len, &body);
		lines++;
		if (s >= 0) {
			if (k >= rep.n || (int)rep.v[k].status != s) {
				fprintf(stderr, "line %zu is a report line, not parsed as one\n",
					lines);
				abort();
			}
			size_t rest = len - (size_t)(body - line);
			if (s == QG_REPORT_REBOOT) {
				want_key[0] = '\0';
				snprintf(want_detail, sizeof(want_detail), "%.*s", (int)rest, body);
			} else {
				const char *colon = memchr(body, ':', rest);
				const char *d =
				    colon + 1 + (colon + 1 < line + len && colon[1] == ' ');
				snprintf(want_key, sizeof(want_key), "%.*s", (int)(colon - body),
					 body);
				snprintf(want_detail, sizeof(want_detail), "%.*s",
					 (int)(len - (size_t)(d - line)), d);
			}
			if (strcmp(rep.v[k].key, want_key) ||
			    strcmp(rep.v[k].detail, want_detail)) {
				fprintf(
				    stderr, "line %zu: key '%s' detail '%s', expected '%s' '%s'\n",
				    lines, rep.v[k].key, rep.v[k].detail, want_key, want_detail);
				abort();
			}
			k++;
		}
		line = nl ? nl + 1 : line + len;
	}
	for (size_t i = 0; i < rep.n; i++) {
		check_escaped(rep.v[i].key);
		check_escaped(rep.v[i].detail);
	}
	if (k != rep.n || rep.n + rep.other_lines != lines) {
		fprintf(stderr, "%zu lines, %zu parsed (%zu expected), %zu other\n", lines, rep.n,
			k, rep.other_lines);
		abort();
	}
	qg_report_free(&rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	int status = data[0] & 0x7f;
	bool dry_run = data[0] & 0x80;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	const char *out = text;
	size_t out_len = strlen(text);
	const char *errout = out_len + 1 < size ? text + out_len + 1 : NULL;

	check_parse(out);

	struct qg_push_result r;
	memset(&r, 0, sizeof(r));
	if (script_push_judge(out, errout, status, dry_run, &r) == 0) {
		if ((unsigned)r.state > QG_PUSH_FAILED ||
		    !memchr(r.message, '\0', sizeof(r.message)) || strchr(r.message, '\n')) {
			fprintf(stderr, "a bad result: state %d, message '%s'\n", r.state,
				r.message);
			abort();
		}
		check_escaped(r.message);
		struct qg_report rep;
		if (qg_report_parse(out, &rep) == 0) {
			size_t want = 0, have = 0;
			for (size_t i = 0; i < rep.n; i++)
				want += rep.v[i].status == QG_REPORT_CHANGED ||
					rep.v[i].status == QG_REPORT_DIFFERS;
			for (size_t i = 0; i < r.sent.len; i++)
				have += r.sent.data[i] == '\n';
			if (want != have) {
				fprintf(stderr, "%zu [changed]/[differs] lines, %zu sent lines\n",
					want, have);
				abort();
			}
			/* One bounded "KEY: REASON" line per [failed] line, or none at all. */
			size_t failed = 0, lines = 0;
			for (size_t i = 0; i < rep.n; i++)
				failed += rep.v[i].status == QG_REPORT_FAILED;
			for (size_t i = 0; i < r.failed.len;) {
				const char *nl = memchr(r.failed.data + i, '\n', r.failed.len - i);
				size_t n =
				    nl ? (size_t)(nl - (r.failed.data + i)) : r.failed.len - i;
				if (!nl || n > sizeof(rep.v[0].key) + 2 + 160 + 3) {
					fprintf(stderr, "failed line %zu: %zu bytes, %s\n", lines,
						n, nl ? "too long" : "no newline");
					abort();
				}
				lines++;
				i += n + 1;
			}
			if (lines && lines != failed) {
				fprintf(stderr, "%zu [failed] lines, %zu reasons\n", failed, lines);
				abort();
			}
			qg_report_free(&rep);
		}
	}
	qg_buf_free(&r.sent);
	qg_buf_free(&r.failed);
	free(text);
	return 0;
}
