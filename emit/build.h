/* SPDX-License-Identifier: MIT */
/*
 * emit/, the build (docs/architecture.md): a model to files and answers,
 * all in memory and pure: the targets' output (build), plan.json and the
 * model's JSON (modeljson), explain's rows (explain, explain_text), the
 * headroom report, the Ansible hand-off (handoff), the key table as a JSON
 * Schema and man page (keys_schema); and the one place files reach the
 * disk, all or nothing (outdir, outread, outcheck). It includes intent/,
 * model/ and lib/, nothing above.
 *
 * The compiler's middle: model in, every generated file in memory out.
 * Pure: it reads no file and no clock; `qosgen build` writes the result.
 */
#ifndef QG_BUILD_H
#define QG_BUILD_H

#include "../model/diag.h"
#include "../model/model.h"
#include "../model/outset.h"
#include "../model/template.h"

/*
 * A model that passed every target's check() (qg_build_check()): what
 * qg_build() takes. The checks run once, where the caller loads the intent,
 * and their warnings are said once; the build cannot be handed a model that
 * skipped them.
 */
struct qg_checked {
	const struct qg_model *m; /* NULL: the checks failed, or never ran */
};

/*
 * Every target's check() and the hand-off's, once. Returns 0 or -1 (errors
 * in d); ok (may be NULL) gets the model on 0, NULL otherwise.
 */
int qg_build_check(const struct qg_model *m, struct qg_diags *d, struct qg_checked *ok);

/*
 * Every emitter on a checked model, then plan.json into out. Returns 0; -1
 * when a template failed (reported in d) or c holds no model; -ENOMEM.
 */
int qg_build(const struct qg_checked *c, const struct qg_templates *t, struct qg_diags *d,
	     struct qg_outset *out);

#endif
