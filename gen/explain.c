/* SPDX-License-Identifier: MIT */
#include "explain.h"

#include "derive.h"
#include "hash.h"
#include "modeljson.h"
#include "settings.h"
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void row(cJSON *rows, const char *key, cJSON *value, const char *source, const char *reason)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "key", key);
	cJSON_AddItemToObject(r, "value", value);
	cJSON_AddStringToObject(r, "source", source);
	cJSON_AddStringToObject(r, "reason", reason ? reason : "");
	cJSON_AddItemToArray(rows, r);
}

struct qg_explain_rows {
	cJSON *rows;
};

void qg_explain_row(struct qg_explain_rows *x, const char *key, const char *value,
		    const char *reason)
{
	row(x->rows, key, qg_setting_json(value), "target", reason);
}

static void row_int(cJSON *rows, const char *key, long v, bool given, const char *reason)
{
	row(rows, key, cJSON_CreateNumber((double)v), given ? "given" : "default", reason);
}

static void row_str(cJSON *rows, const char *key, const char *v, const char *source,
		    const char *reason)
{
	row(rows, key, v ? cJSON_CreateString(v) : cJSON_CreateNull(), source, reason);
}

static void explain_class(cJSON *rows, const char *name, const struct qg_class *c)
{
	char key[64], v[256];
	snprintf(key, sizeof(key), "qos.%s.priority", name);
	row_int(rows, key, c->priority, true, "switch-priority and PFC priority");
	snprintf(key, sizeof(key), "qos.%s.dscp", name);
	size_t used = 0;
	v[0] = '\0';
	for (int i = 0; i < c->n_dscp; i++)
		used +=
		    (size_t)snprintf(v + used, sizeof(v) - used, "%s%d", i ? "," : "", c->dscp[i]);
	row_str(rows, key, v, "given", NULL);
	snprintf(key, sizeof(key), "qos.%s.traffic_class", name);
	row_int(rows, key, c->traffic_class, c->tc_given,
		c->tc_given ? NULL
			    : "default: the priority (switch-priority N to traffic class N)");
	snprintf(key, sizeof(key), "qos.%s.ets", name);
	if (c->ets.mode == QG_ETS_STRICT)
		row_str(rows, key, "strict", "given", NULL);
	else if (c->ets.mode == QG_ETS_WRR) {
		snprintf(v, sizeof(v), "wrr %d", c->ets.weight);
		row_str(rows, key, v, "given", NULL);
	} else
		row_str(rows, key, NULL, "default", "not set: the switch keeps its ETS default");
}

