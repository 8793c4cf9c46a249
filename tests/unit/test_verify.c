/* SPDX-License-Identifier: MIT */
/* Counters (a fixture sysfs tree, a captured rdma statistic line) and verdicts. */
#include "helpers.h"

#include "../../verbs/counters.h"
#include "../../verbs/defpath.h"
#include "../../verbs/remote.h"
#include "../../verbs/verdict.h"

#include <sys/stat.h>

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_sysfs_counters_listed_not_assumed(void **state)
{
	(void)state;
	char root[] = "/tmp/qg-sysfs-XXXXXX", dir[4096], cmd[4300];
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/class/infiniband/rxe0/ports/1/hw_counters", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s/../counters", dir, dir);
	assert_int_equal(system(cmd), 0);
	write_file(dir, "sent_pkts", "16043\n");
	write_file(dir, "rcvd_seq_err", "0\n");
	write_file(dir, "lifespan", "10 (not a counter)\n");
	char cdir[4200];
	snprintf(cdir, sizeof(cdir), "%s/../counters", dir);
	write_file(cdir, "port_xmit_data", "123\n");
	struct vc_counters c;
	char err[256];
	assert_int_equal(vc_counters_read(root, "rxe0", 1, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].name, "port_xmit_data"); /* sorted by name */
	assert_int_equal(vc_counter_find(&c, "sent_pkts")->value, 16043);
	assert_null(vc_counter_find(&c, "lifespan"));
	vc_counters_free(&c);
	assert_int_equal(vc_counters_read(root, "mlx5_9", 1, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no counters for mlx5_9 port 1"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_rdma_statistic_capture(void **state)
{
	(void)state;
	char *text = source_file("tests/fixtures/rxe/rdma_statistic_link_6.1.txt");
	struct vc_counters before, after, delta;
	assert_int_equal(vc_counters_parse_rdma_statistic(text, &after), 0);
	assert_int_equal(after.n, 15);
	assert_int_equal(vc_counter_find(&after, "completer_retry_err")->value, 6);
	assert_int_equal(vc_counters_parse_rdma_statistic("link rxe0/1 sent_pkts 1000 "
							  "completer_retry_err 2 new_one 5\n",
							  &before),
			 0);
	assert_int_equal(vc_counters_delta(&before, &after, &delta), 0);
	assert_int_equal(delta.n, 2); /* only names in both */
	assert_int_equal(vc_counter_find(&delta, "sent_pkts")->value, 15043);
	assert_int_equal(vc_counter_find(&delta, "completer_retry_err")->value, 4);
	vc_counters_free(&before);
	assert_int_equal(vc_counters_parse_rdma_statistic("link rxe0/1 sent_pkts x\n", &before),
			 -1);
	vc_counters_free(&after);
	vc_counters_free(&delta);
	free(text);
}

static char *judge(const struct vd_expected *e, const struct vd_measured *m, bool *fatal)
{
	struct vd_list l;
	vd_judge(e, m, &l);
	struct qg_buf b = {0};
	vd_print(&l, &b);
	*fatal = vd_fatal(&l);
	return b.data;
}

static void test_verdicts(void **state)
{
	(void)state;
	struct vc_counters clean = {0}, lossy = {0};
	assert_int_equal(vc_counters_parse_rdma_statistic(
			     "link rxe0/1 sent_pkts 9 rcvd_seq_err 0 np_cnp_sent 3\n", &clean),
			 0);
	assert_int_equal(vc_counters_parse_rdma_statistic(
			     "link rxe0/1 out_of_seq_request 7 completer_retry_err 2\n", &lossy),
			 0);
	struct vd_expected e = {
	    .min_gbps = 10, .mtu = 9000, .path_mtu = 4096, .tos = 106, .ecn = true};
	bool fatal;
	struct vd_measured good = {
	    .gbps = 12.5,
	    .path_mtu = 4096,
	    .side = {{"a", 9000, 4096, 106, &clean}, {"b", 9000, 4096, 106, &clean}},
	    .n_sides = 2};
	char *out = judge(&e, &good, &fatal);
	assert_false(fatal);
	assert_string_equal(
	    out, "[PASS] Check bandwidth: 12.50 Gb/s >= 10.00\n"
		 "[PASS] Check path MTU: 4096 (a active 4096, netdev MTU 9000, b active 4096, "
		 "netdev MTU 9000)\n"
		 "[PASS] Check RoCE marking on a: ToS 106 (0x6a): DSCP 26, ECT(0)\n"
		 "[PASS] Check RoCE marking on b: ToS 106 (0x6a): DSCP 26, ECT(0)\n"
		 "[PASS] Check loss counters: no sequence error, no discard\n"
		 "[PASS] Check retransmissions: none\n"
		 "[PASS] Check ECN and CNP: a np_cnp_sent +3, b np_cnp_sent +3\n"
		 "\nPASS: 7\nMARGINAL: 0\nFATAL: 0\n");
	free(out);

	/* The two negative cases the VM runs: ToS left at 0, MTU 1500 on one side. */
	struct vd_measured bad = {
	    .gbps = 9.5,
	    .path_mtu = 1024,
	    .side = {{"a", 9000, 4096, 106, &clean}, {"b", 1500, 1024, 0, &lossy}},
	    .n_sides = 2};
	out = judge(&e, &bad, &fatal);
	assert_true(fatal);
	assert_non_null(strstr(out, "[MARGINAL] Check bandwidth: 9.50 Gb/s < 10.00, within 10%"));
	assert_non_null(strstr(out, "[FATAL] Check path MTU: 1024 < 4096: b: active MTU 1024, "
				    "netdev MTU 1500 (the intent sets 9000)"));
	assert_non_null(strstr(out, "[PASS] Check RoCE marking on a:"));
	assert_non_null(strstr(out, "[FATAL] Check RoCE marking on b: ToS 0 (0x00) carries DSCP "
				    "0, expected 26"));
	assert_non_null(strstr(out, "[FATAL] Check loss counters: rose during the run: "
				    "b out_of_seq_request +7\n"));
	assert_non_null(strstr(out, "[MARGINAL] Check retransmissions: after ACK timeouts, with "
				    "no sequence error: b completer_retry_err +2 ("));
	assert_non_null(strstr(out, "b reports no ECN counters"));
	free(out);
	/* DSCP right but no ECT(0): marginal, with the reason; unread values are marginal. */
	struct vd_measured noecn = {
	    .gbps = 11,
	    .path_mtu = -1,
	    .side = {{"a", -1, -1, 104, &clean}, {"b", 9000, 4096, -1, NULL}},
	    .n_sides = 2};
	out = judge(&e, &noecn, &fatal);
	assert_false(fatal);
	assert_non_null(
	    strstr(out, "[MARGINAL] Check RoCE marking on a: ToS 104 (0x68): DSCP 26 but ECN "
			"bits 0, expected 2"));
	assert_non_null(strstr(out, "[MARGINAL] Check path MTU: not fully read"));
	assert_non_null(strstr(out, "[MARGINAL] Check RoCE marking on b: rdma_cm's default ToS "
				    "could not be read"));
	assert_non_null(strstr(out, "[MARGINAL] Check loss counters: cannot read the port "
				    "counters of b"));
	free(out);
	/* No traffic at all is fatal. */
	struct vd_measured none = {.gbps = -1, .path_mtu = -1, .n_sides = 0};
	out = judge(&e, &none, &fatal);
	assert_true(fatal);
	assert_non_null(strstr(out, "[FATAL] Check bandwidth: no result"));
	free(out);
	vc_counters_free(&clean);
	vc_counters_free(&lossy);
}

/* Live settings right but the installed copy missing or stale: MARGINAL, never FATAL. */
static void test_persistence_check(void **state)
{
	(void)state;
	struct vd_expected e = {.min_gbps = 1, .mtu = 9000, .path_mtu = 4096, .tos = 106};
	struct vd_measured m = {
	    .gbps = 2,
	    .path_mtu = 4096,
	    .side = {{"a", 9000, 4096, 106, NULL, "[ok] persist: installed, sha256 0123456789ab"},
		     {"b", 9000, 4096, 106, NULL, "[differs] persist: missing -> sha256 0123"}},
	    .n_sides = 2};
	bool fatal;
	char *out = judge(&e, &m, &fatal);
	assert_false(fatal);
	assert_non_null(
	    strstr(out, "[PASS] Check persistence on a: installed, sha256 0123456789ab\n"));
	assert_non_null(strstr(out,
			       "[MARGINAL] Check persistence on b: missing -> sha256 0123: the "
			       "settings would not survive a reboot"));
	free(out);
	m.side[1].persist = "";
	out = judge(&e, &m, &fatal);
	assert_non_null(strstr(out, "[MARGINAL] Check persistence on b: the installed copy could "
				    "not be read"));
	free(out);
	/* persist: false: no line at all. */
	m.side[0].persist = m.side[1].persist = NULL;
	out = judge(&e, &m, &fatal);
	assert_null(strstr(out, "persistence"));
	free(out);
}

/*
 * Issue 35: the default path, a job that sets no traffic class, judged by
 * the ToS the receiver saw. The VM's two cases: the host's settings right
 * (PASS), and rdma_cm's default ToS reset by hand (FATAL, naming it).
 */
static void test_default_path(void **state)
{
	(void)state;
	struct vd_expected e = {
	    .min_gbps = 1, .mtu = 9000, .path_mtu = 4096, .tos = 106, .ecn = true};
	static const int right[] = {106}, zero[] = {0}, remarked[] = {106, 0};
	struct vd_measured m = {
	    .gbps = 2,
	    .path_mtu = 4096,
	    .side = {{"a", 9000, 4096, 106, NULL}, {"b", 9000, 4096, 106, NULL}},
	    .n_sides = 2,
	    .dp = {.asked = true,
		   .sender = "a",
		   .device = "rxe0",
		   .peer = "b",
		   .why = "",
		   .tclass = 106,
		   .sent = 50,
		   .received = 50,
		   .tos = right,
		   .n_tos = 1,
		   .roce_tos = 106,
		   .traffic_class = -1}};
	bool fatal;
	char *out = judge(&e, &m, &fatal);
	assert_false(fatal);
	assert_non_null(strstr(out, "[PASS] Check default path from a: a job that sets no traffic "
				    "class reached b with ToS 106 (DSCP 26, ECT(0)), 50 of 50 "
				    "datagrams\n"));
	free(out);
	m.dp.tos = zero;
	m.dp.tclass = 0;
	m.dp.roce_tos = 0;
	out = judge(&e, &m, &fatal);
	assert_true(fatal);
	assert_non_null(strstr(out,
			       "[FATAL] Check default path from a: a job that sets no traffic "
			       "class (NCCL without NCCL_IB_TC, rdma_cm without a ToS) reached "
			       "b with ToS 0 (DSCP 0), not the lossless DSCP 26: rdma_cm's "
			       "default_roce_tos of rxe0 on a is 0, not 106 (qosgen push sets "
			       "it: roce_tos)\n"));
	free(out);
	/* MLNX_OFED's device traffic class wrong, rdma_cm right. */
	m.dp.roce_tos = 106;
	m.dp.traffic_class = 0;
	out = judge(&e, &m, &fatal);
	assert_non_null(strstr(out, "not the lossless DSCP 26: rxe0's traffic_class "
				    "(tc/1/traffic_class) on a is 0, not 106"));
	free(out);
	/* Both right, one datagram arrived otherwise: the path changed it. */
	m.dp.traffic_class = -1;
	m.dp.tclass = 106;
	m.dp.tos = remarked;
	m.dp.n_tos = 2;
	out = judge(&e, &m, &fatal);
	assert_true(fatal);
	assert_non_null(strstr(out, "a sent ToS 106; something on the path rewrote it to 0"));
	free(out);
	/* Not run: said, not judged. */
	m.dp.why = "qosgen is not installed on a (the probe is qosgen probe --default-path)";
	out = judge(&e, &m, &fatal);
	assert_false(fatal);
	assert_non_null(strstr(out, "[MARGINAL] Check default path from a: not measured: qosgen "
				    "is not installed on a"));
	free(out);
}

/* The receiver's ToS: the IPv4 header in the GRH area's last 20 bytes, else IPv6's class. */
static void test_default_path_tos_and_answers(void **state)
{
	(void)state;
	uint8_t grh[40] = {0};
	grh[20] = 0x45;
	grh[21] = 0x6a;
	assert_int_equal(defpath_tos_of(grh), 106);
	memset(grh, 0, sizeof(grh));
	grh[0] = 0x66; /* version 6, traffic class 0x6a across the nibbles */
	grh[1] = 0xa0;
	assert_int_equal(defpath_tos_of(grh), 106);
	memset(grh, 0, sizeof(grh));
	assert_int_equal(defpath_tos_of(grh), -1);

	struct vr_defpath d;
	char err[128];
	assert_int_equal(
	    vr_defpath_parse("{\"role\": \"server\", \"mode\": \"default-path\", \"device\": "
			     "\"rxe1\", \"received\": 50, \"tos\": [106, 0]}\n"
			     "{\"role\": \"client\", \"mode\": \"default-path\", \"device\": "
			     "\"rxe0\", \"sent\": 50, \"tclass\": 106}\n",
			     &d, err, sizeof(err)),
	    0);
	assert_true(d.have_server && d.have_client);
	assert_int_equal(d.received, 50);
	assert_int_equal(d.n_tos, 2);
	assert_int_equal(d.tos[1], 0);
	assert_int_equal(d.tclass, 106);
	assert_int_equal(vr_defpath_parse("Couldn't connect\n", &d, err, sizeof(err)), -1);
	/* A hostile number is not a ToS. */
	assert_int_equal(
	    vr_defpath_parse("{\"role\": \"client\", \"tclass\": 1e300}\n", &d, err, sizeof(err)),
	    0);
	assert_int_equal(d.tclass, -1);

	/* The scripts: the device shell-quoted, the loopback's server first. */
	static const struct qg_nic nic = {.netdev = "ens1", .rdma_device = "mlx5_0"};
	struct qg_buf b = {0};
	struct vr_defpath_run run = {.loopback = true,
				     .peer = "10.0.0.1",
				     .source = "10.0.0.1",
				     .port = 18515,
				     .count = 50,
				     .limit_s = 60};
	vr_defpath_script(&nic, &run, &b);
	assert_non_null(strstr(b.data, "dev='mlx5_0'\n"));
	assert_non_null(strstr(b.data, "$t qosgen probe --default-path -d \"$dev\" -p 18515 -n 50 "
				       "--server &\n"));
	assert_non_null(strstr(b.data, "$t qosgen probe --default-path -d \"$dev\" -p 18515 -n 50 "
				       "--source 10.0.0.1 10.0.0.1\n"));
	qg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sysfs_counters_listed_not_assumed),
	    cmocka_unit_test(test_rdma_statistic_capture),
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_persistence_check),
	    cmocka_unit_test(test_default_path),
	    cmocka_unit_test(test_default_path_tos_and_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
