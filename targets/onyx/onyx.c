/* SPDX-License-Identifier: MIT */
/*
 * Syntax follows the reference switch configuration of the RDG "GPUDirect
 * RDMA + RoCE over a lossless network in DSCP-based QoS mode"
 * (shared/seeds/000_d0a5270bf41eb4a2.txt) line for line, and the Onyx User
 * Manual 3.10 (Shared Buffer, QoS and ETS commands) for the variants the
 * reference does not show (trust L2, ETS wrr). Notes in shared/notes/targets.md §1.
 *
 * PFC: the reference carries no `dcb priority-flow-control` line; mapping a
 * switch-priority to a lossless traffic pool is what makes it lossless on
 * Onyx (`show dcb priority-flow-control` then reads "PFC admin Auto, oper
 * Enabled"), so qosgen follows the reference and adds none.
 */
#include "onyx.h"

#include "../../gen/ports.h"
#include "onyx_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const onyx_section_title[ONYX_SEC_COUNT] = {
    "Interface Ethernet configuration",
    "Interface Ethernet buffer configuration",
    "QoS switch configuration",
    "DCBX ETS configuration",
};

static bool onyx_applies(const struct qg_model *m, size_t i)
{
	return m->switches[i].platform == QG_SWITCH_ONYX;
}

static void onyx_check(const struct qg_model *m, struct qg_diags *d)
{
	if (m->n_switches == 0)
		return;
	/*
	 * Onyx maps switch-priority N to traffic class N by default (the
	 * rewrite table of show_qos_interface_ethernet.cfg); qosgen 1 emits no
	 * remap, so a different traffic class would configure the wrong queue.
	 */
	const struct qg_class *cls[2] = {&m->qos.lossless, m->qos.cnp ? &m->qos.cnpc : NULL};
	for (int k = 0; k < 2; k++) {
		const struct qg_class *c = cls[k];
		if (c && c->tc_given && c->traffic_class != c->priority)
			qg_error(d, c->tc_pos,
				 "qos.%s.traffic_class %d differs from its priority %d; the onyx "
				 "target uses Onyx's default switch-priority to traffic-class map "
				 "and cannot remap it",
				 k == 0 ? "lossless" : "cnp", c->traffic_class, c->priority);
	}
}

/* Print "<sec>\tinterface ethernet <run> <what>\n" for each run of ports. */
static void per_ports(struct qg_buf *out, const struct qg_port_run *runs, size_t n_runs,
		      enum onyx_section sec, const char *what)
{
	for (size_t r = 0; r < n_runs; r++) {
		char text[2 * QG_PORT_TEXT_LEN];
		qg_port_run_format(&runs[r], text);
		qg_buf_printf(out, "%d\tinterface ethernet %s %s\n", sec, text, what);
	}
}

static void ets_line(char *buf, size_t len, const struct qg_class *c)
{
	if (c->ets.mode == QG_ETS_STRICT)
		snprintf(buf, len, "traffic-class %d dcb ets strict", c->traffic_class);
	else
		snprintf(buf, len, "traffic-class %d dcb ets wrr %d", c->traffic_class,
			 c->ets.weight);
}

void onyx_commands(const struct qg_model *m, size_t i, struct qg_buf *out)
{
	const struct qg_switch *s = &m->switches[i];
	const struct qg_qos *q = &m->qos;
	struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
	if (!runs) {
		out->failed = true;
		return;
	}
	size_t n_runs = qg_port_runs(s->ports, s->n_ports, runs);
	char what[128];

	snprintf(what, sizeof(what), "mtu %d force", q->switch_mtu);
	per_ports(out, runs, n_runs, ONYX_SEC_INTERFACE, what);

	/* Memory percent printed with two decimals, as Onyx prints it back ("50.00"). */
	qg_buf_printf(out, "%d\ttraffic pool %s type lossless\n", ONYX_SEC_BUFFER, q->pool_name);
	qg_buf_printf(out, "%d\ttraffic pool %s memory percent %d.%02d\n", ONYX_SEC_BUFFER,
		      q->pool_name, q->pool_percent_centi / 100, q->pool_percent_centi % 100);
	qg_buf_printf(out, "%d\ttraffic pool %s map switch-priority %d\n", ONYX_SEC_BUFFER,
		      q->pool_name, q->lossless.priority);

	per_ports(out, runs, n_runs, ONYX_SEC_QOS,
		  q->trust == QG_TRUST_DSCP ? "qos trust L3" : "qos trust L2");
	if (q->ecn) {
		snprintf(what, sizeof(what),
			 "traffic-class %d congestion-control ecn minimum-absolute %d "
			 "maximum-absolute %d",
			 q->lossless.traffic_class, q->ecn_min_kb, q->ecn_max_kb);
		per_ports(out, runs, n_runs, ONYX_SEC_QOS, what);
	}

	/* ETS lines in traffic-class order, as the running-config lists them. */
	const struct qg_class *ets[2] = {&q->lossless, q->cnp ? &q->cnpc : NULL};
	if (ets[1] && ets[1]->traffic_class < ets[0]->traffic_class) {
		ets[1] = ets[0];
		ets[0] = &q->cnpc;
	}
	for (int k = 0; k < 2; k++) {
		if (!ets[k] || ets[k]->ets.mode == QG_ETS_UNSET)
			continue;
		ets_line(what, sizeof(what), ets[k]);
		per_ports(out, runs, n_runs, ONYX_SEC_ETS, what);
	}
	free(runs);
}

