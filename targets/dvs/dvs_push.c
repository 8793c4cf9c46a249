/* SPDX-License-Identifier: MIT */
/*
 * The DVS push's steps for the engine: log in, read back (dvs_read.c), plan
 * (dvs_plan.c), keep the checkpoint, send what differs, judge a read-back,
 * roll back. See dvs_push.h for the whole.
 */
#include "dvs_push.h"
#include "dvs_endpoint.h"
#include "dvs_read.h"
#include "../engine.h"
#include "../../lib/errmsg.h"
#include "../../lib/escape.h"
#include "../driver.h"
#include "dvs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ReconfigureDvs_Task attempts when someone else changes the switch meanwhile. */
#define DVS_RETRIES 3

/*
 * How a call that changes something failed, as an engine step. The server
 * refused it (a fault, or a task that ended in error): that call changed
 * nothing, REFUSED. Or its outcome is unknown: the connection failed (LOST),
 * or the task had not finished within --timeout (TIMED_OUT: it may still run).
 */
static int failure(const char *fault, bool timed_out)
{
	return fault[0] ? QG_STEP_REFUSED : timed_out ? QG_STEP_TIMED_OUT : QG_STEP_LOST;
}

/* Wait for a task that was sent: enum qg_step. */
static int wait_task(struct vim *v, const struct vim_ref *task, int wait_s, char *err,
		     size_t errlen)
{
	char fault[64];
	double t0 = qg_monotonic_s();
	if (vim_wait_task(v, task, wait_s, fault, sizeof(fault), err, errlen) == 0)
		return QG_STEP_OK;
	return failure(fault, qg_monotonic_s() - t0 >= wait_s);
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
			return qg_errf(err, errlen, "out of memory"), QG_STEP_REFUSED;
		xmlDocPtr resp;
		xmlNodePtr ret;
		if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
			return failure(fault, false);
		struct vim_ref task;
		vim_ref_of(vs_child(ret, "returnval"), &task);
		xmlFreeDoc(resp);
		double t0 = qg_monotonic_s();
		if (vim_wait_task(v, &task, wait_s, fault, sizeof(fault), err, errlen) == 0)
			return 0;
		if (strcmp(fault, "ConcurrentAccess") || attempt + 1 >= DVS_RETRIES)
			return failure(fault, qg_monotonic_s() - t0 >= wait_s);
		(*retries)++;
		/* Refused, and nothing sent since: a failed re-read leaves it refused. */
		if (dvs_read_switch(v, d, st, err, errlen) != 0)
			return QG_STEP_REFUSED;
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
		return qg_errf(err, errlen, "out of memory"), QG_STEP_REFUSED;
	}
	if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
		return failure(fault, false);
	struct vim_ref task;
	vim_ref_of(vs_child(ret, "returnval"), &task);
	xmlFreeDoc(resp);
	return wait_task(v, &task, wait_s, err, errlen);
}

/*
 * One call of a host's settings: sent, and on success named in done
 * ("esx01 Net.PVRDMAVmknic").
 */
/* A call of a host's settings or of the rollback: its request, built whole or not, its name. */
struct dvs_call {
	xmlDocPtr doc;
	bool built; /* false: building it ran out of memory */
	const char *what;
};

