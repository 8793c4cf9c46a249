/* SPDX-License-Identifier: MIT */
/*
 * The perftest out-of-band exchange as a state machine over injected I/O,
 * so that it runs over TCP in `qosgen probe` and over a socketpair in tests.
 * Every exchange is symmetric, fixed-size and in lockstep: the client writes
 * then reads, the server reads then writes (shared/notes/perftest.md §1).
 *
 * The sequence for ib_write_bw, with the calls that make it:
 *   1-4  pt_hello: version, cycle buffer, cache line, MTU
 *   5    pt_keys(N)             before the QPs are connected
 *   6    pt_keys(N)             after RTR/RTS
 *   7    pt_keys(1)             barrier; then the client runs the test
 *   8    pt_keys(1)             barrier: the client has finished
 *   9-13 pt_report
 *   14   pt_keys(1)             closing handshake
 *   15   pt_done                "done\0" written, not read
 */
#ifndef QG_OOB_H
#define QG_OOB_H

#include "wire.h"

#include <stddef.h>

struct pt_io {
	void *ctx;
	/* Move exactly n bytes; 0, or -1 on error or end of stream. */
	int (*read_full)(void *ctx, void *buf, size_t n);
	int (*write_full)(void *ctx, const void *buf, size_t n);
};

/* I/O on a connected socket (or any fd); ctx points at the int fd. */
extern const struct pt_io pt_io_fd_ops;
static inline struct pt_io pt_io_fd(int *fd)
{
	struct pt_io io = pt_io_fd_ops;
	io.ctx = fd;
	return io;
}

enum pt_role { PT_CLIENT, PT_SERVER };

struct pt_session {
	struct pt_io io;
	enum pt_role role;
	int remote_version; /* hundredths, after pt_hello */
	char err[256];
};

/* What each side brings to steps 2-4, and what both keep after them. */
struct pt_params {
	int cycle_buffer; /* page size; both keep the larger */
	int cache_line;	  /* both keep the larger */
	int mtu;	  /* enum ibv_mtu 1..5; both keep the smaller valid one */
};

/* Steps 1-4. Refuses a peer older than 5.70, as perftest does. 0 or -1 (err). */
int pt_hello(struct pt_session *s, struct pt_params *p);
/* Exchange n keys (108-byte form). 0 or -1. */
int pt_keys(struct pt_session *s, const struct pt_key *mine, struct pt_key *theirs, int n);
/* Steps 9-13: the client's figures reach the server (and the server's, the client). */
int pt_report(struct pt_session *s, const struct pt_report *mine, struct pt_report *theirs);
/* Step 15: write "done\0"; neither side reads it. */
int pt_done(struct pt_session *s);

#endif
