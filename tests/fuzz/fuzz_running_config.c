/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a switch's `show running-config`, parsed and
 * diffed against the reference intent. Read-back comes from devices, so it is
 * untrusted input like the intent itself.
 */
#include "../../gen/intent.h"
#include "../../targets/onyx/onyx_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char intent[] =
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
    "switches:\n  - {name: s, platform: onyx, address: s, ports: [1/1-1/32, 1/33/1-1/33/4]}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qg_model m;
	static struct onyx_config want;
	static int ready;
	struct qg_diags d;
	qg_diags_init(&d, "running-config");
	if (!ready) {
		if (qg_intent_load(intent, strlen(intent), &d, &m) != 0 ||
		    onyx_config_from_model(&m, 0, &want) != 0)
			abort();
		ready = 1;
	}
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct onyx_config have;
	if (onyx_config_parse(text, &have, &d) == 0) {
		struct qg_buf out = {0};
		onyx_config_diff(&want, &have, &out);
		qg_buf_free(&out);
		onyx_config_free(&have);
	}
	free(text);
	qg_diags_free(&d);
	return 0;
}
