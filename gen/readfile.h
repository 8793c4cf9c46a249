/* SPDX-License-Identifier: MIT */
/* Reading a whole input file, bounded: intents, templates, saved read-backs. */
#ifndef QG_READFILE_H
#define QG_READFILE_H

#include <stddef.h>

/*
 * Read a regular file of at most max bytes, NUL-terminated. Returns it
 * (malloc'ed) or NULL with *err set: an errno value, EFBIG when larger than
 * max, EISDIR/EINVAL when not a regular file.
 */
char *qg_read_file(const char *path, size_t max, size_t *len, int *err);

#endif
