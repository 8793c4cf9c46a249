/* SPDX-License-Identifier: MIT */
/*
 * The key table (model/keys.c) and the targets' own rows as a JSON Schema,
 * draft-07: the draft yaml-language-server reads fully and Debian 12's
 * python3-jsonschema validates. A key that takes two kinds of value (ets:
 * strict or a mapping) is an anyOf of both; a host entry's platform keys are
 * every host target's rows, each platform's required ones and none of the
 * others' under an if/then on its platform.
 */
#include "keys_schema.h"

#include "../model/warnings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_PATH_LEN 128

static cJSON *key_schema(const struct qg_target *const *t, const char *path,
			 const struct qg_key *k);

/* A gap the target refuses is an error, which no acknowledgement silences. */
static bool gap_refused(const struct qg_target *t, unsigned f)
{
	for (const struct qg_feature_gap *g = t->gaps; g && g->feature; g++)
		if (g->feature == f)
			return g->refused;
	return false;
}

/*
 * The feature warnings of the registry's switch targets
 * (ignored-by-<platform>-<feature>, model/target_features.h), then the older
 * names still taken for some of them.
 */
static void feature_warnings(const struct qg_target *const *t, cJSON *a)
{
	char name[128];
	for (size_t i = 0; t[i]; i++) {
		if (t[i]->kind != QG_DEVICE_SWITCH)
			continue;
		for (unsigned f = 1; f & QG_FEAT_ALL; f <<= 1) {
			if ((t[i]->features & f) || gap_refused(t[i], f))
				continue;
			snprintf(name, sizeof(name), "ignored-by-%s-%s", t[i]->name,
				 qg_feature_name(f));
			cJSON_AddItemToArray(a, cJSON_CreateString(name));
		}
	}
	for (size_t i = 0; qg_warning_alias(i); i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(qg_warning_alias(i)));
}

/* The values of an enumeration: the row's own, or the registry's or the warnings'. */
static cJSON *enum_values(const struct qg_target *const *t, const struct qg_key *k)
{
	cJSON *a = cJSON_CreateArray();
	switch (k->values_from) {
	case QG_KV_ROW:
		for (size_t i = 0; k->values && k->values[i]; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(k->values[i]));
		break;
	case QG_KV_SWITCH_PLATFORMS:
	case QG_KV_HOST_PLATFORMS: {
		enum qg_device_kind kind =
		    k->values_from == QG_KV_SWITCH_PLATFORMS ? QG_DEVICE_SWITCH : QG_DEVICE_HOST;
		for (size_t i = 0; t[i]; i++)
			if (t[i]->kind == kind)
				cJSON_AddItemToArray(a, cJSON_CreateString(t[i]->name));
		break;
	}
	case QG_KV_WARNINGS:
		for (int id = QG_W_NONE + 1; id < QG_W_COUNT; id++) {
			const struct qg_warning_info *w = qg_warning_info((enum qg_warning_id)id);
			if (w && w->scope == QG_WS_INTENT)
				cJSON_AddItemToArray(a, cJSON_CreateString(w->name));
		}
		feature_warnings(t, a);
		break;
	}
	return a;
}

/* The default as the schema's "default" when it is a value of the key's type, else NULL. */
static cJSON *default_value(const struct qg_key *k)
{
	if (!k->def)
		return NULL;
	char *end;
	long v = strtol(k->def, &end, 10);
	if ((k->type & QG_KEY_INT) && end != k->def && !*end)
		return cJSON_CreateNumber((double)v);
	if ((k->type & QG_KEY_BOOL) && (!strcmp(k->def, "true") || !strcmp(k->def, "false")))
		return cJSON_CreateBool(!strcmp(k->def, "true"));
	for (size_t i = 0; (k->type & QG_KEY_ENUM) && k->values && k->values[i]; i++)
		if (!strcmp(k->values[i], k->def))
			return cJSON_CreateString(k->def);
	return NULL;
}

static void child_path(char out[KEY_PATH_LEN], const char *path, const char *key)
{
	snprintf(out, KEY_PATH_LEN, "%s%s%s", path, path[0] ? "." : "", key);
}

/*
 * A mapping of a target's own rows (a list's items: linux's nics), each row
 * relative to it.
 */
