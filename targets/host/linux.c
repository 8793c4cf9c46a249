/* SPDX-License-Identifier: MIT */
/*
 * What a host needs, after shared/notes/targets.md §2:
 *  - MTU on the netdev (every hop must carry it);
 *  - PF only: trust (dscp/pcp) and the PFC vector, with mlnx_qos or dcb, and
 *    with trust dscp the whole DSCP-to-priority map (the classes' entries,
 *    every other at DSCP/8); a VF or PVRDMA adapter cannot set them, the
 *    hypervisor owns them;
 *  - the RoCE ToS byte (DSCP << 2 | ECT(0)) as rdma_cm's default_roce_tos
 *    (configfs, port 1) and MLNX_OFED's tc/1/traffic_class where it exists
 *    (where not, the script says so and names the driver);
 *  - DCQCN on all eight priorities: ECN reaction (roce_rp) and notification
 *    (roce_np) on the lossless priority with ECN, off on every other, and
 *    the DSCP / 802.1p priority of CNPs (MLNX_OFED sysfs
 *    /sys/class/net/<if>/ecn/...), back to the defaults without them;
 *  - the jobs' own traffic class: NCCL_IB_TC and UCX_IB_TRAFFIC_CLASS in
 *    NCCL's and UCX's configuration files.
 *
 * Every item is written whatever the intent, so that a host is the same
 * after any history of intents as a fresh host given the last one (issue
 * 35; docs/intent.md, "What qosgen owns on a host").
 *
 * The settings list and the script come from one walk, so the report keys
 * of the script are exactly the keys of plan.json.
 */
#include "linux.h"
#include "../../emit/handoff.h"
#include "../../model/names.h"
#include "../common/host_script.h"

#include "../../model/derive.h"
#include "../../lib/hash.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The RDMA port whose defaults we set; mlx5 and rxe have one port per device. */
#define LINUX_RDMA_PORT "1"

struct walk {
	struct qg_settings *set; /* may be NULL */
	struct qg_buf *sh;	 /* may be NULL */
	/*
	 * A host of several NICs: each setting's key is NIC K's, "nics[K].mtu"
	 * (so that hosts of one group share settings whatever their netdev
	 * names); its script's calls sit in a function per flavour, one tab
	 * in, and the caller checks the netdev (a missing one is that NIC's
	 * alone). NULL for a one-NIC host, whose keys and calls are as before.
	 */
	const char *prefix;
};

/* One setting: its key and value, and the script line that applies it. */
static void step(struct walk *w, const char *key, const char *value, const char *fn, ...)
{
	if (w->set && key)
		qg_settings_put(w->set, w->prefix, key, value);
	if (!w->sh)
		return;
	if (w->prefix)
		qg_buf_puts(w->sh, "\t");
	qg_buf_puts(w->sh, fn);
	va_list ap;
	va_start(ap, fn);
	for (const char *arg; (arg = va_arg(ap, const char *));) {
		qg_buf_puts(w->sh, " ");
		host_script_word(w->sh, arg);
	}
	va_end(ap);
	qg_buf_puts(w->sh, "\n");
}

/*
 * The DSCP-to-priority map, whole (issue 35: the same after any history).
 * The entries of the intent's classes (the lossless DSCPs and the CNP DSCP),
 * in DSCP order, key dscp2prio.<dscp>, each read and set on its own after
 * trust (mlnx_qos --trust dscp fills the map with the default first). Every
 * one is written, even where the model's map keeps mlx5's default (DSCP/8):
 * qosgen owns these entries, and a host someone remapped must be caught.
 * Then dscp2prio.others: every other DSCP at DSCP/8, mlx5's default map
 * (mlnx-tools' setDefaultAppEntry; ../shared/notes/targets.md 2.2), so that
 * an entry an earlier intent remapped (DSCP 26 on priority 5, then the
 * lossless DSCP moved to 34) goes back to the default a fresh host has.
 *
 * A PF with trust dscp only: under trust pcp the NIC classifies by the 802.1p
 * priority and never reads the map (mlnx_qos does not even print it then), and
 * a VF has no map of its own: the PF's, which the hypervisor owns, applies.
 */
