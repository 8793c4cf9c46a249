/* SPDX-License-Identifier: MIT */
#include "nvue_config.h"

#include "../../gen/derive.h"
#include "../../gen/jsonsort.h"
#include "../../gen/ports.h"
#include "cumulus_ports.h"

#include <ctype.h>
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

/*
 * The traffic class of every switch-priority that no class holds: NVIDIA's
 * RoCE mode puts them on traffic class 0 (RDMA-over-Converged-Ethernet-RoCE.md,
 * "Default RoCE Mode Configuration": "Other switch priority to traffic class
 * 0"; its procedure for moving the RoCE priority remaps the old one to 0);
 * when a class holds TC 0, the lowest TC no class holds, so no lossy
 * priority shares the lossless or the CNP queue.
 */
int nvue_lossy_tc(const struct qg_qos *q)
{
	for (int tc = 0; tc < 8; tc++)
		if (tc != q->lossless.traffic_class && (!q->cnp || tc != q->cnpc.traffic_class))
			return tc;
	return 0; /* unreachable: two classes hold at most two of eight */
}

int nvue_priority_tc(const struct qg_qos *q, int sp)
{
	if (sp == q->lossless.priority)
		return q->lossless.traffic_class;
	if (q->cnp && sp == q->cnpc.priority)
		return q->cnpc.traffic_class;
	return nvue_lossy_tc(q);
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
	 * all eight, nvue_priority_tc) carries nothing: strict, as the page's
	 * own example sets the queues it gives no share, so it takes none of
	 * the 100 %.
	 */
	for (int tc = 0; tc < 8; tc++)
		out[tc] = (struct nvue_tc_sched){true, 0};
	out[nvue_lossy_tc(q)] = (struct nvue_tc_sched){false, nvue_lossy_share(q)};
	struct qg_ets l = class_ets(&q->lossless, true);
	out[q->lossless.traffic_class] =
	    (struct nvue_tc_sched){l.mode == QG_ETS_STRICT, l.mode == QG_ETS_WRR ? l.weight : 0};
	if (q->cnp) {
		struct qg_ets c = class_ets(&q->cnpc, false);
		out[q->cnpc.traffic_class] = (struct nvue_tc_sched){
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
			ecn_class(childn(tcs, q->lossless.traffic_class), role->ecn_min_kb,
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
	 * (gen/derive.h qg_dscp_map_exact: the classes' DSCPs to their
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
	 * ECN on the lossless class only; every other class unset, back to
	 * NVUE's default (the Quality of Service page, ECN: the default-global
	 * profile's traffic class 0 at 150000..1500000 bytes), so a class an
	 * earlier intent made lossless loses the marking it had.
	 */
	cJSON *cc =
	    child(child(child(qos, "congestion-control"), NVUE_PROFILE), "traffic-class");
	for (int tc = 0; tc < 8; tc++) {
		if (q->ecn && tc == q->lossless.traffic_class) {
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
	/* `nv set qos roce mode lossless`: the RoCE feature on, in lossless mode. */
	str(child(qos, "roce"), "enable", "on");
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

/* ---- judging and the patch ---- */

static const cJSON *at(const cJSON *o, const char *const *path)
{
	for (; o && *path; path++)
		o = cJSON_GetObjectItemCaseSensitive(o, *path);
	return o;
}

/* A number leaf as NVUE prints it (a number over the API, a string in YAML); def if absent. */
/*
 * A whole number leaf as NVUE prints it (a number over the API, a string in
 * YAML); def if absent; -1 if it is anything else (50.9, "1e2", "-5"), which
 * no NVUE counts in percents or bytes would be.
 */
static long leaf_long(const cJSON *v, long def)
{
	if (!v)
		return def;
	if (cJSON_IsNumber(v))
		return v->valuedouble >= 0 && v->valuedouble <= 1e9 &&
			       v->valuedouble == (double)(long)v->valuedouble
			   ? (long)v->valuedouble
			   : -1;
	char *e;
	if (!cJSON_IsString(v) || !isdigit((unsigned char)v->valuestring[0]))
		return -1;
	long n = strtol(v->valuestring, &e, 10);
	return *e || n > 1000000000 ? -1 : n;
}

const char *nvue_config_hostname(const cJSON *have)
{
	const cJSON *h = at(have, (const char *const[]){"system", "hostname", NULL});
	return cJSON_IsString(h) ? h->valuestring : "";
}

/* The first of have's traffic pools; other_pool() tells the ones qosgen does not write. */
static const cJSON *first_pool(const cJSON *have)
{
	const cJSON *pools = at(have, (const char *const[]){"qos", "traffic-pool", NULL});
	return cJSON_IsObject(pools) ? pools->child : NULL;
}

static bool other_pool(const cJSON *p)
{
	return strcmp(p->string, NVUE_POOL_LOSSLESS) && strcmp(p->string, NVUE_POOL_LOSSY);
}

/*
 * A set qosgen writes must read back as one: members with empty objects. A
 * member with a value ("'6': {mode: strict}") is not something a merge patch
 * can turn into a member: refused, at its path.
 */
static int malformed_sets(const cJSON *w, const cJSON *h, char *path, size_t cap,
			  struct qg_diags *d)
{
	if (!cJSON_IsObject(w) || !cJSON_IsObject(h))
		return 0;
	size_t len = strlen(path);
	int errors = 0;
	if (nvue_is_set(w)) {
		for (const cJSON *c = h->child; c; c = c->next)
			if (!cJSON_IsObject(c) || c->child) {
				qg_error(d, (struct qg_pos){0},
					 "the read-back's %s %s is not a member of a set (it has a "
					 "value); NVUE writes set members as {}: is this NVUE's "
					 "configuration?",
					 path, c->string);
				return 1;
			}
		return 0;
	}
	for (const cJSON *c = w->child; c; c = c->next) {
		snprintf(path + len, cap - len, "%s%s", len ? " " : "", c->string);
		errors +=
		    malformed_sets(c, cJSON_GetObjectItemCaseSensitive(h, c->string), path, cap, d);
		path[len] = '\0';
	}
	return errors;
}

/* Is one of the priorities qosgen gives default-lossy held by no other pool? */
static bool lossy_keeps_one(const cJSON *want, const cJSON *have)
{
	const cJSON *sp = at(want, (const char *const[]){"qos", "traffic-pool", NVUE_POOL_LOSSY,
							 "switch-priority", NULL});
	const cJSON *c;
	cJSON_ArrayForEach(c, sp)
	{
		bool held = false;
		for (const cJSON *p = first_pool(have); p && !held; p = p->next) {
			const cJSON *theirs =
			    cJSON_GetObjectItemCaseSensitive(p, "switch-priority");
			held = other_pool(p) && cJSON_IsObject(theirs) &&
			       cJSON_GetObjectItemCaseSensitive(theirs, c->string);
		}
		if (!held)
			return true;
	}
	return !sp;
}

/*
 * A port a role binds to a PFC profile must not keep a link-pause profile:
 * NVUE refuses both on one port (QoS page, "Link Pause": "You can not
 * configure link pause and PFC on the same port"), and the apply would fail
 * after the patch was sent. Not qosgen's to remove: refused, with the fix.
 */
static int pfc_beside_link_pause(const cJSON *want, const cJSON *have, struct qg_diags *d)
{
	int errors = 0;
	const cJSON *ifs = at(want, (const char *const[]){"interface", NULL});
	for (const cJSON *x = cJSON_IsObject(ifs) ? ifs->child : NULL; x; x = x->next) {
		const cJSON *pfc = at(x, (const char *const[]){"qos", "pfc", "profile", NULL});
		const cJSON *lp =
		    at(have, (const char *const[]){"interface", x->string, "qos", "link-pause", NULL});
		if (!cJSON_IsString(pfc) || !lp)
			continue;
		qg_error(d, (struct qg_pos){0},
			 "the switch's interface %s has a link-pause profile, and its role gives it "
			 "the PFC profile %s; NVUE cannot configure link pause and PFC on the same "
			 "port: remove it there (nv unset interface %s qos link-pause)",
			 x->string, pfc->valuestring, x->string);
		errors++;
	}
	return errors;
}

int nvue_config_judge(const cJSON *want, const cJSON *have, struct qg_diags *d)
{
	char path[256] = "";
	int errors = malformed_sets(want, have, path, sizeof(path), d);
	long ours =
	    leaf_long(at(want, (const char *const[]){"qos", "traffic-pool", NVUE_POOL_LOSSLESS,
						     "memory-percent", NULL}),
		      0);
	long others = 0;
	const cJSON *lossless =
	    at(want, (const char *const[]){"qos", "pfc", NVUE_PROFILE, "switch-priority", NULL});
	const char *prio = lossless && lossless->child ? lossless->child->string : "";
	for (const cJSON *p = first_pool(have); p; p = p->next) {
		if (!other_pool(p))
			continue;
		long held = leaf_long(cJSON_GetObjectItemCaseSensitive(p, "memory-percent"), 0);
		if (held < 0) {
			qg_error(d, (struct qg_pos){0},
				 "the switch's traffic pool %s has a memory-percent that is not a "
				 "whole number; is this NVUE's configuration?",
				 p->string);
			errors++;
			continue;
		}
		others += held;
		const cJSON *sp = cJSON_GetObjectItemCaseSensitive(p, "switch-priority");
		if (sp && cJSON_GetObjectItemCaseSensitive(sp, prio)) {
			qg_error(d, (struct qg_pos){0},
				 "the switch's traffic pool %s holds switch-priority %s, the "
				 "lossless priority; remove it there (nv unset qos traffic-pool "
				 "%s switch-priority %s) or choose another priority",
				 p->string, prio, p->string, prio);
			errors++;
		}
	}
	if (!lossy_keeps_one(want, have)) {
		qg_error(d, (struct qg_pos){0},
			 "the switch's other traffic pools hold every switch-priority but the "
			 "lossless one, so %s would hold none; NVUE cannot configure an empty "
			 "set there (unset, it reads as 0-7): free a priority from those pools",
			 NVUE_POOL_LOSSY);
		errors++;
	}
	errors += pfc_beside_link_pause(want, have, d);
	if (ours + others > 100) {
		qg_error(d, (struct qg_pos){0},
			 "the switch's other traffic pools hold %ld%% of the buffer; with the "
			 "lossless pool's %ld%% that is over 100%%: lower memory_percent or "
			 "shrink those pools",
			 others, ours);
		errors++;
	}
	return errors;
}

bool nvue_is_set(const cJSON *o)
{
	if (!cJSON_IsObject(o) || !o->child)
		return false;
	for (const cJSON *c = o->child; c; c = c->next)
		if (!cJSON_IsObject(c) || c->child)
			return false;
	return true;
}

/*
 * Does a leaf of have say what want's says (9216 and "9216" alike)? A
 * number as text only in its plain decimal form: NVUE reads startup.yaml
 * with PyYAML, whose YAML 1.1 takes "050" as octal 40, so "050" is not 50
 * (a fuzz finding).
 */
static bool leaf_equal(const cJSON *want, const cJSON *have)
{
	if (!have)
		return false;
	if (cJSON_IsNumber(want)) {
		char text[32];
		if (cJSON_IsNumber(have))
			return have->valuedouble == want->valuedouble;
		snprintf(text, sizeof(text), "%ld", (long)want->valuedouble);
		return cJSON_IsString(have) && !strcmp(have->valuestring, text);
	}
	return cJSON_IsString(have) && !strcmp(have->valuestring, want->valuestring);
}

static void put(cJSON **patch, const char *key, cJSON *v, bool *oom)
{
	if (!v) {
		*oom = true;
		return;
	}
	if (!*patch && !(*patch = cJSON_CreateObject())) {
		cJSON_Delete(v);
		*oom = true;
		return;
	}
	cJSON_AddItemToObject(*patch, key, v);
}

static cJSON *patch_of(const cJSON *want, const cJSON *have, bool *oom)
{
	cJSON *patch = NULL;
	if (nvue_is_set(want)) {
		/*
		 * A set that differs is written whole, and have's extras deleted: a
		 * set the switch only shows by default (default-lossy's 0-7) is not
		 * in its configuration, so deleting one member of it would change
		 * nothing; writing the members replaces the default.
		 */
		bool differs =
		    !cJSON_IsObject(have) || cJSON_GetArraySize(have) != cJSON_GetArraySize(want);
		const cJSON *c;
		cJSON_ArrayForEach(c, want)
		{
			/* A member is an empty object; anything else there is not the member. */
			const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, c->string);
			differs |= !cJSON_IsObject(h) || h->child;
		}
		if (!differs)
			return NULL;
		cJSON_ArrayForEach(c, want)
		{
			put(&patch, c->string, cJSON_CreateObject(), oom);
		}
		if (cJSON_IsObject(have))
			cJSON_ArrayForEach(c, have)
			{
				if (!cJSON_GetObjectItemCaseSensitive(want, c->string))
					put(&patch, c->string, cJSON_CreateNull(), oom);
			}
		return patch;
	}
	const cJSON *c;
	cJSON_ArrayForEach(c, want)
	{
		const cJSON *h =
		    cJSON_IsObject(have) ? cJSON_GetObjectItemCaseSensitive(have, c->string) : NULL;
		if (cJSON_IsNull(c)) {
			/* Owned and unset in the intent: removed where the switch has it. */
			if (h && !cJSON_IsNull(h))
				put(&patch, c->string, cJSON_CreateNull(), oom);
		} else if (cJSON_IsObject(c)) {
			cJSON *sub = patch_of(c, h, oom);
			if (sub)
				put(&patch, c->string, sub, oom);
			else if (!c->child && !cJSON_IsObject(h))
				put(&patch, c->string, cJSON_CreateObject(), oom);
		} else if (!leaf_equal(c, h)) {
			put(&patch, c->string, cJSON_Duplicate(c, true), oom);
		}
	}
	return patch;
}

/* Other pools' memory and priorities stay theirs: default-lossy gets what is left. */
static void share_lossy_pool(cJSON *want, const cJSON *have)
{
	cJSON *lossy =
	    (cJSON *)at(want, (const char *const[]){"qos", "traffic-pool", NVUE_POOL_LOSSY, NULL});
	if (!lossy)
		return;
	cJSON *pct = cJSON_GetObjectItemCaseSensitive(lossy, "memory-percent");
	cJSON *sp = cJSON_GetObjectItemCaseSensitive(lossy, "switch-priority");
	for (const cJSON *p = first_pool(have); p; p = p->next) {
		if (!other_pool(p))
			continue;
		long held = leaf_long(cJSON_GetObjectItemCaseSensitive(p, "memory-percent"), 0);
		if (pct && held > 0 && held <= pct->valuedouble)
			cJSON_SetNumberValue(pct, pct->valuedouble - (double)held);
		const cJSON *theirs = cJSON_GetObjectItemCaseSensitive(p, "switch-priority");
		const cJSON *c;
		cJSON_ArrayForEach(c, theirs)
		{
			cJSON_DeleteItemFromObjectCaseSensitive(sp, c->string);
		}
	}
}

/* ---- the roles' profiles: qosgen's by their name ---- */

/* The profile kinds a role writes, in qos and in an interface's qos (NVUE reference, QoS). */
static const char *const role_kinds[] = {"congestion-control", "pfc"};
#define N_ROLE_KINDS (sizeof(role_kinds) / sizeof(role_kinds[0]))

static bool ours(const cJSON *name)
{
	return cJSON_IsString(name) &&
	       !strncmp(name->valuestring, NVUE_ROLE_PREFIX, strlen(NVUE_ROLE_PREFIX));
}

/* The object at path under o, objects made where missing; NULL where a non-object is. */
static cJSON *object_at(cJSON *o, const char *const *path)
{
	for (; o && *path; path++) {
		cJSON *c = cJSON_GetObjectItemCaseSensitive(o, *path);
		o = !c ? cJSON_AddObjectToObject(o, *path) : cJSON_IsObject(c) ? c : NULL;
	}
	return o;
}

/* w's profile ends as w says: each key of have's h that w lacks, null in w. */
static void null_extras(cJSON *w, const cJSON *h)
{
	if (!cJSON_IsObject(w) || !cJSON_IsObject(h) || nvue_is_set(w))
		return; /* a set: patch_of writes it exactly */
	for (const cJSON *c = h->child; c; c = c->next) {
		cJSON *mine = cJSON_GetObjectItemCaseSensitive(w, c->string);
		if (!mine)
			cJSON_AddNullToObject(w, c->string);
		else
			null_extras(mine, c);
	}
}

/*
 * Which of interface x's qos keys in have are bindings to a profile of
 * qosgen's that w does not make (drop[k] for role_kinds[k]); returns how
 * many, and in *kept how many of its keys stay.
 */
static int stale_bindings(const cJSON *w, const cJSON *x, bool drop[N_ROLE_KINDS], int *kept)
{
	const cJSON *hq = cJSON_GetObjectItemCaseSensitive(x, "qos");
	int dropped = 0;
	*kept = 0;
	for (const cJSON *c = cJSON_IsObject(hq) ? hq->child : NULL; c; c = c->next) {
		size_t k = 0;
		while (k < N_ROLE_KINDS && strcmp(c->string, role_kinds[k]))
			k++;
		bool stale =
		    k < N_ROLE_KINDS &&
		    ours(cJSON_GetObjectItemCaseSensitive(c, "profile")) &&
		    !at(w, (const char *const[]){"interface", x->string, "qos", c->string, "profile",
						 NULL});
		if (stale) {
			drop[k] = true;
			dropped++;
		} else {
			(*kept)++;
		}
	}
	return dropped;
}

/*
 * The profiles and bindings qosgen owns by name end exactly as w says
 * (docs/intent.md, "What qosgen owns on a switch"): a profile of have's
 * named NVUE_ROLE_PREFIX... that w lacks is null in w (its role is gone),
 * one w has loses what w does not say; a binding to one that w does not
 * make, on any interface (a port a role or the intent dropped), is unset,
 * its interface's whole qos where nothing else is there, so no empty
 * object stays behind that a factory switch would not have.
 */
static void own_role_state(cJSON *w, const cJSON *have)
{
	for (size_t k = 0; k < N_ROLE_KINDS; k++) {
		const cJSON *hp = at(have, (const char *const[]){"qos", role_kinds[k], NULL});
		for (const cJSON *p = cJSON_IsObject(hp) ? hp->child : NULL; p; p = p->next) {
			if (strncmp(p->string, NVUE_ROLE_PREFIX, strlen(NVUE_ROLE_PREFIX)))
				continue;
			cJSON *kind = object_at(w, (const char *const[]){"qos", role_kinds[k], NULL});
			cJSON *mine = kind ? cJSON_GetObjectItemCaseSensitive(kind, p->string) : NULL;
			if (mine)
				null_extras(mine, p);
			else if (kind)
				cJSON_AddNullToObject(kind, p->string);
		}
	}
	const cJSON *ifs = at(have, (const char *const[]){"interface", NULL});
	for (const cJSON *x = cJSON_IsObject(ifs) ? ifs->child : NULL; x; x = x->next) {
		bool drop[N_ROLE_KINDS] = {false};
		int kept;
		if (!stale_bindings(w, x, drop, &kept))
			continue;
		const cJSON *wq = at(w, (const char *const[]){"interface", x->string, "qos", NULL});
		if (!kept && !wq) {
			cJSON *wx = object_at(w, (const char *const[]){"interface", x->string, NULL});
			if (wx)
				cJSON_AddNullToObject(wx, "qos");
			continue;
		}
		cJSON *q = object_at(w, (const char *const[]){"interface", x->string, "qos", NULL});
		for (size_t k = 0; q && k < N_ROLE_KINDS; k++)
			if (drop[k])
				cJSON_AddNullToObject(q, role_kinds[k]);
	}
}

cJSON *nvue_config_patch(const cJSON *want, const cJSON *have, bool *oom)
{
	*oom = false;
	cJSON *w = cJSON_Duplicate(want, true);
	if (!w) {
		*oom = true;
		return NULL;
	}
	share_lossy_pool(w, have);
	own_role_state(w, have);
	cJSON *patch = patch_of(w, have, oom);
	cJSON_Delete(w);
	if (*oom) {
		cJSON_Delete(patch);
		return NULL;
	}
	return patch;
}

static cJSON *inverse_of(const cJSON *patch, const cJSON *before, bool *oom)
{
	cJSON *inv = NULL;
	const cJSON *c;
	cJSON_ArrayForEach(c, patch)
	{
		const cJSON *b = cJSON_IsObject(before)
				     ? cJSON_GetObjectItemCaseSensitive(before, c->string)
				     : NULL;
		if (cJSON_IsObject(c) && c->child && cJSON_IsObject(b)) {
			cJSON *sub = inverse_of(c, b, oom);
			if (sub)
				put(&inv, c->string, sub, oom);
		} else {
			put(&inv, c->string, b ? cJSON_Duplicate(b, true) : cJSON_CreateNull(),
			    oom);
		}
	}
	return inv;
}

cJSON *nvue_config_inverse(const cJSON *patch, const cJSON *before, bool *oom)
{
	*oom = false;
	cJSON *inv = patch ? inverse_of(patch, before, oom) : NULL;
	if (*oom) {
		cJSON_Delete(inv);
		return NULL;
	}
	return inv;
}

static bool agree(const cJSON *a, const cJSON *b)
{
	if (!a || !b || cJSON_IsNull(a) || cJSON_IsNull(b))
		return (!a || cJSON_IsNull(a)) == (!b || cJSON_IsNull(b));
	if (cJSON_IsObject(a) || cJSON_IsObject(b))
		return cJSON_IsObject(a) && cJSON_IsObject(b) && cJSON_Compare(a, b, true);
	return cJSON_IsNumber(a) ? leaf_equal(a, b) : leaf_equal(b, a);
}

bool nvue_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, patch)
	{
		const cJSON *x =
		    cJSON_IsObject(a) ? cJSON_GetObjectItemCaseSensitive(a, c->string) : NULL;
		const cJSON *y =
		    cJSON_IsObject(b) ? cJSON_GetObjectItemCaseSensitive(b, c->string) : NULL;
		if (cJSON_IsObject(c) && c->child) {
			if (!nvue_config_same_at(c, x, y))
				return false;
		} else if (!agree(x, y)) {
			return false;
		}
	}
	return true;
}
