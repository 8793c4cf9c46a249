/* SPDX-License-Identifier: MIT */
/*
 * After shared/notes/targets.md §3 (NVIDIA ESXi native driver manual, Module
 * Parameters; VMware "Enabling DSCP based PFC"):
 *  - nmlx5_core pfctx / pfcrx: the PFC priority bitmap (0x08 for priority 3),
 *    equal on both sides;
 *  - nmlx5_core trust_state: 2 = DSCP, 1 = PCP;
 *  - nmlx5_core ecn: "Enables the ECN feature", 1 enabled, 0 disabled (the
 *    default): NVIDIA ConnectX-4/ConnectX-5 Native ESXi Driver for VMware
 *    vSphere User Manual v4.17.15.16 (ESXi 6.7), Introduction, "nmlx5_core
 *    Module Parameters" (docs.nvidia.com/networking/display/VMwarev4171516/
 *    Introduction). 1 with qos.lossless.ecn, else 0: qosgen owns the key
 *    either way, so a host someone turned it on for converges to the intent;
 *    an unwritten ecn is the driver's 0 (esxi_options.c), so a host that never
 *    had it is in sync and needs no reboot;
 *  - nmlx5_rdma dscp_force (trust dscp) or pcp_force (trust pcp): what RoCE
 *    packets carry, since RDMA bypasses the vSwitch datapath; the other one
 *    out of the string (issue 35: the same after any history);
 *  - with pvrdma_vmknic: Net.PVRDMAVmknic, the pvrdma firewall ruleset, and
 *    the vmknic MTU.
 */
#include "esxi.h"
#include "../../emit/handoff.h"
#include "../common/esxi_options.h"
#include "../common/host_script.h"

#include "../../model/derive.h"
#include "../../model/names.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct walk {
	struct qg_settings *set;
	struct qg_buf *sh;
};

static void words(struct qg_buf *sh, const char *fn, const char *const *args, size_t n)
{
	qg_buf_puts(sh, fn);
	for (size_t k = 0; k < n; k++) {
		qg_buf_puts(sh, " ");
		host_script_word(sh, args[k]);
	}
	qg_buf_puts(sh, "\n");
}

/*
 * Host h's settings, or its group's calls: h is then a copy whose uplink is
 * host_script.h's marker, written as $qg_uplink. The vmknic is a setting's
 * value (Net.PVRDMAVmknic), so it is the group's, written as it is.
 */