cJSON *qg_explain_json(const struct qg_model *m)
{
	const struct qg_qos *q = &m->qos;
	char hash[QG_SHA256_HEX], v[256], reason[320], key[160];
	qg_model_hash(m, hash);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "fabric", m->fabric);
	cJSON_AddStringToObject(root, "intent_sha256", hash);
	cJSON *rows = cJSON_AddArrayToObject(root, "rows");

	row_int(rows, "version", m->version, true, NULL);
	row_str(rows, "fabric", m->fabric, "given", NULL);
	row_str(rows, "qos.trust", qg_trust_name(q->trust), q->trust_given ? "given" : "default",
		q->trust == QG_TRUST_DSCP
		    ? "switches and hosts classify by the DSCP field (each target's rows below)"
		    : "switches and hosts classify by the 802.1p priority (each target's rows "
		      "below)");
	row_int(rows, "qos.mtu", q->mtu, q->mtu_given, "hosts, VMs, vmknics and the DVS");
	/* One switch MTU per fabric (issue 23): every OS's ports get this one. */
	char oses[256];
	int smax = qg_fabric_switch_mtu_max(m, oses, sizeof(oses));
	if (!oses[0])
		snprintf(reason, sizeof(reason),
			 "switch ports (this intent has no switch); at least mtu + %d (Ethernet "
			 "header, VLAN tag, FCS), at most %d",
			 QG_SWITCH_MTU_OVERHEAD, smax);
	else if (q->switch_mtu_given)
		snprintf(reason, sizeof(reason),
			 "the one port MTU of every switch in the fabric; at least mtu + %d "
			 "(Ethernet header, VLAN tag, FCS), at most %d, the smallest largest port "
			 "MTU of its switch OSes (%s)",
			 QG_SWITCH_MTU_OVERHEAD, smax, oses);
	else
		snprintf(reason, sizeof(reason),
			 "the one port MTU of every switch in the fabric: the smallest largest "
			 "port MTU of its switch OSes (%s), so every OS gets the same; at least "
			 "mtu + %d (Ethernet header, VLAN tag, FCS)",
			 oses, QG_SWITCH_MTU_OVERHEAD);
	row_int(rows, "qos.switch_mtu", q->switch_mtu, q->switch_mtu_given, reason);
	explain_class(rows, "lossless", &q->lossless);
	row_str(rows, "qos.lossless.pool.name", q->pool_name, "given", NULL);
	qg_centi_format(q->pool_percent_centi, v);
	row(rows, "qos.lossless.pool.memory_percent", qg_setting_json(v), "given",
	    "percent of the switch's shared buffer, two decimals");
	if (q->ecn) {
		row_int(rows, "qos.lossless.ecn.min_kb", q->ecn_min_kb, true, NULL);
		row_int(rows, "qos.lossless.ecn.max_kb", q->ecn_max_kb, true, NULL);
	} else {
		row_str(rows, "qos.lossless.ecn", NULL, "default", "off: no ECN marking, no DCQCN");
	}
	if (q->cnp)
		explain_class(rows, "cnp", &q->cnpc);
	else
		row_str(rows, "qos.cnp", NULL, "default", "no CNP class");
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		snprintf(reason, sizeof(reason),
			 "ms a lossless queue may stay paused before the watchdog drops its "
			 "traffic; default %d (SONiC's pfcwd)",
			 QG_PFCWD_DETECTION_MS);
		row_int(rows, "qos.pfc_watchdog.detection_ms", wd->detection_ms,
			wd->detection_given, reason);
		snprintf(reason, sizeof(reason),
			 "ms without pause frames before the queue is lossless again; default %d "
			 "(SONiC's pfcwd)",
			 QG_PFCWD_RESTORATION_MS);
		row_int(rows, "qos.pfc_watchdog.restoration_ms", wd->restoration_ms,
			wd->restoration_given, reason);
		snprintf(reason, sizeof(reason),
			 "ms between the watchdog's checks of the queues; default %d (SONiC's "
			 "pfcwd); detection_ms and restoration_ms are at least this",
			 QG_PFCWD_POLL_MS);
		row_int(rows, "qos.pfc_watchdog.poll_ms", wd->poll_ms, wd->poll_given, reason);
	} else {
		row_str(rows, "qos.pfc_watchdog", wd->state == QG_PFCWD_OFF ? "off" : NULL,
			wd->state == QG_PFCWD_OFF ? "given" : "default",
			wd->state == QG_PFCWD_OFF
			    ? "off on the intent's ports: each target removes or disables it"
			    : "not managed: each switch keeps its own PFC watchdog");
	}

	/* Derived values, each with the arithmetic that produced it. */
	int dscp = qg_host_dscp(q), tos = qg_roce_tos(q), tos0 = qg_roce_tos_without_ecn(q);
	row(rows, "derived.host_dscp", cJSON_CreateNumber(dscp), "derived",
	    "the first of qos.lossless.dscp: what hosts put on RoCE packets");
	if (q->ecn)
		snprintf(
		    reason, sizeof(reason),
		    "DSCP %d << 2 | ECT(0) 2 = %d (0x%02x); without ECN it would be %d (0x%02x)",
		    dscp, tos, tos, tos0, tos0);
	else
		snprintf(reason, sizeof(reason),
			 "DSCP %d << 2 = %d (0x%02x), no ECN bits since ecn is off; with ECN it "
			 "would be %d (0x%02x)",
			 dscp, tos, tos, tos0 | QG_ECT0, tos0 | QG_ECT0);
	row(rows, "derived.roce_tos", cJSON_CreateNumber(tos), "derived", reason);
	if (q->trust == QG_TRUST_DSCP) {
		/* The classes' entries of the DSCP map; every other DSCP keeps DSCP/8. */
		char map[256] = "";
		size_t o = 0;
		for (int d = 0; d < 64 && o < sizeof(map); d++) {
			bool in_class = false;
			for (int i = 0; i < q->lossless.n_dscp; i++)
				in_class |= q->lossless.dscp[i] == d;
			in_class |= q->cnp && q->cnpc.n_dscp && q->cnpc.dscp[0] == d;
			if (in_class)
				o += (size_t)snprintf(map + o, sizeof(map) - o, "%s%d:%d",
						      o ? " " : "", d, q->dscp_prio[d]);
		}
		row_str(
		    rows, "derived.dscp_map", map, "derived",
		    "DSCP:switch-priority of the classes' DSCPs; every other DSCP keeps DSCP/8 (a "
		    "target that cannot program a map refuses others)");
		if (q->dscp_exact) {
			snprintf(reason, sizeof(reason),
				 "every switch of the fabric programs its whole DSCP map: the "
				 "rest of a class's DSCP/8 block goes to priority %d, the lowest "
				 "no class holds, so only the intent's DSCPs are lossless on "
				 "the switches (the hosts keep DSCP/8)",
				 qg_lossy_priority(q));
			row(rows, "derived.dscp_lossy_priority",
			    cJSON_CreateNumber(qg_lossy_priority(q)), "derived", reason);
		} else {
			row_str(rows, "derived.dscp_lossy_priority", "none", "derived",
				"a switch of the fabric programs no DSCP map (it classifies by "
				"DSCP/8), so every switch keeps the rest of a class's DSCP/8 "
				"block in that class: a DSCP lossless on one hop and lossy on "
				"the next would fill the lossless priority group with traffic "
				"its sender never pauses");
		}
	}
	qg_pfc_vector(q->lossless.priority, v);
	snprintf(reason, sizeof(reason), "PFC on priority %d only, one digit per priority 0..7",
		 q->lossless.priority);
	row_str(rows, "derived.pfc_vector", v, "derived", reason);
	snprintf(v, sizeof(v), "0x%02x", qg_pfc_bitmap(q->lossless.priority));
	snprintf(reason, sizeof(reason), "1 << %d: the PFC enable bitmap (802.1Qbb pfc_enable)",
		 q->lossless.priority);
	row_str(rows, "derived.pfc_bitmap", v, "derived", reason);
	int pmtu = qg_roce_path_mtu(q->mtu);
	snprintf(reason, sizeof(reason),
		 "largest IB MTU <= mtu %d - %d (RoCEv2: GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH "
		 "28, ICRC 4; the kernel's iboe_get_mtu)",
		 q->mtu, QG_ROCE_MTU_OVERHEAD);
	row(rows, "derived.roce_path_mtu", cJSON_CreateNumber(pmtu), "derived", reason);

	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		snprintf(key, sizeof(key), "switches.%s.port", s->name);
		snprintf(reason, sizeof(reason), "%s port",
			 s->target->access ? s->target->access : "SSH");
		row_int(rows, key, s->port, s->port_given, reason);
		snprintf(key, sizeof(key), "switches.%s.user", s->name);
		row_str(rows, key, s->user[0] ? s->user : NULL, s->user[0] ? "given" : "default",
			s->user[0] ? NULL
				   : "from ~/.ssh/config, else the local user, at push time");
		/* A count: device.NAME.ports is the port list, as the target writes it. */
		snprintf(key, sizeof(key), "switches.%s.port_count", s->name);
		snprintf(reason, sizeof(reason), "%zu ports", s->n_ports);
		row(rows, key, cJSON_CreateNumber((double)s->n_ports), "derived", reason);
	}
	for (size_t i = 0; i < m->n_hosts; i++) {
		const struct qg_host *h = &m->hosts[i];
		snprintf(key, sizeof(key), "hosts.%s.port", h->name);
		snprintf(reason, sizeof(reason), "%s port",
			 h->target->access ? h->target->access : "SSH");
		row_int(rows, key, h->port, h->port_given, reason);
		snprintf(key, sizeof(key), "hosts.%s.user", h->name);
		row_str(rows, key, h->user[0] ? h->user : NULL, h->user[0] ? "given" : "default",
			h->user[0] ? NULL
				   : "from ~/.ssh/config, else the local user, at push time");
		if (!qg_target_takes(h->target, "function"))
			continue;
		snprintf(key, sizeof(key), "hosts.%s.function", h->name);
		row_str(rows, key, h->function == QG_FN_PF ? "pf" : "vf",
			h->function_given ? "given" : "default",
			h->function == QG_FN_PF ? "sets trust and PFC"
						: "trust and PFC belong to the hypervisor");
		if (h->function == QG_FN_PF) {
			snprintf(key, sizeof(key), "hosts.%s.qos_tool", h->name);
			row_str(rows, key, h->qos_tool == QG_TOOL_MLNX_QOS ? "mlnx_qos" : "dcb",
				h->qos_tool_given ? "given" : "default", NULL);
		}
		if (qg_target_takes(h->target, "persist")) {
			snprintf(key, sizeof(key), "hosts.%s.persist", h->name);
			row_str(rows, key, h->persist ? "true" : "false",
				h->persist_given ? "given" : "default",
				h->persist ? "installed: re-applied when the NIC appears"
					   : "runtime only: lost on a reboot or NIC reset");
		}
	}
	for (size_t i = 0; i < m->n_dvs; i++) {
		const struct qg_dvs *s = &m->dvs[i];
		snprintf(key, sizeof(key), "dvs.%s.mtu", s->name);
		row_int(rows, key, s->mtu, s->mtu_given, s->mtu_given ? NULL : "default: qos.mtu");
		snprintf(key, sizeof(key), "dvs.%s.uplinks", s->name);
		row_int(rows, key, s->uplinks, true, NULL);
	}
	row_int(rows, "verify.message_size", m->verify.message_size, m->verify.message_size_given,
		"bytes per RDMA WRITE");
	row_int(rows, "verify.duration_s", m->verify.duration_s, m->verify.duration_given, NULL);
	/* Warnings kept on purpose: not printed, so said here, with the intent's reason. */
	for (size_t i = 0; i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		const struct qg_warning_info *w = qg_warning_info(a->warning);
		snprintf(key, sizeof(key), "acknowledge.%s", w->name);
		if (a->because[0])
			snprintf(reason, sizeof(reason), "%s (%s)", a->because, w->meaning);
		else
			snprintf(reason, sizeof(reason), "%s; no reason given (because:)",
				 w->meaning);
		row_str(rows, key, "acknowledged", "given", reason);
	}

	/* How each target in use turns the policy into its own terms. */
	struct qg_explain_rows x = {rows};
	for (size_t t = 0; m->targets && m->targets[t]; t++)
		if (m->targets[t]->explain && qg_target_used(m, m->targets[t]))
			m->targets[t]->explain(m, &x);

	/* What each device will be set to, in the targets' own vocabulary. */
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		for (size_t i = 0; i < qg_device_count(m, kind); i++) {
			const struct qg_target *tg = qg_target_for(m, kind, i);
			struct qg_settings set = {0};
			if (!tg || tg->settings(m, i, &set) != 0) {
				qg_settings_free(&set);
				continue;
			}
			snprintf(reason, sizeof(reason), "target %s", tg->name);
			for (size_t k = 0; k < set.n; k++) {
				snprintf(key, sizeof(key), "device.%s.%s",
					 qg_device_name(m, kind, i), set.v[k].key);
				row(rows, key, qg_setting_json(set.v[k].value), "target", reason);
			}
			qg_settings_free(&set);
		}
	}
	return root;
}

void qg_explain_text(const cJSON *explain, struct qg_buf *out)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(explain, "rows");
	qg_buf_printf(
	    out, "fabric %s, intent sha256:%s\n\n",
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(explain, "fabric")),
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(explain, "intent_sha256")));
	qg_buf_printf(out, "%-44s %-20s %-8s %s\n", "KEY", "VALUE", "SOURCE", "REASON");
	const cJSON *r;
	cJSON_ArrayForEach(r, rows)
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "value");
		char value[256];
		if (cJSON_IsString(v) || cJSON_IsRaw(v))
			snprintf(value, sizeof(value), "%s", v->valuestring);
		else if (cJSON_IsNumber(v))
			snprintf(value, sizeof(value), "%.0f", v->valuedouble);
		else
			snprintf(value, sizeof(value), "-");
		const char *reason =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "reason"));
		const char *key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "key"));
		const char *source =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "source"));
		if (reason && *reason)
			qg_buf_printf(out, "%-44s %-20s %-8s %s\n", key, value, source, reason);
		else
			qg_buf_printf(out, "%-44s %-20s %s\n", key, value, source);
	}
}
