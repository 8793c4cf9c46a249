/* SPDX-License-Identifier: MIT */
/*
 * One test per rule of docs/intent.md: each loads an intent that breaks the
 * rule and expects its diagnostic, so removing the rule fails the test. The
 * exact texts and positions are pinned in tests/golden/errors/.
 */
#include "helpers.h"

#include "../../model/bounds.h"
#include "../../model/keys.h"

#include "../../targets/onyx/onyx.h"

#define HOSTS                                                                                      \
	"hosts:\n"                                                                                 \
	"  - {name: a, platform: linux, address: 192.0.2.1, netdev: eth0, rdma_device: mlx5_0}\n"  \
	"  - {name: b, platform: linux, address: 192.0.2.2, netdev: eth0, rdma_device: mlx5_0}\n"  \
	"  - {name: esx, platform: esxi, address: esx.example.net, uplink: vmnic4}\n"

static void test_defaults_filled(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS
		"switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: "
		"[1/1]}\n" HOSTS
		"dvs:\n  - {name: D, vcenter: vc.example.net, datacenter: DC, hosts: [esx]}\n",
		&m);
	assert_int_equal(m.qos.trust, QG_TRUST_DSCP);
	assert_false(m.qos.trust_given);
	assert_int_equal(m.qos.mtu, 9000);
	assert_int_equal(m.qos.switch_mtu, 9216);
	assert_int_equal(m.qos.lossless.traffic_class, 3);
	assert_int_equal(m.qos.cnpc.traffic_class, 6);
	assert_int_equal(m.qos.pool_percent_centi, 5000);
	assert_int_equal(m.switches[0].port, 22);
	assert_string_equal(m.switches[0].user, "");
	assert_int_equal(m.hosts[0].nics[0].function, QG_FN_PF);
	assert_int_equal(m.hosts[0].nics[0].qos_tool, QG_TOOL_MLNX_QOS);
	assert_int_equal(m.dvs[0].mtu, 9000);
	assert_false(m.dvs[0].mtu_given);
	assert_int_equal(m.dvs[0].uplinks, 1);
	assert_int_equal(m.verify.message_size, 65536);
	assert_int_equal(m.verify.duration_s, 5);
	qg_model_free(&m);
}

static void test_examples_load(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("rdg-vsphere.yaml", &m);
	assert_int_equal(m.n_switches, 1);
	assert_int_equal(m.switches[0].n_ports, 32);
	assert_int_equal(m.n_hosts, 10);
	assert_int_equal(m.verify.n_pairs, 1);
	assert_int_equal(m.verify.pairs[0].min_gbps_centi, 9000);
	qg_model_free(&m);
	load_example("k8s-pvrdma.yaml", &m);
	assert_int_equal(m.switches[0].n_ports, 6);
	assert_int_equal(m.dvs[0].n_hosts, 4);
	qg_model_free(&m);
	load_example("bitfusion-pvrdma.yaml", &m);
	assert_int_equal(m.hosts[4].nics[0].qos_tool, QG_TOOL_DCB);
	assert_int_equal(m.hosts[2].nics[0].function, QG_FN_VF);
	qg_model_free(&m);
}

static void test_key_order_free(void **state)
{
	(void)state;
	/* verify and dvs before hosts: references resolve whatever the order. */
	struct qg_model m;
	load_ok("verify:\n  pairs: [{client: a, server: b, min_gbps: 1.5}]\n"
		"dvs:\n  - {name: D, vcenter: vc.example.net, datacenter: DC, hosts: [esx]}\n" HOSTS
		    BASE_QOS,
		&m);
	assert_int_equal(m.verify.pairs[0].min_gbps_centi, 150);
	assert_int_equal(m.dvs[0].hosts[0], 2);
	qg_model_free(&m);
}

static void test_unknown_and_duplicate_keys(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS "fabrik: x\n", "unknown key 'fabrik'");
	load_fails_with(BASE_QOS "fabrik: x\n", "did you mean 'fabric'");
	load_fails_with(BASE_QOS "fabric: u\n", "duplicate key 'fabric'");
}

static void test_types_and_ranges(void **state)
{
	(void)state;
	load_fails_with("version: 1\nfabric: t\nqos:\n  mtu: \"9000\"\n", "expected an integer");
	load_fails_with("version: 1\nfabric: t\nqos:\n  mtu: 100\n", "out of range 1500..9216");
	load_fails_with("version: \"1\"\nfabric: t\n",
			"quotes make a YAML value text: write version: 1");
	load_fails_with("version: 2\nfabric: t\n", "only version is 1");
	load_fails_with("version: 1\nfabric: T\n", "'T' is not allowed");
	load_fails_with("version: 1\nfabric: t\nqos: {trust: L3}\n", "is not one of: dscp, pcp");
	load_fails_with("version: 1\nfabric: t\n", "missing key 'qos'");
	load_fails_with("- 1\n", "expected a mapping");
}

static void test_memory_percent(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: "
		"{name: r, memory_percent: 7.5}, ecn: {min_kb: 1, max_kb: 2}}\n"
		"  cnp: {priority: 6, dscp: 48}\n",
		&m);
	assert_int_equal(m.qos.pool_percent_centi, 750);
	qg_model_free(&m);
	load_fails_with("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: "
			"{name: r, memory_percent: 0}}\n",
			"out of range (0, 100]");
	load_fails_with("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: "
			"{name: r, memory_percent: 1e2}}\n",
			"at most two decimals");
}

