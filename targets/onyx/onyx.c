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

#include "../../model/derive.h"
#include "../../lib/fixed.h"
#include "../../emit/handoff.h"
#include "../../model/names.h"
#include "../../model/ports.h"
#include "onyx_ports.h"
#include "onyx_diff.h"
#include "onyx_judge.h"
#include "onyx_parse.h"
#include "onyx_version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const onyx_section_title[ONYX_SEC_COUNT] = {
    "Interface Ethernet configuration",
    "Interface Ethernet buffer configuration",
    "QoS switch configuration",
    "DCBX ETS configuration",
};

/*
 * Shares (onyx_ets_plan): the classes the intent does not name get the rest
 * of 100 as WRR weights, at least 1 each (the weight range of `traffic-class
 * T dcb ets wrr W`, mellanox.onyx onyx_traffic_class), so the lossless weight
 * is the exact share only while that rest is there. The core checks it
 * against every OS of the fabric at once (model/ets_check.c).
 */
static bool onyx_ets_fits(const struct qg_qos *q, char why[QG_ETS_WHY_LEN])
{
	struct onyx_tc_cfg plan[8];
	int others = onyx_ets_plan(q, plan);
	if (others <= 0)
		return true;
	snprintf(why, QG_ETS_WHY_LEN,
		 "Onyx weighs the %d other traffic classes against the classes, each with a "
		 "WRR weight of 1 at least: mellanox.onyx onyx_traffic_class",
		 others);
	return false;
}

static void onyx_check(const struct qg_model *m, struct qg_diags *d)
{
	if (m->n_switches == 0)
		return;
	/* Onyx User Manual 3.10, QoS: no DSCP-to-switch-priority remap command in basic mode. */
	qg_check_fixed_dscp_map(m, "onyx", d);
}

/*
 * The settings of switch i, read off its desired config (one model for the
 * file, the diff and these): every port gets the same values, so the first
 * port's are the switch's, but for a port role's ECN thresholds (issue 28):
 * tcT.ecn is the ports in no role's, roles.NAME.tcT.ecn each role's, with
 * roles.NAME.ports.
 */
/* A role's ports, as the OS prints ranges, ","-joined; NULL when out of memory. */
static char *onyx_role_ports(const struct qg_switch *s, size_t r)
{
	struct qg_port *ports = calloc(s->n_ports ? s->n_ports : 1, sizeof(*ports));
	struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
	struct qg_buf list = {0};
	size_t n = 0;
	for (size_t k = 0; ports && k < s->n_ports; k++)
		if (s->port_role && s->port_role[k] == r + 1)
			ports[n++] = s->ports[k];
	size_t n_runs = ports && runs ? qg_port_runs(ports, n, runs) : 0;
	for (size_t k = 0; k < n_runs; k++) {
		char text[QG_PORT_TEXT_LEN];
		onyx_port_run_format(&runs[k], text);
		qg_buf_printf(&list, "%s%s", k ? "," : "", text);
	}
	free(ports);
	free(runs);
	if (!ports || !runs || list.failed) {
		qg_buf_free(&list);
		return NULL;
	}
	return list.data ? list.data : strdup("");
}

/* Role r's settings: its ports and, where it gives them, its ECN thresholds. */
static void onyx_settings_role(const struct qg_switch *s, const struct onyx_config *want, size_t r,
			       struct qg_settings *out)
{
	char key[QG_NAME_LEN + 32];
	char *ports = onyx_role_ports(s, r);
	if (!ports) {
		out->oom = true;
		return;
	}
	snprintf(key, sizeof(key), "roles.%s.ports", s->roles[r].name);
	qg_settings_add(out, key, "%s", ports);
	free(ports);
	for (size_t k = 0; k < want->n_ports; k++) {
		if (!s->port_role || s->port_role[k] != r + 1)
			continue;
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *t = &want->ports[k].tc[tc];
			if (t->cc != ONYX_CC_ECN)
				continue;
			snprintf(key, sizeof(key), "roles.%s.tc%d.ecn", s->roles[r].name, tc);
			qg_settings_add(out, key, "%d..%d KB", t->cc_min, t->cc_max);
		}
		return;
	}
}

