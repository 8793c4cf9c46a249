/* SPDX-License-Identifier: MIT */
#include "model.h"

#include <stdlib.h>
#include <string.h>

void qg_model_free(struct qg_model *m)
{
	for (size_t i = 0; i < m->n_switches; i++) {
		free(m->switches[i].ports);
		free(m->switches[i].cable_m);
	}
	free(m->switches);
	free(m->hosts);
	for (size_t i = 0; i < m->n_dvs; i++)
		free(m->dvs[i].hosts);
	free(m->dvs);
	free(m->verify.pairs);
	free(m->acks);
	memset(m, 0, sizeof(*m));
}
