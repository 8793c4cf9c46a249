/* SPDX-License-Identifier: MIT */
#include "nvue_config.h"

#include "../../model/derive.h"
#include "../../lib/jsonsort.h"
#include "../../model/ports.h"
#include "cumulus_ports.h"
#include "nvue_dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building a tree ---- */

/* The object child `key` of o, made if missing; NULL out of memory. */
static cJSON *child(cJSON *o, const char *key)
{
	if (!o)
		return NULL;
	cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
	return c ? c : cJSON_AddObjectToObject(o, key);
}

static cJSON *childn(cJSON *o, int key)
{
	char k[16];
	snprintf(k, sizeof(k), "%d", key);
	return child(o, k);
}

static void num(cJSON *o, const char *key, long v)
{
	if (o)
		cJSON_AddNumberToObject(o, key, (double)v);
}

static void str(cJSON *o, const char *key, const char *v)
{
	if (o)
		cJSON_AddStringToObject(o, key, v);
}

/* A member of an NVUE set: the key with an empty object, as NVUE writes "'3': {}". */
static void member(cJSON *set, int key)
{
	childn(set, key);
}

int nvue_class_tc(const struct qg_qos *q, bool cnp)
{
	if (!cnp)
		return q->lossless.tc_given ? q->lossless.traffic_class : NVUE_ROCE_TC;
	if (q->cnpc.tc_given || q->cnpc.traffic_class != NVUE_ROCE_TC)
		return q->cnpc.traffic_class;
	return q->lossless.priority; /* CNPs on priority 3: the lossless priority's number */
}

void nvue_priority_tcs(const struct qg_qos *q, int out[8])
{
	/*
	 * The one rule of every switch OS (model/derive.h, issue 34): the DSCPs
	 * of no class keep their DSCP/8 classes, switch-priority p on traffic
	 * class p, Onyx's default map, which the onyx target keeps, rather
	 * than NVIDIA's RoCE mode's "Other switch priority to traffic class 0"
	 * (RoCE page, "Default RoCE Configuration"), which an Onyx switch of
	 * the fabric would not follow. A priority the intent no
	 * longer holds goes back to its own traffic class, or, where a class
	 * holds that one, the lowest one neither a class nor another priority
	 * holds (the one the lossless priority leaves when NVUE_ROCE_TC holds
	 * its own).
	 */
	qg_priority_tcs(q, nvue_class_tc(q, false), q->cnp ? nvue_class_tc(q, true) : -1, out);
}

int nvue_priority_tc(const struct qg_qos *q, int sp)
{
	int tc[8];
	nvue_priority_tcs(q, tc);
	return tc[sp];
}

int nvue_lossy_tcs(const struct qg_qos *q, bool lossy[8])
{
	int tc[8], n = 0;
	nvue_priority_tcs(q, tc);
	for (int t = 0; t < 8; t++)
		lossy[t] = false;
	for (int p = 0; p < 8; p++) {
		bool cls = p == q->lossless.priority || (q->cnp && p == q->cnpc.priority);
		if (!cls && !lossy[tc[p]]) {
			lossy[tc[p]] = true;
			n++;
		}
	}
	return n;
}

/*
 * A class's egress scheduling: its ets, or where the intent gives none what
 * `nv set qos roce mode lossless` gives it (RoCE page, "Default RoCE Mode
 * Configuration": RoCE "WRR 50%", CNP "Strict").
 */
static struct qg_ets class_ets(const struct qg_class *c, bool lossless)
{
	struct qg_ets e = c->ets;
	if (e.mode == QG_ETS_UNSET) {
		e.mode = lossless ? QG_ETS_WRR : QG_ETS_STRICT;
		e.weight = lossless ? NVUE_ROCE_DEFAULT_SHARE : 0;
	}
	return e;
}

