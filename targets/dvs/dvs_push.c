/* SPDX-License-Identifier: MIT */
/*
 * The I/O half of the DVS push: log in, locate, read the state, send what
 * dvs_plan.c says differs, read back. See dvs_push.h for the whole.
 */
#include "dvs_push.h"
#include "../../gen/errmsg.h"
#include "../../gen/escape.h"
#include "../driver.h"
#include "dvs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ReconfigureDvs_Task attempts when someone else changes the switch meanwhile. */
#define DVS_RETRIES 3

/*
 * How a call that changes something failed. The server refused it (a fault,
 * or a task that ended in error): that call changed nothing. Or its outcome
 * is unknown: the connection failed or the task had not finished in time
 * after the request went out.
 */
enum { DVS_REFUSED = -1, DVS_UNKNOWN = -2 };

static int failure(const char *fault)
{
	return fault[0] ? DVS_REFUSED : DVS_UNKNOWN;
}

/* What a push has done so far ("a, b" and how many), said with a failure part-way. */
struct done {
	struct qg_buf list;
	int n;
};

static void did(struct done *done, const char *what, const char *name)
{
	qg_buf_printf(&done->list, "%s%s%s", done->n++ ? ", " : "", what, name);
}

static int int_of(xmlNodePtr n)
{
	char *t = vs_text(n);
	int v = t ? atoi(t) : 0;
	free(t);
	return v;
}

/*
 * One host of config.host: which of ours it is, and its NICs on the switch.
 * An edit sends them back, so one that does not fit here is an error, never
 * a NIC cut short or left out.
 */
static int read_member(struct dvs_state *st, xmlNodePtr member, char *err, size_t errlen)
{
	xmlNodePtr cfg = vs_child(member, "config");
	char id[160];
	vim_path_text(cfg, "host", id, sizeof(id));
	st->members++;
	for (size_t k = 0; k < st->n_hosts; k++) {
		struct dvs_host_state *h = &st->hosts[k];
		if (!h->found || strcmp(h->ref.value, id))
			continue;
		h->member = true;
		xmlNodePtr backing = vs_child(cfg, "backing");
		for (xmlNodePtr p = vs_child(backing, "pnicSpec"); p; p = vs_next(p, "pnicSpec")) {
			struct dvs_pnic *n = &h->pnics[h->n_pnics];
			if (h->n_pnics == DVS_MAX_PNICS ||
			    !vim_path_text(p, "pnicDevice", n->device, sizeof(n->device)) ||
			    !vim_path_text(p, "uplinkPortKey", n->port_key, sizeof(n->port_key)) ||
			    !vim_path_text(p, "uplinkPortgroupKey", n->portgroup_key,
					   sizeof(n->portgroup_key)) ||
			    !vim_path_text(p, "connectionCookie", n->cookie, sizeof(n->cookie)))
				return qg_errf(err, errlen,
					       "host %s: its NICs on the switch are more or longer "
					       "than qosgen can send back (%d NICs)",
					       h->h->name, DVS_MAX_PNICS);
			h->n_pnics++;
		}
	}
	return 0;
}

