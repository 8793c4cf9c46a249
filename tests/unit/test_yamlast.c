/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../intent/yamlast.h"

static struct qg_ynode *parse(const char *text, struct qg_diags *d)
{
	qg_diags_init(d, "t.yaml");
	return qg_yaml_parse(text, strlen(text), d);
}

static void test_positions(void **state)
{
	(void)state;
	struct qg_diags d;
	struct qg_ynode *r = parse("a: 1\nb:\n  - x\n  - 'y'\n", &d);
	assert_non_null(r);
	assert_int_equal(r->kind, QG_Y_MAP);
	assert_int_equal(qg_ymap_len(r), 2);
	const struct qg_ynode *b = r->kids[3];
	assert_int_equal(b->kind, QG_Y_SEQ);
	assert_int_equal(b->n_kids, 2);
	assert_int_equal(b->kids[1]->pos.line, 4);
	assert_int_equal(b->kids[1]->pos.col, 5);
	assert_true(b->kids[0]->plain);
	assert_false(b->kids[1]->plain);
	assert_string_equal(b->kids[1]->value, "y");
	qg_yaml_free(r);
	qg_diags_free(&d);
}

static void test_alias_refused(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("a: &x [1]\nb: *x\n", &d));
	assert_true(diag_has(&d, "alias '*x'"));
	assert_int_equal(d.v[0].pos.line, 2);
	qg_diags_free(&d);
}

static void test_two_documents_refused(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("a: 1\n---\nb: 2\n", &d));
	assert_true(diag_has(&d, "second YAML document"));
	qg_diags_free(&d);
}

static void test_depth_bounded(void **state)
{
	(void)state;
	char text[200];
	memset(text, '[', 100);
	memset(text + 100, ']', 99);
	text[199] = '\0';
	text[100 + 98] = ']';
	struct qg_diags d;
	assert_null(parse(text, &d));
	assert_true(diag_has(&d, "nesting deeper than"));
	qg_diags_free(&d);
}

static void test_complex_key_refused(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("? [a, b]\n: 1\n", &d));
	assert_true(diag_has(&d, "mapping key must be a scalar"));
	qg_diags_free(&d);
}

static void test_nul_refused(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("a: \"x\\0y\"\n", &d));
	assert_true(diag_has(&d, "NUL character"));
	qg_diags_free(&d);
}

static void test_syntax_error_position(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("a: [1, 2\nb: 3\n", &d));
	assert_true(d.errors >= 1);
	assert_true(diag_has(&d, "yaml:"));
	assert_int_equal(d.v[0].pos.line, 2);
	qg_diags_free(&d);
}

static void test_empty_document(void **state)
{
	(void)state;
	struct qg_diags d;
	assert_null(parse("# nothing\n", &d));
	assert_int_equal(d.errors, 0);
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_positions),
	    cmocka_unit_test(test_alias_refused),
	    cmocka_unit_test(test_two_documents_refused),
	    cmocka_unit_test(test_depth_bounded),
	    cmocka_unit_test(test_complex_key_refused),
	    cmocka_unit_test(test_nul_refused),
	    cmocka_unit_test(test_syntax_error_position),
	    cmocka_unit_test(test_empty_document),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
