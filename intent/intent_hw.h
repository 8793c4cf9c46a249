/* SPDX-License-Identifier: MIT */
/*
 * A switch's hardware (issue 34): its model and its ports' speed, for the
 * lossless headroom. Read by the switches' loader and the roles' (a role
 * runs its ports at a speed of its own).
 */
#ifndef QG_INTENT_HW_H
#define QG_INTENT_HW_H

#include "../model/switch_hw.h"
#include "intent_walk.h"

/*
 * model and speed_gbps of the switch entry item at path into s; without a
 * speed, the model's first port kind's native one.
 */
void intent_hw_load(struct walk *w, const struct qg_ynode *item, const char *path,
		    struct qg_switch *s);

/*
 * A speed_gbps at n (a switch's or a role's): one of hw's port speeds, or
 * with hw NULL one the headroom formula knows. False when refused (said).
 */
bool intent_speed_read(struct walk *w, const struct qg_ynode *n, const char *path,
		       const struct qg_switch_hw *hw, int *out);

#endif