static void linux_walk_dscp_map(const struct qg_model *m, const struct qg_nic *h, struct walk *w)
{
	const struct qg_qos *q = &m->qos;
	if (h->function != QG_FN_PF || q->trust != QG_TRUST_DSCP)
		return;
	bool ours[64] = {false};
	for (int k = 0; k < q->lossless.n_dscp; k++)
		ours[q->lossless.dscp[k]] = true;
	for (int k = 0; q->cnp && k < q->cnpc.n_dscp; k++)
		ours[q->cnpc.dscp[k]] = true;
	bool mlnx = h->qos_tool == QG_TOOL_MLNX_QOS;
	const char *fn = mlnx ? "qg_mlnx_qos_dscp2prio" : "qg_dcb_dscp2prio";
	char list[64 * 3] = "";
	size_t used = 0;
	for (int d = 0; d < 64; d++) {
		if (!ours[d])
			continue;
		char key[32], dscp[4], prio[4];
		snprintf(key, sizeof(key), "dscp2prio.%d", d);
		snprintf(dscp, sizeof(dscp), "%d", d);
		snprintf(prio, sizeof(prio), "%d", q->dscp_prio[d]);
		step(w, key, prio, fn, h->netdev, dscp, prio, NULL);
		used +=
		    (size_t)snprintf(list + used, sizeof(list) - used, "%s%d", used ? " " : "", d);
	}
	step(w, "dscp2prio.others", "DSCP/8",
	     mlnx ? "qg_mlnx_qos_dscp_others" : "qg_dcb_dscp_others", h->netdev, list, NULL);
}

/*
 * DCQCN on all eight priorities (issue 35): the reaction point (roce_rp)
 * and the notification point (roce_np) enabled on the lossless priority when
 * the intent has ECN, disabled on every other, and on every priority without
 * ECN; the CNPs' DSCP and 802.1p priority the intent's cnp class with ECN,
 * else back to the firmware's defaults, 48 and 6. The files are MLNX_OFED's
 * and DOCA's sysfs (NVIDIA "Explicit Congestion Notification":
 * /sys/class/net/<if>/ecn/<roce_np|roce_rp>/enable/<prio>, roce_np/cnp_dscp,
 * roce_np/cnp_802p_prio). The firmware's own defaults, as `mlxconfig query`
 * prints them on a ConnectX-5: ROCE_CC_PRIO_MASK_P1 255 (DCQCN on every
 * priority), CNP_DSCP_P1 48, CNP_802P_PRIO_P1 6; NVIDIA's pages give no
 * default for the sysfs files themselves. A value the intent asks for
 * (qg_file) is missing where the driver lacks the file; a value that only
 * turns DCQCN off or a CNP setting back (qg_file_default) is n/a there,
 * naming the file: inbox mlx5 and rxe have no such sysfs to set.
 */
static void linux_walk_dcqcn(const struct qg_model *m, const struct qg_nic *h, struct walk *w)
{
	const struct qg_qos *q = &m->qos;
	static const char *const sides[] = {"roce_np", "roce_rp"};
	char key[64], path[200], v[8];
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 8; p++) {
			bool on = q->ecn && p == q->lossless.priority;
			snprintf(key, sizeof(key), "ecn.%s.enable.%d", sides[s], p);
			snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/%s/enable/%d",
				 h->netdev, sides[s], p);
			step(w, key, on ? "1" : "0", on ? "qg_file" : "qg_file_default", key, path,
			     on ? "1" : "0", NULL);
		}
	bool cnp = q->ecn && q->cnp;
	static const struct {
		const char *key, *file;
		int dflt;
	} cnps[] = {
	    {"ecn.roce_np.cnp_dscp", "cnp_dscp", LINUX_CNP_DSCP_DEFAULT},
	    {"ecn.roce_np.cnp_802p_prio", "cnp_802p_prio", LINUX_CNP_PRIO_DEFAULT},
	};
	for (int k = 0; k < 2; k++) {
		int value = !cnp ? cnps[k].dflt : k == 0 ? q->cnpc.dscp[0] : q->cnpc.priority;
		snprintf(v, sizeof(v), "%d", value);
		snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/roce_np/%s", h->netdev,
			 cnps[k].file);
		step(w, cnps[k].key, v, cnp ? "qg_file" : "qg_file_default", cnps[k].key, path, v,
		     NULL);
	}
}

/*
 * NIC h's settings, or its group's calls: h is then a copy whose device
 * names are host_script.h's markers, written as $qg_netdev and
 * $qg_rdma_device.
 */
