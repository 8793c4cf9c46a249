/* SPDX-License-Identifier: MIT */
#include "config_db.h"

#include "../../model/derive.h"
#include "../../lib/jsonsort.h"
#include "../../lib/strmap.h"
#include "sonic_ports.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sonic_port_mtu(const struct qg_qos *q)
{
	/*
	 * The fabric's one switch MTU (intent/intent.c settles it within every
	 * switch target's maximum), not SONiC's own 9100 of port_config.ini:
	 * an Onyx or Cumulus switch of the same fabric gets the same.
	 */
	return q->switch_mtu;
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void sonic_shares(const struct qg_qos *q, struct sonic_shares *s)
{
	const struct qg_ets *l = &q->lossless.ets, *c = q->cnp ? &q->cnpc.ets : NULL;
	int given = 0;
	*s = (struct sonic_shares){.n_rest = SONIC_QUEUES - 1 - (q->cnp ? 1 : 0)};
	if (l->mode == QG_ETS_WRR)
		given += l->weight;
	else if (l->mode == QG_ETS_UNSET)
		s->n_rest++;
	if (c && c->mode == QG_ETS_WRR)
		given += c->weight;
	else if (c && c->mode == QG_ETS_UNSET)
		s->n_rest++;
	/*
	 * W % of the DWRR bandwidth against n rest queues sharing R = 100 - W:
	 * W*n : R each, which is W*n / (W*n + R*n) = W / 100 exactly; then
	 * divided by their greatest common divisor, the smallest such weights.
	 */
	long rest = 100 - given;
	long wl = l->mode == QG_ETS_WRR ? (long)l->weight * s->n_rest : 0;
	long wc = c && c->mode == QG_ETS_WRR ? (long)c->weight * s->n_rest : 0;
	if (rest <= 0) {
		s->need_class = wl;
		s->need_rest = rest;
		return;
	}
	long g = gcd(gcd(wl, wc), rest);
	wl /= g;
	wc /= g;
	rest /= g;
	s->need_class = wl;
	s->need_rest = rest;
	s->ok = wl <= SONIC_WEIGHT_MAX && wc <= SONIC_WEIGHT_MAX && rest <= SONIC_WEIGHT_MAX;
	s->lossless = (int)wl;
	s->cnp = (int)wc;
	s->rest = (int)rest;
}

const char *sonic_queue_scheduler(const struct qg_qos *q, int queue)
{
	if (queue == q->lossless.traffic_class && q->lossless.ets.mode != QG_ETS_UNSET)
		return SONIC_SCHED_LOSSLESS;
	if (q->cnp && queue == q->cnpc.traffic_class && q->cnpc.ets.mode != QG_ETS_UNSET)
		return SONIC_SCHED_CNP;
	return SONIC_SCHED_LOSSY;
}

void sonic_dscp_tc(const struct qg_qos *q, int tc[64])
{
	/*
	 * The exact map (model/derive.h): only the intent's DSCPs reach a class;
	 * the rest of a class's DSCP/8 block goes to a lossy priority, then to
	 * that priority's TC. SONiC programs the whole DSCP_TO_TC_MAP
	 * (qos_config.j2 writes all 64; qosorch.cpp sets every entry).
	 */
	int ptc[8];
	uint8_t exact[64];
	sonic_priority_tc(q, ptc);
	qg_dscp_map_exact(q, exact);
	for (int d = 0; d < 64; d++)
		tc[d] = ptc[exact[d]];
}

void sonic_priority_tc(const struct qg_qos *q, int tc[8])
{
	/* The one rule of every switch OS (model/derive.h), the classes at their traffic_class. */
	qg_priority_tcs(q, q->lossless.traffic_class, q->cnp ? q->cnpc.traffic_class : -1, tc);
}

/* ---- building the tree ---- */

/*
 * The tree being built, and an index of its wide objects: the root, each
 * table and CABLE_LENGTH's row have one member per port or port|index, and
 * cJSON's lookups walk an object's members, which made a switch's build
 * quadratic in its ports (bench/sonic_ports.sh). A row's few fields are
 * looked up in cJSON. The keys indexed are the members' own, which live as
 * long as the tree: the index goes before qg_json_sort() renames them.
 */
#define DB_WIDE 24 /* the root, SONiC's 14 tables, CABLE_LENGTH|AZURE, and room */
struct db {
	cJSON *root;
	struct {
		const cJSON *o;
		struct qg_strmap keys;
	} wide[DB_WIDE];
	size_t n_wide;
	bool oom;
};

static struct qg_strmap *keys_of(struct db *db, const cJSON *o)
{
	for (size_t i = 0; i < db->n_wide; i++)
		if (db->wide[i].o == o)
			return &db->wide[i].keys;
	return NULL;
}

/* Look the members of o, a new empty object, up by key from now on. */
static void wide(struct db *db, const cJSON *o)
{
	if (o && db->n_wide < DB_WIDE)
		db->wide[db->n_wide++].o = o;
	else if (o)
		db->oom = true; /* never: DB_WIDE counts them; a build short of it fails */
}

static cJSON *get(struct db *db, cJSON *o, const char *key)
{
	struct qg_strmap *k = keys_of(db, o);
	return k ? qg_strmap_get(k, key) : cJSON_GetObjectItemCaseSensitive(o, key);
}

/* c, just added to o (NULL: out of memory), in o's index. */
static cJSON *added(struct db *db, cJSON *o, cJSON *c)
{
	struct qg_strmap *k = keys_of(db, o);
	if (!c || (k && qg_strmap_put(k, c->string, c, NULL) < 0)) {
		db->oom = true;
		return NULL;
	}
	return c;
}

static void db_free(struct db *db)
{
	for (size_t i = 0; i < db->n_wide; i++)
		qg_strmap_free(&db->wide[i].keys);
	db->n_wide = 0;
}

/* The object child `key` of o, made if missing; NULL out of memory. */
static cJSON *child(struct db *db, cJSON *o, const char *key)
{
	if (!o)
		return NULL;
	cJSON *c = get(db, o, key);
	if (c)
		return c;
	c = added(db, o, cJSON_AddObjectToObject(o, key));
	if (o == db->root)
		wide(db, c);
	return c;
}

/* A table's row by its name: child(child(root, table), name). */
static cJSON *row_of(struct db *db, const char *table, const char *name)
{
	return child(db, child(db, db->root, table), name);
}

/* config_db values are strings, numbers too ("mtu": "9100"). */
static void str(struct db *db, cJSON *o, const char *key, const char *v)
{
	if (o && !get(db, o, key))
		added(db, o, cJSON_AddStringToObject(o, key, v));
}

/* The field or row `key` of o absent (a JSON null, config_db.h), unless o has it. */
static void absent(struct db *db, cJSON *o, const char *key)
{
	if (o && !get(db, o, key))
		added(db, o, cJSON_AddNullToObject(o, key));
}

static void num(struct db *db, cJSON *o, const char *key, long v)
{
	char s[24];
	snprintf(s, sizeof(s), "%ld", v);
	str(db, o, key, s);
}

/* A map entry "26": "3". */
static void entry(struct db *db, cJSON *map, long key, long v)
{
	char k[24];
	snprintf(k, sizeof(k), "%ld", key);
	num(db, map, k, v);
}

/* A per-port row, keyed "<port>" or "<port>|<index>". */
static cJSON *port_row(struct db *db, cJSON *table, const char *port, int index)
{
	char k[QG_PORT_TEXT_LEN + 8];
	if (index < 0)
		snprintf(k, sizeof(k), "%s", port);
	else
		snprintf(k, sizeof(k), "%s|%d", port, index);
	return child(db, table, k);
}

static void scheduler(struct db *db, const char *name, const struct qg_ets *e, int weight)
{
	cJSON *s = row_of(db, "SCHEDULER", name);
	if (e && e->mode == QG_ETS_STRICT) {
		str(db, s, "type", "STRICT");
	} else {
		str(db, s, "type", "DWRR");
		num(db, s, "weight", weight);
	}
}

/* Every scheduler a queue of the intent's ports names (sonic_shares()). */
static void schedulers(struct db *db, const struct qg_qos *q)
{
	struct sonic_shares sh;
	sonic_shares(q, &sh);
	if (q->lossless.ets.mode != QG_ETS_UNSET)
		scheduler(db, SONIC_SCHED_LOSSLESS, &q->lossless.ets, sh.lossless);
	if (q->cnp && q->cnpc.ets.mode != QG_ETS_UNSET)
		scheduler(db, SONIC_SCHED_CNP, &q->cnpc.ets, sh.cnp);
	scheduler(db, SONIC_SCHED_LOSSY, NULL, sh.rest);
}

/* The maps every port points at; one set per switch, named SONIC_MAP. */
static void maps(struct db *db, const struct qg_qos *q)
{
	int tc[8], dtc[64];
	sonic_priority_tc(q, tc);
	sonic_dscp_tc(q, dtc);
	cJSON *dscp = row_of(db, "DSCP_TO_TC_MAP", SONIC_MAP);
	for (int d = 0; d < 64; d++)
		entry(db, dscp, d, dtc[d]);
	cJSON *queue = row_of(db, "TC_TO_QUEUE_MAP", SONIC_MAP);
	cJSON *pg = row_of(db, "TC_TO_PRIORITY_GROUP_MAP", SONIC_MAP);
	cJSON *pfcq = row_of(db, "MAP_PFC_PRIORITY_TO_QUEUE", SONIC_MAP);
	for (int t = 0; t < 8; t++) {
		/* One queue per traffic class, the same number: the intent's TC is the queue. */
		entry(db, queue, t, t);
		entry(db, pg, t,
		      t == q->lossless.traffic_class ? q->lossless.priority : SONIC_LOSSY_PG);
		/* A PFC frame for priority p pauses the queue p's traffic goes to. */
		entry(db, pfcq, t, tc[t]);
	}
	entry(db, row_of(db, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONIC_MAP), q->lossless.priority,
	      q->lossless.priority);
}

/* A WRED profile: the policy's (SONIC_WRED) or a role's, with its thresholds in kB. */
static void wred(struct db *db, const char *name, int min_kb, int max_kb)
{
	cJSON *w = row_of(db, "WRED_PROFILE", name);
	str(db, w, "ecn", "ecn_all");
	/*
	 * Every colour alike: RoCE traffic is green (nothing polices it), and a
	 * packet coloured otherwise is still marked.
	 * ECN marking only, WRED drop off (wred_<colour>_enable false). The
	 * queue is lossless: PFC, not early drop, keeps it from overflowing.
	 * SAI programs the two separately (Mellanox/SAI-Implementation
	 * mlnx_sai/src/mlnx_sai_wred.c keeps wred_enabled and ecn_enabled apart
	 * and binds the colour's profile for marking alone when WRED is off;
	 * sonic-swss orchagent/qosorch.cpp hands wred_<colour>_enable and ecn
	 * to SAI as separate attributes). With drop on, a non-ECT packet of the
	 * lossless queue (a host without ECN) would be dropped between min and
	 * max and always above max at probability 100; SONiC's own
	 * AZURE_LOSSLESS (files/build_templates/qos_config.j2) keeps drop on
	 * and so must lower the probability to 5, which also marks only 5 % of
	 * ECT packets at max. Marking alone lets the probability be the RoCE
	 * one, 100 (DCQCN wants every packet above max marked), as NVIDIA's
	 * Cumulus default and the cumulus target.
	 */
	static const char *const colours[] = {"green", "yellow", "red"};
	for (int c = 0; c < 3; c++) {
		char k[32];
		snprintf(k, sizeof(k), "wred_%s_enable", colours[c]);
		str(db, w, k, "false");
		snprintf(k, sizeof(k), "%s_min_threshold", colours[c]);
		num(db, w, k, qg_ecn_bytes(min_kb));
		snprintf(k, sizeof(k), "%s_max_threshold", colours[c]);
		num(db, w, k, qg_ecn_bytes(max_kb));
		snprintf(k, sizeof(k), "%s_drop_probability", colours[c]);
		num(db, w, k, SONIC_ECN_PROBABILITY);
	}
}

bool sonic_role_wred(const struct qg_switch *s, size_t r, char out[SONIC_WRED_NAME_MAX + 1])
{
	const struct qg_port_role *role = &s->roles[r];
	if (!role->ecn_given)
		return false;
	int n = snprintf(out, SONIC_WRED_NAME_MAX + 1, SONIC_WRED_ROLE_PREFIX "%s", role->name);
	if (n < 0 || n > SONIC_WRED_NAME_MAX)
		return false;
	/* sonic-wred-profile.yang: [a-zA-Z0-9][-a-zA-Z0-9_]{0,31}; the prefix starts it. */
	for (const char *c = role->name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return false;
	return true;
}

const char *sonic_port_wred(const struct qg_model *m, const struct qg_switch *s, size_t k,
			    char name[SONIC_WRED_NAME_MAX + 1])
{
	if (!m->qos.ecn)
		return NULL;
	if (s->port_role && s->port_role[k] && sonic_role_wred(s, s->port_role[k] - 1u, name))
		return name;
	return SONIC_WRED;
}

/* wred: the lossless queue's WRED profile (sonic_port_wred()), NULL for none. */
static void port_rows(struct db *db, const struct qg_qos *q, const char *port, const char *wred)
{
	const struct qg_class *l = &q->lossless;
	cJSON *qm = port_row(db, child(db, db->root, "PORT_QOS_MAP"), port, -1);
	static const char *const fields[] = {"dscp_to_tc_map", "tc_to_queue_map", "tc_to_pg_map",
					     "pfc_to_queue_map", "pfc_to_pg_map"};
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		str(db, qm, fields[k], SONIC_MAP);
	num(db, qm, "pfc_enable", l->priority);

	/*
	 * Every queue of the port: its scheduler; ECN on the lossless queue
	 * alone (a null wred_profile: removed from every other queue, as
	 * SONiC's templates put AZURE_LOSSLESS on the lossless queues only);
	 * its egress buffer profile, lossless for the lossless queue and
	 * q_lossy_profile for every other (buffers_defaults_objects.j2 and
	 * buffers_config.j2: the template's default for a queue that is not
	 * lossless). The CNP queue is a lossy one with its own scheduler.
	 */
	cJSON *queues = child(db, db->root, "QUEUE"), *bq = child(db, db->root, "BUFFER_QUEUE");
	for (int t = 0; t < SONIC_QUEUES; t++) {
		cJSON *row = port_row(db, queues, port, t);
		str(db, row, "scheduler", sonic_queue_scheduler(q, t));
		if (wred && t == l->traffic_class)
			str(db, row, "wred_profile", wred);
		else
			absent(db, row, "wred_profile");
		str(db, port_row(db, bq, port, t), "profile",
		    t == l->traffic_class ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY);
	}

	/*
	 * "NULL": the dynamic buffer model computes the headroom (SONiC's buffer
	 * design). Every other PG but 0 (the lossy PG, the switch's) has no
	 * headroom: its row is absent, as the templates leave PGs 1, 2, 5..7, so
	 * that the switch's default lossless PG 4 (BUFFER_PG "3-4") keeps none
	 * when the intent makes only 3 lossless.
	 */
	cJSON *pgs = child(db, db->root, "BUFFER_PG");
	for (int g = SONIC_LOSSY_PG + 1; g < 8; g++) {
		if (g == l->priority)
			str(db, port_row(db, pgs, port, g), "profile", "NULL");
		else {
			char k[QG_PORT_TEXT_LEN + 8];
			snprintf(k, sizeof(k), "%s|%d", port, g);
			absent(db, pgs, k);
		}
	}
	num(db, port_row(db, child(db, db->root, "PORT"), port, -1), "mtu", sonic_port_mtu(q));
}

/*
 * The PFC watchdog of one port, as `pfcwd start --action drop PORT DETECTION
 * --restoration-time RESTORATION` writes it (sonic-utilities pfcwd/main.py),
 * and pfcwd_sw_enable on the lossless priority, as pfc_enable; off: both
 * absent (JSON null, config_db.h).
 */
static void watchdog_rows(struct db *db, const struct qg_qos *q, const char *port)
{
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	cJSON *qm = port_row(db, child(db, db->root, "PORT_QOS_MAP"), port, -1);
	/*
	 * pfcwd_sw_enable is the priorities the watchdog watches: those with
	 * PFC, as qos_config.j2 writes it beside pfc_enable, so it never names
	 * a priority the intent no longer makes lossless; with the watchdog
	 * unmanaged, only that field is qosgen's.
	 */
	if (wd->state == QG_PFCWD_UNMANAGED) {
		num(db, qm, "pfcwd_sw_enable", q->lossless.priority);
		return;
	}
	cJSON *table = child(db, db->root, "PFC_WD");
	if (wd->state == QG_PFCWD_OFF) {
		absent(db, qm, "pfcwd_sw_enable");
		absent(db, table, port);
		return;
	}
	num(db, qm, "pfcwd_sw_enable", q->lossless.priority);
	cJSON *row = port_row(db, table, port, -1);
	str(db, row, "action", SONIC_PFCWD_ACTION);
	num(db, row, "detection_time", wd->detection_ms);
	num(db, row, "restoration_time", wd->restoration_ms);
}

cJSON *sonic_config_from_model(const struct qg_model *m, size_t i)
{
	const struct qg_qos *q = &m->qos;
	const struct qg_switch *s = &m->switches[i];
	struct db db_ = {.root = cJSON_CreateObject()}, *db = &db_;
	cJSON *root = db->root, *cable = NULL;
	wide(db, root);
	maps(db, q);
	if (q->ecn)
		wred(db, SONIC_WRED, q->ecn_min_kb, q->ecn_max_kb);
	/* A role with thresholds of its own: its profile (config_db.h). */
	for (size_t r = 0; q->ecn && r < s->n_roles; r++) {
		char name[SONIC_WRED_NAME_MAX + 1];
		if (sonic_role_wred(s, r, name))
			wred(db, name, s->roles[r].ecn_min_kb, s->roles[r].ecn_max_kb);
	}
	schedulers(db, q);
	for (size_t k = 0; k < s->n_ports; k++) {
		char name[QG_PORT_TEXT_LEN], len[24], wname[SONIC_WRED_NAME_MAX + 1];
		sonic_port_format(&s->ports[k], name);
		port_rows(db, q, name, sonic_port_wred(m, s, k, wname));
		/* sonic-cable-length: "[0-9]+m". */
		snprintf(len, sizeof(len), "%dm", s->cable_m ? s->cable_m[k] : 0);
		if (s->cable_m && s->cable_m[k]) {
			/* Made with the first length, a row of one field per port. */
			if (!cable)
				wide(db, cable = row_of(db, "CABLE_LENGTH", SONIC_CABLE_ROW));
			str(db, cable, name, len);
		}
		watchdog_rows(db, q, name);
	}
	/* The poll interval is the switch's, one for every port (PFC_WD|GLOBAL). */
	if (q->pfcwd.state == QG_PFCWD_ON && s->n_ports)
		num(db, row_of(db, "PFC_WD", SONIC_PFCWD_GLOBAL), "POLL_INTERVAL",
		    q->pfcwd.poll_ms);
	/* A failed allocation anywhere leaves a row short: count what must be there. */
	cJSON *port = root ? get(db, root, "PORT") : NULL;
	bool whole =
	    root && !db->oom && (s->n_ports == 0 || (size_t)cJSON_GetArraySize(port) == s->n_ports);
	const cJSON *dscp = root ? get(db, get(db, root, "DSCP_TO_TC_MAP"), SONIC_MAP) : NULL;
	/* The index's keys are the members' own, which qg_json_sort() replaces. */
	db_free(db);
	if (!whole || cJSON_GetArraySize(dscp) != 64 || !qg_json_sort(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
