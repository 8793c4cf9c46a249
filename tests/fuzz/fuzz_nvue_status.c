/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target (issue 34): any bytes as NVUE's answers the Cumulus driver
 * reads before and after a change: GET /nvue_v1/system (the running release,
 * nvue_system_version) and the RoCE status (nvue_verdict_roce, and as a
 * port's status nvue_verdict_port), judged against the reference intent.
 *
 * Oracles: a version taken keeps QG_VERSION_RULE and is the build's own
 * numbers ("Cumulus Linux " then them, at most a lower-case letter after);
 * a status held runs the intent's mode and PFC on its priority; whatever
 * the answer, a refusal's words hold no control byte (the switch's text
 * escaped) and fit their buffer.
 */
#include "../../intent/intent.h"
#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_dialect.h"
#include "../../targets/cumulus/nvue_verdict.h"
#include "../../targets/registry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char intent[] =
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
    "switches:\n  - {name: s, platform: cumulus, address: s, ports: [swp1-2]}\n";

static cJSON *want;

/* No byte below 0x20 (the escape writes them as text) in what qosgen prints. */
static void clean(const char *err, size_t cap)
{
	if (strnlen(err, cap) >= cap)
		abort();
	for (const unsigned char *p = (const unsigned char *)err; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(stderr, "a control byte in: %s\n", err);
			abort();
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
		want = nvue_config_from_model(&m, 0);
		qg_model_free(&m);
		qg_diags_free(&d);
		if (!want)
			abort();
	}
	cJSON *answer = cJSON_ParseWithLength((const char *)data, size);
	if (!answer)
		return 0;
	char v[QG_VERSION_LEN], err[512];
	err[0] = '\0';
	if (nvue_system_version(answer, v, sizeof(v), err, sizeof(err)) == 0) {
		const char *build =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "build"));
		size_t n = strlen(v);
		if (!qg_version_ok(v) || !build || strncmp(build, "Cumulus Linux ", 14) ||
		    strncmp(build + 14, v, n) || strlen(build + 14 + n) > 1)
			abort();
	} else {
		clean(err, sizeof(err));
	}
	err[0] = '\0';
	if (nvue_verdict_roce(want, answer, err, sizeof(err)) == 0) {
		const cJSON *pfc = cJSON_GetObjectItemCaseSensitive(answer, "pfc");
		const char *mode =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "mode"));
		if (!mode || strcmp(mode, "lossless") ||
		    !nvue_list_has(cJSON_GetObjectItemCaseSensitive(pfc, "pfc-priority"), 3))
			abort();
	} else {
		clean(err, sizeof(err));
	}
	err[0] = '\0';
	if (nvue_verdict_port(want, "swp1", answer, err, sizeof(err)) != 0)
		clean(err, sizeof(err));
	cJSON_Delete(answer);
	return 0;
}
