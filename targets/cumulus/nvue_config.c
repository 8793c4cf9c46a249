/* SPDX-License-Identifier: MIT */
#include "nvue_config.h"

#include "../../gen/ports.h"
#include "../../gen/yamlast.h"
#include "cumulus_ports.h"

#include <ctype.h>
#include <errno.h>
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

/* Natural order: runs of digits by their value ("swp2" before "swp10", "3" before "26"). */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long va = strtoul(a, &ea, 10), vb = strtoul(b, &eb, 10);
			if (va != vb)
				return va < vb ? -1 : 1;
			a = ea;
			b = eb;
		} else if (*a != *b) {
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		} else {
			a++;
			b++;
		}
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int key_cmp(const void *x, const void *y)
{
	return natural_cmp((*(cJSON *const *)x)->string, (*(cJSON *const *)y)->string);
}

/* Sort every object's keys, so that the same intent gives the same bytes. */
static bool sort_tree(cJSON *o)
{
	if (!cJSON_IsObject(o))
		return true;
	size_t n = (size_t)cJSON_GetArraySize(o);
	if (n == 0)
		return true;
	cJSON **v = calloc(n, sizeof(*v));
	if (!v)
		return false;
	size_t k = 0;
	while (o->child)
		v[k++] = cJSON_DetachItemViaPointer(o, o->child);
	qsort(v, k, sizeof(*v), key_cmp);
	bool ok = true;
	for (size_t i = 0; i < k; i++) {
		ok &= sort_tree(v[i]);
		/* cJSON copies the key before it frees the item's own: passing it is safe. */
		cJSON_AddItemToObject(o, v[i]->string, v[i]);
	}
	free(v);
	return ok;
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

	cJSON *ifs = child(root, "interface");
	for (size_t k = 0; k < s->n_ports; k++) {
		char name[QG_PORT_TEXT_LEN];
		cumulus_port_format(&s->ports[k], name);
		num(child(child(ifs, name), "link"), "mtu", q->switch_mtu);
	}
	if (!root || !qos || !ifs || !sort_tree(root)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* ---- reading a read-back ---- */

#define NVUE_RANGE_MAX 4096 /* members one range key may name */

/*
 * NVUE's range keys: comma-separated items, each [prefix]N[-M], an item
 * without a prefix taking the one before ("swp1,51-54", "swp1s0-3",
 * "0-3,5-7"). Writes each member's name through add; false when key is not
 * a range key (then it stands for itself).
 */
static bool expand_key(const char *key, bool (*add)(void *, const char *), void *arg, bool *oom)
{
	if (!strchr(key, ',') && !strchr(key, '-'))
		return false;
	/* First pass: the shape. Second: the members. */
	for (int pass = 0; pass < 2; pass++) {
		char prefix[64] = "";
		size_t total = 0;
		for (const char *p = key; *p;) {
			const char *end = strchr(p, ',');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			char item[80];
			if (len == 0 || len >= sizeof(item))
				return false;
			memcpy(item, p, len);
			item[len] = '\0';
			char *dash = strchr(item, '-');
			if (dash)
				*dash = '\0';
			size_t digits = strlen(item);
			while (digits > 0 && isdigit((unsigned char)item[digits - 1]))
				digits--;
			if (digits == strlen(item) || strlen(item) - digits > 5)
				return false; /* no number at the end: "default-global" */
			if (digits > 0) {
				if (digits >= sizeof(prefix))
					return false;
				memcpy(prefix, item, digits);
				prefix[digits] = '\0';
			} else if (p == key && !isdigit((unsigned char)item[0])) {
				return false;
			}
			long a = strtol(item + digits, NULL, 10), b = a;
			if (dash) {
				char *e;
				if (!isdigit((unsigned char)dash[1]))
					return false;
				b = strtol(dash + 1, &e, 10);
				if (*e || e - (dash + 1) > 5 || b < a)
					return false; /* at most 5 digits: no range runs past 99999
						       */
			}
			total += (size_t)(b - a + 1);
			if (total > NVUE_RANGE_MAX)
				return false;
			for (long x = a; pass == 1 && x <= b; x++) {
				char name[96];
				snprintf(name, sizeof(name), "%s%ld", prefix, x);
				if (!add(arg, name)) {
					*oom = true;
					return true;
				}
			}
			p += len + (end ? 1 : 0);
			if (end && !*p)
				return false;
		}
	}
	return true;
}

/* Merge src into dst, key by key (a member named twice, "swp20" and "swp20-21", is one). */
static bool merge_into(cJSON *dst, const cJSON *src)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, src)
	{
		cJSON *have = cJSON_GetObjectItemCaseSensitive(dst, c->string);
		if (have && cJSON_IsObject(have) && cJSON_IsObject(c)) {
			if (!merge_into(have, c))
				return false;
			continue;
		}
		cJSON *copy = cJSON_Duplicate(c, true);
		if (!copy)
			return false;
		if (have)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, c->string, copy);
		else
			cJSON_AddItemToObject(dst, c->string, copy);
	}
	return true;
}

