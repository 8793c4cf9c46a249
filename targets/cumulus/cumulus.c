/* SPDX-License-Identifier: MIT */
/*
 * Cumulus Linux switches through NVUE: the QoS part of NVUE's startup.yaml
 * shape (nvue/<switch>.yaml, for `nv config patch`) and the same settings
 * as `nv set` commands (nvue/<switch>.nv), both read off one tree
 * (nvue_config.c); a read-back's difference as `nv set`/`nv unset`
 * commands. What is set, and why, in nvue_config.h.
 */
#include "cumulus.h"

#include "../../model/derive.h"
#include "../../lib/fixed.h"
#include "../../emit/handoff.h"
#include "../../model/names.h"
#include "cumulus_ports.h"
#include "nvue_config.h"
#include "nvue_patch.h"
#include "nvue_readback.h"
#include "nvue_text.h"
#include "nvue_dialect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * A role's profiles are named NVUE_ROLE_PREFIX + its name (nvue_config.h):
 * a role name too long for that is refused at the role, before any file.
 */
static void cumulus_check_roles(const struct qg_model *m, struct qg_diags *d)
{
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		for (size_t r = 0; s->target == &qg_target_cumulus && r < s->n_roles; r++) {
			char name[NVUE_PROFILE_NAME_LEN];
			if (nvue_role_profile(&s->roles[r], name))
				continue;
			char path[QG_NAME_LEN + 16];
			qg_device_path(path, sizeof(path), "switches", s->name, i);
			qg_error(d, s->roles[r].pos,
				 "%s.roles.%s: the role's NVUE profiles would be named '%s%s', "
				 "%zu characters, and NVUE's profile names have at most %d on "
				 "cumulus: use a role name of at most %zu characters",
				 path, s->roles[r].name, NVUE_ROLE_PREFIX, s->roles[r].name,
				 strlen(NVUE_ROLE_PREFIX) + strlen(s->roles[r].name),
				 NVUE_PROFILE_NAME_LEN - 1,
				 NVUE_PROFILE_NAME_LEN - 1 - strlen(NVUE_ROLE_PREFIX));
		}
	}
}

/*
 * The egress scheduler is written whole (nvue_scheduler): the traffic
 * classes of the switch-priorities no class holds share what the classes'
 * DWRR weights leave of 100 %, at least 1 % each (NVUE: bw-percent 1..100,
 * "The combined total ... must be less than or equal to 100", Quality of
 * Service page, Egress Scheduling). Less is refused, once for every OS of
 * the fabric (model/ets_check.c).
 */
static bool cumulus_ets_fits(const struct qg_qos *q, char why[QG_ETS_WHY_LEN])
{
	bool lossy[8];
	int n = nvue_lossy_tcs(q, lossy);
	if (nvue_lossy_share(q) >= n)
		return true;
	snprintf(why, QG_ETS_WHY_LEN,
		 "NVUE gives each of the %d other traffic classes a bw-percent of 1 at least, "
		 "all adding up to at most 100: NVUE Quality of Service, Egress Scheduling",
		 n);
	return false;
}

