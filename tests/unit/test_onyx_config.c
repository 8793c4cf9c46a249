/* SPDX-License-Identifier: MIT */
/* Onyx read-back and diff: parsed from real running-configs, compared as data. */
#include "helpers.h"

#include "../../targets/onyx/onyx_config.h"

static char *shared_file(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "../shared/%s", rel);
	return source_file(path);
}

static void parse_ok(const char *text, struct onyx_config *c)
{
	struct qg_diags d;
	qg_diags_init(&d, "running-config");
	assert_int_equal(onyx_config_parse(text, c, &d), 0);
	if (d.n)
		qg_diags_print(&d, stderr, false);
	assert_int_equal(d.n, 0);
	qg_diags_free(&d);
}

static const struct onyx_port_cfg *port(const struct onyx_config *c, int mod, int p, int split)
{
	for (size_t i = 0; i < c->n_ports; i++)
		if (c->ports[i].id.module == mod && c->ports[i].id.port == p &&
		    c->ports[i].id.split == split)
			return &c->ports[i];
	return NULL;
}

static char *diff_for(const char *intent, const char *running)
{
	struct qg_model m;
	load_ok(intent, &m);
	struct onyx_config want, have;
	assert_int_equal(onyx_config_from_model(&m, 0, &want), 0);
	parse_ok(running, &have);
	struct qg_buf b = {0};
	onyx_config_diff(&want, &have, &b);
	onyx_config_free(&want);
	onyx_config_free(&have);
	qg_model_free(&m);
	return b.data ? b.data : strdup("");
}

static void test_seed_running_config(void **state)
{
	(void)state;
	char *seed = shared_file("seeds/000_d0a5270bf41eb4a2.txt");
	/* The RDG shows the switch's show running-config inside its prose. */
	char *start = strstr(seed, "## Running database");
	assert_non_null(start);
	struct onyx_config c;
	struct qg_diags d;
	qg_diags_init(&d, "seed");
	assert_int_equal(onyx_config_parse(start, &c, &d), 0);
	qg_diags_free(&d);
	assert_string_equal(c.hostname, "swx-mld-1-2");
	assert_int_equal(c.n_pools, 1);
	assert_string_equal(c.pools[0].name, "roce");
	assert_string_equal(c.pools[0].type, "lossless");
	assert_int_equal(c.pools[0].percent_centi, 5000);
	assert_int_equal(c.pools[0].priority_mask, 1 << 3);
	assert_int_equal(c.n_ports, 32);
	const struct onyx_port_cfg *p = port(&c, 1, 17, 0);
	assert_non_null(p);
	assert_string_equal(p->trust, "L3");
	assert_int_equal(p->mtu, ONYX_DEFAULT_MTU);
	assert_int_equal(p->tc[3].cc, ONYX_CC_ECN);
	assert_int_equal(p->tc[3].cc_min, 150);
	assert_int_equal(p->tc[3].cc_max, 1500);
	assert_int_equal(p->tc[6].ets, QG_ETS_STRICT);
	onyx_config_free(&c);
	free(seed);
}

static void test_fixture_ranges_and_indentation(void **state)
{
	(void)state;
	char *text = shared_file("fixtures/onyx/onyx_config_config.cfg");
	struct onyx_config c;
	parse_ok(text, &c);
	assert_string_equal(c.hostname, "ufm-switch16");
	/*
	 * Its interface lines (channel-group, mlag, switchport, PFC mode) are
	 * none that qosgen manages: they are read past without a warning, and
	 * the ports keep Onyx's defaults.
	 */
	assert_int_equal(c.n_ports, 0);
	assert_int_equal(c.n_pools, 0);
	onyx_config_free(&c);
	free(text);
}

#define SWITCH_INTENT(ports)                                                                       \
	BASE_QOS "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: " ports  \
		 "}\n"

