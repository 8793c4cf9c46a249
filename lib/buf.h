/* SPDX-License-Identifier: MIT */
/*
 * lib/, the floor under everything (docs/architecture.md): small tools that
 * know nothing of RoCE or of an intent: byte buffers (buf), string maps
 * (strmap), SHA-256 (hash), terminal-safe text and shell words (escape),
 * bounded file reads (readfile), fixed-point decimals (fixed), natural JSON
 * key order (jsonsort), unified diffs (udiff), error-buffer helpers
 * (errmsg), host lists (hostlist) and the version string. It includes
 * nothing of qosgen's above it.
 *
 * A growable byte buffer. Appends never fail loudly: an allocation failure
 * sets a sticky flag that the caller checks once at the end, so emitters
 * stay linear instead of checking every line.
 */
#ifndef QG_BUF_H
#define QG_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct qg_buf {
	char *data; /* always NUL-terminated when len > 0 */
	size_t len;
	size_t cap;
	bool failed; /* an allocation failed; contents are incomplete */
};

void qg_buf_append(struct qg_buf *b, const char *s, size_t n);
void qg_buf_puts(struct qg_buf *b, const char *s);
void qg_buf_printf(struct qg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Take ownership of the contents (never NULL unless failed); the buffer is reset. */
char *qg_buf_steal(struct qg_buf *b, size_t *len);
void qg_buf_free(struct qg_buf *b);

#endif
