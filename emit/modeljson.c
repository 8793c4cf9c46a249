/* SPDX-License-Identifier: MIT */
#include "modeljson.h"

#include "../model/bounds.h"

#include "../lib/fixed.h"
#include "../model/keys.h"
#include "../model/port_kind.h"
#include "../model/ports.h"
#include "../model/switch_hw.h"
#include "../model/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The model's JSON follows the key table (model/keys.h): a mapping's keys in
 * the table's order, each value read where the table says it lands. The
 * order is the intent hash's: a row moved in the table changes every hash.
 */

/* The last part of a key's path: its name in its mapping. */
static const char *key_name(const struct qg_key *k)
{
	const char *dot = strrchr(k->path, '.');
	return dot ? dot + 1 : k->path;
}

cJSON *qg_key_value_json(const struct qg_key *k, const void *base)
{
	const char *at = (const char *)base + k->offset;
	char num[24];
	if (k->type & QG_KEY_STRING)
		return *at || k->required ? cJSON_CreateString(at) : cJSON_CreateNull();
	if (k->type & QG_KEY_BOOL) {
		bool b;
		memcpy(&b, at, sizeof(b));
		return cJSON_CreateBool(b);
	}
	int v;
	memcpy(&v, at, sizeof(v));
	/* The table's own text, which lives as long as the program: not copied. */
	if (k->type & QG_KEY_ENUM)
		return cJSON_CreateStringReference(k->values[v]);
	if (k->type & QG_KEY_NUMBER) {
		qg_centi_format(v, num);
		return cJSON_CreateRaw(num);
	}
	return cJSON_CreateNumber(v);
}

/* The key's name is the table's (static): cJSON keeps the pointer, not a copy. */
static void add_key(cJSON *o, const struct qg_key *k, const void *base)
{
	cJSON_AddItemToObjectCS(o, key_name(k), qg_key_value_json(k, base));
}

/* The rows of mapping path's keys, in table order, NULL-terminated. */
static void key_rows(const char *path, const struct qg_key *rows[17])
{
	const char *names[17];
	char sub[96];
	size_t n = qg_key_children(path, names, 16);
	for (size_t i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s.%s", path, names[i]);
		rows[i] = qg_key_find(sub);
	}
	rows[n] = NULL;
}

/* Every key of mapping path that lands in kb, from base. */
static void add_keys(cJSON *o, const char *path, enum qg_key_base kb, const void *base)
{
	const struct qg_key *rows[17];
	key_rows(path, rows);
	for (size_t i = 0; rows[i]; i++)
		if (rows[i]->base == kb)
			add_key(o, rows[i], base);
}

/* A class at path: its own keys; the lossless class's pool and ecn are the caller's. */
static cJSON *class_json(const char *path, const struct qg_class *c)
{
	const struct qg_key *rows[17];
	key_rows(path, rows);
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; rows[i]; i++) {
		const char *name = key_name(rows[i]);
		if (rows[i]->base == QG_KB_CLASS) {
			add_key(o, rows[i], c);
		} else if (!strcmp(name, "dscp")) {
			cJSON *d = cJSON_AddArrayToObject(o, "dscp");
			for (int k = 0; k < c->n_dscp; k++)
				cJSON_AddItemToArray(d, cJSON_CreateNumber(c->dscp[k]));
		} else if (!strcmp(name, "ets")) {
			if (c->ets.mode == QG_ETS_STRICT)
				cJSON_AddStringToObject(o, "ets", "strict");
			else if (c->ets.mode == QG_ETS_WRR) {
				cJSON *e = cJSON_AddObjectToObject(o, "ets");
				cJSON_AddStringToObject(e, "mode", "wrr");
				char ets[96];
				snprintf(ets, sizeof(ets), "%s.ets", path);
				add_keys(e, ets, QG_KB_CLASS, c);
			} else
				cJSON_AddNullToObject(o, "ets");
		}
	}
	return o;
}

/* A NIC's key: a VF's trust and PFC are the hypervisor's, so no tool sets them. */
static void add_nic_key(cJSON *o, const struct qg_key *k, const struct qg_nic *nic)
{
	if (!strcmp(k->path, "qos_tool") && nic->function != QG_FN_PF)
		return;
	add_key(o, k, nic);
}

