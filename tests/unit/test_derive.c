/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../model/derive.h"

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

/* Only the intent's DSCPs reach a class; the rest of its DSCP/8 block is lossy (issue 23). */
static void test_dscp_map_exact(void **state)
{
	(void)state;
	struct qg_qos q = {0};
	q.lossless.priority = 3;
	q.lossless.dscp[0] = 26;
	q.lossless.n_dscp = 1;
	q.cnp = true;
	q.cnpc.priority = 6;
	q.cnpc.dscp[0] = 48;
	q.cnpc.n_dscp = 1;
	uint8_t m[64];
	for (int d = 0; d < 64; d++)
		q.dscp_prio[d] = (uint8_t)(d == 26 ? 3 : d == 48 ? 6 : d / 8);
	/* A switch of the fabric programs no map: the model's map, DSCP/8 for the rest. */
	qg_dscp_map_exact(&q, m);
	assert_int_equal(m[24], 3);
	assert_int_equal(m[49], 6);
	assert_int_equal(m[26], 3);
	q.dscp_exact = true;
	qg_dscp_map_exact(&q, m);
	assert_int_equal(qg_lossy_priority(&q), 0);
	assert_int_equal(m[26], 3);
	assert_int_equal(m[48], 6);
	for (int d = 24; d < 32; d++)
		if (d != 26)
			assert_int_equal(m[d], 0);
	for (int d = 49; d < 56; d++)
		assert_int_equal(m[d], 0);
	assert_int_equal(m[8], 1);  /* other blocks keep DSCP/8 */
	assert_int_equal(m[63], 7);
	/* A DSCP of another block listed for the class moves there alone. */
	q.lossless.dscp[1] = 34;
	q.lossless.n_dscp = 2;
	qg_dscp_map_exact(&q, m);
	assert_int_equal(m[34], 3);
	assert_int_equal(m[35], 4);
	/* With priority 0 a class's, the lossy priority is the next free one. */
	q.lossless.priority = 0;
	q.cnpc.priority = 1;
	assert_int_equal(qg_lossy_priority(&q), 2);
	qg_dscp_map_exact(&q, m);
	assert_int_equal(m[1], 2);
	assert_int_equal(m[26], 0);
	assert_int_equal(m[9], 2);
}

/* dscp_exact: set only when no switch of the fabric programs a fixed map (Onyx). */
static void test_dscp_exact_fabric(void **state)
{
	(void)state;
	struct qg_model m;
	const char *cl = "switches:\n  - {name: c1, platform: cumulus, address: c.lab, user: u, "
			 "ports: [swp1]}\n";
	const char *sn = "  - {name: s1, platform: sonic, address: s.lab, ports: [Ethernet0]}\n";
	const char *ox = "  - {name: o1, platform: onyx, address: o.lab, ports: [1/1]}\n";
	char text[2048];
	snprintf(text, sizeof(text), "%s%s%s", BASE_QOS, cl, sn);
	load_ok(text, &m);
	assert_true(m.qos.dscp_exact);
	qg_model_free(&m);
	snprintf(text, sizeof(text), "%s%s%s%s", BASE_QOS, cl, sn, ox);
	load_ok(text, &m);
	assert_false(m.qos.dscp_exact);
	uint8_t map[64];
	qg_dscp_map_exact(&m.qos, map);
	assert_int_equal(map[24], 3); /* the Onyx hop classifies 24 as lossless: so do the others */
	qg_model_free(&m);
}

/* kB as 1000 bytes, for NVUE and SONiC alike: NVIDIA's RoCE defaults 150 KB = 150000 bytes. */
/*
 * Where the switch-priorities of no class egress, on every switch OS (issue
 * 34): p on traffic class p, or where a class holds p the lowest TC neither
 * a class nor another priority holds, so each keeps a queue of its own; and
 * how their traffic classes share what the classes leave.
 */
static void test_priority_tcs_and_shares(void **state)
{
	(void)state;
	struct qg_qos q = {.cnp = true};
	q.lossless.priority = 3;
	q.cnpc.priority = 6;
	int tc[8];
	qg_priority_tcs(&q, 3, 6, tc);
	for (int p = 0; p < 8; p++)
		assert_int_equal(tc[p], p); /* Onyx's default map, and so every OS's */
	/* The lossless priority 4 on traffic class 3: priority 3 takes the TC 4 it leaves. */
	q.lossless.priority = 4;
	qg_priority_tcs(&q, 3, 6, tc);
	static const int moved[8] = {0, 1, 2, 4, 3, 5, 6, 7};
	for (int p = 0; p < 8; p++)
		assert_int_equal(tc[p], moved[p]);
	/* No CNP class: only the lossless class's TC is held; priority 0 takes the free 4. */
	q.cnp = false;
	qg_priority_tcs(&q, 0, -1, tc);
	static const int alone[8] = {4, 1, 2, 3, 0, 5, 6, 7};
	for (int p = 0; p < 8; p++)
		assert_int_equal(tc[p], alone[p]);
	/* 50 among six: 9 9 8 8 8 8; nothing to split among none. */
	int sum = 0;
	for (int k = 0; k < 6; k++) {
		assert_int_equal(qg_even_share(50, 6, k), k < 2 ? 9 : 8);
		sum += qg_even_share(50, 6, k);
	}
	assert_int_equal(sum, 50);
	assert_int_equal(qg_even_share(30, 0, 0), 0);
}

static void test_ecn_bytes(void **state)
{
	(void)state;
	assert_int_equal(qg_ecn_bytes(150), 150000);
	assert_int_equal(qg_ecn_bytes(1500), 1500000);
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
	    cmocka_unit_test(test_ecn_bytes),
	    cmocka_unit_test(test_dscp_map_exact),
	    cmocka_unit_test(test_dscp_exact_fabric),
	    cmocka_unit_test(test_priority_tcs_and_shares),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
