/* SPDX-License-Identifier: MIT */
/*
 * What verify runs on hosts: the facts script really run by /bin/sh on this
 * machine, the traffic script run against stand-in tools in PATH, and the
 * result parser on a real ib_write_bw capture (tests/fixtures/rxe).
 */
#include "helpers.h"

#include "../../verbs/remote.h"

#include <sys/stat.h>
#include <sys/wait.h>

/* Run SCRIPT with sh -s and PATH=DIR:$PATH; return its stdout (malloc'ed). */
static char *run_sh(const char *script, const char *dir, int *status)
{
	char tmpl[] = "/tmp/qg-remote-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, script, strlen(script)), (ssize_t)strlen(script));
	close(fd);
	char cmd[8400];
	snprintf(cmd, sizeof(cmd), "PATH=%s:$PATH sh -s <%s 2>/dev/null",
		 dir ? dir : "/nonexistent", tmpl);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct qg_buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		qg_buf_append(&b, chunk, n);
	*status = WEXITSTATUS(pclose(p));
	unlink(tmpl);
	return b.data ? b.data : strdup("");
}

static void fake_tool(const char *dir, const char *name, const char *body)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s", body);
	fclose(f);
	chmod(path, 0755);
}

static void test_facts_script_runs(void **state)
{
	(void)state;
	/* lo exists everywhere; the RDMA device does not: those facts are absent. */
	struct qg_nic h = {.netdev = "lo", .rdma_device = "qg_nodev0"};
	struct qg_buf s = {0};
	vr_facts_script(&h, &s);
	int st;
	char *out = run_sh(s.data, NULL, &st);
	assert_int_equal(st, 0);
	struct vr_facts f;
	char err[256];
	assert_int_equal(vr_facts_parse(out, &f, err, sizeof(err)), 0);
	assert_true(f.seen);
	assert_int_equal(f.netdev_mtu, 65536);
	assert_string_equal(f.ipv4, "127.0.0.1");
	assert_int_equal(f.active_mtu, -1);
	assert_int_equal(f.gid_index, -1);
	assert_int_equal(f.roce_tos, -1);
	assert_int_equal(f.counters.n, 0);
	vr_facts_free(&f);
	free(out);
	qg_buf_free(&s);
	/* Nothing from the intent reaches the shell unquoted. */
	struct qg_nic evil = {.netdev = "lo'$(touch x)", .rdma_device = "a;b"};
	vr_facts_script(&evil, &s);
	assert_non_null(strstr(s.data, "net='lo'\\''$(touch x)'\n"));
	qg_buf_free(&s);
}

/*
 * Issue 28: a rail's facts and traffic are its own NIC's. Two NICs of one
 * host: each script names its netdev and RDMA device only, and the facts say
 * which of them the host lacks (a rail whose NIC is missing fails alone).
 */