/*
 * A host of several NICs (issue 28): its NICs as a list of their item rows'
 * keys, in place of the one-NIC shorthand's. A host of one NIC has the
 * shorthand's JSON, and so the intent hash it had, whether its NIC was
 * given as the shorthand or as a `nics:` of one item: the same intent.
 *
 * Hosts whose NICs are alike (those of one host list share their array,
 * model/model.h; a fleet's servers listed one by one have the same names):
 * their lists are one, made for the first and referenced by the next (cJSON's
 * array reference, which cJSON_Delete leaves to its owner, an earlier
 * host of the same tree), so that 10,000 hosts of 8 NICs cost one list's
 * objects, not 80,000 NICs' (issue 28, item 5). *last: the last list made.
 */
struct nics_made {
	const struct qg_nic *nics;
	size_t n;
	cJSON *list;
};

/* Whether two hosts' NICs write the same JSON: their names and what shapes their calls. */
static bool nics_alike(const struct qg_nic *a, size_t na, const struct qg_nic *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t k = 0; a != b && k < na; k++)
		if (strcmp(a[k].netdev, b[k].netdev) || strcmp(a[k].rdma_device, b[k].rdma_device) ||
		    a[k].function != b[k].function || a[k].qos_tool != b[k].qos_tool)
			return false;
	return true;
}