static int host_call(struct vim *v, const struct dvs_call *c, const struct dvs_host_state *h,
		     struct done *done, char *err, size_t errlen)
{
	char fault[64];
	xmlDocPtr doc = c->doc;
	const char *what = c->what;
	if (!c->built) {
		xmlFreeDoc(doc);
		qg_errf(err, errlen, "out of memory");
		return QG_STEP_REFUSED;
	}
	if (vim_invoke(v, doc, fault, sizeof(fault), err, errlen) != 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		qg_errf(err, errlen, "%s: %s", what, why);
		return failure(fault, false);
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
		rc = host_call(v,
			       &(struct dvs_call){.doc = doc,
						  .built = req && vs_add(req, "name", mo->name) &&
							   vs_add(req, "options", mo->merged),
						  .what = what},
			       h, done, err, errlen);
	}
	if (rc || !h->h->pvrdma_vmknic[0])
		return rc;
	if (!h->vmknic_set || strcmp(h->vmknic, h->h->pvrdma_vmknic)) {
		xmlNodePtr req =
		    vs_request(&doc, "UpdateOptions", h->options.type, h->options.value);
		xmlNodePtr cv = req ? vs_add(req, "changedValue", NULL) : NULL;
		rc = host_call(v,
			       &(struct dvs_call){.doc = doc,
						  .built = cv &&
							   vs_add(cv, "key", DVS_PVRDMA_OPTION) &&
							   vs_add_typed(cv, "value", "xsd:string",
									h->h->pvrdma_vmknic),
						  .what = DVS_PVRDMA_OPTION},
			       h, done, err, errlen);
	}
	if (!rc && (!h->fw_known || !h->fw_enabled)) {
		xmlNodePtr req =
		    vs_request(&doc, "EnableRuleset", h->firewall.type, h->firewall.value);
		rc = host_call(
		    v,
		    &(struct dvs_call){.doc = doc,
				       .built = req && vs_add(req, "id", DVS_PVRDMA_RULESET),
				       .what = "ruleset " DVS_PVRDMA_RULESET},
		    h, done, err, errlen);
	}
	if (!rc && dvs_vnic_differs(h)) {
		if (!h->netsys.value[0]) {
			qg_errf(err, errlen, "no configManager.networkSystem to set %s's MTU",
				h->h->pvrdma_vmknic);
			return QG_STEP_REFUSED;
		}
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
		rc = host_call(v,
			       &(struct dvs_call){.doc = doc,
						  .built = nic && vs_add(nic, "mtu", mtu),
						  .what = what},
			       h, done, err, errlen);
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

/*
 * One push of one switch: the engine's session (targets/engine.h). st is
 * the first read-back, ckpt its copy kept as the checkpoint (vCenter has
 * none of its own: the values qosgen owns, read before the change, are it),
 * now the latest read-back. The objects are located once; a reconnect logs
 * in again and reads them by the same references.
 */
struct dvs_push {
	const struct qg_model *m;
	size_t i;
	const struct qg_dvs *d;
	const struct qg_tls_opts *o;
	struct vim *v;
	bool located;
	char url[512];
	int wait_s, retries;
	struct dvs_state st, ckpt, now;
	struct kept *kept;
	struct done done;
	struct qg_buf reboot;
	char notes[96];
	char why[1024];	   /* why the latest read-back is not in sync */
	char why_not[256]; /* why it is not back at the checkpoint */
};

static int dvs_open(void *dev, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	if (dvs_login(p->d, p->o, &p->v, p->url, sizeof(p->url), err, errlen) != 0)
		return -1;
	if (!p->located && dvs_locate(p->v, p->m, p->i, &p->st, err, errlen) != 0)
		return -1;
	p->located = true;
	return 0;
}

static void dvs_close(void *dev)
{
	struct dvs_push *p = dev;
	vim_close(p->v);
	p->v = NULL;
}

/* A copy of st with its own hosts: the same objects, values to be read into it. */
static int copy_state(const struct dvs_state *from, struct dvs_state *to)
{
	struct dvs_host_state *hosts = to->hosts;
	if (!hosts && !(hosts = calloc(from->n_hosts + 1, sizeof(*hosts))))
		return -1;
	*to = *from;
	to->hosts = hosts;
	memcpy(hosts, from->hosts, from->n_hosts * sizeof(*hosts));
	return 0;
}

static int dvs_read_back(void *dev, enum qg_push_slot slot, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	struct dvs_state *into = &p->st;
	if (slot == QG_READ_AFTER) {
		if (copy_state(&p->st, &p->now) != 0)
			return qg_errf(err, errlen, "out of memory"), QG_STEP_REFUSED;
		into = &p->now;
	}
	/* vsphere/ does not tell a lost connection from a refusal: either leaves it unread. */
	if (dvs_read_state(p->v, p->d, into, err, errlen) != 0)
		return QG_STEP_REFUSED;
	if (!into->found) {
		qg_errf(err, errlen, "no distributed switch named '%s' in %s", p->d->name, p->url);
		return QG_STEP_REFUSED;
	}
	return QG_STEP_OK;
}

static int dvs_plan_step(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	(void)err, (void)errlen;
	struct qg_buf plan = {0};
	r->lines_planned = dvs_plan(p->m, p->i, &p->st, &plan);
	notes_of(plan.data, p->notes, sizeof(p->notes));
	qg_buf_append(&r->sent, plan.data ? plan.data : "", plan.len);
	bool oom = plan.failed || r->sent.failed;
	qg_buf_free(&plan);
	return oom ? -1 : 0;
}

/* The checkpoint: the first read-back, kept in the session, and what must stay in place. */
static int dvs_checkpoint(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	(void)r;
	p->kept = malloc(p->st.n_hosts * sizeof(*p->kept) + 1);
	if (!p->kept || copy_state(&p->st, &p->ckpt) != 0)
		return qg_errf(err, errlen, "out of memory"), QG_STEP_REFUSED;
	for (size_t k = 0; k < p->st.n_hosts; k++)
		keep(&p->st.hosts[k], &p->kept[k]);
	return QG_STEP_OK;
}

/* A call that failed, with every call done before it: the cause the engine reports. */
static int failed(struct dvs_push *p, const char *what, int how, char *err, size_t errlen)
{
	char why[1024];
	snprintf(why, sizeof(why), "%s", err);
	qg_errf(err, errlen, "%s failed (%s): %s; %s%s", what,
		how == QG_STEP_REFUSED	   ? "refused"
		: how == QG_STEP_TIMED_OUT ? "still running"
					   : "connection lost",
		why, p->done.n ? "done before it: " : "nothing was changed before it",
		p->done.n ? p->done.list.data : "");
	return how;
}

/* Every change the plan holds, in order: switch, portgroup, hosts; each call atomic. */
static int dvs_apply(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	const struct qg_dvs *d = p->d;
	int how = QG_STEP_OK;
	if (dvs_switch_differs(d, &p->st)) {
		how = set_switch(p->v, d, &p->st, p->wait_s, &p->retries, err, errlen);
		if (how)
			return failed(p, "the switch's reconfigure", how, err, errlen);
		did(&p->done, "the switch's reconfigure", "");
	}
	r->lines_sent = p->done.n;
	if (d->portgroup[0] && !p->st.portgroup) {
		how = add_portgroup(p->v, d, &p->st, p->wait_s, err, errlen);
		if (how) {
			char what[QG_LABEL_LEN + 16];
			snprintf(what, sizeof(what), "portgroup %s", d->portgroup);
			return failed(p, what, how, err, errlen);
		}
		did(&p->done, "portgroup ", d->portgroup);
	}
	for (size_t k = 0; k < p->st.n_hosts; k++) {
		const struct dvs_host_state *h = &p->st.hosts[k];
		r->lines_sent = p->done.n;
		if (!h->found)
			continue;
		bool modules = false;
		for (size_t j = 0; j < h->n_mod; j++)
			modules |= h->mod[j].n_changes > 0;
		if (modules && !strstr(p->reboot.data ? p->reboot.data : "", h->h->name))
			qg_buf_printf(&p->reboot, "%s%s", p->reboot.len ? ", " : "", h->h->name);
		how = set_host(p->v, h, &p->done, err, errlen);
		r->lines_sent = p->done.n;
		if (how) {
			char what[QG_LABEL_LEN + 8];
			snprintf(what, sizeof(what), "host %s", h->h->name);
			return failed(p, what, how, err, errlen);
		}
	}
	r->lines_sent = r->lines_planned;
	return QG_STEP_OK;
}

/* In sync and nothing clobbered; else back at the checkpoint; else part-way. */
static enum qg_push_where dvs_compare(void *dev)
{
	struct dvs_push *p = dev;
	struct qg_buf left = {0};
	int n = dvs_plan(p->m, p->i, &p->now, &left);
	p->why[0] = '\0';
	if (n) {
		/* The first line that differs says why. */
		const char *l = left.data ? strstr(left.data, "[differs] ") : NULL;
		const char *e = l ? strchr(l, '\n') : NULL;
		if (l)
			snprintf(p->why, sizeof(p->why), "%.*s", (int)(e ? e - l : 200), l);
	} else if (p->kept && lost(&p->now, p->kept, p->why, sizeof(p->why))) {
		n = 1;
	}
	qg_buf_free(&left);
	if (!n)
		return QG_AT_INTENT;
	p->why_not[0] = '\0';
	return p->ckpt.hosts && dvs_at_before(&p->ckpt, &p->now, p->why_not, sizeof(p->why_not))
		   ? QG_AT_BEFORE
		   : QG_AT_NEITHER;
}

static void dvs_why(void *dev, enum qg_push_where at, char *out, size_t cap)
{
	const struct dvs_push *p = dev;
	snprintf(out, cap, "%s", at == QG_AT_INTENT ? p->why : p->why_not);
}

/* One call of the rollback, counted. */
static int undo(struct dvs_push *p, const struct dvs_call *c, struct qg_push_result *r, char *err,
		size_t errlen)
{
	char fault[64];
	xmlDocPtr doc = c->doc;
	const char *what = c->what;
	if (!c->built) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "%s: out of memory", what), QG_STEP_REFUSED;
	}
	if (vim_invoke(p->v, doc, fault, sizeof(fault), err, errlen) != 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		qg_errf(err, errlen, "%s: %s", what, why);
		return failure(fault, false);
	}
	r->lines_rolled_back++;
	return QG_STEP_OK;
}

