/* SPDX-License-Identifier: MIT */
/*
 * SONiC switches: sonic/<switch>.json, the config_db tables qosgen owns
 * (config_db.h says which and why), read off one tree for the file and the
 * settings. What SONiC cannot take from an intent, check() refuses first.
 * diff() reads `show runningconfiguration all` and prints the JSON Patch
 * `config apply-patch` takes (config_db_patch.h).
 */
#include "sonic.h"

#include "../../model/derive.h"
#include "../../lib/fixed.h"
#include "../../emit/handoff.h"
#include "../../model/names.h"
#include "../../model/osversion.h"
#include "config_db.h"
#include "config_db_judge.h"
#include "config_db_patch.h"
#include "sonic_readback.h"
#include "sonic_ports.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * The weights of every queue (config_db.h, sonic_shares()) must fit
 * sonic-scheduler.yang's 1..100 and leave the rest of the queues something;
 * else no set of SONiC weights gives the classes exactly their shares. The
 * core names the nearest weights every OS of the fabric takes (model/ets_check.c).
 */
static bool sonic_ets_fits(const struct qg_qos *q, char why[QG_ETS_WHY_LEN])
{
	struct sonic_shares sh;
	sonic_shares(q, &sh);
	if (sh.ok)
		return true;
	if (sh.need_rest <= 0)
		snprintf(why, QG_ETS_WHY_LEN,
			 "SONiC gives each of the %d other queues of a port a DWRR weight of 1 at "
			 "least: sonic-scheduler.yang",
			 sh.n_rest);
	else
		snprintf(why, QG_ETS_WHY_LEN,
			 "SONiC's DWRR weights are relative across a port's %d queues and 1..%d, "
			 "and this share needs weights %ld and %ld: sonic-scheduler.yang",
			 SONIC_QUEUES, SONIC_WEIGHT_MAX, sh.need_class, sh.need_rest);
	return false;
}

/*
 * SONiC's PFC watchdog ranges (sonic-pfcwd.yang: POLL_INTERVAL 100..1000,
 * detection_time 100..5000, restoration_time 100..60000), narrower than the
 * intent's (model/model.h: the widest of the switch OSes that take them).
 */
#define SONIC_PFCWD_POLL_MAX 1000
#define SONIC_PFCWD_DETECTION_MAX 5000
#define SONIC_PFCWD_RESTORATION_MAX 60000

static void sonic_check_pfcwd(const struct qg_pfc_watchdog *wd, struct qg_diags *d)
{
	const struct {
		const char *key;
		int v, min, max;
		bool given;
		struct qg_pos pos;
	} t[] = {
	    {"detection_ms", wd->detection_ms, QG_PFCWD_DETECTION_MIN, SONIC_PFCWD_DETECTION_MAX,
	     wd->detection_given, wd->detection_pos},
	    {"restoration_ms", wd->restoration_ms, QG_PFCWD_RESTORATION_MIN,
	     SONIC_PFCWD_RESTORATION_MAX, wd->restoration_given, wd->restoration_pos},
	    {"poll_ms", wd->poll_ms, QG_PFCWD_POLL_MIN, SONIC_PFCWD_POLL_MAX, wd->poll_given,
	     wd->poll_pos},
	};
	if (wd->state != QG_PFCWD_ON)
		return;
	/* The minima (100 ms) are the intent's own, SONiC's too: only the maxima are narrower. */
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
		if (t[k].v > t[k].max)
			qg_error(d, t[k].given ? t[k].pos : wd->pos,
				 "qos.pfc_watchdog.%s: %d is out of range %d..%d on sonic "
				 "(sonic-pfcwd.yang)",
				 t[k].key, t[k].v, t[k].min, t[k].max);
}

/*
 * A port role with ECN thresholds of its own gets WRED_PROFILE
 * qosgen_ecn_<role> (config_db.h), and sonic-wred-profile.yang takes 1..32
 * characters of A-Z a-z 0-9 _ -: a role name with a dot, or too long, has
 * no profile name. Refused rather than mangled, so that config_db names the
 * role as the intent does.
 */
