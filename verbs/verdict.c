/* SPDX-License-Identifier: MIT */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* mlx5 (drivers/infiniband/hw/mlx5/counters.c) and rxe (rdma statistic) names. */
const char *const vd_loss_counters[] = {
    "out_of_sequence",
    "packet_seq_err",
    "local_ack_timeout_err",
    "out_of_buffer",
    "duplicate_request",
    "out_of_seq_request",
    "rcvd_seq_err",
    "retry_exceeded_err",
    "completer_retry_err",
    "rx_discards_phy",
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

	if (m->active_mtu < 0)
		add(out, VD_MARGINAL, "path MTU", "not read");
	else if (m->active_mtu >= e->path_mtu)
		add(out, VD_PASS, "path MTU", "active MTU %d", m->active_mtu);
	else
		add(out, VD_FATAL, "path MTU",
		    "active MTU %d < %d: a hop carries a smaller MTU (a netdev MTU of 1500 gives "
		    "1024)",
		    m->active_mtu, e->path_mtu);

	int dscp = e->tos >> 2;
	if (m->tos < 0)
		add(out, VD_MARGINAL, "RoCE marking", "the applied ToS could not be read");
	else if (m->tos == e->tos)
		add(out, VD_PASS, "RoCE marking", "ToS %d (0x%02x): DSCP %d%s", m->tos, m->tos,
		    dscp, e->ecn ? ", ECT(0)" : "");
	else if ((m->tos >> 2) == dscp)
		add(out, VD_MARGINAL, "RoCE marking",
		    "ToS %d (0x%02x): DSCP %d but ECN bits %d, expected %d (%s)", m->tos, m->tos,
		    dscp, m->tos & 3, e->tos & 3,
		    e->ecn ? "without ECT(0) switches cannot mark, DCQCN never reacts"
			   : "ECN is off");
	else
		add(out, VD_FATAL, "RoCE marking",
		    "ToS %d (0x%02x) carries DSCP %d, expected %d (ToS %d): the traffic misses the "
		    "lossless class",
		    m->tos, m->tos, m->tos >> 2, dscp, e->tos);

	if (!m->delta) {
		add(out, VD_MARGINAL, "loss counters", "cannot read the port counters");
		return;
	}
	char grew[256] = "";
	size_t used = 0;
	for (size_t i = 0; vd_loss_counters[i]; i++) {
		const struct vc_counter *c = vc_counter_find(m->delta, vd_loss_counters[i]);
		if (c && c->value)
			used += (size_t)snprintf(grew + used, sizeof(grew) - used, "%s%s +%llu",
						 used ? ", " : "", c->name,
						 (unsigned long long)c->value);
	}
	/* Per-priority discards from ethtool -S, when they were read: rx_prio3_discards. */
	for (size_t i = 0; i < m->delta->n && used < sizeof(grew); i++) {
		const struct vc_counter *c = &m->delta->v[i];
		if (c->value && strstr(c->name, "_discards") && !strncmp(c->name, "rx_prio", 7))
			used += (size_t)snprintf(grew + used, sizeof(grew) - used, "%s%s +%llu",
						 used ? ", " : "", c->name,
						 (unsigned long long)c->value);
	}
	if (used)
		add(out, VD_FATAL, "loss counters", "rose during the run: %s", grew);
	else
		add(out, VD_PASS, "loss counters", "no loss, no retransmission");

	char ecn[256] = "";
	used = 0;
	for (size_t i = 0; vd_ecn_counters[i]; i++) {
		const struct vc_counter *c = vc_counter_find(m->delta, vd_ecn_counters[i]);
		if (c)
			used += (size_t)snprintf(ecn + used, sizeof(ecn) - used, "%s%s +%llu",
						 used ? ", " : "", c->name,
						 (unsigned long long)c->value);
	}
	add(out, VD_PASS, "ECN and CNP", "%s", used ? ecn : "this device reports no ECN counters");
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
