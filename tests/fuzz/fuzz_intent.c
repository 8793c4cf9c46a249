/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as an intent file. Whatever the input, loading
 * must not crash or leak, and a valid intent must build with every target.
 * Built by `make fuzz-build` with ASan+UBSan; `make test` runs it briefly,
 * `make fuzz FUZZ_SECONDS=N` for longer.
 */
#include "../../emit/build.h"
#include "../../emit/explain.h"
#include "../../intent/intent.h"
#include "../../targets/registry.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qg_templates t;
	static int loaded;
	struct qg_diags d;
	qg_diags_init(&d, "fuzz.yaml");
	if (!loaded) {
		if (qg_templates_load(&t, NULL, &d) != 0)
			abort();
		loaded = 1;
	}
	struct qg_model m;
	if (qg_intent_load((const char *)data, size, qg_targets, &d, &m) == 0) {
		struct qg_outset o = {0};
		struct qg_checked ok;
		int rc = qg_build_check(&m, &d, &ok);
		if (rc == 0)
			rc = qg_build(&ok, &t, &d, &o);
		/* A valid model either builds or is refused by a target's check. */
		if (rc != 0 && rc != -1)
			abort();
		if (rc == -1 && d.errors == 0)
			abort();
		cJSON_Delete(qg_explain_json(&m));
		qg_outset_free(&o);
		qg_model_free(&m);
	} else if (d.errors == 0 && !d.oom) {
		abort(); /* a refused intent always says why */
	}
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		qg_diags_print(&d, null, false);
		fclose(null);
	}
	qg_diags_free(&d);
	return 0;
}