static void sonic_check_roles(const struct qg_model *m, struct qg_diags *d)
{
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		if (s->target != &qg_target_sonic)
			continue;
		for (size_t r = 0; r < s->n_roles; r++) {
			char name[SONIC_WRED_NAME_MAX + 1];
			if (!s->roles[r].ecn_given || sonic_role_wred(s, r, name))
				continue;
			qg_error(d, s->roles[r].pos,
				 "role '%s': on sonic a role's ECN thresholds are WRED_PROFILE "
				 "'" SONIC_WRED_ROLE_PREFIX
				 "%s', and sonic-wred-profile.yang takes "
				 "names of 1..%d characters of A-Z a-z 0-9 _ -; name the role with "
				 "at most %zu characters of a-z 0-9 _ -",
				 s->roles[r].name, s->roles[r].name, SONIC_WRED_NAME_MAX,
				 (size_t)SONIC_WRED_NAME_MAX - strlen(SONIC_WRED_ROLE_PREFIX));
		}
	}
}

static void sonic_check(const struct qg_model *m, struct qg_diags *d)
{
	const struct qg_qos *q = &m->qos;
	/* SONiC's buffer templates give priority group 0 the lossy profile, every port. */
	if (q->lossless.priority == SONIC_LOSSY_PG)
		qg_error(d, q->lossless.priority_pos,
			 "qos.lossless.priority 0: the sonic target numbers the lossless priority "
			 "group as its priority, and priority group %d holds the lossy traffic "
			 "classes; use a priority of 1..7 (3 is RoCE's usual)",
			 SONIC_LOSSY_PG);
	sonic_check_pfcwd(&q->pfcwd, d);
	sonic_check_roles(m, d);
}

static int sonic_settings_of(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	cJSON *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	sonic_settings(want, out);
	cJSON_Delete(want);
	return out->oom ? -ENOMEM : 0;
}

/*
 * config_db JSON has no comment to carry a header: the file is only the
 * tables (as `config load` and `config apply-patch` take them), and
 * plan.json holds its hash beside the intent's.
 */
static int sonic_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      struct qg_outset *out)
{
	(void)ctx;
	cJSON *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	struct qg_buf text = {0};
	sonic_emit_json(want, &text);
	cJSON_Delete(want);
	if (text.failed) {
		qg_buf_free(&text);
		return -ENOMEM;
	}
	char path[QG_NAME_LEN + 16];
	snprintf(path, sizeof(path), "sonic/%s.json", m->switches[i].name);
	size_t len;
	char *data = qg_buf_steal(&text, &len);
	return qg_outset_add(out, path, data, len, 0644);
}

static int sonic_diff(const struct qg_model *m, size_t i, const char *readback, size_t len,
		      struct qg_buf *out, struct qg_diags *d)
{
	cJSON *have = NULL, *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	int rc = sonic_readback_parse(readback, len, &have, d);
	const struct qg_switch *sw = &m->switches[i];
	if (rc == 0)
		qg_warn_other_host(d, sonic_readback_hostname(have), sw->name, sw->address,
				   "configuration");
	struct sonic_ports_at at = {m->file, sw->ports_pos};
	if (rc == 0 && sonic_config_judge(want, have, &at, d) > 0)
		rc = -EINVAL;
	if (rc == 0) {
		bool oom;
		cJSON *patch = sonic_config_patch(want, have, &oom);
		if (oom)
			rc = -ENOMEM;
		sonic_patch_text(patch, out);
		cJSON_Delete(patch);
	}
	cJSON_Delete(want);
	cJSON_Delete(have);
	return rc == 0 && out->failed ? -ENOMEM : rc;
}

/*
 * A switch's port roles (issue 28): each role's ports, the WRED profile on
 * their lossless queue and their cable length.
 */
static void sonic_explain_roles(const struct qg_model *m, const struct qg_switch *s,
				struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	for (size_t r = 0; r < s->n_roles; r++) {
		const struct qg_port_role *role = &s->roles[r];
		char wname[SONIC_WRED_NAME_MAX + 1], ecn[128], cable[32] = "";
		size_t n = 0;
		for (size_t k = 0; k < s->n_ports; k++)
			n += s->port_role && s->port_role[k] == r + 1;
		if (!q->ecn)
			snprintf(ecn, sizeof(ecn), "no ECN");
		else if (sonic_role_wred(s, r, wname))
			snprintf(ecn, sizeof(ecn), "ECN %s %ld..%ld bytes", wname,
				 qg_ecn_bytes(role->ecn_min_kb), qg_ecn_bytes(role->ecn_max_kb));
		else
			snprintf(ecn, sizeof(ecn), "ECN " SONIC_WRED " (the policy's thresholds)");
		if (role->cable_m)
			snprintf(cable, sizeof(cable), ", cable %dm", role->cable_m);
		struct qg_buf key = {0}, v = {0};
		qg_buf_printf(&key, "sonic.%s.roles.%s", s->name, role->name);
		qg_buf_printf(&v, "%zu %s, %s%s", n, n == 1 ? "port" : "ports", ecn, cable);
		if (!key.failed && !v.failed)
			qg_explain_row(x, key.data, v.data,
				       "a role's ECN thresholds are its own "
				       "WRED_PROFILE, " SONIC_WRED_ROLE_PREFIX
				       "<role> (bytes: min_kb and max_kb x 1000, "
				       "the rest as " SONIC_WRED
				       "), bound to the lossless queue of its "
				       "ports (QUEUE|<port>|<tc> wred_profile); a role without ecn "
				       "takes " SONIC_WRED
				       "; its cable_length_m is its ports' CABLE_LENGTH; a "
				       "profile of a role the intent no longer has is removed");
		qg_buf_free(&key);
		qg_buf_free(&v);
	}
}