static int read_dvs(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		    size_t errlen)
{
	static const char *const paths[] = {"config.maxMtu", "config.configVersion",
					    "config.uplinkPortPolicy", "config.host",
					    "summary.portgroupName"};
	xmlDocPtr doc;
	xmlNodePtr vals[5];
	if (vim_props(v, &st->ref, paths, 5, &doc, vals, err, errlen) != 0)
		return -1;
	st->portgroup = false;
	for (xmlNodePtr n = vs_child(vals[4], NULL); n && d->portgroup[0]; n = vs_next(n, NULL)) {
		char *name = vs_text(n);
		st->portgroup |= name && !strcmp(name, d->portgroup);
		free(name);
	}
	st->max_mtu = int_of(vals[0]);
	char *t = vs_text(vals[1]);
	snprintf(st->version, sizeof(st->version), "%s", t ? t : "");
	free(t);
	/* vcsim leaves the policy out of a switch made without one: no uplinks. */
	st->uplinks = 0;
	for (xmlNodePtr u = vs_child(vals[2], "uplinkPortName"); u;
	     u = vs_next(u, "uplinkPortName")) {
		/* Kept only to be sent back when uplinks are added: at most 32 (the intent's most).
		 */
		if (st->uplinks < DVS_MAX_UPLINKS) {
			char *name = vs_text(u);
			int w = snprintf(st->uplink_names[st->uplinks], sizeof(st->uplink_names[0]),
					 "%s", name ? name : "");
			free(name);
			if (w < 0 || (size_t)w >= sizeof(st->uplink_names[0])) {
				xmlFreeDoc(doc);
				return qg_errf(
				    err, errlen,
				    "uplink name longer than qosgen can send back: %.40s...",
				    st->uplink_names[st->uplinks]);
			}
		}
		st->uplinks++;
	}
	st->members = 0;
	for (size_t k = 0; k < st->n_hosts; k++) {
		st->hosts[k].member = false;
		st->hosts[k].n_pnics = 0;
	}
	int rc = 0;
	for (xmlNodePtr k = vs_child(vals[3], NULL); k && !rc; k = vs_next(k, NULL))
		rc = read_member(st, k, err, errlen);
	xmlFreeDoc(doc);
	return rc;
}

/* The host's object and its managers: looked up once per push. */
static int locate_host(struct vim *v, struct dvs_host_state *h, char *err, size_t errlen)
{
	int f = vim_find(v, "HostSystem", h->h->address, &h->ref, err, errlen);
	if (f == 1)
		f = vim_find(v, "HostSystem", h->h->name, &h->ref, err, errlen);
	if (f < 0)
		return -1;
	h->found = f == 0;
	if (!h->found)
		return 0;
	static const char *const paths[] = {
	    "configManager.advancedOption", "configManager.firewallSystem",
	    "configManager.kernelModuleSystem", "configManager.networkSystem"};
	xmlDocPtr doc;
	xmlNodePtr vals[4];
	if (vim_props(v, &h->ref, paths, 4, &doc, vals, err, errlen) != 0)
		return -1;
	vim_ref_of(vals[0], &h->options);
	vim_ref_of(vals[1], &h->firewall);
	vim_ref_of(vals[2], &h->modsys);
	vim_ref_of(vals[3], &h->netsys);
	xmlFreeDoc(doc);
	return 0;
}

/*
 * A module's configured option string, merged with the intent. Only faults
 * that say the API or the module is not there are states; others are errors.
 */
static int read_module(struct vim *v, const struct dvs_host_state *h, struct dvs_module *mo,
		       char *err, size_t errlen)
{
	mo->state = DVS_MODULE_NO_API;
	mo->n_changes = 0;
	mo->live[0] = mo->merged[0] = '\0';
	if (!h->modsys.value[0]) {
		snprintf(mo->why, sizeof(mo->why), "no configManager.kernelModuleSystem");
		return 0;
	}
	xmlDocPtr doc, resp;
	xmlNodePtr ret;
	char fault[64];
	xmlNodePtr req =
	    vs_request(&doc, "QueryConfiguredModuleOptionString", h->modsys.type, h->modsys.value);
	if (!req || !vs_add(req, "name", mo->name)) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0) {
		if (!strcmp(fault, "NotFound")) {
			mo->state = DVS_MODULE_NOT_LOADED;
			return 0;
		}
		/* vcsim names the manager in every host's configManager but has no such object. */
		if (!strcmp(fault, "ManagedObjectNotFound") || !strcmp(fault, "NotImplemented") ||
		    !strcmp(fault, "MethodNotFound")) {
			snprintf(mo->why, sizeof(mo->why), "%s", fault);
			return 0;
		}
		return -1;
	}
	bool fits = vim_path_text(ret, "returnval", mo->live, sizeof(mo->live));
	xmlFreeDoc(resp);
	if (!fits)
		return qg_errf(err, errlen,
			       "module %s: the option string is longer than %zu characters; "
			       "qosgen will not merge what it cannot read whole",
			       mo->name, sizeof(mo->live) - 1);
	mo->state = DVS_MODULE_READ;
	mo->n_changes = esxi_options_merge(mo->name, mo->live, &h->want, mo->merged,
					   sizeof(mo->merged), mo->changes, DVS_MAX_OPT_CHANGES);
	if (mo->n_changes < 0)
		return qg_errf(err, errlen, "module %s: the option string is too long to merge",
			       mo->name);
	return 0;
}

