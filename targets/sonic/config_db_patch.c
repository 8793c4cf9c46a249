/* SPDX-License-Identifier: MIT */
/*
 * The JSON Patch from a read-back to the model (config_db_patch.h), computed
 * as the difference between the read-back and the configuration the switch
 * should end with (config_db_end.h): a table, row or field at a time, in
 * natural key order, so the same read-back gives the same patch.
 */
#include "config_db_patch.h"

#include "../../lib/jsonsort.h"
#include "../../lib/strmap.h"
#include "config_db_end.h"
#include "config_db_rows.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * The patch is linear in the read-back: a switch decides how many rows it
 * prints, and cJSON's lookups and cJSON_Compare scan an object for each key
 * (80,000 rows took 102 s: issue 24). Each object's members are sorted
 * once and walked side by side.
 */
struct member {
	const cJSON *v;
	size_t at; /* its place in the object: of two equal keys, the first counts */
};

/* Natural order (Ethernet4 before Ethernet12), then bytes: two keys tie only when equal. */
static int key_cmp(const char *a, const char *b)
{
	int c = qg_natural_cmp(a, b);
	return c ? c : strcmp(a, b);
}

static int by_natural(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = key_cmp(x->v->string, y->v->string);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* o's members in natural order; *n of them. NULL with *oom when out of memory. */
static struct member *members(const cJSON *o, size_t *n, bool *oom)
{
	*n = cJSON_IsObject(o) ? (size_t)cJSON_GetArraySize(o) : 0;
	struct member *m = *n ? malloc(*n * sizeof(*m)) : NULL;
	if (*n && !m) {
		*oom = true;
		return NULL;
	}
	size_t i = 0;
	for (const cJSON *c = *n ? o->child : NULL; c; c = c->next, i++)
		m[i] = (struct member){c, i};
	if (m)
		qsort(m, *n, sizeof(*m), by_natural);
	return m;
}

/* Past the members equal to m[i] (a judged read-back has none; the end state may). */
static size_t next_key(const struct member *m, size_t i, size_t n)
{
	size_t j = i + 1;
	while (j < n && !strcmp(m[j].v->string, m[i].v->string))
		j++;
	return j;
}

/* cJSON_Compare, without its scan of b for each key of a. */
static bool same_json(const cJSON *a, const cJSON *b, bool *oom)
{
	if (!cJSON_IsObject(a) || !cJSON_IsObject(b)) {
		if (!cJSON_IsArray(a) || !cJSON_IsArray(b))
			return cJSON_Compare(a, b, true);
		const cJSON *x = a->child, *y = b->child;
		for (; x && y; x = x->next, y = y->next)
			if (!same_json(x, y, oom))
				return false;
		return !x && !y;
	}
	size_t na, nb;
	struct member *ma = members(a, &na, oom), *mb = members(b, &nb, oom);
	bool same = na == nb && !*oom;
	for (size_t i = 0; same && i < na; i++)
		same =
		    !strcmp(ma[i].v->string, mb[i].v->string) && same_json(ma[i].v, mb[i].v, oom);
	free(ma);
	free(mb);
	return same && !*oom;
}

/*
 * RFC 6901: "~" as "~0", "/" as "~1". Sized, never cut: a path cut short
 * names another row or field (a 998-byte row name once made Ethernet12's
 * field Ethernet1's: issue 24).
 */
static void pointer_append(struct qg_buf *path, const char *key)
{
	qg_buf_append(path, "/", 1);
	for (const char *k = key; *k; k++) {
		size_t run = strcspn(k, "~/");
		qg_buf_append(path, k, run);
		k += run;
		if (!*k)
			break;
		qg_buf_append(path, *k == '~' ? "~0" : "~1", 2);
	}
}

static void op(cJSON *ops, const char *what, const char *path, const cJSON *value, bool *oom)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "op", what) ||
	    !cJSON_AddStringToObject(o, "path", path) ||
	    (value && !cJSON_AddItemToObject(o, "value", cJSON_Duplicate(value, true)))) {
		cJSON_Delete(o);
		*oom = true;
		return;
	}
	cJSON_AddItemToArray(ops, o);
}

/* Tables (depth 0), rows (1), fields (2): the fewest operations from h to e. */
static void diff(cJSON *ops, const cJSON *h, const cJSON *e, struct qg_buf *path, int depth,
		 bool *oom)
{
	size_t nh, ne, len = path->len;
	struct member *mh = members(h, &nh, oom), *me = members(e, &ne, oom);
	for (size_t i = 0, j = 0; (i < nh || j < ne) && !*oom && !path->failed;) {
		int c = i == nh ? 1 : j == ne ? -1 : key_cmp(mh[i].v->string, me[j].v->string);
		const cJSON *hv = c <= 0 ? mh[i].v : NULL, *ev = c >= 0 ? me[j].v : NULL;
		pointer_append(path, (hv ? hv : ev)->string);
		if (path->failed)
			break;
		if (!ev)
			op(ops, "remove", path->data, NULL, oom);
		else if (!hv)
			op(ops, "add", path->data, ev, oom);
		else if (depth < 2 && cJSON_IsObject(hv) && cJSON_IsObject(ev))
			diff(ops, hv, ev, path, depth + 1, oom);
		else if (!same_json(hv, ev, oom))
			op(ops, "replace", path->data, ev, oom);
		path->len = len;
		if (path->data)
			path->data[len] = '\0';
		if (hv)
			i = next_key(mh, i, nh);
		if (ev)
			j = next_key(me, j, ne);
	}
	if (path->failed)
		*oom = true;
	free(mh);
	free(me);
}

