/* SPDX-License-Identifier: MIT */
#include "explain.h"
#include "explain_devices.h"
#include "explain_row.h"

#include "../model/derive.h"
#include "../lib/hash.h"
#include "../model/headroom.h"
#include "headroom_report.h"
#include "../model/keys.h"
#include "modeljson.h"
#include "../model/port_kind.h"
#include "../model/settings.h"
#include "../lib/strmap.h"
#include "../model/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct qg_explain_rows {
	cJSON *rows;
	const struct qg_model *m;
};

/*
 * A target's row about one of its switches ("onyx.NAME.lossless",
 * "cumulus.owned.NAME"): the name is the segment after the target's name,
 * or the one after that, whole. A switch named like a fixed segment of its
 * target's keys ("owned") would claim that row too; --switch then shows a
 * row more, nothing is lost.
 */
static const char *switch_of(const struct qg_model *m, const char *key)
{
	for (size_t i = 0; m && i < m->n_switches; i++) {
		const char *t = m->switches[i].target->name, *name = m->switches[i].name;
		size_t lt = strlen(t), ln = strlen(name);
		if (strncmp(key, t, lt) || key[lt] != '.')
			continue;
		const char *r = key + lt + 1, *dot = strchr(r, '.');
		for (int k = 0; k < 2 && r; k++) {
			if (!strncmp(r, name, ln) && (r[ln] == '.' || !r[ln]))
				return name;
			r = dot ? dot + 1 : NULL;
			dot = r ? strchr(r, '.') : NULL;
		}
	}
	return NULL;
}

void qg_explain_row(struct qg_explain_rows *x, const char *key, const char *value,
		    const char *reason)
{
	cJSON *r = explain_row(x->rows, key, qg_setting_json(value), "target", reason);
	const char *sw = switch_of(x->m, key);
	if (sw)
		explain_of(r, sw);
}

static int group_cmp(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	return strcmp(cJSON_GetObjectItemCaseSensitive(x, "name")->valuestring,
		      cJSON_GetObjectItemCaseSensitive(y, "name")->valuestring);
}

/*
 * The groups of alike hosts (struct qg_target's group(), as build makes
 * them), sorted by name as plan.json's: [{name, target, hosts: [names]}],
 * each group's hosts in the intent's order.
 */
static cJSON *groups_json(const struct qg_model *m)
{
	cJSON *out = cJSON_CreateArray();
	struct qg_strmap by = {0}; /* group name (the object's own string) -> object */
	cJSON **v = NULL;
	size_t n = 0;
	for (size_t i = 0; out && i < m->n_hosts; i++) {
		const struct qg_host *h = &m->hosts[i];
		if (!h->target->group)
			continue;
		char name[QG_GROUP_LEN];
		h->target->group(m, i, name);
		cJSON *g = qg_strmap_get(&by, name);
		if (!g) {
			cJSON **nv = realloc(v, (n + 1) * sizeof(*v));
			g = cJSON_CreateObject();
			if (!nv || !g) {
				free(nv ? nv : v);
				v = NULL;
				n = 0;
				cJSON_Delete(g);
				cJSON_Delete(out);
				out = NULL;
				break;
			}
			v = nv;
			v[n++] = g;
			cJSON_AddStringToObject(g, "name", name);
			cJSON_AddStringToObject(g, "target", h->target->name);
			cJSON_AddArrayToObject(g, "hosts");
			if (qg_strmap_put(&by,
					  cJSON_GetObjectItemCaseSensitive(g, "name")->valuestring,
					  g, NULL) < 0) {
				cJSON_Delete(out);
				out = NULL;
				break;
			}
		}
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(g, "hosts"),
				     cJSON_CreateString(h->name));
	}
	if (n > 1)
		qsort(v, n, sizeof(v[0]), group_cmp);
	for (size_t k = 0; k < n; k++) {
		if (out)
			cJSON_AddItemToArray(out, v[k]);
		else
			cJSON_Delete(v[k]);
	}
	free(v);
	qg_strmap_free(&by);
	return out;
}

/*
 * The reasons explain gives beyond a row's doc line, by path: before, then
 * (when after is not NULL) the row's default and after.
 */
