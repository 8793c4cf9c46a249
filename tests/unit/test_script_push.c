/* SPDX-License-Identifier: MIT */
/* targets/common/script_push.c: the host push's threads and its reading of a script's report. */
#include "helpers.h"

#include "../../lib/hash.h"
#include "../../emit/modeljson.h"
#include "../../model/target.h"
#include "../../lib/version.h"
#include "../../targets/common/script_push.h"

#include <ftw.h>
#include <pthread.h>
#include <sys/stat.h>

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

#define N_HOSTS 40
#define N_THREADS 16

struct race {
	const struct qg_model *m;
	const struct qg_emit_ctx *ctx;
	struct qg_push_result r[N_HOSTS];
	int rc[N_HOSTS];
	size_t next;
	pthread_mutex_t lock;
};

/* As push/push.c's workers: one shared ctx, a device at a time, pushes in parallel. */
static void *race_worker(void *arg)
{
	struct race *w = arg;
	struct qg_access o = {.ssh = {.connect_timeout_s = 1}};
	for (;;) {
		pthread_mutex_lock(&w->lock);
		size_t i = w->next++;
		pthread_mutex_unlock(&w->lock);
		if (i >= N_HOSTS)
			return NULL;
		const struct qg_driver *drv = qg_driver_for(qg_target_for(w->m, QG_DEVICE_HOST, i));
		w->rc[i] = drv->push(w->m, i, w->ctx, &o, false, &w->r[i]);
	}
}

/*
 * Issue 18, finding 3: 40 hosts, a --templates directory with a malformed
 * placeholder, 16 workers. Each worker's emit appended the template error to
 * the one diagnostics list of the shared ctx, unlocked: a double free, a use
 * after free and a heap overflow under ASan. The push of a host must not
 * write to ctx at all; its error is its own, in its result.
 */
static void test_parallel_pushes_share_no_diagnostics(void **state)
{
	(void)state;
	char dir[64], path[128];
	snprintf(dir, sizeof(dir), "/tmp/qg-tpl-XXXXXX");
	assert_non_null(mkdtemp(dir));
	static const char *const names[] = {"esxi-lib.sh", "linux-lib.sh"};
	for (size_t k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s.in", dir, names[k]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs("#!/bin/sh\n# {{generator}} for {{ host }}\n{{body}}\n", f);
		fclose(f);
	}
	struct qg_buf y = {0};
	qg_buf_puts(&y, BASE_QOS "hosts:\n");
	for (int i = 0; i < N_HOSTS / 2; i++) {
		/* 192.0.2.0/24 (TEST-NET-1): never reached, the script is never generated. */
		qg_buf_printf(&y,
			      "  - {name: esx%d, platform: esxi, address: 192.0.2.%d, uplink: "
			      "vmnic2}\n",
			      i, i + 1);
		qg_buf_printf(&y,
			      "  - {name: lin%d, platform: linux, address: 192.0.2.%d, netdev: "
			      "eth0, rdma_device: mlx5_0}\n",
			      i, i + 101);
	}
	struct qg_model m;
	load_ok(y.data, &m);
	qg_buf_free(&y);

	struct qg_diags d;
	qg_diags_init(&d, "templates");
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, dir, &d), 0);
	char hash[QG_SHA256_HEX];
	assert_int_equal(qg_model_hash(&m, hash), 0);
	struct qg_emit_ctx ctx = {
	    .templates = &t, .generator = QG_GENERATOR, .intent_hash = hash, .d = &d};

	static struct race w;
	memset(&w, 0, sizeof(w));
	w.m = &m;
	w.ctx = &ctx;
	pthread_mutex_init(&w.lock, NULL);
	pthread_t tid[N_THREADS];
	for (int k = 0; k < N_THREADS; k++)
		assert_int_equal(pthread_create(&tid[k], NULL, race_worker, &w), 0);
	for (int k = 0; k < N_THREADS; k++)
		pthread_join(tid[k], NULL);
	pthread_mutex_destroy(&w.lock);

	/* Nothing in the shared list: before the fix, one error per host landed there. */
	assert_int_equal(d.n, 0);
	for (size_t i = 0; i < N_HOSTS; i++) {
		assert_int_equal(w.rc[i], -1);
		assert_int_equal(w.r[i].state, QG_PUSH_UNCHANGED);
		const char *tpl = i % 2 ? "/linux-lib.sh.in:2:" : "/esxi-lib.sh.in:2:";
		if (!strstr(w.r[i].message, "cannot generate the host script: ") ||
		    !strstr(w.r[i].message, tpl) ||
		    !strstr(w.r[i].message, "malformed placeholder"))
			fail_msg("host %zu: %s", i, w.r[i].message);
		qg_buf_free(&w.r[i].sent);
	}
	qg_templates_free(&t);
	qg_diags_free(&d);
	qg_model_free(&m);
	nftw(dir, rm_entry, 4, FTW_DEPTH | FTW_PHYS);
}

