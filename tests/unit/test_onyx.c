/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../targets/onyx/onyx.h"
#include "../../targets/onyx/onyx_diff.h"
#include "../../emit/explain.h"

#include <cjson/cJSON.h>

/*
 * The six QoS lines of the reference switch configuration, verbatim from the
 * RDG (tests/fixtures/onyx/rdg_vsphere_running_config.txt), in their order.
 */
static const char *const seed_lines[] = {
    "traffic pool roce type lossless",
    "traffic pool roce memory percent 50.00",
    "traffic pool roce map switch-priority 3",
    "interface ethernet 1/1-1/32 qos trust L3",
    "interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150 "
    "maximum-absolute 1500",
    "interface ethernet 1/1-1/32 traffic-class 6 dcb ets strict",
};

/* The configuration lines of a .cli file: no comments, no blank lines. */
static size_t config_lines(const char *text, char lines[][160], size_t max)
{
	size_t n = 0;
	for (const char *p = text; *p && n < max;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > 0 && p[0] != '#') {
			snprintf(lines[n], 160, "%.*s", (int)len, p);
			n++;
		}
		p += len + (end ? 1 : 0);
	}
	return n;
}

static void test_rdg_reference_lines(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("rdg-vsphere.yaml", &m);
	build_ok(&m, &o);
	char lines[32][160];
	size_t n = config_lines(file_text(&o, "onyx/swx-mld-1-2.cli"), lines, 32);
	/*
	 * The six lines in order, the MTU line on the same ports first, and
	 * between them only the owned defaults (issue 23): the seven other
	 * traffic classes without congestion control, as "no" forms, and
	 * (issue 34: the intent gives the lossless class no ets, so it takes
	 * NVIDIA's RoCE default, WRR 50) the lossless class at wrr 50 and the
	 * six classes of no class sharing the other 50, each explicit.
	 */
	assert_int_equal(n, 7 + 7 + 7);
	assert_string_equal(lines[0], "interface ethernet 1/1-1/32 mtu 9216 force");
	size_t seen = 0, cc_off = 0, wrr = 0;
	int lossless_w = 0, others_w = 0;
	for (size_t i = 1; i < n; i++) {
		if (seen < 6 && !strcmp(lines[i], seed_lines[seen])) {
			seen++;
			continue;
		}
		int tc, w;
		if (sscanf(lines[i], "interface ethernet 1/1-1/32 traffic-class %d dcb ets wrr %d",
			   &tc, &w) == 2) {
			wrr++;
			*(tc == 3 ? &lossless_w : &others_w) += w;
			assert_in_range(w, tc == 3 ? 50 : 8, tc == 3 ? 50 : 9);
			continue;
		}
		char tail[40];
		assert_int_equal(sscanf(lines[i],
					"interface ethernet 1/1-1/32 no traffic-class %d %39[^\n]",
					&tc, tail),
				 2);
		assert_string_equal(tail, "congestion-control");
		assert_int_not_equal(tc, 3);
		cc_off++;
	}
	assert_int_equal(seen, 6);
	assert_int_equal(cc_off, 7);
	assert_int_equal(wrr, 7);
	assert_int_equal(lossless_w, 50);
	assert_int_equal(others_w, 50);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_ranges_and_variants(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  trust: pcp\n  switch_mtu: 9100\n"
	    "  lossless: {priority: 5, dscp: [40], pool: {name: rdma_1, memory_percent: 33.3}, "
	    "ets: {mode: wrr, weight: 60}}\n"
	    "  cnp: {priority: 2, dscp: 16}\n"
	    "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: [1/31-1/32, "
	    "1/1-1/4, 1/7/2, 1/7/1]}\n",
	    &m);
	struct qg_buf b = {0};
	struct onyx_config want;
	assert_int_equal(onyx_config_from_model(&m, 0, &want), 0);
	onyx_config_emit(&want, &b);
	onyx_config_free(&want);
	/*
	 * Every traffic class owned (issue 23): no ECN anywhere (the intent has
	 * none), the CNP class strict (no ets given: NVIDIA's RoCE default,
	 * issue 34), and the lossless wrr 60 is exactly 60 % of the port because
	 * the six other classes get the other 40 (7,7,7,7,6,6; Onyx weighs WRR
	 * classes against each other).
	 */
	assert_string_equal(
	    b.data, "0\tinterface ethernet 1/1-1/4 mtu 9100 force\n"
		    "0\tinterface ethernet 1/7/1-1/7/2 mtu 9100 force\n"
		    "0\tinterface ethernet 1/31-1/32 mtu 9100 force\n"
		    "1\ttraffic pool rdma_1 type lossless\n"
		    "1\ttraffic pool rdma_1 memory percent 33.30\n"
		    "1\ttraffic pool rdma_1 map switch-priority 5\n"
		    "2\tinterface ethernet 1/1-1/4 qos trust L2\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 qos trust L2\n"
		    "2\tinterface ethernet 1/31-1/32 qos trust L2\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 0 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 0 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 0 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 1 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 1 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 1 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 2 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 2 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 2 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 3 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 3 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 3 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 4 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 4 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 4 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 5 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 5 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 5 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 6 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 6 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 6 congestion-control\n"
		    "2\tinterface ethernet 1/1-1/4 no traffic-class 7 congestion-control\n"
		    "2\tinterface ethernet 1/7/1-1/7/2 no traffic-class 7 congestion-control\n"
		    "2\tinterface ethernet 1/31-1/32 no traffic-class 7 congestion-control\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 0 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 0 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 0 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 1 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 1 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 1 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 2 dcb ets strict\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 2 dcb ets strict\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 2 dcb ets strict\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 3 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 3 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 3 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 4 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 4 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 4 dcb ets wrr 7\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 5 dcb ets wrr 60\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 5 dcb ets wrr 60\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 5 dcb ets wrr 60\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 6 dcb ets wrr 6\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 6 dcb ets wrr 6\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 6 dcb ets wrr 6\n"
		    "3\tinterface ethernet 1/1-1/4 traffic-class 7 dcb ets wrr 6\n"
		    "3\tinterface ethernet 1/7/1-1/7/2 traffic-class 7 dcb ets wrr 6\n"
		    "3\tinterface ethernet 1/31-1/32 traffic-class 7 dcb ets wrr 6\n");
	qg_buf_free(&b);
	qg_model_free(&m);
}

