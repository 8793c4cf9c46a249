/* SPDX-License-Identifier: MIT */
/*
 * The ESXi host's driver (qg_driver_esxi, declared in esxi.h): its script
 * over SSH, the push every host target shares
 * (targets/common/script_push.c); an ESXi host gets nothing installed
 * besides, so --uninstall has nothing to remove.
 */
#ifndef QG_ESXI_PUSH_H
#define QG_ESXI_PUSH_H

#include "esxi.h"

#endif
