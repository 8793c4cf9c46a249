/* SPDX-License-Identifier: MIT */
/*
 * The compiler's middle: model in, every generated file in memory out.
 * Pure: it reads no file and no clock; `qosgen build` writes the result.
 */
#ifndef QG_BUILD_H
#define QG_BUILD_H

#include "diag.h"
#include "model.h"
#include "outset.h"
#include "template.h"

/*
 * Run every target's check, then every emitter, then write plan.json into
 * out. Returns 0; -1 when a check or a template failed (reported in d);
 * -ENOMEM.
 */
int qg_build(const struct qg_model *m, const struct qg_templates *t, struct qg_diags *d,
	     struct qg_outset *out);

/* Every target's check() only (for `qosgen check`). Returns 0 or -1. */
int qg_build_check(const struct qg_model *m, struct qg_diags *d);

#endif
