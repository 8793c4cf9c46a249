/* SPDX-License-Identifier: MIT */
/*
 * `qosgen probe --default-path`: the path of a job that sets no traffic
 * class itself (issue 35). UD datagrams through rdma_cm whose client sets
 * no ToS, so that its address handle carries whatever the host gives such
 * a job: rdma_cm's default ToS (configfs default_roce_tos, which the kernel
 * puts in the route's traffic class), and over it whatever the device
 * imposes (MLNX_OFED's tc/<port>/traffic_class). The server reads the ToS
 * each datagram arrived with from its IP header: a UD receive carries the
 * packet's network header in the 40 bytes before the payload (for RoCE v2
 * over IPv4, the IPv4 header in the last 20 of them), so the verdict is the
 * DSCP on the wire as the receiver saw it, not a setting read back.
 */
#ifndef QG_DEFPATH_H
#define QG_DEFPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct defpath_opts {
	bool server;
	const char *peer;   /* client: the server's IPv4 address */
	const char *source; /* client: its own NIC's IPv4 address, bound first; NULL: any */
	int port;	    /* rdma_cm's UDP port space */
	const char *device; /* the RDMA device the route must use */
	int count;	    /* datagrams */
	int timeout_s;	    /* the server's wait for the client and its datagrams */
};

#define DEFPATH_TOS_SEEN 8
struct defpath_result {
	int tclass;   /* client: the traffic class of the route's address handle */
	int sent;     /* client */
	int received; /* server */
	/* server: the distinct ToS values received, in order of first arrival */
	int tos[DEFPATH_TOS_SEEN];
	int n_tos;
	char device[64]; /* the device the connection came through */
};

/*
 * The ToS byte of a UD receive's 40-byte network header area: the IPv4
 * header's second byte when bytes 20.. hold an IPv4 header (RoCE v2 over
 * IPv4: version 4, length 5 words), else the IPv6 header's traffic class.
 * Pure; -1 when neither.
 */
int defpath_tos_of(const uint8_t grh[40]);

/* Run one side. 0, or -1 with err naming the call and the likely cause. */
int defpath_run(const struct defpath_opts *o, struct defpath_result *r, char *err, size_t errlen);

#endif
