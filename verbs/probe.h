/* SPDX-License-Identifier: MIT */
/*
 * `qosgen probe`: an RC RDMA WRITE bandwidth test on libibverbs that speaks
 * perftest 4.5's out-of-band protocol (verbs/oob.c), so either side can be an
 * unmodified ib_write_bw. The traffic class byte is set on the QP's GRH, so
 * the packets carry the DSCP and ECN bits the intent asks for.
 */
#ifndef QG_PROBE_H
#define QG_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct probe_opts {
	bool server;
	const char *peer;   /* client: the server's IPv4 address */
	int tcp_port;	    /* perftest's 18515 by default */
	const char *device; /* e.g. rxe0, mlx5_0 */
	int ib_port;	    /* 1 */
	int gid_index;	    /* -1: the RoCEv2 GID with an IPv4-mapped address */
	int tclass;	    /* GRH traffic class (DSCP << 2 | ECN), 0..255 */
	size_t size;	    /* bytes per RDMA WRITE; both sides must agree, as in perftest */
	uint64_t iters;
};

struct probe_result {
	int gid_index;
	int active_mtu; /* bytes */
	int path_mtu;	/* bytes, as negotiated with the peer */
	uint64_t size, iters;
	double seconds;
	double gbps;	 /* 10^9 bits per second */
	double msg_rate; /* Mpps */
	char peer_version[17];
};

/* Run one side. 0, or -1 with err naming the verb call and the likely cause. */
int probe_run(const struct probe_opts *o, struct probe_result *r, char *err, size_t errlen);

#endif
