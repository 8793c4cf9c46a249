/* SPDX-License-Identifier: MIT */
#include "esxi_push.h"

#include "../common/script_push.h"

static int esxi_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	return script_push(m, i, ctx, a, dry_run, NULL, r);
}

const struct qg_driver qg_driver_esxi = {.target = &qg_target_esxi, .push = esxi_push};
