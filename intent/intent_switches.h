/* SPDX-License-Identifier: MIT */
/*
 * The intent's switches: platform, SSH endpoint (one switch per endpoint),
 * ports in the platform's names, cable lengths.
 */
#ifndef QG_INTENT_SWITCHES_H
#define QG_INTENT_SWITCHES_H

#include "intent_walk.h"

/* switches: each entry into m->switches. */
void intent_switches_load(struct walk *w, const struct qg_ynode *n);

#endif