/* NVUE's memory-percent is a whole number (Quality of Service, Traffic Pools). */
static void cumulus_check(const struct qg_model *m, struct qg_diags *d)
{
	const struct qg_qos *q = &m->qos;
	if (q->pool_percent_centi % 100) {
		char pct[24];
		qg_centi_format(q->pool_percent_centi, pct);
		qg_error(d, q->pool_percent_pos,
			 "qos.lossless.pool.memory_percent %s is not a whole percent; the cumulus "
			 "target's traffic pools (NVUE memory-percent) take whole percents",
			 pct);
	}
	/*
	 * NVUE's RoCE mode reserves traffic class 3's egress buffer for RoCE
	 * (NVUE_ROCE_TC, nvue_config.h): the lossless class stays there when
	 * its priority moves, as the RoCE page's own procedure does. A class
	 * given another one could lose packets at egress: refused, with what
	 * to write instead.
	 */
	const struct qg_class *lc = &q->lossless, *cc = &q->cnpc;
	if (lc->tc_given && lc->traffic_class != NVUE_ROCE_TC)
		qg_error(d, lc->tc_pos,
			 "qos.lossless.traffic_class %d: refused by cumulus: NVUE's RoCE mode "
			 "(qos roce mode lossless) reserves the egress buffer of traffic class %d "
			 "for RoCE, so a lossless class elsewhere would egress through the lossy "
			 "pool; leave traffic_class out (cumulus keeps the lossless class on %d "
			 "whatever its priority) or give %d",
			 lc->traffic_class, NVUE_ROCE_TC, NVUE_ROCE_TC, NVUE_ROCE_TC);
	/* (A lossless class given 3 too is the model's own error: the classes share no TC.) */
	if (q->cnp && cc->tc_given && cc->traffic_class == NVUE_ROCE_TC &&
	    !(lc->tc_given && lc->traffic_class == NVUE_ROCE_TC))
		qg_error(d, cc->tc_pos,
			 "qos.cnp.traffic_class %d: refused by cumulus: NVUE's RoCE mode reserves "
			 "traffic class %d for the lossless class, which cumulus keeps there "
			 "whatever its priority; give CNPs another traffic class, or leave it out",
			 cc->traffic_class, NVUE_ROCE_TC);
	/*
	 * NVUE detects a storm after robustness polls (nvue_pfcwd_times): at
	 * most NVUE_PFCWD_ROBUSTNESS_MAX polls (nv set qos pfc-watchdog
	 * robustness 1-1000) at intervals of at most poll_ms. The intent's
	 * detection_ms range is the widest of the switch OSes (model/model.h).
	 */
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	int poll = wd->poll_ms < NVUE_PFCWD_POLL_MAX ? wd->poll_ms : NVUE_PFCWD_POLL_MAX;
	long most = (long)poll * NVUE_PFCWD_ROBUSTNESS_MAX;
	if (wd->state == QG_PFCWD_ON && wd->detection_ms > most)
		qg_error(d, wd->detection_given ? wd->detection_pos : wd->pos,
			 "qos.pfc_watchdog.detection_ms %d is above %ld on cumulus: NVUE detects "
			 "after at most %d polls (robustness) of poll_ms %d; raise poll_ms or "
			 "lower detection_ms",
			 wd->detection_ms, most, NVUE_PFCWD_ROBUSTNESS_MAX, wd->poll_ms);
	cumulus_check_roles(m, d);
}

static int cumulus_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	cJSON *want = nvue_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	nvue_settings(want, out);
	cJSON_Delete(want);
	return out->oom ? -ENOMEM : 0;
}

/* One file from a template; the template ends it with its own newline after {{body}}. */
static int emit_file(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     const char *template, const char *ext, struct qg_buf *body,
		     struct qg_outset *out)
{
	if (body->failed)
		return -ENOMEM;
	if (body->len > 0 && body->data[body->len - 1] == '\n')
		body->data[--body->len] = '\0';
	const struct qg_tvar vars[] = {
	    QG_TVARS_HEADER(ctx, m),
	    {"switch", m->switches[i].name},
	    {"body", body->data ? body->data : ""},
	};
	char path[QG_NAME_LEN + 16];
	snprintf(path, sizeof(path), "nvue/%s.%s", m->switches[i].name, ext);
	return qg_emit_template(ctx, template, vars, sizeof(vars) / sizeof(vars[0]), path, 0644,
				out);
}

static int cumulus_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			struct qg_outset *out)
{
	cJSON *want = nvue_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	struct qg_buf yaml = {0}, cmds = {0}, json = {0};
	nvue_emit_yaml(want, &yaml);
	nvue_emit_commands(want, &cmds);
	nvue_emit_json(want, &json);
	cJSON_Delete(want);
	int rc = emit_file(m, i, ctx, "nvue.yaml", "yaml", &yaml, out);
	if (rc == 0)
		rc = emit_file(m, i, ctx, "nvue.nv", "nv", &cmds, out);
	/*
	 * The API's own body, for the Ansible hand-off's root PATCH: JSON has no
	 * comment to carry a header (plan.json holds its hash). Not the YAML
	 * file: a YAML 1.1 reader (Ansible's from_yaml) takes NVUE's unquoted
	 * `enable: on` (the roce-enable dialect, 5.14 and earlier) for a
	 * boolean, and the API would refuse that.
	 */
	if (rc == 0 && json.failed)
		rc = -ENOMEM;
	if (rc == 0) {
		char path[QG_NAME_LEN + 16];
		snprintf(path, sizeof(path), "nvue/%s.json", m->switches[i].name);
		size_t len;
		char *data = qg_buf_steal(&json, &len);
		rc = qg_outset_add(out, path, data, len, 0644);
	}
	qg_buf_free(&yaml);
	qg_buf_free(&cmds);
	qg_buf_free(&json);
	return rc;
}