int nvue_lossy_share(const struct qg_qos *q)
{
	int used = 0;
	struct qg_ets l = class_ets(&q->lossless, true);
	used += l.mode == QG_ETS_WRR ? l.weight : 0;
	if (q->cnp) {
		struct qg_ets c = class_ets(&q->cnpc, false);
		used += c.mode == QG_ETS_WRR ? c.weight : 0;
	}
	return 100 - used;
}

void nvue_scheduler(const struct qg_qos *q, struct nvue_tc_sched out[8])
{
	/*
	 * Every traffic class explicit, so that what an earlier intent or the
	 * switch's default scheduler (12 % and 13 % a class, Quality of Service
	 * page, Egress Scheduling) left cannot add up past 100 with ours ("The
	 * combined total of values you assign to bw_percent must be less than
	 * or equal to 100"). A class no switch-priority maps to (qosgen writes
	 * all eight, nvue_priority_tcs) carries nothing: strict, as the page's
	 * own example sets the queues it gives no share, so it takes none of
	 * the 100 %.
	 */
	bool lossy[8];
	int n = nvue_lossy_tcs(q, lossy), rest = nvue_lossy_share(q);
	/*
	 * The traffic classes of the other switch-priorities share what the
	 * classes' weights leave, as on Onyx (issue 34): evenly, the lower TCs
	 * taking the odd units.
	 */
	for (int tc = 0, k = 0; tc < 8; tc++)
		out[tc] = lossy[tc] ? (struct nvue_tc_sched){false, qg_even_share(rest, n, k++)}
				    : (struct nvue_tc_sched){true, 0};
	struct qg_ets l = class_ets(&q->lossless, true);
	out[nvue_class_tc(q, false)] =
	    (struct nvue_tc_sched){l.mode == QG_ETS_STRICT, l.mode == QG_ETS_WRR ? l.weight : 0};
	if (q->cnp) {
		struct qg_ets c = class_ets(&q->cnpc, false);
		out[nvue_class_tc(q, true)] = (struct nvue_tc_sched){
		    c.mode == QG_ETS_STRICT, c.mode == QG_ETS_WRR ? c.weight : 0};
	}
}

/* NVUE's own defaults (Quality of Service page, PFC Watchdog; NVUE reference, QoS). */
#define NVUE_PFCWD_POLL_MIN 100
#define NVUE_PFCWD_ROBUSTNESS_DEFAULT 3

void nvue_pfcwd_times(const struct qg_pfc_watchdog *wd, int *poll, int *robustness)
{
	/*
	 * NVUE detects a storm after robustness polls: detection = poll x
	 * robustness. NVUE's default is 100 ms x 3: a storm must be seen three
	 * times running before the queue is dropped. So: the fewest polls, 3
	 * or more, that divide detection_ms exactly into intervals no longer
	 * than the intent's poll_ms and no shorter than NVUE's floor of 100 ms
	 * (500 ms: 125 x 4). Where there are none, a poll of detection_ms / 3
	 * (at most poll_ms, at least 100 ms) and as many polls as come nearest
	 * detection_ms; where the floor forbids three polls (detection_ms under
	 * 300) the detection time wins and the robustness is lower (200 ms:
	 * 100 x 2); explain says so.
	 */
	for (int r = NVUE_PFCWD_ROBUSTNESS_DEFAULT; r <= NVUE_PFCWD_ROBUSTNESS_MAX; r++) {
		int p = wd->detection_ms / r;
		if (p < NVUE_PFCWD_POLL_MIN)
			break;
		if (wd->detection_ms % r == 0 && p <= wd->poll_ms) {
			*poll = p; /* exact: the fewest polls, 3 or more, no slower than poll_ms */
			*robustness = r;
			return;
		}
	}
	int p = wd->detection_ms / NVUE_PFCWD_ROBUSTNESS_DEFAULT;
	p = p < wd->poll_ms ? p : wd->poll_ms;
	p = p < NVUE_PFCWD_POLL_MIN ? NVUE_PFCWD_POLL_MIN : p;
	p = p > NVUE_PFCWD_POLL_MAX ? NVUE_PFCWD_POLL_MAX : p;
	int r = (wd->detection_ms + p / 2) / p;
	r = r < 1 ? 1 : r > NVUE_PFCWD_ROBUSTNESS_MAX ? NVUE_PFCWD_ROBUSTNESS_MAX : r;
	*poll = p;
	*robustness = r;
}

