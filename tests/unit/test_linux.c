/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#define HOST_PF(tool)                                                                              \
	"hosts:\n  - {name: h, platform: linux, address: h.example.net, netdev: enp1f0, "          \
	"rdma_device: mlx5_0, qos_tool: " tool "}\n"

static char *script_for(const char *text, const char *path, struct qg_outset *o, struct qg_model *m)
{
	load_ok(text, m);
	build_ok(m, o);
	return (char *)file_text(o, path);
}

static void test_pf_mlnx_qos(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("mlnx_qos"), "host/h.sh", &o, &m);
	assert_non_null(strstr(s, "#!/bin/sh\n"));
	assert_non_null(strstr(
	    s, "qg_need_netdev 'enp1f0'\n"
	       "qg_mtu 'enp1f0' '9000'\n"
	       "qg_mlnx_qos_trust 'enp1f0' 'dscp'\n"
	       "qg_mlnx_qos_pfc 'enp1f0' '0,0,0,1,0,0,0,0'\n"
	       "qg_roce_tos 'mlx5_0' '1' '106'\n"
	       "qg_tclass 'mlx5_0' '106'\n"
	       "qg_file 'ecn.roce_np.enable.3' '/sys/class/net/enp1f0/ecn/roce_np/enable/3' '1'\n"
	       "qg_file 'ecn.roce_rp.enable.3' '/sys/class/net/enp1f0/ecn/roce_rp/enable/3' '1'\n"
	       "qg_file 'ecn.roce_np.cnp_dscp' '/sys/class/net/enp1f0/ecn/roce_np/cnp_dscp' '48'\n"
	       "qg_file 'ecn.roce_np.cnp_802p_prio' "
	       "'/sys/class/net/enp1f0/ecn/roce_np/cnp_802p_prio' '6'\n"));
	assert_int_equal(qg_outset_find(&o, "host/h.sh")->mode, 0755);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_pf_dcb(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("dcb"), "host/h.sh", &o, &m);
	assert_non_null(strstr(s,
			       "qg_dcb_trust 'enp1f0' 'dscp'\n"
			       "qg_dcb_app 'enp1f0' '26:3 48:6'\n"
			       "qg_dcb_pfc 'enp1f0' 'prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off "
			       "6:off 7:off' '0,0,0,1,0,0,0,0' '3'\n"));
	assert_null(strstr(s, "\nqg_mlnx_qos_trust '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_pfc '"));
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
	    "host/v.sh", &o, &m);
	assert_null(strstr(s, "\nqg_mlnx_qos_trust '"));
	assert_null(strstr(s, "\nqg_mlnx_qos_pfc '"));
	assert_null(strstr(s, "\nqg_dcb_trust '"));
	assert_null(strstr(s, "\nqg_dcb_pfc '"));
	assert_non_null(strstr(s, "\nqg_mtu 'ens224' '9000'\n"));
	assert_non_null(strstr(s, "\nqg_roce_tos 'vmw_pvrdma0' '1' '106'\n"));
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
		       "host/h.sh", &o, &m);
	assert_non_null(strstr(s, "\nqg_roce_tos 'mlx5_0' '1' '104'\n"));
	assert_null(strstr(s, "ecn.roce_np"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_settings_match_script_keys(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	const char *s = script_for(BASE_QOS HOST_PF("mlnx_qos"), "host/h.sh", &o, &m);
	const char *plan = file_text(&o, "plan.json");
	/* Every settings key of plan.json is a report key the script prints. */
	static const char *const keys[] = {"mtu",
					   "trust",
					   "pfc",
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
	assert_non_null(strstr(s, "qg_file roce_tos"));
	assert_non_null(strstr(s, "qg_report ok tclass"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pf_mlnx_qos),
	    cmocka_unit_test(test_pf_dcb),
	    cmocka_unit_test(test_vf_gets_no_trust_or_pfc),
	    cmocka_unit_test(test_no_ecn_tos_104_no_dcqcn),
	    cmocka_unit_test(test_settings_match_script_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
