/* SPDX-License-Identifier: MIT */
/*
 * The intent's switches: platform, SSH endpoint (one switch per endpoint),
 * ports in the platform's names, cable lengths.
 */
#ifndef QG_INTENT_SWITCHES_H
#define QG_INTENT_SWITCHES_H

#include "intent_walk.h"
#include "../model/switch_hw.h"

/* switches: each entry into m->switches. */
void intent_switches_load(struct walk *w, const struct qg_ynode *n);

/*
 * A speed_gbps at n (a switch's or a role's): one of hw's port speeds, or
 * with hw NULL one the headroom formula knows. False when refused (said).
 */
bool intent_speed_read(struct walk *w, const struct qg_ynode *n, const char *path,
		       const struct qg_switch_hw *hw, int *out);

#endif