/*
 * The pvrdma vmknic among the host's VMkernel NICs: its MTU, and what the
 * MTU update must leave as it was (the address, MAC, portgroup).
 */
static int read_vnic(struct vim *v, struct dvs_host_state *h, char *err, size_t errlen)
{
	static const char *const paths[] = {"config.network.vnic"};
	xmlDocPtr doc;
	xmlNodePtr vals[1];
	if (vim_props(v, &h->ref, paths, 1, &doc, vals, err, errlen) != 0)
		return -1;
	memset(&h->vnic, 0, sizeof(h->vnic));
	for (xmlNodePtr n = vs_child(vals[0], NULL); n; n = vs_next(n, NULL)) {
		char dev[QG_IFNAME_LEN], mtu[16];
		vim_path_text(n, "device", dev, sizeof(dev));
		if (strcmp(dev, h->h->pvrdma_vmknic))
			continue;
		struct dvs_vnic *x = &h->vnic;
		x->found = true;
		vim_path_text(n, "spec.mtu", mtu, sizeof(mtu));
		x->mtu = atoi(mtu);
		vim_path_text(n, "spec.ip.ipAddress", x->ip, sizeof(x->ip));
		vim_path_text(n, "spec.mac", x->mac, sizeof(x->mac));
		/* A standard portgroup by name, a distributed one by key. */
		vim_path_text(n, "portgroup", x->portgroup, sizeof(x->portgroup));
		if (!x->portgroup[0])
			vim_path_text(n, "spec.distributedVirtualPort.portgroupKey", x->portgroup,
				      sizeof(x->portgroup));
	}
	xmlFreeDoc(doc);
	return 0;
}

/* The values push sets, from a located host. */
static int read_host(struct vim *v, struct dvs_host_state *h, char *err, size_t errlen)
{
	if (!h->found)
		return 0;
	for (size_t k = 0; k < h->n_mod; k++)
		if (read_module(v, h, &h->mod[k], err, errlen) != 0)
			return -1;
	if (!h->h->pvrdma_vmknic[0])
		return 0;
	xmlDocPtr doc;
	xmlNodePtr vals[1];

	/* An option that was never set does not exist: InvalidName, not an error. */
	char fault[64];
	xmlNodePtr req = vs_request(&doc, "QueryOptions", h->options.type, h->options.value);
	if (!req || !vs_add(req, "name", DVS_PVRDMA_OPTION)) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	xmlDocPtr resp;
	xmlNodePtr ret;
	h->vmknic_set = false;
	if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) == 0) {
		for (xmlNodePtr o = vs_child(ret, "returnval"); o; o = vs_next(o, "returnval")) {
			char key[128];
			vim_path_text(o, "key", key, sizeof(key));
			if (!strcmp(key, DVS_PVRDMA_OPTION)) {
				vim_path_text(o, "value", h->vmknic, sizeof(h->vmknic));
				h->vmknic_set = true;
			}
		}
		xmlFreeDoc(resp);
	} else if (strcmp(fault, "InvalidName")) {
		return -1;
	}

	static const char *const fw[] = {"firewallInfo"};
	if (vim_props(v, &h->firewall, fw, 1, &doc, vals, err, errlen) != 0)
		return -1;
	h->fw_known = h->fw_enabled = false;
	for (xmlNodePtr rs = vs_child(vals[0], "ruleset"); rs; rs = vs_next(rs, "ruleset")) {
		char key[64], enabled[16];
		vim_path_text(rs, "key", key, sizeof(key));
		vim_path_text(rs, "enabled", enabled, sizeof(enabled));
		if (!strcmp(key, DVS_PVRDMA_RULESET)) {
			h->fw_known = true;
			h->fw_enabled = !strcmp(enabled, "true");
		}
	}
	xmlFreeDoc(doc);
	return read_vnic(v, h, err, errlen);
}