static void test_names_unique(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS HOSTS
			"  - {name: b, platform: esxi, address: x, uplink: vmnic1}\n",
			"hosts: name 'b' is used twice");
	load_fails_with(BASE_QOS
			"switches:\n  - {name: s, platform: onyx, address: x, ports: [1/1]}\n"
			"  - {name: s, platform: onyx, address: y, ports: [1/1]}\n",
			"switches: name 's' is used twice");
}

static void test_class_rules(void **state)
{
	(void)state;
	const char *same_prio =
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
	    "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
	    "  cnp: {priority: 3, dscp: 27}\n";
	load_fails_with(same_prio, "is the lossless priority");
	const char *shared =
	    "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26, 27], "
	    "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
	    "  cnp: {priority: 6, dscp: 27}\n";
	load_fails_with(shared, "share no DSCP value");
	const char *same_tc = "version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
			      "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
			      "  cnp: {priority: 6, traffic_class: 3, dscp: 48}\n";
	load_fails_with(same_tc, "an egress queue of their own");
	load_fails_with("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26, 26], "
			"pool: {name: r, memory_percent: 50}}\n",
			"DSCP 26 is listed twice");
	/* DSCP 10 on priority 3 is a map, not an error: the targets judge it (test_onyx). */
	struct qg_model m;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [10], "
		"pool: {name: r, memory_percent: 50}}\n  cnp: {priority: 7, dscp: 46}\n",
		&m);
	assert_int_equal(m.qos.dscp_prio[10], 3);
	assert_int_equal(m.qos.dscp_prio[46], 7);
	assert_int_equal(m.qos.dscp_prio[11], 1);
	assert_int_equal(m.qos.dscp_prio[26], 3);
	qg_model_free(&m);
	load_fails_with("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
			"pool: {name: r, memory_percent: 50}}\n  cnp: {priority: 6, dscp: [48]}\n",
			"CNPs carry one DSCP");
}

static void test_ecn_and_mtu_rules(void **state)
{
	(void)state;
	load_fails_with("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
			"pool: {name: r, memory_percent: 50}, ecn: {min_kb: 9, max_kb: 8}}\n",
			"need min_kb <= max_kb");
	load_fails_with("version: 1\nfabric: t\nqos:\n  mtu: 9216\n  lossless: {priority: 3, dscp: "
			"[26], pool: {name: r, memory_percent: 50}}\n",
			"below mtu 9216 + 18");
	load_fails_with(BASE_QOS HOSTS
			"dvs:\n  - {name: D, vcenter: v, datacenter: DC, mtu: 1500}\n",
			"below qos.mtu 9000");
	load_fails_with("version: 1\nfabric: t\nqos:\n  mtu: 9100\n  lossless: {priority: 3, dscp: "
			"[26], pool: {name: r, memory_percent: 50}}\n"
			"dvs:\n  - {name: D, vcenter: v, datacenter: DC}\n",
			"above vSphere's maximum");
}

static void test_references(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS HOSTS "verify:\n  pairs: [{client: a, server: zz, min_gbps: 1}]\n",
			"no host named 'zz'");
	load_fails_with(BASE_QOS HOSTS
			"verify:\n  pairs: [{client: a, server: esx, min_gbps: 1}]\n",
			"verify runs verbs traffic between linux hosts");
	load_fails_with(BASE_QOS HOSTS "verify:\n  pairs: [{client: a, server: a, min_gbps: 1}]\n",
			"a pair needs two hosts");
	load_fails_with(BASE_QOS HOSTS
			"dvs:\n  - {name: D, vcenter: v, datacenter: DC, hosts: [a]}\n",
			"a DVS takes esxi hosts");
	load_fails_with(BASE_QOS HOSTS
			"dvs:\n  - {name: D, vcenter: v, datacenter: DC, hosts: [esx]}\n"
			"  - {name: E, vcenter: v, datacenter: DC, hosts: [esx]}\n",
			"can join only one");
}

/* verify.pairs[].rails (issue 28): rail K is the client's nics[K] with the server's nics[K]. */
static void test_verify_rails(void **state)
{
	(void)state;
	struct qg_model m;
#define PAIR(rails) "verify:\n  pairs: [{client: a, server: b, min_gbps: 1" rails "}]\n"
	/* None named: rail 0 alone, nothing given. */
	load_ok(BASE_QOS HOSTS PAIR(""), &m);
	assert_false(m.verify.pairs[0].rails_given);
	assert_int_equal(m.verify.pairs[0].n_rails, 0);
	qg_model_free(&m);
	load_ok(BASE_QOS HOSTS PAIR(", rails: [0]"), &m);
	assert_true(m.verify.pairs[0].rails_given);
	assert_false(m.verify.pairs[0].rails_all);
	assert_int_equal(m.verify.pairs[0].n_rails, 1);
	assert_int_equal(m.verify.pairs[0].rails[0], 0);
	qg_model_free(&m);
	/* all: every rail both hosts have (the one-NIC shorthand has rail 0). */
	load_ok(BASE_QOS HOSTS PAIR(", rails: all"), &m);
	assert_true(m.verify.pairs[0].rails_all);
	assert_int_equal(m.verify.pairs[0].n_rails, 1);
	assert_int_equal(m.verify.pairs[0].rails[0], 0);
	qg_model_free(&m);
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: [1]"),
			"rails[0]: rail 1 is beyond the hosts' NICs: client 'a' has 1 NIC, server "
			"'b' has 1 NIC (rail 0 alone)");
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: [0, 0]"), "rails[1]: rail 0 is named twice");
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: []"), "rails: the list is empty");
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: 0"), "write [0] for that one rail");
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: any"),
			"expected 'all' or a list of rail indices");
	load_fails_with(BASE_QOS HOSTS PAIR(", rails: [-1]"), "rails[0]: -1 is out of range 0..31");
