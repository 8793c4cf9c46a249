/* SPDX-License-Identifier: MIT */
/*
 * The pure half of the DVS push (dvs_plan.c): the state read back from
 * vCenter, what differs from the intent (the plan), the ReconfigureDvs_Task
 * requests that change the switch and put it back, and whether a read-back
 * is back at the checkpoint. No I/O, so all of it is unit-tested.
 */
#ifndef QG_DVS_PLAN_H
#define QG_DVS_PLAN_H

#include "../../lib/buf.h"
#include "../../model/model.h"
#include "../../model/target.h"
#include "../../vsphere/vim.h"
#include "../common/esxi_options.h"

#define DVS_PVRDMA_OPTION "Net.PVRDMAVmknic"
#define DVS_PVRDMA_RULESET "pvrdma"
/* A new portgroup's ports: vCenter's own default; autoExpand adds more as VMs need them. */
#define DVS_PORTGROUP_PORTS 8
#define DVS_MAX_PNICS 32   /* physical NICs of one host on the switch */
#define DVS_MAX_UPLINKS 32 /* uplink names the push keeps when it adds some */
#define DVS_MAX_MODULES 4
#define DVS_MAX_OPT_CHANGES 16

/*
 * A physical NIC of a host on the switch, as config.host lists it: an edit
 * of the host's membership sends the whole list, so the ones already there
 * go back exactly as read (same uplink port), never re-assigned.
 */
struct dvs_pnic {
	char device[QG_IFNAME_LEN];
	char port_key[64], portgroup_key[64], cookie[16];
};

enum dvs_module_state {
	DVS_MODULE_NO_API,     /* the endpoint has no HostKernelModuleSystem */
	DVS_MODULE_NOT_LOADED, /* NotFound: no such module on this host */
	DVS_MODULE_READ,
};

/* A driver module's options (HostKernelModuleSystem) and their merge with the intent. */
struct dvs_module {
	char name[32];
	enum dvs_module_state state;
	char why[64];	   /* DVS_MODULE_NO_API: the fault or what is missing */
	char live[1024];   /* QueryConfiguredModuleOptionString */
	char merged[1024]; /* what UpdateModuleOptionString sends: esxi_options_merge */
	struct esxi_opt_change changes[DVS_MAX_OPT_CHANGES];
	int n_changes; /* 0 unless the module was read (DVS_MODULE_READ) */
};

/*
 * The pvrdma VMkernel NIC (config.network.vnic). Its address, MAC and
 * portgroup are read only to prove that the MTU update left them as they were.
 */
struct dvs_vnic {
	bool found;
	int mtu;
	char ip[64], mac[32], portgroup[128];
};

struct dvs_host_state {
	const struct qg_host *h;
	/* The ESXi target's settings of the host: its module options, the vmknic's MTU. */
	struct qg_settings want;
	int vnic_mtu; /* what want says for <pvrdma_vmknic>.mtu; 0 without a pvrdma_vmknic */
	bool found;
	struct vim_ref ref, options, firewall, modsys, netsys;
	struct dvs_vnic vnic;
	char vmknic[64]; /* Net.PVRDMAVmknic */
	bool vmknic_set; /* false: the key does not exist yet (InvalidName) */
	bool fw_known, fw_enabled;
	bool member;			      /* on the switch (config.host) */
	struct dvs_pnic pnics[DVS_MAX_PNICS]; /* its NICs on the switch */
	size_t n_pnics;
	struct dvs_module mod[DVS_MAX_MODULES];
	size_t n_mod;
};

struct dvs_state {
	bool found;
	struct vim_ref ref;
	int max_mtu; /* 0: unset */
	char version[64];
	int uplinks; /* config.uplinkPortPolicy's names; 0 when the server has none */
	char uplink_names[DVS_MAX_UPLINKS][64];
	bool portgroup; /* the intent's portgroup is on the switch (summary.portgroupName) */
	int members;	/* hosts on the switch */
	struct dvs_host_state *hosts; /* one per dvs.hosts entry */
	size_t n_hosts;
};

/*
 * What differs, one "[differs] KEY: HAVE -> WANT" line each; what push
 * does not change is an "[n/a]" note (a switch or host that is not there, an
 * uplink count above the intent's: push never removes an uplink, a NIC may be
 * on it; module options where the API has no HostKernelModuleSystem), and a
 * host whose module options change gets a "[reboot]" note. Returns the
 * number of differences. Pure.
 */
int dvs_plan(const struct qg_model *m, size_t i, const struct dvs_state *st, struct qg_buf *out);

/* The pure half, in dvs_plan.c. */

/* Is the pvrdma vmknic there with another MTU than the intent's (an UpdateVirtualNic)? */
bool dvs_vnic_differs(const struct dvs_host_state *h);

/* Does the switch itself differ: maxMtu, too few uplinks, a host or its uplink NIC not on it? */
bool dvs_switch_differs(const struct qg_dvs *d, const struct dvs_state *st);

/*
 * The ReconfigureDvs_Task request for what differs on the switch itself,
 * fields in the schema's order (configVersion, uplinkPortPolicy, host,
 * maxMtu); NULL when out of memory. Pure.
 */
xmlDocPtr dvs_switch_request(const struct qg_dvs *d, const struct dvs_state *st);

/*
 * Is now back at was (the checkpoint) for everything a push changes: maxMtu,
 * uplinks, the portgroup, each host's NICs on the switch, module options,
 * Net.PVRDMAVmknic (never set reads as "", ESXi's default), the pvrdma
 * ruleset and the vmknic? false with the first difference in why. Pure.
 */
bool dvs_at_before(const struct dvs_state *was, const struct dvs_state *now, char *why, size_t cap);

/* Does the switch itself differ from the checkpoint in what dvs_restore_request puts back? */
bool dvs_switch_restore_differs(const struct dvs_state *was, const struct dvs_state *now);

/*
 * The ReconfigureDvs_Task that puts the switch back from now to was, with
 * now's configVersion: the uplink names as they were, hosts that joined
 * removed, members' NICs as they were, maxMtu as it was (an unset maxMtu
 * cannot be sent, so it stays). NULL when out of memory. Pure.
 */
xmlDocPtr dvs_restore_request(const struct dvs_state *was, const struct dvs_state *now);

#endif