struct expand {
	cJSON *dst;
	const cJSON *value;
};

static bool add_member(void *arg, const char *name)
{
	struct expand *x = arg;
	cJSON *one = cJSON_CreateObject();
	if (!one)
		return false;
	cJSON *copy = cJSON_Duplicate(x->value, true);
	if (!copy) {
		cJSON_Delete(one);
		return false;
	}
	cJSON_AddItemToObject(one, name, copy);
	bool ok = merge_into(x->dst, one);
	cJSON_Delete(one);
	return ok;
}

/* A copy of o with every range key expanded, at every depth. NULL: out of memory. */
static cJSON *expanded(const cJSON *o)
{
	if (!cJSON_IsObject(o))
		return cJSON_Duplicate(o, true);
	cJSON *out = cJSON_CreateObject();
	const cJSON *c;
	cJSON_ArrayForEach(c, o)
	{
		cJSON *v = expanded(c);
		bool oom = !v || !out;
		struct expand x = {out, v};
		cJSON *one = NULL;
		if (!oom && !expand_key(c->string, add_member, &x, &oom)) {
			one = cJSON_CreateObject();
			if (one) {
				cJSON_AddItemToObject(one, c->string, v);
				v = NULL;
				oom = !merge_into(out, one);
			} else {
				oom = true;
			}
		}
		cJSON_Delete(one);
		cJSON_Delete(v);
		if (oom) {
			cJSON_Delete(out);
			return NULL;
		}
	}
	return out;
}

/* A YAML tree as JSON: mappings as objects, lists as arrays, every scalar a string. */
static cJSON *from_yaml(const struct qg_ynode *n)
{
	if (n->kind == QG_Y_SCALAR)
		return cJSON_CreateString(n->value);
	cJSON *o = n->kind == QG_Y_MAP ? cJSON_CreateObject() : cJSON_CreateArray();
	if (!o)
		return NULL;
	if (n->kind == QG_Y_SEQ) {
		for (size_t i = 0; i < n->n_kids; i++) {
			cJSON *k = from_yaml(n->kids[i]);
			if (!k) {
				cJSON_Delete(o);
				return NULL;
			}
			cJSON_AddItemToArray(o, k);
		}
		return o;
	}
	for (size_t i = 0; i + 1 < n->n_kids; i += 2) {
		cJSON *k = n->kids[i]->kind == QG_Y_SCALAR ? from_yaml(n->kids[i + 1]) : NULL;
		if (!k) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToObject(o, n->kids[i]->value, k);
	}
	return o;
}

/* Where cJSON stopped reading, as a line and column of text. */
static struct qg_pos json_pos(const char *text, const char *at)
{
	struct qg_pos p = {1, 1};
	for (const char *c = text; at && c < at && *c; c++) {
		if (*c == '\n') {
			p.line++;
			p.col = 1;
		} else {
			p.col++;
		}
	}
	return p;
}

/* The `set` tree of a read-back document: the list's `- set:` item, or the object itself. */
static const cJSON *set_part(const cJSON *doc)
{
	if (cJSON_IsArray(doc)) {
		const cJSON *item;
		cJSON_ArrayForEach(item, doc)
		{
			const cJSON *s = cJSON_GetObjectItemCaseSensitive(item, "set");
			if (cJSON_IsObject(s))
				return s;
		}
		return NULL;
	}
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "set");
	return cJSON_IsObject(s) ? s : doc;
}

