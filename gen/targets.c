/* SPDX-License-Identifier: MIT */
/* The target registry and the helpers every emitter shares. */
#include "target.h"

#include "../targets/dvs/dvs.h"
#include "../targets/esxi/esxi.h"
#include "../targets/host/linux.h"
#include "../targets/onyx/onyx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

/* One row per target, in emit order. */
const struct qg_target *const qg_targets[] = {
    &qg_target_onyx, &qg_target_linux, &qg_target_esxi, &qg_target_dvs, NULL,
};

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
	for (size_t t = 0; qg_targets[t]; t++)
		if (qg_targets[t]->kind == kind && qg_targets[t]->applies(m, i))
			return qg_targets[t];
	return NULL;
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

void qg_sh_word(struct qg_buf *b, const char *s)
{
	qg_buf_puts(b, "'");
	for (; *s; s++) {
		if (*s == '\'')
			qg_buf_puts(b, "'\\''");
		else
			qg_buf_append(b, s, 1);
	}
	qg_buf_puts(b, "'");
}

void qg_push_say(struct qg_push_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
}