static void linux_walk(const struct qg_model *m, const struct qg_nic *h, struct walk *w)
{
	const struct qg_qos *q = &m->qos;
	char v[160];

	if (!w->prefix)
		step(w, NULL, NULL, "qg_need_netdev", h->netdev, NULL);
	snprintf(v, sizeof(v), "%d", q->mtu);
	if (h->function == QG_FN_VF) {
		/*
		 * A VF's MTU request goes to the hypervisor, which checks it
		 * against the MTU of the switch its port group is on (vSphere
		 * SR-IOV networking; shared/notes/vendor-references.md, Hosts):
		 * the script reads the MTU back after `ip link set` and, when
		 * it is refused or does not hold, says where to raise it.
		 */
		char why[200];
		snprintf(why, sizeof(why),
			 "a VF MTU is bounded by the MTU of the vSwitch or DVS its port group is "
			 "on (the hypervisor checks each request): raise that switch MTU to at "
			 "least %d",
			 q->mtu);
		step(w, "mtu", v, "qg_mtu", h->netdev, v, why, NULL);
	} else {
		step(w, "mtu", v, "qg_mtu", h->netdev, v, NULL);
	}

	if (h->function == QG_FN_PF) {
		const char *trust = qg_trust_name(q->trust);
		char pfc[16];
		qg_pfc_vector(q->lossless.priority, pfc);
		if (h->qos_tool == QG_TOOL_MLNX_QOS) {
			step(w, "trust", trust, "qg_mlnx_qos_trust", h->netdev, trust, NULL);
			linux_walk_dscp_map(m, h, w);
			step(w, "pfc", pfc, "qg_mlnx_qos_pfc", h->netdev, pfc, NULL);
		} else {
			step(w, "trust", trust, "qg_dcb_trust", h->netdev, trust, NULL);
			linux_walk_dscp_map(m, h, w);
			/* dcb prints "prio-pfc 0:off 1:off 2:off 3:on ..."; compare to that. */
			char shown[96], prio[4];
			size_t used = (size_t)snprintf(shown, sizeof(shown), "prio-pfc");
			for (int p = 0; p < 8; p++)
				used +=
				    (size_t)snprintf(shown + used, sizeof(shown) - used, " %d:%s",
						     p, p == q->lossless.priority ? "on" : "off");
			snprintf(prio, sizeof(prio), "%d", q->lossless.priority);
			step(w, "pfc", pfc, "qg_dcb_pfc", h->netdev, shown, pfc, prio, NULL);
		}
	}

	snprintf(v, sizeof(v), "%d", qg_roce_tos(q));
	step(w, "roce_tos", v, "qg_roce_tos", h->rdma_device, LINUX_RDMA_PORT, v, NULL);
	step(w, "tclass", v, "qg_tclass", h->rdma_device, v, NULL);

	linux_walk_dcqcn(m, h, w);
}

/*
 * The traffic class of the jobs themselves (issue 35): NCCL and UCX open
 * their verbs QPs with the traffic class their own variables give, 0 by
 * default, whatever rdma_cm's default ToS is, so a job that sets nothing
 * leaves with DSCP 0. One owned line each, the RoCE ToS:
 *  - NCCL_IB_TC in /etc/nccl.conf: NCCL's "Environment Variables" page
 *    ("can also be set statically in /etc/nccl.conf (for an administrator
 *    to set system-wide values)", lines NAME=VALUE; NCCL_IB_TC "Default is 0",
 *    the "traffic class" of its InfiniBand/RoCE QPs); a variable set in the
 *    job's environment still wins (NCCL sets a file's value only where the
 *    environment has none);
 *  - UCX_IB_TRAFFIC_CLASS in /etc/ucx/ucx.conf: UCX reads ucx.conf
 *    (openucx/ucx src/ucs/config/parser.h, UCX_CONFIG_FILE_NAME) from its
 *    configuration directory, the packages' /etc/ucx, as NAME=VALUE lines;
 *    the environment wins there too.
 * The host's, not a NIC's: one file per machine, written once per run.
 */
const struct linux_job_conf linux_job_conf[LINUX_JOB_CONFS] = {
    {"nccl.NCCL_IB_TC", "/etc/nccl.conf", "NCCL_IB_TC", "NCCL"},
    {"ucx.UCX_IB_TRAFFIC_CLASS", "/etc/ucx/ucx.conf", "UCX_IB_TRAFFIC_CLASS", "UCX"},
};

static void linux_walk_jobs(const struct qg_model *m, struct walk *w)
{
	char v[8];
	snprintf(v, sizeof(v), "%d", qg_roce_tos(&m->qos));
	for (size_t k = 0; k < LINUX_JOB_CONFS; k++)
		step(w, linux_job_conf[k].key, v, "qg_conf_var", linux_job_conf[k].key,
		     linux_job_conf[k].file, linux_job_conf[k].var, v, NULL);
}

/*
 * What shapes a NIC's calls besides the policy: whether it is a PF, and its
 * tool. A flavour's name is its part of the group's name, its function the
 * one that holds its calls in the group file of a host of several NICs.
 */
