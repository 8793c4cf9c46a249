/* SPDX-License-Identifier: MIT */
/*
 * The compile interface of a target: pure, no I/O, no network library.
 * A target is one folder under targets/ and one const struct qg_target;
 * the registry (targets/registry.c, outside the core) lists them, and the
 * intent loader is handed that list: the core (lib/, model/, intent/,
 * emit/) includes no target's header and knows no target by name. Reaching a device (read back,
 * push, roll back) is a target's driver, targets/driver.h, which the core never sees.
 *
 * Order of calls for `qosgen build`: the features check (model/target_features.h:
 * what a used target declares it lacks), the check() of every target the
 * intent's devices use (a target rejects what it cannot express before any
 * file exists), then for every device: emit(), emit_group() for the first
 * device of each group, and settings().
 */
#ifndef QG_TARGET_H
#define QG_TARGET_H

/*
 * The top of model/ (issue 38): the target interface, struct qg_target
 * (model/target_ops.h), with every header its members name and the core's
 * view of a model's devices (model/devices.h), so that a target needs only
 * this header. Nothing in model/ includes it.
 */
#include "../lib/buf.h"
#include "devices.h"
#include "diag.h"
#include "headroom.h"
#include "keys.h"
#include "model.h"
#include "osversion.h"
#include "outset.h"
#include "ports.h"
#include "settings.h"
#include "switch_hw.h"
#include "target_features.h"
#include "target_ops.h"
#include "template.h"

#endif
