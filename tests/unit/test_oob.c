/* SPDX-License-Identifier: MIT */
/*
 * The whole ib_write_bw out-of-band sequence between a client and a server of
 * ours, over a socketpair, byte counts checked; and a peer too old to talk to.
 */
#include "helpers.h"

#include "../../verbs/oob.h"

#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

/* Field by field: structs have padding, which memcmp would compare too. */
static bool key_equal(const struct pt_key *a, const struct pt_key *b)
{
	return a->lid == b->lid && a->out_reads == b->out_reads && a->qpn == b->qpn &&
	       a->psn == b->psn && a->rkey == b->rkey && a->vaddr == b->vaddr &&
	       !memcmp(a->gid, b->gid, sizeof(a->gid)) && a->srqn == b->srqn;
}

struct side {
	int fd;
	enum pt_role role;
	struct pt_params params;
	struct pt_key keys[2], remote[2];
	struct pt_report report, remote_report;
	int rc;
	char err[256];
};

static void fill_key(struct pt_key *k, uint32_t qpn)
{
	memset(k, 0, sizeof(*k));
	k->out_reads = 1;
	k->qpn = qpn;
	k->psn = qpn * 7 & 0xffffff;
	k->rkey = 0x100 + qpn;
	k->vaddr = 0x7f0000000000ull + qpn;
	k->gid[10] = k->gid[11] = 0xff;
	k->gid[12] = 10;
	k->gid[15] = (uint8_t)qpn;
}

/* The sequence of perftest/ib_write_bw with 2 QPs, as oob.h lists it. */
static void *run(void *arg)
{
	struct side *x = arg;
	struct pt_session s = {.io = pt_io_fd(&x->fd), .role = x->role};
	struct pt_key one;
	x->rc = pt_hello(&s, &x->params) || pt_keys(&s, x->keys, x->remote, 2) ||
		pt_keys(&s, x->keys, x->remote, 2) || pt_keys(&s, x->keys, &one, 1) ||
		pt_keys(&s, x->keys, &one, 1) || pt_report(&s, &x->report, &x->remote_report) ||
		pt_keys(&s, x->keys, &one, 1) || pt_done(&s);
	snprintf(x->err, sizeof(x->err), "%s", s.err);
	return NULL;
}

static void test_full_sequence(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct side c = {.fd = sv[0], .role = PT_CLIENT, .params = {4096, 64, 5}};
	struct side s = {.fd = sv[1], .role = PT_SERVER, .params = {8192, 128, 3}};
	fill_key(&c.keys[0], 0x11);
	fill_key(&c.keys[1], 0x12);
	fill_key(&s.keys[0], 0x21);
	fill_key(&s.keys[1], 0x22);
	c.report = (struct pt_report){65536, 5000, 0.0, 11.94, 0.0228};
	pthread_t t;
	pthread_create(&t, NULL, run, &s);
	run(&c);
	pthread_join(t, NULL);
	if (c.rc || s.rc)
		fprintf(stderr, "client: %s; server: %s\n", c.err, s.err);
	assert_int_equal(c.rc, 0);
	assert_int_equal(s.rc, 0);
	/* Both keep the larger cycle buffer and cache line, the smaller MTU. */
	assert_int_equal(c.params.cycle_buffer, 8192);
	assert_int_equal(s.params.cache_line, 128);
	assert_int_equal(c.params.mtu, 3);
	assert_int_equal(s.params.mtu, 3);
	assert_true(key_equal(&c.remote[1], &s.keys[1]));
	assert_true(key_equal(&s.remote[0], &c.keys[0]));
	/* The server prints the client's figures as its own result. */
	assert_int_equal(s.remote_report.size, 65536);
	assert_int_equal(s.remote_report.iters, 5000);
	assert_true(s.remote_report.bw_avg == 11.94);
	/* Only "done\0" is left on each socket: written, never read. */
	char tail[8];
	assert_int_equal(read(sv[1], tail, sizeof(tail)), 5);
	assert_memory_equal(tail, "done", 5);
	close(sv[0]);
	close(sv[1]);
}

static void test_old_peer_refused(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	/* A peer announcing 5.60 (perftest refuses anything before 5.70). */
	char old[PT_VERSION_LEN] = "5.60";
	assert_int_equal(write(sv[1], old, sizeof(old)), (ssize_t)sizeof(old));
	struct pt_session s = {.io = pt_io_fd(&sv[0]), .role = PT_CLIENT};
	struct pt_params p = {4096, 64, 5};
	assert_int_equal(pt_hello(&s, &p), -1);
	assert_non_null(strstr(s.err, "older than 5.70"));
	close(sv[0]);
	close(sv[1]);
}

/*
 * A peer's version bytes reach the error message: terminal control bytes in
 * them are escaped (lib/escape.c), so a peer cannot clear the screen or
 * forge a line of qosgen's output.
 */
static void test_hostile_version_escaped(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	char evil[PT_VERSION_LEN] = "\x1b[2J\n[PASS] ok\x07";
	assert_int_equal(write(sv[1], evil, sizeof(evil)), (ssize_t)sizeof(evil));
	struct pt_session s = {.io = pt_io_fd(&sv[0]), .role = PT_CLIENT};
	struct pt_params p = {4096, 64, 5};
	assert_int_equal(pt_hello(&s, &p), -1);
	assert_null(strchr(s.err, 0x1b));
	assert_null(strchr(s.err, '\n'));
	assert_null(strchr(s.err, 0x07));
	assert_non_null(strstr(s.err, "\\x1b[2J\\n[PASS] ok\\x07"));
	close(sv[0]);
	close(sv[1]);
}

static void test_peer_gone(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	close(sv[1]);
	struct pt_session s = {.io = pt_io_fd(&sv[0]), .role = PT_SERVER};
	struct pt_params p = {4096, 64, 5};
	assert_int_equal(pt_hello(&s, &p), -1);
	assert_non_null(strstr(s.err, "went away during the version exchange"));
	close(sv[0]);
}

int main(void)
{
	/* A write to a closed socketpair must fail, not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_sequence),
	    cmocka_unit_test(test_old_peer_refused),
	    cmocka_unit_test(test_hostile_version_escaped),
	    cmocka_unit_test(test_peer_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
