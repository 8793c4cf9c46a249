/* SPDX-License-Identifier: MIT */
/*
 * The intent's dvs list: vSphere distributed switches and their member hosts.
 */
#ifndef QG_INTENT_DVS_H
#define QG_INTENT_DVS_H

#include "intent_walk.h"

/* dvs: each entry into m->dvs; run after the hosts, which it names. */
void intent_dvs_load(struct walk *w, const struct qg_ynode *n);

#endif