static int onyx_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	const struct qg_switch *s = &m->switches[i];
	const struct qg_qos *q = &m->qos;
	struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	size_t n_runs = qg_port_runs(s->ports, s->n_ports, runs);
	struct qg_buf list = {0};
	for (size_t r = 0; r < n_runs; r++) {
		char text[2 * QG_PORT_TEXT_LEN];
		qg_port_run_format(&runs[r], text);
		qg_buf_printf(&list, "%s%s", r ? "," : "", text);
	}
	free(runs);
	qg_settings_add(out, "ports", "%s", list.data ? list.data : "");
	qg_buf_free(&list);
	qg_settings_add(out, "mtu", "%d", q->switch_mtu);
	qg_settings_add(out, "trust", "%s", q->trust == QG_TRUST_DSCP ? "L3" : "L2");
	qg_settings_add(out, "pool", "%s", q->pool_name);
	qg_settings_add(out, "pool.type", "lossless");
	qg_settings_add(out, "pool.memory_percent", "%d.%02d", q->pool_percent_centi / 100,
			q->pool_percent_centi % 100);
	qg_settings_add(out, "pool.switch_priority", "%d", q->lossless.priority);
	char key[64];
	if (q->ecn) {
		snprintf(key, sizeof(key), "tc%d.ecn", q->lossless.traffic_class);
		qg_settings_add(out, key, "%d..%d KB", q->ecn_min_kb, q->ecn_max_kb);
	}
	const struct qg_class *cls[2] = {&q->lossless, q->cnp ? &q->cnpc : NULL};
	for (int k = 0; k < 2; k++) {
		if (!cls[k] || cls[k]->ets.mode == QG_ETS_UNSET)
			continue;
		snprintf(key, sizeof(key), "tc%d.ets", cls[k]->traffic_class);
		if (cls[k]->ets.mode == QG_ETS_STRICT)
			qg_settings_add(out, key, "strict");
		else
			qg_settings_add(out, key, "wrr %d", cls[k]->ets.weight);
	}
	return out->oom ? -ENOMEM : 0;
}

static int onyx_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     struct qg_outset *out)
{
	struct qg_buf cmds = {0}, body = {0};
	onyx_commands(m, i, &cmds);
	if (cmds.failed) {
		qg_buf_free(&cmds);
		return -ENOMEM;
	}
	/* Section comments as in a running-config, so the file reads like one. */
	int section = -1;
	for (char *line = cmds.data; line && *line;) {
		char *end = strchr(line, '\n');
		int sec = line[0] - '0';
		if (sec != section) {
			qg_buf_printf(&body, "%s##\n## %s\n##\n", section < 0 ? "" : "\n",
				      onyx_section_title[sec]);
			section = sec;
		}
		qg_buf_append(&body, line + 2, (size_t)(end - line - 1));
		line = end + 1;
	}
	qg_buf_free(&cmds);
	/* The template ends the file with its own newline after {{body}}. */
	if (body.len > 0 && body.data[body.len - 1] == '\n')
		body.data[--body.len] = '\0';
	if (body.failed) {
		qg_buf_free(&body);
		return -ENOMEM;
	}
	const struct qg_tvar vars[] = {
	    QG_TVARS_HEADER(ctx, m),
	    {"switch", m->switches[i].name},
	    {"body", body.data ? body.data : ""},
	};
	char path[QG_NAME_LEN + 16];
	snprintf(path, sizeof(path), "onyx/%s.cli", m->switches[i].name);
	int rc = qg_emit_template(ctx, "onyx.cli", vars, sizeof(vars) / sizeof(vars[0]), path, 0644,
				  out);
	qg_buf_free(&body);
	return rc;
}

static int onyx_diff(const struct qg_model *m, size_t i, const char *readback, size_t len,
		     struct qg_buf *out, struct qg_diags *d)
{
	const struct qg_switch *sw = &m->switches[i];
	struct onyx_config want, have;
	if (onyx_config_from_model(m, i, &want) != 0)
		return -ENOMEM;
	int rc = onyx_config_parse(readback, len, &have, d);
	if (rc != 0) {
		onyx_config_free(&want);
		return rc;
	}
	/* A saved read-back may be from another switch: say so, and go on (push refuses). */
	if (!onyx_config_hostname_matches(&have, sw->name, sw->address))
		qg_warning(d, (struct qg_pos){have.hostname_line, 1},
			   "the read-back's hostname is '%s', not switch '%s' (address %s): is it "
			   "another switch's running-config?",
			   have.hostname, sw->name, sw->address);
	if (onyx_config_judge(&want, &have, d) > 0) {
		onyx_config_free(&want);
		onyx_config_free(&have);
		return -EINVAL;
	}
	struct qg_buf cmds = {0};
	onyx_config_diff(&want, &have, &cmds);
	/* Drop the section numbers: the output is for pasting or sending. */
	for (char *line = cmds.data; line && *line;) {
		char *end = strchr(line, '\n');
		qg_buf_append(out, line + 2, (size_t)(end - line - 1));
		line = end + 1;
	}
	rc = cmds.failed || out->failed ? -ENOMEM : 0;
	qg_buf_free(&cmds);
	onyx_config_free(&want);
	onyx_config_free(&have);
	return rc;
}

const struct qg_target qg_target_onyx = {
    .name = "onyx",
    .summary = "NVIDIA Onyx switch CLI (trust, lossless pool, ECN, ETS, MTU)",
    .kind = QG_DEVICE_SWITCH,
    .applies = onyx_applies,
    .check = onyx_check,
    .settings = onyx_settings,
    .emit = onyx_emit,
    .diff = onyx_diff,
    .push = onyx_push,
};