/* Find the switch and the hosts by name: once per push (each find is a ContainerView). */
static int locate(struct vim *v, const struct qg_model *m, size_t i, struct dvs_state *st,
		  char *err, size_t errlen)
{
	int f = vim_find(v, "DistributedVirtualSwitch", m->dvs[i].name, &st->ref, err, errlen);
	if (f < 0)
		return -1;
	st->found = f == 0;
	for (size_t k = 0; k < st->n_hosts; k++)
		if (locate_host(v, &st->hosts[k], err, errlen) != 0)
			return -1;
	return 0;
}

/* The values of what locate() found: before the push, and again to prove it. */
static int read_state(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		      size_t errlen)
{
	if (st->found && read_dvs(v, d, st, err, errlen) != 0)
		return -1;
	for (size_t k = 0; k < st->n_hosts; k++)
		if (read_host(v, &st->hosts[k], err, errlen) != 0)
			return -1;
	return 0;
}

/*
 * One ReconfigureDvs_Task with the version just read; on a concurrent change
 * the switch is read again and the request made anew from what is there now.
 */
static int set_switch(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, int wait_s,
		      int *retries, char *err, size_t errlen)
{
	for (int attempt = 0;; attempt++) {
		char fault[64];
		xmlDocPtr doc = dvs_switch_request(d, st);
		if (!doc)
			return qg_errf(err, errlen, "out of memory");
		xmlDocPtr resp;
		xmlNodePtr ret;
		if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
			return failure(fault);
		struct vim_ref task;
		vim_ref_of(vs_child(ret, "returnval"), &task);
		xmlFreeDoc(resp);
		if (vim_wait_task(v, &task, wait_s, fault, sizeof(fault), err, errlen) == 0)
			return 0;
		if (strcmp(fault, "ConcurrentAccess") || attempt + 1 >= DVS_RETRIES)
			return failure(fault);
		(*retries)++;
		/* Refused, and nothing sent since: a failed re-read leaves it refused. */
		if (read_dvs(v, d, st, err, errlen) != 0)
			return DVS_REFUSED;
		if (!dvs_switch_differs(d, st))
			return 0; /* the other change already did it */
	}
}

/*
 * The intent's portgroup, as vCenter makes a default one: static (early)
 * binding, a few ports that grow as VMs are connected. Its own task.
 */
static int add_portgroup(struct vim *v, const struct qg_dvs *d, const struct dvs_state *st,
			 int wait_s, char *err, size_t errlen)
{
	xmlDocPtr doc, resp;
	xmlNodePtr ret;
	char fault[64], ports[16];
	snprintf(ports, sizeof(ports), "%d", DVS_PORTGROUP_PORTS);
	xmlNodePtr req = vs_request(&doc, "AddDVPortgroup_Task", st->ref.type, st->ref.value);
	xmlNodePtr spec = req ? vs_add(req, "spec", NULL) : NULL;
	/* Fields in the schema's order. */
	if (!spec || !vs_add(spec, "name", d->portgroup) || !vs_add(spec, "numPorts", ports) ||
	    !vs_add(spec, "type", "earlyBinding") || !vs_add(spec, "autoExpand", "true")) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
		return failure(fault);
	struct vim_ref task;
	vim_ref_of(vs_child(ret, "returnval"), &task);
	xmlFreeDoc(resp);
	if (vim_wait_task(v, &task, wait_s, fault, sizeof(fault), err, errlen) != 0)
		return failure(fault);
	return 0;
}

/*
 * One call of a host's settings: sent, and on success named in done
 * ("esx01 Net.PVRDMAVmknic"). NULL req: building it ran out of memory.
 */
static int host_call(struct vim *v, xmlDocPtr doc, xmlNodePtr req, const struct dvs_host_state *h,
		     const char *what, struct done *done, char *err, size_t errlen)
{
	char fault[64];
	if (!req) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vim_invoke(v, doc, fault, sizeof(fault), err, errlen) != 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		qg_errf(err, errlen, "%s: %s", what, why);
		return failure(fault);
	}
	char name[160];
	snprintf(name, sizeof(name), "%s %s", h->h->name, what);
	did(done, "", name);
	return 0;
}