int nvue_config_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d)
{
	*out = NULL;
	size_t i = 0;
	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i == len) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back is empty; expected NVUE's configuration (JSON from the "
			 "REST API or `nv config show -o json`, or startup.yaml)");
		return -EINVAL;
	}
	if (memchr(text, '\0', len)) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back holds a NUL byte; it is not text");
		return -EINVAL;
	}
	cJSON *doc = NULL;
	if (text[i] == '{' || text[i] == '[') {
		const char *end = NULL;
		doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
		if (!doc) {
			qg_error(d, json_pos(text, end),
				 "the read-back is not valid JSON here; expected NVUE's "
				 "configuration as the REST API or `nv config show -o json` print "
				 "it");
			return -EINVAL;
		}
	} else {
		struct qg_ynode *y = qg_yaml_parse(text, len, d);
		if (!y)
			return d->oom ? -ENOMEM : -EINVAL;
		doc = from_yaml(y);
		qg_yaml_free(y);
		if (!doc)
			return -ENOMEM;
	}
	const cJSON *set = set_part(doc);
	if (!cJSON_IsObject(set) || !set->child) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back holds no NVUE configuration (no object with qos, "
			 "interface or system); is it the output of another command?");
		cJSON_Delete(doc);
		return -EINVAL;
	}
	*out = expanded(set);
	cJSON_Delete(doc);
	return *out ? 0 : -ENOMEM;
}

/* ---- judging and the patch ---- */

static const cJSON *at(const cJSON *o, const char *const *path)
{
	for (; o && *path; path++)
		o = cJSON_GetObjectItemCaseSensitive(o, *path);
	return o;
}