enum linux_flavour { LINUX_PF_MLNX_QOS, LINUX_PF_DCB, LINUX_VF, LINUX_FLAVOURS };
static const struct {
	const char *name, *fn, *about;
} linux_flavours[LINUX_FLAVOURS] = {
    {"pf-mlnx_qos", "qg_nic_pf_mlnx_qos", "PF, QoS through mlnx_qos."},
    {"pf-dcb", "qg_nic_pf_dcb", "PF, QoS through dcb (iproute2)."},
    {"vf", "qg_nic_vf", "VF / PVRDMA adapter: trust and PFC belong to the hypervisor."},
};

static enum linux_flavour linux_flavour_of(const struct qg_nic *n)
{
	if (n->function == QG_FN_VF)
		return LINUX_VF;
	return n->qos_tool == QG_TOOL_MLNX_QOS ? LINUX_PF_MLNX_QOS : LINUX_PF_DCB;
}

/* A host of several NICs; one NIC (the shorthand or a list of one) keeps today's output. */
static bool linux_several(const struct qg_host *host)
{
	return host->n_nics > 1;
}

static int linux_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	const struct qg_host *host = &m->hosts[i];
	struct walk w = {.set = out};
	if (!linux_several(host)) {
		linux_walk(m, &host->nics[0], &w);
		linux_walk_jobs(m, &w);
		return out->oom ? -ENOMEM : 0;
	}
	/*
	 * Each flavour's settings walked once, then put under each of its NICs'
	 * prefixes: a NIC's settings are its flavour's and the policy's, never
	 * its names' (the walk puts names in the script, not in a value), and a
	 * fleet of 8-NIC hosts walks 80,000 NICs otherwise (issue 28, item 5).
	 */
	struct qg_settings of[LINUX_FLAVOURS] = {0};
	bool walked[LINUX_FLAVOURS] = {false};
	for (size_t k = 0; k < host->n_nics && !out->oom; k++) {
		enum linux_flavour f = linux_flavour_of(&host->nics[k]);
		if (!walked[f]) {
			struct walk fw = {.set = &of[f]};
			linux_walk(m, &host->nics[k], &fw);
			walked[f] = true;
			out->oom |= of[f].oom;
		}
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "nics[%zu].", k);
		for (size_t j = 0; j < of[f].n; j++)
			qg_settings_put(out, prefix, of[f].v[j].key, of[f].v[j].value);
	}
	for (int f = 0; f < LINUX_FLAVOURS; f++)
		qg_settings_free(&of[f]);
	linux_walk_jobs(m, &w);
	return out->oom ? -ENOMEM : 0;
}

/*
 * systemd's name of a path's unit (systemd.unit(5), "String Escaping"): '/'
 * becomes '-', and every byte but ASCII letters, digits, ':', '_' and a '.'
 * that does not start the name becomes \xNN. A netdev is [A-Za-z0-9_.-] and
 * starts with a letter or digit (model/names.c), so only '-' is escaped here.
 */
static void unit_escape(char *out, size_t len, const char *path)
{
	size_t used = 0;
	for (const char *c = path; *c && used + 5 < len; c++) {
		if (*c == '/')
			out[used++] = '-';
		else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			 (*c >= '0' && *c <= '9') || *c == ':' || *c == '_' ||
			 (*c == '.' && c != path))
			out[used++] = *c;
		else
			used +=
			    (size_t)snprintf(out + used, len - used, "\\x%02x", (unsigned char)*c);
	}
	out[used] = '\0';
}

void linux_persist_paths(const struct qg_host *host, size_t k, struct linux_persist_paths *p)
{
	const struct qg_nic *h = &host->nics[k];
	if (linux_several(host)) {
		/*
		 * One script for the host (a name no netdev's can be), run by
		 * each NIC's rule and unit with that NIC's netdev: it then
		 * configures that NIC alone.
		 */
		snprintf(p->script, sizeof(p->script), "/usr/local/lib/qosgen/roce-qos.sh");
		snprintf(p->command, sizeof(p->command), "%s %s", p->script, h->netdev);
	} else {
		snprintf(p->script, sizeof(p->script), "/usr/local/lib/qosgen/roce-qos-%s.sh",
			 h->netdev);
		snprintf(p->command, sizeof(p->command), "%s", p->script);
	}
	snprintf(p->unit_name, sizeof(p->unit_name), "qosgen-roce-qos-%s", h->netdev);
	snprintf(p->unit, sizeof(p->unit), "/etc/systemd/system/%s@.service", p->unit_name);
	snprintf(p->rules, sizeof(p->rules), "/etc/udev/rules.d/90-qosgen-roce-qos-%s.rules",
		 h->netdev);
	char dev[sizeof(p->netdev_unit) - 8], path[32 + QG_IFNAME_LEN];
	snprintf(path, sizeof(path), "sys/subsystem/net/devices/%s", h->netdev);
	unit_escape(dev, sizeof(dev), path);
	snprintf(p->netdev_unit, sizeof(p->netdev_unit), "%s.device", dev);
}

