/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../model/settings.h"
#include "../../targets/host/linux.h"

#define HOST_PF(tool)                                                                              \
	"hosts:\n  - {name: h, platform: linux, address: h.example.net, netdev: enp1f0, "          \
	"rdma_device: mlx5_0, qos_tool: " tool "}\n"

/* The script host 0 runs (its three parts as one); path: the table of its row. */
static const char *script_for(const char *text, const char *path, struct qg_outset *o,
			      struct qg_model *m)
{
	load_ok(text, m);
	build_ok(m, o);
	assert_non_null(file_text(o, path));
	return host_script(m, 0, o);
}

static void test_pf_mlnx_qos(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("mlnx_qos"), "host/hosts/linux.sh", &o, &m);
	assert_int_equal(strncmp(s, "#!/bin/sh\n", 10), 0);
	/* The host's row: who it is, one line, right after the lib. */
	const char *lib = file_text(&o, "host/lib/linux.sh");
	assert_int_equal(strncmp(s, lib, strlen(lib)), 0);
	assert_int_equal(strncmp(s + strlen(lib),
				 "qg_host='h' qg_group='linux-pf-mlnx_qos' qg_netdev='enp1f0' "
				 "qg_rdma_device='mlx5_0'\n",
				 84),
			 0);
	/* Its group's: what it gets, its devices by name. */
	const char *body = file_text(&o, "host/groups/linux-pf-mlnx_qos.sh");
	assert_non_null(strstr(s, body));
	assert_non_null(strstr(body, "qg_need_netdev \"$qg_netdev\"\n"
				     "qg_mtu \"$qg_netdev\" '9000'\n"
				     "qg_mlnx_qos_trust \"$qg_netdev\" 'dscp'\n"
				     "qg_mlnx_qos_dscp2prio \"$qg_netdev\" '26' '3'\n"
				     "qg_mlnx_qos_dscp2prio \"$qg_netdev\" '48' '6'\n"
				     "qg_mlnx_qos_dscp_others \"$qg_netdev\" '26 48'\n"
				     "qg_mlnx_qos_pfc \"$qg_netdev\" '0,0,0,1,0,0,0,0'\n"
				     "qg_roce_tos \"$qg_rdma_device\" '1' '106'\n"
				     "qg_tclass \"$qg_rdma_device\" '106'\n"
				     "qg_file_default 'ecn.roce_np.enable.0' "
				     "\"/sys/class/net/$qg_netdev/ecn/roce_np/enable/0\" '0'\n"));
	/* DCQCN on all eight priorities: on at the lossless one, off at every other. */
	assert_non_null(strstr(
	    body,
	    "qg_file_default 'ecn.roce_np.enable.2' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_np/enable/2\" "
	    "'0'\n"
	    "qg_file 'ecn.roce_np.enable.3' \"/sys/class/net/$qg_netdev/ecn/roce_np/enable/3\" "
	    "'1'\n"
	    "qg_file_default 'ecn.roce_np.enable.4' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_np/enable/4\" "
	    "'0'\n"));
	assert_non_null(strstr(
	    body,
	    "qg_file 'ecn.roce_rp.enable.3' \"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/3\" "
	    "'1'\n"
	    "qg_file_default 'ecn.roce_rp.enable.4' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/4\" "
	    "'0'\n"
	    "qg_file_default 'ecn.roce_rp.enable.5' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/5\" "
	    "'0'\n"
	    "qg_file_default 'ecn.roce_rp.enable.6' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/6\" "
	    "'0'\n"
	    "qg_file_default 'ecn.roce_rp.enable.7' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/7\" "
	    "'0'\n"
	    "qg_file 'ecn.roce_np.cnp_dscp' \"/sys/class/net/$qg_netdev/ecn/roce_np/cnp_dscp\" "
	    "'48'\n"
	    "qg_file 'ecn.roce_np.cnp_802p_prio' "
	    "\"/sys/class/net/$qg_netdev/ecn/roce_np/cnp_802p_prio\" '6'\n"
	    "qg_conf_var 'nccl.NCCL_IB_TC' '/etc/nccl.conf' 'NCCL_IB_TC' '106'\n"
	    "qg_conf_var 'ucx.UCX_IB_TRAFFIC_CLASS' '/etc/ucx/ucx.conf' 'UCX_IB_TRAFFIC_CLASS' "
	    "'106'\n"));
	/* Nothing of the host in its group's file, nothing of the policy in its own. */
	assert_null(strstr(body, "enp1f0"));
	assert_null(strstr(body, "'h'"));
	assert_null(strstr(file_text(&o, "host/hosts/linux.sh"), "9000"));
	assert_null(strstr(file_text(&o, "host/lib/linux.sh"), "9000"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_pf_dcb(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("dcb"), "host/hosts/linux.sh", &o, &m);
	assert_non_null(
	    strstr(s, "qg_dcb_trust \"$qg_netdev\" 'dscp'\n"
		      "qg_dcb_dscp2prio \"$qg_netdev\" '26' '3'\n"
		      "qg_dcb_dscp2prio \"$qg_netdev\" '48' '6'\n"
		      "qg_dcb_dscp_others \"$qg_netdev\" '26 48'\n"
		      "qg_dcb_pfc \"$qg_netdev\" 'prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off "
		      "6:off 7:off' '0,0,0,1,0,0,0,0' '3'\n"));
	assert_null(strstr(s, "\nqg_mlnx_qos_trust '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_pfc '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_dscp2prio '"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_vf_gets_no_trust_or_pfc(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(
	    BASE_QOS "hosts:\n  - {name: v, platform: linux, function: vf, "
		     "address: v.example.net, netdev: ens224, rdma_device: vmw_pvrdma0}\n",
	    "host/hosts/linux.sh", &o, &m);
	assert_null(strstr(s, "\nqg_mlnx_qos_trust '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_pfc '"));
	assert_null(strstr(s, "\nqg_dcb_trust '"));
	assert_null(strstr(s, "\nqg_dcb_pfc '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_dscp2prio '"));
	assert_null(strstr(s, "\nqg_dcb_dscp2prio '"));
	/* A VF's MTU is the hypervisor's to grant: read back, and a refusal says where to look. */
	assert_non_null(strstr(s,
			       "\nqg_mtu \"$qg_netdev\" '9000' 'a VF MTU is bounded by the MTU "
			       "of the vSwitch or DVS its port group is on (the hypervisor "
			       "checks each request): raise that switch MTU to at least 9000'\n"));
	assert_non_null(strstr(s, "\nqg_roce_tos \"$qg_rdma_device\" '1' '106'\n"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_no_ecn_tos_104_no_dcqcn(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s =
	    script_for("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
		       "pool: {name: r, memory_percent: 50}}\n" HOST_PF("mlnx_qos"),
		       "host/hosts/linux.sh", &o, &m);
	assert_non_null(strstr(s, "\nqg_roce_tos \"$qg_rdma_device\" '1' '104'\n"));
	/*
	 * Issue 35: DCQCN is owned without ECN too, off on every priority, and
	 * the CNP settings back at the firmware's defaults: a host that an
	 * earlier intent gave ECN must not keep it.
	 */
	assert_null(strstr(s, "\nqg_file 'ecn."));
	for (int p = 0; p < 8; p++) {
		char want[160];
		snprintf(want, sizeof(want),
			 "\nqg_file_default 'ecn.roce_rp.enable.%d' "
			 "\"/sys/class/net/$qg_netdev/ecn/roce_rp/enable/%d\" '0'\n",
			 p, p);
		assert_non_null(strstr(s, want));
	}
	assert_non_null(strstr(s, "/ecn/roce_np/cnp_dscp\" '48'\n"));
	assert_non_null(strstr(s, "/ecn/roce_np/cnp_802p_prio\" '6'\n"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* The settings of host 0, which linux_settings() gives plan.json. */
static void settings_of(const struct qg_model *m, struct qg_settings *set)
{
	memset(set, 0, sizeof(*set));
	assert_int_equal(qg_target_linux.settings(m, 0, set), 0);
}

/* Keys starting "dscp2prio.", as "key=value" joined by spaces. */
static void map_settings(const struct qg_settings *set, char *out, size_t cap)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < set->n; i++)
		if (!strncmp(set->v[i].key, "dscp2prio.", 10))
			used += (size_t)snprintf(out + used, cap - used, "%s%s=%s", used ? " " : "",
						 set->v[i].key, set->v[i].value);
}

/* The reference intent: the classes' entries equal mlx5's default, and are set all the same. */
static void test_default_map_entries_for_both_tools(void **state)
{
	(void)state;
	static const char *const tools[] = {"mlnx_qos", "dcb"};
	for (int t = 0; t < 2; t++) {
		char text[1024], want[256];
		snprintf(text, sizeof(text),
			 "%shosts:\n  - {name: h, platform: linux, address: "
			 "h.example.net, netdev: enp1f0, rdma_device: mlx5_0, qos_tool: %s}\n",
			 BASE_QOS, tools[t]);
		struct qg_model m;
		struct qg_outset o;
		const char *s = script_for(text, "host/hosts/linux.sh", &o, &m);
		snprintf(want, sizeof(want),
			 "\nqg_%s_trust \"$qg_netdev\" 'dscp'\n"
			 "qg_%s_dscp2prio \"$qg_netdev\" '26' '3'\n"
			 "qg_%s_dscp2prio \"$qg_netdev\" '48' '6'\n"
			 "qg_%s_dscp_others \"$qg_netdev\" '26 48'\n"
			 "qg_%s_pfc \"$qg_netdev\" ",
			 t ? "dcb" : "mlnx_qos", t ? "dcb" : "mlnx_qos", t ? "dcb" : "mlnx_qos",
			 t ? "dcb" : "mlnx_qos", t ? "dcb" : "mlnx_qos");
		assert_non_null(strstr(s, want));
		struct qg_settings set;
		char got[256];
		settings_of(&m, &set);
		map_settings(&set, got, sizeof(got));
		assert_string_equal(got, "dscp2prio.26=3 dscp2prio.48=6 dscp2prio.others=DSCP/8");
		/* Between trust and pfc, as the script runs them. */
		assert_string_equal(set.v[1].key, "trust");
		assert_string_equal(set.v[2].key, "dscp2prio.26");
		assert_string_equal(set.v[5].key, "pfc");
		qg_settings_free(&set);
		qg_outset_free(&o);
		qg_model_free(&m);
	}
}

/*
 * Issue 13: DSCP 24 on priority 4 and CNP DSCP 46 on priority 7 is not
 * mlx5's default map (24/8 = 3, 46/8 = 5). It builds for Linux hosts, whose
 * scripts set exactly those entries, with either tool; the lossless DSCPs
 * in DSCP order, whatever order the intent lists them in.
 */
static void test_remapped_intent_builds_and_sets_entries(void **state)
{
	(void)state;
	static const char *const tools[] = {"mlnx_qos", "dcb"};
	for (int t = 0; t < 2; t++) {
		char text[1024], want[256];
		snprintf(text, sizeof(text),
			 "version: 1\nfabric: t\nqos:\n  lossless: {priority: 4, dscp: [30, 24], "
			 "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
			 "  cnp: {priority: 7, dscp: 46, ets: strict}\n"
			 "hosts:\n  - {name: h, platform: linux, address: h.example.net, netdev: "
			 "enp1f0, rdma_device: mlx5_0, qos_tool: %s}\n",
			 tools[t]);
		struct qg_model m;
		struct qg_outset o;
		load_ok(text, &m);
		struct qg_diags d;
		qg_diags_init(&d, "t.yaml");
		assert_int_equal(qg_build_check(&m, &d, NULL), 0);
		assert_int_equal(d.n, 0);
		qg_diags_free(&d);
		build_ok(&m, &o);
		const char *s = host_script(&m, 0, &o);
		const char *fn = t ? "qg_dcb_dscp2prio" : "qg_mlnx_qos_dscp2prio";
		snprintf(want, sizeof(want),
			 "\n%s \"$qg_netdev\" '24' '4'\n%s \"$qg_netdev\" '30' '4'\n%s "
			 "\"$qg_netdev\" '46' '7'\n",
			 fn, fn, fn);
		assert_non_null(strstr(s, want));
		/* The host marks the first lossless DSCP, 30: ToS 30 << 2 | ECT(0). */
		assert_non_null(strstr(s, "\nqg_roce_tos \"$qg_rdma_device\" '1' '122'\n"));
		struct qg_settings set;
		char got[256];
		settings_of(&m, &set);
		map_settings(&set, got, sizeof(got));
		assert_string_equal(
		    got, "dscp2prio.24=4 dscp2prio.30=4 dscp2prio.46=7 dscp2prio.others=DSCP/8");
		qg_settings_free(&set);
		/* plan.json carries the same keys, its group's. */
		const char *plan = file_text(&o, "plan.json");
		assert_non_null(strstr(plan, "\"dscp2prio.24\":"));
		assert_non_null(strstr(plan, "\"dscp2prio.46\":"));
		qg_outset_free(&o);
		qg_model_free(&m);
	}
}

/* Without the cnp class only the lossless DSCPs are entries. */
static void test_no_cnp_no_cnp_entry(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s =
	    script_for("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], "
		       "pool: {name: r, memory_percent: 50}}\n" HOST_PF("dcb"),
		       "host/hosts/linux.sh", &o, &m);
	assert_non_null(
	    strstr(s, "\nqg_dcb_dscp2prio \"$qg_netdev\" '26' '3'\n"
		      "qg_dcb_dscp_others \"$qg_netdev\" '26'\nqg_dcb_pfc \"$qg_netdev\" '"));
	struct qg_settings set;
	char got[256];
	settings_of(&m, &set);
	map_settings(&set, got, sizeof(got));
	assert_string_equal(got, "dscp2prio.26=3 dscp2prio.others=DSCP/8");
	qg_settings_free(&set);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * No map entries where the map is not the host's to set or not read: a VF
 * (the PF's map, the hypervisor's, applies) and trust pcp (the NIC
 * classifies by 802.1p), with either tool.
 */
static void test_vf_and_trust_pcp_have_no_map(void **state)
{
	(void)state;
	static const char *const intents[] = {
	    BASE_QOS "hosts:\n  - {name: h, platform: linux, function: vf, address: h.example.net, "
		     "netdev: ens224, rdma_device: mlx5_0}\n",
	    "version: 1\nfabric: t\nqos:\n  trust: pcp\n  lossless: {priority: 4, dscp: [24], "
	    "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
	    "  cnp: {priority: 7, dscp: 46}\n" HOST_PF("mlnx_qos"),
	    "version: 1\nfabric: t\nqos:\n  trust: pcp\n  lossless: {priority: 4, dscp: [24], "
	    "pool: {name: r, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
	    "  cnp: {priority: 7, dscp: 46}\n" HOST_PF("dcb"),
	};
	for (size_t i = 0; i < sizeof(intents) / sizeof(intents[0]); i++) {
		struct qg_model m;
		struct qg_outset o;
		struct qg_diags d;
		/* trust pcp with DSCP lists warns; the build goes on. */
		assert_int_equal(load_text(intents[i], &d, &m), 0);
		qg_diags_free(&d);
		build_ok(&m, &o);
		const char *s = host_script(&m, 0, &o);
		assert_null(strstr(s, "\nqg_mlnx_qos_dscp2prio '"));
		assert_null(strstr(s, "\nqg_dcb_dscp2prio '"));
		struct qg_settings set;
		char got[256];
		settings_of(&m, &set);
		map_settings(&set, got, sizeof(got));
		assert_string_equal(got, "");
		qg_settings_free(&set);
		if (i > 0)
			assert_non_null(strstr(s, "_trust \"$qg_netdev\" 'pcp'\n"));
		qg_outset_free(&o);
		qg_model_free(&m);
	}
}

static void test_settings_match_script_keys(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("mlnx_qos"), "host/hosts/linux.sh", &o, &m);
	const char *plan = file_text(&o, "plan.json");
	/* Every settings key of plan.json is a report key the script prints. */
	static const char *const keys[] = {"mtu",
					   "trust",
					   "pfc",
					   "dscp2prio.26",
					   "dscp2prio.48",
					   "roce_tos",
					   "tclass",
					   "ecn.roce_np.enable.3",
					   "ecn.roce_np.cnp_dscp"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char k[64];
		snprintf(k, sizeof(k), "\"%s\":", keys[i]);
		assert_non_null(strstr(plan, k));
	}
	assert_non_null(strstr(s, "qg_report ok mtu"));
	assert_non_null(strstr(s, "qg_report ok trust"));
	assert_non_null(strstr(s, "qg_report ok pfc"));
	/* The map's helpers report under dscp2prio.<DSCP>, the settings' key. */
	assert_non_null(strstr(s, "\tqg_k=dscp2prio.$2\n"));
	assert_non_null(strstr(s, "qg_report ok \"$qg_k\""));
	assert_non_null(strstr(s, "qg_file roce_tos"));
	assert_non_null(strstr(s, "qg_report ok tclass"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * A site's group template naming one host: an unknown placeholder in the
 * template, reported as such (not a group whose files differ host by host).
 */
static void test_group_template_knows_no_host(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS HOST_PF("mlnx_qos"), &m);
	char dir[] = "/tmp/qg-grp-XXXXXX", path[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/linux-group.sh.in", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# {{group}} of {{host}}\n{{body}}\n", f);
	fclose(f);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, dir, &d), 0);
	struct qg_outset o = {0};
	struct qg_checked ok;
	assert_int_equal(qg_build_check(&m, &d, &ok), 0);
	assert_int_equal(qg_build(&ok, &t, &d, &o), -1);
	assert_true(diag_has(&d, "unknown placeholder"));
	assert_false(diag_has(&d, "internal error"));
	qg_outset_free(&o);
	qg_templates_free(&t);
	qg_diags_free(&d);
	qg_model_free(&m);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pf_mlnx_qos),
	    cmocka_unit_test(test_pf_dcb),
	    cmocka_unit_test(test_vf_gets_no_trust_or_pfc),
	    cmocka_unit_test(test_no_ecn_tos_104_no_dcqcn),
	    cmocka_unit_test(test_default_map_entries_for_both_tools),
	    cmocka_unit_test(test_remapped_intent_builds_and_sets_entries),
	    cmocka_unit_test(test_no_cnp_no_cnp_entry),
	    cmocka_unit_test(test_vf_and_trust_pcp_have_no_map),
	    cmocka_unit_test(test_settings_match_script_keys),
	    cmocka_unit_test(test_group_template_knows_no_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
