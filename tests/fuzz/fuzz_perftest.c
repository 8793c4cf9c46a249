/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as what a perftest peer sends in the
 * out-of-band exchange (verbs/oob.c over verbs/wire.c), read as the client of
 * `qosgen probe` reads them: version, cycle buffer, cache line, MTU, keys,
 * report. The peer is any host that answers on the test's TCP port.
 *
 * Asserted: a version is -1 or a number of hundredths a real one can be;
 * a decoded key's fields fit their widths; the session's error message,
 * which reaches the terminal, carries no byte a terminal obeys.
 */
#include "../../verbs/oob.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct peer {
	const uint8_t *data;
	size_t size, at;
};

static int peer_read(void *ctx, void *buf, size_t n)
{
	struct peer *p = ctx;
	if (n > p->size - p->at)
		return -1;
	memcpy(buf, p->data + p->at, n);
	p->at += n;
	return 0;
}

static int peer_write(void *ctx, const void *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return 0;
}

static void printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The codec alone, on the input's first bytes. */
	char version[PT_VERSION_LEN] = {0}, key[PT_KEY_LEN_GID] = {0}, mtu[PT_MTU_LEN] = {0};
	memcpy(version, data, size < sizeof(version) ? size : sizeof(version));
	int v = pt_version_decode(version);
	if (v < -1 || v > 1000 * 100 + 99)
		abort();
	memcpy(key, data, size < sizeof(key) ? size : sizeof(key));
	struct pt_key k;
	if (pt_key_decode(key, &k) && (k.qpn > 0xffffff || k.psn > 0xffffff))
		abort();
	memcpy(mtu, data, size < sizeof(mtu) ? size : sizeof(mtu));
	int m = pt_mtu_decode(mtu);
	if (m != -1 && (m < 1 || m > 5))
		abort();

	/* The whole exchange, the peer's side read from the input. */
	struct peer p = {.data = data, .size = size};
	struct pt_session s = {.io = {.ctx = &p, .read_full = peer_read, .write_full = peer_write},
			       .role = PT_CLIENT};
	struct pt_params params = {4096, 64, 5};
	struct pt_key mine = {.out_reads = 1, .qpn = 0x11, .psn = 0x22, .rkey = 0x33}, theirs[2];
	struct pt_report rep = {65536, 1000, 0, 1.0, 0.1}, their_rep;
	int rc = pt_hello(&s, &params) || pt_keys(&s, &mine, theirs, 1) ||
		 pt_keys(&s, &mine, theirs, 1) || pt_keys(&s, &mine, theirs, 1) ||
		 pt_report(&s, &rep, &their_rep) || pt_done(&s);
	if (rc) {
		if (!s.err[0])
			abort();
		printable(s.err);
	} else if (s.remote_version < PT_VERSION_MIN || params.mtu < 1 || params.mtu > 5) {
		abort();
	}
	return 0;
}