static int cumulus_diff(const struct qg_model *m, size_t i, const char *readback, size_t len,
			struct qg_buf *out, struct qg_diags *d)
{
	cJSON *have = NULL, *want = nvue_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	int rc = nvue_config_parse(readback, len, &have, d);
	const struct qg_switch *sw = &m->switches[i];
	/* A saved read-back may be from another switch: say so, and go on (push refuses). */
	qg_warn_other_host(d, rc == 0 ? nvue_config_hostname(have) : "", sw->name, sw->address,
			   "configuration");
	if (rc == 0 && nvue_config_judge(want, have, d) > 0)
		rc = -EINVAL;
	if (rc == 0) {
		bool oom;
		cJSON *patch = nvue_config_patch(want, have, &oom);
		if (oom)
			rc = -ENOMEM;
		else if (patch)
			nvue_emit_commands(patch, out);
		cJSON_Delete(patch);
	}
	cJSON_Delete(want);
	cJSON_Delete(have);
	return rc == 0 && out->failed ? -ENOMEM : rc;
}

/* Append "what" to a comma-separated list when it applies. */
static void list_if(bool applies, const char *what, char *list, size_t cap)
{
	size_t n = strlen(list);
	if (applies && n < cap)
		snprintf(list + n, cap - n, "%s%s", n ? ", " : "", what);
}

/*
 * What differs from the policy `nv set qos roce mode lossless` gives by
 * itself (Cumulus Linux 5.x, RoCE: trust, priority 3 on traffic class 3
 * with PFC, WRR 50 %, ECN 150000..1500000 bytes, CNP priority 6 strict).
 */
static void roce_defaults_differ(const struct qg_qos *q, char *why, size_t cap)
{
	const struct qg_class *l = &q->lossless, *c = &q->cnpc;
	why[0] = '\0';
	list_if(q->trust != QG_TRUST_DSCP, "trust pcp", why, cap);
	list_if(l->priority != 3 || nvue_class_tc(q, false) != 3, "the lossless priority or class",
		why, cap);
	list_if(q->trust == QG_TRUST_DSCP && q->dscp_prio[l->dscp[0]] != l->dscp[0] / 8,
		"the DSCP map", why, cap);
	list_if(!q->ecn || q->ecn_min_kb != 150 || q->ecn_max_kb != 1500, "the ECN thresholds", why,
		cap);
	list_if(!q->cnp || c->priority != 6 || nvue_class_tc(q, true) != 6 ||
		    c->ets.mode != QG_ETS_STRICT,
		"the CNP class", why, cap);
	list_if(l->ets.mode == QG_ETS_STRICT || (l->ets.mode == QG_ETS_WRR && l->ets.weight != 50),
		"the lossless class's ETS", why, cap);
	/* RoCE mode puts them all on TC 0; qosgen's rule is every OS's (nvue_priority_tcs). */
	list_if(true, "the other switch-priorities' traffic classes", why, cap);
	if (!why[0])
		snprintf(why, cap, "nothing");
}

/* egress-queue-mapping default-global: every switch-priority's traffic class. */
static void explain_sp_tc(const struct qg_qos *q, struct qg_explain_rows *x)
{
	char v[200];
	size_t n = 0;
	for (int p = 0; p < 8; p++)
		n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d->%d", p ? " " : "", p,
				      nvue_priority_tc(q, p));
	qg_explain_row(x, "cumulus.owned.sp_tc", v,
		       "egress-queue-mapping default-global, all 8 switch-priorities: the "
		       "classes' to their traffic class, every other p to traffic class p (the "
		       "lowest one neither a class nor another priority holds where a class holds "
		       "p), the one rule of every "
		       "switch OS, so the DSCPs of no class keep their DSCP/8 classes as on Onyx, "
		       "whose default map the onyx target keeps (docs/intent.md, \"One intent, one "
		       "behaviour on "
		       "every OS\"), not NVIDIA's RoCE mode's \"Other switch priority to traffic "
		       "class 0\"");
}

