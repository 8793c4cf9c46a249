/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../gen/derive.h"

static void test_tos_106_with_ecn_104_without(void **state)
{
	(void)state;
	struct qg_qos q = {0};
	q.lossless.dscp[0] = 26;
	q.lossless.n_dscp = 1;
	q.ecn = true;
	assert_int_equal(qg_roce_tos(&q), 106);
	assert_int_equal(qg_roce_tos_without_ecn(&q), 104);
	q.ecn = false;
	assert_int_equal(qg_roce_tos(&q), 104);
	q.lossless.dscp[0] = 46;
	q.ecn = true;
	assert_int_equal(qg_roce_tos(&q), 46 * 4 + 2);
}

static void test_pfc_vector_and_bitmap(void **state)
{
	(void)state;
	char v[16];
	qg_pfc_vector(3, v);
	assert_string_equal(v, "0,0,0,1,0,0,0,0");
	qg_pfc_vector(0, v);
	assert_string_equal(v, "1,0,0,0,0,0,0,0");
	qg_pfc_vector(7, v);
	assert_string_equal(v, "0,0,0,0,0,0,0,1");
	assert_int_equal(qg_pfc_bitmap(3), 0x08);
	assert_int_equal(qg_pfc_bitmap(5), 0x20);
	assert_int_equal(qg_pfc_bitmap(8), 0);
}

static void test_path_mtu(void **state)
{
	(void)state;
	/* rxe in the notes: netdev 9000 -> active_mtu 4096, 1500 -> 1024. */
	assert_int_equal(qg_roce_path_mtu(9000), 4096);
	assert_int_equal(qg_roce_path_mtu(1500), 1024);
	assert_int_equal(qg_roce_path_mtu(4192), 4096);
	assert_int_equal(qg_roce_path_mtu(4191), 2048);
	assert_int_equal(qg_roce_path_mtu(352), 256);
	assert_int_equal(qg_roce_path_mtu(351), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tos_106_with_ecn_104_without),
	    cmocka_unit_test(test_pfc_vector_and_bitmap),
	    cmocka_unit_test(test_path_mtu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