void linux_persist_files(const struct qg_host *host, size_t k, char service[LINUX_PERSIST_FILE_LEN],
			 char rules[LINUX_PERSIST_FILE_LEN])
{
	const struct qg_nic *h = &host->nics[k];
	/* Their texts differ (the script, its argument): a folder of their own. */
	const char *dir = linux_several(host) ? "host/persist-nics" : "host/persist";
	snprintf(service, LINUX_PERSIST_FILE_LEN, "%s/%s/%s.service", dir, h->netdev,
		 h->rdma_device);
	snprintf(rules, LINUX_PERSIST_FILE_LEN, "%s/%s/%s.rules", dir, h->netdev, h->rdma_device);
}

/*
 * The systemd unit and the udev rule that run the installed script again,
 * one pair per NIC: they name the netdev and the RDMA device and nothing
 * else of the host, so every host with those two shares them (a fleet has a
 * handful of pairs).
 */
static int linux_emit_persist(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			      struct qg_outset *out)
{
	const struct qg_host *host = &m->hosts[i];
	bool several = linux_several(host);
	int rc = 0;
	for (size_t k = 0; rc == 0 && k < host->n_nics; k++) {
		const struct qg_nic *h = &host->nics[k];
		char service[LINUX_PERSIST_FILE_LEN], rules[LINUX_PERSIST_FILE_LEN];
		linux_persist_files(host, k, service, rules);
		/* Named by the netdev and RDMA device alone: an earlier host's are these. */
		if (ctx->built && qg_outset_find(ctx->built, service) &&
		    qg_outset_find(ctx->built, rules))
			continue;
		struct linux_persist_paths p;
		linux_persist_paths(host, k, &p);
		const struct qg_tvar vars[] = {
		    QG_TVARS_HEADER(ctx, m),	     {"netdev", h->netdev},
		    {"rdma_device", h->rdma_device}, {"script_path", p.script},
		    {"unit_path", p.unit},	     {"unit_name", p.unit_name},
		    {"rules_path", p.rules},	     {"netdev_unit", p.netdev_unit},
		    {"command", p.command},
		};
		/* A one-NIC host's templates take no command: theirs is the script alone. */
		size_t n = sizeof(vars) / sizeof(vars[0]) - !several;
		rc = qg_emit_template_owned(ctx, several ? "linux-nic.service" : "linux.service",
					    vars, n, service, 0644, QG_FILE_SHARED, out);
		if (!rc)
			rc =
			    qg_emit_template_owned(ctx, several ? "linux-nic.rules" : "linux.rules",
						   vars, n, rules, 0644, QG_FILE_SHARED, out);
	}
	return rc;
}

/*
 * A host of several NICs: its NICs' flavours in order, as runs
 * ("linux-pf-mlnx_qos-x8", "linux-pf-mlnx_qos-x4-vf-x4"), or, where the runs
 * do not fit QG_GROUP_LEN, their count and the first 12 hex digits of the
 * SHA-256 of the flavour list ("linux-mixed-x8-0123456789ab"): unique in any
 * fleet a build can hold, and "mixed" is no flavour, so no run name is one.
 */
static void linux_group_nics(const struct qg_host *host, char name[QG_GROUP_LEN])
{
	size_t n = host->n_nics, used = (size_t)snprintf(name, QG_GROUP_LEN, "linux");
	for (size_t k = 0; k < n;) {
		enum linux_flavour f = linux_flavour_of(&host->nics[k]);
		size_t run = 1;
		while (k + run < n && linux_flavour_of(&host->nics[k + run]) == f)
			run++;
		int w = snprintf(name + used, QG_GROUP_LEN - used, "-%s-x%zu",
				 linux_flavours[f].name, run);
		if (w < 0 || used + (size_t)w >= QG_GROUP_LEN)
			break;
		used += (size_t)w;
		k += run;
		if (k == n)
			return;
	}
	struct qg_buf list = {0};
	for (size_t k = 0; k < n; k++)
		qg_buf_printf(&list, "%s\n", linux_flavours[linux_flavour_of(&host->nics[k])].name);
	char sha[QG_SHA256_HEX] = "";
	if (list.failed || qg_sha256_hex(list.data, list.len, sha) != 0)
		snprintf(sha, sizeof(sha), "unknown"); /* out of memory: build fails later */
	qg_buf_free(&list);
	snprintf(name, QG_GROUP_LEN, "linux-mixed-x%zu-%.12s", n, sha);
}