/* congestion-control default-global: ECN on the lossless class only, or NVUE's default. */
static void explain_ecn(const struct qg_qos *q, struct qg_explain_rows *x)
{
	char v[200];
	size_t n = 0;
	for (int tc = 0; q->ecn && tc < 8; tc++)
		n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d:%s", tc ? " " : "", tc,
				      tc == nvue_class_tc(q, false) ? "ecn" : "unset");
	if (q->ecn)
		qg_explain_row(
		    x, "cumulus.owned.ecn", v,
		    "congestion-control default-global per traffic class: ECN (RED off) "
		    "on the lossless class only, with the intent's ecn; every other class "
		    "unset (a configured default-global profile replaces NVUE's default, "
		    "which marks traffic class 0: Quality of Service page, ECN)");
	else
		qg_explain_row(
		    x, "cumulus.owned.ecn", "default-global unset",
		    "no ecn: congestion-control default-global unset whole (and "
		    "congestion-control with it where nothing else is there), so the "
		    "switch has NVUE's default, ECN on traffic class 0 at 150000..1500000 "
		    "bytes (Quality of Service page, ECN), as a factory switch does");
}

/* egress-scheduler default-global: every traffic class, strict or its DWRR share. */
static void explain_scheduler(const struct qg_qos *q, struct qg_explain_rows *x)
{
	char v[200];
	size_t n = 0;
	struct nvue_tc_sched sched[8];
	nvue_scheduler(q, sched);
	int total = 0;
	for (int tc = 0; tc < 8; tc++) {
		total += sched[tc].strict ? 0 : sched[tc].share;
		if (sched[tc].strict)
			n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d:strict", tc ? " " : "",
					      tc);
		else
			n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d:%d%%", tc ? " " : "", tc,
					      sched[tc].share);
	}
	n += (size_t)snprintf(v + n, sizeof(v) - n, " (dwrr total %d%%)", total);
	qg_explain_row(x, "cumulus.owned.egress_scheduler", v,
		       "egress-scheduler default-global, every traffic class: the classes' ets "
		       "(absent: NVIDIA's RoCE defaults, RoCE WRR 50 %, CNP strict, on every "
		       "switch OS), the traffic classes of the other switch-priorities the rest "
		       "of 100 % split evenly (the lower ones taking the odd units, as on Onyx), "
		       "a class no priority maps to strict (it carries nothing); written whole so "
		       "the switch's default 12/13 % shares cannot add past 100");
}

/* mapping default-global dscp: the DSCPs that reach the lossless switch-priority. */
static void explain_dscp_lossless(const struct qg_qos *q, struct qg_explain_rows *x)
{
	char v[200] = "";
	int first = -1;
	size_t n = 0;
	uint8_t exact[64];
	qg_dscp_map_exact(q, exact);
	for (int d = 0; d <= 64; d++) {
		bool in = d < 64 && exact[d] == q->lossless.priority;
		if (in && first < 0)
			first = d;
		if (!in && first >= 0) {
			if (d - 1 > first)
				n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d-%d", n ? "," : "",
						      first, d - 1);
			else
				n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%d", n ? "," : "",
						      first);
			first = -1;
		}
	}
	qg_explain_row(x, "cumulus.owned.dscp_lossless", v,
		       "mapping default-global dscp, all 64 written: only these reach the "
		       "lossless switch-priority. Every other DSCP keeps NVUE's default "
		       "DSCP/8 (Quality of Service page, Trust DSCP), except the rest of a "
		       "class's DSCP/8 block, which goes to a lossy switch-priority "
		       "(derived.dscp_lossy_priority); pcp 0-7 to switch-priority 0-7 "
		       "(NVUE's default)");
}

/* What is a Cumulus switch's own: its ports, link MTU and PFC cable length. */
static void explain_switch(const struct qg_qos *q, const struct qg_switch *s,
			   struct qg_explain_rows *x)
{
	char v[200];
	char key[QG_NAME_LEN + 32];
	snprintf(key, sizeof(key), "cumulus.owned.%s", s->name);
	int cable = nvue_cable_length(s);
	if (cable)
		snprintf(v, sizeof(v), "%zu ports, link mtu %d, pfc cable-length %d", s->n_ports,
			 q->switch_mtu, cable);
	else
		snprintf(v, sizeof(v), "%zu ports, link mtu %d, pfc cable-length kept", s->n_ports,
			 q->switch_mtu);
	qg_explain_row(x, key, v,
		       s->n_roles
			   ? "the intent's ports (link mtu, pfc-watchdog state when managed), "
			     "the default-global profiles above, and each role's own "
			     "(cumulus.roles.*), pfc cable-length here default-global's, the "
			     "longest of the ports no role's PFC profile holds; a port the "
			     "intent drops keeps what it has, but for its role's bindings"
			   : "the intent's ports (link mtu, pfc-watchdog state when managed) and "
			     "the default-global profiles above; a port the intent drops keeps "
			     "what it has");
}