/* A task of the rollback (the switch's reconfigure, the portgroup's removal), counted. */
static int undo_task(struct dvs_push *p, xmlDocPtr doc, const char *what, struct qg_push_result *r,
		     char *err, size_t errlen)
{
	char fault[64];
	xmlDocPtr resp;
	xmlNodePtr ret;
	if (!doc)
		return qg_errf(err, errlen, "%s: out of memory", what), QG_STEP_REFUSED;
	if (vim_invoke_ret(p->v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
		return failure(fault, false);
	struct vim_ref task;
	vim_ref_of(vs_child(ret, "returnval"), &task);
	xmlFreeDoc(resp);
	int rc = wait_task(p->v, &task, p->wait_s, err, errlen);
	if (rc != QG_STEP_OK) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		qg_errf(err, errlen, "%s: %s", what, why);
		return rc;
	}
	r->lines_rolled_back++;
	return QG_STEP_OK;
}

/* The portgroup the push made, removed (Destroy_Task): it had none of that name before. */
static int undo_portgroup(struct dvs_push *p, struct qg_push_result *r, char *err, size_t errlen)
{
	struct vim_ref pg;
	int f = vim_find(p->v, "DistributedVirtualPortgroup", p->d->portgroup, &pg, err, errlen);
	if (f != 0)
		return f < 0 ? QG_STEP_REFUSED : QG_STEP_OK;
	xmlDocPtr doc;
	if (!vs_request(&doc, "Destroy_Task", pg.type, pg.value)) {
		xmlFreeDoc(doc);
		doc = NULL;
	}
	return undo_task(p, doc, "removing the portgroup", r, err, errlen);
}

/* A host's own settings back as the checkpoint read them, from the latest read-back. */
static int undo_host(struct dvs_push *p, const struct dvs_host_state *was,
		     const struct dvs_host_state *now, struct qg_push_result *r, char *err,
		     size_t errlen)
{
	xmlDocPtr doc;
	int rc = QG_STEP_OK;
	for (size_t k = 0; k < was->n_mod && !rc; k++) {
		const struct dvs_module *a = &was->mod[k], *b = &now->mod[k];
		if (a->state != DVS_MODULE_READ || !strcmp(a->live, b->live))
			continue;
		xmlNodePtr req = vs_request(&doc, "UpdateModuleOptionString", now->modsys.type,
					    now->modsys.value);
		rc = undo(p,
			  &(struct dvs_call){.doc = doc,
					     .built = req && vs_add(req, "name", a->name) &&
						      vs_add(req, "options", a->live),
					     .what = a->name},
			  r, err, errlen);
	}
	/* An advanced option cannot be removed: never set goes back to "", ESXi's default. */
	const char *vk_was = was->vmknic_set ? was->vmknic : "";
	if (!rc && strcmp(vk_was, now->vmknic_set ? now->vmknic : "")) {
		xmlNodePtr req =
		    vs_request(&doc, "UpdateOptions", now->options.type, now->options.value);
		xmlNodePtr cv = req ? vs_add(req, "changedValue", NULL) : NULL;
		rc = undo(
		    p,
		    &(struct dvs_call){.doc = doc,
				       .built = cv && vs_add(cv, "key", DVS_PVRDMA_OPTION) &&
						vs_add_typed(cv, "value", "xsd:string", vk_was),
				       .what = DVS_PVRDMA_OPTION},
		    r, err, errlen);
	}
	if (!rc && was->fw_known && !was->fw_enabled && now->fw_known && now->fw_enabled) {
		xmlNodePtr req =
		    vs_request(&doc, "DisableRuleset", now->firewall.type, now->firewall.value);
		rc = undo(p,
			  &(struct dvs_call){.doc = doc,
					     .built = req && vs_add(req, "id", DVS_PVRDMA_RULESET),
					     .what = "ruleset " DVS_PVRDMA_RULESET},
			  r, err, errlen);
	}
	if (!rc && was->vnic.found && now->vnic.found && was->vnic.mtu != now->vnic.mtu &&
	    now->netsys.value[0]) {
		char mtu[16];
		snprintf(mtu, sizeof(mtu), "%d", was->vnic.mtu);
		xmlNodePtr req =
		    vs_request(&doc, "UpdateVirtualNic", now->netsys.type, now->netsys.value);
		xmlNodePtr nic = req && vs_add(req, "device", now->h->pvrdma_vmknic)
				     ? vs_add(req, "nic", NULL)
				     : NULL;
		rc = undo(p,
			  &(struct dvs_call){.doc = doc,
					     .built = nic && vs_add(nic, "mtu", mtu),
					     .what = "vmknic MTU"},
			  r, err, errlen);
	}
	return rc;
}

/*
 * Back to the checkpoint from the latest read-back, in the push's reverse
 * order: the hosts' settings, the portgroup, the switch (one
 * ReconfigureDvs_Task with the live configVersion). The engine's read-back
 * after it proves it.
 */
static int dvs_roll_back(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct dvs_push *p = dev;
	const struct dvs_state *was = &p->ckpt, *now = &p->now;
	int rc = QG_STEP_OK;
	for (size_t k = 0; k < was->n_hosts && !rc; k++)
		if (was->hosts[k].found && now->hosts[k].found)
			rc = undo_host(p, &was->hosts[k], &now->hosts[k], r, err, errlen);
	if (!rc && !was->portgroup && now->portgroup && p->d->portgroup[0])
		rc = undo_portgroup(p, r, err, errlen);
	if (!rc && dvs_switch_restore_differs(was, now))
		rc = undo_task(p, dvs_restore_request(was, now), "the switch's reconfigure", r, err,
			       errlen);
	return rc;
}

/* vCenter keeps each change as it is made: nothing to save. */
static int dvs_save(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)dev, (void)r, (void)err, (void)errlen;
	return QG_STEP_OK;
}