static void esxi_walk(const struct qg_model *m, const struct qg_host *h, struct walk *w)
{
	const struct qg_qos *q = &m->qos;
	char bitmap[8], trust[4], mark[24], mtu[8];
	const char *ecn = q->ecn ? "1" : "0";
	snprintf(bitmap, sizeof(bitmap), "0x%02x", qg_pfc_bitmap(q->lossless.priority));
	snprintf(trust, sizeof(trust), "%d", q->trust == QG_TRUST_DSCP ? 2 : 1);
	const char *mark_key = q->trust == QG_TRUST_DSCP ? "dscp_force" : "pcp_force";
	snprintf(mark, sizeof(mark), "%d",
		 q->trust == QG_TRUST_DSCP ? qg_host_dscp(q) : q->lossless.priority);

	if (w->set) {
		qg_settings_add(w->set, "nmlx5_core.pfctx", "%s", bitmap);
		qg_settings_add(w->set, "nmlx5_core.pfcrx", "%s", bitmap);
		qg_settings_add(w->set, "nmlx5_core.trust_state", "%s", trust);
		qg_settings_add(w->set, "nmlx5_core.ecn", "%s", ecn);
		bool dscp = mark_key[0] == 'd';
		qg_settings_add(w->set, "nmlx5_rdma.dscp_force", "%s",
				dscp ? mark : ESXI_OPTION_UNSET);
		qg_settings_add(w->set, "nmlx5_rdma.pcp_force", "%s",
				dscp ? ESXI_OPTION_UNSET : mark);
	}
	if (w->sh) {
		char pfctx[24], pfcrx[24], ts[24], ecn_kv[8], force[40], other[40];
		snprintf(pfctx, sizeof(pfctx), "pfctx=%s", bitmap);
		snprintf(pfcrx, sizeof(pfcrx), "pfcrx=%s", bitmap);
		snprintf(ts, sizeof(ts), "trust_state=%s", trust);
		snprintf(ecn_kv, sizeof(ecn_kv), "ecn=%s", ecn);
		snprintf(force, sizeof(force), "%s=%s", mark_key, mark);
		/* The other of the two, out of the string: issue 35 (esxi_options.c). */
		snprintf(other, sizeof(other), "%s=%s",
			 mark_key[0] == 'd' ? "pcp_force" : "dscp_force", ESXI_OPTION_UNSET);
		const char *core[] = {h->uplink};
		words(w->sh, "qg_need_uplink", core, 1);
		const char *a[] = {"nmlx5_core", pfctx, pfcrx, ts, ecn_kv};
		words(w->sh, "qg_module_opts", a, 5);
		const char *b[] = {"nmlx5_rdma", force, other};
		words(w->sh, "qg_module_opts", b, 3);
	}
	if (!h->pvrdma_vmknic[0])
		return;
	snprintf(mtu, sizeof(mtu), "%d", q->mtu);
	char mtu_key[QG_IFNAME_LEN + 8];
	snprintf(mtu_key, sizeof(mtu_key), "%s.mtu", h->pvrdma_vmknic);
	if (w->set) {
		qg_settings_add(w->set, "Net.PVRDMAVmknic", "%s", h->pvrdma_vmknic);
		qg_settings_add(w->set, "firewall.pvrdma", "enabled");
		qg_settings_add(w->set, mtu_key, "%s", mtu);
	}
	if (w->sh) {
		const char *adv[] = {"/Net/PVRDMAVmknic", h->pvrdma_vmknic, "Net.PVRDMAVmknic"};
		words(w->sh, "qg_advanced_string", adv, 3);
		const char *fw[] = {"pvrdma"};
		words(w->sh, "qg_firewall_ruleset", fw, 1);
		const char *vm[] = {h->pvrdma_vmknic, mtu};
		words(w->sh, "qg_vmknic_mtu", vm, 2);
	}
}

static int esxi_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	struct walk w = {.set = out};
	esxi_walk(m, &m->hosts[i], &w);
	return out->oom ? -ENOMEM : 0;
}

/* What shapes a host's calls besides the policy: its PVRDMA vmknic, a setting's value. */
static void esxi_group(const struct qg_model *m, size_t i, char name[QG_GROUP_LEN])
{
	const struct qg_host *h = &m->hosts[i];
	if (h->pvrdma_vmknic[0])
		snprintf(name, QG_GROUP_LEN, "esxi-pvrdma-%s", h->pvrdma_vmknic);
	else
		snprintf(name, QG_GROUP_LEN, "esxi");
}

/* The host's own: its row of the table. */
static int esxi_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     struct qg_outset *out)
{
	const char *const identity[] = {"qg_uplink", m->hosts[i].uplink, NULL};
	return host_script_emit_row(m, i, ctx, "esxi-hosts.sh", identity, out);
}

/* The lib and the group's body: the calls, walked on a host whose uplink is a marker. */
static int esxi_emit_group(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			   struct qg_outset *out)
{
	const struct qg_host *h = &m->hosts[i];
	struct qg_host id = *h;
	snprintf(id.uplink, sizeof(id.uplink), "%s", HOST_ID_UPLINK);
	struct qg_buf body = {0};
	struct walk w = {.sh = &body};
	esxi_walk(m, &id, &w);
	if (body.failed) {
		qg_buf_free(&body);
		return -ENOMEM;
	}
	if (body.len)
		body.data[--body.len] = '\0'; /* the template's line ends it */
	char flavour[96];
	if (h->pvrdma_vmknic[0])
		snprintf(flavour, sizeof(flavour),
			 "nmlx5 module options, and PVRDMA on %s (its MTU, the firewall).",
			 h->pvrdma_vmknic);
	else
		snprintf(flavour, sizeof(flavour), "nmlx5 module options.");
	const struct host_script_text x = {
	    .lib_template = "esxi-lib.sh",
	    .group_template = "esxi-group.sh",
	    .flavour = flavour,
	    .body = body.data ? body.data : "",
	};
	int rc = host_script_emit_group(m, i, ctx, &x, out);
	qg_buf_free(&body);
	return rc;
}

