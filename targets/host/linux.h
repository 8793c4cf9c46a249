/* SPDX-License-Identifier: MIT */
/*
 * Linux hosts with a RoCE NIC: an idempotent POSIX sh script per host, in
 * two flavours (mlnx_qos from MLNX_OFED / mlnx-tools, or upstream iproute2
 * dcb), for a PF or for a VF / PVRDMA adapter inside a VM.
 */
#ifndef QG_TARGET_LINUX_H
#define QG_TARGET_LINUX_H

#include "../../model/target.h"

extern const struct qg_target qg_target_linux;

/*
 * The firmware's defaults of the CNPs' DSCP and 802.1p priority, which a
 * host without the intent's ECN or CNP class returns to (linux.c,
 * linux_walk_dcqcn(), with the source).
 */
#define LINUX_CNP_DSCP_DEFAULT 48
#define LINUX_CNP_PRIO_DEFAULT 6

/*
 * The jobs' own traffic class (issue 35): the configuration files of NCCL
 * and UCX, the one variable qosgen owns in each, its settings key and what
 * explain prints for a container or pod spec (linux.c, linux_walk_jobs()).
 */
struct linux_job_conf {
	const char *key;  /* the settings key, "nccl.NCCL_IB_TC" */
	const char *file; /* where the host's library reads it */
	const char *var;  /* the variable, the same in the environment */
	const char *what; /* the library, for explain */
};
#define LINUX_JOB_CONFS 2
extern const struct linux_job_conf linux_job_conf[LINUX_JOB_CONFS];

/*
 * Where `qosgen push` installs host k's NIC's files so that its settings come
 * back by themselves (persist: true). A one-NIC host's are keyed by the
 * netdev: one machine may be several intent hosts, one per RoCE NIC (the
 * multi-rail of before issue 28), and each keeps its own. A host of several
 * NICs has one script, /usr/local/lib/qosgen/roce-qos.sh, and a unit and a
 * rule per NIC that run it with that NIC's netdev (command), so that a NIC
 * that comes back alone is configured alone. The same for every host of
 * that netdev name (and count of NICs): the paths are part of the files'
 * contents (the unit names the script, the rule names both).
 */
struct linux_persist_paths {
	char script[64 + QG_IFNAME_LEN];      /* /usr/local/lib/qosgen/roce-qos-NETDEV.sh */
	char command[80 + 2 * QG_IFNAME_LEN]; /* the script, then NETDEV for a NIC of several */
	char unit[64 + QG_IFNAME_LEN]; /* /etc/systemd/system/qosgen-roce-qos-NETDEV@.service */
	char unit_name[32 + QG_IFNAME_LEN]; /* qosgen-roce-qos-NETDEV (instances @netdev, @rdma) */
	char rules[64 + QG_IFNAME_LEN];	    /* /etc/udev/rules.d/90-qosgen-roce-qos-NETDEV.rules */
	/* systemd's device unit of the netdev: sys-subsystem-net-devices-NETDEV.device, escaped */
	char netdev_unit[48 + 4 * QG_IFNAME_LEN];
};
void linux_persist_paths(const struct qg_host *host, size_t k, struct linux_persist_paths *p);

/*
 * Where build writes NIC k's unit and rule: host/persist/NETDEV/RDMA.service
 * and .rules, shared by every one-NIC host of that netdev and RDMA device;
 * host/persist-nics/NETDEV/RDMA.* for a NIC of a host of several.
 */
#define LINUX_PERSIST_FILE_LEN (40 + QG_IFNAME_LEN + QG_NAME_LEN)
void linux_persist_files(const struct qg_host *host, size_t k, char service[LINUX_PERSIST_FILE_LEN],
			 char rules[LINUX_PERSIST_FILE_LEN]);
struct qg_driver;
extern const struct qg_driver qg_driver_linux; /* linux_push.c: the script over SSH */

#endif
