/* SPDX-License-Identifier: MIT */
/*
 * The pure half of the DVS push: what differs between a read-back state and
 * the intent (the plan), and the ReconfigureDvs_Task request that changes
 * the switch itself. No I/O: dvs_push.c reads and sends.
 */
#include "dvs_plan.h"
#include "../../lib/escape.h"

#include <stdio.h>
#include <string.h>

/*
 * A value vCenter sent (a NIC's name, an option's value), escaped for the
 * terminal as the plan's lines are printed: a newline in it must not start a
 * line of its own. The state keeps the raw value, which goes back exactly.
 */
static void put_esc(struct qg_buf *out, const char *s)
{
	qg_escape_append(out, s, strlen(s));
}

static bool has_uplink(const struct dvs_host_state *h)
{
	for (size_t p = 0; p < h->n_pnics; p++)
		if (!strcmp(h->pnics[p].device, h->h->uplink))
			return true;
	return false;
}

/* The switch's reconfigure adds the host, or its uplink NIC to it. */
static bool joins(const struct dvs_host_state *h)
{
	return h->found && (!h->member || !has_uplink(h));
}

/* The host's membership: on the switch with its RoCE uplink. */
static int plan_member(const struct dvs_host_state *h, struct qg_buf *out)
{
	if (!h->member) {
		qg_buf_printf(out, "[differs] host %s: on the switch: no -> yes, with %s\n",
			      h->h->name, h->h->uplink);
		return 1;
	}
	if (has_uplink(h))
		return 0;
	qg_buf_printf(out, "[differs] host %s: %s on the switch: no -> yes", h->h->name,
		      h->h->uplink);
	for (size_t p = 0; p < h->n_pnics; p++) {
		qg_buf_puts(out, p ? ", " : " (keeps ");
		put_esc(out, h->pnics[p].device);
	}
	qg_buf_puts(out, h->n_pnics ? ")\n" : "\n");
	return 1;
}

bool dvs_vnic_differs(const struct dvs_host_state *h)
{
	return h->vnic.found && h->vnic_mtu && h->vnic.mtu != h->vnic_mtu;
}

/* The pvrdma vmknic's MTU; push changes the MTU of one that is there, never makes one. */
static int plan_vnic(const struct dvs_host_state *h, struct qg_buf *out)
{
	if (!h->vnic.found) {
		qg_buf_printf(out,
			      "[n/a] host %s: no VMkernel NIC %s (add it on the RoCE portgroup; "
			      "push sets the MTU of one that is there)\n",
			      h->h->name, h->h->pvrdma_vmknic);
		return 0;
	}
	if (!dvs_vnic_differs(h))
		return 0;
	qg_buf_printf(out, "[differs] host %s: %s.mtu: %d -> %d\n", h->h->name, h->h->pvrdma_vmknic,
		      h->vnic.mtu, h->vnic_mtu);
	return 1;
}

static int plan_modules(const struct dvs_host_state *h, struct qg_buf *out)
{
	int n = 0;
	for (size_t k = 0; k < h->n_mod; k++) {
		const struct dvs_module *mo = &h->mod[k];
		if (mo->state == DVS_MODULE_NO_API) {
			qg_buf_printf(out,
				      "[n/a] host %s: module options: the endpoint has no "
				      "HostKernelModuleSystem (%s); the host script sets them "
				      "over SSH\n",
				      h->h->name, mo->why);
			return 0;
		}
		if (mo->state == DVS_MODULE_NOT_LOADED) {
			qg_buf_printf(out, "[n/a] host %s: module %s is not on this host\n",
				      h->h->name, mo->name);
			continue;
		}
		for (int c = 0; c < mo->n_changes; c++) {
			/* The key is one of the intent's; the value as the host has it. */
			qg_buf_printf(out, "[differs] host %s: %s.%s: ", h->h->name, mo->name,
				      mo->changes[c].key);
			put_esc(out, mo->changes[c].have[0] ? mo->changes[c].have : "unset");
			qg_buf_printf(out, " -> %s\n", mo->changes[c].want);
		}
		n += mo->n_changes;
	}
	if (n)
		qg_buf_printf(out,
			      "[reboot] host %s: module options apply at its next reboot "
			      "(maintenance mode first)\n",
			      h->h->name);
	return n;
}