/* A number leaf as NVUE prints it (a number over the API, a string in YAML); def if absent. */
static long leaf_long(const cJSON *v, long def)
{
	if (cJSON_IsNumber(v))
		return (long)v->valuedouble;
	if (cJSON_IsString(v) && isdigit((unsigned char)v->valuestring[0]))
		return strtol(v->valuestring, NULL, 10);
	return def;
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

static bool is_set(const cJSON *o);

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
	if (is_set(w)) {
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
		others += leaf_long(cJSON_GetObjectItemCaseSensitive(p, "memory-percent"), 0);
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

/* Is o an NVUE set: an object whose members are all empty objects? */
static bool is_set(const cJSON *o)
{
	if (!cJSON_IsObject(o) || !o->child)
		return false;
	for (const cJSON *c = o->child; c; c = c->next)
		if (!cJSON_IsObject(c) || c->child)
			return false;
	return true;
}

/* Does a leaf of have say what want's says (9216 and "9216" alike)? */
static bool leaf_equal(const cJSON *want, const cJSON *have)
{
	if (!have)
		return false;
	if (cJSON_IsNumber(want)) {
		char *e;
		if (cJSON_IsNumber(have))
			return have->valuedouble == want->valuedouble;
		if (!cJSON_IsString(have))
			return false;
		long v = strtol(have->valuestring, &e, 10);
		return !*e && *have->valuestring && v == (long)want->valuedouble;
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
	if (is_set(want)) {
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

/* ---- text forms ---- */

struct if_entry {
	struct qg_port p;
	const cJSON *v;
};

static int entry_cmp(const void *a, const void *b)
{
	return qg_port_cmp(&((const struct if_entry *)a)->p, &((const struct if_entry *)b)->p);
}

/*
 * Interfaces as NVUE groups them: consecutive ports with equal settings
 * under one range key ("swp1-32"). Calls fn with each group's key and its
 * (first member's) subtree, in port order; keys that are not switch ports
 * stand alone.
 */
static void each_interface_group(const cJSON *ifs, void (*fn)(void *, const char *, const cJSON *),
				 void *arg)
{
	size_t n = (size_t)cJSON_GetArraySize(ifs), k = 0;
	struct if_entry *e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return;
	const cJSON *c;
	cJSON_ArrayForEach(c, ifs)
	{
		struct qg_port *v = NULL;
		size_t nv = 0;
		char err[160];
		if (cumulus_port_parse(c->string, &v, &nv, err, sizeof(err)) == 0 && nv == 1) {
			e[k++] = (struct if_entry){v[0], c};
		} else {
			fn(arg, c->string, c);
		}
		free(v);
	}
	qsort(e, k, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < k;) {
		struct qg_port_run run = {e[i].p, e[i].p};
		size_t j = i + 1;
		for (; j < k && cJSON_Compare(e[j].v, e[i].v, true); j++) {
			struct qg_port pair[2] = {run.last, e[j].p};
			struct qg_port_run r[2];
			if (qg_port_runs(pair, 2, r) != 1)
				break;
			run.last = e[j].p;
		}
		char key[QG_PORT_TEXT_LEN];
		cumulus_port_run_format(&run, key);
		fn(arg, key, e[i].v);
		i = j;
	}
	free(e);
}

/* A key as YAML needs it: quoted when YAML would read it as a number or it holds a comma. */
static void yaml_key(struct qg_buf *out, const char *k)
{
	bool quote = isdigit((unsigned char)k[0]) || strchr(k, ',') || strchr(k, ':');
	qg_buf_printf(out, quote ? "'%s':" : "%s:", k);
}

struct yaml_walk {
	struct qg_buf *out;
	int depth;
};

static void yaml_node(struct yaml_walk *w, const char *key, const cJSON *v);

static void yaml_group(void *arg, const char *key, const cJSON *v)
{
	yaml_node(arg, key, v);
}

static void yaml_node(struct yaml_walk *w, const char *key, const cJSON *v)
{
	qg_buf_printf(w->out, "%*s", 2 * w->depth, "");
	yaml_key(w->out, key);
	if (cJSON_IsNumber(v)) {
		qg_buf_printf(w->out, " %ld\n", (long)v->valuedouble);
	} else if (cJSON_IsString(v)) {
		qg_buf_printf(w->out, " %s\n", v->valuestring);
	} else if (cJSON_IsNull(v)) {
		qg_buf_puts(w->out, " null\n");
	} else if (!v->child) {
		qg_buf_puts(w->out, " {}\n");
	} else {
		qg_buf_puts(w->out, "\n");
		w->depth++;
		if (w->depth == 3 && !strcmp(key, "interface"))
			each_interface_group(v, yaml_group, w);
		else
			for (const cJSON *c = v->child; c; c = c->next)
				yaml_node(w, c->string, c);
		w->depth--;
	}
}

void nvue_emit_yaml(const cJSON *tree, struct qg_buf *out)
{
	struct yaml_walk w = {out, 2};
	qg_buf_puts(out, "- set:\n");
	for (const cJSON *c = tree->child; c; c = c->next)
		yaml_node(&w, c->string, c);
}

struct cmd_walk {
	struct qg_buf *out;
	char path[256];
};

/* A set, or a patch of one: members only, each {} (in it) or null (out of it). */
static bool set_or_set_patch(const cJSON *o)
{
	if (!cJSON_IsObject(o) || !o->child)
		return false;
	for (const cJSON *c = o->child; c; c = c->next)
		if (!cJSON_IsNull(c) && !(cJSON_IsObject(c) && !c->child))
			return false;
	return true;
}

/* The next member of set that is (in) or is not (out) null. */
static const cJSON *next_member(const cJSON *c, bool removed)
{
	while (c && cJSON_IsNull(c) != removed)
		c = c->next;
	return c;
}

/*
 * Numeric members as NVUE writes a list, "0-2,4-7": those added, or those
 * removed; false when one is not a number.
 */
static bool member_ranges(const cJSON *set, bool removed, char *out, size_t cap)
{
	long prev = -2, start = -2;
	size_t n = 0;
	out[0] = '\0';
	for (const cJSON *c = next_member(set->child, removed);;
	     c = next_member(c->next, removed)) {
		char *e = NULL;
		long v = c ? strtol(c->string, &e, 10) : -3;
		if (c && (*e || !isdigit((unsigned char)c->string[0])))
			return false;
		if (c && v == prev + 1 && start >= 0) {
			prev = v;
			continue;
		}
		if (start >= 0 && n < cap)
			n += (size_t)(start == prev
					  ? snprintf(out + n, cap - n, "%s%ld", n ? "," : "", start)
					  : snprintf(out + n, cap - n, "%s%ld-%ld", n ? "," : "",
						     start, prev));
		if (!c)
			return n < cap;
		start = prev = v;
	}
}

/*
 * A set, or a patch's removals from one: one command for all its members
 * ("nv set qos pfc default-global switch-priority 3", "... 0-2,4-7").
 */
static void set_commands(struct cmd_walk *w, const cJSON *set)
{
	for (int removed = 0; removed < 2; removed++) {
		const char *verb = removed ? "unset" : "set";
		char list[128];
		if (!next_member(set->child, removed))
			continue;
		if (member_ranges(set, removed, list, sizeof(list))) {
			qg_buf_printf(w->out, "nv %s %s %s\n", verb, w->path, list);
			continue;
		}
		for (const cJSON *c = next_member(set->child, removed); c;
		     c = next_member(c->next, removed))
			qg_buf_printf(w->out, "nv %s %s %s\n", verb, w->path, c->string);
	}
}

static void cmd_node(struct cmd_walk *w, const char *key, const cJSON *v);

static void cmd_group(void *arg, const char *key, const cJSON *v)
{
	cmd_node(arg, key, v);
}

static void cmd_node(struct cmd_walk *w, const char *key, const cJSON *v)
{
	size_t len = strlen(w->path);
	snprintf(w->path + len, sizeof(w->path) - len, "%s%s", len ? " " : "", key);
	if (cJSON_IsNumber(v))
		qg_buf_printf(w->out, "nv set %s %ld\n", w->path, (long)v->valuedouble);
	else if (cJSON_IsString(v))
		qg_buf_printf(w->out, "nv set %s %s\n", w->path, v->valuestring);
	else if (cJSON_IsNull(v))
		qg_buf_printf(w->out, "nv unset %s\n", w->path);
	else if (set_or_set_patch(v))
		set_commands(w, v);
	else if (!v->child)
		qg_buf_printf(w->out, "nv set %s\n", w->path);
	else if (len == 0 && !strcmp(key, "interface"))
		each_interface_group(v, cmd_group, w);
	else
		for (const cJSON *c = v->child; c; c = c->next)
			cmd_node(w, c->string, c);
	w->path[len] = '\0';
}

void nvue_emit_commands(const cJSON *tree, struct qg_buf *out)
{
	struct cmd_walk w = {out, ""};
	for (const cJSON *c = tree ? tree->child : NULL; c; c = c->next)
		cmd_node(&w, c->string, c);
}

struct set_walk {
	struct qg_settings *out;
	char path[256];
};

static void set_node(struct set_walk *w, const char *key, const cJSON *v);

static void set_group(void *arg, const char *key, const cJSON *v)
{
	set_node(arg, key, v);
}

static void set_node(struct set_walk *w, const char *key, const cJSON *v)
{
	size_t len = strlen(w->path);
	snprintf(w->path + len, sizeof(w->path) - len, "%s%s", len ? "." : "", key);
	if (cJSON_IsNumber(v)) {
		qg_settings_add(w->out, w->path, "%ld", (long)v->valuedouble);
	} else if (cJSON_IsString(v)) {
		qg_settings_add(w->out, w->path, "%s", v->valuestring);
	} else if (is_set(v)) {
		char members[128] = "";
		size_t used = 0;
		for (const cJSON *c = v->child; c && used < sizeof(members); c = c->next)
			used += (size_t)snprintf(members + used, sizeof(members) - used, "%s%s",
						 used ? "," : "", c->string);
		qg_settings_add(w->out, w->path, "%s", members);
	} else if (len == 0 && !strcmp(key, "interface")) {
		each_interface_group(v, set_group, w);
	} else {
		for (const cJSON *c = v->child; c; c = c->next)
			set_node(w, c->string, c);
	}
	w->path[len] = '\0';
}

void nvue_settings(const cJSON *tree, struct qg_settings *out)
{
	struct set_walk w = {out, ""};
	for (const cJSON *c = tree->child; c; c = c->next)
		set_node(&w, c->string, c);
}
