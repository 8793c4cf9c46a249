/* SPDX-License-Identifier: MIT */
/*
 * `build --check`: comparing a committed output directory with the file set,
 * when that directory comes from a pull request.
 */
#ifndef QG_OUTCHECK_H
#define QG_OUTCHECK_H

#include "../model/outset.h"

#include <stddef.h>
#include <stdio.h>

/*
 * Compare dir with o, as `build --check` does in CI on a directory a pull
 * request controls. Nothing is read through a symbolic link: every
 * component of dir and every entry below it is opened with O_NOFOLLOW, and a
 * link anywhere (or a FIFO, a device) is an error naming it, before anything
 * is printed. The committed files are read into memory and compared there;
 * for each difference a unified diff (labels a/PATH for what is in dir,
 * b/PATH for what the intent gives) goes to out, control characters escaped.
 * Returns 0 when identical, 1 when different, -1 with err on an error.
 */
int qg_outdir_check(const char *dir, const struct qg_outset *o, FILE *out, char *err,
		    size_t errlen);

#endif