static void test_diff_minimal_and_compressed(void **state)
{
	(void)state;
	/* In sync but for 1/5 (trust) and 1/7-1/8 (ECN thresholds): only those lines. */
	const char *running = "traffic pool roce type lossless\n"
			      "traffic pool roce memory percent 50.00\n"
			      "traffic pool roce map switch-priority 3\n"
			      "   interface ethernet 1/1-1/8 mtu 9216 force\n"
			      "   interface ethernet 1/1-1/4 qos trust L3\n"
			      "   interface ethernet 1/6-1/8 qos trust L3\n"
			      "interface ethernet 1/1-1/6 traffic-class 3 congestion-control ecn "
			      "minimum-absolute 150 maximum-absolute 1500\n"
			      "interface ethernet 1/7-1/8 traffic-class 3 congestion-control ecn "
			      "minimum-relative 10 maximum-relative 90\n"
			      "interface ethernet 1/1-1/8 traffic-class 6 dcb ets strict\n";
	char *out = diff_for(SWITCH_INTENT("[1/1-1/8]"), running);
	assert_string_equal(out, "2\tinterface ethernet 1/5 qos trust L3\n"
				 "2\tinterface ethernet 1/7-1/8 traffic-class 3 congestion-control "
				 "ecn minimum-absolute 150 maximum-absolute 1500\n");
	free(out);
	/* Fully in sync: nothing. */
	const char *synced = "traffic pool roce type lossless\n"
			     "traffic pool roce memory percent 50.00\n"
			     "traffic pool roce map switch-priority 3 4\n"
			     "interface ethernet 1/1-1/2 mtu 9216 force\n"
			     "interface ethernet 1/1-1/2 qos trust L3\n"
			     "interface ethernet 1/1-1/2 traffic-class 3 congestion-control ecn "
			     "minimum-absolute 150 maximum-absolute 1500\n"
			     "interface ethernet 1/1-1/2 traffic-class 6 dcb ets strict\n";
	out = diff_for(SWITCH_INTENT("[1/1-1/2]"), synced);
	assert_string_equal(out, "");
	free(out);
}

static void test_diff_pool_and_ets_details(void **state)
{
	(void)state;
	const char *running = "traffic pool roce type lossy\n"
			      "traffic pool roce memory percent 30.00\n"
			      "traffic pool roce map switch-priority 4\n"
			      "interface ethernet 1/1 mtu 9216\n"
			      "interface ethernet 1/1 qos trust L3\n"
			      "interface ethernet 1/1 traffic-class 3 congestion-control ecn "
			      "minimum-absolute 150 maximum-absolute 1500\n"
			      "interface ethernet 1/1 traffic-class 6 dcb ets wrr 20\n";
	char *out = diff_for(SWITCH_INTENT("[1/1]"), running);
	assert_string_equal(out, "1\ttraffic pool roce type lossless\n"
				 "1\ttraffic pool roce memory percent 50.00\n"
				 "1\ttraffic pool roce map switch-priority 3\n"
				 "3\tinterface ethernet 1/1 traffic-class 6 dcb ets strict\n");
	free(out);
}

static void test_unreadable_managed_lines_warned(void **state)
{
	(void)state;
	struct onyx_config c;
	struct qg_diags d;
	qg_diags_init(&d, "rc");
	assert_int_equal(onyx_config_parse("interface ethernet 1/1 qos trust L3\n"
					   "interface ethernet 1/1 mtu big\n"
					   "interface ethernet 1/1 traffic-class 9 dcb ets strict\n"
					   "interface ethernet eth9 qos trust L2\n"
					   "traffic pool x memory percent lots\n"
					   "interface ethernet 1/1 switchport mode hybrid\n",
					   &c, &d),
			 0);
	assert_int_equal(d.warnings, 4);
	assert_int_equal(d.v[0].pos.line, 2);
	/* A bad line changes nothing: the port keeps what the good lines set. */
	assert_string_equal(port(&c, 1, 1, 0)->trust, "L3");
	assert_int_equal(port(&c, 1, 1, 0)->mtu, ONYX_DEFAULT_MTU);
	qg_diags_free(&d);
	onyx_config_free(&c);
}

static void test_split_ports(void **state)
{
	(void)state;
	const char *running = "interface ethernet 1/3/1-1/3/2 qos trust L3\n";
	char *out = diff_for(SWITCH_INTENT("[1/3/1-1/3/4]"), running);
	assert_non_null(strstr(out, "2\tinterface ethernet 1/3/3-1/3/4 qos trust L3\n"));
	assert_null(strstr(out, "1/3/1-1/3/4 qos trust"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seed_running_config),
	    cmocka_unit_test(test_fixture_ranges_and_indentation),
	    cmocka_unit_test(test_diff_minimal_and_compressed),
	    cmocka_unit_test(test_diff_pool_and_ets_details),
	    cmocka_unit_test(test_unreadable_managed_lines_warned),
	    cmocka_unit_test(test_split_ports),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
