/* SPDX-License-Identifier: MIT */
/* Counters (a fixture sysfs tree, a captured rdma statistic line) and verdicts. */
#include "helpers.h"

#include "../../verbs/counters.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sysfs_counters_listed_not_assumed),
	    cmocka_unit_test(test_rdma_statistic_capture),
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_persistence_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
