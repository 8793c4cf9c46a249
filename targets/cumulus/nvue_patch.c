/* SPDX-License-Identifier: MIT */
/*
 * What the read-back diff and the push do with nvue_config.c's tree: judge a
 * read-back, the merge patch to the intent's tree, its inverse. Pure.
 */
#include "nvue_patch.h"
#include "nvue_config.h" /* NVUE's pool, profile and role names */
#include "nvue_dialect.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	errors += nvue_dialect_judge(want, have, d);
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

/* Does patch p unset every key the switch's object h has, and set nothing? */
static bool empties(const cJSON *p, const cJSON *h)
{
	if (!h->child)
		return false;
	for (const cJSON *k = h->child; k; k = k->next)
		if (!cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(p, k->string)))
			return false;
	for (const cJSON *k = p->child; k; k = k->next)
		if (!cJSON_IsNull(k))
			return false;
	return true;
}

/*
 * An object of qos that the patch empties is unset whole, deepest first, so
 * that no empty object stays where a factory switch has none: removing ECN
 * unsets congestion-control's default-global profile, and where that was
 * all congestion-control held, congestion-control goes too (issue 35: the
 * state a factory switch with the same intent has). A merge patch's null
 * leaves the parent, and NVUE's docs do not say whether an empty profile
 * container is the same as none.
 */
static bool unset_emptied(cJSON *patch, const cJSON *have)
{
	bool ok = true;
	for (cJSON *c = patch ? patch->child : NULL, *next; c; c = next) {
		next = c->next;
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, c->string);
		if (!cJSON_IsObject(c) || !cJSON_IsObject(h))
			continue;
		ok = unset_emptied(c, h) && ok;
		if (empties(c, h)) {
			cJSON *n = cJSON_CreateNull();
			/* (The key is copied before c goes: c->string names it.) */
			if (!n || !cJSON_ReplaceItemInObjectCaseSensitive(patch, c->string, n)) {
				cJSON_Delete(n);
				ok = false;
			}
		}
	}
	return ok;
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
	if (!*oom)
		*oom = !unset_emptied(cJSON_GetObjectItemCaseSensitive(patch, "qos"),
				      cJSON_GetObjectItemCaseSensitive(have, "qos"));
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
