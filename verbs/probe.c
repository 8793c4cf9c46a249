/* SPDX-License-Identifier: MIT */
/*
 * The verbs side follows perftest 4.5-0.17 (shared/notes/perftest.md §1-3):
 * one MR of 2 * BUFF with the peer writing into its second half, RTR with
 * is_global, hop_limit 0xFF and the traffic class, RTS with timeout 14 and
 * retry 7, writes signalled every cq_mod() (100, or every one above 8 KiB),
 * at most TX_DEPTH outstanding.
 * Timing uses CLOCK_MONOTONIC, not the TSC. Errors unwind with goto in
 * reverse order, as rdma-core's examples do.
 */
#include "probe.h"
#include "../lib/errmsg.h"

#include "oob.h"

#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TX_DEPTH 128
#define CQ_MOD 100
#define CQ_MOD_SIZE_LIMIT 8192

/*
 * perftest signals every write of a message above 8 KiB (it sets cq_mod to 1
 * when -Q is not given: MSG_SIZE_CQ_MOD_LIMIT). It matters on soft-RoCE: a
 * completion per write makes the client post, and so run rxe's requester in
 * its own context, after every write; with one completion per 100 the
 * requester waits on rxe's in-flight limit and restarts from a tasklet on the
 * receiving CPU, and the capture showed a 2.5 ms stall every 65 packets
 * (0.7x of perftest at 64 KiB).
 */
static uint64_t cq_mod(size_t size)
{
	return size > CQ_MOD_SIZE_LIMIT ? 1 : CQ_MOD;
}
#define CYCLE_BUFFER 4096
#define CACHE_LINE 64

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

static int mtu_bytes(enum ibv_mtu m)
{
	return 128 << m;
}

/* A RoCEv2 GID with an IPv4-mapped address (::ffff:a.b.c.d), as perftest prefers. */
static int pick_gid(struct ibv_context *ctx, int port, int gid_len)
{
	for (int i = 0; i < gid_len; i++) {
		struct ibv_gid_entry e;
		if (ibv_query_gid_ex(ctx, (uint32_t)port, (uint32_t)i, &e, 0) != 0)
			continue;
		static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && !memcmp(e.gid.raw, v4, sizeof(v4)))
			return i;
	}
	return -1;
}

static int tcp_connect_or_accept(const struct probe_opts *o, char *err, size_t errlen)
{
	char port[16];
	snprintf(port, sizeof(port), "%d", o->tcp_port);
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
	if (o->server)
		hints.ai_flags = AI_PASSIVE;
	int rc = getaddrinfo(o->server ? NULL : o->peer, port, &hints, &ai);
	if (rc != 0)
		return qg_errf(err, errlen, "cannot resolve '%s': %s", o->peer ? o->peer : "any",
			    gai_strerror(rc));
	int fd = socket(ai->ai_family, ai->ai_socktype, 0), out = -1;
	if (fd < 0) {
		qg_errf(err, errlen, "socket: %s", strerror(errno));
	} else if (o->server) {
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1) != 0)
			qg_errf(err, errlen, "cannot listen on TCP port %d: %s", o->tcp_port,
			     strerror(errno));
		else if ((out = accept(fd, NULL, NULL)) < 0)
			qg_errf(err, errlen, "accept: %s", strerror(errno));
		close(fd);
	} else {
		/* The server may still be starting: retry for a few seconds. */
		for (int tries = 0; tries < 50; tries++) {
			if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
				out = fd;
				break;
			}
			close(fd);
			usleep(100000);
			fd = socket(ai->ai_family, ai->ai_socktype, 0);
		}
		if (out < 0) {
			qg_errf(err, errlen, "cannot connect to %s:%d: %s", o->peer, o->tcp_port,
			     strerror(errno));
			if (fd >= 0)
				close(fd);
		}
	}
	freeaddrinfo(ai);
	return out;
}

