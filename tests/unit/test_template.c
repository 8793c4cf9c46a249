/* SPDX-License-Identifier: MIT */
#include "helpers.h"

static void test_fill(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "t");
	struct qg_buf b = {0};
	const struct qg_tvar vars[] = {{"a", "1"}, {"b_2", "two"}};
	assert_int_equal(qg_template_fill_text("x{{a}}y{{b_2}}{z}\n", "t.in", vars, 2, &b, &d), 0);
	assert_string_equal(b.data, "x1ytwo{z}\n");
	qg_buf_free(&b);
	qg_diags_free(&d);
}

static void test_unknown_unfilled_malformed(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "t");
	struct qg_buf b = {0};
	const struct qg_tvar vars[] = {{"a", "1"}, {"empty", NULL}};
	assert_int_equal(
	    qg_template_fill_text("{{a}}\n {{nope}} {{empty}}\n{{ a }}", "t.in", vars, 2, &b, &d),
	    -1);
	assert_int_equal(d.errors, 3);
	assert_true(diag_has(&d, "unknown placeholder '{{nope}}'"));
	assert_true(diag_has(&d, "has no value"));
	assert_true(diag_has(&d, "malformed placeholder"));
	assert_string_equal(d.v[0].file, "t.in");
	assert_int_equal(d.v[0].pos.line, 2);
	assert_int_equal(d.v[0].pos.col, 2);
	qg_buf_free(&b);
	qg_diags_free(&d);
}

static void test_builtin_and_override(void **state)
{
	(void)state;
	char dir[] = "/tmp/qg-tmpl-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/onyx.cli.in", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("site {{switch}}\n{{body}}", f);
	fclose(f);
	struct qg_diags d;
	qg_diags_init(&d, "t");
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, dir, &d), 0);
	bool saw_override = false, saw_builtin = false;
	for (size_t i = 0; i < t.n; i++) {
		if (!strcmp(t.name[i], "onyx.cli"))
			saw_override = !strcmp(t.text[i], "site {{switch}}\n{{body}}");
		if (!strcmp(t.name[i], "prelude.sh"))
			saw_builtin = strstr(t.text[i], "qg_report()") != NULL;
	}
	assert_true(saw_override);
	assert_true(saw_builtin);
	qg_templates_free(&t);
	qg_diags_free(&d);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fill),
	    cmocka_unit_test(test_unknown_unfilled_malformed),
	    cmocka_unit_test(test_builtin_and_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