static void judge(const char *out, const char *err, int status, bool dry, struct qg_push_result *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(script_push_judge(out, err, status, dry, r), 0);
}

static void test_judge_states(void **state)
{
	(void)state;
	struct qg_push_result r;
	judge("[ok] mtu: 9000\n[ok] trust: dscp\n", "", 0, false, &r);
	assert_int_equal(r.state, QG_PUSH_IN_SYNC);
	assert_string_equal(r.message, "in sync, all 2 settings already right");
	assert_int_equal(r.sent.len, 0);

	judge("[changed] mtu: 1500 -> 9000\n[ok] trust: dscp\n[reboot] reboot it\n", "", 0, false,
	      &r);
	assert_int_equal(r.state, QG_PUSH_CONVERGED);
	assert_string_equal(r.message, "1 of 2 settings changed, all set; module options changed: "
				       "reboot the host to apply them");
	assert_string_equal(r.sent.data, "[changed] mtu: 1500 -> 9000\n");
	assert_int_equal(r.lines_sent, 1);
	qg_buf_free(&r.sent);

	judge("[differs] mtu: 1500 -> 9000\n", "", 0, true, &r);
	assert_int_equal(r.state, QG_PUSH_WOULD_CHANGE);
	assert_int_equal(r.lines_planned, 1);
	qg_buf_free(&r.sent);

	judge("[ok] mtu: 9000\n[missing] roce_tos: no configfs\n[missing] pfc: no tool\n", "", 2,
	      false, &r);
	assert_int_equal(r.state, QG_PUSH_PARTIAL);
	assert_string_equal(r.message,
			    "1 of 3 settings set (0 changed); missing on this host: roce_tos, pfc");

	judge("[failed] mtu: ip link set failed\n", "", 1, false, &r);
	assert_int_equal(r.state, QG_PUSH_FAILED);
	assert_string_equal(r.message, "1 setting failed: mtu: ip link set failed; 0 changed");
	assert_string_equal(r.failed.data, "mtu: ip link set failed\n");
	qg_buf_free(&r.failed);

	judge("", "sh: 1: syntax error\nmore\n", 2, false, &r);
	assert_int_equal(r.state, QG_PUSH_FAILED);
	assert_string_equal(r.message, "the script exited 2 without a report: sh: 1: syntax error");
	judge(NULL, NULL, 127, false, &r);
	assert_string_equal(r.message, "the script exited 127 without a report");
	/* A report with an exit status the script never gives is not trusted. */
	judge("[ok] mtu: 9000\n", "", 9, false, &r);
	assert_int_equal(r.state, QG_PUSH_FAILED);
}

/*
 * A hostile host's report keeps its bytes in the result (the JSON output
 * carries the exact text); printing escapes them (push/push.c). What the
 * judge must guarantee: no line of sent is forged (one per report line),
 * the message is one line, and nothing overflows however long a key is.
 */