static void dvs_look(void *dev, const struct qg_push_result *r, char *out, size_t cap)
{
	(void)dev, (void)r;
	snprintf(out, cap, "qosgen diff shows where the switch and its hosts stand");
}

static void dvs_say(void *dev, struct qg_push_result *r)
{
	struct dvs_push *p = dev;
	int n = r->lines_planned;
	if (r->state == QG_PUSH_IN_SYNC) {
		qg_push_say(r, "in sync: maxMtu %d, configVersion %s, %d host%s on the switch%s",
			    p->st.max_mtu, p->st.version, p->st.members,
			    p->st.members == 1 ? "" : "s", p->notes);
	} else if (r->state == QG_PUSH_WOULD_CHANGE) {
		qg_push_say(r, "%d setting%s would change (dry run: nothing changed)%s", n,
			    n == 1 ? "" : "s", p->notes);
	} else {
		char retry[64] = "";
		if (p->retries)
			snprintf(retry, sizeof(retry), ", %d retr%s after a concurrent change",
				 p->retries, p->retries == 1 ? "y" : "ies");
		const char *boot = p->reboot.data ? p->reboot.data : "";
		qg_push_say(r,
			    "%d setting%s changed, read back in sync (maxMtu %d -> %d, "
			    "configVersion %s -> %s%s)%s%s%s%s",
			    n, n == 1 ? "" : "s", p->ckpt.max_mtu, p->now.max_mtu, p->ckpt.version,
			    p->now.version, retry, boot[0] ? "; reboot " : "", boot,
			    boot[0] ? " to apply the module options" : "", p->notes);
	}
}

