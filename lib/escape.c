/* SPDX-License-Identifier: MIT */
#include "escape.h"

#include <stdlib.h>
#include <string.h>

void qg_escape_append(struct qg_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len; i++) {
		if (p[i] == '\n')
			qg_buf_puts(out, "\\n");
		else if (p[i] == '\t')
			qg_buf_puts(out, "\\t");
		else if (p[i] < 0x20 || p[i] == 0x7f)
			qg_buf_printf(out, "\\x%02x", p[i]);
		else if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			qg_buf_printf(out, "\\u%04x", p[++i]);
		else
			qg_buf_append(out, s + i, 1);
	}
}

char *qg_escape(const char *s)
{
	struct qg_buf b = {0};
	qg_escape_append(&b, s, strlen(s));
	qg_buf_append(&b, "", 0);
	if (b.failed) {
		qg_buf_free(&b);
		return NULL;
	}
	return b.data ? b.data : strdup("");
}

void qg_sh_word(struct qg_buf *b, const char *s)
{
	qg_buf_puts(b, "'");
	for (; *s; s++) {
		if (*s == '\'')
			qg_buf_puts(b, "'\\''");
		else
			qg_buf_append(b, s, 1);
	}
	qg_buf_puts(b, "'");
}
