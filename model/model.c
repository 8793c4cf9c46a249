/* SPDX-License-Identifier: MIT */
#include "model.h"

#include <stdlib.h>
#include <string.h>

void qg_model_free(struct qg_model *m)
{
	for (size_t i = 0; i < m->n_switches; i++) {
		free(m->switches[i].ports);
		free(m->switches[i].cable_m);
		free(m->switches[i].roles);
		free(m->switches[i].port_role);
	}
	free(m->switches);
	free(m->hosts);
	for (size_t i = 0; i < m->n_nic_blocks; i++)
		free(m->nic_blocks[i]);
	free(m->nic_blocks);
	for (size_t i = 0; i < m->n_dvs; i++)
		free(m->dvs[i].hosts);
	free(m->dvs);
	for (size_t i = 0; i < m->verify.n_pairs; i++)
		free(m->verify.pairs[i].rails);
	free(m->verify.pairs);
	free(m->acks);
	qg_warning_set_free(&m->warnings);
	memset(m, 0, sizeof(*m));
}
