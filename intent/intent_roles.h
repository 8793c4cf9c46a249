/* SPDX-License-Identifier: MIT */
/*
 * A switch's port roles (issue 28): named sets of its ports, each with the
 * ECN thresholds and cable length its ports take instead of the policy's
 * (the ports to hosts are short and shallow, those to spines long and
 * deep). A port in no role takes the policy's values.
 */
#ifndef QG_INTENT_ROLES_H
#define QG_INTENT_ROLES_H

#include "intent_walk.h"

/*
 * switches[].roles at n (path "switches[leaf1].roles") into s->roles,
 * s->n_roles and s->port_role; a role's cable length into s->cable_m. Run
 * once the switch's ports and cable_length_m are read: cable_src is, per
 * port of s, where cable_length_m gave it a length (line 0: it did not), or
 * NULL when the switch has no cable_length_m.
 */
void intent_roles_load(struct walk *w, const struct qg_ynode *n, const char *path,
		       struct qg_switch *s, const struct qg_pos *cable_src);

#endif
