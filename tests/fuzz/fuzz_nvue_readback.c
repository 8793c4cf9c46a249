/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a Cumulus switch's NVUE configuration (JSON
 * or YAML), parsed, judged and diffed against the reference intent; the
 * REST API's answers are untrusted input like the intent.
 *
 * Convergence oracle: when the read-back is judged, the merge patch the diff
 * proposes, applied here by an RFC 7396 merge of this file's own, must give
 * exactly the intent on what qosgen owns: every leaf qosgen writes equal,
 * every set it writes exact, the lossless priority in no other pool, the
 * pools within 100 % of the buffer; and a second diff must be empty.
 *
 * History oracle (issue 23), over pairs of intents: the first two bytes pick
 * intents A and B of a table of policy changes (priority, DSCP and CNP
 * moves, ECN, ETS mode and weight, watchdog, trust, MTU, pool, cable,
 * classes dropped), the rest is the switch as found. A's patch, then B's on
 * its result, must leave what B owns exactly as B's patch on an empty
 * (factory) configuration does: every leaf B writes equal, every leaf B
 * unsets (null) absent, every set exact.
 */
#include "../../intent/intent.h"
#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_patch.h"
#include "../../targets/cumulus/nvue_readback.h"
#include "../../targets/cumulus/nvue_text.h"
#include "../../targets/registry.h"

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
    "switches:\n  - {name: s, platform: cumulus, address: s, ports: [swp1-8, swp9s0-3]}\n";

static cJSON *want;

/* The policies of the history oracle; the switch line is appended. */
#define SW "switches:\n  - {name: s, platform: cumulus, address: s, ports: [swp1-8, swp9s0-3]"
static const char *const history[] = {
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: r, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n" SW "}\n",
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 4, dscp: [34], pool: {name: r, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 70}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n  pfc_watchdog: true\n" SW "}\n",
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: r, "
    "memory_percent: 50}, ecn: {min_kb: 200, max_kb: 2000}}\n"
    "  cnp: {priority: 5, dscp: 40, ets: {mode: wrr, weight: 10}}\n  pfc_watchdog: false\n" SW
    "}\n",
    "version: 1\nfabric: f\nqos:\n  trust: pcp\n  lossless: {priority: 3, dscp: [26], pool: "
    "{name: r, memory_percent: 60}, ets: strict}\n  cnp: {priority: 6, dscp: 48}\n" SW "}\n",
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 2, traffic_class: 0, dscp: [16], "
    "pool: {name: r, memory_percent: 40}, ecn: {min_kb: 100, max_kb: 900}}\n" SW
    ", cable_length_m: 30}\n",
    "version: 1\nfabric: f\nqos:\n  switch_mtu: 9100\n  lossless: {priority: 5, dscp: [40, "
    "42], pool: {name: r, memory_percent: 50}}\n  pfc_watchdog: {detection_ms: 500, poll_ms: "
    "200}\n" SW "}\n",
};
#define N_HISTORY (sizeof(history) / sizeof(history[0]))
static cJSON *history_want[N_HISTORY];

/* RFC 7396, written here again so that the oracle does not trust the code it checks. */
static cJSON *merge(cJSON *target, const cJSON *patch)
{
	if (!cJSON_IsObject(patch)) {
		cJSON_Delete(target);
		return cJSON_Duplicate(patch, true);
	}
	if (!cJSON_IsObject(target)) {
		cJSON_Delete(target);
		target = cJSON_CreateObject();
	}
	for (const cJSON *p = patch->child; p; p = p->next) {
		if (cJSON_IsNull(p)) {
			cJSON_DeleteItemFromObjectCaseSensitive(target, p->string);
			continue;
		}
		cJSON *old = cJSON_DetachItemFromObjectCaseSensitive(target, p->string);
		cJSON_AddItemToObject(target, p->string, merge(old, p));
	}
	return target;
}

