/* SPDX-License-Identifier: MIT */
#include "waves.h"

static bool host_pushed(const struct qg_wave_device *pushed, size_t n, size_t host)
{
	for (size_t i = 0; i < n; i++)
		if (pushed[i].kind == QG_DEVICE_HOST && pushed[i].index == host)
			return true;
	return false;
}

/*
 * Only hosts count: a pair's traffic crosses switches and DVSes too, but
 * the waves push every switch and DVS before the first host (push/push.c's
 * order), so when both hosts are done the path is too.
 */
size_t qg_verify_pairs_ready(const struct qg_model *m, const struct qg_wave_device *pushed,
			     size_t n_pushed, bool *pair_done, size_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < m->verify.n_pairs; i++) {
		const struct qg_pair *p = &m->verify.pairs[i];
		if (pair_done[i] || !host_pushed(pushed, n_pushed, p->client) ||
		    !host_pushed(pushed, n_pushed, p->server))
			continue;
		pair_done[i] = true;
		out[n++] = i;
	}
	return n;
}
