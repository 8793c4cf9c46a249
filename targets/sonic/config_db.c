/* SPDX-License-Identifier: MIT */
#include "config_db.h"

#include "../../gen/jsonsort.h"
#include "sonic_ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * kB as 1000 bytes, the cumulus target's rule: NVIDIA's RoCE defaults are
 * 150 and 1500 on Onyx (KB) and 150000 and 1500000 bytes on Cumulus Linux,
 * the same setting; WRED_PROFILE thresholds are bytes (sonic-wred-profile:
 * units bytes).
 */
long sonic_ecn_bytes(int kb)
{
	return (long)kb * SONIC_BYTES_PER_KB;
}

int sonic_port_mtu(const struct qg_qos *q)
{
	if (q->switch_mtu_given)
		return q->switch_mtu;
	/* The core's rule: a port carries the host MTU plus header, VLAN tag and FCS. */
	return q->mtu + 18 <= SONIC_JUMBO_MTU ? SONIC_JUMBO_MTU : SONIC_MTU_MAX;
}

void sonic_priority_tc(const struct qg_qos *q, int tc[8])
{
	bool used[8] = {false};
	used[q->lossless.traffic_class] = true;
	if (q->cnp)
		used[q->cnpc.traffic_class] = true;
	int spare = 0;
	while (spare < 7 && used[spare])
		spare++;
	for (int p = 0; p < 8; p++)
		tc[p] = used[p] ? spare : p;
	tc[q->lossless.priority] = q->lossless.traffic_class;
	if (q->cnp)
		tc[q->cnpc.priority] = q->cnpc.traffic_class;
}

/* ---- building the tree ---- */

/* The object child `key` of o, made if missing; NULL out of memory. */
static cJSON *child(cJSON *o, const char *key)
{
	if (!o)
		return NULL;
	cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
	return c ? c : cJSON_AddObjectToObject(o, key);
}

/* config_db values are strings, numbers too ("mtu": "9100"). */
static void str(cJSON *o, const char *key, const char *v)
{
	if (o && !cJSON_GetObjectItemCaseSensitive(o, key))
		cJSON_AddStringToObject(o, key, v);
}

static void num(cJSON *o, const char *key, long v)
{
	char s[24];
	snprintf(s, sizeof(s), "%ld", v);
	str(o, key, s);
}

/* A map entry "26": "3". */
static void entry(cJSON *map, long key, long v)
{
	char k[24];
	snprintf(k, sizeof(k), "%ld", key);
	num(map, k, v);
}

/* A per-port row, keyed "<port>" or "<port>|<index>". */
static cJSON *port_row(cJSON *table, const char *port, int index)
{
	char k[QG_PORT_TEXT_LEN + 8];
	if (index < 0)
		snprintf(k, sizeof(k), "%s", port);
	else
		snprintf(k, sizeof(k), "%s|%d", port, index);
	return child(table, k);
}

static void scheduler(cJSON *root, const char *name, const struct qg_ets *e)
{
	cJSON *s = child(child(root, "SCHEDULER"), name);
	if (e->mode == QG_ETS_STRICT) {
		str(s, "type", "STRICT");
	} else {
		str(s, "type", "DWRR");
		num(s, "weight", e->weight);
	}
}