/*
 * The state qosgen owns on every intent port of each sonic switch, in
 * SONiC's terms: per queue its buffer profile, ECN and share; the lossless
 * PGs; the DSCPs of each TC.
 */
static void sonic_explain_owned(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	struct sonic_shares sh;
	sonic_shares(q, &sh);
	char key[64], v[160], reason[480];
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		if (s->target != &qg_target_sonic)
			continue;
		char first[QG_PORT_TEXT_LEN] = "-", last[QG_PORT_TEXT_LEN] = "-";
		if (s->n_ports) {
			sonic_port_format(&s->ports[0], first);
			sonic_port_format(&s->ports[s->n_ports - 1], last);
		}
		snprintf(key, sizeof(key), "sonic.%s.ports", s->name);
		snprintf(v, sizeof(v), "%zu (%s..%s)", s->n_ports, first, last);
		qg_explain_row(
		    x, key, v,
		    "the switch's intent ports: on each, the sonic.queue.* and "
		    "sonic.pg rows below are the whole lossless-RoCE state after a push, "
		    "whatever it had; its other ports and tables are left as they are");
		sonic_explain_roles(m, s, x);
	}
	int dwrr = 0; /* the sum of the DWRR queues' weights */
	for (int t = 0; t < SONIC_QUEUES; t++) {
		const char *sc = sonic_queue_scheduler(q, t);
		const struct qg_ets *e = !strcmp(sc, SONIC_SCHED_LOSSLESS) ? &q->lossless.ets
					 : !strcmp(sc, SONIC_SCHED_CNP)	   ? &q->cnpc.ets
									   : NULL;
		if (!e || e->mode == QG_ETS_WRR)
			dwrr += !e ? sh.rest : e == &q->lossless.ets ? sh.lossless : sh.cnp;
	}
	int dtc[64];
	sonic_dscp_tc(q, dtc);
	for (int t = 0; t < SONIC_QUEUES; t++) {
		const char *sc = sonic_queue_scheduler(q, t);
		const struct qg_ets *e = !strcmp(sc, SONIC_SCHED_LOSSLESS) ? &q->lossless.ets
					 : !strcmp(sc, SONIC_SCHED_CNP)	   ? &q->cnpc.ets
									   : NULL;
		bool lossless = t == q->lossless.traffic_class;
		char share[48];
		if (e && e->mode == QG_ETS_STRICT) {
			snprintf(share, sizeof(share), "STRICT");
		} else {
			int w = !e ? sh.rest : e == &q->lossless.ets ? sh.lossless : sh.cnp;
			snprintf(share, sizeof(share), "DWRR %d/%d (%.1f %%)", w, dwrr,
				 dwrr ? 100.0 * w / dwrr : 0.0);
		}
		snprintf(v, sizeof(v), "%s, %s, %s %s, %s", lossless ? "lossless" : "lossy",
			 lossless ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY, sc, share,
			 lossless && q->ecn ? "ECN " SONIC_WRED : "no ECN");
		int nd = 0;
		char dscps[200] = "";
		for (int d = 0, len = 0; d < 64; d++)
			if (dtc[d] == t && len < (int)sizeof(dscps) - 4) {
				len += snprintf(dscps + len, sizeof(dscps) - (size_t)len, "%s%d",
						nd ? "," : "", d);
				nd++;
			}
		snprintf(key, sizeof(key), "sonic.queue.%d", t);
		snprintf(reason, sizeof(reason),
			 "QUEUE|<port>|%d scheduler %s%s; BUFFER_QUEUE|<port>|%d profile %s "
			 "(buffers_defaults_objects.j2: lossless queues on %s, the rest on %s); "
			 "DSCPs of TC %d: %s",
			 t, sc,
			 lossless && q->ecn ? ", wred_profile " SONIC_WRED : ", no wred_profile", t,
			 lossless ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY, SONIC_Q_LOSSLESS,
			 SONIC_Q_LOSSY, t, nd ? dscps : "none");
		qg_explain_row(x, key, v, reason);
	}
	snprintf(v, sizeof(v), "%d", q->lossless.priority);
	snprintf(reason, sizeof(reason),
		 "the lossless PGs: BUFFER_PG|<port>|%d profile \"NULL\" (dynamic headroom); "
		 "PGs 1..7 but it absent (no headroom: a PG the templates made lossless, "
		 "\"3-4\", is split and loses the other); PG %d, the lossy PG, the switch's; "
		 "pfc_enable and pfcwd_sw_enable \"%d\"",
		 q->lossless.priority, SONIC_LOSSY_PG, q->lossless.priority);
	qg_explain_row(x, "sonic.pg", v, reason);
	int spare = -1;
	for (int d = 0; d < 64; d++)
		if (q->dscp_prio[d] == q->lossless.priority && dtc[d] != q->lossless.traffic_class)
			spare = dtc[d];
	if (spare >= 0) {
		snprintf(v, sizeof(v), "TC %d", spare);
		qg_explain_row(
		    x, "sonic.dscp.unlisted", v,
		    "DSCPs the intent does not list but derived.dscp_map puts at a "
		    "class's priority (DSCP/8) go to the TC of the lowest priority no class "
		    "holds (derived.dscp_lossy_priority), a lossy one: SONiC programs the whole "
		    "DSCP_TO_TC_MAP (qos_config.j2 writes all "
		    "64; qosorch.cpp's DscpToTcMapHandler sets every entry), so only the "
		    "intent's DSCPs are lossless");
	}
}