#undef PAIR
	/* Hosts of several NICs: rails ascending; all is every rail both hosts have. */
#define NICS                                                                                       \
	"hosts:\n  - {name: \"g[1-2]\", platform: linux, address: 192.0.2.1, nics: [{netdev: "     \
	"\"ens[1-8]f0np0\", rdma_device: \"mlx5_[0-7]\"}]}\n"                                      \
	"  - {name: c, platform: linux, address: 192.0.2.3, nics: [{netdev: e0, rdma_device: "     \
	"m0}, {netdev: e1, rdma_device: m1}]}\n"
	load_ok(BASE_QOS NICS "verify:\n  pairs:\n"
			      "    - {client: g1, server: g2, min_gbps: 1, rails: [7, 0, 3]}\n"
			      "    - {client: g1, server: g2, min_gbps: 1, rails: all}\n"
			      "    - {client: c, server: g2, min_gbps: 1, rails: all}\n",
		&m);
	const struct qg_pair *p = m.verify.pairs;
	assert_int_equal(p[0].n_rails, 3);
	assert_int_equal(p[0].rails[0], 0);
	assert_int_equal(p[0].rails[1], 3);
	assert_int_equal(p[0].rails[2], 7);
	assert_int_equal(p[1].n_rails, 8);
	assert_int_equal(p[1].rails[7], 7);
	assert_true(p[2].rails_all);
	assert_int_equal(p[2].n_rails, 2); /* the host with fewer NICs bounds all */
	qg_model_free(&m);
	load_fails_with(
	    BASE_QOS NICS
	    "verify:\n  pairs: [{client: g1, server: c, min_gbps: 1, rails: [0, 2]}]\n",
	    "rails[1]: rail 2 is beyond the hosts' NICs: client 'g1' has 8 NICs, server 'c' "
	    "has 2 NICs (rails 0..1)");
#undef NICS
}

static void test_platform_keys(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS "hosts:\n  - {name: a, platform: linux, address: x, netdev: e, "
				 "rdma_device: m, uplink: vmnic1}\n",
			"'uplink' does not apply to linux hosts");
	load_fails_with(BASE_QOS
			"hosts:\n  - {name: a, platform: esxi, address: x, uplink: vmnic1, "
			"netdev: e}\n",
			"'netdev' does not apply to esxi hosts");
	load_fails_with(BASE_QOS "hosts:\n  - {name: a, platform: linux, address: x}\n",
			"missing key 'netdev'");
}

static void test_injection_refused(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS "hosts:\n  - {name: a, platform: linux, address: x, netdev: "
				 "\"e;reboot\", rdma_device: m}\n",
			"'e;reboot' is not allowed");
	load_fails_with(BASE_QOS
			"hosts:\n  - {name: a, platform: linux, address: \"-oProxyCommand=x\", "
			"netdev: e, rdma_device: m}\n",
			"is not allowed");
	load_fails_with(BASE_QOS "dvs:\n  - {name: D, vcenter: v, datacenter: \"D'C\"}\n",
			"is not allowed");
}

/*
 * One switch MTU per fabric (issue 23): the default is the smallest largest
 * port MTU among the switch targets used; one above a used target's is
 * refused at the key, naming that OS and its maximum, and no other. A
 * registry with a target of a lower maximum shows what the real ones (all
 * 9216) cannot.
 */
#define MTU_QOS                                                                                    \
	"version: 1\nfabric: t\nqos:\n%s  lossless: {priority: 3, dscp: [26], pool: {name: r, "   \
	"memory_percent: 50}}\nswitches:\n  - {name: a, platform: onyx, address: 192.0.2.1, "     \
	"ports: [1/1]}\n%s"

static int load_mtu(const struct qg_target *const *reg, const char *qos, const char *more,
		    struct qg_diags *d, struct qg_model *m)
{
	char text[1024];
	snprintf(text, sizeof(text), MTU_QOS, qos, more);
	qg_diags_init(d, "t.yaml");
	return qg_intent_load(text, strlen(text), reg, d, m);
}