/* The host's own settings; each call is atomic on the server, each done one is named in done. */
static int set_host(struct vim *v, const struct dvs_host_state *h, struct done *done, char *err,
		    size_t errlen)
{
	xmlDocPtr doc;
	int rc = 0;
	for (size_t k = 0; k < h->n_mod && !rc; k++) {
		const struct dvs_module *mo = &h->mod[k];
		if (!mo->n_changes) /* also every module that was not read */
			continue;
		xmlNodePtr req =
		    vs_request(&doc, "UpdateModuleOptionString", h->modsys.type, h->modsys.value);
		char what[64];
		snprintf(what, sizeof(what), "%s options", mo->name);
		rc = host_call(v, doc,
			       req && vs_add(req, "name", mo->name) &&
				       vs_add(req, "options", mo->merged)
				   ? req
				   : NULL,
			       h, what, done, err, errlen);
	}
	if (rc || !h->h->pvrdma_vmknic[0])
		return rc;
	if (!h->vmknic_set || strcmp(h->vmknic, h->h->pvrdma_vmknic)) {
		xmlNodePtr req =
		    vs_request(&doc, "UpdateOptions", h->options.type, h->options.value);
		xmlNodePtr cv = req ? vs_add(req, "changedValue", NULL) : NULL;
		rc = host_call(v, doc,
			       cv && vs_add(cv, "key", DVS_PVRDMA_OPTION) &&
				       vs_add_typed(cv, "value", "xsd:string", h->h->pvrdma_vmknic)
				   ? req
				   : NULL,
			       h, DVS_PVRDMA_OPTION, done, err, errlen);
	}
	if (!rc && (!h->fw_known || !h->fw_enabled)) {
		xmlNodePtr req =
		    vs_request(&doc, "EnableRuleset", h->firewall.type, h->firewall.value);
		rc = host_call(v, doc, req && vs_add(req, "id", DVS_PVRDMA_RULESET) ? req : NULL, h,
			       "ruleset " DVS_PVRDMA_RULESET, done, err, errlen);
	}
	if (!rc && dvs_vnic_differs(h)) {
		if (!h->netsys.value[0])
			return qg_errf(err, errlen,
				       "no configManager.networkSystem to set %s's MTU",
				       h->h->pvrdma_vmknic);
		/*
		 * Only the MTU: the spec's unset fields stay as they are (PowerCLI's
		 * Set-VMHostNetworkAdapter -Mtu sends the same), so the address and
		 * portgroup are never sent back; the read-back proves they held.
		 */
		char mtu[16], what[QG_IFNAME_LEN + 8];
		snprintf(mtu, sizeof(mtu), "%d", h->vnic_mtu);
		snprintf(what, sizeof(what), "%s.mtu", h->h->pvrdma_vmknic);
		xmlNodePtr req =
		    vs_request(&doc, "UpdateVirtualNic", h->netsys.type, h->netsys.value);
		xmlNodePtr nic = req && vs_add(req, "device", h->h->pvrdma_vmknic)
				     ? vs_add(req, "nic", NULL)
				     : NULL;
		rc = host_call(v, doc, nic && vs_add(nic, "mtu", mtu) ? req : NULL, h, what, done,
			       err, errlen);
	}
	return rc;
}

/* Of one host, what a push must leave in place. */
struct kept {
	char nics[DVS_MAX_PNICS][QG_IFNAME_LEN];
	size_t n_nics;
	char sent[DVS_MAX_MODULES][1024]; /* "" where the module is not changed */
	struct dvs_vnic vnic; /* as read before an MTU update; not found: no update sent */
};

static void keep(const struct dvs_host_state *h, struct kept *k)
{
	memset(k, 0, sizeof(*k));
	for (size_t p = 0; p < h->n_pnics; p++)
		snprintf(k->nics[k->n_nics++], QG_IFNAME_LEN, "%s", h->pnics[p].device);
	for (size_t j = 0; j < h->n_mod; j++)
		if (h->mod[j].n_changes)
			snprintf(k->sent[j], sizeof(k->sent[j]), "%s", h->mod[j].merged);
	/* Only a vmknic whose MTU push changes: another's address may change by DHCP meanwhile. */
	if (dvs_vnic_differs(h))
		k->vnic = h->vnic;
}