/*
 * The state qosgen owns on every Cumulus switch, in NVUE's terms: the same
 * on each (NVUE's default-global profiles apply to every port), so one row
 * each, and one row a switch for what is its own (ports, cable length).
 */
static void cumulus_explain_owned(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	char v[200];
	explain_sp_tc(q, x);
	snprintf(v, sizeof(v), "%d", q->lossless.priority);
	qg_explain_row(x, "cumulus.owned.pfc", v,
		       "pfc default-global switch-priority: exactly the lossless priority, tx "
		       "and rx enable; any other removed (NVUE's default: no PFC); it alone in "
		       "traffic-pool roce-lossless, every other priority in default-lossy "
		       "(NVUE's default pool)");
	explain_ecn(q, x);
	explain_scheduler(q, x);
	if (q->trust == QG_TRUST_DSCP)
		explain_dscp_lossless(q, x);
	for (size_t i = 0; i < m->n_switches; i++)
		if (m->switches[i].target == &qg_target_cumulus)
			explain_switch(q, &m->switches[i], x);
}

/*
 * Each role of a cumulus switch: its ports, and the profiles it gets (or
 * default-global's, where it gives no ecn or cable length of its own).
 */
static void cumulus_explain_roles(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		for (size_t r = 0; s->target == &qg_target_cumulus && r < s->n_roles; r++) {
			const struct qg_port_role *role = &s->roles[r];
			char name[NVUE_PROFILE_NAME_LEN], key[2 * QG_NAME_LEN + 32], v[400];
			if (!nvue_role_profile(role, name))
				continue;
			size_t ports = 0;
			for (size_t k = 0; k < s->n_ports; k++)
				ports += nvue_port_role(s, k) == role;
			int n = snprintf(v, sizeof(v), "%zu ports; congestion-control ", ports);
			if (nvue_role_has_ecn(q, role))
				n += snprintf(v + n, sizeof(v) - (size_t)n, "%s %ld..%ld bytes",
					      name, qg_ecn_bytes(role->ecn_min_kb),
					      qg_ecn_bytes(role->ecn_max_kb));
			else
				n += snprintf(v + n, sizeof(v) - (size_t)n, "%s", NVUE_PROFILE);
			if (nvue_role_has_pfc(role))
				snprintf(v + n, sizeof(v) - (size_t)n, "; pfc %s cable-length %d",
					 name, role->cable_m);
			else
				snprintf(v + n, sizeof(v) - (size_t)n, "; pfc %s", NVUE_PROFILE);
			snprintf(key, sizeof(key), "cumulus.roles.%s.%s", s->name, role->name);
			qg_explain_row(
			    x, key, v,
			    "NVUE port groups (QoS page, Port Groups: a profile overrides "
			    "the global settings on its ports): the role's ecn as its own "
			    "congestion-control profile (the lossless class, RED off), its "
			    "cable_length_m as its own PFC profile (the lossless priority, "
			    "headroom for its cable), its ports bound to them; a profile "
			    "named qosgen-<role> whose role is gone is removed");
		}
	}
}

/*
 * Each switch's NVUE dialect (issue 34): what its os_version (given, or the
 * newest supported) makes qosgen write, and the release notes that say so.
 */
static void cumulus_explain_dialects(const struct qg_model *m, struct qg_explain_rows *x)
{
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		if (s->target != &qg_target_cumulus)
			continue;
		const struct qg_dialect *d = qg_os_dialect(&nvue_versions, s->os_version);
		enum nvue_dialect dl = nvue_dialect_of(s->os_version);
		char key[QG_NAME_LEN + 32], v[160], reason[600];
		snprintf(key, sizeof(key), "cumulus.dialect.%s", s->name);
		snprintf(v, sizeof(v), "%s (qos roce %s %s)", d ? d->name : "?", nvue_roce_key(dl),
			 nvue_roce_on(dl));
		snprintf(reason, sizeof(reason),
			 "the dialect of Cumulus Linux %s (switches.%s.os_version, %s; the "
			 "versions written: %s to %s): since %s, %s (%s); a push reads the "
			 "switch's version first and sends nothing to one of another dialect",
			 s->os_version, s->name,
			 s->os_version_given ? "given" : "the newest, by default",
			 nvue_versions.oldest, nvue_versions.newest, d ? d->since : "?",
			 d ? d->change : "?", d ? d->source : "?");
		qg_explain_row(x, key, v, reason);
	}
}

