/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include <stddef.h>

/*
 * One line per target, in emit order: its folder defines qg_target_NAME (the
 * compile side) and qg_driver_NAME (the device side; a compile-only target's
 * has no push). That line is all a new target adds outside its folder
 * (tests/core/skeleton.sh): the declarations below come from it, so no
 * target's header is included, and the Makefile builds every .c file of
 * targets/NAME/.
 */
/* clang-format off */
#define QG_REGISTRY(X)                                                                             \
	X(onyx)                                                                                    \
	X(cumulus)                                                                                 \
	X(sonic)                                                                                   \
	X(linux)                                                                                   \
	X(esxi)                                                                                    \
	X(dvs)                                                                                     \
	/* a new target: its line above this one */
/* clang-format on */

#define QG_DECLARE(name)                                                                           \
	extern const struct qg_target qg_target_##name;                                            \
	extern const struct qg_driver qg_driver_##name;
QG_REGISTRY(QG_DECLARE)

#define QG_TARGET_ROW(name) &qg_target_##name,
#define QG_DRIVER_ROW(name) &qg_driver_##name,

const struct qg_target *const qg_targets[] = {QG_REGISTRY(QG_TARGET_ROW) NULL};

static const struct qg_driver *const drivers[] = {QG_REGISTRY(QG_DRIVER_ROW)};

const struct qg_driver *qg_driver_for(const struct qg_target *t)
{
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (drivers[i]->target == t)
			return drivers[i]->push ? drivers[i] : NULL;
	return NULL;
}
