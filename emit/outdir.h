/* SPDX-License-Identifier: MIT */
/*
 * Putting a built file set on disk, all or nothing: the files are written
 * into a fresh directory beside the target, synced, and swapped in with one
 * rename, so a reader sees the old tree or the new one and never a mix.
 * The other way, `build --check` (outcheck.h, included here for the callers
 * of both): comparing a committed output directory with the set.
 */
#ifndef QG_OUTDIR_H
#define QG_OUTDIR_H

#include "outcheck.h"
#include "../model/outset.h"

#include <stdio.h>

/*
 * Replace dir with exactly the files of o. A missing or empty dir is fine.
 * An existing one is replaced only when it is qosgen's own output: its
 * plan.json has the shape qosgen writes (a "generator" of "qosgen ...", the
 * intent's sha256, the devices' files) and every entry at its top is
 * plan.json or a folder that plan lists files in. Anything else is refused,
 * naming what was found: `-o ~`, or a directory holding another tool's
 * plan.json beside a .git/, must never be wiped.
 * Returns 0, or -1 with a message in err.
 */
int qg_outdir_write(const char *dir, const struct qg_outset *o, char *err, size_t errlen);

/*
 * For a command that writes an output: SIGINT, SIGTERM and SIGHUP during
 * qg_outdir_write stop it, its temporary tree removed (it returns -1); at
 * any other time they act as by default. After a -1, qg_outdir_stopped()
 * is the signal that stopped it (0: none), for the caller to re-raise.
 * A temporary tree an earlier build left (SIGKILL, a crash) is removed by
 * the next qg_outdir_write for the same directory: one named
 * .BASE.qosgen-XXXXXX beside it, ours, holding qosgen's marker file of a
 * process that is gone; nothing else.
 */
void qg_outdir_catch_signals(void);
int qg_outdir_stopped(void);

#endif
