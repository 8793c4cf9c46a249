/* SPDX-License-Identifier: MIT */
/*
 * Judging a verify run against the intent, one line per check in the form
 * users know from health checks (`flexdirect localhealth`, shared/seeds/003):
 *   [PASS] Check bandwidth: 92.41 Gb/s >= 90.00
 *   [FATAL] Check RoCE marking: ToS 0 ...
 * then "PASS: n / MARGINAL: n / FATAL: n". Pure.
 */
#ifndef QG_VERDICT_H
#define QG_VERDICT_H

#include "../lib/buf.h"
#include "counters.h"

#include <stdbool.h>

enum vd_level { VD_PASS, VD_MARGINAL, VD_FATAL };

struct vd_check {
	enum vd_level level;
	char what[96];
	char detail[400];
};

struct vd_list {
	struct vd_check v[16];
	size_t n;
};

/* What the intent says the path must show (from model/derive.c). */
struct vd_expected {
	double min_gbps;
	int mtu;      /* the netdev MTU of the intent */
	int path_mtu; /* 256..4096 */
	int tos;      /* DSCP << 2 | ECT(0) when ECN is on */
	bool ecn;
};

/* One end of the pair, as read back; a value < 0 was not read. */
struct vd_side {
	const char *name; /* the host's name in the intent */
	int netdev_mtu;
	int active_mtu;
	int tos;			 /* the ToS the host really applies (rdma_cm default) */
	const struct vc_counters *delta; /* NULL: counters could not be read */
	/*
	 * The host's installed copy (persist: true): NULL when the intent does
	 * not ask for one; else its report line ("[ok] persist: installed, ..."),
	 * or "" when it could not be read.
	 */
	const char *persist;
};

/*
 * The default-path probe (issue 35): datagrams a job that sets no traffic
 * class sends from the client host, with the ToS the receiver saw on each.
 */
struct vd_default_path {
	bool asked;	    /* judged at all (a pair's run asks it) */
	const char *sender; /* the client host's name */
	const char *device; /* its RDMA device */
	const char *peer;   /* the receiving host's name (the sender itself on a loopback) */
	const char *why;    /* not measured: why; "" when it ran */
	int tclass;	    /* the sender's address handle, as rdma_cm gave it; -1 unknown */
	int sent, received;
	const int *tos; /* the distinct ToS values received */
	int n_tos;
	int roce_tos;	   /* the sender's rdma_cm default ToS; -1 unread */
	int traffic_class; /* the sender's device traffic_class; -1 the driver has none */
};

/* What the run measured: the client first, then the server. */
struct vd_measured {
	double gbps;  /* < 0: the traffic test did not run */
	int path_mtu; /* negotiated on the QP; < 0: not known */
	struct vd_side side[2];
	size_t n_sides;
	struct vd_default_path dp;
};

/* Counters whose increase during the run means loss (FATAL) or a retransmission (MARGINAL). */
extern const char *const vd_loss_counters[];
extern const char *const vd_retransmit_counters[];
/* Counters that show ECN marks and CNPs: reported, never judged. */
extern const char *const vd_ecn_counters[];

/* Bandwidth within this fraction under the minimum is MARGINAL, below it FATAL. */
#define VD_MARGIN 0.10

void vd_judge(const struct vd_expected *e, const struct vd_measured *m, struct vd_list *out);
void vd_print(const struct vd_list *l, struct qg_buf *out);
bool vd_fatal(const struct vd_list *l);

#endif