static void test_one_switch_mtu_per_fabric(void **state)
{
	(void)state;
	struct qg_target small = qg_target_onyx;
	small.name = "small";
	small.switch_mtu_max = 9100;
	const struct qg_target *const reg[] = {&qg_target_onyx, &small, NULL};
	static const char small_sw[] =
	    "  - {name: b, platform: small, address: 192.0.2.2, ports: [1/1]}\n";
	struct qg_model m;
	struct qg_diags d;

	/* onyx alone: 9216, onyx's maximum. */
	assert_int_equal(load_mtu(reg, "", "", &d, &m), 0);
	assert_int_equal(m.qos.switch_mtu, 9216);
	assert_false(m.qos.switch_mtu_given);
	qg_diags_free(&d);
	qg_model_free(&m);

	/* With a 9100 OS beside it, every switch of the fabric gets 9100. */
	assert_int_equal(load_mtu(reg, "", small_sw, &d, &m), 0);
	assert_int_equal(m.qos.switch_mtu, 9100);
	char oses[64];
	assert_int_equal(qg_fabric_switch_mtu_max(&m, oses, sizeof(oses)), 9100);
	assert_string_equal(oses, "onyx 9216, small 9100");
	qg_diags_free(&d);
	qg_model_free(&m);

	/* Given above the small OS's maximum: refused at the key, naming it alone. */
	assert_int_equal(load_mtu(reg, "  switch_mtu: 9216\n", small_sw, &d, &m), -1);
	assert_int_equal(d.errors, 1);
	assert_true(diag_has(&d, "qos.switch_mtu: 9216 is above 9100, the largest port MTU the "
				 "small switches take; allowed with this fabric's switch OSes (onyx "
				 "9216, small 9100): 1500..9100"));
	for (size_t i = 0; i < d.n; i++)
		if (strstr(d.v[i].msg, "is above 9100")) {
			assert_int_equal(d.v[i].pos.line, 4);
			assert_int_equal(d.v[i].pos.col, 15);
		}
	qg_diags_free(&d);

	/* At the maximum: taken. */
	assert_int_equal(load_mtu(reg, "  switch_mtu: 9100\n", small_sw, &d, &m), 0);
	assert_int_equal(m.qos.switch_mtu, 9100);
	assert_true(m.qos.switch_mtu_given);
	qg_diags_free(&d);
	qg_model_free(&m);

	/* The default too small for mtu + 18: the note names the fabric's OSes. */
	assert_int_equal(load_mtu(reg, "  mtu: 9100\n", small_sw, &d, &m), -1);
	assert_true(diag_has(&d, "qos.switch_mtu 9100 is below mtu 9100 + 18"));
	bool noted = false;
	for (size_t i = 0; i < d.n; i++)
		for (size_t k = 0; k < d.v[i].n_notes; k++)
			noted |= strstr(d.v[i].notes[k].msg,
					"the largest port MTU of this fabric's switch OSes (onyx 9216, "
					"small 9100) is 9100, so lower qos.mtu to at most 9082") != NULL;
	assert_true(noted);
	qg_diags_free(&d);

	/* No switch: the core's own range, as before. */
	assert_int_equal(load_text(BASE_QOS "  switch_mtu: 9300\n", &d, &m), -1);
	assert_true(diag_has(&d, "qos.switch_mtu: 9300 is out of range 1500..9216"));
	qg_diags_free(&d);
}

static void test_warnings(void **state)
{
	(void)state;
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(load_text("version: 1\nfabric: t\nqos:\n  trust: pcp\n  mtu: 4000\n  "
				   "lossless: {priority: 3, dscp: [26], pool: {name: r, "
				   "memory_percent: 50}, ets: {mode: wrr, weight: 80}}\n"
				   "  cnp: {priority: 6, dscp: 48, ets: {mode: wrr, weight: 30}}\n",
				   &d, &m),
			 0);
	assert_int_equal(d.errors, 0);
	assert_true(diag_has(&d, "RoCE path MTU of 2048"));
	assert_true(diag_has(&d, "trust is pcp"));
	assert_true(diag_has(&d, "add up to 110%"));
	assert_true(diag_has(&d, "has no ecn"));
	assert_true(diag_has(&d, "no CNP is ever sent"));
	assert_true(qg_diags_failed(&d, true));
	assert_false(qg_diags_failed(&d, false));
	qg_diags_free(&d);
	qg_model_free(&m);
}

/* Host lists as Slurm writes them: one entry, many hosts, each settings copied. */
static void test_host_lists(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS
		"hosts:\n"
		"  - {name: \"gpu-[08-11]\", platform: linux, address: 10.0.0.254, netdev: "
		"ens1f0, rdma_device: mlx5_0, function: vf}\n"
		"  - {name: \"esx[1-2]\", platform: esxi, address: \"esx[1-2].lab\", uplink: "
		"vmnic1}\n"
		"verify:\n  pairs:\n    - {client: gpu-08, server: gpu-11, min_gbps: 10}\n",
		&m);
	assert_int_equal(m.n_hosts, 6);
	assert_string_equal(m.hosts[0].name, "gpu-08");
	assert_string_equal(m.hosts[3].name, "gpu-11");
	assert_string_equal(m.hosts[1].address, "10.0.0.255");
	assert_string_equal(m.hosts[2].address, "10.0.1.0");
	assert_string_equal(m.hosts[3].nics[0].netdev, "ens1f0");
	assert_int_equal(m.hosts[3].nics[0].function, QG_FN_VF);
	assert_string_equal(m.hosts[5].name, "esx2");
	assert_string_equal(m.hosts[5].address, "esx2.lab");
	assert_string_equal(m.hosts[5].target->name, "esxi");
	/* An entry's positions are every host's: diagnostics point at the entry. */
	assert_int_equal(m.hosts[3].pos.line, m.hosts[0].pos.line);
	qg_model_free(&m);
	load_fails_with(BASE_QOS "hosts:\n  - {name: \"gpu-[9-1]\", platform: linux, address: "
				 "10.0.0.1, netdev: e, rdma_device: m}\n",
			"is not a host list: range 9-1 goes down");
	load_fails_with(BASE_QOS "hosts:\n  - {name: \"gpu-[1-3]\", platform: linux, address: "
				 "\"10.0.0.[1-2]\", netdev: e, rdma_device: m}\n",
			"gives 2 addresses for the 3 names");
	load_fails_with(BASE_QOS "hosts:\n  - {name: \"gpu-[1-3]\", platform: linux, address: "
				 "gpu.lab, netdev: e, rdma_device: m}\n",
			"give an address list of the same length");
	load_fails_with(BASE_QOS "hosts:\n  - {name: \"gpu-[1-3]\", platform: linux, address: "
				 "10.0.0.1, netdev: e, rdma_device: m}\n"
				 "  - {name: gpu-2, platform: linux, address: 10.0.1.1, netdev: e, "
				 "rdma_device: m}\n",
			"name 'gpu-2' is used twice");
}

