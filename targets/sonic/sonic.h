/* SPDX-License-Identifier: MIT */
/* SONiC switches: the config_db tables of lossless RoCE. */
#ifndef QG_TARGET_SONIC_H
#define QG_TARGET_SONIC_H

#include "../../model/target.h"

extern const struct qg_target qg_target_sonic;

#endif