static void linux_group(const struct qg_model *m, size_t i, char name[QG_GROUP_LEN])
{
	const struct qg_host *host = &m->hosts[i];
	if (linux_several(host))
		linux_group_nics(host, name);
	else
		snprintf(name, QG_GROUP_LEN, "linux-%s",
			 linux_flavours[linux_flavour_of(&host->nics[0])].name);
}

/*
 * Host i's row: its devices, qg_netdev and qg_rdma_device; with several NICs
 * qg_netdev_K and qg_rdma_device_K for NIC K, which its group's file hands
 * to each NIC's calls.
 */
static int linux_emit_row(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			  struct qg_outset *out)
{
	const struct qg_host *host = &m->hosts[i];
	if (!linux_several(host)) {
		const struct qg_nic *h = &host->nics[0];
		const char *const identity[] = {"qg_netdev", h->netdev, "qg_rdma_device",
						h->rdma_device, NULL};
		return host_script_emit_row(m, i, ctx, "linux-hosts.sh", identity, out);
	}
	size_t n = host->n_nics;
	const char **identity = calloc(4 * n + 1, sizeof(*identity));
	char(*var)[32] = calloc(2 * n, sizeof(*var));
	int rc = -ENOMEM;
	if (identity && var) {
		for (size_t k = 0; k < n; k++) {
			snprintf(var[2 * k], sizeof(var[0]), "qg_netdev_%zu", k);
			snprintf(var[2 * k + 1], sizeof(var[0]), "qg_rdma_device_%zu", k);
			identity[4 * k] = var[2 * k];
			identity[4 * k + 1] = host->nics[k].netdev;
			identity[4 * k + 2] = var[2 * k + 1];
			identity[4 * k + 3] = host->nics[k].rdma_device;
		}
		rc = host_script_emit_row(m, i, ctx, "linux-hosts.sh", identity, out);
	}
	free(identity);
	free(var);
	return rc;
}

/* The host's own: its row of the table, and its persistence units and rules (small, shared). */
static int linux_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      struct qg_outset *out)
{
	int rc = linux_emit_row(m, i, ctx, out);
	if (rc == 0 && m->hosts[i].persist)
		rc = linux_emit_persist(m, i, ctx, out);
	return rc;
}

/* NIC n as its group's file names it: its devices are host_script.h's markers. */
static struct qg_nic linux_nic_as_group(const struct qg_nic *n)
{
	struct qg_nic id = *n;
	snprintf(id.netdev, sizeof(id.netdev), "%s", HOST_ID_NETDEV);
	snprintf(id.rdma_device, sizeof(id.rdma_device), "%s", HOST_ID_RDMA);
	return id;
}

/*
 * The group body of a host of several NICs: a function per flavour its NICs
 * have (their calls, on $qg_netdev and $qg_rdma_device), then one qg_nic
 * line per NIC, which sets those two from the row's and calls its flavour's
 * function (templates/linux-nics-group.sh.in).
 */
static void linux_body_nics(const struct qg_model *m, const struct qg_host *host,
			    struct qg_buf *body)
{
	for (int f = 0; f < LINUX_FLAVOURS; f++) {
		size_t k = 0;
		while (k < host->n_nics &&
		       linux_flavour_of(&host->nics[k]) != (enum linux_flavour)f)
			k++;
		if (k == host->n_nics)
			continue;
		struct qg_nic id = linux_nic_as_group(&host->nics[k]);
		struct walk w = {.sh = body, .prefix = ""};
		qg_buf_printf(body, "# %s\n%s() {\n", linux_flavours[f].about,
			      linux_flavours[f].fn);
		linux_walk(m, &id, &w);
		qg_buf_puts(body, "}\n");
	}
	for (size_t k = 0; k < host->n_nics; k++)
		qg_buf_printf(body, "qg_nic %zu %s \"$qg_netdev_%zu\" \"$qg_rdma_device_%zu\"\n", k,
			      linux_flavours[linux_flavour_of(&host->nics[k])].fn, k, k);
	/* The host's own files: not when the script runs for one NIC that came back. */
	struct walk w = {.sh = body, .prefix = ""};
	qg_buf_puts(body, "if [ -z \"$qg_only\" ]; then\n");
	linux_walk_jobs(m, &w);
	qg_buf_puts(body, "fi\n");
}