/*
 * The proof that nothing was clobbered: every NIC a host had on the switch is
 * still on it, each module string reads back exactly as sent, and the pvrdma
 * vmknic kept its address, MAC and portgroup.
 */
static bool lost(const struct dvs_state *after, const struct kept *kept, char *err, size_t errlen)
{
	for (size_t k = 0; k < after->n_hosts; k++) {
		const struct dvs_host_state *h = &after->hosts[k];
		for (size_t p = 0; p < kept[k].n_nics; p++) {
			bool there = false;
			for (size_t q = 0; q < h->n_pnics && !there; q++)
				there = !strcmp(h->pnics[q].device, kept[k].nics[p]);
			if (!there) {
				qg_errf(err, errlen, "host %s: %s is no longer on the switch",
					h->h->name, kept[k].nics[p]);
				return true;
			}
		}
		for (size_t j = 0; j < h->n_mod; j++)
			if (kept[k].sent[j][0] && strcmp(kept[k].sent[j], h->mod[j].live)) {
				qg_errf(
				    err, errlen, "host %s: module %s options read '%s', sent '%s'",
				    h->h->name, h->mod[j].name, h->mod[j].live, kept[k].sent[j]);
				return true;
			}
		const struct dvs_vnic *was = &kept[k].vnic, *is = &h->vnic;
		if (was->found && !is->found) {
			qg_errf(err, errlen, "host %s: %s is gone", h->h->name,
				h->h->pvrdma_vmknic);
			return true;
		}
		if (!was->found)
			continue;
		const struct {
			const char *what, *was, *is;
		} f[] = {{"address", was->ip, is->ip},
			 {"MAC", was->mac, is->mac},
			 {"portgroup", was->portgroup, is->portgroup}};
		char changed[512] = "";
		size_t used = 0;
		for (size_t j = 0; j < sizeof(f) / sizeof(f[0]); j++)
			if (strcmp(f[j].was, f[j].is) && used < sizeof(changed))
				used += (size_t)snprintf(changed + used, sizeof(changed) - used,
							 "%s%s '%s' -> '%s'", used ? ", " : "",
							 f[j].what, f[j].was, f[j].is);
		if (changed[0]) {
			qg_errf(err, errlen, "host %s: %s changed beyond its MTU: %s", h->h->name,
				h->h->pvrdma_vmknic, changed);
			return true;
		}
	}
	return false;
}

/* What each host should have: the module options and vmknic MTU the ESXi target sets. */
static int want_settings(const struct qg_model *m, const struct qg_dvs *d, struct dvs_state *st)
{
	for (size_t k = 0; k < d->n_hosts; k++) {
		struct dvs_host_state *h = &st->hosts[k];
		h->h = &m->hosts[d->hosts[k]];
		/* The member's own target says what it sets (the esxi target, QG_CAN_DVS_MEMBER).
		 */
		if (h->h->target->settings(m, d->hosts[k], &h->want) != 0 || h->want.oom)
			return -1;
		char names[DVS_MAX_MODULES][32];
		h->n_mod = esxi_options_modules(&h->want, names, DVS_MAX_MODULES);
		for (size_t j = 0; j < h->n_mod; j++)
			snprintf(h->mod[j].name, sizeof(h->mod[j].name), "%s", names[j]);
		/* The vmknic carries the hosts' MTU, as the ESXi script sets it. */
		h->vnic_mtu = h->h->pvrdma_vmknic[0] ? m->qos.mtu : 0;
	}
	return 0;
}

/*
 * A change that failed part-way: which, whether the server refused it (then it
 * changed nothing) or its outcome is unknown, and what was done before it.
 * Refused with nothing done before: the switch and hosts are as they were.
 */
static void say_failed(struct qg_push_result *r, const char *what, int how, const char *err,
		       const struct done *done)
{
	bool refused = how == DVS_REFUSED;
	r->state = refused && !done->n ? QG_PUSH_UNCHANGED : QG_PUSH_FAILED;
	r->lines_sent = done->n;
	qg_push_say(r, "%s failed (%s): %s; %s%s%s", what, refused ? "refused" : "outcome unknown",
		    err, refused ? "" : "qosgen diff shows whether it was applied; ",
		    done->n ? "done before it: " : "nothing was changed before it",
		    done->n ? done->list.data : "");
}

