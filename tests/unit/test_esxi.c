/* SPDX-License-Identifier: MIT */
#include "helpers.h"

static void test_options_and_pvrdma(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok(BASE_QOS "hosts:\n  - {name: e, platform: esxi, address: e.example.net, uplink: "
			 "vmnic4, pvrdma_vmknic: vmk3}\n",
		&m);
	build_ok(&m, &o);
	const char *s = host_script(&m, 0, &o);
	assert_non_null(strstr(file_text(&o, "host/hosts/esxi.sh"),
			       "\nqg_host='e' qg_group='esxi-pvrdma-vmk3' qg_uplink='vmnic4'\n"));
	/* The vmknic is a setting (Net.PVRDMAVmknic), so its group's; the uplink is the host's. */
	assert_non_null(
	    strstr(file_text(&o, "host/groups/esxi-pvrdma-vmk3.sh"),
		   "\nqg_need_uplink \"$qg_uplink\"\n"
		   "qg_module_opts 'nmlx5_core' 'pfctx=0x08' 'pfcrx=0x08' 'trust_state=2' 'ecn=1'\n"
		   "qg_module_opts 'nmlx5_rdma' 'dscp_force=26' 'pcp_force=unset'\n"
		   "qg_advanced_string '/Net/PVRDMAVmknic' 'vmk3' 'Net.PVRDMAVmknic'\n"
		   "qg_firewall_ruleset 'pvrdma'\n"
		   "qg_vmknic_mtu 'vmk3' '9000'\n"));
	struct qg_settings set = {0};
	assert_int_equal(m.hosts[0].target->settings(&m, 0, &set), 0);
	assert_string_equal(qg_settings_get(&set, "nmlx5_core.ecn"), "1");
	qg_settings_free(&set);
	/* The merge, not a plain set: the script reads the live option string. */
	assert_non_null(strstr(s, "esxcfg-module -g"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_pcp_trust_and_priority_5(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok("version: 1\nfabric: t\nqos:\n  trust: pcp\n  lossless: {priority: 5, dscp: [40], "
		"pool: {name: r, memory_percent: 50}, ecn: {min_kb: 1, max_kb: 2}}\n"
		"  cnp: {priority: 6, dscp: 48}\n"
		"hosts:\n  - {name: e, platform: esxi, address: e.example.net, uplink: vmnic1}\n",
		&m);
	build_ok(&m, &o);
	const char *s = host_script(&m, 0, &o);
	assert_non_null(strstr(s, "'pfctx=0x20' 'pfcrx=0x20' 'trust_state=1' 'ecn=1'\n"));
	/* Issue 35: the other of the two forced markings out of the string. */
	assert_non_null(
	    strstr(s, "qg_module_opts 'nmlx5_rdma' 'pcp_force=5' 'dscp_force=unset'\n"));
	assert_null(strstr(s, "\nqg_advanced_string '"));
	assert_null(strstr(s, "\nqg_vmknic_mtu '"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * Without qos.lossless.ecn the driver's ECN feature is still owned, at its
 * documented default 0 (written, so that a host that had it on converges),
 * and explain says so.
 */
static void test_ecn_off_is_owned(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
		"pool: {name: r, memory_percent: 50}}\n"
		"hosts:\n  - {name: e, platform: esxi, address: e.example.net, uplink: vmnic1}\n",
		&m);
	build_ok(&m, &o);
	const char *s = host_script(&m, 0, &o);
	assert_non_null(strstr(s, "qg_module_opts 'nmlx5_core' 'pfctx=0x08' 'pfcrx=0x08' "
				  "'trust_state=2' 'ecn=0'\n"));
	struct qg_settings set = {0};
	assert_int_equal(m.hosts[0].target->settings(&m, 0, &set), 0);
	assert_string_equal(qg_settings_get(&set, "nmlx5_core.ecn"), "0");
	qg_settings_free(&set);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* The esxi target's own rule, in its check(): once per intent entry, at the vmknic. */
static void test_vmknic_mtu_refused_once(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok("version: 1\nfabric: t\nqos:\n  mtu: 9100\n  lossless: {priority: 3, dscp: "
		"[26], pool: {name: r, memory_percent: 50}}\n"
		"hosts:\n  - {name: \"e[1-3]\", platform: esxi, address: 10.0.0.1, uplink: vmnic2, "
		"pvrdma_vmknic: vmk1}\n",
		&m);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), -1);
	assert_int_equal(d.errors, 1);
	assert_true(diag_has(&d, "hosts[e1].pvrdma_vmknic: vmk1 would get qos.mtu 9100, above "
				 "ESXi's maximum of 9000 for a VMkernel NIC"));
	assert_int_equal(d.v[0].pos.line, 7);
	qg_diags_free(&d);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options_and_pvrdma),
	    cmocka_unit_test(test_pcp_trust_and_priority_5),
	    cmocka_unit_test(test_ecn_off_is_owned),
	    cmocka_unit_test(test_vmknic_mtu_refused_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