static void add_nics(cJSON *o, const struct qg_key *row, const struct qg_host *h,
		     struct nics_made *last)
{
	if (last->list && nics_alike(last->nics, last->n, h->nics, h->n_nics)) {
		cJSON_AddItemToObjectCS(o, row->path, cJSON_CreateArrayReference(last->list->child));
		return;
	}
	cJSON *a = cJSON_AddArrayToObject(o, row->path);
	for (size_t k = 0; k < h->n_nics; k++) {
		cJSON *nic = cJSON_CreateObject();
		for (const struct qg_key *r = row->items; r->path; r++)
			add_nic_key(nic, r, &h->nics[k]);
		cJSON_AddItemToArray(a, nic);
	}
	*last = (struct nics_made){h->nics, h->n_nics, a};
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

/* The lossless class, its pool (null when absent) and its ecn (null when off). */
static void lossless_json(cJSON *qos, const struct qg_qos *q)
{
	cJSON *ll = class_json("qos.lossless", &q->lossless);
	cJSON_AddItemToObject(qos, "lossless", ll);
	/* Null when absent: the intent needs one only where a switch's platform writes one. */
	if (q->pool_name[0])
		add_keys(cJSON_AddObjectToObject(ll, "pool"), "qos.lossless.pool", QG_KB_QOS, q);
	else
		cJSON_AddNullToObject(ll, "pool");
	if (q->ecn)
		add_keys(cJSON_AddObjectToObject(ll, "ecn"), "qos.lossless.ecn", QG_KB_QOS, q);
	else
		cJSON_AddNullToObject(ll, "ecn");
}

cJSON *qg_role_ports_json(const struct qg_switch *s, size_t r)
{
	cJSON *a = cJSON_CreateArray();
	struct qg_port *ports = calloc(s->n_ports ? s->n_ports : 1, sizeof(*ports));
	struct qg_port_run *runs = calloc(s->n_ports ? s->n_ports : 1, sizeof(*runs));
	size_t n = 0;
	for (size_t k = 0; ports && k < s->n_ports; k++)
		if (s->port_role && s->port_role[k] == r + 1)
			ports[n++] = s->ports[k];
	size_t nr = ports && runs ? qg_port_runs(ports, n, runs) : 0;
	for (size_t k = 0; a && k < nr; k++) {
		char text[QG_PORT_TEXT_LEN];
		s->target->ports->format_run(&runs[k], text);
		cJSON_AddItemToArray(a, cJSON_CreateString(text));
	}
	free(ports);
	free(runs);
	return a;
}

/*
 * A switch's roles by name (sorted: the intent's order of a mapping's keys
 * does not change the hash), each with its ports as runs, and its cable
 * length and ECN thresholds where it gives them.
 */
static cJSON *roles_json(const struct qg_switch *s)
{
	cJSON *o = cJSON_CreateObject();
	size_t order[QG_ROLES_MAX];
	size_t n = s->n_roles < QG_ROLES_MAX ? s->n_roles : QG_ROLES_MAX;
	/* An insertion sort: a handful of names, and no state shared with another thread. */
	for (size_t r = 0; r < n; r++) {
		size_t j = r;
		for (; j > 0 && strcmp(s->roles[order[j - 1]].name, s->roles[r].name) > 0; j--)
			order[j] = order[j - 1];
		order[j] = r;
	}
	for (size_t j = 0; j < n; j++) {
		const struct qg_port_role *role = &s->roles[order[j]];
		cJSON *ro = cJSON_AddObjectToObject(o, role->name);
		cJSON_AddItemToObject(ro, "ports", qg_role_ports_json(s, order[j]));
		if (role->cable_m)
			cJSON_AddNumberToObject(ro, "cable_length_m", role->cable_m);
		/*
		 * Only where it is not what its ports run at without it: a role
		 * that writes the switch's speed (or, without one, its ports'
		 * kinds' native speed) is the role that leaves it out.
		 */
		if (role->speed_gbps && !qg_role_speed_is_default(s, order[j]))
			cJSON_AddNumberToObject(ro, "speed_gbps", role->speed_gbps);
		if (role->ecn_given) {
			cJSON *e = cJSON_AddObjectToObject(ro, "ecn");
			cJSON_AddNumberToObject(e, "min_kb", role->ecn_min_kb);
			cJSON_AddNumberToObject(e, "max_kb", role->ecn_max_kb);
		}
	}
	return o;
}

/* The qos section: its rows in the key table's order, each as the intent writes it. */
static void qos_json(cJSON *qos, const struct qg_qos *q)
{
	const struct qg_key *rows[17];
	key_rows("qos", rows);
	for (size_t i = 0; rows[i]; i++) {
		const char *name = key_name(rows[i]);
		if (rows[i]->base == QG_KB_QOS)
			add_key(qos, rows[i], q);
		else if (!strcmp(name, "lossless"))
			lossless_json(qos, q);
		else if (!strcmp(name, "cnp") && q->cnp) {
			cJSON *c = class_json("qos.cnp", &q->cnpc);
			/* One DSCP for CNPs: a number, as the intent writes it. */
			cJSON_ReplaceItemInObject(c, "dscp", cJSON_CreateNumber(q->cnpc.dscp[0]));
			cJSON_AddItemToObject(qos, "cnp", c);
		} else if (!strcmp(name, "cnp")) {
			cJSON_AddNullToObject(qos, "cnp");
		} else if (!strcmp(name, "pfc_watchdog") && q->pfcwd.state == QG_PFCWD_OFF) {
			/* Left out when the intent gives none (not managed): older intents hash as
			 * before. */
			cJSON_AddFalseToObject(qos, "pfc_watchdog");
		} else if (!strcmp(name, "pfc_watchdog") && q->pfcwd.state == QG_PFCWD_ON) {
			add_keys(cJSON_AddObjectToObject(qos, "pfc_watchdog"), "qos.pfc_watchdog",
				 QG_KB_QOS, q);
		}
	}
}

/* One switch: its name, platform, SSH, ports and cable lengths as runs, roles, OS and model. */
static cJSON *switch_json(const struct qg_switch *s)
{
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
	/* Left out without roles: switches of older intents hash as before. */
	if (s->n_roles)
		cJSON_AddItemToObject(o, "roles", roles_json(s));
	/*
	 * Given only: a build for the target's newest is the same whether
	 * or not the intent names it, and older intents hash as before.
	 */
	if (s->os_version_given)
		cJSON_AddStringToObject(o, "os_version", s->os_version);
	/*
	 * Issue 34: left out when the intent gives neither, so that
	 * older intents hash as before; with a model, its speed as it
	 * resolves, so that writing the native speed is leaving it out;
	 * none where its ports run at their kinds' native speeds and
	 * those differ (model/port_kind.h), which no one speed says.
	 */
	if (s->model_given)
		cJSON_AddStringToObject(o, "model", qg_switch_models[s->model]);
	if ((s->model_given || s->speed_given) && qg_port_speed_uniform(s))
		cJSON_AddNumberToObject(o, "speed_gbps", s->speed_gbps);
	return o;
}

/* One host: its name, platform, SSH and the platform keys its target takes. */
static cJSON *host_json(const struct qg_host *h, struct nics_made *last)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", h->name);
	cJSON_AddStringToObject(o, "platform", h->target->name);
	ssh_json(o, h->address, h->port, h->user);
	/* The platform keys its target takes, defaults filled in: its rows, in order. */
	for (const struct qg_key *r = h->target->key_rows; r && r->path; r++) {
		if (r->base == QG_KB_HOST)
			add_key(o, r, h);
		else if (r->base == QG_KB_NIC && h->n_nics == 1)
			add_nic_key(o, r, &h->nics[0]);
		else if (r->items && h->n_nics > 1)
			add_nics(o, r, h, last);
	}
	return o;
}