/* Whether two hosts' NICs are the same, field by field (positions aside). */
static void assert_nics_equal(const struct qg_host *a, const struct qg_host *b)
{
	assert_int_equal(a->n_nics, b->n_nics);
	for (size_t k = 0; k < a->n_nics; k++) {
		assert_string_equal(a->nics[k].netdev, b->nics[k].netdev);
		assert_string_equal(a->nics[k].rdma_device, b->nics[k].rdma_device);
		assert_int_equal(a->nics[k].function, b->nics[k].function);
		assert_int_equal(a->nics[k].qos_tool, b->nics[k].qos_tool);
		assert_int_equal(a->nics[k].function_given, b->nics[k].function_given);
		assert_int_equal(a->nics[k].qos_tool_given, b->nics[k].qos_tool_given);
	}
}

#define NIC_HOST(rest) "  - {name: gpu, platform: linux, address: 10.0.0.1, " rest "}\n"
/* One NIC as a list, and the same as the shorthand. */
#define NIC_HOST2                                                                                  \
	"  - {name: gpu2, platform: linux, address: 10.0.0.2, nics: [{netdev: e, rdma_device: "    \
	"m}]}\n"                                                                                   \
	"  - {name: gpu3, platform: linux, address: 10.0.0.3, netdev: e, rdma_device: m}\n"

/* nics: (issue 28): the list form, the pattern form and the same model for both. */
static void test_nics(void **state)
{
	(void)state;
	struct qg_model a, b;
	load_ok(BASE_QOS "hosts:\n" NIC_HOST("qos_tool: dcb, nics: [{netdev: \"ens[1-8]f0np0\", "
					     "rdma_device: \"mlx5_[0-7]\"}]"),
		&a);
	assert_int_equal(a.hosts[0].n_nics, 8);
	assert_true(a.hosts[0].nics_listed);
	assert_string_equal(a.hosts[0].nics[0].netdev, "ens1f0np0");
	assert_string_equal(a.hosts[0].nics[0].rdma_device, "mlx5_0");
	assert_string_equal(a.hosts[0].nics[7].netdev, "ens8f0np0");
	assert_string_equal(a.hosts[0].nics[7].rdma_device, "mlx5_7");
	/* The host's qos_tool is its NICs' default. */
	assert_int_equal(a.hosts[0].nics[5].qos_tool, QG_TOOL_DCB);
	assert_true(a.hosts[0].nics[5].qos_tool_given);
	assert_int_equal(a.hosts[0].nics[5].function, QG_FN_PF);
	assert_false(a.hosts[0].nics[5].function_given);
	char text[2048];
	int o = snprintf(text, sizeof(text),
			 "%shosts:\n  - name: gpu\n    platform: linux\n"
			 "    address: 10.0.0.1\n    qos_tool: dcb\n    nics:\n",
			 BASE_QOS);
	for (int k = 0; k < 8; k++)
		o += snprintf(text + o, sizeof(text) - (size_t)o,
			      "      - {netdev: ens%df0np0, rdma_device: mlx5_%d}\n", k + 1, k);
	load_ok(text, &b);
	assert_nics_equal(&a.hosts[0], &b.hosts[0]);
	qg_model_free(&a);
	qg_model_free(&b);
	/* Each NIC its own function and qos_tool; a list of one NIC is listed, not the shorthand.
	 */
	load_ok(BASE_QOS "hosts:\n" NIC_HOST("function: vf, nics: [{netdev: a, rdma_device: m0}, "
					     "{netdev: b, rdma_device: m1, function: pf, "
					     "qos_tool: dcb}]") NIC_HOST2,
		&a);
	assert_int_equal(a.hosts[0].n_nics, 2);
	assert_int_equal(a.hosts[0].nics[0].function, QG_FN_VF);
	assert_int_equal(a.hosts[0].nics[1].function, QG_FN_PF);
	assert_int_equal(a.hosts[0].nics[1].qos_tool, QG_TOOL_DCB);
	assert_int_equal(a.hosts[0].nics[0].qos_tool, QG_TOOL_MLNX_QOS);
	assert_int_equal(a.hosts[1].n_nics, 1);
	assert_true(a.hosts[1].nics_listed);
	assert_false(a.hosts[2].nics_listed);
	assert_nics_equal(&a.hosts[1], &a.hosts[2]);
	qg_model_free(&a);
}

