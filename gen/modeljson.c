/* SPDX-License-Identifier: MIT */
#include "modeljson.h"

#include "fixed.h"
#include "ports.h"
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *class_json(const struct qg_class *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "priority", c->priority);
	cJSON *d = cJSON_AddArrayToObject(o, "dscp");
	for (int i = 0; i < c->n_dscp; i++)
		cJSON_AddItemToArray(d, cJSON_CreateNumber(c->dscp[i]));
	cJSON_AddNumberToObject(o, "traffic_class", c->traffic_class);
	if (c->ets.mode == QG_ETS_STRICT)
		cJSON_AddStringToObject(o, "ets", "strict");
	else if (c->ets.mode == QG_ETS_WRR) {
		cJSON *e = cJSON_AddObjectToObject(o, "ets");
		cJSON_AddStringToObject(e, "mode", "wrr");
		cJSON_AddNumberToObject(e, "weight", c->ets.weight);
	} else
		cJSON_AddNullToObject(o, "ets");
	return o;
}

static void ssh_json(cJSON *o, const char *address, int port, const char *user)
{
	cJSON_AddStringToObject(o, "address", address);
	cJSON_AddNumberToObject(o, "port", port);
	if (user[0])
		cJSON_AddStringToObject(o, "user", user);
	else
		cJSON_AddNullToObject(o, "user");
}