/*
 * Onyx and ESXi program no DSCP map: each refuses one in its own check();
 * Linux hosts program the classes' entries and are not refused.
 */
static void test_dscp_map_judged_by_targets(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 4, dscp: [24], pool: {name: r, "
	    "memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
	    "  cnp: {priority: 7, dscp: 46}\n"
	    "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: [1/1]}\n"
	    "hosts:\n  - {name: h, platform: linux, address: 10.0.0.2, netdev: e, rdma_device: "
	    "m}\n  - {name: x, platform: esxi, address: 10.0.0.3, uplink: vmnic2}\n",
	    &m);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), -1);
	/* One cause, one message (issue 37): the two targets that refuse it in one error. */
	assert_true(diag_has(&d, "DSCP 24 maps to switch-priority 3 (DSCP/8), not 4, and no DSCP "
				 "map is written by the onyx and esxi targets: use 32..39"));
	assert_true(diag_has(&d, "DSCP 46 maps to switch-priority 5 (DSCP/8), not 7, and no DSCP "
				 "map is written by the onyx and esxi targets: use 56..63"));
	assert_int_equal(d.errors, 2);
	assert_false(diag_has(&d, "the linux target"));
	qg_diags_free(&d);
	qg_model_free(&m);
}

static void test_traffic_class_remap_rejected(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, traffic_class: 4, dscp: [26], "
	    "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
	    "  cnp: {priority: 6, dscp: 48}\n"
	    "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: [1/1]}\n",
	    &m);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), -1);
	assert_true(diag_has(&d, "cannot remap"));
	qg_diags_free(&d);
	qg_model_free(&m);
}

/*
 * explain shows each switch's final owned state in Onyx's terms (issue 23):
 * the pool, and congestion control and ETS for all eight traffic classes.
 */
static void test_explain_owned_state(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("rdg-vsphere.yaml", &m);
	cJSON *x = qg_explain_json(&m);
	char *text = cJSON_PrintUnformatted(x);
	assert_non_null(strstr(text, "\"onyx.swx-mld-1-2.lossless\""));
	assert_non_null(
	    strstr(text, "traffic pool roce type lossless, 50.00 %, map switch-priority 3\""));
	assert_non_null(strstr(text,
			       "\"tc0 none, tc1 none, tc2 none, tc3 ecn 150..1500 KB, tc4 none, "
			       "tc5 none, tc6 none, tc7 none\""));
	assert_non_null(strstr(text, "\"tc0 wrr 9, tc1 wrr 9, tc2 wrr 8, tc3 wrr 50, tc4 wrr 8, "
				     "tc5 wrr 8, tc6 strict, tc7 wrr 8\""));
	assert_non_null(strstr(text, "\"24..31 -> switch-priority 3\""));
	cJSON_free(text);
	cJSON_Delete(x);
	qg_model_free(&m);
}

/* The shares the onyx target cannot make exact are refused at the weight. */
static void test_ets_shares_refused(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
	    "memory_percent: 50}, ets: {mode: wrr, weight: 95}}\n"
	    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
	    "switches:\n  - {name: s, platform: onyx, address: s, ports: [1/1]}\n",
	    &m);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), -1);
	assert_true(diag_has(&d, "qos.lossless.ets.weight 95 does not fit every switch OS of this "
				 "fabric: the lossless weight is 94 at most, a limit the onyx "
				 "target sets (Onyx weighs the 6 other traffic classes"));
	qg_diags_free(&d);
	qg_model_free(&m);
	/* 94 leaves 1 each: built. */
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
	    "memory_percent: 50}, ets: {mode: wrr, weight: 94}}\n"
	    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
	    "switches:\n  - {name: s, platform: onyx, address: s, ports: [1/1]}\n",
	    &m);
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), 0);
	qg_diags_free(&d);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rdg_reference_lines),
	    cmocka_unit_test(test_ranges_and_variants),
	    cmocka_unit_test(test_traffic_class_remap_rejected),
	    cmocka_unit_test(test_dscp_map_judged_by_targets),
	    cmocka_unit_test(test_explain_owned_state),
	    cmocka_unit_test(test_ets_shares_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