/* The maps every port points at; one set per switch, named SONIC_MAP. */
static void maps(cJSON *root, const struct qg_qos *q)
{
	int tc[8];
	sonic_priority_tc(q, tc);
	cJSON *dscp = child(child(root, "DSCP_TO_TC_MAP"), SONIC_MAP);
	for (int d = 0; d < 64; d++)
		entry(dscp, d, tc[q->dscp_prio[d]]);
	cJSON *queue = child(child(root, "TC_TO_QUEUE_MAP"), SONIC_MAP);
	cJSON *pg = child(child(root, "TC_TO_PRIORITY_GROUP_MAP"), SONIC_MAP);
	cJSON *pfcq = child(child(root, "MAP_PFC_PRIORITY_TO_QUEUE"), SONIC_MAP);
	for (int t = 0; t < 8; t++) {
		/* One queue per traffic class, the same number: the intent's TC is the queue. */
		entry(queue, t, t);
		entry(pg, t,
		      t == q->lossless.traffic_class ? q->lossless.priority : SONIC_LOSSY_PG);
		/* A PFC frame for priority p pauses the queue p's traffic goes to. */
		entry(pfcq, t, tc[t]);
	}
	entry(child(child(root, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"), SONIC_MAP),
	      q->lossless.priority, q->lossless.priority);
}

static void wred(cJSON *root, const struct qg_qos *q)
{
	cJSON *w = child(child(root, "WRED_PROFILE"), SONIC_WRED);
	str(w, "ecn", "ecn_all");
	/*
	 * Every colour alike, as SONiC's own RoCE profiles: RoCE traffic is
	 * green (nothing polices it), and a packet coloured otherwise is still
	 * marked, never dropped early.
	 */
	static const char *const colours[] = {"green", "yellow", "red"};
	for (int c = 0; c < 3; c++) {
		char k[32];
		snprintf(k, sizeof(k), "wred_%s_enable", colours[c]);
		str(w, k, "true");
		snprintf(k, sizeof(k), "%s_min_threshold", colours[c]);
		num(w, k, sonic_ecn_bytes(q->ecn_min_kb));
		snprintf(k, sizeof(k), "%s_max_threshold", colours[c]);
		num(w, k, sonic_ecn_bytes(q->ecn_max_kb));
		snprintf(k, sizeof(k), "%s_drop_probability", colours[c]);
		num(w, k, SONIC_ECN_PROBABILITY);
	}
}

static void port_rows(cJSON *root, const struct qg_qos *q, const char *port)
{
	const struct qg_class *l = &q->lossless, *c = &q->cnpc;
	cJSON *qm = port_row(child(root, "PORT_QOS_MAP"), port, -1);
	static const char *const fields[] = {"dscp_to_tc_map", "tc_to_queue_map", "tc_to_pg_map",
					     "pfc_to_queue_map", "pfc_to_pg_map"};
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		str(qm, fields[k], SONIC_MAP);
	num(qm, "pfc_enable", l->priority);

	cJSON *queues = child(root, "QUEUE");
	if (l->ets.mode != QG_ETS_UNSET)
		str(port_row(queues, port, l->traffic_class), "scheduler", SONIC_SCHED_LOSSLESS);
	if (q->ecn)
		str(port_row(queues, port, l->traffic_class), "wred_profile", SONIC_WRED);
	if (q->cnp && c->ets.mode != QG_ETS_UNSET)
		str(port_row(queues, port, c->traffic_class), "scheduler", SONIC_SCHED_CNP);

	/* "NULL": the dynamic buffer model computes the headroom (SONiC's buffer design). */
	str(port_row(child(root, "BUFFER_PG"), port, l->priority), "profile", "NULL");
	num(port_row(child(root, "PORT"), port, -1), "mtu", sonic_port_mtu(q));
}

/*
 * The PFC watchdog of one port, as `pfcwd start --action drop PORT DETECTION
 * --restoration-time RESTORATION` writes it (sonic-utilities pfcwd/main.py),
 * and pfcwd_sw_enable on the lossless priority, as pfc_enable; off: both
 * absent (JSON null, config_db.h).
 */
static void watchdog_rows(cJSON *root, const struct qg_qos *q, const char *port)
{
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	cJSON *qm = port_row(child(root, "PORT_QOS_MAP"), port, -1);
	cJSON *table = child(root, "PFC_WD");
	if (wd->state == QG_PFCWD_OFF) {
		if (qm && !cJSON_GetObjectItemCaseSensitive(qm, "pfcwd_sw_enable"))
			cJSON_AddNullToObject(qm, "pfcwd_sw_enable");
		if (table && !cJSON_GetObjectItemCaseSensitive(table, port))
			cJSON_AddNullToObject(table, port);
		return;
	}
	num(qm, "pfcwd_sw_enable", q->lossless.priority);
	cJSON *row = port_row(table, port, -1);
	str(row, "action", SONIC_PFCWD_ACTION);
	num(row, "detection_time", wd->detection_ms);
	num(row, "restoration_time", wd->restoration_ms);
}

cJSON *sonic_config_from_model(const struct qg_model *m, size_t i)
{
	const struct qg_qos *q = &m->qos;
	const struct qg_switch *s = &m->switches[i];
	cJSON *root = cJSON_CreateObject();
	maps(root, q);
	if (q->ecn)
		wred(root, q);
	if (q->lossless.ets.mode != QG_ETS_UNSET)
		scheduler(root, SONIC_SCHED_LOSSLESS, &q->lossless.ets);
	if (q->cnp && q->cnpc.ets.mode != QG_ETS_UNSET)
		scheduler(root, SONIC_SCHED_CNP, &q->cnpc.ets);
	for (size_t k = 0; k < s->n_ports; k++) {
		char name[QG_PORT_TEXT_LEN], len[24];
		sonic_port_format(&s->ports[k], name);
		port_rows(root, q, name);
		/* sonic-cable-length: "[0-9]+m". */
		snprintf(len, sizeof(len), "%dm", s->cable_m ? s->cable_m[k] : 0);
		if (s->cable_m && s->cable_m[k])
			str(child(child(root, "CABLE_LENGTH"), SONIC_CABLE_ROW), name, len);
		if (q->pfcwd.state != QG_PFCWD_UNMANAGED)
			watchdog_rows(root, q, name);
	}
	/* The poll interval is the switch's, one for every port (PFC_WD|GLOBAL). */
	if (q->pfcwd.state == QG_PFCWD_ON && s->n_ports)
		num(child(child(root, "PFC_WD"), SONIC_PFCWD_GLOBAL), "POLL_INTERVAL",
		    q->pfcwd.poll_ms);
	/* A failed allocation anywhere leaves a row short: count what must be there. */
	cJSON *port = cJSON_GetObjectItemCaseSensitive(root, "PORT");
	bool whole = root && (s->n_ports == 0 || (size_t)cJSON_GetArraySize(port) == s->n_ports);
	if (!whole ||
	    cJSON_GetArraySize(
		cJSON_GetObjectItemCaseSensitive(child(root, "DSCP_TO_TC_MAP"), SONIC_MAP)) != 64 ||
	    !qg_json_sort(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