static const struct {
	const char *path, *before, *after;
} reasons[] = {
    {"qos.mtu", "hosts, VMs, vmknics and the DVS", NULL},
    /*
     * Checked against what the targets write (tests/cli/explain_truth.py):
     * PFC on the lossless priority alone (derived.pfc_vector).
     */
    {"qos.lossless.priority",
     "switch-priority and PFC priority: the one priority PFC pauses (derived.pfc_vector)", NULL},
    {"qos.cnp.priority",
     "switch-priority of CNPs, scheduled by qos.cnp.ets; no PFC on it: CNPs are not lossless "
     "(derived.pfc_vector)",
     NULL},
    {"qos.lossless.pool.memory_percent", "percent of the switch's shared buffer, two decimals",
     NULL},
    {"qos.pfc_watchdog.detection_ms",
     "ms a lossless queue may stay paused before the watchdog drops its traffic; default ",
     " (SONiC's pfcwd)"},
    {"qos.pfc_watchdog.restoration_ms",
     "ms without pause frames before the queue is lossless again; default ", " (SONiC's pfcwd)"},
    {"qos.pfc_watchdog.poll_ms", "ms between the watchdog's checks of the queues; default ",
     " (SONiC's pfcwd); detection_ms and restoration_ms are at least this"},
    {"verify.message_size", "bytes per RDMA WRITE", NULL},
};

/* One switch MTU per fabric (issue 23): every OS's ports get this one. */
static void switch_mtu_reason(const struct qg_model *m, char *reason, size_t len)
{
	char oses[256];
	int smax = qg_fabric_switch_mtu_max(m, oses, sizeof(oses));
	if (!oses[0])
		snprintf(reason, len,
			 "switch ports (this intent has no switch); at least mtu + %d (Ethernet "
			 "header and FCS), at most %d",
			 QG_SWITCH_MTU_OVERHEAD, smax);
	else if (m->qos.switch_mtu_given)
		snprintf(reason, len,
			 "the one port MTU of every switch in the fabric; at least mtu + %d "
			 "(Ethernet header and FCS), at most %d, the smallest largest port "
			 "MTU of its switch OSes (%s)",
			 QG_SWITCH_MTU_OVERHEAD, smax, oses);
	else
		snprintf(reason, len,
			 "the one port MTU of every switch in the fabric: the smallest largest "
			 "port MTU of its switch OSes (%s), so every OS gets the same; at least "
			 "mtu + %d (Ethernet header and FCS)",
			 oses, QG_SWITCH_MTU_OVERHEAD);
}

/* Why key k has its value: a reason of its own, else the row's doc line. */
static const char *policy_reason(const struct qg_model *m, const struct qg_key *k, bool given,
				 char *reason, size_t len)
{
	if (!strcmp(k->path, "qos.trust"))
		return m->qos.trust == QG_TRUST_DSCP
			   ? "switches and hosts classify by the DSCP field (each target's rows "
			     "below)"
			   : "switches and hosts classify by the 802.1p priority (each target's "
			     "rows below)";
	if (!strcmp(k->path, "qos.switch_mtu")) {
		switch_mtu_reason(m, reason, len);
		return reason;
	}
	if (!given && strstr(k->path, ".traffic_class"))
		return "default: the priority (switch-priority N to traffic class N)";
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		if (strcmp(k->path, reasons[i].path))
			continue;
		snprintf(reason, len, "%s%s%s", reasons[i].before, reasons[i].after ? k->def : "",
			 reasons[i].after ? reasons[i].after : "");
		return reason;
	}
	return k->doc;
}

/* Where row k's value lands in m; NULL: not in the policy (a device's key, a mapping). */
static const void *policy_base(const struct qg_model *m, const struct qg_key *k)
{
	switch (k->base) {
	case QG_KB_MODEL:
		return m;
	case QG_KB_QOS:
		return &m->qos;
	case QG_KB_VERIFY:
		return &m->verify;
	case QG_KB_CLASS:
		return strncmp(k->path, "qos.cnp.", 8) ? &m->qos.lossless : &m->qos.cnpc;
	default:
		return NULL;
	}
}