int dvs_plan(const struct qg_model *m, size_t i, const struct dvs_state *st, struct qg_buf *out)
{
	const struct qg_dvs *d = &m->dvs[i];
	int n = 0;
	if (!st->found) {
		qg_buf_printf(out,
			      "[n/a] dvs: no switch named '%s' (create it with the govc script "
			      "of the build output)\n",
			      d->name);
		return 0;
	}
	if (st->max_mtu != d->mtu) {
		qg_buf_printf(out, "[differs] maxMtu: %d -> %d\n", st->max_mtu, d->mtu);
		n++;
	}
	if (st->uplinks < d->uplinks) {
		qg_buf_printf(out, "[differs] uplinks: %d -> %d\n", st->uplinks, d->uplinks);
		n++;
	} else if (st->uplinks > d->uplinks) {
		qg_buf_printf(out,
			      "[n/a] uplinks: %d, the intent says %d (push adds uplinks, never "
			      "removes one: a NIC may be on it)\n",
			      st->uplinks, d->uplinks);
	}
	if (d->portgroup[0] && !st->portgroup) {
		qg_buf_printf(out,
			      "[differs] portgroup %s: absent -> made (static binding, %d ports, "
			      "growing as needed)\n",
			      d->portgroup, DVS_PORTGROUP_PORTS);
		n++;
	}
	for (size_t k = 0; k < st->n_hosts; k++) {
		const struct dvs_host_state *h = &st->hosts[k];
		if (!h->found) {
			qg_buf_printf(
			    out, "[n/a] host %s: not in this vCenter (looked for '%s' and '%s')\n",
			    h->h->name, h->h->address, h->h->name);
			continue;
		}
		n += plan_member(h, out);
		if (h->h->pvrdma_vmknic[0]) {
			if (!h->vmknic_set || strcmp(h->vmknic, h->h->pvrdma_vmknic)) {
				qg_buf_printf(out, "[differs] host %s: %s: ", h->h->name,
					      DVS_PVRDMA_OPTION);
				put_esc(out, h->vmknic_set ? h->vmknic : "unset");
				qg_buf_printf(out, " -> %s\n", h->h->pvrdma_vmknic);
				n++;
			}
			if (!h->fw_known || !h->fw_enabled) {
				qg_buf_printf(
				    out, "[differs] host %s: firewall ruleset %s: %s -> enabled\n",
				    h->h->name, DVS_PVRDMA_RULESET,
				    h->fw_known ? "disabled" : "absent");
				n++;
			}
			n += plan_vnic(h, out);
		}
		n += plan_modules(h, out);
	}
	return n;
}

bool dvs_switch_differs(const struct qg_dvs *d, const struct dvs_state *st)
{
	if (st->max_mtu != d->mtu || st->uplinks < d->uplinks)
		return true;
	for (size_t k = 0; k < st->n_hosts; k++)
		if (joins(&st->hosts[k]))
			return true;
	return false;
}

/*
 * The uplink names: those the switch has, kept as they are (hosts' NICs sit
 * on them by name), then vCenter's own "Uplink N" for the new ones, N their
 * position (or the next number no uplink has).
 */
static bool add_uplinks(xmlNodePtr spec, const struct qg_dvs *d, const struct dvs_state *st)
{
	xmlNodePtr up =
	    vs_add_typed(spec, "uplinkPortPolicy", "DVSNameArrayUplinkPortPolicy", NULL);
	if (!up)
		return false;
	for (int k = 0; k < st->uplinks; k++)
		if (!vs_add(up, "uplinkPortName", st->uplink_names[k]))
			return false;
	for (int k = st->uplinks, n = st->uplinks + 1; k < d->uplinks; k++) {
		char name[24];
		bool taken;
		do {
			snprintf(name, sizeof(name), "Uplink %d", n++);
			taken = false;
			for (int j = 0; j < st->uplinks && !taken; j++)
				taken = !strcmp(st->uplink_names[j], name);
		} while (taken);
		if (!vs_add(up, "uplinkPortName", name))
			return false;
	}
	return true;
}

