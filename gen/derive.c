/* SPDX-License-Identifier: MIT */
#include "derive.h"

#include <stdio.h>

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
