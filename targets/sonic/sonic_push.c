/* SPDX-License-Identifier: MIT */
/*
 * The device side of SONiC: not written yet (issue 14, item 4: read back
 * with `show runningconfiguration all`, a JSON Patch through `config
 * apply-patch` with a checkpoint). With no push, `qosgen push` says the
 * switch is skipped (targets/registry.c's qg_driver_for()).
 */
#include "../driver.h"
#include "sonic.h"

const struct qg_driver qg_driver_sonic = {.target = &qg_target_sonic, .push = NULL};