static void cumulus_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	char v[64], reason[400];
	cumulus_explain_owned(m, x);
	cumulus_explain_dialects(m, x);
	snprintf(reason, sizeof(reason),
		 "NVUE's traffic pools have fixed names: the intent's pool '%s' is NVUE's "
		 "roce-lossless; default-lossy gets the rest of the buffer and every other "
		 "priority",
		 q->pool_name);
	qg_explain_row(x, "cumulus.pool", NVUE_POOL_LOSSLESS, reason);
	/* Where RoCE mode's reserved egress buffer is, whatever the lossless priority. */
	snprintf(v, sizeof(v), "%d (priority %d)", nvue_class_tc(q, false), q->lossless.priority);
	snprintf(reason, sizeof(reason),
		 "NVUE's RoCE mode reserves traffic class %d's egress buffer for RoCE "
		 "(roce-reserved-egress, RoCE page, nv show qos roce); its procedure for moving "
		 "the RoCE priority keeps the new one on traffic class %d, so cumulus does, "
		 "whatever the lossless priority%s",
		 NVUE_ROCE_TC, NVUE_ROCE_TC,
		 q->cnp && nvue_class_tc(q, true) != q->cnpc.traffic_class
		     ? "; the CNP priority 3 takes the traffic class the lossless priority leaves"
		     : "");
	qg_explain_row(x, "cumulus.lossless_tc", v, reason);
	if (q->ecn) {
		snprintf(v, sizeof(v), "%ld..%ld bytes", qg_ecn_bytes(q->ecn_min_kb),
			 qg_ecn_bytes(q->ecn_max_kb));
		qg_explain_row(x, "cumulus.ecn.threshold", v,
			       "NVUE takes bytes: min_kb and max_kb x 1000, as NVIDIA's RoCE "
			       "defaults read 150 and 1500 KB on Onyx and 150000 and 1500000 "
			       "bytes on Cumulus; probability 100, RED off on this class");
	}
	qg_explain_row(x, "cumulus.profile", NVUE_PROFILE,
		       "NVUE's global profiles apply to every port (its egress-queue-mapping "
		       "has no other); the intent's ports get the link MTU");
	bool cable = false, role_cable = false;
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		cable |= s->target == &qg_target_cumulus && s->cable_m;
		for (size_t r = 0; s->target == &qg_target_cumulus && r < s->n_roles; r++)
			role_cable |= nvue_role_has_pfc(&s->roles[r]);
	}
	if (role_cable)
		qg_explain_row(
		    x, "cumulus.pfc.cable_length", "each role's own; the longest of the rest",
		    "NVUE sizes a PFC profile's headroom for one cable length: a role "
		    "with cable_length_m gets its own PFC profile (cumulus.roles.*), and "
		    "default-global, for every other port, each switch's longest "
		    "cable_length_m among them, so no port has less headroom than its "
		    "cable needs");
	else if (cable)
		qg_explain_row(x, "cumulus.pfc.cable_length", "the longest per switch",
			       "NVUE sizes a PFC profile's headroom for one cable length, and "
			       "qosgen writes one profile for all of a switch's ports: each "
			       "switch's longest cable_length_m, so no port has less headroom "
			       "than its cable needs (a switch without one keeps its own)");
	else
		qg_explain_row(x, "cumulus.pfc.cable_length", "-",
			       "left as the switch has it (NVUE's default is 10 m): no switch "
			       "gives cable_length_m");
	cumulus_explain_roles(m, x);
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		char wv[64], r[480];
		int poll, rob;
		nvue_pfcwd_times(wd, &poll, &rob);
		snprintf(wv, sizeof(wv), "polling-interval %d, robustness %d", poll, rob);
		snprintf(r, sizeof(r),
			 "detection after %d ms (polling-interval x robustness) for detection_ms "
			 "%d: the fewest polls, 3 or more (NVUE's default robustness, 100 ms x "
			 "3), at intervals of poll_ms %d or less and NVUE's floor of 100 ms or "
			 "more%s; each intent port's pfc-watchdog state enable; NVUE has no "
			 "restoration time",
			 poll * rob, wd->detection_ms, wd->poll_ms,
			 rob < 3 ? ", so fewer than 3 polls: detection_ms is under 300" : "");
		qg_explain_row(x, "cumulus.pfc_watchdog", wv, r);
	} else if (wd->state == QG_PFCWD_OFF) {
		qg_explain_row(x, "cumulus.pfc_watchdog", "disable",
			       "each intent port's qos pfc-watchdog state disable (NVUE's "
			       "default, written); the switch's polling-interval and robustness "
			       "unset, back to NVUE's defaults, 100 ms and 3 (Quality of Service "
			       "page, PFC Watchdog), as on a factory switch");
	} else {
		qg_explain_row(x, "cumulus.pfc_watchdog", "-",
			       "left as the switch has it: the intent gives no pfc_watchdog");
	}
	char why[200];
	roce_defaults_differ(q, why, sizeof(why));
	snprintf(reason, sizeof(reason),
		 "written with every value below, so that diff checks each; where this intent "
		 "differs from what `nv set qos roce mode lossless` alone sets: %s",
		 why);
	qg_explain_row(x, "cumulus.roce.mode", "lossless", reason);
}

