/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a SONiC switch's `show runningconfiguration
 * all`, parsed, judged and diffed against the reference intent; what the
 * switch prints is untrusted input like the intent.
 *
 * Convergence oracle: when the read-back is judged, the JSON Patch the diff
 * proposes must apply as RFC 6902 says (applied here by code of this
 * file's own: the parent of an add exists, the target of a remove or a
 * replace exists), and give exactly the intent on what qosgen owns: its
 * named rows equal, each field it writes on the intent's ports equal in the
 * one row covering that port and index; no table it emptied left behind;
 * every table it does not own untouched; and a second diff must be empty.
 */
#include "../../gen/intent.h"
#include "../../targets/registry.h"
#include "../../targets/sonic/config_db.h"
#include "../../targets/sonic/config_db_patch.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char intent[] =
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
    "switches:\n  - {name: s, platform: sonic, address: s, ports: [Ethernet0-8/4], "
    "cable_length_m: {default: 5, Ethernet8: 40}}\n";

static cJSON *want;

static void fail(const char *what, const char *where)
{
	fprintf(stderr, "%s: %s\n", what, where);
	abort();
}

/* The parent object of an RFC 6901 pointer and its last key (unescaped into key). */
static cJSON *parent_of(cJSON *doc, const char *path, char *key, size_t cap)
{
	cJSON *o = doc;
	const char *p = path;
	if (*p != '/')
		fail("a path that is not a JSON pointer", path);
	for (;;) {
		size_t n = 0;
		for (p++; *p && *p != '/'; p++) {
			if (n + 1 >= cap)
				fail("a key too long", path);
			if (*p == '~') {
				if (p[1] != '0' && p[1] != '1')
					fail("a bad escape", path);
				key[n++] = *++p == '0' ? '~' : '/';
			} else {
				key[n++] = *p;
			}
		}
		key[n] = '\0';
		if (!*p)
			return o;
		o = cJSON_GetObjectItemCaseSensitive(o, key);
		if (!cJSON_IsObject(o))
			fail("an operation whose parent does not exist", path);
	}
}

static void apply(cJSON *doc, const cJSON *patch)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, patch)
	{
		const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(o, "path");
		const cJSON *value = cJSON_GetObjectItemCaseSensitive(o, "value");
		if (!cJSON_IsString(op) || !cJSON_IsString(path))
			fail("an operation without op or path", "");
		char key[4096];
		cJSON *parent = parent_of(doc, path->valuestring, key, sizeof(key));
		bool exists = cJSON_GetObjectItemCaseSensitive(parent, key) != NULL;
		if (!strcmp(op->valuestring, "remove") || !strcmp(op->valuestring, "replace")) {
			if (!exists)
				fail("a remove or replace of nothing", path->valuestring);
		} else if (strcmp(op->valuestring, "add")) {
			fail("an operation other than add, remove, replace", op->valuestring);
		}
		cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
		if (strcmp(op->valuestring, "remove")) {
			if (!value)
				fail("an add or replace without a value", path->valuestring);
			cJSON_AddItemToObject(parent, key, cJSON_Duplicate(value, true));
		}
	}
}

/* "Ethernet0|3-4" covers "Ethernet0|3": same port, index in range. */
static bool covers(const char *key, const char *want_key)
{
	const char *kb = strrchr(key, '|'), *wb = strrchr(want_key, '|');
	if (!kb || !wb || kb - key != wb - want_key || strncmp(key, want_key, (size_t)(kb - key)))
		return false;
	if (!isdigit((unsigned char)kb[1]))
		return false;
	char *e;
	long lo = strtol(kb + 1, &e, 10), hi = lo, idx = strtol(wb + 1, NULL, 10);
	if (*e == '-')
		hi = strtol(e + 1, &e, 10);
	return !*e && lo <= idx && idx <= hi;
}

static bool index_table(const char *t)
{
	return !strcmp(t, "QUEUE") || !strcmp(t, "BUFFER_PG");
}

static bool port_table(const char *t)
{
	return index_table(t) || !strcmp(t, "PORT") || !strcmp(t, "PORT_QOS_MAP");
}

/* A port's cable length: every row that names the port says it, and one does. */
static void cable_lengths(const cJSON *wt, const cJSON *at)
{
	for (const cJSON *w = wt->child; w; w = w->next)
		for (const cJSON *f = w->child; f; f = f->next) {
			int n = 0;
			for (const cJSON *r = at ? at->child : NULL; r; r = r->next) {
				const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, f->string);
				if (v && !cJSON_Compare(v, f, true))
					fail("a cable length not as the intent says", f->string);
				n += v != NULL;
			}
			if (n == 0)
				fail("no cable length for", f->string);
		}
}

static void owned_equal(const cJSON *after)
{
	for (const cJSON *wt = want->child; wt; wt = wt->next) {
		const cJSON *at = cJSON_GetObjectItemCaseSensitive(after, wt->string);
		if (!strcmp(wt->string, "CABLE_LENGTH")) {
			cable_lengths(wt, at);
			continue;
		}
		for (const cJSON *w = wt->child; w; w = w->next) {
			if (!port_table(wt->string)) {
				if (!cJSON_Compare(
					w, cJSON_GetObjectItemCaseSensitive(at, w->string), true))
					fail("a named row not as the intent says", w->string);
				continue;
			}
			const cJSON *row = NULL;
			int n = 0;
			for (const cJSON *r = at ? at->child : NULL; r; r = r->next)
				if (index_table(wt->string) ? covers(r->string, w->string)
							    : !strcmp(r->string, w->string)) {
					row = r;
					n++;
				}
			if (n != 1)
				fail("not exactly one row for", w->string);
			for (const cJSON *f = w->child; f; f = f->next)
				if (!cJSON_Compare(
					f, cJSON_GetObjectItemCaseSensitive(row, f->string), true))
					fail("a field not as the intent says", w->string);
		}
	}
}

/* Tables qosgen neither writes nor refers into stay as they were; no table emptied stays. */
static void others_untouched(const cJSON *have, const cJSON *after)
{
	for (const cJSON *t = after->child; t; t = t->next) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(have, t->string);
		if (cJSON_IsObject(t) && !t->child && (!h || h->child))
			fail("a table left empty", t->string);
	}
	for (const cJSON *h = have->child; h; h = h->next) {
		if (cJSON_GetObjectItemCaseSensitive(want, h->string) ||
		    !strcmp(h->string, "QUEUE") || !strcmp(h->string, "SCHEDULER") ||
		    !strcmp(h->string, "WRED_PROFILE"))
			continue;
		if (!cJSON_Compare(h, cJSON_GetObjectItemCaseSensitive(after, h->string), true))
			fail("a table qosgen does not own changed", h->string);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!want) {
		struct qg_diags d;
		struct qg_model m;
		qg_diags_init(&d, "intent");
		if (qg_intent_load(intent, strlen(intent), qg_targets, &d, &m) != 0)
			abort();
		want = sonic_config_from_model(&m, 0);
		qg_model_free(&m);
		qg_diags_free(&d);
		if (!want)
			abort();
	}
	struct qg_diags d;
	qg_diags_init(&d, "readback");
	cJSON *have = NULL;
	if (sonic_readback_parse((const char *)data, size, &have, &d) != 0 ||
	    sonic_config_judge(want, have, &d) > 0) {
		cJSON_Delete(have);
		qg_diags_free(&d);
		return 0;
	}
	(void)sonic_readback_hostname(have);
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	if (oom)
		abort();
	struct qg_buf text = {0};
	sonic_patch_text(patch, &text);
	cJSON *reparsed = patch ? cJSON_Parse(text.data ? text.data : "") : NULL;
	if (patch && cJSON_GetArraySize(reparsed) != cJSON_GetArraySize(patch))
		fail("the patch text is not the patch", text.data ? text.data : "");
	cJSON_Delete(reparsed);
	qg_buf_free(&text);
	cJSON *after = cJSON_Duplicate(have, true);
	apply(after, patch);
	owned_equal(after);
	others_untouched(have, after);
	if (!sonic_config_same_at(patch, have, have))
		fail("same_at is not reflexive", "");
	cJSON *again = sonic_config_patch(want, after, &oom);
	if (again) {
		char *s = cJSON_PrintUnformatted(again);
		fail("a second diff is not empty", s ? s : "?");
	}
	cJSON_Delete(after);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	qg_diags_free(&d);
	return 0;
}