static cJSON *rows_schema(const struct qg_target *const *t, const struct qg_key *rows)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "object");
	cJSON *props = cJSON_AddObjectToObject(o, "properties");
	cJSON *req = cJSON_CreateArray();
	for (const struct qg_key *r = rows; r->path; r++) {
		cJSON_AddItemToObject(props, r->path, key_schema(t, "", r));
		if (r->required)
			cJSON_AddItemToArray(req, cJSON_CreateString(r->path));
	}
	if (cJSON_GetArraySize(req))
		cJSON_AddItemToObject(o, "required", req);
	else
		cJSON_Delete(req);
	cJSON_AddFalseToObject(o, "additionalProperties");
	return o;
}

/*
 * The rows of t that are required unless another key is given (a linux
 * host's netdev and rdma_device, unless nics): if that key is there, they
 * are refused, else required.
 */
static void required_unless(const struct qg_target *t, cJSON *then)
{
	const char *unless = NULL;
	for (const struct qg_key *r = t->key_rows; r && r->path && !unless; r++)
		if (r->required && r->unless)
			unless = r->unless;
	if (!unless)
		return;
	cJSON *cond = cJSON_AddObjectToObject(then, "if");
	cJSON *creq = cJSON_AddArrayToObject(cond, "required");
	cJSON_AddItemToArray(creq, cJSON_CreateString(unless));
	cJSON *refused =
	    cJSON_AddObjectToObject(cJSON_AddObjectToObject(then, "then"), "properties");
	cJSON *req = cJSON_AddArrayToObject(cJSON_AddObjectToObject(then, "else"), "required");
	for (const struct qg_key *r = t->key_rows; r && r->path; r++) {
		if (!r->required || !r->unless || strcmp(r->unless, unless))
			continue;
		cJSON_AddFalseToObject(refused, r->path);
		cJSON_AddItemToArray(req, cJSON_CreateString(r->path));
	}
}

/* A host entry's platform keys: every host target's rows, and which platform takes which. */
static void host_platform_keys(const struct qg_target *const *t, cJSON *props, cJSON *o)
{
	cJSON *all = cJSON_CreateArray();
	for (size_t i = 0; t[i]; i++) {
		if (t[i]->kind != QG_DEVICE_HOST)
			continue;
		for (const struct qg_key *r = t[i]->key_rows; r && r->path; r++)
			if (!cJSON_GetObjectItemCaseSensitive(props, r->path))
				cJSON_AddItemToObject(props, r->path, key_schema(t, "", r));
	}
	for (size_t i = 0; t[i]; i++) {
		if (t[i]->kind != QG_DEVICE_HOST)
			continue;
		cJSON *rule = cJSON_CreateObject();
		cJSON *cond = cJSON_AddObjectToObject(rule, "if");
		cJSON *cp = cJSON_AddObjectToObject(cond, "properties");
		cJSON *plat = cJSON_AddObjectToObject(cp, "platform");
		cJSON_AddStringToObject(plat, "const", t[i]->name);
		cJSON *creq = cJSON_AddArrayToObject(cond, "required");
		cJSON_AddItemToArray(creq, cJSON_CreateString("platform"));
		cJSON *then = cJSON_AddObjectToObject(rule, "then");
		cJSON *req = cJSON_AddArrayToObject(then, "required");
		cJSON *tp = cJSON_AddObjectToObject(then, "properties");
		for (const struct qg_key *r = t[i]->key_rows; r && r->path; r++)
			if (r->required && !r->unless)
				cJSON_AddItemToArray(req, cJSON_CreateString(r->path));
		required_unless(t[i], then);
		/* Another platform's key is refused on this platform's hosts. */
		for (size_t j = 0; t[j]; j++)
			for (const struct qg_key *r = t[j]->key_rows;
			     j != i && t[j]->kind == QG_DEVICE_HOST && r && r->path; r++)
				if (!qg_target_takes(t[i], r->path) &&
				    !cJSON_GetObjectItemCaseSensitive(tp, r->path))
					cJSON_AddFalseToObject(tp, r->path);
		cJSON_AddItemToArray(all, rule);
	}
	cJSON_AddItemToObject(o, "allOf", all);
}

