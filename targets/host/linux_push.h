/* SPDX-License-Identifier: MIT */
/*
 * The Linux host's driver (qg_driver_linux, declared in linux.h): its
 * script over SSH, the push every host target shares
 * (targets/common/script_push.c), with the install or removal of its
 * persistent copy in front (linux_persist.c).
 */
#ifndef QG_LINUX_PUSH_H
#define QG_LINUX_PUSH_H

#include "../../lib/buf.h"
#include "../../model/target.h"

#include <stdbool.h>

/*
 * What goes to `sh -s` for host i, from files (what linux emit() gave):
 * with uninstall the removal of its installed copy and no script; else the
 * install (persist: true) or nothing, then the script. 0, -EINVAL, -ENOMEM.
 */
int linux_push_payload(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		       const struct qg_outset *files, bool uninstall, struct qg_buf *out);

#endif
