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
 * The read-back and the plan are separate from the I/O so that the plan is
 * unit-tested.
 */
#ifndef QG_DVS_PUSH_H
#define QG_DVS_PUSH_H

/*
 * The push, an adapter of targets/engine.c: qg_push_run over the steps in
 * dvs_push.c, the vSphere API over HTTPS.
 */
struct qg_driver;
extern const struct qg_driver qg_driver_dvs;

#endif
