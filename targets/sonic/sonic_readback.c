/* SPDX-License-Identifier: MIT */
/*
 * `show runningconfiguration all`: SONiC prints config_db as one JSON
 * object, table names at the top (sonic-cfggen -d --print-data), and
 * "bgpraw", FRR's running-config as one string (sonic-utilities
 * show/main.py). Pure.
 */
#include "sonic_readback.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "asic0", "asic12": a multi-ASIC switch's namespaces, as its read-back keys them. */
static bool asic_namespace(const char *k)
{
	if (strncmp(k, "asic", 4) || !k[4])
		return false;
	for (k += 4; *k; k++)
		if (!isdigit((unsigned char)*k))
			return false;
	return true;
}

/*
 * Duplicate keys, at every depth. JSON leaves them to the reader (RFC 8259:
 * "unpredictable"), and SONiC never prints one: which of the two the
 * switch holds cannot be told, inside a field's value as much as among
 * tables, rows and fields (a nested duplicate, read one way here and
 * another by the switch, had qosgen patch a row it does not own on every
 * run: issue 24). cJSON keeps no positions but keeps every member in text
 * order, so one walk over the text beside the tree finds where each key
 * is written, and the error points at the first key written twice.
 */
struct walk {
	const char *p, *end;  /* the text cJSON parsed */
	const char *path[3];  /* the table, row and field being walked */
	const char *dup;      /* where the first duplicate is written */
	const char *where[4]; /* its table, row, field (NULL above its depth) and key */
	bool oom;
};

struct member {
	const char *key; /* as cJSON unescaped it */
	const char *at;	 /* where the text writes it */
};

static int by_key(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

static void skip_space(struct walk *w)
{
	while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\n' || *w->p == '\r'))
		w->p++;
}

static void skip(struct walk *w, char c)
{
	skip_space(w);
	if (w->p < w->end && *w->p == c)
		w->p++;
}

/* At a '"': past its closing quote (cJSON has checked the escapes). */
static void skip_string(struct walk *w)
{
	for (w->p++; w->p < w->end && *w->p != '"'; w->p++)
		if (*w->p == '\\' && w->p + 1 < w->end)
			w->p++;
	if (w->p < w->end)
		w->p++;
}

static void walk_value(struct walk *w, const cJSON *v, int depth);

/* Object o at depth 0 (the tables), 1 (rows), 2 (fields) or 3 and more (inside a field). */
static void walk_object(struct walk *w, const cJSON *o, int depth)
{
	size_t n = (size_t)cJSON_GetArraySize(o), i = 0;
	struct member *m = n > 1 ? malloc(n * sizeof(*m)) : NULL;
	if (n > 1 && !m)
		w->oom = true;
	skip(w, '{');
	for (const cJSON *c = o->child; c && !w->oom; c = c->next) {
		if (c != o->child)
			skip(w, ',');
		skip_space(w);
		if (m)
			m[i++] = (struct member){c->string, w->p};
		skip_string(w);
		skip(w, ':');
		if (depth < 3)
			w->path[depth] = c->string;
		walk_value(w, c, depth + 1);
	}
	skip(w, '}');
	if (m && !w->oom) {
		qsort(m, n, sizeof(*m), by_key);
		for (i = 1; i < n; i++)
			if (!strcmp(m[i - 1].key, m[i].key) && (!w->dup || m[i].at < w->dup)) {
				w->dup = m[i].at;
				for (int k = 0; k < 3; k++)
					w->where[k] = k < depth ? w->path[k] : NULL;
				w->where[3] = m[i].key;
			}
	}
	free(m);
}

static void walk_value(struct walk *w, const cJSON *v, int depth)
{
	skip_space(w);
	if (cJSON_IsObject(v)) {
		walk_object(w, v, depth);
	} else if (cJSON_IsArray(v)) {
		skip(w, '[');
		for (const cJSON *c = v->child; c && !w->oom; c = c->next) {
			if (c != v->child)
				skip(w, ',');
			walk_value(w, c, depth);
		}
		skip(w, ']');
	} else if (w->p < w->end && *w->p == '"') {
		skip_string(w);
	} else {
		while (w->p < w->end && !strchr(",}] \t\r\n", *w->p))
			w->p++;
	}
}

/* Every object of doc (parsed from text + i) names each key once; 1 with an error in d. */
static int duplicates(const char *text, size_t len, long i, const cJSON *doc, struct qg_diags *d,
		      bool *oom)
{
	struct walk w = {.p = text + i, .end = text + len};
	walk_value(&w, doc, 0);
	*oom = w.oom;
	if (w.oom || !w.dup)
		return 0;
	struct qg_pos at = qg_text_pos(text, w.dup);
	const char *const *k = w.where;
	if (!k[0])
		qg_error(d, at, "the read-back has table %s twice", k[3]);
	else if (!k[1])
		qg_error(d, at, "the read-back has %s|%s twice", k[0], k[3]);
	else if (!k[2])
		qg_error(d, at, "the read-back has field %s of %s|%s twice", k[3], k[0], k[1]);
	else
		qg_error(d, at,
			 "the read-back has key %s twice inside field %s of %s|%s: which one "
			 "the switch holds cannot be told",
			 k[3], k[2], k[0], k[1]);
	return 1;
}

cJSON *sonic_json_object(const char *text, size_t len, const char *expected, long *start,
			 struct qg_diags *d)
{
	long i = qg_readback_start(text, len, expected, d);
	if (i < 0)
		return NULL;
	const char *end = NULL;
	cJSON *doc = text[i] == '{' ? cJSON_ParseWithLengthOpts(text, len, &end, false) : NULL;
	if (!doc)
		qg_error(d, qg_text_pos(text, end ? end : text + i),
			 "the read-back is not a JSON object here; expected %s", expected);
	*start = i;
	return doc;
}

int sonic_readback_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d)
{
	*out = NULL;
	long i;
	cJSON *doc = sonic_json_object(
	    text, len, "config_db as JSON, as `show runningconfiguration all` prints it", &i, d);
	if (!doc)
		return -EINVAL;
	int errors = 0;
	for (const cJSON *t = doc->child; t && !errors; t = t->next) {
		if ((!strcmp(t->string, "localhost") || asic_namespace(t->string)) &&
		    cJSON_IsObject(t) && cJSON_GetObjectItemCaseSensitive(t, "DEVICE_METADATA")) {
			qg_error(d, (struct qg_pos){1, 1},
				 "the read-back is a multi-ASIC switch's (namespace '%s'); qosgen "
				 "configures single-ASIC SONiC switches only",
				 t->string);
			errors++;
		} else if (!cJSON_IsObject(t) &&
			   !(cJSON_IsString(t) && !strcmp(t->string, "bgpraw"))) {
			qg_error(d, (struct qg_pos){1, 1},
				 "the read-back's table %s is not an object of rows; is this "
				 "config_db?",
				 t->string);
			errors++;
		}
	}
	if (!errors && !doc->child) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back holds no config_db table; is it the output of another "
			 "command?");
		errors++;
	}
	bool oom = false;
	if (!errors)
		errors = duplicates(text, len, i, doc, d, &oom);
	if (errors || oom) {
		cJSON_Delete(doc);
		return oom ? -ENOMEM : -EINVAL;
	}
	*out = doc;
	return 0;
}

const char *sonic_readback_hostname(const cJSON *have)
{
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(have, "DEVICE_METADATA");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(md, "localhost"), "hostname");
	return cJSON_IsString(h) ? h->valuestring : "";
}
