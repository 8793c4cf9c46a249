/* SPDX-License-Identifier: MIT */
/*
 * The one table of targets: what `qosgen` compiles for (handed to the
 * intent loader) and how each target's devices are reached. Adding a target
 * is one row here (and its folder); nothing else names it.
 */
#ifndef QG_REGISTRY_H
#define QG_REGISTRY_H

#include "driver.h"

/* Every target, in emit order; NULL-terminated. */
extern const struct qg_target *const qg_targets[];

/* The driver of a target, or NULL when its devices cannot be pushed yet. */
const struct qg_driver *qg_driver_for(const struct qg_target *t);

#endif