static void sonic_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	char v[96], reason[480];
	int tc[8];
	sonic_priority_tc(q, tc);
	int n = 0;
	for (int p = 0; p < 8; p++)
		n += snprintf(v + n, sizeof(v) - (size_t)n, "%s%d", p ? "," : "", tc[p]);
	qg_explain_row(x, "sonic.priority_tc", v,
		       "config_db classifies DSCP straight to a traffic class: each DSCP goes to "
		       "the TC of its switch-priority (derived.dscp_map); the classes' priorities "
		       "to their traffic_class, every other priority p to TC p, or, where a "
		       "class holds TC p, to the lowest TC neither a class nor another priority "
		       "holds (derived.priority_tc, the rule of every OS); queue = TC");
	snprintf(v, sizeof(v), "%d", q->lossless.priority);
	snprintf(reason, sizeof(reason),
		 "the lossless priority group is numbered as the lossless priority (SONiC's "
		 "templates: PG 3 for priority 3); TC %d goes to it, every other TC to PG %d "
		 "(lossy); pfc_enable \"%d\"; BUFFER_PG <port>|%d with profile \"NULL\"",
		 q->lossless.traffic_class, SONIC_LOSSY_PG, q->lossless.priority,
		 q->lossless.priority);
	qg_explain_row(x, "sonic.lossless_pg", v, reason);
	qg_explain_row(x, "sonic.headroom", "dynamic",
		       "BUFFER_PG's profile \"NULL\" lets SONiC's dynamic buffer model compute "
		       "the lossless headroom from each port's speed, cable length (CABLE_LENGTH: "
		       "each port's cable_length_m as \"<m>m\", in the row that holds the port, "
		       "else " SONIC_CABLE_ROW "; a switch without cable_length_m keeps its own) "
		       "and MTU; the switch needs DEVICE_METADATA buffer_model dynamic");
	if (q->pool_name[0])
		snprintf(reason, sizeof(reason),
			 "not written: the dynamic buffer model sizes the switch's own "
			 "ingress_lossless_pool, so the pool '%s' and its memory_percent apply to "
			 "the onyx and cumulus targets only",
			 q->pool_name);
	else
		snprintf(reason, sizeof(reason),
			 "not written: the dynamic buffer model sizes the switch's own "
			 "ingress_lossless_pool (the intent gives no pool)");
	qg_explain_row(x, "sonic.pool", "-", reason);
	if (q->ecn) {
		snprintf(v, sizeof(v), "%ld..%ld bytes", qg_ecn_bytes(q->ecn_min_kb),
			 qg_ecn_bytes(q->ecn_max_kb));
		qg_explain_row(x, "sonic.ecn.threshold", v,
			       "WRED_PROFILE " SONIC_WRED " takes bytes: min_kb and max_kb x 1000, "
			       "as the cumulus target; ecn_all, every colour alike, marking "
			       "probability 100, WRED drop off (wred_<colour>_enable false: a "
			       "lossless queue is kept by PFC, and SAI programs drop and marking "
			       "apart, mlnx_sai_wred.c), on the lossless queue only");
	}
	snprintf(v, sizeof(v), "%d", sonic_port_mtu(q));
	qg_explain_row(x, "sonic.port.mtu", v,
		       q->switch_mtu_given
			   ? "qos.switch_mtu, as given (SONiC takes 68..9216, sonic-port.yang)"
			   : "qos.switch_mtu's default, the one MTU of every switch of the fabric "
			     "(not SONiC's own 9100)");
	sonic_explain_owned(m, x);
	qg_explain_row(x, "sonic.names",
		       SONIC_MAP ", " SONIC_WRED ", " SONIC_SCHED_LOSSLESS ", " SONIC_SCHED_CNP
				 ", " SONIC_SCHED_LOSSY,
		       "qosgen's own map, WRED and scheduler names, stable so that a diff and "
		       "a removal are exact; never SONiC's AZURE maps (its DSCP_TO_TC_MAP sends "
		       "DSCP 26 to a lossy TC)");
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		snprintf(v, sizeof(v), "%s %d/%d ms, poll %d ms", SONIC_PFCWD_ACTION,
			 wd->detection_ms, wd->restoration_ms, wd->poll_ms);
		snprintf(reason, sizeof(reason),
			 "PFC_WD|<port> action " SONIC_PFCWD_ACTION
			 " (pfcwd start's default), detection_time and restoration_time in ms, "
			 "on each intent port; PFC_WD|" SONIC_PFCWD_GLOBAL
			 " POLL_INTERVAL (the switch's, one for every port); PORT_QOS_MAP "
			 "pfcwd_sw_enable \"%d\", the lossless priority",
			 q->lossless.priority);
		qg_explain_row(x, "sonic.pfc_watchdog", v, reason);
	} else if (wd->state == QG_PFCWD_OFF) {
		qg_explain_row(x, "sonic.pfc_watchdog", "off",
			       "no PFC_WD row and no PORT_QOS_MAP pfcwd_sw_enable on the intent's "
			       "ports: diff and push remove them; PFC_WD|" SONIC_PFCWD_GLOBAL
			       " stays as the switch has it (GCU refuses its removal)");
	} else {
		qg_explain_row(x, "sonic.pfc_watchdog", "-",
			       "left as the switch has it (PFC_WD, pfcwd_sw_enable): the intent "
			       "gives no pfc_watchdog");
	}
}