static cJSON *map_schema(const struct qg_target *const *t, const char *path)
{
	char sub[KEY_PATH_LEN];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", "object");
	child_path(sub, path, "*");
	const struct qg_key *any = qg_key_find(sub);
	if (any) {
		/* Free keys (a switch's ports), each of one kind of value. */
		cJSON_AddItemToObject(o, "additionalProperties", key_schema(t, sub, any));
		/* Free keys that are names (a switch's roles): the name's pattern. */
		if (any->pattern && (any->type & QG_KEY_MAP))
			cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "propertyNames"),
						"pattern", any->pattern);
		return o;
	}
	const char *names[64];
	qg_key_children(path, names, 63);
	cJSON *props = cJSON_AddObjectToObject(o, "properties");
	cJSON *req = cJSON_CreateArray();
	for (size_t i = 0; names[i]; i++) {
		child_path(sub, path, names[i]);
		const struct qg_key *k = qg_key_find(sub);
		cJSON_AddItemToObject(props, names[i], key_schema(t, sub, k));
		if (k->required)
			cJSON_AddItemToArray(req, cJSON_CreateString(names[i]));
	}
	if (cJSON_GetArraySize(req))
		cJSON_AddItemToObject(o, "required", req);
	else
		cJSON_Delete(req);
	if (!strcmp(path, "hosts[]"))
		host_platform_keys(t, props, o);
	cJSON_AddFalseToObject(o, "additionalProperties");
	return o;
}

/* One kind of value of key k at path. */
static cJSON *kind_schema(const struct qg_target *const *t, const char *path,
			  const struct qg_key *k, unsigned kind)
{
	cJSON *o;
	char sub[KEY_PATH_LEN];
	switch (kind) {
	case QG_KEY_INT:
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "integer");
		cJSON_AddNumberToObject(o, "minimum", (double)k->lo);
		cJSON_AddNumberToObject(o, "maximum", (double)k->hi);
		return o;
	case QG_KEY_NUMBER:
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "number");
		cJSON_AddNumberToObject(o, "exclusiveMinimum", (double)k->lo / 100);
		cJSON_AddNumberToObject(o, "maximum", (double)k->hi / 100);
		return o;
	case QG_KEY_BOOL:
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "boolean");
		return o;
	case QG_KEY_STRING:
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "string");
		cJSON_AddNumberToObject(o, "minLength", 1);
		if (k->pattern)
			cJSON_AddStringToObject(o, "pattern", k->pattern);
		return o;
	case QG_KEY_ENUM:
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "string");
		cJSON_AddItemToObject(o, "enum", enum_values(t, k));
		return o;
	case QG_KEY_MAP:
		return map_schema(t, path);
	default: /* QG_KEY_LIST */
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", "array");
		snprintf(sub, sizeof(sub), "%s[]", path);
		const struct qg_key *item = qg_key_find(sub);
		if (k->items)
			cJSON_AddItemToObject(o, "items", rows_schema(t, k->items));
		else if (item)
			cJSON_AddItemToObject(o, "items", key_schema(t, sub, item));
		if (k->nonempty)
			cJSON_AddNumberToObject(o, "minItems", 1);
		if (k->unique)
			cJSON_AddTrueToObject(o, "uniqueItems");
		return o;
	}
}

static cJSON *key_schema(const struct qg_target *const *t, const char *path, const struct qg_key *k)
{
	cJSON *alts[8];
	size_t n = 0;
	for (unsigned kind = QG_KEY_INT; kind <= QG_KEY_LIST; kind <<= 1)
		if (k->type & kind)
			alts[n++] = kind_schema(t, path, k, kind);
	cJSON *o;
	if (n == 1) {
		o = alts[0];
	} else {
		o = cJSON_CreateObject();
		cJSON *any = cJSON_AddArrayToObject(o, "anyOf");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(any, alts[i]);
	}
	char doc[512];
	snprintf(doc, sizeof(doc), "%s%s%s%s%s", k->doc, k->rule ? "; " : "",
		 k->rule ? k->rule : "", k->def ? "; default: " : "", k->def ? k->def : "");
	cJSON_AddStringToObject(o, "description", doc);
	cJSON *def = default_value(k);
	if (def)
		cJSON_AddItemToObject(o, "default", def);
	return o;
}

