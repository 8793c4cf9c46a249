/* SPDX-License-Identifier: MIT */
/* The registry, device routing, and the shell quoting every script emitter uses. */
#include "helpers.h"

#include "../../gen/escape.h"
#include "../../gen/target.h"

static void test_registry_complete(void **state)
{
	(void)state;
	size_t n = 0;
	for (size_t i = 0; qg_targets[i]; i++, n++) {
		const struct qg_target *t = qg_targets[i];
		assert_non_null(t->name);
		assert_non_null(t->summary);
		/* Every target can be pushed: SONiC too, since issue 14's item 4. */
		assert_non_null(qg_driver_for(t));
		assert_non_null(t->settings);
		assert_non_null(t->emit);
	}
	assert_int_equal(n, 6);
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
	    cmocka_unit_test(test_routing_by_platform),
	    cmocka_unit_test(test_sh_word_quotes_everything),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
