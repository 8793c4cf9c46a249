/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../model/warnings.h"

static char *print(struct qg_diags *d, bool strict)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	qg_diags_print(d, f, strict);
	fclose(f);
	return buf;
}

static void test_sorted_compiler_form(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "x.yaml");
	qg_error(&d, (struct qg_pos){5, 3}, "second");
	qg_warning(&d, (struct qg_pos){2, 9}, QG_W_NO_ECN, "first");
	qg_note(&d, (struct qg_pos){1, 1}, "context");
	qg_error_in(&d, "t.in", (struct qg_pos){1, 1}, "template");
	qg_error(&d, (struct qg_pos){0, 0}, "whole file");
	char *out = print(&d, false);
	assert_string_equal(out, "x.yaml: error: whole file\n"
				 "x.yaml:2:9: warning: first [no-ecn]\n"
				 "x.yaml:1:1: note: context\n"
				 "x.yaml:5:3: error: second\n"
				 "t.in:1:1: error: template\n");
	free(out);
	out = print(&d, true);
	assert_non_null(strstr(out, "x.yaml:2:9: error: first [no-ecn] [--strict]\n"));
	free(out);
	assert_int_equal(d.errors, 3);
	assert_int_equal(d.warnings, 1);
	qg_diags_free(&d);
}

/* Issue 25: an acknowledged warning is kept, marked, but neither printed nor counted. */
static void test_acknowledged_warning_silent(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "x.yaml");
	qg_warning(&d, (struct qg_pos){3, 1}, QG_W_MTU_BELOW_ROCE_4096, "mtu");
	qg_note(&d, (struct qg_pos){4, 1}, "its note");
	qg_warning(&d, (struct qg_pos){5, 1}, QG_W_NO_ECN, "ecn");
	assert_true(qg_diags_failed(&d, true));
	assert_int_equal(qg_diags_acknowledge(&d, QG_W_MTU_BELOW_ROCE_4096), 1);
	assert_int_equal(qg_diags_acknowledge(&d, QG_W_MTU_BELOW_ROCE_4096), 1);
	assert_int_equal(d.warnings, 1);
	char *out = print(&d, false);
	assert_string_equal(out, "x.yaml:5:1: warning: ecn [no-ecn]\n");
	free(out);
	assert_true(qg_diags_failed(&d, true));
	assert_int_equal(qg_diags_acknowledge(&d, QG_W_NO_ECN), 1);
	assert_false(qg_diags_failed(&d, true));
	assert_int_equal(qg_diags_acknowledge(&d, QG_W_CNP_WITHOUT_ECN), 0);
	qg_diags_free(&d);
}

/* Every name is kebab-case and unique; a typo finds its name. */
static void test_warning_names(void **state)
{
	(void)state;
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++) {
		const struct qg_warning_info *w = qg_warning_info((enum qg_warning_id)i);
		assert_non_null(w);
		assert_true(strspn(w->name, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
			    strlen(w->name));
		assert_true(strlen(w->name) <= 32); /* qg_edit_distance's reach */
		/* A fixed name needs no registry: an empty set knows it. */
		const struct qg_warning_set none = {0};
		assert_int_equal(qg_warning_lookup(&none, w->name), i);
	}
	assert_null(qg_warning_info(QG_W_NONE));
	assert_null(qg_warning_info(QG_W_COUNT)); /* a model's feature id: the set names it */
	/* An old name misspelt: its name now (issue 26; test_target_features.c). */
	char near[QG_WARNING_NAME_LEN];
	assert_string_equal(qg_warning_nearest("onyx-pfc-watchdog-not-writen", near, sizeof(near)),
			    "ignored-by-onyx-pfc-watchdog");
	/* not acknowledgeable */
	assert_null(qg_warning_nearest("readback-line-skiped", near, sizeof(near)));
}

/*
 * A warning prints the name it was given, its own copy: the diagnostics
 * outlive the model whose feature warning it is (issue 38).
 */
static void test_named_warning(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "x.yaml");
	char name[QG_WARNING_NAME_LEN];
	snprintf(name, sizeof(name), "ignored-by-fake-ecn");
	qg_warning_named(&d, (struct qg_pos){3, 1}, QG_W_COUNT, name, "ecn: ignored");
	qg_warning(&d, (struct qg_pos){4, 1}, QG_W_NO_ECN, "no ecn");
	memset(name, 'x', sizeof(name) - 1);
	char *out = print(&d, false);
	assert_string_equal(out, "x.yaml:3:1: warning: ecn: ignored [ignored-by-fake-ecn]\n"
				 "x.yaml:4:1: warning: no ecn [no-ecn]\n");
	free(out);
	assert_int_equal(qg_diags_acknowledge(&d, QG_W_COUNT), 1);
	assert_int_equal(d.warnings, 1);
	qg_diags_free(&d);
}

/* A diagnostic that follows from another is removed with its notes, and no longer counts. */
static void test_remove(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "x.yaml");
	qg_error(&d, (struct qg_pos){1, 1}, "cause");
	qg_warning(&d, (struct qg_pos){2, 1}, QG_W_NO_ECN, "consequence");
	qg_note(&d, (struct qg_pos){3, 1}, "its note");
	qg_error(&d, (struct qg_pos){4, 1}, "another");
	qg_diags_remove(&d, (const size_t[]){1, 7}, 2);
	char *out = print(&d, false);
	assert_string_equal(out, "x.yaml:1:1: error: cause\nx.yaml:4:1: error: another\n");
	free(out);
	assert_int_equal(d.errors, 2);
	assert_int_equal(d.warnings, 0);
	qg_diags_remove(&d, (const size_t[]){0}, 1);
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.v[0].msg, "another");
	qg_diags_free(&d);
}

static void test_control_characters_escaped(void **state)
{
	(void)state;
	struct qg_diags d;
	qg_diags_init(&d, "x.yaml");
	qg_error(&d, (struct qg_pos){1, 1}, "'%s'", "a\nb\x1b[31m");
	char *out = print(&d, false);
	assert_string_equal(out, "x.yaml:1:1: error: 'a\\nb\\x1b[31m'\n");
	free(out);
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sorted_compiler_form),
	    cmocka_unit_test(test_control_characters_escaped),
	    cmocka_unit_test(test_acknowledged_warning_silent),
	    cmocka_unit_test(test_warning_names),
	    cmocka_unit_test(test_named_warning),
	    cmocka_unit_test(test_remove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
