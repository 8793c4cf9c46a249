/* SPDX-License-Identifier: MIT */
/* Reading a whole input file, bounded: intents, templates, saved read-backs. */
#ifndef QG_READFILE_H
#define QG_READFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Read a regular file of at most max bytes, NUL-terminated (the text may
 * hold NULs of its own: *len counts every byte). Returns it (malloc'ed) or
 * NULL with *err set: an errno value, EFBIG when larger than max, EISDIR, or
 * EINVAL when not a regular file. With streams, a pipe, a terminal or a
 * socket is read to its end too (/dev/stdin, a process substitution).
 */
char *qg_read_file(const char *path, size_t max, bool streams, size_t *len, int *err);

/* The same for an open descriptor (standard input), read to its end. */
char *qg_read_fd(int fd, size_t max, size_t *len, int *err);

#endif