static int to_init(struct ibv_qp *qp, int port)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT,
				.pkey_index = 0,
				.port_num = (uint8_t)port,
				.qp_access_flags =
				    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE};
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int to_rtr_rts(struct ibv_qp *qp, const struct probe_opts *o, int gid_index,
		      enum ibv_mtu mtu, const struct pt_key *mine, const struct pt_key *remote)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_RTR,
				.path_mtu = mtu,
				.dest_qp_num = remote->qpn,
				.rq_psn = remote->psn,
				.max_dest_rd_atomic = 1,
				.min_rnr_timer = 12};
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = (uint8_t)o->ib_port;
	a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
	a.ah_attr.grh.hop_limit = 0xff;
	a.ah_attr.grh.traffic_class = (uint8_t)o->tclass;
	memcpy(a.ah_attr.grh.dgid.raw, remote->gid, 16);
	if (ibv_modify_qp(qp, &a,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	struct ibv_qp_attr s = {.qp_state = IBV_QPS_RTS,
				.timeout = 14,
				.retry_cnt = 7,
				.rnr_retry = 7,
				.sq_psn = mine->psn,
				.max_rd_atomic = 1};
	return ibv_modify_qp(qp, &s,
			     IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* The verbs objects of one run, released in reverse order by verbs_close(). */
struct probe_verbs {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	void *buf;
	size_t buff; /* half of buf */
	struct ibv_port_attr pa;
};

/* The timed loop: iters writes, cq_mod() per signalled completion, TX_DEPTH in flight. */
static int write_loop(const struct probe_verbs *v, const struct pt_key *remote,
		      const struct probe_opts *o, double *seconds, char *err, size_t errlen)
{
	size_t size = o->size, buff = v->buff;
	uint64_t iters = o->iters;
	struct ibv_qp *qp = v->qp;
	struct ibv_cq *cq = v->cq;
	struct ibv_mr *mr = v->mr;
	void *buf = v->buf;
	struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = (uint32_t)size, .lkey = mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE};
	wr.wr.rdma.rkey = remote->rkey;
	uint64_t posted = 0, done = 0, mod = cq_mod(size);
	size_t step = round_up(size, CACHE_LINE), offset = 0;
	/* perftest walks the remote buffer for small messages (increase_rem_addr). */
	bool walk = size <= CYCLE_BUFFER / 2;
	double t0 = qg_monotonic_s();
	while (done < iters) {
		while (posted < iters && posted - done < TX_DEPTH) {
			wr.wr.rdma.remote_addr = remote->vaddr + offset;
			wr.send_flags = ((posted + 1) % mod == 0 || posted + 1 == iters)
					    ? IBV_SEND_SIGNALED
					    : 0;
			wr.wr_id = posted;
			struct ibv_send_wr *bad;
			if (ibv_post_send(qp, &wr, &bad))
				return qg_errf(err, errlen, "ibv_post_send: %s", strerror(errno));
			posted++;
			if (walk && (offset += step) + step > buff)
				offset = 0;
		}
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(cq, 16, wc);
		if (n < 0)
			return qg_errf(err, errlen, "ibv_poll_cq failed");
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return qg_errf(err, errlen,
					    "RDMA WRITE %llu completed with '%s': the peer is "
					    "unreachable or refused the QP (check the path MTU and "
					    "the GID)",
					    (unsigned long long)wc[i].wr_id,
					    ibv_wc_status_str(wc[i].status));
			uint64_t id = wc[i].wr_id + 1;
			done = id; /* signalled ones complete in order on an RC QP */
		}
	}
	*seconds = qg_monotonic_s() - t0;
	return 0;
}

/* The device and its port, active, and the GID to use (r->active_mtu, r->gid_index). */
static int verbs_open_port(const struct probe_opts *o, struct probe_verbs *v,
			   struct probe_result *r, char *err, size_t errlen)
{
	int n = 0;
	v->list = ibv_get_device_list(&n);
	for (int i = 0; v->list && i < n && !v->ctx; i++)
		if (!strcmp(ibv_get_device_name(v->list[i]), o->device))
			v->ctx = ibv_open_device(v->list[i]);
	if (!v->ctx)
		return qg_errf(err, errlen, "ibv_open_device: no RDMA device '%s' (%d present)",
			       o->device, n);
	if (ibv_query_port(v->ctx, (uint8_t)o->ib_port, &v->pa) != 0)
		return qg_errf(err, errlen, "ibv_query_port %s/%d: %s", o->device, o->ib_port,
			       strerror(errno));
	if (v->pa.state != IBV_PORT_ACTIVE)
		return qg_errf(err, errlen,
			       "%s port %d is not active (state %d): is the netdev up?", o->device,
			       o->ib_port, v->pa.state);
	r->active_mtu = mtu_bytes(v->pa.active_mtu);
	r->gid_index =
	    o->gid_index >= 0 ? o->gid_index : pick_gid(v->ctx, o->ib_port, v->pa.gid_tbl_len);
	if (r->gid_index < 0)
		return qg_errf(err, errlen,
			       "no RoCEv2 GID with an IPv4 address on %s port %d: give the netdev "
			       "an IPv4 address",
			       o->device, o->ib_port);
	return 0;
}

/* The buffer, its MR, the CQ and the QP in INIT. 0, or -1 with err. */
static int verbs_open(const struct probe_opts *o, struct probe_verbs *v, struct probe_result *r,
		      char *err, size_t errlen)
{
	if (verbs_open_port(o, v, r, err, errlen) != 0)
		return -1;
	/* One MR: the first half is ours to send from, the peer writes into the second. */
	v->buff = round_up(o->size > CYCLE_BUFFER ? o->size : CYCLE_BUFFER, CACHE_LINE);
	if (posix_memalign(&v->buf, 4096, 2 * v->buff) != 0) {
		v->buf = NULL;
		return qg_errf(err, errlen, "out of memory for a %zu-byte buffer", 2 * v->buff);
	}
	memset(v->buf, 0, 2 * v->buff);
	if (!(v->pd = ibv_alloc_pd(v->ctx)) ||
	    !(v->mr = ibv_reg_mr(v->pd, v->buf, 2 * v->buff,
				 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)) ||
	    !(v->cq = ibv_create_cq(v->ctx, TX_DEPTH * 2, NULL, NULL, 0)))
		return qg_errf(err, errlen, "ibv_alloc_pd/ibv_reg_mr/ibv_create_cq on %s: %s",
			       o->device, strerror(errno));
	struct ibv_qp_init_attr qa = {
	    .send_cq = v->cq,
	    .recv_cq = v->cq,
	    .qp_type = IBV_QPT_RC,
	    .cap = {
		.max_send_wr = TX_DEPTH, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1}};
	if (!(v->qp = ibv_create_qp(v->pd, &qa)) || to_init(v->qp, o->ib_port) != 0)
		return qg_errf(err, errlen, "ibv_create_qp/INIT on %s: %s", o->device,
			       strerror(errno));
	return 0;
}

static void verbs_close(struct probe_verbs *v)
{
	if (v->qp)
		ibv_destroy_qp(v->qp);
	if (v->cq)
		ibv_destroy_cq(v->cq);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	free(v->buf);
	if (v->ctx)
		ibv_close_device(v->ctx);
	if (v->list)
		ibv_free_device_list(v->list);
}

/* The client's timed writes, into r, and its report to the server. */
static int client_run(const struct probe_opts *o, struct probe_verbs *v,
		      const struct pt_key *remote, struct probe_result *r, struct pt_report *rep,
		      char *err, size_t errlen)
{
	if (write_loop(v, remote, o, &r->seconds, err, errlen) != 0)
		return -1;
	r->size = o->size;
	r->iters = o->iters;
	r->gbps = (double)o->size * (double)o->iters * 8 / r->seconds / 1e9;
	r->msg_rate = (double)o->iters / r->seconds / 1e6;
	/* perftest's report unit: MiB/s. */
	*rep = (struct pt_report){o->size, o->iters, 0,
				  (double)o->size * (double)o->iters / r->seconds / 0x100000,
				  r->msg_rate};
	return 0;
}

int probe_run(const struct probe_opts *o, struct probe_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	int rc = -1, fd = -1;
	struct probe_verbs v = {0};
	if (verbs_open(o, &v, r, err, errlen) != 0)
		goto out;

	struct pt_key mine = {.out_reads = 1,
			      .qpn = v.qp->qp_num,
			      .psn = (uint32_t)(qg_monotonic_s() * 1e6) & 0xffffff,
			      .rkey = v.mr->rkey,
			      .vaddr = (uintptr_t)v.buf + v.buff},
		      remote, one;
	union ibv_gid gid;
	if (ibv_query_gid(v.ctx, (uint8_t)o->ib_port, r->gid_index, &gid) != 0) {
		qg_errf(err, errlen, "ibv_query_gid %d: %s", r->gid_index, strerror(errno));
		goto out;
	}
	memcpy(mine.gid, gid.raw, 16);

	if ((fd = tcp_connect_or_accept(o, err, errlen)) < 0)
		goto out;
	struct pt_session s = {.io = pt_io_fd(&fd), .role = o->server ? PT_SERVER : PT_CLIENT};
	struct pt_params p = {CYCLE_BUFFER, CACHE_LINE, v.pa.active_mtu};
	if (pt_hello(&s, &p) != 0 || pt_keys(&s, &mine, &remote, 1) != 0)
		goto oob;
	r->path_mtu = mtu_bytes((enum ibv_mtu)p.mtu);
	if (to_rtr_rts(v.qp, o, r->gid_index, (enum ibv_mtu)p.mtu, &mine, &remote) != 0) {
		qg_errf(err, errlen,
			"ibv_modify_qp to RTR/RTS on %s: %s (path MTU %d, GID index %d)", o->device,
			strerror(errno), r->path_mtu, r->gid_index);
		goto out;
	}
	if (pt_keys(&s, &mine, &remote, 1) != 0 || pt_keys(&s, &mine, &one, 1) != 0)
		goto oob;
	struct pt_report mine_rep = {0}, theirs = {0};
	if (!o->server && client_run(o, &v, &remote, r, &mine_rep, err, errlen) != 0)
		goto out;
	if (pt_keys(&s, &mine, &one, 1) != 0 || pt_report(&s, &mine_rep, &theirs) != 0 ||
	    pt_keys(&s, &mine, &one, 1) != 0 || pt_done(&s) != 0)
		goto oob;
	if (o->server) {
		/* The server reports the client's figures, as ib_write_bw does. */
		r->size = theirs.size;
		r->iters = theirs.iters;
		r->gbps = theirs.bw_avg * 0x100000 * 8 / 1e9;
		r->msg_rate = theirs.msg_rate;
	}
	snprintf(r->peer_version, sizeof(r->peer_version), "%d.%02d", s.remote_version / 100,
		 s.remote_version % 100);
	rc = 0;
	goto out;
oob:
	qg_errf(err, errlen, "perftest exchange with the peer: %s", s.err);
out:
	if (fd >= 0)
		close(fd);
	verbs_close(&v);
	return rc;
}