/* The lib and the group's body: the calls, walked on a host whose devices are markers. */
static int linux_emit_group(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			    struct qg_outset *out)
{
	const struct qg_host *host = &m->hosts[i];
	bool several = linux_several(host);
	struct qg_buf body = {0};
	char flavour[96];
	if (several) {
		linux_body_nics(m, host, &body);
		enum linux_flavour f = linux_flavour_of(&host->nics[0]);
		bool alike = true;
		for (size_t k = 1; k < host->n_nics; k++)
			alike &= linux_flavour_of(&host->nics[k]) == f;
		if (alike)
			snprintf(flavour, sizeof(flavour), "%zu NICs, each a %s", host->n_nics,
				 linux_flavours[f].about);
		else
			snprintf(flavour, sizeof(flavour), "%zu NICs, of the flavours below.",
				 host->n_nics);
	} else {
		struct qg_nic id = linux_nic_as_group(&host->nics[0]);
		struct walk w = {.sh = &body};
		linux_walk(m, &id, &w);
		linux_walk_jobs(m, &w);
		snprintf(flavour, sizeof(flavour), "%s",
			 linux_flavours[linux_flavour_of(&host->nics[0])].about);
	}
	if (body.failed) {
		qg_buf_free(&body);
		return -ENOMEM;
	}
	if (body.len)
		body.data[--body.len] = '\0'; /* the template's line ends it */
	const struct host_script_text x = {
	    .lib_template = "linux-lib.sh",
	    .group_template = several ? "linux-nics-group.sh" : "linux-group.sh",
	    .flavour = flavour,
	    .body = body.data ? body.data : "",
	};
	int rc = host_script_emit_group(m, i, ctx, &x, out);
	qg_buf_free(&body);
	return rc;
}

/*
 * No check(): the script programs the classes' entries of the DSCP map
 * (above), so any map the model holds can be built for Linux hosts.
 *
 * A VF's MTU: the hypervisor checks a VF's MTU request against the MTU of
 * the switch its port group is on (vSphere SR-IOV networking;
 * shared/notes/vendor-references.md, Hosts). A dvs entry below qos.mtu is
 * refused by the core (dvs.mtu >= qos.mtu); a port group on a switch the
 * intent does not list (no dvs at all, or a standard vSwitch) is outside
 * it. That is said by name in explain, not as a warning: the intent has no
 * way to name a standard vSwitch, so --strict could not be satisfied, and
 * the host script reads the MTU back and reports a refusal as failed,
 * naming that switch.
 */
/*
 * The jobs' traffic class as environment lines (issue 35): a container's
 * NCCL or UCX reads the container's files, not the host's /etc/nccl.conf,
 * so a container or Kubernetes pod spec carries the same values in its
 * environment (which also wins over any file).
 */
static void linux_explain_jobs(const struct qg_model *m, struct qg_explain_rows *x)
{
	char v[8], key[64], reason[400];
	snprintf(v, sizeof(v), "%d", qg_roce_tos(&m->qos));
	for (size_t k = 0; k < LINUX_JOB_CONFS; k++) {
		const struct linux_job_conf *c = &linux_job_conf[k];
		snprintf(key, sizeof(key), "linux.env.%s", c->var);
		snprintf(reason, sizeof(reason),
			 "the RoCE ToS for %s jobs in containers: %s=%s in the container's "
			 "environment; in a Kubernetes pod spec, env: [{name: %s, value: \"%s\"}] "
			 "(the hosts get it in %s; a container reads its own files, not the "
			 "host's)",
			 c->what, c->var, v, c->var, v, c->file);
		qg_explain_row(x, key, v, reason);
	}
}

static void linux_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	size_t n = 0, hosts = 0;
	for (size_t i = 0; i < m->n_hosts; i++) {
		hosts += m->hosts[i].target == &qg_target_linux;
		for (size_t k = 0; m->hosts[i].target == &qg_target_linux && k < m->hosts[i].n_nics;
		     k++)
			n += m->hosts[i].nics[k].function == QG_FN_VF;
	}
	if (hosts)
		linux_explain_jobs(m, x);
	if (!n)
		return;
	char v[16], reason[400];
	snprintf(v, sizeof(v), "%d", m->qos.mtu);
	if (!m->n_dvs)
		snprintf(reason, sizeof(reason),
			 "the MTU of the %zu function: vf host%s; the hypervisor checks a VF MTU "
			 "against the vSwitch or DVS its port group is on, and this intent has no "
			 "dvs: that switch MTU is outside the intent (the host script reads the "
			 "MTU back and reports a refusal as failed, naming that switch)",
			 n, n == 1 ? "" : "s");
	else
		snprintf(reason, sizeof(reason),
			 "the MTU of the %zu function: vf host%s; the hypervisor checks a VF MTU "
			 "against the vSwitch or DVS its port group is on: the intent's dvs carry "
			 "at least qos.mtu, a standard vSwitch is outside the intent (the host "
			 "script reads the MTU back and reports a refusal as failed)",
			 n, n == 1 ? "" : "s");
	qg_explain_row(x, "linux.vf.mtu", v, reason);
}