cJSON *qg_keys_schema(const struct qg_target *const *targets)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "$schema", "http://json-schema.org/draft-07/schema#");
	cJSON_AddStringToObject(root, "title", "qosgen intent");
	cJSON_AddStringToObject(
	    root, "description",
	    "A lossless RoCE fabric's QoS intent (docs/intent.md). Generated "
	    "from qosgen's key table (model/keys.c) by build/tools/intent-schema: "
	    "do not edit. The rules between values are qosgen's own.");
	cJSON *m = map_schema(targets, "");
	cJSON *c = m->child;
	m->child = NULL;
	cJSON_Delete(m);
	/* The root's keys after the title: one object, as editors expect it. */
	while (c) {
		cJSON *next = c->next;
		c->next = c->prev = NULL;
		cJSON_AddItemToObject(root, c->string, c);
		c = next;
	}
	return root;
}

/* roff: a backslash and a leading dot or quote escaped. */
static void man_text(struct qg_buf *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		qg_buf_puts(out, "\\&");
	for (; *s; s++) {
		if (*s == '\\')
			qg_buf_puts(out, "\\e");
		else if (*s == '-')
			qg_buf_puts(out, "\\-");
		else
			qg_buf_append(out, s, 1);
	}
}

static void man_row(const struct qg_target *const *t, struct qg_buf *out, const char *path,
		    const struct qg_key *k)
{
	qg_buf_puts(out, ".TP\n.B ");
	man_text(out, path);
	qg_buf_puts(out, "\n");
	static const char *const kinds[] = {"integer", "number",  "true or false", "text",
					    "one of",  "mapping", "list"};
	/* Grown, not fixed: an enumeration's values (the warnings') can be long. */
	struct qg_buf what = {0};
	for (unsigned b = 0; b < 7; b++) {
		if (!(k->type & (1u << b)))
			continue;
		qg_buf_printf(&what, "%s%s", what.len ? " or " : "", kinds[b]);
		if ((1u << b) == QG_KEY_INT)
			qg_buf_printf(&what, " %ld..%ld", k->lo, k->hi);
		if ((1u << b) == QG_KEY_NUMBER)
			qg_buf_printf(&what, " in (%ld, %ld]", k->lo / 100, k->hi / 100);
		if ((1u << b) == QG_KEY_ENUM) {
			cJSON *v = enum_values(t, k), *e;
			size_t i = 0;
			cJSON_ArrayForEach(e, v)
			{
				qg_buf_printf(&what, "%s%s", i++ ? ", " : " ", e->valuestring);
			}
			cJSON_Delete(v);
		}
	}
	qg_buf_puts(out, "(");
	man_text(out, what.len ? what.data : "");
	qg_buf_free(&what);
	if (k->required)
		qg_buf_puts(out, "; required");
	if (k->def) {
		qg_buf_puts(out, "; default: ");
		man_text(out, k->def);
	}
	qg_buf_puts(out, ") ");
	man_text(out, k->doc);
	if (k->rule && (k->type & QG_KEY_STRING)) {
		qg_buf_puts(out, ". Allowed: ");
		man_text(out, k->rule);
	}
	qg_buf_puts(out, ".\n");
}

void qg_keys_man(const struct qg_target *const *targets, struct qg_buf *out)
{
	size_t n;
	const struct qg_key *rows = qg_keys(&n);
	for (size_t i = 0; i < n; i++)
		man_row(targets, out, rows[i].path, &rows[i]);
	for (size_t i = 0; targets[i]; i++) {
		char path[KEY_PATH_LEN];
		for (const struct qg_key *r = targets[i]->key_rows; r && r->path; r++) {
			snprintf(path, sizeof(path), "hosts[].%s (%s)", r->path, targets[i]->name);
			man_row(targets, out, path, r);
			for (const struct qg_key *c = r->items; c && c->path; c++) {
				snprintf(path, sizeof(path), "hosts[].%s[].%s (%s)", r->path,
					 c->path, targets[i]->name);
				man_row(targets, out, path, c);
			}
		}
	}
}
