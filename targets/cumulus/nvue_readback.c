/* SPDX-License-Identifier: MIT */
/*
 * NVUE read-backs into the model's tree: JSON (the REST API, `nv config
 * show -o json`) or YAML (startup.yaml, `nv config show`), their `set` part,
 * NVUE's range keys expanded. Pure.
 */
#include "nvue_config.h"

#include "../../gen/yamlast.h"

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
	*out = expanded(set);
	cJSON_Delete(doc);
	return *out ? 0 : -ENOMEM;
}