/* What push leaves to others, said in every outcome ("; 2 notes (...)"); the lines are in qosgen
 * diff. */
static void notes_of(const char *plan, char *notes, size_t cap)
{
	int n = 0;
	for (const char *p = plan; p && (p = strstr(p, "[n/a]")); p++)
		n++;
	notes[0] = '\0';
	if (n)
		snprintf(notes, cap, "; %d note%s (not changed by push: qosgen diff lists %s)", n,
			 n == 1 ? "" : "s", n == 1 ? "it" : "them");
}

/* One push's changes: the calls made so far, the retries, the hosts to reboot. */
struct sending {
	struct vim *v;
	const struct qg_dvs *d;
	struct dvs_state *st;
	int wait_s, retries;
	struct done done;
	struct qg_buf reboot;
	struct kept *kept;
};

/* The hosts' own settings, each call atomic on the server. 0, or -1 with r said. */
static int send_hosts(struct sending *x, struct qg_push_result *r)
{
	char err[1024];
	/* What was there and must still be: the NICs as last read, the module strings as sent. */
	x->kept = malloc(x->st->n_hosts * sizeof(*x->kept) + 1);
	if (!x->kept) {
		say_failed(r, "the hosts' settings", DVS_REFUSED, "out of memory", &x->done);
		return -1;
	}
	for (size_t k = 0; k < x->st->n_hosts; k++)
		keep(&x->st->hosts[k], &x->kept[k]);
	for (size_t k = 0; k < x->st->n_hosts; k++) {
		const struct dvs_host_state *h = &x->st->hosts[k];
		if (!h->found)
			continue;
		bool modules = false;
		for (size_t j = 0; j < h->n_mod; j++)
			modules |= h->mod[j].n_changes > 0;
		if (modules)
			qg_buf_printf(&x->reboot, "%s%s", x->reboot.len ? ", " : "", h->h->name);
		int how = set_host(x->v, h, &x->done, err, sizeof(err));
		if (how) {
			char what[QG_LABEL_LEN + 8];
			snprintf(what, sizeof(what), "host %s", h->h->name);
			say_failed(r, what, how, err, &x->done);
			return -1;
		}
	}
	return 0;
}

/* Every change the plan holds, in order: switch, portgroup, hosts. 0, or -1 with r said. */
static int send_all(struct sending *x, struct qg_push_result *r)
{
	char err[1024];
	const struct qg_dvs *d = x->d;
	if (dvs_switch_differs(d, x->st)) {
		int how = set_switch(x->v, d, x->st, x->wait_s, &x->retries, err, sizeof(err));
		if (how) {
			say_failed(r, "the switch's reconfigure", how, err, &x->done);
			return -1;
		}
		did(&x->done, "the switch's reconfigure", "");
	}
	if (d->portgroup[0] && !x->st->portgroup) {
		int how = add_portgroup(x->v, d, x->st, x->wait_s, err, sizeof(err));
		if (how) {
			char what[QG_LABEL_LEN + 16];
			snprintf(what, sizeof(what), "portgroup %s", d->portgroup);
			say_failed(r, what, how, err, &x->done);
			return -1;
		}
		did(&x->done, "portgroup ", d->portgroup);
	}
	return send_hosts(x, r);
}

/* The read-back after the changes: in sync and nothing clobbered, or FAILED with why. */
static void prove(const struct qg_model *m, size_t i, struct sending *x, int n, int was,
		  const char *before, const char *notes, struct qg_push_result *r)
{
	char err[1024];
	struct dvs_state after = *x->st; /* same objects, values read again */
	struct qg_buf left = {0};
	if (read_state(x->v, x->d, &after, err, sizeof(err)) != 0 ||
	    dvs_plan(m, i, &after, &left) != 0) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "still differs after the push: %s", left.data ? left.data : err);
	} else if (lost(&after, x->kept, err, sizeof(err))) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "read back: %s", err);
	} else {
		r->state = QG_PUSH_CONVERGED;
		char retry[64] = "";
		if (x->retries)
			snprintf(retry, sizeof(retry), ", %d retr%s after a concurrent change",
				 x->retries, x->retries == 1 ? "y" : "ies");
		qg_push_say(r,
			    "%d setting%s changed, read back in sync (maxMtu %d -> %d, "
			    "configVersion %s -> %s%s)%s%s%s%s",
			    n, n == 1 ? "" : "s", was, after.max_mtu, before, after.version, retry,
			    x->reboot.len ? "; reboot " : "", x->reboot.len ? x->reboot.data : "",
			    x->reboot.len ? " to apply the module options" : "", notes);
	}
	qg_buf_free(&left);
}