bool nvue_role_profile(const struct qg_port_role *r, char out[NVUE_PROFILE_NAME_LEN])
{
	int n = snprintf(out, NVUE_PROFILE_NAME_LEN, "%s%s", NVUE_ROLE_PREFIX, r->name);
	return n > 0 && n < NVUE_PROFILE_NAME_LEN;
}

/* The role of port k, or NULL: port_role holds its index plus one, 0 for none. */
const struct qg_port_role *nvue_port_role(const struct qg_switch *s, size_t k)
{
	if (!s->port_role || !s->port_role[k] || s->port_role[k] > s->n_roles)
		return NULL;
	return &s->roles[s->port_role[k] - 1];
}

bool nvue_role_has_ecn(const struct qg_qos *q, const struct qg_port_role *r)
{
	return r && r->ecn_given && q->ecn;
}

bool nvue_role_has_pfc(const struct qg_port_role *r)
{
	return r && r->cable_m > 0;
}

int nvue_cable_length(const struct qg_switch *s)
{
	int longest = 0;
	for (size_t k = 0; s->cable_m && k < s->n_ports; k++)
		if (!nvue_role_has_pfc(nvue_port_role(s, k)))
			longest = s->cable_m[k] > longest ? s->cable_m[k] : longest;
	return longest;
}

static void null(cJSON *o, const char *key)
{
	if (o)
		cJSON_AddNullToObject(o, key);
}

/* ECN on the lossless class: marking, RED off, the thresholds in bytes. */
static void ecn_class(cJSON *t, int min_kb, int max_kb)
{
	str(t, "ecn", "enable");
	/* RED drops RoCE packets above min: never on the lossless class. */
	str(t, "red", "disable");
	num(t, "min-threshold", qg_ecn_bytes(min_kb));
	num(t, "max-threshold", qg_ecn_bytes(max_kb));
	num(t, "probability", NVUE_ECN_PROBABILITY);
}

/* A PFC profile: exactly the lossless priority, tx and rx on, the cable length when given. */
static void pfc_profile(cJSON *pfc, const struct qg_qos *q, int cable_m)
{
	member(child(pfc, "switch-priority"), q->lossless.priority);
	str(pfc, "tx", "enable");
	str(pfc, "rx", "enable");
	if (cable_m)
		num(pfc, "cable-length", cable_m);
}

/*
 * A switch's roles (issue 28), as NVUE's port groups (QoS page, "Port
 * Groups": "Configurations with a profile override the global settings for
 * the ingress ports in the port group. Ports not in a profile use the global
 * settings."): a role with its own ecn gets a congestion-control profile,
 * the lossless class as default-global's with the role's thresholds; a role
 * with its own cable_length_m a PFC profile, default-global's with the
 * role's cable length, so its headroom is sized for its own cable (QoS
 * page, Port Groups, PFC: `nv set qos pfc <profile> cable-length`). Both
 * named qosgen-<role> (nvue_role_profile); the role's ports are bound to
 * them (`interface <port> qos congestion-control|pfc profile`).
 */
static void role_profiles(cJSON *qos, const struct qg_qos *q, const struct qg_switch *s)
{
	for (size_t r = 0; r < s->n_roles; r++) {
		const struct qg_port_role *role = &s->roles[r];
		char name[NVUE_PROFILE_NAME_LEN];
		if (!nvue_role_profile(role, name))
			continue; /* check() refuses the name first */
		if (nvue_role_has_ecn(q, role)) {
			cJSON *tcs = child(child(child(qos, "congestion-control"), name),
					   "traffic-class");
			ecn_class(childn(tcs, nvue_class_tc(q, false)), role->ecn_min_kb,
				  role->ecn_max_kb);
		}
		if (nvue_role_has_pfc(role))
			pfc_profile(child(child(qos, "pfc"), name), q, role->cable_m);
	}
}