static bool same_leaf(const cJSON *w, const cJSON *a)
{
	char text[64];
	if (!a)
		return false;
	if (cJSON_IsNumber(w)) {
		snprintf(text, sizeof(text), "%ld", (long)w->valuedouble);
		return cJSON_IsNumber(a) ? a->valuedouble == w->valuedouble
					 : cJSON_IsString(a) && !strcmp(a->valuestring, text);
	}
	return cJSON_IsString(a) && !strcmp(a->valuestring, w->valuestring);
}

/* Say where the oracle found the patch wrong, and fail. */
static bool wrong(const char *key, const cJSON *a)
{
	char *s = a ? cJSON_PrintUnformatted(a) : NULL;
	fprintf(stderr, "at '%s': after the patch: %s\n", key ? key : "(root)", s ? s : "absent");
	cJSON_free(s);
	return false;
}

/* Every leaf of w in a, every set of w exactly in a (default-lossy aside: it shares). */
static bool owned_equal(const cJSON *w, const cJSON *a, const char *key)
{
	if (key && !strcmp(key, "default-lossy"))
		return true;
	if (cJSON_IsNull(w)) /* owned, unset: absent after the patch */
		return !a || cJSON_IsNull(a) || wrong(key, a);
	if (!cJSON_IsObject(w))
		return same_leaf(w, a) || wrong(key, a);
	if (!cJSON_IsObject(a))
		return wrong(key, a);
	bool set = w->child != NULL;
	for (const cJSON *c = w->child; c; c = c->next)
		set &= cJSON_IsObject(c) && !c->child;
	if (set && cJSON_GetArraySize(a) != cJSON_GetArraySize(w))
		return wrong(key, a);
	for (const cJSON *c = w->child; c; c = c->next)
		if (!owned_equal(c, cJSON_GetObjectItemCaseSensitive(a, c->string), c->string))
			return false;
	return true;
}

/* The pools: the lossless priority only in roce-lossless, at most 100 % in all. */
static bool pools_sound(const cJSON *after)
{
	const cJSON *pools = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(after, "qos"), "traffic-pool");
	double total = 0;
	for (const cJSON *p = pools ? pools->child : NULL; p; p = p->next) {
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(p, "memory-percent");
		total += cJSON_IsNumber(pct)   ? pct->valuedouble
			 : cJSON_IsString(pct) ? strtod(pct->valuestring, NULL)
					       : 0;
		const cJSON *sp = cJSON_GetObjectItemCaseSensitive(p, "switch-priority");
		if (strcmp(p->string, NVUE_POOL_LOSSLESS) &&
		    cJSON_GetObjectItemCaseSensitive(sp, "3"))
			return false;
	}
	return total <= 100;
}

/* The patch for w on a configuration, applied; NULL when the judge refuses it. */
static cJSON *pushed(const cJSON *w, cJSON *config)
{
	struct qg_diags d;
	qg_diags_init(&d, "history");
	bool refused = nvue_config_judge(w, config, &d) > 0, oom = false;
	qg_diags_free(&d);
	if (refused) {
		cJSON_Delete(config);
		return NULL;
	}
	cJSON *patch = nvue_config_patch(w, config, &oom);
	if (oom)
		abort();
	cJSON *out = patch ? merge(config, patch) : config;
	cJSON_Delete(patch);
	return out;
}

/* What w owns agrees in a and b: w's leaves equal, its nulls absent, its sets exact. */
static bool history_same(const cJSON *w, const cJSON *a, const cJSON *b, const char *key)
{
	if (key && !strcmp(key, "default-lossy"))
		return true; /* shared with the switch's other pools */
	if (cJSON_IsNull(w))
		return ((!a || cJSON_IsNull(a)) && (!b || cJSON_IsNull(b))) || wrong(key, a);
	if (!cJSON_IsObject(w))
		return (same_leaf(w, a) && same_leaf(w, b)) || wrong(key, a);
	bool set = w->child != NULL;
	for (const cJSON *c = w->child; c; c = c->next)
		set &= cJSON_IsObject(c) && !c->child;
	if (set && (cJSON_GetArraySize(a) != cJSON_GetArraySize(w) ||
		    cJSON_GetArraySize(b) != cJSON_GetArraySize(w)))
		return wrong(key, a);
	for (const cJSON *c = w->child; c; c = c->next)
		if (!history_same(c, cJSON_GetObjectItemCaseSensitive(a, c->string),
				  cJSON_GetObjectItemCaseSensitive(b, c->string), c->string))
			return false;
	return true;
}

