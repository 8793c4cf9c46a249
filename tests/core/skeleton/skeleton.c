/* SPDX-License-Identifier: MIT */
/*
 * A switch OS that takes ports "portN" (N 1..255) and writes one line per
 * port, skeleton/<switch>.txt. It declares no feature (features 0): every
 * feature the intent gives is reported as ignored by it (model/target_features.h).
 */
#include "skeleton.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int skeleton_port_parse(const char *s, struct qg_port **out, size_t *n, char *err,
			       size_t errlen)
{
	char *end;
	if (strncmp(s, "port", 4) || s[4] < '1' || s[4] > '9') {
		snprintf(err, errlen, "expected portN");
		return -1;
	}
	long v = strtol(s + 4, &end, 10);
	if (*end || v > 255) {
		snprintf(err, errlen, "expected portN, N 1..255");
		return -1;
	}
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	(*out)->port = (uint8_t)v;
	*n = 1;
	return 0;
}

static void skeleton_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN])
{
	snprintf(out, QG_PORT_TEXT_LEN, "port%u", p->port);
}

static void skeleton_port_format_run(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN])
{
	if (r->first.port == r->last.port)
		snprintf(out, QG_PORT_TEXT_LEN, "port%u", r->first.port);
	else
		snprintf(out, QG_PORT_TEXT_LEN, "port%u-%u", r->first.port, r->last.port);
}

static const struct qg_port_syntax skeleton_ports = {
    .rule = "portN, N 1..255, one port an item",
    .parse = skeleton_port_parse,
    .format = skeleton_port_format,
    .format_run = skeleton_port_format_run,
};

static int skeleton_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	qg_settings_add(out, "mtu", "%d", m->qos.switch_mtu);
	qg_settings_add(out, "ports", "%zu", m->switches[i].n_ports);
	return out->oom ? -ENOMEM : 0;
}

static int skeleton_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			 struct qg_outset *out)
{
	(void)ctx;
	const struct qg_switch *s = &m->switches[i];
	struct qg_buf b = {0};
	for (size_t p = 0; p < s->n_ports; p++)
		qg_buf_printf(&b, "port%u mtu %d\n", s->ports[p].port, m->qos.switch_mtu);
	qg_buf_puts(&b, ""); /* a switch without ports still gets its (empty) file */
	size_t len;
	char *data = qg_buf_steal(&b, &len);
	if (!data)
		return -ENOMEM;
	char path[QG_NAME_LEN + 16];
	snprintf(path, sizeof(path), "skeleton/%s.txt", s->name);
	return qg_outset_add(out, path, data, len, 0644);
}

const struct qg_target qg_target_skeleton = {
    .name = "skeleton",
    .summary = "a switch that takes only its ports' MTU (skeleton/<switch>.txt); a test target",
    .kind = QG_DEVICE_SWITCH,
    .ports = &skeleton_ports,
    .access = "none",
    .default_port = 22,
    .settings = skeleton_settings,
    .emit = skeleton_emit,
    .features = 0,
};

const struct qg_driver qg_driver_skeleton = {.target = &qg_target_skeleton};
