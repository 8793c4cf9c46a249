/* SPDX-License-Identifier: MIT */
/*
 * Text from outside (an intent's values, a device's answers) made safe for a
 * terminal or a log: a newline or an escape sequence must not forge a second
 * message line, set the terminal's title or erase what was printed.
 */
#ifndef QG_ESCAPE_H
#define QG_ESCAPE_H

#include "buf.h"

#include <stddef.h>

/*
 * Append s (len bytes) with every C0 control byte and DEL written as \n, \t
 * or \xNN, and every C1 control (U+0080..U+009F, which some terminals obey
 * like ESC) as \u00NN. Other bytes, UTF-8 included, pass unchanged.
 */
void qg_escape_append(struct qg_buf *out, const char *s, size_t len);

/* The same, into a new NUL-terminated string (malloc'ed), or NULL out of memory. */
char *qg_escape(const char *s);

/*
 * Append s as one shell word in single quotes. The intent's character sets
 * already keep quotes out; quoting anyway means a future, wider set cannot
 * open a hole.
 */
void qg_sh_word(struct qg_buf *b, const char *s);

#endif
