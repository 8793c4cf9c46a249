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
 * What the intent removes (a JSON null in the model, config_db.h) must be
 * absent: no row covering a PG it makes lossy, no wred_profile on a lossy
 * queue.
 *
 * History oracle (issue 23): two intents A and B of the pairs below, chosen
 * by the input's length and its bytes' sum, so the seeds need no format of
 * their own. When the judge takes both, the read-back with A's patch and
 * then B's applied must hold, on what B owns, exactly what the read-back
 * with B's patch alone holds (sonic_config_owned()), and each second diff
 * be empty.
 */
#include "../../intent/intent.h"
#include "../../targets/registry.h"
#include "../../targets/sonic/config_db.h"
#include "../../targets/sonic/config_db_judge.h"
#include "../../targets/sonic/config_db_owned.h"
#include "../../targets/sonic/config_db_patch.h"
#include "../../targets/sonic/sonic_readback.h"

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

/*
 * The pairs' intents: the reference one, a moved lossless priority (4, its
 * DSCP 34) with the watchdog on, priority 5 strict without ECN with it off,
 * the CNP class moved with WRR weights and an MTU, no CNP nor ETS with other
 * cable lengths. The same ports, so that no pair is refused for a port that
 * left the intent.
 */
#define PORTS                                                                                      \
	"switches:\n  - {name: s, platform: sonic, address: s, ports: [Ethernet0-8/4], "           \
	"cable_length_m: "
static const char *const pairs[] = {
    intent,
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 4, dscp: [34], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n  pfc_watchdog: true\n" PORTS "5}\n",
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 5, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ets: strict}\n  pfc_watchdog: false\n" PORTS "5}\n",
    "version: 1\nfabric: f\nqos:\n  switch_mtu: 9100\n  lossless: {priority: 3, dscp: [26], "
    "pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 100, max_kb: 1000}, ets: {mode: "
    "wrr, weight: 60}}\n  cnp: {priority: 7, dscp: 46, ets: {mode: wrr, weight: 10}}\n" PORTS
    "{default: 5, Ethernet4: 40}}\n",
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26, 27], pool: {name: "
    "roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n" PORTS "40}\n",
};
#define N_PAIRS (sizeof(pairs) / sizeof(pairs[0]))

static cJSON *want;
static cJSON *wants[N_PAIRS];

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
	return !strcmp(t, "QUEUE") || !strcmp(t, "BUFFER_PG") || !strcmp(t, "BUFFER_QUEUE");
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
			if (cJSON_IsNull(w)) {
				if (n != 0)
					fail("a row the intent removes is there", w->string);
				continue;
			}
			if (n != 1)
				fail("not exactly one row for", w->string);
			for (const cJSON *f = w->child; f; f = f->next)
				if (cJSON_IsNull(f)
					? cJSON_GetObjectItemCaseSensitive(row, f->string) != NULL
					: !cJSON_Compare(
					      f, cJSON_GetObjectItemCaseSensitive(row, f->string),
					      true))
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

/* from with w's patch applied, its second diff empty; NULL when the judge refuses. */
static cJSON *pushed(const cJSON *w, const cJSON *from)
{
	struct qg_diags d;
	qg_diags_init(&d, "readback");
	if (sonic_config_judge(w, from, NULL, &d) > 0) {
		qg_diags_free(&d);
		return NULL;
	}
	qg_diags_free(&d);
	bool oom;
	cJSON *patch = sonic_config_patch(w, from, &oom), *after = cJSON_Duplicate(from, true);
	if (oom || !after)
		abort();
	apply(after, patch);
	cJSON_Delete(patch);
	cJSON *again = sonic_config_patch(w, after, &oom);
	if (again) {
		char *s = cJSON_PrintUnformatted(again);
		fail("a second diff is not empty (history)", s ? s : "?");
	}
	return after;
}

static void history(const cJSON *have, const uint8_t *data, size_t size)
{
	unsigned sum = 0;
	for (size_t i = 0; i < size; i++)
		sum += data[i];
	const cJSON *a = wants[size % N_PAIRS], *b = wants[sum % N_PAIRS];
	cJSON *x = pushed(a, have), *xb = x ? pushed(b, x) : NULL, *y = pushed(b, have);
	if (xb && y) {
		cJSON *ox = sonic_config_owned(b, xb), *oy = sonic_config_owned(b, y);
		if (!ox || !oy)
			abort();
		if (!cJSON_Compare(ox, oy, true)) {
			char *sx = cJSON_PrintUnformatted(ox), *sy = cJSON_PrintUnformatted(oy);
			fprintf(stderr, "A %zu then B %u:\n%s\nB alone:\n%s\n", size % N_PAIRS,
				sum % (unsigned)N_PAIRS, sx ? sx : "?", sy ? sy : "?");
			fail("the owned state depends on the history", "");
		}
		cJSON_Delete(ox);
		cJSON_Delete(oy);
	}
	cJSON_Delete(x);
	cJSON_Delete(xb);
	cJSON_Delete(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!want) {
		for (size_t i = 0; i < N_PAIRS; i++) {
			struct qg_diags d;
			struct qg_model m;
			qg_diags_init(&d, "intent");
			if (qg_intent_load(pairs[i], strlen(pairs[i]), qg_targets, &d, &m) != 0) {
				qg_diags_print(&d, stderr, false);
				abort();
			}
			wants[i] = sonic_config_from_model(&m, 0);
			qg_model_free(&m);
			qg_diags_free(&d);
			if (!wants[i])
				abort();
		}
		want = wants[0];
	}
	struct qg_diags d;
	qg_diags_init(&d, "readback");
	cJSON *have = NULL;
	if (sonic_readback_parse((const char *)data, size, &have, &d) != 0 ||
	    sonic_config_judge(want, have, NULL, &d) > 0) {
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
	history(have, data, size);
	cJSON_Delete(after);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	qg_diags_free(&d);
	return 0;
}
