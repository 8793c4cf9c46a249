/* SPDX-License-Identifier: MIT */
/*
 * The read half of the DVS push: find the switch and the hosts, and read
 * into a struct dvs_state the values qosgen owns (dvs_plan.h), once before
 * a push and again after each change, through the vSphere API (vsphere/vim.c).
 */
#include "dvs_read.h"
#include "../../lib/errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int dvs_read_switch(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		    size_t errlen)
{
	static const char *const paths[] = {"config.maxMtu", "config.configVersion",
					    "config.uplinkPortPolicy", "config.host",
					    "summary.portgroupName"};
	xmlDocPtr doc;
	xmlNodePtr vals[5];
	if (vim_props(v, &(struct vim_query){.obj = &st->ref, .paths = paths, .n = 5}, &doc, vals,
		      err, errlen) != 0)
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
	if (vim_props(v, &(struct vim_query){.obj = &h->ref, .paths = paths, .n = 4}, &doc, vals,
		      err, errlen) != 0)
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
	if (vim_props(v, &(struct vim_query){.obj = &h->ref, .paths = paths, .n = 1}, &doc, vals,
		      err, errlen) != 0)
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
	if (vim_props(v, &(struct vim_query){.obj = &h->firewall, .paths = fw, .n = 1}, &doc, vals,
		      err, errlen) != 0)
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

int dvs_locate(struct vim *v, const struct qg_model *m, size_t i, struct dvs_state *st, char *err,
	       size_t errlen)
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

int dvs_read_state(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, char *err,
		   size_t errlen)
{
	if (st->found && dvs_read_switch(v, d, st, err, errlen) != 0)
		return -1;
	for (size_t k = 0; k < st->n_hosts; k++)
		if (read_host(v, &st->hosts[k], err, errlen) != 0)
			return -1;
	return 0;
}
