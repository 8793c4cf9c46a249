/* SPDX-License-Identifier: MIT */
/*
 * A model's devices as the core sees them: by kind and index, each with the
 * target its platform named (set by the intent loader from the registry it
 * was handed); and the helpers every emitter shares.
 */
#include "devices.h"
#include "keys.h"

#include <stdio.h>

#include <errno.h>
#include <string.h>

size_t qg_device_count(const struct qg_model *m, enum qg_device_kind kind)
{
	switch (kind) {
	case QG_DEVICE_SWITCH:
		return m->n_switches;
	case QG_DEVICE_HOST:
		return m->n_hosts;
	default:
		return m->n_dvs;
	}
}

const char *qg_device_name(const struct qg_model *m, enum qg_device_kind kind, size_t i)
{
	switch (kind) {
	case QG_DEVICE_SWITCH:
		return m->switches[i].name;
	case QG_DEVICE_HOST:
		return m->hosts[i].name;
	default:
		return m->dvs[i].name;
	}
}

const struct qg_target *qg_target_for(const struct qg_model *m, enum qg_device_kind kind, size_t i)
{
	switch (kind) {
	case QG_DEVICE_SWITCH:
		return m->switches[i].target;
	case QG_DEVICE_HOST:
		return m->hosts[i].target;
	default:
		return m->dvs[i].target;
	}
}

bool qg_target_takes(const struct qg_target *t, const char *key)
{
	for (const struct qg_key *r = t->key_rows; r && r->path; r++)
		if (!strcmp(r->path, key))
			return true;
	return false;
}

bool qg_target_used(const struct qg_model *m, const struct qg_target *t)
{
	for (size_t i = 0; i < qg_device_count(m, t->kind); i++)
		if (qg_target_for(m, t->kind, i) == t)
			return true;
	return false;
}

int qg_target_switch_mtu_max(const struct qg_target *t)
{
	return t->switch_mtu_max > 0 && t->switch_mtu_max < QG_DEFAULT_SWITCH_MTU
		   ? t->switch_mtu_max
		   : QG_DEFAULT_SWITCH_MTU;
}

bool qg_fabric_fixed_dscp_map(const struct qg_model *m)
{
	for (size_t t = 0; m->targets && m->targets[t]; t++) {
		const struct qg_target *x = m->targets[t];
		if (x->kind == QG_DEVICE_SWITCH && (x->caps & QG_FIXED_DSCP_MAP) &&
		    qg_target_used(m, x))
			return true;
	}
	return false;
}

int qg_fabric_switch_mtu_max(const struct qg_model *m, char *oses, size_t len)
{
	int max = QG_DEFAULT_SWITCH_MTU;
	size_t used = 0;
	if (len)
		oses[0] = '\0';
	for (size_t t = 0; m->targets && m->targets[t]; t++) {
		const struct qg_target *x = m->targets[t];
		if (x->kind != QG_DEVICE_SWITCH || !qg_target_used(m, x))
			continue;
		int tmax = qg_target_switch_mtu_max(x);
		if (tmax < max)
			max = tmax;
		if (used < len) {
			int k = snprintf(oses + used, len - used, "%s%s %d", used ? ", " : "",
					 x->name, tmax);
			used = k < 0 ? len : used + (size_t)k;
		}
	}
	return max;
}

int qg_emit_template(const struct qg_emit_ctx *ctx, const char *name, const struct qg_tvar *vars,
		     size_t n_vars, const char *path, unsigned mode, struct qg_outset *out)
{
	struct qg_buf b = {0};
	if (qg_template_fill(ctx->templates, name, vars, n_vars, &b, ctx->d) != 0) {
		qg_buf_free(&b);
		return -EINVAL;
	}
	size_t len = 0;
	char *data = qg_buf_steal(&b, &len);
	if (!data)
		return -ENOMEM;
	return qg_outset_add(out, path, data, len, mode);
}

int qg_emit_device(const struct qg_model *m, enum qg_device_kind kind, size_t i,
		   const struct qg_emit_ctx *ctx, struct qg_outset *out)
{
	const struct qg_target *t = qg_target_for(m, kind, i);
	if (!t)
		return -EINVAL;
	int rc = t->emit(m, i, ctx, out);
	if (rc == 0 && t->emit_group)
		rc = t->emit_group(m, i, ctx, out);
	return rc;
}

int qg_emit_template_owned(const struct qg_emit_ctx *ctx, const char *name,
			   const struct qg_tvar *vars, size_t n_vars, const char *path,
			   unsigned mode, enum qg_file_owner owner, struct qg_outset *out)
{
	int rc = qg_emit_template(ctx, name, vars, n_vars, path, mode, out);
	return rc ? rc : qg_outset_set_owner(out, path, owner);
}

int qg_emit_template_row(const struct qg_emit_ctx *ctx, const char *name,
			 const struct qg_tvar *vars, size_t n_vars, const char *row,
			 const char *path, unsigned mode, struct qg_outset *out)
{
	struct qg_buf b = {0};
	if (qg_template_fill(ctx->templates, name, vars, n_vars, &b, ctx->d) != 0) {
		qg_buf_free(&b);
		return -EINVAL;
	}
	size_t head = b.len;
	qg_buf_puts(&b, row);
	size_t len = 0;
	char *data = qg_buf_steal(&b, &len);
	if (!data)
		return -ENOMEM;
	int rc = qg_outset_add(out, path, data, len, mode);
	if (rc)
		return rc;
	out->v[out->n - 1].owner = QG_FILE_ROW;
	out->v[out->n - 1].head = head;
	return 0;
}