static int onyx_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	struct onyx_config want;
	if (onyx_config_from_model(m, i, &want) != 0)
		return -ENOMEM;
	const struct qg_switch *s = &m->switches[i];
	struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
	if (!runs) {
		onyx_config_free(&want);
		return -ENOMEM;
	}
	size_t n_runs = qg_port_runs(s->ports, s->n_ports, runs);
	struct qg_buf list = {0};
	for (size_t r = 0; r < n_runs; r++) {
		char text[QG_PORT_TEXT_LEN];
		onyx_port_run_format(&runs[r], text);
		qg_buf_printf(&list, "%s%s", r ? "," : "", text);
	}
	free(runs);
	qg_settings_add(out, "ports", "%s", list.data ? list.data : "");
	qg_buf_free(&list);
	const struct onyx_pool_cfg *pool = &want.pools[0];
	const struct onyx_port_cfg *p = want.n_ports ? &want.ports[0] : NULL;
	if (p) {
		qg_settings_add(out, "mtu", "%d", p->mtu);
		qg_settings_add(out, "trust", "%s", p->trust);
	}
	char pct[24], key[64];
	qg_centi_format(pool->percent_centi, pct);
	qg_settings_add(out, "pool", "%s", pool->name);
	qg_settings_add(out, "pool.type", "%s", pool->type);
	qg_settings_add(out, "pool.memory_percent", "%s", pct);
	for (int prio = 0; prio < 8; prio++)
		if (pool->priority_mask & (1u << prio))
			qg_settings_add(out, "pool.switch_priority", "%d", prio);
	const struct onyx_port_cfg *policy = NULL;
	for (size_t k = 0; k < want.n_ports && !policy; k++)
		if (!onyx_port_role(s, k))
			policy = &want.ports[k];
	for (int tc = 0; policy && tc < 8; tc++) {
		const struct onyx_tc_cfg *t = &policy->tc[tc];
		if (t->cc == ONYX_CC_ECN) {
			snprintf(key, sizeof(key), "tc%d.ecn", tc);
			qg_settings_add(out, key, "%d..%d KB", t->cc_min, t->cc_max);
		}
	}
	for (size_t r = 0; r < s->n_roles; r++)
		onyx_settings_role(s, &want, r, out);
	for (int tc = 0; p && tc < 8; tc++) {
		const struct onyx_tc_cfg *t = &p->tc[tc];
		snprintf(key, sizeof(key), "tc%d.ets", tc);
		if (t->ets == QG_ETS_UNSET)
			qg_settings_add(out, key, "default");
		else if (t->ets == QG_ETS_STRICT)
			qg_settings_add(out, key, "strict");
		else
			qg_settings_add(out, key, "wrr %d", t->weight);
	}
	onyx_config_free(&want);
	return out->oom ? -ENOMEM : 0;
}

