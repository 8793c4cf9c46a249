/* SPDX-License-Identifier: MIT */
/*
 * The intent's qos mapping: the two classes, the MTUs, the PFC watchdog, and
 * the rules between them (docs/intent.md, "qos").
 */
#ifndef QG_INTENT_QOS_H
#define QG_INTENT_QOS_H

#include "intent_walk.h"

/* qos.switch_mtu, its default and range from the switches' targets: run once they are read. */
void intent_qos_settle_switch_mtu(struct walk *w, struct qg_qos *q);
/* qos: every value and the rules between them; switch_mtu is only noted (above). */
void intent_qos_load(struct walk *w, const struct qg_ynode *n, struct qg_qos *q);

#endif
