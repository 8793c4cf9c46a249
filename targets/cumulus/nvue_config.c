/* SPDX-License-Identifier: MIT */
#include "nvue_config.h"

#include "../../gen/jsonsort.h"
#include "../../gen/ports.h"
#include "cumulus_ports.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * kB as 1000 bytes: NVIDIA's RoCE defaults are 150 and 1500 on Onyx (its
 * ECN thresholds are in KB) and 150000 and 1500000 bytes on Cumulus Linux,
 * the same setting; so min_kb 150 is 150000 bytes on either OS.
 */
long nvue_ecn_bytes(int kb)
{
	return (long)kb * NVUE_BYTES_PER_KB;
}

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

static void class_map(cJSON *qos, const struct qg_qos *q, const struct qg_class *c)
{
	cJSON *map = child(child(child(qos, "mapping"), NVUE_PROFILE), "dscp");
	if (q->trust == QG_TRUST_DSCP)
		for (int k = 0; k < c->n_dscp; k++)
			num(childn(map, c->dscp[k]), "switch-priority", q->dscp_prio[c->dscp[k]]);
	num(childn(
		child(child(child(qos, "egress-queue-mapping"), NVUE_PROFILE), "switch-priority"),
		c->priority),
	    "traffic-class", c->traffic_class);
	if (c->ets.mode == QG_ETS_UNSET)
		return; /* the switch keeps its own scheduling of this class */
	cJSON *tc =
	    childn(child(child(child(qos, "egress-scheduler"), NVUE_PROFILE), "traffic-class"),
		   c->traffic_class);
	if (c->ets.mode == QG_ETS_STRICT) {
		str(tc, "mode", "strict");
	} else if (c->ets.mode == QG_ETS_WRR) {
		str(tc, "mode", "dwrr");
		num(tc, "bw-percent", c->ets.weight);
	}
}

int nvue_pfcwd_robustness(const struct qg_pfc_watchdog *wd)
{
	return wd->poll_ms > 0 ? wd->detection_ms / wd->poll_ms : 0;
}

int nvue_cable_length(const struct qg_switch *s)
{
	int longest = 0;
	for (size_t k = 0; s->cable_m && k < s->n_ports; k++)
		longest = s->cable_m[k] > longest ? s->cable_m[k] : longest;
	return longest;
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
	str(child(child(qos, "mapping"), NVUE_PROFILE), "trust",
	    q->trust == QG_TRUST_DSCP ? "l3" : "l2");
	class_map(qos, q, &q->lossless);
	if (q->cnp)
		class_map(qos, q, &q->cnpc);

	cJSON *pfc = child(child(qos, "pfc"), NVUE_PROFILE);
	member(child(pfc, "switch-priority"), q->lossless.priority);
	str(pfc, "tx", "enable");
	str(pfc, "rx", "enable");
	/*
	 * NVUE sizes the PFC profile's headroom for one cable length, and qosgen
	 * writes one profile for all the switch's ports: the longest cable, so
	 * that no port has less headroom than its cable needs.
	 */
	int longest = nvue_cable_length(s);
	if (longest)
		num(pfc, "cable-length", longest);

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

	if (q->ecn) {
		cJSON *tc = childn(
		    child(child(child(qos, "congestion-control"), NVUE_PROFILE), "traffic-class"),
		    q->lossless.traffic_class);
		str(tc, "ecn", "enable");
		/* RED drops RoCE packets above min: never on the lossless class. */
		str(tc, "red", "disable");
		num(tc, "min-threshold", nvue_ecn_bytes(q->ecn_min_kb));
		num(tc, "max-threshold", nvue_ecn_bytes(q->ecn_max_kb));
		num(tc, "probability", NVUE_ECN_PROBABILITY);
	}

	/*
	 * NVUE's watchdog (Cumulus Linux 5.6): the switch's polling-interval and
	 * robustness (polls before it acts), so detection = poll x robustness;
	 * NVUE has no restoration time. The target's check() refuses a detection
	 * time that is not a multiple of the poll interval.
	 */
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		cJSON *pw = child(qos, "pfc-watchdog");
		num(pw, "polling-interval", wd->poll_ms);
		num(pw, "robustness", nvue_pfcwd_robustness(wd));
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
		if (cJSON_IsObject(c)) {
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

cJSON *nvue_config_patch(const cJSON *want, const cJSON *have, bool *oom)
{
	*oom = false;
	cJSON *w = cJSON_Duplicate(want, true);
	if (!w) {
		*oom = true;
		return NULL;
	}
	share_lossy_pool(w, have);
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
