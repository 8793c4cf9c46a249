/* SPDX-License-Identifier: MIT */
/*
 * The default-path probe (defpath.h): rdma_cm in its UDP port space, whose
 * connect is a SIDR exchange that hands the client an address handle from
 * the resolved route (librdmacm's rdma_connect on a UD id; the kernel's
 * cma_sidr_rep_handler builds it from the route's path record, whose
 * traffic class is the id's ToS when the application set one, else the
 * device's default_roce_tos: drivers/infiniband/core/cma.c,
 * cma_resolve_iboe_route). The client sets no ToS: that is the point.
 * Errors unwind with goto in reverse order, as rdma-core's examples do.
 */
#include "defpath.h"
#include "../lib/errmsg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAYLOAD 64
#define GRH 40
#define SLOT (GRH + PAYLOAD)

int defpath_tos_of(const uint8_t grh[40])
{
	if (grh[20] == 0x45)
		return grh[21];
	if ((grh[0] >> 4) == 6)
		return ((grh[0] & 0x0f) << 4) | (grh[1] >> 4);
	return -1;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The next event of the channel, which must be want; within timeout_ms. */
static int next_event(struct rdma_event_channel *ch, enum rdma_cm_event_type want, int timeout_ms,
		      struct rdma_cm_event **ev, char *err, size_t errlen)
{
	struct pollfd p = {.fd = ch->fd, .events = POLLIN};
	int r = poll(&p, 1, timeout_ms);
	if (r <= 0) {
		qg_errf(err, errlen, "rdma_cm: no %s within %d s%s", rdma_event_str(want),
			timeout_ms / 1000,
			want == RDMA_CM_EVENT_CONNECT_REQUEST ? " (no client came)" : "");
		return -1;
	}
	if (rdma_get_cm_event(ch, ev) != 0) {
		qg_errf(err, errlen, "rdma_get_cm_event: %s", strerror(errno));
		return -1;
	}
	if ((*ev)->event != want) {
		qg_errf(err, errlen, "rdma_cm: %s (status %d), expected %s%s",
			rdma_event_str((*ev)->event), (*ev)->status, rdma_event_str(want),
			(*ev)->event == RDMA_CM_EVENT_UNREACHABLE
			    ? ": no qosgen probe --default-path --server answered"
			    : "");
		rdma_ack_cm_event(*ev);
		return -1;
	}
	return 0;
}

/* The route must use the device the intent names: another would test another NIC. */
static int same_device(const struct rdma_cm_id *id, const struct defpath_opts *o,
		       struct defpath_result *r, char *err, size_t errlen)
{
	const char *name = id->verbs ? ibv_get_device_name(id->verbs->device) : NULL;
	snprintf(r->device, sizeof(r->device), "%s", name ? name : "");
	if (name && !strcmp(name, o->device))
		return 0;
	qg_errf(err, errlen, "rdma_cm routes this through %s, not %s (is %s on %s's netdev?)",
		name ? name : "no device", o->device, o->server ? "the address" : o->peer,
		o->device);
	return -1;
}

struct ud {
	struct ibv_qp *qp; /* the id's, made by ud_open() */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;
};

/* A PD, a CQ, a UD QP on id (rdma_create_qp brings it to RTS), slots buffers. */
static int ud_open(struct rdma_cm_id *id, int slots, struct ud *u, char *err, size_t errlen)
{
	memset(u, 0, sizeof(*u));
	u->pd = ibv_alloc_pd(id->verbs);
	if (!u->pd) {
		qg_errf(err, errlen, "ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	u->cq = ibv_create_cq(id->verbs, slots + 1, NULL, NULL, 0);
	if (!u->cq) {
		qg_errf(err, errlen, "ibv_create_cq: %s", strerror(errno));
		goto pd;
	}
	struct ibv_qp_init_attr a = {
	    .send_cq = u->cq,
	    .recv_cq = u->cq,
	    .qp_type = IBV_QPT_UD,
	    .cap = {.max_send_wr = 1,
		    .max_recv_wr = (uint32_t)slots,
		    .max_send_sge = 1,
		    .max_recv_sge = 1},
	};
	if (rdma_create_qp(id, u->pd, &a) != 0) {
		qg_errf(err, errlen, "rdma_create_qp (UD): %s", strerror(errno));
		goto cq;
	}
	u->qp = id->qp;
	u->buf = calloc((size_t)slots, SLOT);
	if (!u->buf) {
		qg_errf(err, errlen, "out of memory");
		goto qp;
	}
	u->mr = ibv_reg_mr(u->pd, u->buf, (size_t)slots * SLOT, IBV_ACCESS_LOCAL_WRITE);
	if (!u->mr) {
		qg_errf(err, errlen, "ibv_reg_mr: %s", strerror(errno));
		goto buf;
	}
	return 0;
buf:
	free(u->buf);
qp:
	rdma_destroy_qp(id);
cq:
	ibv_destroy_cq(u->cq);
pd:
	ibv_dealloc_pd(u->pd);
	return -1;
}

static void ud_close(struct rdma_cm_id *id, struct ud *u)
{
	ibv_dereg_mr(u->mr);
	free(u->buf);
	rdma_destroy_qp(id);
	ibv_destroy_cq(u->cq);
	ibv_dealloc_pd(u->pd);
}

static void seen(struct defpath_result *r, int tos)
{
	for (int k = 0; k < r->n_tos; k++)
		if (r->tos[k] == tos)
			return;
	if (r->n_tos < DEFPATH_TOS_SEEN)
		r->tos[r->n_tos++] = tos;
}

static int serve(struct rdma_event_channel *ch, const struct defpath_opts *o,
		 struct defpath_result *r, char *err, size_t errlen)
{
	struct rdma_cm_id *listen = NULL, *id;
	struct rdma_cm_event *ev;
	int rc = -1;
	if (rdma_create_id(ch, &listen, NULL, RDMA_PS_UDP) != 0) {
		qg_errf(err, errlen, "rdma_create_id: %s", strerror(errno));
		return -1;
	}
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port)};
	a.sin_addr.s_addr = htonl(INADDR_ANY);
	if (rdma_bind_addr(listen, (struct sockaddr *)&a) != 0 || rdma_listen(listen, 1) != 0) {
		qg_errf(err, errlen, "rdma_bind_addr/rdma_listen on UDP port %d: %s", o->port,
			strerror(errno));
		goto out;
	}
	if (next_event(ch, RDMA_CM_EVENT_CONNECT_REQUEST, o->timeout_s * 1000, &ev, err, errlen))
		goto out;
	id = ev->id;
	struct ud u;
	if (same_device(id, o, r, err, errlen) != 0 || ud_open(id, o->count, &u, err, errlen)) {
		rdma_reject(id, NULL, 0);
		rdma_ack_cm_event(ev);
		rdma_destroy_id(id);
		goto out;
	}
	for (int k = 0; k < o->count; k++) {
		struct ibv_sge sge = {.addr = (uintptr_t)(u.buf + (size_t)k * SLOT),
				      .length = SLOT,
				      .lkey = u.mr->lkey};
		struct ibv_recv_wr wr = {.wr_id = (uint64_t)k, .sg_list = &sge, .num_sge = 1}, *bad;
		if (ibv_post_recv(id->qp, &wr, &bad) != 0) {
			qg_errf(err, errlen, "ibv_post_recv: %s", strerror(errno));
			goto close;
		}
	}
	struct rdma_conn_param cp = {.qp_num = id->qp->qp_num};
	if (rdma_accept(id, &cp) != 0) {
		qg_errf(err, errlen, "rdma_accept: %s", strerror(errno));
		goto close;
	}
	rdma_ack_cm_event(ev);
	ev = NULL;
	/* Until every datagram came, a second after the last one, or the timeout. */
	double end = now_s() + o->timeout_s, last = 0;
	while (r->received < o->count && now_s() < end && (!last || now_s() < last + 1)) {
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(u.cq, 16, wc);
		if (n < 0) {
			qg_errf(err, errlen, "ibv_poll_cq failed");
			goto close;
		}
		for (int k = 0; k < n; k++) {
			if (wc[k].status != IBV_WC_SUCCESS || !(wc[k].wc_flags & IBV_WC_GRH))
				continue;
			r->received++;
			last = now_s();
			seen(r, defpath_tos_of(u.buf + wc[k].wr_id * SLOT));
		}
		if (!n)
			nanosleep(&(struct timespec){.tv_nsec = 1000 * 1000}, NULL);
	}
	rc = 0;
close:
	if (ev)
		rdma_ack_cm_event(ev);
	ud_close(id, &u);
	rdma_destroy_id(id);
out:
	rdma_destroy_id(listen);
	return rc;
}

/* Where the client's datagrams go: the server's UD QP, as its SIDR reply gives it. */
struct ud_dest {
	struct ibv_ah *ah;
	uint32_t qpn, qkey;
};

static int send_all(const struct ud *u, const struct ud_dest *to, const struct defpath_opts *o,
		    struct defpath_result *r, char *err, size_t errlen)
{
	memset(u->buf, 0x5a, PAYLOAD);
	for (int k = 0; k < o->count; k++) {
		struct ibv_sge sge = {
		    .addr = (uintptr_t)u->buf, .length = PAYLOAD, .lkey = u->mr->lkey};
		struct ibv_send_wr wr = {.wr_id = (uint64_t)k,
					 .sg_list = &sge,
					 .num_sge = 1,
					 .opcode = IBV_WR_SEND,
					 .send_flags = IBV_SEND_SIGNALED},
				   *bad;
		wr.wr.ud.ah = to->ah;
		wr.wr.ud.remote_qpn = to->qpn;
		wr.wr.ud.remote_qkey = to->qkey;
		if (ibv_post_send(u->qp, &wr, &bad) != 0) {
			qg_errf(err, errlen, "ibv_post_send: %s", strerror(errno));
			return -1;
		}
		struct ibv_wc wc;
		double end = now_s() + 5;
		int n;
		while ((n = ibv_poll_cq(u->cq, 1, &wc)) == 0 && now_s() < end)
			;
		if (n != 1 || wc.status != IBV_WC_SUCCESS) {
			qg_errf(err, errlen, "send %d did not complete: %s", k,
				n == 1 ? ibv_wc_status_str(wc.status) : "timed out");
			return -1;
		}
		r->sent++;
		/* Paced: a receiver's ring is not a queue to overflow. */
		nanosleep(&(struct timespec){.tv_nsec = 2 * 1000 * 1000}, NULL);
	}
	return 0;
}

static int connect_and_send(struct rdma_event_channel *ch, const struct defpath_opts *o,
			    struct defpath_result *r, char *err, size_t errlen)
{
	struct rdma_cm_id *id = NULL;
	struct rdma_cm_event *ev;
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons((uint16_t)o->port)};
	if (inet_pton(AF_INET, o->peer, &dst.sin_addr) != 1) {
		qg_errf(err, errlen, "'%s' is not an IPv4 address", o->peer);
		return -1;
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_UDP) != 0) {
		qg_errf(err, errlen, "rdma_create_id: %s", strerror(errno));
		return -1;
	}
	int rc = -1;
	/*
	 * Bound to the NIC's own address first, the route leaves through that
	 * NIC (a host of several NICs, or one sending to itself, where the
	 * routing table would pick another).
	 */
	struct sockaddr_in src = {.sin_family = AF_INET};
	if (o->source && inet_pton(AF_INET, o->source, &src.sin_addr) != 1) {
		qg_errf(err, errlen, "'%s' is not an IPv4 address", o->source);
		goto out;
	}
	if (rdma_resolve_addr(id, o->source ? (struct sockaddr *)&src : NULL,
			      (struct sockaddr *)&dst, 2000) != 0) {
		qg_errf(err, errlen, "rdma_resolve_addr %s: %s", o->peer, strerror(errno));
		goto out;
	}
	if (next_event(ch, RDMA_CM_EVENT_ADDR_RESOLVED, 5000, &ev, err, errlen))
		goto out;
	rdma_ack_cm_event(ev);
	if (same_device(id, o, r, err, errlen) != 0)
		goto out;
	if (rdma_resolve_route(id, 2000) != 0) {
		qg_errf(err, errlen, "rdma_resolve_route: %s", strerror(errno));
		goto out;
	}
	if (next_event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, 5000, &ev, err, errlen))
		goto out;
	rdma_ack_cm_event(ev);
	struct ud u;
	if (ud_open(id, 1, &u, err, errlen) != 0)
		goto out;
	/* No rdma_set_option(RDMA_OPTION_ID_TOS): the default path. */
	struct rdma_conn_param cp = {.qp_num = id->qp->qp_num};
	if (rdma_connect(id, &cp) != 0) {
		qg_errf(err, errlen, "rdma_connect (SIDR): %s", strerror(errno));
		goto close;
	}
	/* The server may still be starting: the SIDR request is retried by rdma_cm. */
	if (next_event(ch, RDMA_CM_EVENT_ESTABLISHED, o->timeout_s * 1000, &ev, err, errlen))
		goto close;
	struct ibv_ah_attr ah_attr = ev->param.ud.ah_attr;
	uint32_t qpn = ev->param.ud.qp_num, qkey = ev->param.ud.qkey;
	rdma_ack_cm_event(ev);
	r->tclass = ah_attr.is_global ? ah_attr.grh.traffic_class : -1;
	struct ibv_ah *ah = ibv_create_ah(u.pd, &ah_attr);
	if (!ah) {
		qg_errf(err, errlen, "ibv_create_ah: %s", strerror(errno));
		goto close;
	}
	rc = send_all(&u, &(struct ud_dest){.ah = ah, .qpn = qpn, .qkey = qkey}, o, r, err, errlen);
	ibv_destroy_ah(ah);
close:
	ud_close(id, &u);
out:
	rdma_destroy_id(id);
	return rc;
}

int defpath_run(const struct defpath_opts *o, struct defpath_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->tclass = -1;
	struct rdma_event_channel *ch = rdma_create_event_channel();
	if (!ch) {
		qg_errf(err, errlen, "rdma_create_event_channel: %s (is rdma_ucm loaded?)",
			strerror(errno));
		return -1;
	}
	int rc = o->server ? serve(ch, o, r, err, errlen) : connect_and_send(ch, o, r, err, errlen);
	rdma_destroy_event_channel(ch);
	return rc;
}
