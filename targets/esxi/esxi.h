/* SPDX-License-Identifier: MIT */
/*
 * VMware ESXi hosts with ConnectX (nmlx5 native driver): an esxcli script
 * per host that merges the driver's module options, tags the PVRDMA vmknic
 * and opens its firewall ruleset, and sets the vmknic MTU.
 */
#ifndef QG_TARGET_ESXI_H
#define QG_TARGET_ESXI_H

#include "../../model/target.h"

extern const struct qg_target qg_target_esxi;
struct qg_driver;
extern const struct qg_driver qg_driver_esxi; /* esxi_push.c: the script over SSH */

#endif