cJSON *qg_model_json(const struct qg_model *m)
{
	const struct qg_qos *q = &m->qos;
	char num[24];
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "version", m->version);
	cJSON_AddStringToObject(root, "fabric", m->fabric);

	cJSON *qos = cJSON_AddObjectToObject(root, "qos");
	cJSON_AddStringToObject(qos, "trust", qg_trust_name(q->trust));
	cJSON_AddNumberToObject(qos, "mtu", q->mtu);
	cJSON_AddNumberToObject(qos, "switch_mtu", q->switch_mtu);
	cJSON *ll = class_json(&q->lossless);
	cJSON_AddItemToObject(qos, "lossless", ll);
	cJSON *pool = cJSON_AddObjectToObject(ll, "pool");
	cJSON_AddStringToObject(pool, "name", q->pool_name);
	qg_centi_format(q->pool_percent_centi, num);
	cJSON_AddRawToObject(pool, "memory_percent", num);
	if (q->ecn) {
		cJSON *e = cJSON_AddObjectToObject(ll, "ecn");
		cJSON_AddNumberToObject(e, "min_kb", q->ecn_min_kb);
		cJSON_AddNumberToObject(e, "max_kb", q->ecn_max_kb);
	} else
		cJSON_AddNullToObject(ll, "ecn");
	if (q->cnp) {
		cJSON *c = class_json(&q->cnpc);
		/* One DSCP for CNPs: a number, as the intent writes it. */
		cJSON_ReplaceItemInObject(c, "dscp", cJSON_CreateNumber(q->cnpc.dscp[0]));
		cJSON_AddItemToObject(qos, "cnp", c);
	} else
		cJSON_AddNullToObject(qos, "cnp");
	/* Left out when the intent gives none (not managed), so older intents hash as before. */
	if (q->pfcwd.state == QG_PFCWD_OFF) {
		cJSON_AddFalseToObject(qos, "pfc_watchdog");
	} else if (q->pfcwd.state == QG_PFCWD_ON) {
		cJSON *wd = cJSON_AddObjectToObject(qos, "pfc_watchdog");
		cJSON_AddNumberToObject(wd, "detection_ms", q->pfcwd.detection_ms);
		cJSON_AddNumberToObject(wd, "restoration_ms", q->pfcwd.restoration_ms);
		cJSON_AddNumberToObject(wd, "poll_ms", q->pfcwd.poll_ms);
	}

	cJSON *sw = cJSON_AddArrayToObject(root, "switches");
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddStringToObject(o, "platform", s->target->name);
		ssh_json(o, s->address, s->port, s->user);
		cJSON *ports = cJSON_AddArrayToObject(o, "ports");
		struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
		size_t n = runs ? qg_port_runs(s->ports, s->n_ports, runs) : 0;
		for (size_t r = 0; r < n; r++) {
			char text[QG_PORT_TEXT_LEN];
			s->target->ports->format_run(&runs[r], text);
			cJSON_AddItemToArray(ports, cJSON_CreateString(text));
		}
		/* Runs of ports with one length each; left out when the intent gives none. */
		cJSON *cable = s->cable_m ? cJSON_AddObjectToObject(o, "cable_length_m") : NULL;
		for (size_t a = 0, b; cable && runs && a < s->n_ports; a = b) {
			for (b = a + 1; b < s->n_ports && s->cable_m[b] == s->cable_m[a]; b++)
				;
			size_t nr = qg_port_runs(&s->ports[a], b - a, runs);
			for (size_t r = 0; r < nr && s->cable_m[a]; r++) {
				char text[QG_PORT_TEXT_LEN];
				s->target->ports->format_run(&runs[r], text);
				cJSON_AddNumberToObject(cable, text, s->cable_m[a]);
			}
		}
		free(runs);
		cJSON_AddItemToArray(sw, o);
	}

	cJSON *hosts = cJSON_AddArrayToObject(root, "hosts");
	for (size_t i = 0; i < m->n_hosts; i++) {
		const struct qg_host *h = &m->hosts[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", h->name);
		cJSON_AddStringToObject(o, "platform", h->target->name);
		ssh_json(o, h->address, h->port, h->user);
		/* The platform keys its target takes, defaults filled in. */
		const struct qg_target *t = h->target;
		if (qg_target_takes(t, "netdev"))
			cJSON_AddStringToObject(o, "netdev", h->netdev);
		if (qg_target_takes(t, "rdma_device"))
			cJSON_AddStringToObject(o, "rdma_device", h->rdma_device);
		if (qg_target_takes(t, "function"))
			cJSON_AddStringToObject(o, "function",
						h->function == QG_FN_PF ? "pf" : "vf");
		if (qg_target_takes(t, "qos_tool") && h->function == QG_FN_PF)
			cJSON_AddStringToObject(
			    o, "qos_tool", h->qos_tool == QG_TOOL_MLNX_QOS ? "mlnx_qos" : "dcb");
		if (qg_target_takes(t, "persist"))
			cJSON_AddBoolToObject(o, "persist", h->persist);
		if (qg_target_takes(t, "uplink"))
			cJSON_AddStringToObject(o, "uplink", h->uplink);
		if (qg_target_takes(t, "pvrdma_vmknic")) {
			if (h->pvrdma_vmknic[0])
				cJSON_AddStringToObject(o, "pvrdma_vmknic", h->pvrdma_vmknic);
			else
				cJSON_AddNullToObject(o, "pvrdma_vmknic");
		}
		cJSON_AddItemToArray(hosts, o);
	}

	cJSON *dvs = cJSON_AddArrayToObject(root, "dvs");
	for (size_t i = 0; i < m->n_dvs; i++) {
		const struct qg_dvs *s = &m->dvs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->name);
		cJSON_AddStringToObject(o, "vcenter", s->vcenter);
		cJSON_AddStringToObject(o, "datacenter", s->datacenter);
		cJSON_AddNumberToObject(o, "mtu", s->mtu);
		cJSON_AddNumberToObject(o, "uplinks", s->uplinks);
		if (s->portgroup[0])
			cJSON_AddStringToObject(o, "portgroup", s->portgroup);
		else
			cJSON_AddNullToObject(o, "portgroup");
		cJSON *hs = cJSON_AddArrayToObject(o, "hosts");
		for (size_t k = 0; k < s->n_hosts; k++)
			cJSON_AddItemToArray(hs, cJSON_CreateString(m->hosts[s->hosts[k]].name));
		cJSON_AddItemToArray(dvs, o);
	}

	cJSON *vf = cJSON_AddObjectToObject(root, "verify");
	cJSON *pairs = cJSON_AddArrayToObject(vf, "pairs");
	for (size_t i = 0; i < m->verify.n_pairs; i++) {
		const struct qg_pair *p = &m->verify.pairs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "client", m->hosts[p->client].name);
		cJSON_AddStringToObject(o, "server", m->hosts[p->server].name);
		qg_centi_format(p->min_gbps_centi, num);
		cJSON_AddRawToObject(o, "min_gbps", num);
		cJSON_AddItemToArray(pairs, o);
	}
	cJSON_AddNumberToObject(vf, "message_size", m->verify.message_size);
	cJSON_AddNumberToObject(vf, "duration_s", m->verify.duration_s);
	/* Left out when the intent acknowledges nothing, so older intents hash as before. */
	cJSON *acks = m->n_acks ? cJSON_AddArrayToObject(root, "acknowledge") : NULL;
	for (size_t i = 0; acks && i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "warning", qg_warning_info(a->warning)->name);
		if (a->because[0])
			cJSON_AddStringToObject(o, "because", a->because);
		else
			cJSON_AddNullToObject(o, "because");
		cJSON_AddItemToArray(acks, o);
	}
	return root;
}

int qg_model_json_hash(const cJSON *j, char out[QG_SHA256_HEX])
{
	char *s = j ? cJSON_PrintUnformatted(j) : NULL;
	out[0] = '\0';
	if (!s)
		return -1;
	int rc = qg_sha256_hex(s, strlen(s), out);
	free(s);
	return rc;
}

int qg_model_hash(const struct qg_model *m, char out[QG_SHA256_HEX])
{
	cJSON *j = qg_model_json(m);
	int rc = qg_model_json_hash(j, out);
	cJSON_Delete(j);
	return rc;
}