static void test_per_nic_scripts(void **state)
{
	(void)state;
	const struct qg_nic nics[2] = {{.netdev = "lo", .rdma_device = "qg_nodev0"},
				       {.netdev = "qg_nonet3", .rdma_device = "qg_nodev3"}};
	struct vr_facts f[2];
	char err[256], why[200];
	for (int i = 0; i < 2; i++) {
		struct qg_buf s = {0};
		vr_facts_script(&nics[i], &s);
		assert_non_null(strstr(s.data, i ? "net='qg_nonet3'\ndev='qg_nodev3'\n"
						 : "net='lo'\ndev='qg_nodev0'\n"));
		assert_null(strstr(s.data, i ? "qg_nodev0" : "qg_nodev3"));
		int st;
		char *out = run_sh(s.data, NULL, &st);
		assert_int_equal(st, 0);
		assert_int_equal(vr_facts_parse(out, &f[i], err, sizeof(err)), 0);
		free(out);
		qg_buf_free(&s);
	}
	/* lo is there, its RDMA device is not; the second NIC has neither. */
	assert_false(f[0].netdev_missing);
	assert_true(f[0].rdma_missing);
	assert_int_equal(f[0].netdev_mtu, 65536);
	assert_true(vr_nic_missing(&f[0], &nics[0], why, sizeof(why)));
	assert_string_equal(why, "no RDMA device 'qg_nodev0' on this host");
	assert_true(f[1].netdev_missing && f[1].rdma_missing);
	assert_int_equal(f[1].netdev_mtu, -1);
	assert_string_equal(f[1].ipv4, "");
	assert_true(vr_nic_missing(&f[1], &nics[1], why, sizeof(why)));
	assert_string_equal(why, "no network device 'qg_nonet3' and no RDMA device 'qg_nodev3' on "
				 "this host");
	for (int i = 0; i < 2; i++)
		vr_facts_free(&f[i]);
	/* A NIC that is there says nothing missing. */
	assert_int_equal(
	    vr_facts_parse("qosgen-facts 1\nmissing netdev\n", &f[0], err, sizeof(err)), 0);
	assert_true(vr_nic_missing(&f[0], &nics[1], why, sizeof(why)));
	assert_string_equal(why, "no network device 'qg_nonet3' on this host");
	vr_facts_free(&f[0]);
	assert_int_equal(
	    vr_facts_parse("qosgen-facts 1\nnetdev_mtu 9000\n", &f[0], err, sizeof(err)), 0);
	assert_false(vr_nic_missing(&f[0], &nics[1], why, sizeof(why)));
	vr_facts_free(&f[0]);
	/* Each rail's traffic runs on its own RDMA device, with its own GID. */
	struct vr_run run = {.server = true,
			     .tcp_port = 18515,
			     .tclass = 106,
			     .gid_index = 3,
			     .size = 65536,
			     .iters = 100};
	for (int i = 0; i < 2; i++) {
		struct qg_buf s = {0};
		vr_run_script(&nics[i], &run, &s);
		assert_non_null(strstr(s.data, i ? "dev='qg_nodev3'\n" : "dev='qg_nodev0'\n"));
		assert_non_null(strstr(s.data, "qosgen probe -d \"$dev\" -x 3 -p 18515"));
		qg_buf_free(&s);
	}
}

static void test_facts_parse(void **state)
{
	(void)state;
	struct vr_facts f;
	char err[256];
	const char *text = "qosgen-facts 1\n"
			   "netdev_mtu 9000\n"
			   "ipv4 10.77.0.2\n"
			   "port_state 4: ACTIVE\n"
			   "active_mtu 4096\n"
			   "gid_index 1\n"
			   "roce_tos 106\n"
			   "counter rcvd_seq_err 0\n"
			   "counter out_of_seq_request 7\n"
			   "counter rx_prio3_discards 2\n"
			   "counter broken 1x\n"
			   "have qosgen\n"
			   "have ib_write_bw\n";
	assert_int_equal(vr_facts_parse(text, &f, err, sizeof(err)), 0);
	assert_int_equal(f.netdev_mtu, 9000);
	assert_string_equal(f.ipv4, "10.77.0.2");
	assert_string_equal(f.port_state, "4: ACTIVE");
	assert_int_equal(f.active_mtu, 4096);
	assert_int_equal(f.gid_index, 1);
	assert_int_equal(f.roce_tos, 106);
	assert_true(f.have_qosgen && f.have_perftest);
	assert_int_equal(f.counters.n, 3);
	assert_string_equal(f.counters.v[0].name, "out_of_seq_request"); /* sorted */
	assert_int_equal(vc_counter_find(&f.counters, "rx_prio3_discards")->value, 2);
	vr_facts_free(&f);
	/* An address that is not a dotted quad never reaches a command line. */
	assert_int_equal(vr_facts_parse("qosgen-facts 1\nipv4 1.2.3.4;reboot\nroce_tos 300\n", &f,
					err, sizeof(err)),
			 0);
	assert_string_equal(f.ipv4, "");
	assert_int_equal(f.roce_tos, -1);
	vr_facts_free(&f);
	assert_int_equal(vr_facts_parse("sh: 1: syntax error\n", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "printed no facts"));
}

