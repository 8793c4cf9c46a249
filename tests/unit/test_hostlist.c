/* SPDX-License-Identifier: MIT */
/* lib/hostlist.c: host lists as Slurm writes them. */
#include "helpers.h"

#include "../../lib/hostlist.h"

static void expect_names(const char *pattern, size_t count, const char *first, const char *last)
{
	struct qg_hostlist hl;
	char err[128], name[64];
	assert_int_equal(qg_hostlist_parse(pattern, &hl, err, sizeof(err)), 0);
	assert_int_equal(hl.count, count);
	assert_true(qg_hostlist_name(&hl, 0, name, sizeof(name)));
	assert_string_equal(name, first);
	assert_true(qg_hostlist_name(&hl, count - 1, name, sizeof(name)));
	assert_string_equal(name, last);
	qg_hostlist_free(&hl);
}

static void test_expansions(void **state)
{
	(void)state;
	expect_names("gpu-[001-512]", 512, "gpu-001", "gpu-512");
	expect_names("n[1-3,7,10-11]x", 6, "n1x", "n11x");
	expect_names("r[1-2]-n[01-16]", 32, "r1-n01", "r2-n16");
	expect_names("plain", 1, "plain", "plain");
	struct qg_hostlist hl;
	char err[128], name[64];
	assert_int_equal(qg_hostlist_parse("r[1-2]n[1-3]", &hl, err, sizeof(err)), 0);
	assert_true(qg_hostlist_name(&hl, 3, name, sizeof(name)));
	assert_string_equal(name, "r2n1"); /* the last bracket varies fastest */
	qg_hostlist_free(&hl);
}

static void test_errors(void **state)
{
	(void)state;
	static const char *const bad[] = {"gpu-[001-512", "gpu-]",  "gpu-[9-1]",
					  "gpu-[a-b]",	  "gpu-[]", "x[1-1000]y[1-1001]"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct qg_hostlist hl;
		char err[128] = "";
		assert_int_equal(qg_hostlist_parse(bad[i], &hl, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
	struct qg_hostlist hl;
	char err[128], small[5]; /* "gpu-1" and its NUL are 6 */
	assert_int_equal(qg_hostlist_parse("gpu-[1-9]", &hl, err, sizeof(err)), 0);
	assert_false(qg_hostlist_name(&hl, 0, small, sizeof(small)));
	qg_hostlist_free(&hl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_expansions),
	    cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
