/* SPDX-License-Identifier: MIT */
/*
 * The intent's verify mapping: the host pairs qosgen verify runs traffic
 * between, the message size and duration.
 */
#ifndef QG_INTENT_VERIFY_H
#define QG_INTENT_VERIFY_H

#include "intent_walk.h"

/* verify (n NULL when absent: the defaults); run after the hosts. */
void intent_verify_load(struct walk *w, const struct qg_ynode *n);

#endif
