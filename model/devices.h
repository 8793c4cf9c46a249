/* SPDX-License-Identifier: MIT */
/*
 * A model's devices as the core sees them (by kind and index, each with the
 * target its platform named) and the helpers every emitter shares:
 * model/devices.c. It sits above struct qg_target (model/target_ops.h) and
 * below model/target.h, which includes it, so that a target needs only
 * target.h.
 */
#ifndef QG_DEVICES_H
#define QG_DEVICES_H

#include "outset.h"
#include "target_ops.h"
#include "template.h"

#include <stdbool.h>
#include <stddef.h>

/* The target of device i of a kind (the intent's platform), or NULL. */
const struct qg_target *qg_target_for(const struct qg_model *m, enum qg_device_kind kind, size_t i);
size_t qg_device_count(const struct qg_model *m, enum qg_device_kind kind);
const char *qg_device_name(const struct qg_model *m, enum qg_device_kind kind, size_t i);
/* Whether a target takes a device key (its keys list). */
bool qg_target_takes(const struct qg_target *t, const char *key);
/* Whether any device of the model uses target t. */
bool qg_target_used(const struct qg_model *m, const struct qg_target *t);
/* Target t's largest port MTU: its switch_mtu_max, else QG_DEFAULT_SWITCH_MTU. */
int qg_target_switch_mtu_max(const struct qg_target *t);
/*
 * The fabric's largest switch MTU: the smallest qg_target_switch_mtu_max()
 * among the switch targets the model's switches use (QG_DEFAULT_SWITCH_MTU
 * when none). oses gets them as "onyx 9216, sonic 9216", in registry order
 * ("" when none).
 */
int qg_fabric_switch_mtu_max(const struct qg_model *m, char *oses, size_t len);
/* Whether a switch of the fabric uses a target with QG_FIXED_DSCP_MAP. */
bool qg_fabric_fixed_dscp_map(const struct qg_model *m);

/*
 * Device i's whole set of files, for one device alone (push, persistence,
 * verify): its target's emit(), then emit_group(). Same returns as emit().
 */
int qg_emit_device(const struct qg_model *m, enum qg_device_kind kind, size_t i,
		   const struct qg_emit_ctx *ctx, struct qg_outset *out);

/* Shared by the emitters: the header placeholders every template knows. */
#define QG_TVARS_HEADER(ctx, m)                                                                    \
	{"generator", (ctx)->generator}, {"intent_hash", (ctx)->intent_hash},                      \
	{                                                                                          \
		"fabric", (m)->fabric                                                              \
	}

/* Fill template `name` with vars and add the result as `path`, the device's own. */
int qg_emit_template(const struct qg_emit_ctx *ctx, const char *name, const struct qg_tvar *vars,
		     size_t n_vars, const char *path, unsigned mode, struct qg_outset *out);
/* The same for a file owner says is shared (model/outset.h). */
int qg_emit_template_owned(const struct qg_emit_ctx *ctx, const char *name,
			   const struct qg_tvar *vars, size_t n_vars, const char *path,
			   unsigned mode, enum qg_file_owner owner, struct qg_outset *out);
/*
 * A table's header from template `name`, then row (one line, the device's
 * own), as a QG_FILE_ROW at path: emit/build.c writes the header once and
 * every device's row under it.
 */
int qg_emit_template_row(const struct qg_emit_ctx *ctx, const char *name,
			 const struct qg_tvar *vars, size_t n_vars, const char *row,
			 const char *path, unsigned mode, struct qg_outset *out);

#endif
