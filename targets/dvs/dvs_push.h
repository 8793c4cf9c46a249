/* SPDX-License-Identifier: MIT */
/*
 * Push of a vSphere Distributed Switch and its ESXi hosts' vSphere-side
 * settings through the vSphere API (vsphere/vim.c):
 *  - the switch: maxMtu, more uplinks, and each host of dvs.hosts on it with
 *    its RoCE uplink NIC, in one ReconfigureDvs_Task with the configVersion
 *    just read (a concurrent change is re-read and retried); then the
 *    intent's portgroup, made if the switch has none of that name;
 *  - each host of dvs.hosts: the nmlx5 module options merged into the live
 *    strings (HostKernelModuleSystem), and with a pvrdma_vmknic, the advanced
 *    option Net.PVRDMAVmknic (OptionManager), the pvrdma firewall ruleset
 *    (HostFirewallSystem) and that VMkernel NIC's MTU (HostNetworkSystem).
 * It is an adapter of the push engine (targets/engine.h): vCenter keeps no
 * checkpoint, so the first read-back of every value qosgen owns, kept in the
 * session, is the checkpoint; a rollback puts it back call by call (the
 * hosts' settings, the portgroup the push made, then one ReconfigureDvs_Task
 * with the live configVersion), and the engine's read-back proves it
 * (RESTORED) or not (NOT RESTORED). The reads are in dvs_read.c, the plan,
 * the requests and the proof, pure and unit-tested, in dvs_plan.c.
 */
#ifndef QG_DVS_PUSH_H
#define QG_DVS_PUSH_H

/* The DVS driver: qg_push_run over the steps in dvs_push.c. */
struct qg_driver;
extern const struct qg_driver qg_driver_dvs;

#endif
