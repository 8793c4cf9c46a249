/* SPDX-License-Identifier: MIT */
/* Host read-back parsers and the script report parser, on real captured outputs. */
#include "helpers.h"

#include <errno.h>

#include "../../targets/common/report.h"
#include "../../targets/esxi/esxi_readback.h"
#include "../../targets/host/linux_readback.h"

static char *fixture(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "tests/fixtures/%s", rel);
	return source_file(path);
}

/* The part of a fixture file after the line "# <command>". */
static char *section(char *text, const char *command)
{
	char *s = strstr(text, command);
	assert_non_null(s);
	s = strchr(s, '\n') + 1;
	char *next = strstr(s, "\n# ");
	if (next)
		next[1] = '\0';
	return s;
}

static void test_mlnx_qos_2023_default(void **state)
{
	(void)state;
	char *t = fixture("host/mlnx_qos_pcp_default_2023.txt");
	struct qg_settings s = {0};
	assert_int_equal(linux_readback_mlnx_qos(t, &s), 0);
	assert_string_equal(qg_settings_get(&s, "trust"), "pcp");
	assert_string_equal(qg_settings_get(&s, "pfc"), "0,0,0,0,0,0,0,0");
	assert_string_equal(qg_settings_get(&s, "dcbx"), "os");
	qg_settings_free(&s);
	free(t);
}

static void test_mlnx_qos_other_generations(void **state)
{
	(void)state;
	/* Older MLNX_OFED: no receive-buffer lines, no buffer row, firmware DCBX. */
	const char *old = "DCBX mode: Firmware controlled\n"
			  "Priority trust state: dscp\n"
			  "dscp2prio mapping:\n"
			  "\tprio:3 dscp:31,30,29,28,27,26,25,24,\n"
			  "Cable len: 7\n"
			  "PFC configuration:\n"
			  "\tpriority    0   1   2   3   4   5   6   7\n"
			  "\tenabled     0   0   0   1   0   0   0   0   \n"
			  "tc: 6 ratelimit: unlimited, tsa: vendor\n"
			  "\t priority:  6\n";
	struct qg_settings s = {0};
	assert_int_equal(linux_readback_mlnx_qos(old, &s), 0);
	assert_string_equal(qg_settings_get(&s, "trust"), "dscp");
	assert_string_equal(qg_settings_get(&s, "pfc"), "0,0,0,1,0,0,0,0");
	assert_string_equal(qg_settings_get(&s, "dcbx"), "fw");
	qg_settings_free(&s);
	assert_int_equal(linux_readback_mlnx_qos("mlnx_qos: command not found\n", &s), -EINVAL);
	assert_int_equal(linux_readback_mlnx_qos("Priority trust state: pcp\n"
						 "\tenabled 0 0 0 1\n",
						 &s),
			 -EINVAL);
	qg_settings_free(&s);
}

static void test_dcb_manpage_outputs(void **state)
{
	(void)state;
	char *t = fixture("host/dcb_manpage_examples.txt");
	char *pfc = strdup(section(t, "# dcb pfc show dev eth0"));
	free(t);
	t = fixture("host/dcb_manpage_examples.txt");
	char *sym = strdup(section(t, "# dcb app show dev eth0 dscp-prio"));
	free(t);
	t = fixture("host/dcb_manpage_examples.txt");
	char *num = strdup(section(t, "# dcb -N app show dev eth0 dscp-prio"));
	free(t);
	t = fixture("host/dcb_manpage_examples.txt");
	char *trust = strdup(section(t, "# dcb apptrust show dev eth0"));
	free(t);

	struct qg_settings s = {0};
	assert_int_equal(linux_readback_dcb_pfc(pfc, &s), 0);
	assert_string_equal(qg_settings_get(&s, "pfc"), "0,0,0,0,0,0,1,1");
	qg_settings_free(&s);
	/* Symbolic and numeric forms of the same table read alike. */
	assert_int_equal(linux_readback_dcb_app(sym, &s), 0);
	assert_string_equal(qg_settings_get(&s, "dscp_prio"), "0:0 24:2 24:3 48:6");
	qg_settings_free(&s);
	assert_int_equal(linux_readback_dcb_app(num, &s), 0);
	assert_string_equal(qg_settings_get(&s, "dscp_prio"), "0:0 24:2 24:3 48:6");
	qg_settings_free(&s);
	assert_int_equal(linux_readback_dcb_apptrust(trust, &s), 0);
	assert_string_equal(qg_settings_get(&s, "trust"), "port pcp ethtype");
	qg_settings_free(&s);
	assert_int_equal(linux_readback_dcb_pfc("prio-pfc 0:off 1:on\n", &s), -EINVAL);
	assert_int_equal(linux_readback_dcb_app("dscp-prio XX:1\n", &s), -EINVAL);
	qg_settings_free(&s);
	free(pfc);
	free(sym);
	free(num);
	free(trust);
}