/* Port k's bindings to its role's profiles, where its role has them. */
static void role_bindings(cJSON *intf, const struct qg_qos *q, const struct qg_switch *s, size_t k)
{
	const struct qg_port_role *role = nvue_port_role(s, k);
	char name[NVUE_PROFILE_NAME_LEN];
	if (!role || !nvue_role_profile(role, name))
		return;
	if (nvue_role_has_ecn(q, role))
		str(child(child(intf, "qos"), "congestion-control"), "profile", name);
	if (nvue_role_has_pfc(role))
		str(child(child(intf, "qos"), "pfc"), "profile", name);
}

/*
 * What qosgen owns of the qos tree, whole: every key NVUE has there is
 * written, or written as null (unset: NVUE's default), so that the tree
 * says the same whatever the switch had before (docs/intent.md, "What
 * qosgen owns on a switch").
 */
static void owned_qos(cJSON *qos, const struct qg_qos *q)
{
	/*
	 * The classification maps, all 64 DSCPs and all 8 PCPs: the exact map
	 * (model/derive.h qg_dscp_map_exact: the classes' DSCPs to their
	 * priorities, every other DSCP to DSCP/8, NVUE's default table under
	 * "Trust DSCP", except that the rest of a class's DSCP/8 block goes to
	 * a lossy priority: only the intent's DSCPs are lossless), and PCP p to
	 * switch-priority p (NVUE's default, "Trust 802.1p Marking"). Written
	 * whole, an entry an earlier intent moved comes back.
	 */
	cJSON *map = child(child(qos, "mapping"), NVUE_PROFILE);
	str(map, "trust", q->trust == QG_TRUST_DSCP ? "l3" : "l2");
	cJSON *dscp = child(map, "dscp"), *pcp = child(map, "pcp");
	uint8_t exact[64];
	qg_dscp_map_exact(q, exact);
	for (int d = 0; d < 64; d++)
		num(childn(dscp, d), "switch-priority", exact[d]);
	for (int p = 0; p < 8; p++)
		num(childn(pcp, p), "switch-priority", p);

	/* Every switch-priority's traffic class (nvue_priority_tc). */
	cJSON *eqm = child(child(child(qos, "egress-queue-mapping"), NVUE_PROFILE), "switch-priority");
	for (int p = 0; p < 8; p++)
		num(childn(eqm, p), "traffic-class", nvue_priority_tc(q, p));

	/* Every traffic class's scheduling (nvue_scheduler); strict has no share. */
	struct nvue_tc_sched sched[8];
	nvue_scheduler(q, sched);
	cJSON *es = child(child(child(qos, "egress-scheduler"), NVUE_PROFILE), "traffic-class");
	for (int tc = 0; tc < 8; tc++) {
		cJSON *t = childn(es, tc);
		str(t, "mode", sched[tc].strict ? "strict" : "dwrr");
		if (sched[tc].strict)
			null(t, "bw-percent");
		else
			num(t, "bw-percent", sched[tc].share);
	}

	/*
	 * ECN on the lossless class only, every other class unset, so a class
	 * an earlier intent made lossless loses the marking it had. Without ecn
	 * the whole default-global profile is unset: NVUE's default profile
	 * marks traffic class 0 (150000..1500000 bytes, RED off; Quality of
	 * Service page, "Congestion Control (ECN)": "The default profile
	 * (default-global) enables ECN by default on egress queue 0"), and a
	 * configured default-global profile replaces that default (the same
	 * section: configuring traffic classes 4, 5, 7 leaves those three, the
	 * Linux tab's egress_queue_list = [4,5,7]), so only an unset profile
	 * ends where a factory switch is.
	 */
	cJSON *ccs = child(qos, "congestion-control");
	if (!q->ecn) {
		null(ccs, NVUE_PROFILE);
		return;
	}
	cJSON *cc = child(child(ccs, NVUE_PROFILE), "traffic-class");
	for (int tc = 0; tc < 8; tc++) {
		if (tc == nvue_class_tc(q, false)) {
			ecn_class(childn(cc, tc), q->ecn_min_kb, q->ecn_max_kb);
		} else {
			char k[4];
			snprintf(k, sizeof(k), "%d", tc);
			null(cc, k);
		}
	}
}

