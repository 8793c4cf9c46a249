/* SPDX-License-Identifier: MIT */
/*
 * Linux hosts with a RoCE NIC: an idempotent POSIX sh script per host, in
 * two flavours (mlnx_qos from MLNX_OFED / mlnx-tools, or upstream iproute2
 * dcb), for a PF or for a VF / PVRDMA adapter inside a VM.
 */
#ifndef QG_TARGET_LINUX_H
#define QG_TARGET_LINUX_H

#include "../../gen/target.h"

extern const struct qg_target qg_target_linux;
struct qg_driver;
extern const struct qg_driver qg_driver_linux; /* script_push.c: the script over SSH */

#endif
