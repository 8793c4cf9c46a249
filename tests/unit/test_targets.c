/* SPDX-License-Identifier: MIT */
/* The registry, device routing, and the shell quoting every script emitter uses. */
#include "helpers.h"

#include "../../lib/escape.h"
#include "../../model/target.h"

/*
 * What every row of the registry holds, whatever the rows are: the registry
 * is the only list of targets (issue 26), so nothing here counts or names
 * them (tests/core/skeleton.sh adds one and runs this).
 */
static void test_registry_complete(void **state)
{
	(void)state;
	for (size_t i = 0; qg_targets[i]; i++) {
		const struct qg_target *t = qg_targets[i];
		assert_non_null(t->name);
		assert_true(strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
			    strlen(t->name));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(qg_targets[j]->name, t->name);
		assert_non_null(t->summary);
		/* A driver with no push: a compile-only target (qg_driver_for() says NULL). */
		const struct qg_driver *dr = qg_driver_for(t);
		if (dr)
			assert_ptr_equal(dr->target, t);
		assert_non_null(t->settings);
		assert_non_null(t->emit);
		if (t->kind == QG_DEVICE_SWITCH) {
			assert_non_null(t->ports);
			assert_non_null(t->ports->parse);
			assert_non_null(t->ports->format);
		}
		/* Every gap is one feature the target lacks, with its reason. */
		for (const struct qg_feature_gap *g = t->gaps; g && g->feature; g++) {
			assert_non_null(qg_feature_name(g->feature));
			assert_false(t->features & g->feature);
			assert_non_null(g->reason);
		}
	}
}

/* The platforms the loader offers for an unknown one are the registry's switch targets. */
static void test_platform_list_is_registry(void **state)
{
	(void)state;
	char want[512] = "", text[512];
	size_t o = 0;
	for (size_t i = 0; qg_targets[i]; i++)
		if (qg_targets[i]->kind == QG_DEVICE_SWITCH)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "%s%s", o ? ", " : "",
					      qg_targets[i]->name);
	snprintf(text, sizeof(text),
		 BASE_QOS
		 "switches:\n  - {name: s, platform: zz-none, address: s, ports: [1/1]}\n");
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(load_text(text, &d, &m), -1);
	char msg[600];
	snprintf(msg, sizeof(msg), "switches[s].platform: 'zz-none' is not one of: %s", want);
	if (!diag_has(&d, msg))
		qg_diags_print(&d, stderr, false);
	assert_true(diag_has(&d, msg));
	qg_diags_free(&d);
}

static void test_routing_by_platform(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("bitfusion-pvrdma.yaml", &m);
	assert_string_equal(qg_target_for(&m, QG_DEVICE_SWITCH, 0)->name, "onyx");
	assert_string_equal(qg_target_for(&m, QG_DEVICE_HOST, 0)->name, "esxi");
	assert_string_equal(qg_target_for(&m, QG_DEVICE_HOST, 4)->name, "linux");
	assert_string_equal(qg_target_for(&m, QG_DEVICE_DVS, 0)->name, "dvs");
	assert_int_equal(qg_device_count(&m, QG_DEVICE_HOST), 5);
	assert_string_equal(qg_device_name(&m, QG_DEVICE_HOST, 4), "gpu-bare-1");
	qg_model_free(&m);
}

static void test_sh_word_quotes_everything(void **state)
{
	(void)state;
	struct qg_buf b = {0};
	qg_sh_word(&b, "plain");
	qg_buf_puts(&b, " ");
	qg_sh_word(&b, "it's $(x) `y` \"z\"");
	assert_string_equal(b.data, "'plain' 'it'\\''s $(x) `y` \"z\"'");
	qg_buf_free(&b);
	/* Round trip through a real shell: the word comes back unchanged. */
	qg_buf_puts(&b, "printf %s ");
	qg_sh_word(&b, "a'b;$(false)\nc");
	FILE *p = popen(b.data, "r");
	assert_non_null(p);
	char out[64] = {0};
	size_t n = fread(out, 1, sizeof(out) - 1, p);
	pclose(p);
	assert_int_equal(n, 14);
	assert_string_equal(out, "a'b;$(false)\nc");
	qg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registry_complete),
	    cmocka_unit_test(test_platform_list_is_registry),
	    cmocka_unit_test(test_routing_by_platform),
	    cmocka_unit_test(test_sh_word_quotes_everything),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
