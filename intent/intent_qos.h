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
/*
 * qos.lossless.pool, required where a used switch target writes a pool
 * (QG_FEAT_BUFFER_POOL) or where the intent names no device at all (nothing
 * says which targets the policy is for): run once every device is read.
 */
void intent_qos_settle_pool(struct walk *w);
/* qos: every value and the rules between them; switch_mtu is only noted (above). */
void intent_qos_load(struct walk *w, const struct qg_ynode *n, struct qg_qos *q);

#endif