/* What the intent may give that the sonic target does not write (model/target_features.h). */
static const struct qg_feature_gap sonic_gaps[] = {
    /*
     * Never reported: the core requires a pool only where a used target writes
     * one (an intent of SONiC switches alone need not give it; explain: sonic.pool).
     */
    {QG_FEAT_BUFFER_POOL, false,
     "the dynamic buffer model sizes the switch's own ingress_lossless_pool"},
    /*
     * With trust pcp SONiC classifies by DOT1P_TO_TC_MAP, which this target
     * does not write yet: the switch would keep classifying by its own map.
     */
    {QG_FEAT_TRUST_PCP, true,
     "the target writes DSCP_TO_TC_MAP only (no DOT1P_TO_TC_MAP yet), so its switches need "
     "trust dscp"},
    {0, false, NULL},
};

/*
 * The releases qosgen writes (issue 34; docs/intent.md, "SONiC versions",
 * has the table with every source). The oldest is the first release whose
 * YANG models cover every table and field qosgen writes, since GCU's
 * apply-patch refuses a patch to a table or field without one: CABLE_LENGTH's
 * model (sonic-cable-length.yang, sonic-buildimage #9273) and PORT_QOS_MAP's
 * pfcwd_sw_enable (#10444) first ship in 202205; the rest (BUFFER_PG's
 * "NULL" profile, PFC_WD, WRED_PROFILE's fields, the maps) are in 202111
 * already. The
 * newest is the newest release branch read (202605). Between them nothing
 * qosgen writes was renamed or removed: the changes are wider patterns
 * (PORT_QOS_MAP pfc_enable may be empty from 202505, TC_TO_QUEUE_MAP takes
 * queues 0..9 from 202411), new leaves qosgen does not write
 * (pfc_stat_history, a port's scheduler, tc_to_dscp_map) and narrower
 * ranges qosgen keeps to already (PORT mtu 68..9216 from 202211, PFC_WD
 * POLL_INTERVAL 100..1000 from 202511): one dialect. What GCU's field
 * validators refuse on some releases (a new WRED_PROFILE row on 202205 and
 * 202305..202505) is the switch's refusal, said as such: docs/intent.md.
 */