/*
 * The optional mapping of the policy that holds path and the intent does
 * not give (or turns off), NULL when path is in none; with rows, its one row added.
 */
static const char *absent_map(const struct qg_qos *q, const char *path, cJSON *rows)
{
	static const char *const maps[] = {"qos.lossless.ecn.", "qos.cnp.", "qos.pfc_watchdog.",
					   "qos.lossless.pool."};
	bool absent[] = {!q->ecn, !q->cnp, q->pfcwd.state != QG_PFCWD_ON, !q->pool_name[0]};
	bool off = q->pfcwd.state == QG_PFCWD_OFF;
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		if (!absent[i] || strncmp(path, maps[i], strlen(maps[i])))
			continue;
		if (rows && i == 0)
			explain_row_str(rows, "qos.lossless.ecn", NULL, "default",
					"off: no ECN marking, no DCQCN");
		else if (rows && i == 1)
			explain_row_str(rows, "qos.cnp", NULL, "default", "no CNP class");
		else if (rows && i == 2)
			explain_row_str(
			    rows, "qos.pfc_watchdog", off ? "off" : NULL, off ? "given" : "default",
			    off ? "off on the intent's ports: each target removes or disables it"
				: "not managed: each switch keeps its own PFC watchdog");
		else if (rows)
			/* Required only where a used switch target writes one
			 * (intent_qos_settle_pool). */
			explain_row_str(
			    rows, "qos.lossless.pool", NULL, "default",
			    "not given: no switch of the intent has a platform that writes a pool");
		return maps[i];
	}
	return NULL;
}

/* A class's DSCP values, or its scheduling: keys that are more than one field. */
static void class_row(cJSON *rows, const struct qg_key *k, const struct qg_class *c)
{
	char v[256];
	size_t used = 0;
	v[0] = '\0';
	if (strstr(k->path, ".dscp")) {
		for (int i = 0; i < c->n_dscp; i++)
			used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%d", i ? "," : "",
						 c->dscp[i]);
		explain_row_str(rows, k->path, v, "given", k->doc);
	} else if (!c->ets.given) {
		/*
		 * Not given: NVIDIA's RoCE default on every switch OS (model.h), so
		 * that one intent schedules alike on all of them (issue 34).
		 */
		snprintf(v, sizeof(v), "wrr %d", c->ets.weight);
		explain_row_str(
		    rows, k->path, c->ets.mode == QG_ETS_STRICT ? "strict" : v, "default",
		    c->ets.mode == QG_ETS_STRICT
			? "not given: strict on every switch OS, NVIDIA's RoCE default for "
			  "CNPs (Cumulus RoCE page, Onyx `show roce`: \"CNP Strict\")"
			: "not given: WRR 50 on every switch OS, NVIDIA's RoCE default (Cumulus "
			  "RoCE page, Onyx `show roce`: \"RoCE WRR 50%\"): a floor of 50 % of "
			  "the bandwidth the strict classes leave; the other traffic classes "
			  "share the rest (each target's rows)");
	} else {
		snprintf(v, sizeof(v), "wrr %d", c->ets.weight);
		explain_row_str(rows, k->path, c->ets.mode == QG_ETS_STRICT ? "strict" : v, "given",
				k->doc);
	}
}

/*
 * The policy's rows (verify's, or the rest), from the key table in its
 * order: each key's value where its row says it lands, given or default by
 * its given flag. An optional mapping the intent leaves out is one row.
 */
static void policy_rows(cJSON *rows, const struct qg_model *m, bool verify)
{
	size_t n;
	const struct qg_key *keys = qg_keys(&n);
	const char *said = NULL;
	char reason[320];
	for (size_t i = 0; i < n; i++) {
		const struct qg_key *k = &keys[i];
		if (!strncmp(k->path, "verify.", 7) != verify || strstr(k->path, "[]") ||
		    strstr(k->path, ".ets."))
			continue;
		const char *map = absent_map(&m->qos, k->path, NULL);
		if (map) {
			if (map != said)
				absent_map(&m->qos, k->path, rows);
			said = map;
			continue;
		}
		const void *base = policy_base(m, k);
		const char *name = strrchr(k->path, '.');
		if (!base && name && (!strcmp(name, ".dscp") || !strcmp(name, ".ets")) &&
		    !strncmp(k->path, "qos.", 4))
			class_row(rows, k,
				  strncmp(k->path, "qos.cnp.", 8) ? &m->qos.lossless
								  : &m->qos.cnpc);
		if (!base)
			continue;
		bool given = qg_key_given(k, base);
		explain_row(rows, k->path, qg_key_value_json(k, base), given ? "given" : "default",
			    policy_reason(m, k, given, reason, sizeof(reason)));
	}
}