static void test_judge_hostile_report(void **state)
{
	(void)state;
	struct qg_buf out = {0};
	qg_buf_puts(&out, "[changed] mtu\x1b]0;PWNED\x07: 1500 -> 9000\r\x1b[2K\n");
	for (int i = 0; i < 50; i++) {
		qg_buf_puts(&out, "[missing] ");
		for (int k = 0; k < 200; k++)
			qg_buf_puts(&out, "\xc2\x9b");
		qg_buf_puts(&out, ": x\n");
	}
	struct qg_push_result r;
	judge(out.data, "", 2, false, &r);
	assert_int_equal(r.state, QG_PUSH_PARTIAL);
	assert_null(strchr(r.message, '\n'));
	assert_true(strlen(r.message) < sizeof(r.message));
	assert_string_equal(r.sent.data, "[changed] mtu\x1b]0;PWNED\x07: 1500 -> 9000\r\x1b[2K\n");
	qg_buf_free(&r.sent);
	qg_buf_free(&out);
}

/*
 * Issue 25, item 2: the push said "1 setting failed (netdev)" and not why,
 * though the script had said it. Each failed setting's reason reaches the
 * message and r->failed (the JSON's failed_settings), in the script's order;
 * a long reason is cut at a character, many reasons at a bound.
 */
static void test_judge_failed_reasons(void **state)
{
	(void)state;
	struct qg_push_result r;
	judge("[failed] netdev: no network device ens1f0np0 on this host\n", "", 1, false, &r);
	assert_int_equal(r.state, QG_PUSH_FAILED);
	assert_string_equal(r.message,
			    "1 setting failed: netdev: no network device ens1f0np0 on this host; 0 "
			    "changed");
	assert_string_equal(r.failed.data, "netdev: no network device ens1f0np0 on this host\n");
	qg_buf_free(&r.failed);

	judge("[changed] mtu: 1500 -> 9000\n[failed] trust: mlnx_qos -i lo --trust dscp failed\n"
	      "[ok] pfc: 0,0,0,1,0,0,0,0\n[failed] roce_tos: no RDMA device mlx5_0\n",
	      "", 1, false, &r);
	assert_string_equal(r.message, "2 settings failed: trust: mlnx_qos -i lo --trust dscp "
				       "failed; roce_tos: no RDMA device mlx5_0; 1 changed");
	assert_string_equal(r.failed.data, "trust: mlnx_qos -i lo --trust dscp failed\n"
					   "roce_tos: no RDMA device mlx5_0\n");
	qg_buf_free(&r.failed);
	qg_buf_free(&r.sent);

	/* 200 two-byte characters: cut at 160 bytes, a whole character, then "...". */
	struct qg_buf out = {0};
	qg_buf_puts(&out, "[failed] mtu: ");
	for (int k = 0; k < 200; k++)
		qg_buf_puts(&out, "\xc3\xa9");
	qg_buf_puts(&out, "\n");
	judge(out.data, "", 1, false, &r);
	char want[256] = "mtu: ";
	for (int k = 0; k < 80; k++)
		strcat(want, "\xc3\xa9");
	strcat(want, "...\n");
	assert_string_equal(r.failed.data, want);
	qg_buf_free(&r.failed);
	qg_buf_free(&out);

	/* Forty failures: the message names those that fit and counts the rest. */
	for (int k = 0; k < 40; k++)
		qg_buf_printf(&out, "[failed] dscp2prio.%d: dcb app replace failed (now unset)\n",
			      k);
	judge(out.data, "", 1, false, &r);
	assert_true(strlen(r.message) < sizeof(r.message) - 1);
	assert_non_null(strstr(r.message, "40 settings failed: dscp2prio.0: dcb app replace "));
	assert_non_null(strstr(r.message, " more; 0 changed"));
	size_t lines = 0;
	for (size_t i = 0; i < r.failed.len; i++)
		lines += r.failed.data[i] == '\n';
	assert_int_equal(lines, 40);
	qg_buf_free(&r.failed);
	qg_buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parallel_pushes_share_no_diagnostics),
	    cmocka_unit_test(test_judge_states),
	    cmocka_unit_test(test_judge_hostile_report),
	    cmocka_unit_test(test_judge_failed_reasons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