static const struct qg_dialect sonic_dialects[] = {
    {"202205", "config-db",
     "config_db's tables and fields as SONiC's YANG models give them, CABLE_LENGTH and "
     "pfcwd_sw_enable included; none of those qosgen writes renamed through 202605",
     "sonic-buildimage src/sonic-yang-models/yang-models on branches 202205 to 202605"},
    {0},
};

static const struct qg_os_versions sonic_versions = {
    .os = "SONiC",
    .oldest = "202205",
    .newest = "202605",
    .source = "sonic-buildimage's YANG models: CABLE_LENGTH and pfcwd_sw_enable from 202205",
    .dialects = sonic_dialects,
};

/*
 * Issue 34 (model/headroom.h). The sonic target requires the dynamic buffer
 * model (docs/intent.md, sonic), whose buffer manager sizes each lossless
 * PG with sonic-swss cfgmgr/buffer_headroom_mellanox.lua and SONiC's
 * LOSSLESS_TRAFFIC_PATTERN, which sonic-buildimage
 * files/build_templates/buffers_config.j2 writes as mtu 1024,
 * small_packet_percentage 50 (since #20632). buffermgrdyn.cpp sizes no
 * lossless PG of a port without a CABLE_LENGTH; the SKUs' templates write
 * default_cable '5m' (device/mellanox/<platform>/<SKU>/buffers_defaults_t0.j2,
 * t1) for a port the minigraph names no neighbour of. The target writes no
 * BUFFER_POOL: the model sizes the pools from the buffer the headroom
 * leaves. A shared headroom pool (BUFFER_POOL ingress_lossless_pool xoff,
 * DEFAULT_LOSSLESS_BUFFER_PARAMETER over_subscribe_ratio) keeps only xon in
 * each PG; the target writes neither, and qosgen counts each PG whole, the
 * larger.
 */
static const struct qg_headroom_os sonic_headroom = {
    .method = QG_HRM_DYNAMIC,
    .method_source = "the dynamic buffer model: sonic-swss cfgmgr/buffer_headroom_mellanox.lua",
    .lossless_mtu = 1024,
    .small_packet_pct = 50,
    .default_cable_m = 5,
    .cable_source = "the SKU templates' default_cable, 5m (buffers_defaults_t0.j2, t1.j2)",
    .budget = QG_HRB_BUFFER,
    .budget_source = "no BUFFER_POOL is written: the dynamic model sizes the pools from the "
		     "buffer the headroom leaves",
    .shared_pool = "ingress_lossless_pool xoff or over_subscribe_ratio: each PG then keeps xon "
		   "alone; not written, so each PG counts whole",
};

const struct qg_target qg_target_sonic = {
    .name = "sonic",
    .aliases = (const char *const[]){"sonic-vs", "sonic-os", "community-sonic", NULL},
    .summary = "SONiC config_db tables (sonic/<switch>.json), pushed as a JSON Patch over SSH",
    .kind = QG_DEVICE_SWITCH,
    .ports = &sonic_port_syntax,
    .switch_mtu_max = 9216, /* sonic-port.yang: PORT mtu, uint16 range 68..9216 */
    .headroom = &sonic_headroom,
    .access = "SSH",
    .default_port = 22,
    .check = sonic_check,
    .ets_fits = sonic_ets_fits,
    .settings = sonic_settings_of,
    .emit = sonic_emit,
    .diff = sonic_diff,
    .explain = sonic_explain,
    .handoff = &qg_handoff_switch_push,
    /* A role's ecn: its own WRED profile on its ports' lossless queue (config_db.h). */
    .features = (QG_FEAT_ALL & ~(QG_FEAT_BUFFER_POOL | QG_FEAT_TRUST_PCP)) | QG_FEAT_ROLE_ECN,
    .gaps = sonic_gaps,
    .versions = &sonic_versions,
};
