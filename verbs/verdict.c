/* SPDX-License-Identifier: MIT */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * mlx5 (drivers/infiniband/hw/mlx5/counters.c) and rxe (rdma statistic)
 * names. Loss: a receiver saw a PSN gap, a sender got a sequence NAK, a
 * buffer or priority dropped, or a QP gave up. These are FATAL on a lossless
 * class.
 */
const char *const vd_loss_counters[] = {
    "out_of_sequence", "packet_seq_err",     "out_of_seq_request", "rcvd_seq_err",
    "out_of_buffer",   "retry_exceeded_err", "rx_discards_phy",	   NULL,
};

/*
 * Retransmission after an ACK timeout, with no sequence error: nothing was
 * seen missing, packets or ACKs came later than the QP's timeout (long PFC
 * pauses, congestion spreading, or a software RoCE device on a busy CPU).
 * MARGINAL: worth a look, not proof of loss. rxe counts both kinds of retry
 * in completer_retry_err; with rcvd_seq_err at 0 they were timeouts.
 */
const char *const vd_retransmit_counters[] = {
    "local_ack_timeout_err",
    "completer_retry_err",
    "duplicate_request",
    NULL,
};

const char *const vd_ecn_counters[] = {
    "np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored", NULL,
};

static void add(struct vd_list *l, enum vd_level level, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(struct vd_list *l, enum vd_level level, const char *what, const char *fmt, ...)
{
	if (l->n == sizeof(l->v) / sizeof(l->v[0]))
		return;
	struct vd_check *c = &l->v[l->n++];
	c->level = level;
	snprintf(c->what, sizeof(c->what), "%s", what);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

/* "a, b" lists into a fixed buffer: snprintf's return is clamped so a long list is cut, not
 * overrun. */
struct list {
	char s[360];
	size_t used;
};

static void item(struct list *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void item(struct list *l, const char *fmt, ...)
{
	if (l->used + 3 >= sizeof(l->s))
		return;
	if (l->used)
		l->used += (size_t)snprintf(l->s + l->used, sizeof(l->s) - l->used, ", ");
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->s + l->used, sizeof(l->s) - l->used, fmt, ap);
	va_end(ap);
	l->used += n < 0 ? 0 : (size_t)n;
	if (l->used >= sizeof(l->s))
		l->used = sizeof(l->s) - 1;
}

static void judge_mtu(const struct vd_expected *e, const struct vd_measured *m, struct vd_list *out)
{
	struct list low = {0}, seen = {0};
	bool unread = m->path_mtu < 0;
	for (size_t i = 0; i < m->n_sides; i++) {
		const struct vd_side *s = &m->side[i];
		if (s->active_mtu < 0)
			unread = true;
		char netdev[48] = "";
		if (s->netdev_mtu >= 0)
			snprintf(netdev, sizeof(netdev), ", netdev MTU %d", s->netdev_mtu);
		item(&seen, "%s active %d%s", s->name, s->active_mtu, netdev);
		if ((s->active_mtu >= 0 && s->active_mtu < e->path_mtu) ||
		    (s->netdev_mtu >= 0 && s->netdev_mtu < e->mtu))
			item(&low, "%s: active MTU %d%s (the intent sets %d)", s->name,
			     s->active_mtu, netdev, e->mtu);
	}
	if (low.used)
		add(out, VD_FATAL, "path MTU",
		    "%d < %d: %s; a netdev MTU of 1500 gives RoCE MTU 1024", m->path_mtu,
		    e->path_mtu, low.s);
	else if (m->path_mtu >= 0 && m->path_mtu < e->path_mtu)
		add(out, VD_FATAL, "path MTU", "%d < %d on the connection (%s)", m->path_mtu,
		    e->path_mtu, seen.s);
	else if (unread)
		add(out, VD_MARGINAL, "path MTU", "not fully read (%s)", seen.s);
	else
		add(out, VD_PASS, "path MTU", "%d (%s)", m->path_mtu, seen.s);
}

static void judge_tos(const struct vd_expected *e, const struct vd_side *s, struct vd_list *out)
{
	char what[96];
	snprintf(what, sizeof(what), "RoCE marking on %s", s->name);
	int dscp = e->tos >> 2;
	if (s->tos < 0)
		add(out, VD_MARGINAL, what,
		    "rdma_cm's default ToS could not be read (no configfs or rdma_cm); the test "
		    "used the intent's %d",
		    e->tos);
	else if (s->tos == e->tos)
		add(out, VD_PASS, what, "ToS %d (0x%02x): DSCP %d%s", s->tos, s->tos, dscp,
		    e->ecn ? ", ECT(0)" : "");
	else if ((s->tos >> 2) == dscp)
		add(out, VD_MARGINAL, what,
		    "ToS %d (0x%02x): DSCP %d but ECN bits %d, expected %d (%s)", s->tos, s->tos,
		    dscp, s->tos & 3, e->tos & 3,
		    e->ecn ? "without ECT(0) switches cannot mark, DCQCN never reacts"
			   : "ECN is off");
	else
		add(out, VD_FATAL, what,
		    "ToS %d (0x%02x) carries DSCP %d, expected %d (ToS %d): the traffic misses the "
		    "lossless class",
		    s->tos, s->tos, s->tos >> 2, dscp, e->tos);
}

/*
 * Why a job's default path misses the lossless class, from the sender's
 * settings read before the run: the first setting that gives another DSCP,
 * or, when both are right, the path itself.
 */
static void default_path_cause(const struct vd_expected *e, const struct vd_default_path *dp,
			       int got, char *out, size_t len)
{
	int dscp = e->tos >> 2;
	bool tc_wrong = dp->traffic_class >= 0 && dp->traffic_class >> 2 != dscp;
	if (dp->roce_tos >= 0 && dp->roce_tos >> 2 != dscp)
		snprintf(
		    out, len,
		    "rdma_cm's default_roce_tos of %s on %s is %d, not %d (qosgen push sets it: "
		    "roce_tos)%s",
		    dp->device, dp->sender, dp->roce_tos, e->tos,
		    tc_wrong ? "; its traffic_class is wrong too (tclass)" : "");
	else if (tc_wrong)
		snprintf(out, len,
			 "%s's traffic_class (tc/1/traffic_class) on %s is %d, not %d, and it "
			 "applies to every QP of the device (qosgen push sets it: tclass)",
			 dp->device, dp->sender, dp->traffic_class, e->tos);
	else if (dp->roce_tos < 0)
		snprintf(out, len,
			 "rdma_cm's default ToS of %s on %s could not be read (no configfs or "
			 "rdma_cm), so nothing sets it",
			 dp->device, dp->sender);
	else if (dp->tclass >= 0 && dp->tclass >> 2 == dscp)
		snprintf(out, len,
			 "%s sent ToS %d; something on the path rewrote it to %d (a switch that "
			 "remarks DSCP?)",
			 dp->sender, dp->tclass, got);
	else
		snprintf(out, len,
			 "%s's settings give %d (rdma_cm's default ToS %d%s), yet it sent %d",
			 dp->sender, e->tos, dp->roce_tos,
			 dp->traffic_class >= 0 ? ", the device's traffic_class" : "", got);
}

static void judge_default_path(const struct vd_expected *e, const struct vd_default_path *dp,
			       struct vd_list *out)
{
	if (!dp->asked)
		return;
	char what[96], cause[300];
	snprintf(what, sizeof(what), "default path from %s", dp->sender);
	int dscp = e->tos >> 2;
	if (dp->why && dp->why[0]) {
		add(out, VD_MARGINAL, what, "not measured: %s", dp->why);
		return;
	}
	if (dp->received == 0 || dp->n_tos == 0) {
		add(out, VD_MARGINAL, what,
		    "no datagram of a job that sets no traffic class reached %s (%d sent): not "
		    "judged",
		    dp->peer, dp->sent);
		return;
	}
	for (int k = 0; k < dp->n_tos; k++) {
		int got = dp->tos[k];
		if (got >= 0 && got >> 2 == dscp)
			continue;
		default_path_cause(e, dp, got, cause, sizeof(cause));
		add(out, VD_FATAL, what,
		    "a job that sets no traffic class (NCCL without NCCL_IB_TC, rdma_cm without a "
		    "ToS) reached %s with ToS %d (DSCP %d), not the lossless DSCP %d: %s",
		    dp->peer, got, got < 0 ? -1 : got >> 2, dscp, cause);
		return;
	}
	int got = dp->tos[0];
	if (e->ecn && (got & 3) == 0)
		add(out, VD_MARGINAL, what,
		    "ToS %d on the wire: DSCP %d, but not ECN-capable: switches cannot mark it, "
		    "DCQCN never reacts",
		    got, dscp);
	else
		add(out, VD_PASS, what,
		    "a job that sets no traffic class reached %s with ToS %d (DSCP %d%s), %d of %d "
		    "datagrams",
		    dp->peer, got, dscp,
		    (got & 3) == 2   ? ", ECT(0)"
		    : (got & 3) == 3 ? ", CE"
				     : "",
		    dp->received, dp->sent);
}

static void judge_counters(const struct vd_measured *m, struct vd_list *out)
{
	struct list grew = {0}, retried = {0}, ecn = {0}, unread = {0};
	for (size_t i = 0; i < m->n_sides; i++) {
		const struct vd_side *s = &m->side[i];
		if (!s->delta) {
			item(&unread, "%s", s->name);
			continue;
		}
		for (size_t k = 0; vd_loss_counters[k]; k++) {
			const struct vc_counter *c = vc_counter_find(s->delta, vd_loss_counters[k]);
			if (c && c->value)
				item(&grew, "%s %s +%llu", s->name, c->name,
				     (unsigned long long)c->value);
		}
		for (size_t k = 0; vd_retransmit_counters[k]; k++) {
			const struct vc_counter *c =
			    vc_counter_find(s->delta, vd_retransmit_counters[k]);
			if (c && c->value)
				item(&retried, "%s %s +%llu", s->name, c->name,
				     (unsigned long long)c->value);
		}
		/* Per-priority discards from ethtool -S: rx_prio3_discards. */
		for (size_t k = 0; k < s->delta->n; k++) {
			const struct vc_counter *c = &s->delta->v[k];
			if (c->value && strstr(c->name, "_discards") &&
			    !strncmp(c->name, "rx_prio", 7))
				item(&grew, "%s %s +%llu", s->name, c->name,
				     (unsigned long long)c->value);
		}
		bool any = false;
		for (size_t k = 0; vd_ecn_counters[k]; k++) {
			const struct vc_counter *c = vc_counter_find(s->delta, vd_ecn_counters[k]);
			if (c) {
				item(&ecn, "%s %s +%llu", s->name, c->name,
				     (unsigned long long)c->value);
				any = true;
			}
		}
		if (!any)
			item(&ecn, "%s reports no ECN counters", s->name);
	}
	if (grew.used)
		add(out, VD_FATAL, "loss counters", "rose during the run: %s", grew.s);
	else if (unread.used)
		add(out, VD_MARGINAL, "loss counters", "cannot read the port counters of %s",
		    unread.s);
	else
		add(out, VD_PASS, "loss counters", "no sequence error, no discard");
	if (retried.used)
		add(out, VD_MARGINAL, "retransmissions",
		    "after ACK timeouts, with no sequence error: %s (packets or ACKs late: long "
		    "pauses, congestion, or a software RoCE device on a busy CPU)",
		    retried.s);
	else if (!unread.used)
		add(out, VD_PASS, "retransmissions", "none");
	if (ecn.used)
		add(out, VD_PASS, "ECN and CNP", "%s", ecn.s);
}

/*
 * Live settings can be right and still be lost on the next reboot, driver
 * reload or NIC reset: that is MARGINAL, never FATAL (the traffic is fine now).
 */
static void judge_persist(const struct vd_side *s, struct vd_list *out)
{
	static const char ok[] = "[ok] persist: ";
	char what[96];
	if (!s->persist)
		return;
	snprintf(what, sizeof(what), "persistence on %s", s->name);
	const char *d = strstr(s->persist, "] persist: ");
	if (!strncmp(s->persist, ok, sizeof(ok) - 1))
		add(out, VD_PASS, what, "%s", s->persist + sizeof(ok) - 1);
	else
		add(out, VD_MARGINAL, what,
		    "%s: the settings would not survive a reboot, a driver reload or a NIC reset "
		    "(qosgen push installs it)",
		    d ? d + 11 : "the installed copy could not be read");
}

void vd_judge(const struct vd_expected *e, const struct vd_measured *m, struct vd_list *out)
{
	memset(out, 0, sizeof(*out));
	if (m->gbps < 0)
		add(out, VD_FATAL, "bandwidth", "no result: the traffic test did not run");
	else if (m->gbps >= e->min_gbps)
		add(out, VD_PASS, "bandwidth", "%.2f Gb/s >= %.2f", m->gbps, e->min_gbps);
	else if (m->gbps >= e->min_gbps * (1 - VD_MARGIN))
		add(out, VD_MARGINAL, "bandwidth", "%.2f Gb/s < %.2f, within %.0f%%", m->gbps,
		    e->min_gbps, VD_MARGIN * 100);
	else
		add(out, VD_FATAL, "bandwidth", "%.2f Gb/s < %.2f", m->gbps, e->min_gbps);
	judge_mtu(e, m, out);
	for (size_t i = 0; i < m->n_sides; i++)
		judge_tos(e, &m->side[i], out);
	judge_default_path(e, &m->dp, out);
	judge_counters(m, out);
	for (size_t i = 0; i < m->n_sides; i++)
		judge_persist(&m->side[i], out);
}

void vd_print(const struct vd_list *l, struct qg_buf *out)
{
	static const char *const names[] = {"PASS", "MARGINAL", "FATAL"};
	int count[3] = {0};
	for (size_t i = 0; i < l->n; i++) {
		qg_buf_printf(out, "[%s] Check %s: %s\n", names[l->v[i].level], l->v[i].what,
			      l->v[i].detail);
		count[l->v[i].level]++;
	}
	qg_buf_printf(out, "\nPASS: %d\nMARGINAL: %d\nFATAL: %d\n", count[0], count[1], count[2]);
}

bool vd_fatal(const struct vd_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].level == VD_FATAL)
			return true;
	return false;
}
