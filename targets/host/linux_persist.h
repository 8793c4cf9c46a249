/* SPDX-License-Identifier: MIT */
/*
 * What a push sends a Linux host so that its settings come back by
 * themselves (persist: true): the host's generated files (script, systemd
 * unit, udev rule: linux.c emits them into out/host/ too) installed at
 * linux_persist_paths(), or removed again, by a script that reports one line
 * of key "persist" (templates/linux-persist.sh.in says what it prints). Pure:
 * the payload goes as stdin of `sh -s`, like every host script.
 */
#ifndef QG_LINUX_PERSIST_H
#define QG_LINUX_PERSIST_H

#include "../../lib/buf.h"
#include "../../model/target.h"

#include <stdbool.h>

enum linux_persist_op {
	LINUX_PERSIST_NONE,    /* persist: false: the script alone, as before */
	LINUX_PERSIST_INSTALL, /* install what differs (QG_DRY_RUN=1: report it) */
	LINUX_PERSIST_REMOVE,  /* --uninstall: remove exactly what qosgen installs */
};

/*
 * The payload for host i from its emitted files (files: what the linux
 * target's emit() gave, in any order). With run_script the host's script
 * runs after the persist line, from the payload itself (not from the
 * installed copy: it runs even when installing failed), and the exit status
 * is the worse of the two. 0, -EINVAL (a file the target did not emit, or a
 * line equal to its here-document's end marker), or -ENOMEM.
 */
int linux_persist_payload(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			  const struct qg_outset *files, enum linux_persist_op op, bool run_script,
			  struct qg_buf *out);

#endif