/* nics: refused as it should be, in compiler form. */
static void test_nics_refused(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: \"ens[1-8]f0np0\", "
						     "rdma_device: \"mlx5_[0-6]\"}]"),
			"'mlx5_[0-6]' gives 7 names for the 8 of netdev 'ens[1-8]f0np0'");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: e1, rdma_device: m1}, "
						     "{netdev: e1, rdma_device: m2}]"),
			"hosts[gpu].nics[1].netdev: 'e1' is already another NIC's netdev");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: \"e[1-3]\", rdma_device: "
						     "\"m[1-3]\"}, {netdev: x, rdma_device: m2}]"),
			"'m2' is already another NIC's rdma_device");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("netdev: e1, nics: [{netdev: e1, "
						     "rdma_device: m1}]"),
			"'netdev' and 'nics' both given; keep 'nics'");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: []"), "hosts[gpu].nics: no NICs");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: e1}]"),
			"missing key 'rdma_device' in hosts[gpu].nics[0]");
	load_fails_with(BASE_QOS
			"hosts:\n" NIC_HOST("nics: [{netdev: e1, rdma_device: m, speed: 1}]"),
			"unknown key 'speed' in hosts[gpu].nics[0]");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: \"e[1-33]\", rdma_device: "
						     "\"m[1-33]\"}]"),
			"a host has at most 32 NICs");
	load_fails_with(BASE_QOS "hosts:\n" NIC_HOST("nics: [{netdev: \"e[1-2]; x\", rdma_device: "
						     "\"m[1-2]\"}]"),
			"gives 'e1; x', which is not allowed");
	/* Given to a switch: where it belongs. */
	load_fails_with(BASE_QOS
			"switches:\n  - {name: s, platform: onyx, address: 10.0.0.3, ports: "
			"[1/1], nics: [{netdev: e1, rdma_device: m1}]}\n",
			"'nics' is not a key of switches[s]: it belongs in a host of hosts");
	load_fails_with(BASE_QOS "hosts:\n  - {name: esx, platform: esxi, address: 10.0.0.2, "
				 "uplink: vmnic1, nics: [{netdev: e1, rdma_device: m1}]}\n",
			"hosts[esx]: 'nics' does not apply to esxi hosts");
}

/* A host list with nics: every host of the list has the same NICs, one shared array. */
static void test_nics_host_list(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "hosts:\n  - name: \"gpu-[001-512]\"\n    platform: linux\n"
			 "    address: 10.1.0.1\n"
			 "    nics: [{netdev: \"ens[1-8]f0np0\", rdma_device: \"mlx5_[0-7]\"}]\n",
		&m);
	assert_int_equal(m.n_hosts, 512);
	assert_int_equal(m.hosts[511].n_nics, 8);
	assert_ptr_equal(m.hosts[511].nics, m.hosts[0].nics);
	assert_string_equal(m.hosts[511].nics[3].netdev, "ens4f0np0");
	assert_int_equal(m.n_nic_blocks, 1);
	qg_model_free(&m);
}

static void test_all_problems_in_one_run(void **state)
{
	(void)state;
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(
	    load_text("version: 1\nfabric: T\nqos:\n  mtu: 1\n  lossless: {priority: 9, "
		      "dscp: [26], pool: {name: r, memory_percent: 50}}\nhosts: "
		      "[{name: A, platform: bsd, address: x}]\n",
		      &d, &m),
	    -1);
	assert_true(d.errors >= 5);
	qg_diags_free(&d);
}

/*
 * Every integer key's range is the key table's (model/keys.c): each given one
 * above its row's maximum is refused with the row's range, and no read
 * reaches a path the table lacks.
 */
/*
 * qos.lossless.pool is required where a used switch target writes a pool
 * (onyx, cumulus), or where the intent names no device; SONiC (its dynamic
 * buffer model sizes its own pool) and hosts do not need it.
 */
#define QOS_WITHOUT_POOL                                                                           \
	"version: 1\n"                                                                             \
	"fabric: t\n"                                                                              \
	"qos:\n"                                                                                   \
	"  lossless: {priority: 3, dscp: [26], ecn: {min_kb: 150, max_kb: 1500}}\n"                \
	"  cnp: {priority: 6, dscp: 48, ets: strict}\n"

static void test_pool_where_written(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(QOS_WITHOUT_POOL "switches:\n  - {name: s, platform: sonic, address: s.example.net, "
				 "ports: [Ethernet0]}\n",
		&m);
	assert_string_equal(m.qos.pool_name, "");
	qg_model_free(&m);
	load_ok(QOS_WITHOUT_POOL HOSTS, &m);
	qg_model_free(&m);
	load_fails_with(QOS_WITHOUT_POOL "switches:\n  - {name: s, platform: onyx, address: "
					 "s.example.net, ports: [1/1]}\n",
			"missing key 'pool' in qos.lossless");
	load_fails_with(QOS_WITHOUT_POOL "switches:\n  - {name: s, platform: sonic, address: "
					 "s.example.net, ports: [Ethernet0]}\n"
					 "  - {name: c, platform: cumulus, address: c.example.net, "
					 "ports: [swp1]}\n",
			"missing key 'pool' in qos.lossless");
	load_fails_with(QOS_WITHOUT_POOL, "missing key 'pool' in qos.lossless");
}