static int onyx_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     struct qg_outset *out)
{
	struct qg_buf cmds = {0}, body = {0};
	struct onyx_config want;
	if (onyx_config_from_model(m, i, &want) != 0)
		return -ENOMEM;
	onyx_config_emit(&want, &cmds);
	/*
	 * A reviewer who knows PFC from other switches looks for it: say why
	 * there is no `dcb priority-flow-control` line (onyx.c's header).
	 */
	char pfc[400] = "";
	if (want.n_pools) {
		int prio = 0;
		while (prio < 7 && !(want.pools[0].priority_mask & (1u << prio)))
			prio++;
		snprintf(
		    pfc, sizeof(pfc),
		    "## PFC: switch-priority %d in lossless pool '%s' has PFC on by itself\n"
		    "## ('show dcb priority-flow-control': PFC admin Auto, oper Enabled), so no\n"
		    "## 'dcb priority-flow-control' line is written, as in NVIDIA's reference.\n",
		    prio, want.pools[0].name);
	}
	onyx_config_free(&want);
	if (cmds.failed) {
		qg_buf_free(&cmds);
		return -ENOMEM;
	}
	/* Section comments as in a running-config, so the file reads like one. */
	int section = -1, sec;
	const char *cursor = cmds.data, *line;
	size_t len;
	while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
		if (sec != section && sec >= 0 && sec < ONYX_SEC_COUNT) {
			qg_buf_printf(&body, "%s##\n## %s\n##\n", section < 0 ? "" : "\n",
				      onyx_section_title[sec]);
			if (sec == ONYX_SEC_BUFFER)
				qg_buf_puts(&body, pfc);
			section = sec;
		}
		qg_buf_append(&body, line, len);
		qg_buf_puts(&body, "\n");
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
		qg_warning(d, (struct qg_pos){have.hostname_line, 1}, QG_W_READBACK_OTHER_HOSTNAME,
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
	/* Without the section numbers: the output is for pasting or sending. */
	const char *cursor = cmds.data, *line;
	int sec;
	size_t n;
	while (onyx_cmds_next(&cursor, &sec, &line, &n)) {
		qg_buf_append(out, line, n);
		qg_buf_puts(out, "\n");
	}
	rc = cmds.failed || out->failed ? -ENOMEM : 0;
	qg_buf_free(&cmds);
	onyx_config_free(&want);
	onyx_config_free(&have);
	return rc;
}

/* One port's congestion control of every traffic class, as explain shows it. */
static void onyx_explain_cc_port(const struct onyx_port_cfg *p, struct qg_buf *val)
{
	for (int tc = 0; tc < 8; tc++) {
		const struct onyx_tc_cfg *t = &p->tc[tc];
		if (t->cc == ONYX_CC_NONE)
			qg_buf_printf(val, "%stc%d none", tc ? ", " : "", tc);
		else
			qg_buf_printf(val, "%stc%d ecn %d..%d KB", tc ? ", " : "", tc, t->cc_min,
				      t->cc_max);
	}
}

/*
 * Switch i's congestion control: its ports in no role's, then each port
 * role's (issue 28), read off the first port of each.
 */
static void onyx_explain_cc(const struct qg_model *m, size_t i, const struct onyx_config *want,
			    struct qg_explain_rows *x)
{
	const struct qg_switch *s = &m->switches[i];
	char key[2 * QG_NAME_LEN + 48];
	struct qg_buf val = {0};
	for (size_t r = 0; r <= s->n_roles; r++) {
		size_t k = 0;
		while (k < want->n_ports && (s->port_role ? s->port_role[k] : 0) != r)
			k++;
		if (k == want->n_ports)
			continue;
		val.len = 0;
		onyx_explain_cc_port(&want->ports[k], &val);
		if (r == 0)
			snprintf(key, sizeof(key), "onyx.%s.congestion_control", s->name);
		else
			snprintf(key, sizeof(key), "onyx.%s.roles.%s.congestion_control", s->name,
				 s->roles[r - 1].name);
		qg_explain_row(x, key, val.data ? val.data : "",
			       r == 0 ? "every traffic class is owned: 'none' is written as 'no "
					"traffic-class T congestion-control', Onyx's default"
				      : "the role's ports: its ECN thresholds where it gives them, "
					"else the policy's; written per interface as the others");
	}
	qg_buf_free(&val);
}

static void onyx_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	char v[32];
	qg_explain_row(x, "onyx.trust", q->trust == QG_TRUST_DSCP ? "L3" : "L2",
		       "each port's qos trust: L3 classifies by DSCP, L2 by 802.1p priority");
	snprintf(v, sizeof(v), "%d -> %d", q->lossless.priority, q->lossless.priority);
	qg_explain_row(x, "onyx.switch_priority_to_tc", v,
		       "Onyx's default map, switch-priority N to traffic class N; it has no "
		       "remap command, so a traffic_class must equal its priority");
	qg_centi_format(q->pool_percent_centi, v);
	qg_explain_row(x, "onyx.pool.memory_percent", v,
		       "Onyx prints the percent back with two decimals, so qosgen writes two");
	if (q->trust == QG_TRUST_DSCP) {
		int lo = q->lossless.dscp[0] / 8 * 8;
		char dv[48];
		snprintf(dv, sizeof(dv), "%d..%d -> switch-priority %d", lo, lo + 7,
			 q->lossless.priority);
		qg_explain_row(
		    x, "onyx.lossless_dscps", dv,
		    "Onyx's default DSCP/8 map: every DSCP of the block is lossless, not only "
		    "the intent's; basic buffer mode has no DSCP-to-switch-priority command to "
		    "put the others in a lossy class");
	}
	/* The final owned state per switch, in Onyx's terms (docs/intent.md, "### onyx"). */
	for (size_t i = 0; i < m->n_switches; i++) {
		if (m->switches[i].target != &qg_target_onyx)
			continue;
		struct onyx_config want;
		if (onyx_config_from_model(m, i, &want) != 0 || want.n_ports == 0) {
			onyx_config_free(&want);
			continue;
		}
		const struct onyx_pool_cfg *pool = &want.pools[0];
		const struct onyx_port_cfg *p = &want.ports[0];
		char key[QG_NAME_LEN + 32], pct[24];
		struct qg_buf val = {0};
		qg_centi_format(pool->percent_centi, pct);
		qg_buf_printf(&val, "traffic pool %s type %s, %s %%, map switch-priority",
			      pool->name, pool->type, pct);
		for (int prio = 0; prio < 8; prio++)
			if (pool->priority_mask & (1u << prio))
				qg_buf_printf(&val, " %d", prio);
		snprintf(key, sizeof(key), "onyx.%s.lossless", m->switches[i].name);
		qg_explain_row(x, key, val.data ? val.data : "",
			       "the pool maps exactly this priority (PFC follows it); any other "
			       "pool gives it up, and a priority the intent no longer names goes "
			       "back to the switch's default lossy pool");
		onyx_explain_cc(m, i, &want, x);
		val.len = 0;
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *t = &p->tc[tc];
			if (t->ets == QG_ETS_STRICT)
				qg_buf_printf(&val, "%stc%d strict", tc ? ", " : "", tc);
			else if (t->ets == QG_ETS_WRR)
				qg_buf_printf(&val, "%stc%d wrr %d", tc ? ", " : "", tc, t->weight);
			else
				qg_buf_printf(&val, "%stc%d default", tc ? ", " : "", tc);
		}
		snprintf(key, sizeof(key), "onyx.%s.ets", m->switches[i].name);
		qg_explain_row(
		    x, key, val.data ? val.data : "",
		    "every traffic class is owned; WRR weights are relative across the "
		    "port's WRR classes, so with a wrr lossless class the others get the "
		    "rest of 100 and its share is exact; 'default' is 'no traffic-class T "
		    "dcb ets'");
		qg_buf_free(&val);
		onyx_config_free(&want);
	}
}