/* Derived values, each with the arithmetic that produced it. */
static void derived_rows(cJSON *rows, const struct qg_model *m)
{
	const struct qg_qos *q = &m->qos;
	char v[256], reason[320];
	int dscp = qg_host_dscp(q), tos = qg_roce_tos(q), tos0 = qg_roce_tos_without_ecn(q);
	explain_row(rows, "derived.host_dscp", cJSON_CreateNumber(dscp), "derived",
		    "the first of qos.lossless.dscp: what hosts put on RoCE packets");
	if (q->ecn)
		snprintf(
		    reason, sizeof(reason),
		    "DSCP %d << 2 | ECT(0) 2 = %d (0x%02x); without ECN it would be %d (0x%02x)",
		    dscp, tos, tos, tos0, tos0);
	else
		snprintf(reason, sizeof(reason),
			 "DSCP %d << 2 = %d (0x%02x), no ECN bits since ecn is off; with ECN it "
			 "would be %d (0x%02x)",
			 dscp, tos, tos, tos0 | QG_ECT0, tos0 | QG_ECT0);
	explain_row(rows, "derived.roce_tos", cJSON_CreateNumber(tos), "derived", reason);
	if (q->trust == QG_TRUST_DSCP) {
		/* The classes' entries of the DSCP map; every other DSCP keeps DSCP/8. */
		char map[256] = "";
		size_t o = 0;
		for (int d = 0; d < 64 && o < sizeof(map); d++) {
			bool in_class = false;
			for (int i = 0; i < q->lossless.n_dscp; i++)
				in_class |= q->lossless.dscp[i] == d;
			in_class |= q->cnp && q->cnpc.n_dscp && q->cnpc.dscp[0] == d;
			if (in_class)
				o += (size_t)snprintf(map + o, sizeof(map) - o, "%s%d:%d",
						      o ? " " : "", d, q->dscp_prio[d]);
		}
		explain_row_str(
		    rows, "derived.dscp_map", map, "derived",
		    "DSCP:switch-priority of the classes' DSCPs; every other DSCP keeps DSCP/8 (a "
		    "target that cannot program a map refuses others)");
		if (q->dscp_exact) {
			snprintf(reason, sizeof(reason),
				 "every switch of the fabric programs its whole DSCP map: the "
				 "rest of a class's DSCP/8 block goes to priority %d, the lowest "
				 "no class holds, so only the intent's DSCPs are lossless on "
				 "the switches (the hosts keep DSCP/8)",
				 qg_lossy_priority(q));
			explain_row(rows, "derived.dscp_lossy_priority",
				    cJSON_CreateNumber(qg_lossy_priority(q)), "derived", reason);
		} else {
			explain_row_str(
			    rows, "derived.dscp_lossy_priority", "none", "derived",
			    "a switch of the fabric programs no DSCP map (it classifies by "
			    "DSCP/8), so every switch keeps the rest of a class's DSCP/8 "
			    "block in that class: a DSCP lossless on one hop and lossy on "
			    "the next would fill the lossless priority group with traffic "
			    "its sender never pauses");
		}
	}
	/*
	 * Where the DSCPs of no class egress: one rule on every switch OS
	 * (issue 34), shown with the classes at the intent's traffic classes
	 * (a target whose OS reserves one says so in its own rows).
	 */
	int ptc[8];
	qg_priority_tcs(q, q->lossless.traffic_class, q->cnp ? q->cnpc.traffic_class : -1, ptc);
	size_t o = 0;
	for (int p = 0; p < 8; p++)
		o += (size_t)snprintf(v + o, sizeof(v) - o, "%s%d:%d", p ? " " : "", p, ptc[p]);
	explain_row_str(
	    rows, "derived.priority_tc", v, "derived",
	    "switch-priority:traffic class on every switch OS: the classes' at their "
	    "traffic_class, every other p at p, Onyx's default map, which the onyx target "
	    "keeps (onyx.switch_priority_to_tc), so a DSCP of no class stays in its DSCP/8 "
	    "class on every hop (where a class holds p, the lowest TC neither a class nor "
	    "another priority holds: each a queue of its own); those classes share what the "
	    "classes' ETS weights leave, evenly");
	qg_pfc_vector(q->lossless.priority, v);
	snprintf(reason, sizeof(reason), "PFC on priority %d only, one digit per priority 0..7",
		 q->lossless.priority);
	explain_row_str(rows, "derived.pfc_vector", v, "derived", reason);
	snprintf(v, sizeof(v), "0x%02x", qg_pfc_bitmap(q->lossless.priority));
	snprintf(reason, sizeof(reason), "1 << %d: the PFC enable bitmap (802.1Qbb pfc_enable)",
		 q->lossless.priority);
	explain_row_str(rows, "derived.pfc_bitmap", v, "derived", reason);
	int pmtu = qg_roce_path_mtu(q->mtu);
	snprintf(reason, sizeof(reason),
		 "largest IB MTU <= mtu %d - %d (RoCEv2: GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH "
		 "28, ICRC 4; the kernel's iboe_get_mtu)",
		 q->mtu, QG_ROCE_MTU_OVERHEAD);
	explain_row(rows, "derived.roce_path_mtu", cJSON_CreateNumber(pmtu), "derived", reason);
}