static void history_check(uint8_t ia, uint8_t ib, const cJSON *found)
{
	const cJSON *wa = history_want[ia % N_HISTORY], *wb = history_want[ib % N_HISTORY];
	cJSON *after = pushed(wa, cJSON_Duplicate(found, true));
	after = after ? pushed(wb, after) : NULL;
	cJSON *factory = pushed(wb, cJSON_CreateObject());
	if (!factory)
		abort(); /* an empty switch takes every intent */
	if (after && !history_same(wb, after, factory, NULL)) {
		fprintf(stderr, "history: intent %d then %d differs from %d on a factory switch\n",
			ia % (int)N_HISTORY, ib % (int)N_HISTORY, ib % (int)N_HISTORY);
		abort();
	}
	cJSON_Delete(after);
	cJSON_Delete(factory);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!want) {
		struct qg_diags d;
		struct qg_model m;
		qg_diags_init(&d, "intent");
		if (qg_intent_load(intent, strlen(intent), qg_targets, &d, &m) != 0)
			abort();
		want = nvue_config_from_model(&m, 0);
		qg_model_free(&m);
		qg_diags_free(&d);
		if (!want)
			abort();
		for (size_t k = 0; k < N_HISTORY; k++) {
			qg_diags_init(&d, "history");
			if (qg_intent_load(history[k], strlen(history[k]), qg_targets, &d, &m) != 0) {
				for (size_t e = 0; e < d.n; e++)
					fprintf(stderr, "history %zu: %s\n", k, d.v[e].msg);
				abort();
			}
			history_want[k] = nvue_config_from_model(&m, 0);
			qg_model_free(&m);
			qg_diags_free(&d);
			if (!history_want[k])
				abort();
		}
	}
	if (size >= 2) {
		/* The pair, then the switch as found: the rest, or a factory one. */
		struct qg_diags hd;
		qg_diags_init(&hd, "readback");
		cJSON *found = NULL;
		if (nvue_config_parse((const char *)data + 2, size - 2, &found, &hd) != 0) {
			cJSON_Delete(found);
			found = cJSON_CreateObject();
		}
		qg_diags_free(&hd);
		history_check(data[0], data[1], found);
		cJSON_Delete(found);
	}
	struct qg_diags d;
	qg_diags_init(&d, "readback");
	cJSON *have = NULL;
	if (nvue_config_parse((const char *)data, size, &have, &d) != 0 ||
	    nvue_config_judge(want, have, &d) > 0) {
		cJSON_Delete(have);
		qg_diags_free(&d);
		return 0;
	}
	bool oom;
	cJSON *patch = nvue_config_patch(want, have, &oom);
	if (oom)
		abort();
	struct qg_buf cmds = {0};
	nvue_emit_commands(patch, &cmds);
	qg_buf_free(&cmds);
	cJSON *after =
	    patch ? merge(cJSON_Duplicate(have, true), patch) : cJSON_Duplicate(have, true);
	if (!owned_equal(want, after, NULL) || !pools_sound(after)) {
		fprintf(stderr, "the proposed patch does not give the intent\n");
		abort();
	}
	cJSON *again = nvue_config_patch(want, after, &oom);
	if (again) {
		char *s = cJSON_PrintUnformatted(again);
		fprintf(stderr, "a second diff is not empty: %s\n", s ? s : "?");
		abort();
	}
	cJSON_Delete(after);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	qg_diags_free(&d);
	return 0;
}
