/* SPDX-License-Identifier: MIT */
/*
 * NVIDIA Onyx (MLNX-OS) switches: CLI lines in the shape Onyx prints its
 * running-config, so that the generated file, the switch's own
 * `show running-config` and `qosgen diff` read alike.
 */
#ifndef QG_TARGET_ONYX_H
#define QG_TARGET_ONYX_H

#include "../../lib/buf.h"
#include "../../model/target.h"
#include "onyx_config.h"

extern const struct qg_target qg_target_onyx;

/* The sections' titles (enum onyx_section, onyx_config.h). */
extern const char *const onyx_section_title[ONYX_SEC_COUNT];

#endif
