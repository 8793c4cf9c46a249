/* SPDX-License-Identifier: MIT */
/*
 * The skeleton target (tests/core/skeleton.sh copies this folder to
 * targets/skeleton/ in a copy of the tree): the least a switch target is,
 * to prove that adding one is its folder and one registry line.
 */
#ifndef QG_SKELETON_H
#define QG_SKELETON_H

#include "../../model/target.h"
#include "../driver.h"

extern const struct qg_target qg_target_skeleton;
extern const struct qg_driver qg_driver_skeleton; /* compile-only: no push */

#endif