/* What the intent may give that the onyx target does not write (model/target_features.h). */
static const struct qg_feature_gap onyx_gaps[] = {
    /*
     * The Onyx User Manual 3.10 describes a PFC watchdog (Priority Flow
     * Control page), but the onyx target's config model, read-back,
     * rollback and simulator do not cover it yet: it is left as each switch
     * has it.
     */
    {QG_FEAT_PFC_WATCHDOG, false,
     "the target's config model, read-back and simulator do not cover Onyx's PFC watchdog "
     "yet; its switches keep their own"},
    {QG_FEAT_CABLE_LENGTH, false,
     "the Onyx manual documents no cable length for its headroom; its switches size their "
     "own"},
    /*
     * Onyx maps switch-priority N to traffic class N by default (the
     * rewrite table of show_qos_interface_ethernet.cfg); qosgen 1 emits no
     * remap, so a different traffic class would configure the wrong queue.
     */
    {QG_FEAT_TC_REMAP, true,
     "the target keeps Onyx's default switch-priority to traffic-class map and cannot remap "
     "it; give a traffic_class equal to the class's priority"},
    {0, false, NULL},
};

/*
 * Issue 34 (model/headroom.h). The Onyx User Manual (3.10.x, "Shared Buffers",
 * "Shared Buffer Commands", "Priority Flow Control") gives no headroom
 * formula, no cable length and no shared headroom pool: the figure is the
 * SKU's own table, a cable length must be given, and the headroom is held
 * to the lossless traffic pool, whose memory percent is its share of the
 * switch buffer (where Onyx keeps a port's headroom, the manual does not say).
 */
static const struct qg_headroom_os onyx_headroom = {
    .method = QG_HRM_SKU_TABLE,
    .method_source = "Onyx publishes no headroom formula: the model's own lookup table",
    .cable_source = "the Onyx User Manual has no cable length for its headroom",
    .budget = QG_HRB_POOL,
    .budget_source = "traffic pool <name> memory percent: the lossless pool's share of the "
		     "switch buffer (Onyx User Manual, Shared Buffer Commands)",
    .shared_pool = "none documented",
};

const struct qg_target qg_target_onyx = {
    .name = "onyx",
    .aliases = (const char *const[]){"mlnx-os", "mlnxos", "mlnx_os", "mellanox", NULL},
    .summary = "NVIDIA Onyx switch CLI (trust, lossless pool, ECN, ETS, MTU)",
    .kind = QG_DEVICE_SWITCH,
    .caps = QG_FIXED_DSCP_MAP, /* no DSCP map command in basic buffer mode (docs/intent.md, onyx) */
    .ports = &onyx_port_syntax,
    .switch_mtu_max = 9216, /* Onyx mtu 1500..9216 (as tests/sim; manual range unverified) */
    .headroom = &onyx_headroom,
    .check = onyx_check,
    .ets_fits = onyx_ets_fits,
    .settings = onyx_settings,
    .emit = onyx_emit,
    .diff = onyx_diff,
    .explain = onyx_explain,
    .handoff = &qg_handoff_switch_push,
    /* A role's ECN thresholds: per interface, as the policy's (onyx_config_from_model). */
    .features = (QG_FEAT_ALL | QG_FEAT_ROLE_ECN) &
		~(QG_FEAT_PFC_WATCHDOG | QG_FEAT_CABLE_LENGTH | QG_FEAT_TC_REMAP),
    .gaps = onyx_gaps,
    /* One dialect from 3.6.5000 to 3.10.4706 (onyx_version.c, docs/intent.md). */
    .versions = &onyx_os_versions,
};