static void test_esxi_module_and_pause(void **state)
{
	(void)state;
	char *t = fixture("esxi/esxcfg_module_g_nmlx5.txt");
	struct qg_settings s = {0};
	assert_int_equal(esxi_readback_module(section(t, "# esxcfg-module -g nmlx5_core"), &s), 0);
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.pfctx"), "0x08");
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.pfcrx"), "0x08");
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.trust_state"), "2");
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.max_vfs"), "<value>");
	/* Not written: the default in effect (issue 23), as the target's settings name it. */
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.ecn"), "0");
	qg_settings_free(&s);
	assert_int_equal(
	    esxi_readback_module("nmlx5_core enabled = 1 options = 'ecn=1 pfctx=8'\n", &s), 0);
	assert_string_equal(qg_settings_get(&s, "nmlx5_core.ecn"), "1");
	assert_int_equal(s.n, 2);
	qg_settings_free(&s);
	free(t);
	t = fixture("esxi/esxcfg_module_g_nmlx5.txt");
	assert_int_equal(esxi_readback_module(section(t, "# esxcfg-module -g nmlx5_rdma"), &s), 0);
	assert_string_equal(qg_settings_get(&s, "nmlx5_rdma.dscp_force"), "26");
	assert_null(qg_settings_get(&s, "nmlx5_rdma.ecn"));
	qg_settings_free(&s);
	free(t);

	t = fixture("esxi/esxcli_network_nic_pauseParams_list.txt");
	assert_int_equal(esxi_readback_pause(t, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(qg_settings_get(&s, "vmnic2.pause_rx"), "true");
	assert_string_equal(qg_settings_get(&s, "vmnic1.pause_tx"), "true");
	qg_settings_free(&s);
	free(t);
	assert_int_equal(esxi_readback_module("Module nmlx5_core not found\n", &s), -EINVAL);
}

static void test_script_report(void **state)
{
	(void)state;
	struct qg_report r;
	assert_int_equal(qg_report_parse("[ok] mtu: 9000\n"
					 "[changed] trust: pcp -> dscp\n"
					 "some tool chatter\n"
					 "[missing] ecn.roce_np.enable.3: no /sys/x\n"
					 "[n/a] tclass: no file\n"
					 "[reboot] module options changed: reboot\n"
					 "[bogus] x: y\n",
					 &r),
			 0);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.other_lines, 2);
	assert_int_equal(r.v[1].status, QG_REPORT_CHANGED);
	assert_string_equal(r.v[1].key, "trust");
	assert_string_equal(r.v[1].detail, "pcp -> dscp");
	assert_string_equal(r.v[2].key, "ecn.roce_np.enable.3");
	assert_int_equal(r.v[3].status, QG_REPORT_NA);
	assert_int_equal(r.v[4].status, QG_REPORT_REBOOT);
	assert_string_equal(r.v[4].detail, "module options changed: reboot");
	qg_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mlnx_qos_2023_default),
	    cmocka_unit_test(test_mlnx_qos_other_generations),
	    cmocka_unit_test(test_dcb_manpage_outputs),
	    cmocka_unit_test(test_esxi_module_and_pause),
	    cmocka_unit_test(test_script_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
