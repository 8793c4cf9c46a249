/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as what an Onyx switch answers to the shows
 * of issue 34 (`show version`, and `show traffic pool roce`, `show dcb
 * priority-flow-control`, `show dcb ets interface ethernet 1/1` as
 * json-print), each parsed by its own parser, then judged against the
 * reference intent. A switch's answers are untrusted input.
 *
 * Oracles, beyond "no crash": a release read is one the version rule takes
 * and is a prefix of the line it came from; a parsed pool's figures are
 * within what they can be (a percent of 0..99999999.99 x100 or -1, bytes
 * >= -1, words NUL-ended); the judge refuses exactly when it says why
 * (a count > 0 with a reason, 0 with none), and a switch whose answers are
 * the intent's own (the capture's pool, PFC on, each TC as configured) is
 * never refused.
 */
#include "../../intent/intent.h"
#include "../../targets/onyx/onyx_config.h"
#include "../../targets/onyx/onyx_oper.h"
#include "../../targets/onyx/onyx_verdict.h"
#include "../../targets/onyx/onyx_version.h"
#include "../../targets/registry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INTENT                                                                                     \
	"version: 1\nfabric: f\nqos:\n"                                                            \
	"  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, "           \
	"ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"                        \
	"  cnp: {priority: 6, dscp: 48, ets: strict}\n"                                            \
	"switches:\n  - {name: s, platform: onyx, address: s, ports: [1/1]}\n"

static struct onyx_config want;

static void bounded(const char *w, size_t cap)
{
	if (!memchr(w, '\0', cap))
		abort();
}

static void check_version(const char *text, size_t size)
{
	char out[QG_VERSION_LEN], err[300];
	if (onyx_version_parse(text, size, out, sizeof(out), err, sizeof(err)) != 0) {
		bounded(err, sizeof(err));
		return;
	}
	if (!qg_version_ok(out) || !memmem(text, size, out, strlen(out)))
		abort();
}

static void check_verdict(const char *text, size_t size)
{
	char err[300], why[600];
	struct onyx_oper o = {0};
	struct onyx_oper_ets ets;
	struct qg_buf warn = {0};
	int pool = onyx_oper_pool_parse(text, size, "roce", &o.pool, err, sizeof(err));
	if (pool == 0) {
		if (o.pool.percent_centi < -1 || o.pool.actual_bytes < -1)
			abort();
		bounded(o.pool.type, sizeof(o.pool.type));
		bounded(o.pool.actual, sizeof(o.pool.actual));
	}
	int pfc = onyx_oper_pfc_parse(text, size, &o.pfc, err, sizeof(err));
	if (pfc == 0 && (o.pfc.n == 0 || o.pfc.n > ONYX_OPER_PFC_PORTS))
		abort();
	int e = onyx_oper_ets_parse(text, size, "Eth1/1", &ets, err, sizeof(err));
	for (int tc = 0; e == 0 && tc < 8; tc++)
		if (ets.tc[tc].weight < -1 || ets.tc[tc].weight > 1000)
			abort();
	o.ets = e == 0 ? &ets : NULL;
	struct onyx_expect expect = {6186598, ONYX_FIGURE_TOLERANCE_PCT};
	why[0] = '\0';
	int n = onyx_verdict_judge(&want, &o, &expect, why, sizeof(why), &warn);
	if (n < 0 || (n > 0) != (why[0] != '\0'))
		abort();
	onyx_oper_pfc_free(&o.pfc);
	qg_buf_free(&warn);
}

/* The switch holding the intent: never refused, whatever the judge reads in between. */
static void check_holding(void)
{
	static const char pool[] = "{\"roce\": [{\"Type\": \"lossless\", \"Switch Priorities\": \"3\", "
				   "\"Memory actual\": \"5.9M\", \"Memory [%]\": \"50.00\"}]}";
	static const char pfc[] = "[{}, {\"Priority Enabled List\": \"3\"}, {\"Eth1/1\": "
				  "[{\"PFC admin\": \"Auto\", \"PFC oper\": \"Enabled\"}]}]";
	struct onyx_oper o = {0};
	struct onyx_oper_ets ets;
	char err[300], why[600];
	struct qg_buf warn = {0};
	if (onyx_oper_pool_parse(pool, strlen(pool), "roce", &o.pool, err, sizeof(err)) ||
	    onyx_oper_pfc_parse(pfc, strlen(pfc), &o.pfc, err, sizeof(err)))
		abort();
	for (int tc = 0; tc < 8; tc++) {
		const struct onyx_tc_cfg *w = &want.ports[0].tc[tc];
		ets.tc[tc] = (struct onyx_oper_tc){true, w->ets, "x", w->weight};
	}
	o.ets = &ets;
	if (onyx_verdict_judge(&want, &o, NULL, why, sizeof(why), &warn) != 0)
		abort();
	onyx_oper_pfc_free(&o.pfc);
	qg_buf_free(&warn);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		struct qg_diags d;
		struct qg_model m;
		qg_diags_init(&d, "intent");
		if (qg_intent_load(INTENT, strlen(INTENT), qg_targets, &d, &m) != 0 ||
		    onyx_config_from_model(&m, 0, &want) != 0)
			abort();
		qg_model_free(&m);
		qg_diags_free(&d);
		check_holding();
		ready = 1;
	}
	/* Not NUL-ended: every parser must stay within size. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	check_version(text, size);
	check_verdict(text, size);
	free(text);
	return 0;
}