cJSON *nvue_config_from_model(const struct qg_model *m, size_t i)
{
	const struct qg_qos *q = &m->qos;
	const struct qg_switch *s = &m->switches[i];
	cJSON *root = cJSON_CreateObject();
	cJSON *qos = child(root, "qos");
	/*
	 * `nv set qos roce mode lossless`: the RoCE feature on, in lossless mode,
	 * in the switch's release's words: `enable on` up to 5.14, `state
	 * enabled` from 5.15 (nvue_dialect.c).
	 */
	enum nvue_dialect dialect = nvue_dialect_of(s->os_version);
	str(child(qos, "roce"), nvue_roce_key(dialect), nvue_roce_on(dialect));
	str(child(qos, "roce"), "mode", "lossless");
	owned_qos(qos, q);

	/*
	 * NVUE sizes a PFC profile's headroom for one cable length, and
	 * default-global holds every port no role's PFC profile holds: their
	 * longest cable, so that no port has less headroom than its cable needs.
	 */
	pfc_profile(child(child(qos, "pfc"), NVUE_PROFILE), q, nvue_cable_length(s));
	role_profiles(qos, q, s);

	/* NVUE takes whole percents; the target's check() refuses others before this. */
	int pct = q->pool_percent_centi / 100;
	cJSON *pools = child(qos, "traffic-pool");
	cJSON *lossless = child(pools, NVUE_POOL_LOSSLESS), *lossy = child(pools, NVUE_POOL_LOSSY);
	num(lossless, "memory-percent", pct);
	member(child(lossless, "switch-priority"), q->lossless.priority);
	num(lossy, "memory-percent", 100 - pct);
	cJSON *lossy_prio = child(lossy, "switch-priority");
	for (int p = 0; p < 8; p++)
		if (p != q->lossless.priority)
			member(lossy_prio, p);

	/*
	 * NVUE's watchdog (Cumulus Linux 5.6): the switch's polling-interval and
	 * robustness (polls before it acts), so detection = poll x robustness
	 * (nvue_pfcwd_times); NVUE has no restoration time.
	 */
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		cJSON *pw = child(qos, "pfc-watchdog");
		int poll, robustness;
		nvue_pfcwd_times(wd, &poll, &robustness);
		num(pw, "polling-interval", poll);
		num(pw, "robustness", robustness);
	} else if (wd->state == QG_PFCWD_OFF) {
		/*
		 * Off, and owned: the switch's timers back to NVUE's defaults, 100
		 * ms and 3 polls (Quality of Service page, PFC Watchdog: "The
		 * default polling interval is 100 milliseconds. The default number
		 * of polling intervals is 3."), by unsetting them, as a factory
		 * switch has them.
		 */
		null(qos, "pfc-watchdog");
	}
	cJSON *ifs = child(root, "interface");
	for (size_t k = 0; k < s->n_ports; k++) {
		char name[QG_PORT_TEXT_LEN];
		cumulus_port_format(&s->ports[k], name);
		num(child(child(ifs, name), "link"), "mtu", q->switch_mtu);
		/* Off is written, not unset: NVUE's default (disable), said explicitly. */
		if (wd->state != QG_PFCWD_UNMANAGED)
			str(child(child(child(ifs, name), "qos"), "pfc-watchdog"), "state",
			    wd->state == QG_PFCWD_ON ? "enable" : "disable");
		role_bindings(child(ifs, name), q, s, k);
	}
	if (!root || !qos || !ifs || !qg_json_sort(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