/*
 * A NIC's function and qos_tool rows under prefix ("hosts.NAME" for the
 * one-NIC shorthand's, "hosts.NAME.nics[K]" for one of several, whose
 * reasons name its netdev: K alone says little to people).
 */
static void nic_rows(cJSON *rows, const struct qg_host *h, const char *prefix,
		     const struct qg_nic *nic, bool named)
{
	char key[192], why[160];
	const char *role = nic->function == QG_FN_PF ? "sets trust and PFC"
						     : "trust and PFC belong to the hypervisor";
	snprintf(key, sizeof(key), "%s.function", prefix);
	if (named)
		snprintf(why, sizeof(why), "%s: %s", nic->netdev, role);
	explain_of(explain_row_str(rows, key, nic->function == QG_FN_PF ? "pf" : "vf",
				   nic->function_given ? "given" : "default", named ? why : role),
		   h->name);
	if (nic->function == QG_FN_PF) {
		snprintf(key, sizeof(key), "%s.qos_tool", prefix);
		explain_of(explain_row_str(rows, key,
					   nic->qos_tool == QG_TOOL_MLNX_QOS ? "mlnx_qos" : "dcb",
					   nic->qos_tool_given ? "given" : "default",
					   named ? nic->netdev : NULL),
			   h->name);
	}
}

/*
 * A host of several NICs (issue 28): each NIC's netdev, RDMA device,
 * function and qos_tool, "hosts.NAME.nics[K].netdev", K its index in the
 * host's nics as the settings keys have it.
 */
static void nics_rows(cJSON *rows, const struct qg_host *h)
{
	char prefix[160], key[192], why[160];
	for (size_t k = 0; k < h->n_nics; k++) {
		const struct qg_nic *nic = &h->nics[k];
		snprintf(prefix, sizeof(prefix), "hosts.%s.nics[%zu]", h->name, k);
		snprintf(key, sizeof(key), "%s.netdev", prefix);
		explain_of(
		    explain_row_str(rows, key, nic->netdev, "given", "the NIC's network interface"),
		    h->name);
		snprintf(key, sizeof(key), "%s.rdma_device", prefix);
		snprintf(why, sizeof(why), "%s's RDMA device", nic->netdev);
		explain_of(explain_row_str(rows, key, nic->rdma_device, "given", why), h->name);
		nic_rows(rows, h, prefix, nic, true);
	}
}

