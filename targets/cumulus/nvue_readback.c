/* SPDX-License-Identifier: MIT */
/*
 * NVUE read-backs into the model's tree: JSON (the REST API, `nv config
 * show -o json`) or YAML (startup.yaml, `nv config show`), their `set` part,
 * NVUE's range keys expanded. Pure.
 */
#include "nvue_readback.h"

#include "../../intent/yamlast.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Rebuilding an object: its children as entries, range keys expanded, then
 * keys named twice ("swp20" and "swp20-21") merged into one. Found by a
 * sort, not by looking each key up in the object so far: that was one scan
 * per key, and 40,000 interfaces took minutes (issue 24, finding 6). A sort
 * rather than a hash table, whose keys a read-back chooses and could make
 * collide. Each level is sorted once, top down, so the whole read-back
 * costs n log n.
 */
struct entry {
	cJSON *value; /* owned; its ->string is the key unless name is set */
	char *name;   /* a range member's name (owned), or NULL */
	size_t seq;   /* where it appeared, for the order of the rebuilt object */
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

/*
 * What expanding may copy: every range key copies its value to each member,
 * so a small read-back of ranges over large values would be a huge tree
 * (4,096 members of 300 objects: 1.2 million from 4 KB). A real switch's
 * whole configuration is some tens of thousands of objects.
 */
#define NVUE_COPIES_MAX 1000000

struct expansion {
	size_t copies;	/* objects copied so far */
	bool oom, over; /* out of memory; the copies would pass NVUE_COPIES_MAX */
	char key[80];	/* the range key that passed it, cut */
};

static const char *entry_key(const struct entry *e)
{
	return e->name ? e->name : e->value->string;
}

static bool entries_push(struct entries *es, cJSON *value, char *name)
{
	if (es->n == es->cap) {
		size_t cap = es->cap ? 2 * es->cap : 16;
		struct entry *v = realloc(es->v, cap * sizeof(*v));
		if (!v)
			return false;
		es->v = v;
		es->cap = cap;
	}
	es->v[es->n] = (struct entry){value, name, es->n};
	es->n++;
	return true;
}

static void entries_free(struct entries *es)
{
	for (size_t i = 0; i < es->n; i++) {
		cJSON_Delete(es->v[i].value);
		free(es->v[i].name);
	}
	free(es->v);
}

static size_t nodes_of(const cJSON *o)
{
	size_t n = 1;
	for (const cJSON *c = o->child; c; c = c->next)
		n += nodes_of(c);
	return n;
}

/* A range key's members, collected by expand_key() before any copy is made. */
struct names {
	char **v;
	size_t n;
};

static bool add_name(void *arg, const char *name)
{
	struct names *ns = arg;
	char *copy = strdup(name);
	if (!copy)
		return false;
	ns->v[ns->n++] = copy;
	return true;
}

/* c (owned) as entries: itself, or one per member of its range key, each with a copy. */
static bool push_child(struct entries *es, cJSON *c, struct expansion *x)
{
	char *storage[NVUE_RANGE_MAX];
	struct names ns = {storage, 0};
	bool oom = false;
	if (!c->string || !expand_key(c->string, add_name, &ns, &oom)) {
		if (entries_push(es, c, NULL))
			return true;
		cJSON_Delete(c);
		x->oom = true;
		return false;
	}
	size_t size = ns.n > 1 ? nodes_of(c) : 0, k = 0;
	x->oom |= oom;
	if (!oom && ns.n > 1 && (ns.n - 1) * size > NVUE_COPIES_MAX - x->copies) {
		x->over = true;
		snprintf(x->key, sizeof(x->key), "%s", c->string);
	}
	for (; !x->oom && !x->over && k < ns.n; k++) {
		cJSON *v = k == 0 ? c : cJSON_Duplicate(c, true);
		if (!v || !entries_push(es, v, ns.v[k])) {
			if (v != c)
				cJSON_Delete(v);
			x->oom = true;
			break;
		}
		x->copies += k ? size : 0;
	}
	if (!x->oom && !x->over)
		return true;
	if (k == 0) /* c itself was never handed to an entry */
		cJSON_Delete(c);
	for (; k < ns.n; k++)
		free(ns.v[k]);
	return false;
}

static int by_key(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
	int k = strcmp(entry_key(x), entry_key(y));
	return k ? k : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Move every child of src to the end of dst's (both objects), in order. */
static void adopt(cJSON *dst, cJSON *src)
{
	while (src->child)
		cJSON_AddItemToArray(dst, cJSON_DetachItemViaPointer(src, src->child));
}

static bool rebuild(cJSON *o, struct expansion *x);

/*
 * The entries of one object, equal keys folded as merging them one after
 * the other would: a value that is not an object replaces what came
 * before; objects after it merge, their children joined, to be merged
 * in their turn when rebuild() reaches them. The survivor of a key takes
 * the place of its first appearance. Then into o, in that order.
 */
static bool fold_into(cJSON *o, struct entries *es, struct expansion *x)
{
	struct entry **by = malloc((es->n ? es->n : 1) * sizeof(*by));
	if (!by) {
		x->oom = true;
		return false;
	}
	for (size_t i = 0; i < es->n; i++)
		by[i] = &es->v[i];
	qsort(by, es->n, sizeof(*by), by_key);
	for (size_t i = 0, j; i < es->n; i = j) {
		for (j = i + 1; j < es->n && !strcmp(entry_key(by[i]), entry_key(by[j])); j++)
			;
		/* The objects after the last value that is not one, else that value. */
		size_t from = j - 1;
		while (from > i && cJSON_IsObject(by[from]->value) &&
		       cJSON_IsObject(by[from - 1]->value))
			from--;
		cJSON *keep = by[from]->value;
		for (size_t k = from + 1; k < j; k++)
			adopt(keep, by[k]->value);
		for (size_t k = i; k < j; k++)
			if (k != from) {
				cJSON_Delete(by[k]->value);
				by[k]->value = NULL;
			}
		/* The survivor moves to the first appearance's entry, name and all. */
		if (by[i] != by[from]) {
			by[i]->value = keep;
			by[from]->value = NULL;
			free(by[i]->name);
			by[i]->name = by[from]->name;
			by[from]->name = NULL;
		}
	}
	free(by);
	for (size_t i = 0; i < es->n; i++) {
		struct entry *e = &es->v[i];
		if (!e->value)
			continue;
		/* cJSON copies the key before it frees the item's own: passing it is safe. */
		if (e->name)
			cJSON_AddItemToObject(o, e->name, e->value);
		else
			cJSON_AddItemToArray(o, e->value);
		e->value = NULL;
	}
	return true;
}

/* o (an object) rebuilt in place: range keys expanded, keys merged, then each child. */
static bool rebuild(cJSON *o, struct expansion *x)
{
	struct entries es = {0};
	bool ok = true;
	while (o->child) {
		cJSON *c = cJSON_DetachItemViaPointer(o, o->child);
		if (ok)
			ok = push_child(&es, c, x);
		else
			cJSON_Delete(c);
	}
	ok = ok && fold_into(o, &es, x);
	entries_free(&es);
	for (cJSON *c = o->child; ok && c; c = c->next)
		if (cJSON_IsObject(c))
			ok = rebuild(c, x);
	return ok;
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
	long i =
	    qg_readback_start(text, len,
			      "NVUE's configuration (JSON from the REST API or `nv config show "
			      "-o json`, or startup.yaml)",
			      d);
	if (i < 0)
		return -EINVAL;
	cJSON *doc = NULL;
	if (text[i] == '{' || text[i] == '[') {
		const char *end = NULL;
		doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
		if (!doc) {
			qg_error(d, qg_text_pos(text, end),
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
	/* The set part, moved out of the document and rebuilt. */
	cJSON *tree = cJSON_CreateObject();
	struct expansion x = {0};
	if (tree) {
		adopt(tree, (cJSON *)set);
		if (!rebuild(tree, &x)) {
			cJSON_Delete(tree);
			tree = NULL;
		}
	}
	cJSON_Delete(doc);
	if (x.over)
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back's range keys expand to more than %d copied objects "
			 "(at '%s'); refused: no switch's configuration is that large",
			 NVUE_COPIES_MAX, x.key);
	if (!tree)
		return x.over ? -EINVAL : -ENOMEM;
	*out = tree;
	return 0;
}