/* One distributed switch: its keys and its hosts by name. */
static cJSON *dvs_json(const struct qg_model *m, const struct qg_dvs *s)
{
	cJSON *o = cJSON_CreateObject();
	add_keys(o, "dvs[]", QG_KB_DVS, s);
	cJSON *hs = cJSON_AddArrayToObject(o, "hosts");
	for (size_t k = 0; k < s->n_hosts; k++)
		cJSON_AddItemToArray(hs, cJSON_CreateString(m->hosts[s->hosts[k]].name));
	return o;
}

/* One verify pair: its hosts by name, its floor and the rails it runs. */
static cJSON *pair_json(const struct qg_model *m, const struct qg_pair *p)
{
	char num[24];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "client", m->hosts[p->client].name);
	cJSON_AddStringToObject(o, "server", m->hosts[p->server].name);
	qg_centi_format(p->min_gbps_centi, num);
	cJSON_AddRawToObject(o, "min_gbps", num);
	/*
	 * The rails verify runs, `all` resolved to its indices (what it means
	 * for these hosts); left out when the intent names none, so older
	 * intents hash as before.
	 */
	cJSON *rails = p->rails_given ? cJSON_AddArrayToObject(o, "rails") : NULL;
	for (size_t k = 0; rails && k < p->n_rails; k++)
		cJSON_AddItemToArray(rails, cJSON_CreateNumber((double)p->rails[k]));
	return o;
}

/* One acknowledged warning: its name and the reason given (null: none). */
static cJSON *ack_json(const struct qg_model *m, const struct qg_ack *a)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "warning", qg_warning_set_info(&m->warnings, a->warning)->name);
	if (a->because[0])
		cJSON_AddStringToObject(o, "because", a->because);
	else
		cJSON_AddNullToObject(o, "because");
	return o;
}

cJSON *qg_model_json(const struct qg_model *m)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "version", m->version);
	cJSON_AddStringToObject(root, "fabric", m->fabric);
	qos_json(cJSON_AddObjectToObject(root, "qos"), &m->qos);
	cJSON *sw = cJSON_AddArrayToObject(root, "switches");
	for (size_t i = 0; i < m->n_switches; i++)
		cJSON_AddItemToArray(sw, switch_json(&m->switches[i]));
	cJSON *hosts = cJSON_AddArrayToObject(root, "hosts");
	struct nics_made last = {0};
	for (size_t i = 0; i < m->n_hosts; i++)
		cJSON_AddItemToArray(hosts, host_json(&m->hosts[i], &last));
	cJSON *dvs = cJSON_AddArrayToObject(root, "dvs");
	for (size_t i = 0; i < m->n_dvs; i++)
		cJSON_AddItemToArray(dvs, dvs_json(m, &m->dvs[i]));
	cJSON *vf = cJSON_AddObjectToObject(root, "verify");
	cJSON *pairs = cJSON_AddArrayToObject(vf, "pairs");
	for (size_t i = 0; i < m->verify.n_pairs; i++)
		cJSON_AddItemToArray(pairs, pair_json(m, &m->verify.pairs[i]));
	add_keys(vf, "verify", QG_KB_VERIFY, &m->verify);
	/* Left out when the intent acknowledges nothing, so older intents hash as before. */
	cJSON *acks = m->n_acks ? cJSON_AddArrayToObject(root, "acknowledge") : NULL;
	for (size_t i = 0; acks && i < m->n_acks; i++)
		cJSON_AddItemToArray(acks, ack_json(m, &m->acks[i]));
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
