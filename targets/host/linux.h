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

/*
 * Where `qosgen push` installs a host's files so that its settings come back
 * by themselves (persist: true). Keyed by the netdev: one machine may be
 * several intent hosts, one per RoCE NIC (multi-rail), and each keeps its own.
 * The same for every host of that netdev name: the paths are part of the
 * files' contents (the unit names the script, the rule names both).
 */
struct linux_persist_paths {
	char script[64 + QG_IFNAME_LEN]; /* /usr/local/lib/qosgen/roce-qos-NETDEV.sh */
	char unit[64 + QG_IFNAME_LEN];	 /* /etc/systemd/system/qosgen-roce-qos-NETDEV@.service */
	char unit_name[32 + QG_IFNAME_LEN]; /* qosgen-roce-qos-NETDEV (instances @netdev, @rdma) */
	char rules[64 + QG_IFNAME_LEN];	    /* /etc/udev/rules.d/90-qosgen-roce-qos-NETDEV.rules */
	/* systemd's device unit of the netdev: sys-subsystem-net-devices-NETDEV.device, escaped */
	char netdev_unit[48 + 4 * QG_IFNAME_LEN];
};
void linux_persist_paths(const struct qg_nic *h, struct linux_persist_paths *p);

/*
 * Where build writes the unit and the rule: host/persist/NETDEV/RDMA.service
 * and .rules, shared by every host of that netdev and RDMA device.
 */
#define LINUX_PERSIST_FILE_LEN (32 + QG_IFNAME_LEN + QG_NAME_LEN)
void linux_persist_files(const struct qg_nic *h, char service[LINUX_PERSIST_FILE_LEN],
			 char rules[LINUX_PERSIST_FILE_LEN]);
struct qg_driver;
extern const struct qg_driver qg_driver_linux; /* linux_push.c: the script over SSH */

#endif
