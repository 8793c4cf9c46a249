/* SPDX-License-Identifier: MIT */
/*
 * What `qosgen verify` runs on a host over SSH, and how it reads the answers.
 * Pure: scripts are built into buffers (sent as stdin of `sh -s`, never as
 * argv), answers are parsed from text. The I/O is in push/verify.c.
 *
 * The facts script prints one "KEY VALUE" line per fact; anything it cannot
 * read is simply absent, so the parser's defaults mean "not measured":
 *   qosgen-facts 1
 *   netdev_mtu 9000          /sys/class/net/NETDEV/mtu
 *   ipv4 10.77.0.2           the netdev's address: where the probe connects
 *   port_state 4: ACTIVE     /sys/class/infiniband/DEV/ports/1/state
 *   active_mtu 4096          ibv_devinfo (sysfs has no active MTU)
 *   gid_index 1              the RoCE v2 GID holding the netdev's IPv4 address
 *   roce_tos 106             rdma_cm's default_roce_tos (configfs)
 *   traffic_class 106        MLNX_OFED's tc/1/traffic_class ("Global tclass=106"), where
 *                            the driver has one
 *   counter NAME VALUE       .../counters, .../hw_counters, ethtool -S rx/tx_prioN_*
 *   have qosgen | have ib_write_bw
 *   missing netdev | missing rdma_device   the NIC is not on this host (issue 28: a rail
 *                                          whose NIC is missing fails alone)
 */
#ifndef QG_REMOTE_H
#define QG_REMOTE_H

#include "../lib/buf.h"
#include "../model/model.h"
#include "counters.h"

#include <stdbool.h>

struct vr_facts {
	bool seen; /* the "qosgen-facts 1" line: the script really ran */
	int netdev_mtu, active_mtu, gid_index, roce_tos; /* -1: not read */
	int traffic_class; /* -1: the device has no traffic_class file (inbox drivers, rxe) */
	char ipv4[16];	   /* "": not read */
	char port_state[24];
	bool have_qosgen, have_perftest;
	bool netdev_missing, rdma_missing; /* the host has no such netdev, RDMA device */
	struct vc_counters counters;
};

void vr_facts_script(const struct qg_nic *h, struct qg_buf *out);
/* 0, or -1 when the text is not a facts answer (err says why). */
int vr_facts_parse(const char *text, struct vr_facts *f, char *err, size_t errlen);
void vr_facts_free(struct vr_facts *f);
/*
 * Whether the facts say nic is not on the host (its netdev, its RDMA device
 * or both absent); why then says which, "no network device 'ens4f0np0' on
 * this host", for the host's name to go before it.
 */
bool vr_nic_missing(const struct vr_facts *f, const struct qg_nic *nic, char *why, size_t len);

struct vr_run {
	bool server;
	const char *peer; /* client: the server's IPv4 address (checked by the caller) */
	int tcp_port;
	int tclass;
	int gid_index; /* -1: let the tool choose (qosgen probe picks the RoCE v2 GID itself) */
	int size;
	unsigned long long iters;
	int limit_s; /* > 0: killed after this long where timeout(1) exists (a server whose
		      * client never came must not linger) */
};

/*
 * The traffic side as a script: `qosgen probe` where it is installed, else
 * ib_write_bw with the same size, iterations, traffic class and GID (the two
 * speak one protocol). A perftest client retries while the server is not
 * listening yet; qosgen probe retries by itself.
 */
void vr_run_script(const struct qg_nic *h, const struct vr_run *r, struct qg_buf *out);

struct vr_result {
	bool ok;
	char tool[16];				     /* "qosgen probe" or "ib_write_bw" */
	double gbps;				     /* < 0: not reported */
	int active_mtu, path_mtu, tclass, gid_index; /* -1: not reported */
	unsigned long long size, iters;
};

/*
 * The last two lines of a tool's output as one line for a message (newlines
 * as spaces), escaped for a terminal (lib/escape.h): the host's text, which
 * a broken or hostile host fills with what it likes. "" when there is none.
 */
void vr_output_tail(const char *text, size_t len, char *dst, size_t dstlen);

/* Nothing reported: every value "not measured". */
void vr_result_init(struct vr_result *r);
/* qosgen probe's JSON line or ib_write_bw's report. 0, or -1 with err. */
int vr_result_parse(const char *text, struct vr_result *r, char *err, size_t errlen);

/*
 * How many messages make a run of duration_s at the pair's minimum
 * bandwidth (faster paths finish sooner): at least 100, so that a tiny
 * minimum still measures something.
 */
unsigned long long vr_iters(int message_size, int duration_s, long long min_gbps_centi);

/*
 * The default-path probe of a pair (issue 35, verbs/defpath.h): `qosgen
 * probe --default-path`, which sets no traffic class, as the server or the
 * client of the pair, or both on one host (loopback: the client host
 * sending to its own address, where the server host has no qosgen).
 */
struct vr_defpath_run {
	bool server, loopback;
	const char *peer;   /* client and loopback: an IPv4 address (checked by the caller) */
	const char *source; /* client and loopback: the client NIC's own IPv4 address, or NULL */
	int port, count, limit_s;
};
void vr_defpath_script(const struct qg_nic *h, const struct vr_defpath_run *r, struct qg_buf *out);

struct vr_defpath {
	bool have_client, have_server; /* each side's JSON line was read */
	int tclass;		       /* the client's address handle; -1 not reported */
	int sent, received;
	int tos[8];
	int n_tos;
};
/* Both sides' JSON lines from text (a loopback's output holds both). 0, or -1 with err. */
int vr_defpath_parse(const char *text, struct vr_defpath *d, char *err, size_t errlen);

#endif