static bool add_pnic(xmlNodePtr backing, const struct dvs_pnic *p)
{
	xmlNodePtr n = vs_add(backing, "pnicSpec", NULL);
	return n && vs_add(n, "pnicDevice", p->device) &&
	       (!p->port_key[0] || vs_add(n, "uplinkPortKey", p->port_key)) &&
	       (!p->portgroup_key[0] || vs_add(n, "uplinkPortgroupKey", p->portgroup_key)) &&
	       (!p->cookie[0] || vs_add(n, "connectionCookie", p->cookie));
}

/*
 * A host joins with its uplink NIC (add), or a member gets it next to the
 * NICs it has (edit: the backing replaces the list, so they are all sent).
 */
static bool add_member(xmlNodePtr spec, const struct dvs_host_state *h)
{
	xmlNodePtr m = vs_add(spec, "host", NULL);
	xmlNodePtr backing = NULL;
	if (!m || !vs_add(m, "operation", h->member ? "edit" : "add") ||
	    !vs_add_ref(m, "host", h->ref.type, h->ref.value) ||
	    !(backing = vs_add_typed(m, "backing", "DistributedVirtualSwitchHostMemberPnicBacking",
				     NULL)))
		return false;
	for (size_t p = 0; p < h->n_pnics; p++)
		if (!add_pnic(backing, &h->pnics[p]))
			return false;
	struct dvs_pnic uplink;
	memset(&uplink, 0, sizeof(uplink));
	snprintf(uplink.device, sizeof(uplink.device), "%s", h->h->uplink);
	return add_pnic(backing, &uplink);
}