static void test_ranges_from_key_table(void **state)
{
	(void)state;
	static const char intent[] =
	    "version: 1\n"
	    "fabric: t\n"
	    "qos:\n"
	    "  mtu: 9217\n"
	    "  lossless:\n"
	    "    priority: 8\n"
	    "    dscp: [64]\n"
	    "    traffic_class: 8\n"
	    "    pool: {name: roce, memory_percent: 50}\n"
	    "    ecn: {min_kb: 100001, max_kb: 100001}\n"
	    "    ets: {mode: wrr, weight: 101}\n"
	    "  cnp: {priority: 8, dscp: 64, traffic_class: 8, ets: {mode: wrr, weight: 101}}\n"
	    "  pfc_watchdog: {detection_ms: 5000001, restoration_ms: 60001, poll_ms: 5001}\n"
	    "switches:\n"
	    "  - {name: s, platform: onyx, address: s.example.net, port: 65536, ports: [1/1],\n"
	    "     cable_length_m: 100001}\n"
	    "  - {name: s2, platform: onyx, address: s2.example.net, ports: [1/1],\n"
	    "     cable_length_m: {default: 100001},\n"
	    "     roles: {r: {ports: 1/1, cable_length_m: 100001,\n"
	    "                 ecn: {min_kb: 100001, max_kb: 100001}}}}\n"
	    "hosts:\n"
	    "  - {name: h, platform: linux, address: 10.0.0.1, port: 65536, netdev: e, "
	    "rdma_device: m}\n"
	    "  - {name: x, platform: esxi, address: 10.0.0.2, uplink: vmnic1}\n"
	    "dvs:\n"
	    "  - {name: D, vcenter: vc, datacenter: DC, mtu: 9001, uplinks: 33}\n"
	    "verify: {pairs: [{client: h, server: x, min_gbps: 1}], message_size: 8388609,\n"
	    "         duration_s: 3601}\n";
	static const struct {
		const char *at, *row;
	} given[] = {
	    {"qos.mtu", "qos.mtu"},
	    {"qos.lossless.priority", "qos.lossless.priority"},
	    {"qos.lossless.dscp[0]", "qos.lossless.dscp[]"},
	    {"qos.lossless.traffic_class", "qos.lossless.traffic_class"},
	    {"qos.lossless.ecn.min_kb", "qos.lossless.ecn.min_kb"},
	    {"qos.lossless.ecn.max_kb", "qos.lossless.ecn.max_kb"},
	    {"qos.lossless.ets.weight", "qos.lossless.ets.weight"},
	    {"qos.cnp.priority", "qos.cnp.priority"},
	    {"qos.cnp.dscp", "qos.cnp.dscp"},
	    {"qos.cnp.traffic_class", "qos.cnp.traffic_class"},
	    {"qos.cnp.ets.weight", "qos.cnp.ets.weight"},
	    {"qos.pfc_watchdog.detection_ms", "qos.pfc_watchdog.detection_ms"},
	    {"qos.pfc_watchdog.restoration_ms", "qos.pfc_watchdog.restoration_ms"},
	    {"qos.pfc_watchdog.poll_ms", "qos.pfc_watchdog.poll_ms"},
	    {"switches[s].port", "switches[].port"},
	    {"switches[s].cable_length_m", "switches[].cable_length_m"},
	    {"switches[s2].cable_length_m.default", "switches[].cable_length_m.*"},
	    {"switches[s2].roles.r.cable_length_m", "switches[].roles.*.cable_length_m"},
	    {"switches[s2].roles.r.ecn.min_kb", "switches[].roles.*.ecn.min_kb"},
	    {"switches[s2].roles.r.ecn.max_kb", "switches[].roles.*.ecn.max_kb"},
	    {"hosts[h].port", "hosts[].port"},
	    {"dvs[D].mtu", "dvs[].mtu"},
	    {"dvs[D].uplinks", "dvs[].uplinks"},
	    {"verify.message_size", "verify.message_size"},
	    {"verify.duration_s", "verify.duration_s"},
	};
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(load_text(intent, &d, &m), -1);
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++) {
		const struct qg_key *k = qg_key_find(given[i].row);
		assert_non_null(k);
		char want[160];
		snprintf(want, sizeof(want), "%s: %ld is out of range %ld..%ld", given[i].at,
			 k->hi + 1, k->lo, k->hi);
		if (!diag_has(&d, want))
			fail_msg("no diagnostic '%s'", want);
	}
	assert_false(diag_has(&d, "a bug"));
	qg_diags_free(&d);
}

#define ROLES_SWITCH                                                                               \
	"switches:\n"                                                                              \
	"  - name: s\n"                                                                            \
	"    platform: onyx\n"                                                                     \
	"    address: s.example.net\n"                                                             \
	"    ports: [1/1-1/32]\n"

/* Roles (issue 28): each role's ports, thresholds and cable length land per port. */
static void test_roles_load(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(
	    BASE_QOS ROLES_SWITCH
	    "    roles:\n"
	    "      hosts: {ports: 1/1-1/16, cable_length_m: 3, ecn: {min_kb: 100, max_kb: 900}}\n"
	    "      spines: {ports: [1/17-1/24, 1/26], cable_length_m: 40}\n",
	    &m);
	const struct qg_switch *s = &m.switches[0];
	assert_int_equal(s->n_roles, 2);
	assert_string_equal(s->roles[0].name, "hosts");
	assert_true(s->roles[0].ecn_given);
	assert_int_equal(s->roles[0].ecn_min_kb, 100);
	assert_int_equal(s->roles[0].ecn_max_kb, 900);
	assert_int_equal(s->roles[0].cable_m, 3);
	assert_string_equal(s->roles[1].name, "spines");
	assert_false(s->roles[1].ecn_given);
	assert_non_null(s->port_role);
	assert_non_null(s->cable_m);
	/* 1/1 hosts, 1/17 spines, 1/25 in no role (the policy's), 1/26 spines. */
	assert_int_equal(s->port_role[0], 1);
	assert_int_equal(s->cable_m[0], 3);
	assert_int_equal(s->port_role[16], 2);
	assert_int_equal(s->cable_m[16], 40);
	assert_int_equal(s->port_role[24], 0);
	assert_int_equal(s->cable_m[24], 0);
	assert_int_equal(s->port_role[25], 2);
	qg_model_free(&m);

	/* No roles: nothing allocated, as before issue 28. */
	load_ok(BASE_QOS ROLES_SWITCH, &m);
	assert_null(m.switches[0].roles);
	assert_null(m.switches[0].port_role);
	assert_null(m.switches[0].cable_m);
	qg_model_free(&m);

	/* A role's length beside the switch's, on other ports. */
	load_ok(BASE_QOS ROLES_SWITCH
		"    cable_length_m: {1/1-1/16: 5}\n"
		"    roles: {spines: {ports: 1/17-1/32, cable_length_m: 40}}\n",
		&m);
	assert_int_equal(m.switches[0].cable_m[0], 5);
	assert_int_equal(m.switches[0].cable_m[31], 40);
	qg_model_free(&m);
}