/* Read, plan, and (not a dry run) send and prove: r says how it ended. */
static void push_state(const struct qg_model *m, size_t i, const char *url, bool dry_run,
		       struct sending *x, struct qg_push_result *r)
{
	const struct qg_dvs *d = x->d;
	struct dvs_state *st = x->st;
	struct qg_buf plan = {0};
	int n = dvs_plan(m, i, st, &plan);
	char notes[96];
	notes_of(plan.data, notes, sizeof(notes));
	r->lines_planned = n;
	qg_buf_append(&r->sent, plan.data ? plan.data : "", plan.len);
	qg_buf_free(&plan);
	if (!st->found) {
		qg_push_say(r, "no distributed switch named '%s' in %s", d->name, url);
		return;
	}
	if (n == 0) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync: maxMtu %d, configVersion %s, %d host%s on the switch%s",
			    st->max_mtu, st->version, st->members, st->members == 1 ? "" : "s",
			    notes);
		return;
	}
	if (dry_run) {
		r->state = QG_PUSH_WOULD_CHANGE;
		qg_push_say(r, "%d setting%s would change (dry run: nothing changed)%s", n,
			    n == 1 ? "" : "s", notes);
		return;
	}
	/* Each call is atomic on the server; the read-back after them is the proof. */
	int was = st->max_mtu;
	char before[64];
	snprintf(before, sizeof(before), "%s", st->version);
	if (send_all(x, r) != 0)
		return;
	r->lines_sent = n;
	prove(m, i, x, n, was, before, notes, r);
}

/*
 * The DVS push is not an adapter of targets/engine.c: vCenter has no
 * checkpoint to roll back to, each call is atomic on the server, and a
 * failure part-way is said as FAILED with every call done before it, which
 * tests/e2e/vsphere.sh pins; see "Push (DVS, through the vSphere API)".
 */
static int dvs_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	const struct qg_tls_opts *o = &a->tls;
	(void)ctx;
	const struct qg_dvs *d = &m->dvs[i];
	char err[1024], url[512] = "";
	struct dvs_state st = {.n_hosts = d->n_hosts};
	struct sending x = {.d = d, .st = &st, .wait_s = o->timeout_s > 0 ? o->timeout_s : 120};
	r->state = QG_PUSH_UNCHANGED;
	st.hosts = calloc(d->n_hosts + 1, sizeof(*st.hosts));
	if (!st.hosts) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	if (want_settings(m, d, &st) != 0)
		qg_push_say(r, "out of memory");
	else if (dvs_login(d, o, &x.v, url, sizeof(url), err, sizeof(err)) != 0 ||
		 locate(x.v, m, i, &st, err, sizeof(err)) != 0 ||
		 read_state(x.v, d, &st, err, sizeof(err)) != 0)
		qg_push_say(r, "%s", err);
	else
		push_state(m, i, url, dry_run, &x, r);
	/*
	 * The message holds vCenter's text (a configVersion, a module string read
	 * back, a vmknic's address, a fault): escaped for the terminal, once,
	 * here (escaping is idempotent on what vsphere/ escaped already).
	 */
	char *said = qg_escape(r->message);
	if (said)
		snprintf(r->message, sizeof(r->message), "%s", said);
	free(said);
	qg_buf_free(&x.reboot);
	qg_buf_free(&x.done.list);
	vim_close(x.v);
	free(x.kept);
	for (size_t k = 0; k < st.n_hosts; k++)
		qg_settings_free(&st.hosts[k].want);
	free(st.hosts);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}

const struct qg_driver qg_driver_dvs = {.target = &qg_target_dvs, .push = dvs_push};
