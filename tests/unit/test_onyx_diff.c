/* SPDX-License-Identifier: MIT */
/* Onyx command texts (onyx_diff.h): the pieces the diff and the rollback share. */
#include "helpers.h"

#include "../../targets/onyx/onyx.h"
#include "../../targets/onyx/onyx_diff.h"

/* Ports that need the same command share a line, their runs compressed. */
static void test_groups_compress_runs(void **state)
{
	(void)state;
	struct onyx_groups g = {0};
	struct qg_buf out = {0};
	for (int p = 1; p <= 3; p++)
		onyx_groups_add(&g, "mtu 9216 force", &(struct qg_port){1, p, 0});
	onyx_groups_add(&g, "mtu 1500 force", &(struct qg_port){1, 7, 0});
	onyx_groups_add(&g, "mtu 9216 force", &(struct qg_port){1, 9, 0});
	onyx_groups_flush(&g, ONYX_SEC_INTERFACE, &out);
	assert_false(out.failed);
	assert_string_equal(out.data, "0\tinterface ethernet 1/1-1/3 mtu 9216 force\n"
				      "0\tinterface ethernet 1/9 mtu 9216 force\n"
				      "0\tinterface ethernet 1/7 mtu 1500 force\n");
	/* Flushed groups are empty: a second flush prints nothing. */
	size_t len = out.len;
	onyx_groups_flush(&g, ONYX_SEC_QOS, &out);
	assert_int_equal(out.len, len);
	onyx_groups_free(&g);
	qg_buf_free(&out);
}

/* A value at Onyx's default is the "no" form; thresholds say relative or absolute. */
static void test_port_texts(void **state)
{
	(void)state;
	char what[128];
	onyx_mtu_text(what, sizeof(what), 9216);
	assert_string_equal(what, "mtu 9216 force");
	onyx_trust_text(what, sizeof(what), "L3");
	assert_string_equal(what, "qos trust L3");
	struct onyx_tc_cfg t = {0};
	onyx_cc_text(what, sizeof(what), 3, &t);
	assert_string_equal(what, "no traffic-class 3 congestion-control");
	t = (struct onyx_tc_cfg){.cc = ONYX_CC_ECN, .cc_min = 150, .cc_max = 1500};
	onyx_cc_text(what, sizeof(what), 3, &t);
	assert_string_equal(what, "traffic-class 3 congestion-control ecn minimum-absolute 150 "
				  "maximum-absolute 1500");
	t = (struct onyx_tc_cfg){.cc = ONYX_CC_BOTH, .relative = true, .cc_min = 10, .cc_max = 90};
	onyx_cc_text(what, sizeof(what), 1, &t);
	assert_string_equal(what, "traffic-class 1 congestion-control both minimum-relative 10 "
				  "maximum-relative 90");
	t = (struct onyx_tc_cfg){.ets = QG_ETS_UNSET};
	onyx_ets_text(what, sizeof(what), 0, &t);
	assert_string_equal(what, "no traffic-class 0 dcb ets");
	t = (struct onyx_tc_cfg){.ets = QG_ETS_STRICT};
	onyx_ets_text(what, sizeof(what), 6, &t);
	assert_string_equal(what, "traffic-class 6 dcb ets strict");
	t = (struct onyx_tc_cfg){.ets = QG_ETS_WRR, .weight = 50};
	onyx_ets_text(what, sizeof(what), 3, &t);
	assert_string_equal(what, "traffic-class 3 dcb ets wrr 50");
}

/* Off is off whatever thresholds a struct carries; a WRR weight only counts under WRR. */
static void test_tc_differs(void **state)
{
	(void)state;
	struct onyx_tc_cfg a = {.cc = ONYX_CC_NONE, .cc_min = 5}, b = {.cc = ONYX_CC_NONE};
	assert_false(onyx_tc_cc_differs(&a, &b));
	b.cc = ONYX_CC_ECN;
	assert_true(onyx_tc_cc_differs(&a, &b));
	a = b;
	a.relative = true;
	assert_true(onyx_tc_cc_differs(&a, &b));
	a = (struct onyx_tc_cfg){.ets = QG_ETS_STRICT, .weight = 10};
	b = (struct onyx_tc_cfg){.ets = QG_ETS_STRICT, .weight = 20};
	assert_false(onyx_tc_ets_differs(&a, &b));
	a.ets = b.ets = QG_ETS_WRR;
	assert_true(onyx_tc_ets_differs(&a, &b));
}

static void test_pool_map_line(void **state)
{
	(void)state;
	struct qg_buf out = {0};
	onyx_pool_map_line(&out, "roce", false, 0);
	assert_int_equal(out.len, 0);
	onyx_pool_map_line(&out, "roce", true, (1u << 3) | (1u << 5));
	onyx_pool_map_line(&out, "roce", false, 1u << 3);
	assert_string_equal(out.data, "1\tno traffic pool roce map switch-priority 3 5\n"
				      "1\ttraffic pool roce map switch-priority 3\n");
	qg_buf_free(&out);
}

/* Only a well-formed command list is read: nothing from a broken one is sent. */
static void test_cmds_next(void **state)
{
	(void)state;
	const char *cur = "2\tinterface ethernet 1/1 qos trust L3\n3\tbroken line\n";
	int section;
	const char *line;
	size_t len;
	assert_true(onyx_cmds_next(&cur, &section, &line, &len));
	assert_int_equal(section, ONYX_SEC_QOS);
	assert_int_equal(len, strlen("interface ethernet 1/1 qos trust L3"));
	assert_memory_equal(line, "interface ethernet 1/1 qos trust L3", len);
	assert_true(onyx_cmds_next(&cur, &section, &line, &len));
	assert_false(onyx_cmds_next(&cur, &section, &line, &len));
	cur = "no tab here\n";
	assert_false(onyx_cmds_next(&cur, &section, &line, &len));
	cur = NULL;
	assert_false(onyx_cmds_next(&cur, &section, &line, &len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_groups_compress_runs),
	    cmocka_unit_test(test_port_texts),
	    cmocka_unit_test(test_tc_differs),
	    cmocka_unit_test(test_pool_map_line),
	    cmocka_unit_test(test_cmds_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
