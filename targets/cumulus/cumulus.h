/* SPDX-License-Identifier: MIT */
/* Cumulus Linux switches, configured through NVUE (Cumulus Linux 5.x). */
#ifndef QG_TARGET_CUMULUS_H
#define QG_TARGET_CUMULUS_H

#include "../../model/target.h"

extern const struct qg_target qg_target_cumulus;
struct qg_driver;
extern const struct qg_driver qg_driver_cumulus; /* cumulus_push.c: the NVUE REST API */

#endif
