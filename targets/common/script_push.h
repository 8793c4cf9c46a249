/* SPDX-License-Identifier: MIT */
/*
 * Push for hosts (Linux and ESXi alike): the generated script is sent over
 * the SSH session to `sh -s` (no scp, no file left on the host), run, and
 * its report lines parsed. The script is idempotent and checks before it
 * changes, so an unchanged host gets only reads; QG_DRY_RUN=1 makes it report
 * what differs and change nothing.
 */
#ifndef QG_SCRIPT_PUSH_H
#define QG_SCRIPT_PUSH_H

#include "../driver.h"

/*
 * What goes to `sh -s` for host i besides its script, from files (what its
 * target's emit() gave): a target that installs something on its hosts
 * (Linux: persist) puts that around the script, or its removal with
 * uninstall. 0, -EINVAL or -ENOMEM.
 */
typedef int (*script_payload_fn)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
				 const struct qg_outset *files, bool uninstall, struct qg_buf *out);

/*
 * The push of host i, Linux and ESXi alike: each target's driver is this
 * with its own payload_of (NULL: the script alone, and nothing to remove
 * on --uninstall). Called from the push's worker threads with one ctx for
 * all of them: nothing here writes to ctx (a template error goes to a
 * diagnostics list of this call's own, and into r->message).
 */
int script_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		const struct qg_access *a, bool dry_run, script_payload_fn payload_of,
		struct qg_push_result *r);

/*
 * Judge what the host's script printed (out: its stdout, the report lines;
 * errout: its stderr; status: its exit status) into r: the state, the one-line
 * message, and the [changed]/[differs] lines in r->sent. Pure. The text is
 * the host's and kept as it came (a key may hold any byte but a newline):
 * whoever prints r escapes it (lib/escape.h). Returns 0, or -ENOMEM.
 */
int script_push_judge(const char *out, const char *errout, int status, bool dry_run,
		      struct qg_push_result *r);

#endif