cJSON *sonic_config_patch(const cJSON *want, const cJSON *have, bool *oom)
{
	*oom = false;
	cJSON *end = sonic_config_end_state(want, have, oom);
	cJSON *ops = *oom ? NULL : cJSON_CreateArray();
	struct qg_buf path = {0};
	if (ops)
		diff(ops, have, end, &path, 0, oom);
	else
		*oom = true;
	qg_buf_free(&path);
	cJSON_Delete(end);
	if (*oom || !ops->child) {
		cJSON_Delete(ops);
		return NULL;
	}
	return ops;
}

/*
 * The value at an RFC 6901 pointer, or NULL; key holds a token and is at
 * least as long as the pointer. No fixed buffer: a 600-byte row name cut to
 * 511 named no row in either read-back, and a half-applied patch read as
 * "the same" (issue 24).
 */
static const cJSON *at_pointer(const cJSON *o, const char *path, char *key)
{
	while (o && *path == '/') {
		size_t n = 0;
		for (path++; *path && *path != '/'; path++) {
			if (*path == '~' && (path[1] == '0' || path[1] == '1'))
				key[n++] = *++path == '0' ? '~' : '/';
			else
				key[n++] = *path;
		}
		key[n] = '\0';
		o = cdb_get(o, key);
	}
	return o;
}

/*
 * Every node of a document down to a field (table, row, field: the depth of
 * the patch's paths) by its pointer: looking each of a patch's paths up in
 * cJSON walked a table per operation, and a patch has operations per port.
 * Of two equal keys the first counts, as cdb_get().
 */
struct paths {
	struct qg_strmap at; /* pointer -> node; the keys are owned */
	bool oom;
};

static void paths_add(struct paths *p, const cJSON *o, struct qg_buf *path, int depth)
{
	size_t len = path->len;
	for (const cJSON *c = cJSON_IsObject(o) ? o->child : NULL; c && !p->oom; c = c->next) {
		pointer_append(path, c->string);
		char *k = path->failed ? NULL : strdup(path->data);
		int put = k ? qg_strmap_put(&p->at, k, (void *)c, NULL) : -1;
		if (put != 0)
			free(k);
		p->oom = put < 0;
		if (depth < 2)
			paths_add(p, c, path, depth + 1);
		path->len = len;
		path->data[len] = '\0';
	}
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->at.cap; i++)
		free((char *)p->at.keys[i]);
	qg_strmap_free(&p->at);
}

static bool paths_of(const cJSON *doc, struct paths *p)
{
	struct qg_buf path = {0};
	*p = (struct paths){0};
	qg_buf_puts(&path, "");
	p->oom = path.failed;
	if (!p->oom)
		paths_add(p, doc, &path, 0);
	qg_buf_free(&path);
	if (p->oom)
		paths_free(p);
	return !p->oom;
}

/*
 * The node at path: the pointer decoded as at_pointer() does and written as
 * the index's are (pointer_append()); deeper than a field, walked from the
 * document. key is scratch as long as the path.
 */
static const cJSON *node_at(const struct paths *p, const cJSON *doc, const char *path, char *key,
			    struct qg_buf *canon)
{
	canon->len = 0;
	qg_buf_puts(canon, "");
	int tokens = 0;
	for (const char *s = path; *s == '/' && tokens <= 3; tokens++) {
		size_t n = 0;
		for (s++; *s && *s != '/'; s++) {
			if (*s == '~' && (s[1] == '0' || s[1] == '1'))
				key[n++] = *++s == '0' ? '~' : '/';
			else
				key[n++] = *s;
		}
		key[n] = '\0';
		pointer_append(canon, key);
	}
	if (tokens > 3 || canon->failed)
		return at_pointer(doc, path, key);
	return tokens ? qg_strmap_get(&p->at, canon->data) : doc;
}

bool sonic_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b)
{
	struct paths pa, pb;
	bool built = paths_of(a, &pa), oom = false;
	if (built && !(built = paths_of(b, &pb)))
		paths_free(&pa);
	struct qg_buf canon = {0};
	bool same = built;
	const cJSON *o;
	for (o = patch ? patch->child : NULL; o && same; o = o->next) {
		const cJSON *p = cdb_get(o, "path");
		char *key = cJSON_IsString(p) ? malloc(strlen(p->valuestring) + 1) : NULL;
		oom = cJSON_IsString(p) && !key;
		const cJSON *x = key ? node_at(&pa, a, p->valuestring, key, &canon) : NULL;
		const cJSON *y = key ? node_at(&pb, b, p->valuestring, key, &canon) : NULL;
		/* Out of memory proves nothing: not the same. */
		same = key && !canon.failed && (!(x || y) || same_json(x, y, &oom)) && !oom;
		free(key);
	}
	qg_buf_free(&canon);
	if (built) {
		paths_free(&pa);
		paths_free(&pb);
	}
	return same;
}

void sonic_patch_text(const cJSON *patch, struct qg_buf *out)
{
	if (!patch)
		return;
	qg_buf_puts(out, "[\n");
	const cJSON *o;
	cJSON_ArrayForEach(o, patch)
	{
		char *s = cJSON_PrintUnformatted(o);
		if (!s) {
			out->failed = true;
			return;
		}
		qg_buf_printf(out, "  %s%s\n", s, o->next ? "," : "");
		cJSON_free(s);
	}
	qg_buf_puts(out, "]\n");
}