/* What the intent may give that the cumulus target does not write (model/target_features.h). */
static const struct qg_feature_gap cumulus_gaps[] = {
    /* NVUE reference, qos pfc-watchdog: polling-interval and robustness, no restoration. */
    {QG_FEAT_PFC_WATCHDOG_RESTORATION, false,
     "NVUE has no restoration time; its switches restore a queue as NVUE does"},
    {0, false, NULL},
};

/*
 * Issue 34 (model/headroom.h). NVUE sizes a PFC profile's port-buffer and
 * xoff-threshold itself and publishes no formula ("NVIDIA recommends ...
 * let Cumulus Linux configure the settings dynamically"): the figure is the
 * SKU's own table. Its PFC cable-length "default is 10 meters" (Cumulus
 * Linux 5.14 QoS page, Port Groups, PFC; CumulusNetworks/docs
 * content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md),
 * and the roce-lossless traffic pool's memory-percent is the lossless
 * pool's share of the buffer (same page, Traffic Pools); NVUE documents no
 * shared headroom pool.
 */
static const struct qg_headroom_os cumulus_headroom = {
    .method = QG_HRM_SKU_TABLE,
    .method_source = "NVUE publishes no headroom formula: the model's own lookup table",
    .default_cable_m = 10,
    .cable_source = "NVUE's PFC cable-length default, 10 m (Cumulus Linux QoS page, Port Groups, "
		    "PFC)",
    /* One length per PFC profile (nvue_cable_length(): the switch's longest outside a role's). */
    .cable_per_profile = true,
    .budget = QG_HRB_POOL,
    .budget_source = "qos traffic-pool roce-lossless memory-percent: the lossless pool's share "
		     "of the buffer (Cumulus Linux QoS page, Traffic Pools)",
    .shared_pool = "none documented",
};

const struct qg_target qg_target_cumulus = {
    .name = "cumulus",
    .aliases =
	(const char *const[]){"cumulus-linux", "cumulus_linux", "cumuluslinux", "nvue", "cl", NULL},
    .summary = "Cumulus Linux NVUE (startup.yaml fragment and nv set commands; REST read-back)",
    .kind = QG_DEVICE_SWITCH,
    .ports = &cumulus_port_syntax,
    .switch_mtu_max = 9216, /* NVUE: nv set interface <if> link mtu, 552-9216 */
    .headroom = &cumulus_headroom,
    /* NVUE's REST API (nginx on the switch): Cumulus Linux 5.x, NVUE API. */
    .access = "NVUE REST API (HTTPS)",
    .default_port = 8765,
    /* Cumulus Linux 5.6 to 5.16 and their NVUE dialects (nvue_dialect.c). */
    .versions = &nvue_versions,
    .check = cumulus_check,
    .ets_fits = cumulus_ets_fits,
    .settings = cumulus_settings,
    .emit = cumulus_emit,
    .diff = cumulus_diff,
    .explain = cumulus_explain,
    .handoff = &qg_handoff_switch_push,
    /* A role's ecn: its own congestion-control profile (nvue_config.c, role_profiles). */
    .features = (QG_FEAT_ALL & ~QG_FEAT_PFC_WATCHDOG_RESTORATION) | QG_FEAT_ROLE_ECN,
    .gaps = cumulus_gaps,
};
