/* SPDX-License-Identifier: MIT */
/*
 * Onyx's release and its own verdict (issue 34): `show version` and the
 * json-print shows parsed from real captures (tests/fixtures/onyx/, origins
 * in its README), the versions qosgen writes, and the judge of the
 * operational state against the intent.
 */
#include "helpers.h"

#include "../../targets/onyx/onyx.h"
#include "../../targets/onyx/onyx_config.h"
#include "../../targets/onyx/onyx_oper.h"
#include "../../targets/onyx/onyx_verdict.h"
#include "../../targets/onyx/onyx_version.h"

static char *fixture(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/fixtures/onyx/%s", name);
	return source_file(rel);
}

static void version_of(const char *text, const char *want)
{
	char out[QG_VERSION_LEN], err[300] = "";
	int rc = onyx_version_parse(text, strlen(text), out, sizeof(out), err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(out, want);
}

static void version_fails(const char *text, size_t len, const char *needle)
{
	char out[QG_VERSION_LEN], err[300] = "";
	assert_int_equal(onyx_version_parse(text, len, out, sizeof(out), err, sizeof(err)), -1);
	if (!strstr(err, needle))
		fprintf(stderr, "got: %s\n", err);
	assert_non_null(strstr(err, needle));
}

static void test_version_from_captures(void **state)
{
	(void)state;
	char *t = fixture("onyx_command_show_version.txt"); /* MLNX-OS 3.6.5000, text */
	version_of(t, "3.6.5000");
	free(t);
	t = fixture("onyx_facts_show_version.cfg"); /* the same, | json-print */
	version_of(t, "3.6.5000");
	free(t);
	t = fixture("napalm-onyx_show_version.txt"); /* Onyx 3.7.1160 */
	version_of(t, "3.7.1160");
	free(t);
	/* As the session hands it over: CRLF taken off, a build suffix left off. */
	version_of("Product name:      Onyx\r\nProduct release:   3.10.4606\r\n", "3.10.4606");
	version_of("Product name:      Onyx\nProduct release:   3.7.0932-01\n", "3.7.0932");
	version_of("  Product release: 3.9.3210", "3.9.3210");
}

static void test_version_refused(void **state)
{
	(void)state;
	const char *t = "Product name:      Onyx\nBuild ID:          #1-dev\n";
	version_fails(t, strlen(t), "no 'Product release:' line");
	t = "Product release:   unknown\n";
	version_fails(t, strlen(t), "'Product release' is 'unknown'");
	t = "Product release:   3.10.4606.1.2\n";
	version_fails(t, strlen(t), "not a release qosgen reads");
	/* Bounded by its length: the line beyond it is not read. */
	t = "Build ID: x\nProduct release:   3.10.4606\n";
	version_fails(t, 12, "no 'Product release:' line");
	/* A key that only starts the same is another key. */
	t = "Product releases:  3.10.4606\n";
	version_fails(t, strlen(t), "no 'Product release:' line");
}

static void test_versions_declared(void **state)
{
	(void)state;
	const struct qg_os_versions *vs = qg_target_onyx.versions;
	assert_ptr_equal(vs, &onyx_os_versions);
	assert_true(qg_os_version_supported(vs, "3.6.5000"));
	assert_true(qg_os_version_supported(vs, "3.10.4706"));
	assert_false(qg_os_version_supported(vs, "3.6.4000")); /* before traffic pools */
	assert_false(qg_os_version_supported(vs, "3.10.4800"));
	assert_false(qg_os_version_supported(vs, "3.11.1000"));
	/* One dialect: every supported release takes a build for any other. */
	char msg[768];
	assert_int_equal(qg_os_version_match(vs, "3.10.4706", "3.6.8130", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(vs, "3.8.2004", "3.10.4606", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(vs, "3.10.4706", "3.5.1000", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "Onyx 3.5.1000, outside the versions qosgen writes "
				    "(3.6.5000 to 3.10.4706"));
}

/* A one-port onyx switch with these keys more, loaded into m. */
#define ONE_PORT(more)                                                                             \
	BASE_QOS                                                                                   \
	"switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: [1/1]" more "}\n"

static void test_os_version_key(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(ONE_PORT(""), &m);
	assert_string_equal(m.switches[0].os_version, "3.10.4706");
	assert_false(m.switches[0].os_version_given);
	qg_model_free(&m);
	load_ok(ONE_PORT(", os_version: 3.8.2004"), &m);
	assert_string_equal(m.switches[0].os_version, "3.8.2004");
	assert_true(m.switches[0].os_version_given);
	qg_model_free(&m);
	load_fails_with(ONE_PORT(", os_version: 3.5.1000"), "3.5.1000");
}

static void test_pool_from_capture(void **state)
{
	(void)state;
	char *t = fixture("onyx_buffer_pool.cfg");
	struct onyx_oper_pool p;
	char err[300];
	assert_int_equal(onyx_oper_pool_parse(t, strlen(t), "roce", &p, err, sizeof(err)), 0);
	assert_string_equal(p.type, "lossless");
	assert_true(p.priorities_shown);
	assert_int_equal(p.priority_mask, 1u << 3);
	assert_int_equal(p.percent_centi, 5000);
	assert_string_equal(p.actual, "5.9M");
	assert_int_equal(p.actual_bytes, (int64_t)5900 * 1048576 / 1000);
	assert_int_equal(onyx_oper_pool_parse(t, strlen(t), "other", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "it shows no traffic pool 'other'");
	/* Its text cut in the middle: the JSON does not parse. */
	assert_int_equal(onyx_oper_pool_parse(t, 40, "roce", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "its JSON from line 1 does not parse");
	free(t);
	/* A line before the document (an echo, a blank) does no harm. */
	const char *x =
	    "\nswitch # x\n{\"r\": [{\"Type\": \"lossy\", \"Switch Priorities\": \"2 5\","
	    " \"Memory actual\": \"N/A\", \"Memory [%]\": \"12.5\"}]}\n";
	assert_int_equal(onyx_oper_pool_parse(x, strlen(x), "r", &p, err, sizeof(err)), 0);
	assert_int_equal(p.priority_mask, (1u << 2) | (1u << 5));
	assert_int_equal(p.percent_centi, 1250);
	assert_int_equal(p.actual_bytes, -1);
	x = "{\"r\": [{\"Switch Priorities\": \"8\"}]}";
	assert_int_equal(onyx_oper_pool_parse(x, strlen(x), "r", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "its 'Switch Priorities' '8' are not switch-priorities");
	x = "{\"r\": [{\"Memory actual\": \"lots\"}]}";
	assert_int_equal(onyx_oper_pool_parse(x, strlen(x), "r", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "its 'Memory actual' 'lots' is not a size");
	x = "{\"r\": [{\"Memory actual\": \"99999999999G\"}]}";
	assert_int_equal(onyx_oper_pool_parse(x, strlen(x), "r", &p, err, sizeof(err)), -1);
	x = "% Traffic pool r does not exist\n";
	assert_int_equal(onyx_oper_pool_parse(x, strlen(x), "r", &p, err, sizeof(err)), -1);
	assert_string_equal(err, "it printed no JSON");
}

static void test_ets_from_capture(void **state)
{
	(void)state;
	char *t = fixture("onyx_show_dcb_ets_interface.cfg");
	struct onyx_oper_ets e;
	char err[300];
	assert_int_equal(onyx_oper_ets_parse(t, strlen(t), "Eth1/1", &e, err, sizeof(err)), 0);
	static const int mode[8] = {QG_ETS_WRR, QG_ETS_WRR, QG_ETS_STRICT, QG_ETS_STRICT,
				    QG_ETS_WRR, QG_ETS_WRR, QG_ETS_WRR,	   QG_ETS_WRR};
	static const int w[8] = {12, 13, 0, 0, 12, 13, 12, 13};
	for (int tc = 0; tc < 8; tc++) {
		assert_true(e.tc[tc].shown);
		assert_int_equal(e.tc[tc].mode, mode[tc]);
		assert_int_equal(e.tc[tc].weight, w[tc]);
	}
	assert_string_equal(e.tc[3].mode_text, "Strict");
	assert_int_equal(onyx_oper_ets_parse(t, strlen(t), "Eth1/2", &e, err, sizeof(err)), -1);
	assert_string_equal(err, "it shows no 'ETS per TC' of Eth1/2");
	free(t);
}

static void test_pfc_both_shapes(void **state)
{
	(void)state;
	char err[300];
	struct onyx_oper_pfc p;
	/* Before 3.6.6000: the interfaces at the top (the capture). */
	char *t = fixture("onyx_pfc_interface_enabled.cfg");
	assert_int_equal(onyx_oper_pfc_parse(t, strlen(t), &p, err, sizeof(err)), 0);
	assert_int_equal(p.n, 4);
	assert_false(p.enabled_shown);
	const struct onyx_oper_pfc_port *e = onyx_oper_pfc_port(&p, "Eth1/1/2");
	assert_non_null(e);
	assert_string_equal(e->admin, "on");
	assert_string_equal(e->oper, "Enabled");
	onyx_oper_pfc_free(&p);
	/* From 3.6.6000: a list, the interfaces its third element (onyx_pfc_interface: cfg[2]). */
	struct qg_buf b = {0};
	qg_buf_printf(&b, "[{\"PFC\": \"enabled\"}, {\"Priority Enabled List\": \"3\"}, %s]", t);
	free(t);
	assert_int_equal(onyx_oper_pfc_parse(b.data, b.len, &p, err, sizeof(err)), 0);
	assert_int_equal(p.n, 4);
	assert_true(p.enabled_shown);
	assert_int_equal(p.enabled_mask, 1u << 3);
	onyx_oper_pfc_free(&p);
	qg_buf_free(&b);
	/* Under "Table 2", as onyx_pfc_interface reads it before 3.6.6000 too. */
	t = fixture("onyx_pfc_interface_disabled.cfg");
	qg_buf_printf(&b, "{\"Table 2\": %s}", t);
	free(t);
	assert_int_equal(onyx_oper_pfc_parse(b.data, b.len, &p, err, sizeof(err)), 0);
	assert_int_equal(p.n, 4);
	assert_string_equal(onyx_oper_pfc_port(&p, "Mpo2")->oper, "Disabled");
	assert_string_equal(onyx_oper_pfc_port(&p, "Po1")->admin, "Auto");
	assert_null(onyx_oper_pfc_port(&p, "Eth1/9"));
	onyx_oper_pfc_free(&p);
	qg_buf_free(&b);
	/* The text form is not what the verdict reads: no JSON in it. */
	t = fixture("show_dcb_priority_flow_control.txt");
	assert_int_equal(onyx_oper_pfc_parse(t, strlen(t), &p, err, sizeof(err)), -1);
	assert_string_equal(err, "it printed no JSON");
	onyx_oper_pfc_free(&p);
	free(t);
	const char *none = "[{\"PFC\": \"disabled\"}]";
	assert_int_equal(onyx_oper_pfc_parse(none, strlen(none), &p, err, sizeof(err)), -1);
	assert_string_equal(err, "it shows no interface's 'PFC oper'");
	onyx_oper_pfc_free(&p);
}

/* The reference policy with a WRR lossless class, so that every TC has a scheduler to hold. */
#define WRR_INTENT                                                                                 \
	"version: 1\nfabric: t\nqos:\n"                                                            \
	"  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, "           \
	"ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"                        \
	"  cnp: {priority: 6, dscp: 48, ets: strict}\n"                                            \
	"switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: [1/1-1/2]}\n"

/* A switch that holds want: the pool's capture, PFC on both ports, each port's TCs as want's. */
static void holding(const struct onyx_config *want, struct onyx_oper *o,
		    struct onyx_oper_ets ets[2])
{
	memset(o, 0, sizeof(*o));
	char *t = fixture("onyx_buffer_pool.cfg");
	char err[300];
	assert_int_equal(onyx_oper_pool_parse(t, strlen(t), "roce", &o->pool, err, sizeof(err)), 0);
	free(t);
	const char *pfc = "[{}, {\"Priority Enabled List\": \"3\"}, {"
			  "\"Eth1/1\": [{\"PFC admin\": \"Auto\", \"PFC oper\": \"Enabled\"}],"
			  "\"Eth1/2\": [{\"PFC admin\": \"Auto\", \"PFC oper\": \"Enabled\"}]}]";
	assert_int_equal(onyx_oper_pfc_parse(pfc, strlen(pfc), &o->pfc, err, sizeof(err)), 0);
	for (int k = 0; k < 2; k++)
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *w = &want->ports[k].tc[tc];
			ets[k].tc[tc] = (struct onyx_oper_tc){true, w->ets, "",
							      w->ets == QG_ETS_WRR ? w->weight : 0};
			strcpy(ets[k].tc[tc].mode_text, w->ets == QG_ETS_STRICT ? "Strict" : "WRR");
		}
	o->ets = ets;
}

/* The desired config of the intent's one switch. */
static void want_of(const char *intent, struct onyx_config *want)
{
	struct qg_model m;
	load_ok(intent, &m);
	assert_int_equal(onyx_config_from_model(&m, 0, want), 0);
	qg_model_free(&m);
}

static int judge(const struct onyx_config *want, const struct onyx_oper *o, char *why,
		 struct qg_buf *warn)
{
	why[0] = '\0';
	return onyx_verdict_judge(want, o, NULL, why, 600, warn);
}

static void test_verdict_judge(void **state)
{
	(void)state;
	struct onyx_config want;
	want_of(WRR_INTENT, &want);
	struct onyx_oper o;
	struct onyx_oper_ets ets[2];
	struct qg_buf warn = {0};
	char why[600];

	holding(&want, &o, ets);
	assert_int_equal(judge(&want, &o, why, &warn), 0);
	assert_string_equal(why, "");
	assert_int_equal(warn.len, 0);

	/* The ASIC could not size the pool. */
	o.pool.actual_bytes = 0;
	strcpy(o.pool.actual, "0");
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "traffic pool roce: 'Memory actual' is 0 with 'Memory [%]' 50.00: "
				 "the switch gave the lossless pool no buffer");
	onyx_oper_pfc_free(&o.pfc);

	holding(&want, &o, ets);
	strcpy(o.pool.type, "lossy");
	o.pool.priority_mask = 1u << 4;
	strcpy(o.pool.priorities, "4");
	assert_int_equal(judge(&want, &o, why, &warn), 2);
	assert_string_equal(why, "traffic pool roce: 'Type' is lossy, configured lossless (and 1 "
				 "more)");
	o.pool.type[0] = '\0';
	o.pool.priority_mask = 1u << 3;
	o.pool.percent_centi = 4000;
	strcpy(o.pool.percent, "40.00");
	assert_int_equal(judge(&want, &o, why, &warn), 2);
	assert_string_equal(why, "traffic pool roce: 'Type' is not shown, configured lossless (and "
				 "1 more)");
	onyx_oper_pfc_free(&o.pfc);

	/* PFC: the priority not enabled, a port not operational, a port not listed. */
	holding(&want, &o, ets);
	o.pfc.enabled_mask = 1u << 4;
	strcpy(o.pfc.enabled, "4");
	strcpy(o.pfc.ports[1].oper, "Disabled");
	assert_int_equal(judge(&want, &o, why, &warn), 2);
	assert_string_equal(why, "PFC: switch-priority 3 is not in its 'Priority Enabled List' "
				 "('4') (and 1 more)");
	o.pfc.enabled_shown = false;
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "Eth1/2: 'PFC oper' is Disabled ('PFC admin' Auto), so "
				 "switch-priority 3 is not lossless there");
	o.pfc.n = 1;
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "Eth1/2: 'show dcb priority-flow-control' lists no PFC state for "
				 "it");
	onyx_oper_pfc_free(&o.pfc);

	/* ETS: another mode, another weight, a class not shown. */
	holding(&want, &o, ets);
	ets[0].tc[6] = (struct onyx_oper_tc){true, QG_ETS_WRR, "WRR", 12};
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "Eth1/1 TC 6: 'S.Mode' is WRR ('W' 12), configured strict");
	ets[0].tc[6] = (struct onyx_oper_tc){true, QG_ETS_STRICT, "Strict", 0};
	ets[1].tc[3].weight = 13;
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "Eth1/2 TC 3: 'W' is 13, configured wrr 50");
	ets[1].tc[3].shown = false;
	assert_int_equal(judge(&want, &o, why, &warn), 1);
	assert_string_equal(why, "Eth1/2 TC 3: not in its 'ETS per TC', configured wrr 50");
	onyx_oper_pfc_free(&o.pfc);
	assert_int_equal(warn.len, 0);
	onyx_config_free(&want);
}

static void test_verdict_default_classes_not_judged(void **state)
{
	(void)state;
	/*
	 * The reference policy: the classes it leaves at Onyx's default (whatever
	 * `show dcb ets` prints for them) are not judged.
	 */
	struct onyx_config want;
	want_of(BASE_QOS "switches:\n  - {name: s, platform: onyx, address: s.example.net, "
			 "ports: [1/1-1/2]}\n",
		&want);
	struct onyx_oper o;
	struct onyx_oper_ets ets[2];
	struct qg_buf warn = {0};
	char why[600];
	holding(&want, &o, ets);
	for (int k = 0; k < 2; k++)
		for (int tc = 0; tc < 8; tc++)
			if (want.ports[k].tc[tc].ets == QG_ETS_UNSET)
				ets[k].tc[tc] = (struct onyx_oper_tc){true, QG_ETS_WRR, "WRR", 12};
	assert_int_equal(judge(&want, &o, why, &warn), 0);
	onyx_oper_pfc_free(&o.pfc);
	onyx_config_free(&want);
}

static void test_verdict_figures(void **state)
{
	(void)state;
	struct qg_buf w = {0};
	/* Within the tolerance, or a figure either side lacks: nothing. */
	assert_false(onyx_verdict_figure("x", 1000, 1100, 10, &w));
	assert_false(onyx_verdict_figure("x", 1000, 900, 10, &w));
	assert_false(onyx_verdict_figure("x", 0, 5, 10, &w));
	assert_false(onyx_verdict_figure("x", 1000, -1, 10, &w));
	assert_int_equal(w.len, 0);
	assert_true(
	    onyx_verdict_figure("traffic pool roce 'Memory actual'", 6186598, 5000000, 10, &w));
	assert_string_equal(w.data, "traffic pool roce 'Memory actual': Onyx shows 5000000 bytes, "
				    "qosgen computes 6186598 (19 % apart, beyond the 10 % "
				    "tolerance)\n");
	assert_true(onyx_verdict_figure("y", 1, INT64_MAX, 10, &w));
	qg_buf_free(&w);

	/* Through the judge: qosgen's figure for the pool, and the capture's 5.9M. */
	struct onyx_config want;
	want_of(WRR_INTENT, &want);
	struct onyx_oper o;
	struct onyx_oper_ets ets[2];
	char why[600];
	holding(&want, &o, ets);
	struct onyx_expect near = {6000000, 10}, far = {12000000, 10};
	assert_int_equal(onyx_verdict_judge(&want, &o, &near, why, sizeof(why), &w), 0);
	assert_int_equal(w.len, 0);
	assert_int_equal(onyx_verdict_judge(&want, &o, &far, why, sizeof(why), &w), 0);
	assert_non_null(strstr(w.data, "Onyx shows 6186598 bytes, qosgen computes 12000000"));
	qg_buf_free(&w);
	onyx_oper_pfc_free(&o.pfc);
	onyx_config_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_from_captures),
	    cmocka_unit_test(test_version_refused),
	    cmocka_unit_test(test_versions_declared),
	    cmocka_unit_test(test_os_version_key),
	    cmocka_unit_test(test_pool_from_capture),
	    cmocka_unit_test(test_ets_from_capture),
	    cmocka_unit_test(test_pfc_both_shapes),
	    cmocka_unit_test(test_verdict_judge),
	    cmocka_unit_test(test_verdict_default_classes_not_judged),
	    cmocka_unit_test(test_verdict_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