/*
 * nmlx5 with trust_state=2 classifies by the default DSCP map, as mlx5
 * does. The vmknic gets qos.mtu; ESXi's VMkernel NICs, like a DVS, stop at
 * 9000 (said once per intent entry: a host list's hosts share its line).
 */
static void esxi_check(const struct qg_model *m, struct qg_diags *d)
{
	qg_check_fixed_dscp_map(m, "esxi", d);
	struct qg_pos said = {0};
	for (size_t i = 0; i < m->n_hosts; i++) {
		const struct qg_host *h = &m->hosts[i];
		if (h->target != &qg_target_esxi || !h->pvrdma_vmknic[0] || m->qos.mtu <= 9000)
			continue;
		if (h->pvrdma_vmknic_pos.line == said.line && h->pvrdma_vmknic_pos.col == said.col)
			continue;
		said = h->pvrdma_vmknic_pos;
		char path[QG_NAME_LEN + 16];
		qg_device_path(path, sizeof(path), "hosts", h->name, i);
		qg_error(d, said,
			 "%s.pvrdma_vmknic: %s would get qos.mtu %d, above ESXi's maximum of "
			 "9000 for a VMkernel NIC; lower qos.mtu",
			 path, h->pvrdma_vmknic, m->qos.mtu);
	}
}

static void esxi_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	char v[16], reason[160];
	snprintf(v, sizeof(v), "0x%02x", qg_pfc_bitmap(m->qos.lossless.priority));
	snprintf(reason, sizeof(reason), "nmlx5_core pfctx and pfcrx: the PFC bitmap, 1 << %d",
		 m->qos.lossless.priority);
	qg_explain_row(x, "esxi.pfctx", v, reason);
	qg_explain_row(x, "esxi.trust_state", m->qos.trust == QG_TRUST_DSCP ? "2" : "1",
		       "nmlx5_core: 2 classifies by DSCP, 1 by 802.1p priority");
	qg_explain_row(x, "esxi.ecn", m->qos.ecn ? "1" : "0",
		       m->qos.ecn
			   ? "nmlx5_core ecn: qos.lossless.ecn is given, so the driver's "
			     "ECN feature is on (NVIDIA native ESXi driver manual "
			     "v4.17.15.16, nmlx5_core Module Parameters)"
			   : "nmlx5_core ecn: no qos.lossless.ecn, so the driver's default 0 "
			     "(off), owned: a host that has it on is turned off; unwritten "
			     "reads as 0");
}

static const struct qg_key esxi_key_rows[] = {
    {"uplink", QG_KEY_STRING, .required = true, .rule = QG_VMNIC_RULE, .ok = qg_vmnic_ok,
     .pattern = QG_VMNIC_PATTERN,
     .doc = "the RoCE uplink, the vmnic whose nmlx5 module options the script sets",
     QG_KEY_AT_TEXT(QG_KB_HOST, struct qg_host, uplink)},
    {"pvrdma_vmknic", QG_KEY_STRING, .rule = QG_VMKNIC_RULE, .ok = qg_vmknic_ok,
     .pattern = QG_VMKNIC_PATTERN,
     .doc = "the vmknic PVRDMA binds to (its tag and MTU are checked)",
     QG_KEY_AT_TEXT(QG_KB_HOST, struct qg_host, pvrdma_vmknic)},
    {0},
};

const struct qg_target qg_target_esxi = {
    .name = "esxi",
    .aliases = (const char *const[]){"vmware", "esx", "vsphere", NULL},
    .summary = "ESXi host script (nmlx5 PFC/trust/ECN/DSCP options merged, PVRDMA vmknic)",
    .kind = QG_DEVICE_HOST,
    .caps = QG_CAN_DVS_MEMBER,
    .key_rows = esxi_key_rows,
    .check = esxi_check,
    .settings = esxi_settings,
    .emit = esxi_emit,
    .group = esxi_group,
    .emit_group = esxi_emit_group,
    .explain = esxi_explain,
    .handoff = &qg_handoff_host_script,
};
