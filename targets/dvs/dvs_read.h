/* SPDX-License-Identifier: MIT */
/* The read half of the DVS push (dvs_read.c): locate the objects, read their values. */
#ifndef QG_DVS_READ_H
#define QG_DVS_READ_H

#include "dvs_plan.h"

/*
 * Find the switch of m->dvs[i] and st's hosts by name (each find is a
 * ContainerView), with the hosts' managers: once per push. A switch or host
 * not there is st->found / h->found false, not an error. 0 or -1 with err.
 */
int dvs_locate(struct vim *v, const struct qg_model *m, size_t i, struct dvs_state *st, char *err,
	       size_t errlen);

/*
 * The values of what dvs_locate found (the switch's maxMtu, configVersion,
 * uplinks, members with their NICs, portgroup; each host's module options,
 * Net.PVRDMAVmknic, pvrdma ruleset and vmknic), the module options merged
 * with h->want. 0 or -1 with err.
 */
int dvs_read_state(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		   size_t errlen);

/* The switch's own values only: what a reconfigure retried after a concurrent change needs. */
int dvs_read_switch(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		    size_t errlen);

#endif
