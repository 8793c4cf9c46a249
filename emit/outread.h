/* SPDX-License-Identifier: MIT */
/*
 * Reading an output tree back without following links: the pieces the
 * writer (outdir.c, judging the directory it would replace) and --check
 * (outcheck.c) share.
 */
#ifndef QG_OUTREAD_H
#define QG_OUTREAD_H

#include "../model/bounds.h"

#include <stddef.h>
#include <sys/types.h>

/*
 * The most of an output tree read back (--check: the files the intent
 * gives, together; the plan.json of a directory -o replaces): a build's
 * whole output is at most QG_OUTPUT_MAX (model/bounds.h, enforced by
 * emit/build.c), so every tree qosgen wrote reads back whole, and anything
 * larger is not one of its trees. A fixed 64 MiB here once refused the
 * plan.json of a 140,000-host fabric qosgen itself had written.
 */
#define QG_OUTREAD_MAX ((size_t)QG_OUTPUT_MAX)

/*
 * A path for a message, dir and rel (rel may be NULL) joined and escaped:
 * names in an output directory come from whoever wrote it. Malloc'ed; "?"
 * when out of memory.
 */
char *qg_outread_shown(const char *dir, const char *rel);

/* "'DIR/REL' WHAT" into err, the path escaped; returns -1. */
int qg_outread_err(char *err, size_t errlen, const char *dir, const char *rel, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The messages for a link, and for anything but a file or a directory. */
extern const char qg_outread_link_refused[];
extern const char qg_outread_not_regular[];

/*
 * The entries of an open directory (unsorted), without . and ..;
 * NULL-terminated, *n of them, or NULL. qg_outread_name_cmp sorts them;
 * qg_outread_list_free frees them.
 */
char **qg_outread_list(int dfd, size_t *n);
int qg_outread_name_cmp(const void *a, const void *b);
void qg_outread_list_free(char **v);

/* Which file qg_outread_file() reads: `name` of directory dfd, DIR/REL in messages. */
struct qg_outread_req {
	int dfd;
	const char *dir, *rel, *name;
	size_t max; /* bytes at most */
};

/*
 * Read regular file rq->name of directory rq->dfd, never through a link,
 * never blocking on a FIFO, at most rq->max bytes. Returns the bytes
 * (NUL-terminated, *len and *mode set), or NULL with err and *why: ELOOP
 * (a link), EINVAL (not a regular file), EFBIG (past max), or the call's
 * errno.
 */
char *qg_outread_file(const struct qg_outread_req *rq, size_t *len, mode_t *mode, int *why,
		      char *err, size_t errlen);

#endif
