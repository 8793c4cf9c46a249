/* SPDX-License-Identifier: MIT */
#include "ports.h"

int qg_port_cmp(const struct qg_port *a, const struct qg_port *b)
{
	if (a->module != b->module)
		return a->module < b->module ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	if (a->split != b->split)
		return a->split < b->split ? -1 : 1;
	return 0;
}

static bool port_follows(const struct qg_port *prev, const struct qg_port *p)
{
	if (p->module != prev->module || (p->split == 0) != (prev->split == 0))
		return false;
	if (p->split)
		return p->port == prev->port && p->split == prev->split + 1;
	return p->port == prev->port + 1;
}

size_t qg_port_runs(const struct qg_port *p, size_t n, struct qg_port_run *runs)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && port_follows(&runs[k - 1].last, &p[i])) {
			runs[k - 1].last = p[i];
		} else {
			runs[k].first = runs[k].last = p[i];
			k++;
		}
	}
	return k;
}