static const struct qg_push_ops dvs_push_ops = {
    .unit = "setting",
    .applier = "vCenter's task",
    .open = dvs_open,
    .close = dvs_close,
    .read_back = dvs_read_back,
    .plan = dvs_plan_step,
    .checkpoint = dvs_checkpoint,
    .apply = dvs_apply,
    .compare = dvs_compare,
    .why = dvs_why,
    .roll_back = dvs_roll_back,
    .save = dvs_save,
    .look = dvs_look,
    .say = dvs_say,
};

/*
 * An adapter of targets/engine.c: the checkpoint is the first read-back kept
 * in the session, the rollback puts it back call by call; see "Push (DVS,
 * through the vSphere API)" in docs/internals.md.
 */
static int dvs_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx;
	const struct qg_dvs *d = &m->dvs[i];
	struct dvs_push p = {.m = m,
			     .i = i,
			     .d = d,
			     .o = &a->tls,
			     .wait_s = a->tls.timeout_s > 0 ? a->tls.timeout_s : 120};
	p.st.n_hosts = d->n_hosts;
	p.st.hosts = calloc(d->n_hosts + 1, sizeof(*p.st.hosts));
	int rc = -1;
	r->state = QG_PUSH_UNCHANGED;
	if (!p.st.hosts || want_settings(m, d, &p.st) != 0)
		qg_push_say(r, "out of memory");
	else
		rc = qg_push_run(&dvs_push_ops, &p, a, NULL, dry_run, r);
	/*
	 * The message holds vCenter's text (a configVersion, a module string read
	 * back, a vmknic's address, a fault): escaped for the terminal, once,
	 * here (escaping is idempotent on what vsphere/ escaped already).
	 */
	char *said = qg_escape(r->message);
	if (said)
		snprintf(r->message, sizeof(r->message), "%s", said);
	free(said);
	qg_buf_free(&p.reboot);
	qg_buf_free(&p.done.list);
	vim_close(p.v);
	free(p.kept);
	for (size_t k = 0; p.st.hosts && k < p.st.n_hosts; k++)
		qg_settings_free(&p.st.hosts[k].want);
	free(p.st.hosts);
	free(p.ckpt.hosts);
	free(p.now.hosts);
	return rc;
}

const struct qg_driver qg_driver_dvs = {.target = &qg_target_dvs, .push = dvs_push};
