/* SPDX-License-Identifier: MIT */
#include "linux_push.h"

#include "../common/script_push.h"
#include "linux.h"
#include "linux_persist.h"

int linux_push_payload(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		       const struct qg_outset *files, bool uninstall, struct qg_buf *out)
{
	enum linux_persist_op op = uninstall		 ? LINUX_PERSIST_REMOVE
				   : m->hosts[i].persist ? LINUX_PERSIST_INSTALL
							 : LINUX_PERSIST_NONE;
	return linux_persist_payload(m, i, ctx, files, op, !uninstall, out);
}

static int linux_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	return script_push(m, i, ctx, a, dry_run, linux_push_payload, r);
}

/* The install's dry run alone: its "persist" line says whether the copy is current. */
static int linux_persist_probe(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			       const struct qg_outset *files, struct qg_buf *out)
{
	return linux_persist_payload(m, i, ctx, files, LINUX_PERSIST_INSTALL, false, out);
}

const struct qg_driver qg_driver_linux = {
    .target = &qg_target_linux, .push = linux_push, .persist_probe = linux_persist_probe};
