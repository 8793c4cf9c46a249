/* SPDX-License-Identifier: MIT */
/*
 * Putting a built file set on disk, all or nothing: the files are written
 * into a fresh directory beside the target, synced, and swapped in with one
 * rename, so a reader sees the old tree or the new one and never a mix.
 */
#ifndef QG_OUTDIR_H
#define QG_OUTDIR_H

#include "outset.h"

#include <stdio.h>

/*
 * Replace dir with exactly the files of o. An existing dir is replaced only
 * if it is empty or holds a plan.json (an earlier qosgen output): anything
 * else is refused, so that `-o ~` cannot wipe a home directory.
 * Returns 0, or -1 with a message in err.
 */
int qg_outdir_write(const char *dir, const struct qg_outset *o, char *err, size_t errlen);

/*
 * Compare dir with o. Prints a unified diff (labels a/PATH for what is in dir,
 * b/PATH for what the intent gives) to out for every difference, with `diff -u`.
 * Returns 0 when identical, 1 when different, -1 with err on a system error.
 */
int qg_outdir_check(const char *dir, const struct qg_outset *o, FILE *out, char *err,
		    size_t errlen);

#endif