static void test_run_script_prefers_qosgen(void **state)
{
	(void)state;
	char dir[] = "/tmp/qg-tools-XXXXXX";
	assert_non_null(mkdtemp(dir));
	fake_tool(dir, "qosgen", "echo \"$@\"\n");
	struct qg_nic h = {.rdma_device = "rxe0"};
	struct vr_run client = {.peer = "10.77.0.2",
				.tcp_port = 18515,
				.tclass = 106,
				.gid_index = -1,
				.size = 65536,
				.iters = 763};
	struct qg_buf s = {0};
	vr_run_script(&h, &client, &s);
	int st;
	char *out = run_sh(s.data, dir, &st);
	assert_int_equal(st, 0);
	assert_string_equal(out, "probe -d rxe0 -p 18515 -s 65536 -n 763 --tclass 106 10.77.0.2\n");
	free(out);
	qg_buf_free(&s);
	struct vr_run server = {.server = true,
				.tcp_port = 18515,
				.tclass = 106,
				.gid_index = 1,
				.size = 65536,
				.iters = 763,
				.limit_s = 60};
	vr_run_script(&h, &server, &s);
	out = run_sh(s.data, dir, &st);
	assert_string_equal(out,
			    "probe -d rxe0 -x 1 -p 18515 -s 65536 -n 763 --tclass 106 --server\n");
	free(out);
	qg_buf_free(&s);

	/* No qosgen: ib_write_bw with the same parameters; the client retries while the server is
	 * not up. */
	char path[4200];
	snprintf(path, sizeof(path), "%s/qosgen", dir);
	unlink(path);
	fake_tool(dir, "ib_write_bw",
		  "if [ ! -e \"$0.tried\" ]; then : >\"$0.tried\"; echo \" Couldn't connect to "
		  "10.77.0.2:18515\"; exit 1; fi\n"
		  "echo \"$@\"\n");
	client.gid_index = 1;
	vr_run_script(&h, &client, &s);
	out = run_sh(s.data, dir, &st);
	assert_int_equal(st, 0);
	assert_string_equal(out, "-F --report_gbits -d rxe0 -x 1 -p 18515 -s 65536 -n 763 "
				 "--tclass=106 10.77.0.2\n");
	free(out);
	qg_buf_free(&s);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static void test_result_parse(void **state)
{
	(void)state;
	struct vr_result r;
	char err[256];
	assert_int_equal(
	    vr_result_parse("{\"role\": \"client\", \"device\": \"rxe0\", \"gid_index\": 1, "
			    "\"active_mtu\": 4096, \"path_mtu\": 4096, \"tclass\": 106, \"size\": "
			    "65536, \"iters\": 2000, \"seconds\": 1.771, \"gbps\": 0.592, "
			    "\"msg_rate_mpps\": 0.001129, \"peer_version\": \"6.06\"}\n",
			    &r, err, sizeof(err)),
	    0);
	assert_string_equal(r.tool, "qosgen probe");
	assert_float_equal(r.gbps, 0.592, 1e-9);
	assert_int_equal(r.path_mtu, 4096);
	assert_int_equal(r.tclass, 106);
	assert_int_equal(r.iters, 2000);

	/* A real ib_write_bw client report, timestamps of the serial console cut off. */
	char *log = source_file("tests/fixtures/rxe/ib_write_bw_client_6.1.txt");
	char *start = strstr(log, "RDMA_Write BW Test");
	assert_non_null(start);
	struct qg_buf b = {0};
	for (char *line = strtok(start, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "@@"))
			break;
		char *close = strchr(line, ']');
		qg_buf_printf(&b, "%s\n", close ? close + 1 : line);
	}
	assert_int_equal(vr_result_parse(b.data, &r, err, sizeof(err)), 0);
	assert_string_equal(r.tool, "ib_write_bw");
	assert_int_equal(r.path_mtu, 4096);
	assert_int_equal(r.gid_index, 1);
	assert_int_equal(r.size, 65536);
	assert_int_equal(r.iters, 1000);
	assert_float_equal(r.gbps, 67.43 * 1048576 * 8 / 1e9, 1e-9); /* MiB/s to Gb/s */
	qg_buf_free(&b);
	free(log);
	/* --report_gbits: the header says so, and the figure is taken as is. */
	assert_int_equal(vr_result_parse(" #bytes     #iterations    BW peak[Gb/sec]    BW "
					 "average[Gb/sec]   MsgRate[Mpps]\n"
					 " 65536      763             0.61               0.58  "
					 "\t\t   0.001126\n",
					 &r, err, sizeof(err)),
			 0);
	assert_float_equal(r.gbps, 0.58, 1e-9);
	assert_int_equal(
	    vr_result_parse(" Couldn't connect to 10.77.0.2:18515\n", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no result line"));
	assert_int_equal(vr_result_parse("{\"gbps\": \"x\"}\n", &r, err, sizeof(err)), -1);
}

/*
 * Numbers from a host are range-checked before any conversion: 1e300 cast
 * to int is undefined behaviour (the sanitizer build stops on it), and on
 * x86 it reads as INT_MIN. Out of range is "not reported".
 */
static void test_result_numbers_out_of_range(void **state)
{
	(void)state;
	struct vr_result r;
	char err[256];
	assert_int_equal(vr_result_parse("{\"gbps\": 1.5, \"active_mtu\": 1e300, \"path_mtu\": "
					 "-1e300, \"tclass\": 256, \"gid_index\": 2.5e9, \"size\": "
					 "1e300, \"iters\": -5}\n",
					 &r, err, sizeof(err)),
			 0);
	assert_float_equal(r.gbps, 1.5, 1e-9);
	assert_int_equal(r.active_mtu, -1);
	assert_int_equal(r.path_mtu, -1);
	assert_int_equal(r.tclass, -1);
	assert_int_equal(r.gid_index, -1);
	assert_int_equal(r.size, 0);
	assert_int_equal(r.iters, 0);
	/* A bandwidth that is no number (1e999 reads as infinity) is no result. */
	assert_int_equal(vr_result_parse("{\"gbps\": 1e999}\n", &r, err, sizeof(err)), -1);
	/* perftest's text report: out-of-range figures are not taken either. */
	assert_int_equal(vr_result_parse(" Mtu : 99999999999999[B]\n GID index : -7\n"
					 " #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec]\n"
					 " 65536 10 1 1\n",
					 &r, err, sizeof(err)),
			 0);
	assert_int_equal(r.path_mtu, -1);
	assert_int_equal(r.gid_index, -1);
}

/* A tool's last lines go into verify's message: one line, the host's control bytes escaped. */
static void test_output_tail_escaped(void **state)
{
	(void)state;
	char t[128];
	const char *out = "line 1\nline 2\n\x1b]0;owned\x07 \xc2\x9b"
			  "2J done\n\n";
	vr_output_tail(out, strlen(out), t, sizeof(t));
	assert_string_equal(t, "line 2 \\x1b]0;owned\\x07 \\u009b2J done");
	vr_output_tail("one\n", 4, t, sizeof(t));
	assert_string_equal(t, "one");
	vr_output_tail("", 0, t, sizeof(t));
	assert_string_equal(t, "");
}

/* Counter names reach verify's lines: only the characters sysfs and ethtool use. */
static void test_facts_counter_names(void **state)
{
	(void)state;
	struct vr_facts f;
	char err[256];
	assert_int_equal(vr_facts_parse("qosgen-facts 1\n"
					"counter rx_prio3_discards 2\n"
					"counter \x1b]0;owned\x07 5\n"
					"counter a\xc2\x9b"
					"2J 5\n",
					&f, err, sizeof(err)),
			 0);
	assert_int_equal(f.counters.n, 1);
	assert_string_equal(f.counters.v[0].name, "rx_prio3_discards");
	vr_facts_free(&f);
}

static void test_iters(void **state)
{
	(void)state;
	/* 90 Gb/s for 5 s in 64 KiB messages; a tiny minimum still sends 100. */
	assert_int_equal(vr_iters(65536, 5, 9000), 858307);
	assert_int_equal(vr_iters(65536, 2, 20), 763);
	assert_int_equal(vr_iters(65536, 1, 1), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_facts_script_runs),
	    cmocka_unit_test(test_facts_parse),
	    cmocka_unit_test(test_per_nic_scripts),
	    cmocka_unit_test(test_run_script_prefers_qosgen),
	    cmocka_unit_test(test_result_parse),
	    cmocka_unit_test(test_result_numbers_out_of_range),
	    cmocka_unit_test(test_facts_counter_names),
	    cmocka_unit_test(test_output_tail_escaped),
	    cmocka_unit_test(test_iters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
