/* SPDX-License-Identifier: MIT */
/* lib/strmap.c: the name index behind linear validation. */
#include "helpers.h"

#include "../../lib/strmap.h"

static void test_put_get_and_first_wins(void **state)
{
	(void)state;
	struct qg_strmap m = {0};
	assert_null(qg_strmap_get(&m, "a"));
	static char names[5000][12];
	for (int i = 0; i < 5000; i++) {
		snprintf(names[i], sizeof(names[i]), "gpu%05d", i);
		assert_int_equal(qg_strmap_put(&m, names[i], &names[i], NULL), 0);
	}
	assert_int_equal(m.n, 5000);
	assert_true(m.cap >= 2 * m.n);
	for (int i = 0; i < 5000; i += 499)
		assert_ptr_equal(qg_strmap_get(&m, names[i]), &names[i]);
	void *old = NULL;
	assert_int_equal(qg_strmap_put(&m, "gpu00042", NULL, &old), 1);
	assert_ptr_equal(old, &names[42]);
	assert_ptr_equal(qg_strmap_get(&m, "gpu00042"), &names[42]);
	assert_null(qg_strmap_get(&m, "gpu05000"));
	qg_strmap_free(&m);
	assert_int_equal(m.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_put_get_and_first_wins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
