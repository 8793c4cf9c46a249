/* SPDX-License-Identifier: MIT */
#include "registry.h"

#include "cumulus/cumulus.h"
#include "dvs/dvs.h"
#include "esxi/esxi.h"
#include "host/linux.h"
#include "onyx/onyx.h"
#include "sonic/sonic.h"

#include <stddef.h>

/*
 * One row per target, in emit order: its folder defines qg_target_NAME (the
 * compile side) and qg_driver_NAME (the device side).
 */
#define QG_REGISTRY(X) X(onyx) X(cumulus) X(sonic) X(linux) X(esxi) X(dvs)

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
