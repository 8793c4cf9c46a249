/* SPDX-License-Identifier: MIT */
#include "derive.h"

#include "diag.h"
#include "model.h"

#include <stdio.h>
#include <string.h>

int qg_host_dscp(const struct qg_qos *q)
{
	return q->lossless.n_dscp > 0 ? q->lossless.dscp[0] : 0;
}

int qg_roce_tos_without_ecn(const struct qg_qos *q)
{
	return qg_host_dscp(q) << 2;
}

int qg_roce_tos(const struct qg_qos *q)
{
	return qg_roce_tos_without_ecn(q) | (q->ecn ? QG_ECT0 : 0);
}

int qg_lossy_priority(const struct qg_qos *q)
{
	int p = 0;
	while (p < 7 && (p == q->lossless.priority || (q->cnp && p == q->cnpc.priority)))
		p++;
	return p;
}

void qg_priority_tcs(const struct qg_qos *q, int lossless_tc, int cnp_tc, int out[8])
{
	bool cnp = q->cnp && cnp_tc >= 0, taken[8] = {false};
	taken[lossless_tc] = true;
	if (cnp)
		taken[cnp_tc] = true;
	bool placed[8] = {false};
	placed[q->lossless.priority] = true;
	if (cnp)
		placed[q->cnpc.priority] = true;
	/* Every priority of no class on its own traffic class where no class holds it... */
	for (int p = 0; p < 8; p++)
		if (!placed[p] && !taken[p]) {
			out[p] = p;
			taken[p] = placed[p] = true;
		}
	/* ... the others on the ones left, lowest first: each still a queue of its own. */
	for (int p = 0, t = 0; p < 8; p++)
		if (!placed[p]) {
			while (t < 7 && taken[t])
				t++;
			out[p] = t;
			taken[t] = true;
		}
	out[q->lossless.priority] = lossless_tc;
	if (cnp)
		out[q->cnpc.priority] = cnp_tc;
}

void qg_dscp_map_exact(const struct qg_qos *q, uint8_t out[64])
{
	if (!q->dscp_exact) {
		memcpy(out, q->dscp_prio, 64);
		return;
	}
	int lossy = qg_lossy_priority(q);
	for (int d = 0; d < 64; d++) {
		int p = qg_default_dscp_priority(d);
		bool class_prio = p == q->lossless.priority || (q->cnp && p == q->cnpc.priority);
		out[d] = (uint8_t)(class_prio ? lossy : p);
	}
	for (int k = 0; k < q->lossless.n_dscp; k++)
		out[q->lossless.dscp[k]] = (uint8_t)q->lossless.priority;
	if (q->cnp)
		for (int k = 0; k < q->cnpc.n_dscp; k++)
			out[q->cnpc.dscp[k]] = (uint8_t)q->cnpc.priority;
}

void qg_pfc_vector(int priority, char out[16])
{
	for (int i = 0; i < 8; i++) {
		out[2 * i] = i == priority ? '1' : '0';
		out[2 * i + 1] = i == 7 ? '\0' : ',';
	}
}

unsigned qg_pfc_bitmap(int priority)
{
	return (priority >= 0 && priority < 8) ? 1u << priority : 0;
}

int qg_roce_path_mtu(int netdev_mtu)
{
	int room = netdev_mtu - QG_ROCE_MTU_OVERHEAD;
	for (int ib = 4096; ib >= 256; ib /= 2)
		if (room >= ib)
			return ib;
	return 0;
}

void qg_check_fixed_dscp_map(const struct qg_model *m, const char *target, struct qg_diags *d)
{
	const struct qg_qos *q = &m->qos;
	if (q->trust != QG_TRUST_DSCP)
		return;
	for (int k = 0; k < 2; k++) {
		const struct qg_class *cl = k == 0 ? &q->lossless : &q->cnpc;
		if (k == 1 && !q->cnp)
			continue;
		for (int i = 0; i < cl->n_dscp; i++) {
			int v = cl->dscp[i];
			if (q->dscp_prio[v] == qg_default_dscp_priority(v))
				continue;
			qg_error(
			    d, cl->dscp_pos,
			    "qos.%s.dscp: DSCP %d maps to switch-priority %d (DSCP/8), not %d, and "
			    "no DSCP map is written by the %s target: use %d..%d for priority %d",
			    k == 0 ? "lossless" : "cnp", v, qg_default_dscp_priority(v),
			    cl->priority, target, cl->priority * 8, cl->priority * 8 + 7,
			    cl->priority);
		}
	}
}

long qg_ecn_bytes(int kb)
{
	return (long)kb * 1000;
}