/*
 * A NIC of `nics:` (issue 28): the one-NIC shorthand's keys, each NIC its
 * own. A name may be a bracket range (lib/hostlist.h), the two ranges of an
 * item expanded pairwise; function and qos_tool default to the host's.
 */
static const struct qg_key linux_nic_rows[] = {
    {"netdev", QG_KEY_STRING, .required = true,
     .rule = QG_NETDEV_RULE "; or a range of them, ens[1-8]f0np0", .ok = qg_netdev_ok,
     .doc = "the NIC's network interface", QG_KEY_AT_TEXT(QG_KB_NIC, struct qg_nic, netdev)},
    {"rdma_device", QG_KEY_STRING, .required = true,
     .rule = QG_RDMA_DEVICE_RULE "; or a range of them, mlx5_[0-7], as many as netdev's",
     .ok = qg_rdma_device_ok, .doc = "its RDMA device",
     QG_KEY_AT_TEXT(QG_KB_NIC, struct qg_nic, rdma_device)},
    {"function", QG_KEY_ENUM, .values = (const char *const[]){"pf", "vf", NULL},
     .def = "the host's function, else pf", .doc = "this NIC's function",
     QG_KEY_AT(QG_KB_NIC, struct qg_nic, function), QG_KEY_GIVEN(struct qg_nic, function_given)},
    {"qos_tool", QG_KEY_ENUM, .values = (const char *const[]){"mlnx_qos", "dcb", NULL},
     .def = "the host's qos_tool, else mlnx_qos", .doc = "this NIC's QoS tool; pf only",
     QG_KEY_AT(QG_KB_NIC, struct qg_nic, qos_tool), QG_KEY_GIVEN(struct qg_nic, qos_tool_given)},
    {0},
};
static const struct qg_key linux_key_rows[] = {
    {"netdev", QG_KEY_STRING, .required = true, .rule = QG_NETDEV_RULE, .ok = qg_netdev_ok,
     .pattern = QG_NETDEV_PATTERN,
     .doc = "the RoCE port's network interface (mlnx_qos, dcb and ip take it)",
     QG_KEY_AT_TEXT(QG_KB_NIC, struct qg_nic, netdev), .homed = true, .unless = "nics"},
    {"rdma_device", QG_KEY_STRING, .required = true, .rule = QG_RDMA_DEVICE_RULE,
     .ok = qg_rdma_device_ok, .pattern = QG_RDMA_DEVICE_PATTERN,
     .doc = "its RDMA device (rdma_cm's ToS and the counters are per device)",
     QG_KEY_AT_TEXT(QG_KB_NIC, struct qg_nic, rdma_device), .homed = true, .unless = "nics"},
    {"function", QG_KEY_ENUM, .values = (const char *const[]){"pf", "vf", NULL}, .def = "pf",
     .doc = "a physical function, or a virtual one whose QoS the hypervisor owns",
     QG_KEY_AT(QG_KB_NIC, struct qg_nic, function), QG_KEY_GIVEN(struct qg_nic, function_given),
     .homed = true},
    /* After function: the loader reads the rows in order, and qos_tool warns for vf. */
    {"qos_tool", QG_KEY_ENUM, .values = (const char *const[]){"mlnx_qos", "dcb", NULL},
     .def = "mlnx_qos", .doc = "the tool the script sets trust and PFC with; pf only",
     QG_KEY_AT(QG_KB_NIC, struct qg_nic, qos_tool), QG_KEY_GIVEN(struct qg_nic, qos_tool_given)},
    {"persist", QG_KEY_BOOL, .def = "true",
     .doc = "whether push installs the script to run at boot and when the NIC appears",
     QG_KEY_AT(QG_KB_HOST, struct qg_host, persist), QG_KEY_GIVEN(struct qg_host, persist_given)},
    {"nics", QG_KEY_LIST, .nonempty = true,
     .doc = "the host's RoCE NICs, one per rail, instead of netdev and rdma_device; the "
	    "host's function and qos_tool are their default",
     .items = linux_nic_rows, .homed = true},
    {0},
};

const struct qg_target qg_target_linux = {
    .name = "linux",
    .aliases = (const char *const[]){"ubuntu", "rhel", "debian", NULL},
    .summary = "Linux host script (MTU, trust, DSCP map, PFC, RoCE ToS, DCQCN) via mlnx_qos or dcb",
    .kind = QG_DEVICE_HOST,
    .caps = QG_CAN_VERIFY,
    .key_rows = linux_key_rows,
    .settings = linux_settings,
    .emit = linux_emit,
    .group = linux_group,
    .emit_group = linux_emit_group,
    .explain = linux_explain,
    .handoff = &qg_handoff_host_push,
};
