/* SPDX-License-Identifier: MIT */
#include "oob.h"
#include "../lib/escape.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fd_read_full(void *ctx, void *buf, size_t n)
{
	int fd = *(int *)ctx;
	size_t got = 0;
	/* perftest does one read(); we loop, which a short TCP segment needs. */
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int fd_write_full(void *ctx, const void *buf, size_t n)
{
	int fd = *(int *)ctx;
	size_t put = 0;
	while (put < n) {
		ssize_t w = write(fd, (const char *)buf + put, n - put);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		put += (size_t)w;
	}
	return 0;
}

const struct pt_io pt_io_fd_ops = {.read_full = fd_read_full, .write_full = fd_write_full};

static int fail(struct pt_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct pt_session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* A peer's fixed-size text field up to its NUL, escaped for a message (malloc'ed). */
static char *peer_text(const char *field, size_t max)
{
	struct qg_buf b = {0};
	qg_escape_append(&b, field, strnlen(field, max));
	return qg_buf_steal(&b, NULL);
}

/* One symmetric exchange: the client writes first, the server reads first. */
static int exchange(struct pt_session *s, const void *out, void *in, size_t n, const char *what)
{
	int rc;
	if (s->role == PT_CLIENT)
		rc = s->io.write_full(s->io.ctx, out, n) || s->io.read_full(s->io.ctx, in, n);
	else
		rc = s->io.read_full(s->io.ctx, in, n) || s->io.write_full(s->io.ctx, out, n);
	return rc ? fail(s, "the peer went away during the %s exchange", what) : 0;
}

int pt_hello(struct pt_session *s, struct pt_params *p)
{
	char mine[PT_VERSION_LEN], theirs[PT_VERSION_LEN];
	pt_version_encode(PT_VERSION, mine);
	if (exchange(s, mine, theirs, sizeof(mine), "version"))
		return -1;
	s->remote_version = pt_version_decode(theirs);
	if (s->remote_version < PT_VERSION_MIN) {
		/* The peer's bytes, escaped: they reach the terminal. */
		char *v = peer_text(theirs, sizeof(theirs));
		fail(s,
		     s->remote_version < 0
			 ? "the peer's version '%s' is not a perftest version (5.70 or later)"
			 : "the peer's version '%s' is older than 5.70, which perftest refuses",
		     v ? v : "?");
		free(v);
		return -1;
	}

	unsigned char a[4], b[4];
	pt_int32_encode(p->cycle_buffer, a);
	if (exchange(s, a, b, 4, "cycle buffer"))
		return -1;
	if (pt_int32_decode(b) > p->cycle_buffer)
		p->cycle_buffer = pt_int32_decode(b);
	pt_int32_encode(p->cache_line, a);
	if (exchange(s, a, b, 4, "cache line"))
		return -1;
	if (pt_int32_decode(b) > p->cache_line)
		p->cache_line = pt_int32_decode(b);

	char m[PT_MTU_LEN], r[PT_MTU_LEN];
	pt_mtu_encode(p->mtu, m);
	if (exchange(s, m, r, PT_MTU_LEN, "MTU"))
		return -1;
	int remote_mtu = pt_mtu_decode(r);
	if (remote_mtu > 0 && remote_mtu < p->mtu)
		p->mtu = remote_mtu;
	return 0;
}

int pt_keys(struct pt_session *s, const struct pt_key *mine, struct pt_key *theirs, int n)
{
	for (int i = 0; i < n; i++) {
		char out[PT_KEY_LEN_GID], in[PT_KEY_LEN_GID];
		pt_key_encode(&mine[i], out);
		if (exchange(s, out, in, sizeof(out), "key"))
			return -1;
		if (!pt_key_decode(in, &theirs[i])) {
			char *k = peer_text(in, sizeof(in) - 1);
			fail(s, "the peer sent a key message that does not parse: '%s'",
			     k ? k : "?");
			free(k);
			return -1;
		}
	}
	return 0;
}

int pt_report(struct pt_session *s, const struct pt_report *mine, struct pt_report *theirs)
{
	unsigned char a[8], b[8];
	pt_u64_encode(mine->size, a);
	if (exchange(s, a, b, 8, "report size"))
		return -1;
	theirs->size = pt_u64_decode(b);
	/* 64-bit since 5.33; pt_hello already refused anything older than 5.70. */
	pt_u64_encode(mine->iters, a);
	if (exchange(s, a, b, 8, "report iterations"))
		return -1;
	theirs->iters = pt_u64_decode(b);
	const double *m[3] = {&mine->bw_peak, &mine->bw_avg, &mine->msg_rate};
	double *t[3] = {&theirs->bw_peak, &theirs->bw_avg, &theirs->msg_rate};
	for (int i = 0; i < 3; i++) {
		pt_double_encode(*m[i], a);
		if (exchange(s, a, b, 8, "report figures"))
			return -1;
		*t[i] = pt_double_decode(b);
	}
	return 0;
}

int pt_done(struct pt_session *s)
{
	static const char done[] = PT_DONE; /* with its NUL: 5 bytes */
	if (s->io.write_full(s->io.ctx, done, sizeof(done)))
		return fail(s, "the peer went away before 'done'");
	return 0;
}