/* The keys a host target's rows add that explain shows, with what each means. */
static void host_target_rows(cJSON *rows, const struct qg_host *h)
{
	char key[160];
	if (!qg_target_takes(h->target, "function") || !h->n_nics)
		return;
	if (h->n_nics > 1) {
		nics_rows(rows, h);
	} else {
		snprintf(key, sizeof(key), "hosts.%s", h->name);
		nic_rows(rows, h, key, &h->nics[0], false);
	}
	if (qg_target_takes(h->target, "persist")) {
		snprintf(key, sizeof(key), "hosts.%s.persist", h->name);
		explain_of(explain_row_str(rows, key, h->persist ? "true" : "false",
					   h->persist_given ? "given" : "default",
					   h->persist
					       ? "installed: re-applied when the NIC appears"
					       : "runtime only: lost on a reboot or NIC reset"),
			   h->name);
	}
}

/* A host's NIC of rail k, "netdev/rdma_device", or "its one uplink" for a host without NICs. */
static void rail_nic(const struct qg_host *h, size_t k, char *out, size_t len)
{
	if (k < h->n_nics)
		snprintf(out, len, "%s/%s", h->nics[k].netdev, h->nics[k].rdma_device);
	else
		snprintf(out, len, "its RDMA device");
}

/*
 * verify's pairs (issue 37): each pair's floor and its rails, the default
 * (rail 0 alone) made visible, as plan.json's intent has them.
 */
static void pair_rows(cJSON *rows, const struct qg_model *m)
{
	for (size_t i = 0; i < m->verify.n_pairs; i++) {
		const struct qg_pair *p = &m->verify.pairs[i];
		const struct qg_host *c = &m->hosts[p->client], *s = &m->hosts[p->server];
		char key[2 * QG_NAME_LEN + 40], v[256], reason[400], cn[2 * QG_NAME_LEN + 2],
		    sn[2 * QG_NAME_LEN + 2];
		snprintf(key, sizeof(key), "verify.pairs[%s,%s].min_gbps", c->name, s->name);
		explain_row(
		    rows, key, cJSON_CreateNumber((double)p->min_gbps_centi / 100), "given",
		    "Gb/s of RDMA WRITE the client must reach to the server on each rail, or "
		    "verify fails");
		snprintf(key, sizeof(key), "verify.pairs[%s,%s].rails", c->name, s->name);
		rail_nic(c, 0, cn, sizeof(cn));
		rail_nic(s, 0, sn, sizeof(sn));
		if (!p->rails_given) {
			snprintf(reason, sizeof(reason),
				 "not given: rail 0 alone, %s's %s to %s's %s; `rails: all` or a "
				 "list verifies the others (rail K: each host's nics[K])",
				 c->name, cn, s->name, sn);
			explain_row_str(rows, key, "0", "default", reason);
			continue;
		}
		size_t used = 0;
		v[0] = '\0';
		for (size_t k = 0; k < p->n_rails && used < sizeof(v); k++)
			used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%zu", k ? "," : "",
						 p->rails[k]);
		snprintf(reason, sizeof(reason),
			 "%srail K is %s's and %s's nics[K] (rail 0: %s to %s), each rail run "
			 "on its own, one after another",
			 p->rails_all ? "all: every rail both hosts have; " : "", c->name, s->name,
			 cn, sn);
		explain_row_str(rows, key, v, "given", reason);
	}
}

/* Warnings kept on purpose: not printed, so said here, with the intent's reason. */
static void ack_rows(cJSON *rows, const struct qg_model *m)
{
	char key[160], reason[320];
	for (size_t i = 0; i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		const struct qg_warning_info *w = qg_warning_set_info(&m->warnings, a->warning);
		snprintf(key, sizeof(key), "acknowledge.%s", w->name);
		if (a->because[0])
			snprintf(reason, sizeof(reason), "%s (%s)", a->because, w->meaning);
		else
			snprintf(reason, sizeof(reason), "%s; no reason given (because:)",
				 w->meaning);
		explain_row_str(rows, key, "acknowledged", "given", reason);
	}
}