xmlDocPtr dvs_switch_request(const struct qg_dvs *d, const struct dvs_state *st)
{
	xmlDocPtr doc;
	xmlNodePtr req = vs_request(&doc, "ReconfigureDvs_Task", st->ref.type, st->ref.value);
	xmlNodePtr spec = req ? vs_add_typed(req, "spec", "VMwareDVSConfigSpec", NULL) : NULL;
	bool ok = spec && vs_add(spec, "configVersion", st->version);
	if (ok && st->uplinks < d->uplinks)
		ok = add_uplinks(spec, d, st);
	for (size_t k = 0; ok && k < st->n_hosts; k++) {
		const struct dvs_host_state *h = &st->hosts[k];
		if (joins(h))
			ok = add_member(spec, h);
	}
	if (ok && st->max_mtu != d->mtu) {
		char mtu[16];
		snprintf(mtu, sizeof(mtu), "%d", d->mtu);
		ok = vs_add(spec, "maxMtu", mtu) != NULL;
	}
	if (!ok) {
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

/* The NIC names of a host on the switch, as a set: the same ones, whatever their order. */
static bool same_nics(const struct dvs_host_state *a, const struct dvs_host_state *b)
{
	if (a->n_pnics != b->n_pnics)
		return false;
	for (size_t p = 0; p < a->n_pnics; p++) {
		bool there = false;
		for (size_t q = 0; q < b->n_pnics && !there; q++)
			there = !strcmp(a->pnics[p].device, b->pnics[q].device);
		if (!there)
			return false;
	}
	return true;
}

/* Net.PVRDMAVmknic: an option never set reads as ESXi's default, the empty string. */
static const char *vmknic_of(const struct dvs_host_state *h)
{
	return h->vmknic_set ? h->vmknic : "";
}

static bool fw_on(const struct dvs_host_state *h)
{
	return h->fw_known && h->fw_enabled;
}

bool dvs_at_before(const struct dvs_state *was, const struct dvs_state *now, char *why, size_t cap)
{
	if (was->max_mtu != now->max_mtu)
		return snprintf(why, cap, "maxMtu %d, was %d", now->max_mtu, was->max_mtu), false;
	if (was->uplinks != now->uplinks)
		return snprintf(why, cap, "%d uplinks, was %d", now->uplinks, was->uplinks), false;
	if (was->portgroup != now->portgroup)
		return snprintf(why, cap, "the portgroup is %s", now->portgroup ? "there" : "gone"),
		       false;
	for (size_t k = 0; k < was->n_hosts && k < now->n_hosts; k++) {
		const struct dvs_host_state *a = &was->hosts[k], *b = &now->hosts[k];
		const char *name = a->h ? a->h->name : "?";
		if (!a->found)
			continue;
		if (a->member != b->member || !same_nics(a, b))
			return snprintf(why, cap, "host %s: its NICs on the switch differ", name),
			       false;
		for (size_t j = 0; j < a->n_mod && j < b->n_mod; j++)
			if (a->mod[j].state == DVS_MODULE_READ &&
			    strcmp(a->mod[j].live, b->mod[j].live))
				return snprintf(why, cap, "host %s: module %s options differ", name,
						a->mod[j].name),
				       false;
		if (strcmp(vmknic_of(a), vmknic_of(b)))
			return snprintf(why, cap, "host %s: %s differs", name, DVS_PVRDMA_OPTION),
			       false;
		if (fw_on(a) != fw_on(b))
			return snprintf(why, cap, "host %s: firewall ruleset %s differs", name,
					DVS_PVRDMA_RULESET),
			       false;
		if (a->vnic.found &&
		    (!b->vnic.found || a->vnic.mtu != b->vnic.mtu ||
		     strcmp(a->vnic.ip, b->vnic.ip) || strcmp(a->vnic.mac, b->vnic.mac) ||
		     strcmp(a->vnic.portgroup, b->vnic.portgroup)))
			return snprintf(why, cap, "host %s: its pvrdma VMkernel NIC differs", name),
			       false;
	}
	return true;
}

/* Does a host's membership differ from what it was: the restore's host spec. */
static bool member_differs(const struct dvs_host_state *was, const struct dvs_host_state *now)
{
	return was->found && (was->member != now->member || (was->member && !same_nics(was, now)));
}

bool dvs_switch_restore_differs(const struct dvs_state *was, const struct dvs_state *now)
{
	if ((was->max_mtu && was->max_mtu != now->max_mtu) || was->uplinks < now->uplinks)
		return true;
	for (size_t k = 0; k < was->n_hosts && k < now->n_hosts; k++)
		if (member_differs(&was->hosts[k], &now->hosts[k]))
			return true;
	return false;
}

/*
 * The member back as it was: removed where it was not on the switch, else
 * its NICs as the checkpoint read them (each on its own uplink port again).
 */
static bool restore_member(xmlNodePtr spec, const struct dvs_host_state *was,
			   const struct dvs_host_state *now)
{
	xmlNodePtr m = vs_add(spec, "host", NULL);
	const char *op = !was->member ? "remove" : now->member ? "edit" : "add";
	if (!m || !vs_add(m, "operation", op) ||
	    !vs_add_ref(m, "host", now->ref.type, now->ref.value))
		return false;
	if (!was->member)
		return true;
	xmlNodePtr backing =
	    vs_add_typed(m, "backing", "DistributedVirtualSwitchHostMemberPnicBacking", NULL);
	if (!backing)
		return false;
	for (size_t p = 0; p < was->n_pnics; p++)
		if (!add_pnic(backing, &was->pnics[p]))
			return false;
	return true;
}

xmlDocPtr dvs_restore_request(const struct dvs_state *was, const struct dvs_state *now)
{
	xmlDocPtr doc;
	xmlNodePtr req = vs_request(&doc, "ReconfigureDvs_Task", now->ref.type, now->ref.value);
	xmlNodePtr spec = req ? vs_add_typed(req, "spec", "VMwareDVSConfigSpec", NULL) : NULL;
	/* The live version: the checkpoint's is stale once the push changed the switch. */
	bool ok = spec && vs_add(spec, "configVersion", now->version);
	if (ok && was->uplinks < now->uplinks) {
		xmlNodePtr up =
		    vs_add_typed(spec, "uplinkPortPolicy", "DVSNameArrayUplinkPortPolicy", NULL);
		ok = up != NULL;
		for (int k = 0; ok && k < was->uplinks && k < DVS_MAX_UPLINKS; k++)
			ok = vs_add(up, "uplinkPortName", was->uplink_names[k]) != NULL;
	}
	for (size_t k = 0; ok && k < was->n_hosts && k < now->n_hosts; k++)
		if (member_differs(&was->hosts[k], &now->hosts[k]))
			ok = restore_member(spec, &was->hosts[k], &now->hosts[k]);
	/* An unset maxMtu cannot be sent back: dvs_at_before then says it differs. */
	if (ok && was->max_mtu && was->max_mtu != now->max_mtu) {
		char mtu[16];
		snprintf(mtu, sizeof(mtu), "%d", was->max_mtu);
		ok = vs_add(spec, "maxMtu", mtu) != NULL;
	}
	if (!ok) {
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}
