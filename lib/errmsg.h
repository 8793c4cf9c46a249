/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the edges (files, SSH, verbs, the push pool). */
#ifndef QG_ERRMSG_H
#define QG_ERRMSG_H

#include <stddef.h>

/* printf into a caller's error buffer; returns -1, for "return qg_errf(...)". */
int qg_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Seconds on CLOCK_MONOTONIC: for timeouts and measured durations, never wall time. */
double qg_monotonic_s(void);

#endif