/* Each rule of a role, refused with what is wrong. */
static void test_roles_rules(void **state)
{
	(void)state;
	static const struct {
		const char *qos, *roles, *want;
	} cases[] = {
	    {BASE_QOS, "    roles: {r: {ports: [1/1, 1/33]}}\n",
	     "switches[s].roles.r.ports: port 1/33 is not among the switch's ports"},
	    {BASE_QOS, "    roles: {a: {ports: 1/1-1/4}, b: {ports: 1/4-1/8}}\n",
	     "switches[s].roles.b.ports: port 1/4 is also in role 'a'; a port has at most one "
	     "role"},
	    {BASE_QOS, "    roles: {a: {ports: [1/1, 1/1]}}\n",
	     "switches[s].roles.a.ports: port 1/1 is listed twice"},
	    {BASE_QOS, "    roles: {a: {ports: 1/1, mtu: 4200}}\n",
	     "switches[s].roles.a.mtu: the MTU is one per fabric"},
	    {BASE_QOS, "    roles: {a: {ports: 1/1, ecn: {min_kb: 900, max_kb: 100}}}\n",
	     "switches[s].roles.a.ecn: min_kb 900 is above max_kb 100"},
	    {BASE_QOS, "    roles: {a: {ports: 1/1, ecn: {min_kb: 900}}}\n",
	     "missing key 'max_kb' in switches[s].roles.a.ecn"},
	    {BASE_QOS, "    roles: {a: {ports: 1/1, ecn: {min_kb: 1, max_kb: 2, mid_kb: 1}}}\n",
	     "unknown key 'mid_kb' in switches[s].roles.a.ecn"},
	    {BASE_QOS, "    roles: {A: {ports: 1/1}}\n",
	     "switches[s].roles: 'A' is not a role name"},
	    {BASE_QOS, "    roles: {}\n", "switches[s].roles: the mapping is empty"},
	    {BASE_QOS, "    roles: {a: {cable_length_m: 3}}\n",
	     "missing key 'ports' in switches[s].roles.a"},
	    {BASE_QOS, "    cable_length_m: 3\n    roles: {a: {ports: 1/2, cable_length_m: 4}}\n",
	     "switches[s].roles.a.cable_length_m: port 1/2 has a length from "
	     "switches[s].cable_length_m too"},
	    {BASE_QOS,
	     "    cable_length_m: {default: 3}\n"
	     "    roles: {a: {ports: 1/2, cable_length_m: 4}}\n",
	     "switches[s].roles.a.cable_length_m: port 1/2 has a length from "
	     "switches[s].cable_length_m too"},
	    {"version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: "
	     "roce, "
	     "memory_percent: 50}}\n",
	     "    roles: {a: {ports: 1/1, ecn: {min_kb: 1, max_kb: 2}}}\n",
	     "switches[s].roles.a.ecn: ECN is off in qos"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];
		snprintf(text, sizeof(text), "%s" ROLES_SWITCH "%s", cases[i].qos, cases[i].roles);
		struct qg_diags d;
		struct qg_model m;
		if (load_text(text, &d, &m) != -1)
			fail_msg("case %zu loaded", i);
		if (!diag_has(&d, cases[i].want))
			fail_msg("case %zu: no diagnostic '%s'", i, cases[i].want);
		qg_diags_free(&d);
	}

	/* More roles than a switch may have. */
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), BASE_QOS ROLES_SWITCH "    roles:\n");
	for (unsigned r = 0; r <= QG_ROLES_MAX; r++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "      r%u: {ports: 1/%u}\n", r,
				      r + 1);
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(load_text(text, &d, &m), -1);
	assert_true(diag_has(&d, "one more than a switch has at most"));
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults_filled),
	    cmocka_unit_test(test_examples_load),
	    cmocka_unit_test(test_key_order_free),
	    cmocka_unit_test(test_unknown_and_duplicate_keys),
	    cmocka_unit_test(test_types_and_ranges),
	    cmocka_unit_test(test_memory_percent),
	    cmocka_unit_test(test_names_unique),
	    cmocka_unit_test(test_class_rules),
	    cmocka_unit_test(test_ecn_and_mtu_rules),
	    cmocka_unit_test(test_references),
	    cmocka_unit_test(test_verify_rails),
	    cmocka_unit_test(test_platform_keys),
	    cmocka_unit_test(test_injection_refused),
	    cmocka_unit_test(test_one_switch_mtu_per_fabric),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test(test_all_problems_in_one_run),
	    cmocka_unit_test(test_host_lists),
	    cmocka_unit_test(test_nics),
	    cmocka_unit_test(test_nics_refused),
	    cmocka_unit_test(test_nics_host_list),
	    cmocka_unit_test(test_ranges_from_key_table),
	    cmocka_unit_test(test_roles_load),
	    cmocka_unit_test(test_roles_rules),
	    cmocka_unit_test(test_pool_where_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