/* What each device will be set to, in the targets' own vocabulary. */
static void settings_rows(cJSON *rows, const struct qg_model *m)
{
	char key[160], reason[320];
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		for (size_t i = 0; i < qg_device_count(m, kind); i++) {
			const struct qg_target *tg = qg_target_for(m, kind, i);
			struct qg_settings set = {0};
			if (!tg || tg->settings(m, i, &set) != 0) {
				qg_settings_free(&set);
				continue;
			}
			snprintf(reason, sizeof(reason), "target %s", tg->name);
			for (size_t k = 0; k < set.n; k++) {
				snprintf(key, sizeof(key), "device.%s.%s",
					 qg_device_name(m, kind, i), set.v[k].key);
				explain_of(explain_row(rows, key, qg_setting_json(set.v[k].value),
						       "target", reason),
					   qg_device_name(m, kind, i));
			}
			qg_settings_free(&set);
		}
	}
}

cJSON *qg_explain_json(const struct qg_model *m)
{
	char hash[QG_SHA256_HEX], key[160], reason[96];
	qg_model_hash(m, hash);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "fabric", m->fabric);
	cJSON_AddStringToObject(root, "intent_sha256", hash);
	cJSON *rows = cJSON_AddArrayToObject(root, "rows");

	policy_rows(rows, m, false);
	derived_rows(rows, m);
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		explain_device_rows(rows, m, "switches[]", i);
		explain_role_rows(rows, m, i);
		/* A count: device.NAME.ports is the port list, as the target writes it. */
		snprintf(key, sizeof(key), "switches.%s.port_count", s->name);
		snprintf(reason, sizeof(reason), "%zu ports", s->n_ports);
		explain_of(explain_row(rows, key, cJSON_CreateNumber((double)s->n_ports), "derived",
				       reason),
			   s->name);
		explain_headroom_rows(rows, m, i);
	}
	for (size_t i = 0; i < m->n_hosts; i++) {
		explain_device_rows(rows, m, "hosts[]", i);
		host_target_rows(rows, &m->hosts[i]);
	}
	for (size_t i = 0; i < m->n_dvs; i++)
		explain_device_rows(rows, m, "dvs[]", i);
	policy_rows(rows, m, true);
	pair_rows(rows, m);
	ack_rows(rows, m);

	/* How each target in use turns the policy into its own terms. */
	struct qg_explain_rows x = {rows, m};
	for (size_t t = 0; m->targets && m->targets[t]; t++)
		if (m->targets[t]->explain && qg_target_used(m, m->targets[t]))
			m->targets[t]->explain(m, &x);

	settings_rows(rows, m);
	cJSON_AddItemToObject(root, "groups", groups_json(m));
	return root;
}

/*
 * Whether a row no device owns decides how a switch of target behaves
 * (issue 37): the policy and what is derived from it (which DSCPs are
 * lossless, the priorities, ETS, the switch MTU, PFC), and the target's own
 * fabric-wide rows ("TARGET.*"); not what only hosts take.
 */
static bool switch_fabric_row(const char *key, const char *target)
{
	static const char *const hosts_only[] = {"qos.mtu", "derived.host_dscp", "derived.roce_tos",
						 "derived.roce_path_mtu"};
	for (size_t i = 0; i < sizeof(hosts_only) / sizeof(hosts_only[0]); i++)
		if (!strcmp(key, hosts_only[i]))
			return false;
	if (!strncmp(key, "qos.", 4) || !strncmp(key, "derived.", 8))
		return true;
	size_t n = strlen(target);
	return !strncmp(key, target, n) && key[n] == '.';
}

int qg_explain_only(cJSON *explain, const char *device, const char *target)
{
	cJSON *rows = cJSON_GetObjectItemCaseSensitive(explain, "rows");
	cJSON *r = rows ? rows->child : NULL;
	int kept = 0;
	while (r) {
		cJSON *next = r->next;
		const char *dev =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "device"));
		const char *key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "key"));
		if (dev ? !strcmp(dev, device) : target && key && switch_fabric_row(key, target))
			kept++;
		else
			cJSON_Delete(cJSON_DetachItemViaPointer(rows, r));
		r = next;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(explain, "groups");
	return kept;
}
