/* SPDX-License-Identifier: MIT */
#include "dvs_push.h"
#include "../../gen/errmsg.h"
#include "../../transport/ssh.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PVRDMA_OPTION "Net.PVRDMAVmknic"
#define PVRDMA_RULESET "pvrdma"
/* ReconfigureDvs_Task attempts when someone else changes the switch meanwhile. */
#define DVS_RETRIES 3

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
	if (st->uplinks >= 0 && st->uplinks != d->uplinks)
		qg_buf_printf(out, "[n/a] uplinks: %d, the intent says %d (not changed by push)\n",
			      st->uplinks, d->uplinks);
	for (size_t k = 0; k < st->n_hosts; k++) {
		const struct dvs_host_state *h = &st->hosts[k];
		if (!h->found) {
			qg_buf_printf(
			    out, "[n/a] host %s: not in this vCenter (looked for '%s' and '%s')\n",
			    h->h->name, h->h->address, h->h->name);
			continue;
		}
		if (!h->member)
			qg_buf_printf(
			    out,
			    "[n/a] host %s: not on the switch (push does not add hosts: that "
			    "needs the host's uplink; the govc script of the build does it)\n",
			    h->h->name);
		if (!h->h->pvrdma_vmknic[0])
			continue;
		if (!h->vmknic_set || strcmp(h->vmknic, h->h->pvrdma_vmknic)) {
			qg_buf_printf(out, "[differs] host %s: %s: %s -> %s\n", h->h->name,
				      PVRDMA_OPTION, h->vmknic_set ? h->vmknic : "unset",
				      h->h->pvrdma_vmknic);
			n++;
		}
		if (!h->fw_known || !h->fw_enabled) {
			qg_buf_printf(
			    out, "[differs] host %s: firewall ruleset %s: %s -> enabled\n",
			    h->h->name, PVRDMA_RULESET, h->fw_known ? "disabled" : "absent");
			n++;
		}
	}
	return n;
}

/* $NAME is set and not empty. */
static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static bool truthy(const char *v)
{
	return v && (!strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes"));
}

int dvs_endpoint(const struct qg_dvs *d, const char *ca_file, bool insecure,
		 struct dvs_endpoint *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const char *given = env("GOVC_URL");
	char raw[600];
	if (given && strstr(given, "://"))
		snprintf(raw, sizeof(raw), "%s", given);
	else
		snprintf(raw, sizeof(raw), "https://%s%s", given ? given : d->vcenter,
			 given && strchr(given, '/') ? "" : "/sdk");
	/* libcurl's URL parser takes the user and password out, as govc does. */
	CURLU *u = curl_url();
	char *user = NULL, *pass = NULL, *clean = NULL;
	int rc = -1;
	if (!u || curl_url_set(u, CURLUPART_URL, raw, 0) != CURLUE_OK) {
		qg_errf(err, errlen, "GOVC_URL is not a URL (https://HOST/sdk)");
		goto out;
	}
	curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE);
	curl_url_get(u, CURLUPART_PASSWORD, &pass, CURLU_URLDECODE);
	curl_url_set(u, CURLUPART_USER, NULL, 0);
	curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &clean, 0) != CURLUE_OK) {
		qg_errf(err, errlen, "GOVC_URL is not a URL (https://HOST/sdk)");
		goto out;
	}
	snprintf(out->url, sizeof(out->url), "%s", clean);
	const char *eu = env("GOVC_USERNAME"), *ep = env("GOVC_PASSWORD");
	snprintf(out->user, sizeof(out->user), "%s", eu ? eu : user ? user : "");
	out->password = strdup(ep ? ep : pass ? pass : "");
	if (!out->user[0] || !out->password || !out->password[0]) {
		qg_errf(err, errlen,
			"no vSphere credentials: set GOVC_USERNAME and GOVC_PASSWORD (or "
			"GOVC_URL=https://USER:PASSWORD@HOST/sdk) in the environment");
		dvs_endpoint_free(out);
		goto out;
	}
	out->ca_file = ca_file ? ca_file : env("GOVC_TLS_CA_CERTS");
	out->insecure = insecure || truthy(env("GOVC_INSECURE"));
	rc = 0;
out:
	if (pass)
		explicit_bzero(pass, strlen(pass));
	curl_free(user);
	curl_free(pass);
	curl_free(clean);
	curl_url_cleanup(u);
	return rc;
}

void dvs_endpoint_free(struct dvs_endpoint *e)
{
	if (e->password) {
		explicit_bzero(e->password, strlen(e->password));
		free(e->password);
	}
	e->password = NULL;
}

static int int_of(xmlNodePtr n)
{
	char *t = vs_text(n);
	int v = t ? atoi(t) : 0;
	free(t);
	return v;
}

static int count_children(xmlNodePtr n, const char *name)
{
	int c = 0;
	for (xmlNodePtr k = vs_child(n, name); k; k = vs_next(k, name))
		c++;
	return c;
}

static int read_dvs(struct vim *v, struct dvs_state *st, char *err, size_t errlen)
{
	static const char *const paths[] = {"config.maxMtu", "config.configVersion",
					    "config.uplinkPortPolicy", "config.host"};
	xmlDocPtr doc;
	xmlNodePtr vals[4];
	if (vim_props(v, &st->ref, paths, 4, &doc, vals, err, errlen) != 0)
		return -1;
	st->max_mtu = int_of(vals[0]);
	char *t = vs_text(vals[1]);
	snprintf(st->version, sizeof(st->version), "%s", t ? t : "");
	free(t);
	st->uplinks = vals[2] ? count_children(vals[2], "uplinkPortName") : -1;
	st->members = 0;
	snprintf(st->member_ids, sizeof(st->member_ids), " ");
	for (xmlNodePtr k = vs_child(vals[3], NULL); k; k = vs_next(k, NULL)) {
		char id[160];
		vim_path_text(k, "config.host", id, sizeof(id));
		size_t used = strlen(st->member_ids);
		snprintf(st->member_ids + used, sizeof(st->member_ids) - used, "%s ", id);
		st->members++;
	}
	xmlFreeDoc(doc);
	return 0;
}

/* The host's object and its option and firewall managers: looked up once per push. */
static int locate_host(struct vim *v, struct dvs_host_state *h, char *err, size_t errlen)
{
	int f = vim_find(v, "HostSystem", h->h->address, &h->ref, err, errlen);
	if (f == 1)
		f = vim_find(v, "HostSystem", h->h->name, &h->ref, err, errlen);
	if (f < 0)
		return -1;
	h->found = f == 0;
	if (!h->found || !h->h->pvrdma_vmknic[0])
		return 0;
	static const char *const paths[] = {"configManager.advancedOption",
					    "configManager.firewallSystem"};
	xmlDocPtr doc;
	xmlNodePtr vals[2];
	if (vim_props(v, &h->ref, paths, 2, &doc, vals, err, errlen) != 0)
		return -1;
	vim_ref_of(vals[0], &h->options);
	vim_ref_of(vals[1], &h->firewall);
	xmlFreeDoc(doc);
	return 0;
}

/* The values push sets, from a located host. */
static int read_host(struct vim *v, struct dvs_host_state *h, char *err, size_t errlen)
{
	if (!h->found || !h->h->pvrdma_vmknic[0])
		return 0;
	xmlDocPtr doc;
	xmlNodePtr vals[1];

	/* An option that was never set does not exist: InvalidName, not an error. */
	char fault[64];
	xmlNodePtr req = vs_request(&doc, "QueryOptions", h->options.type, h->options.value);
	if (!req || !vs_add(req, "name", PVRDMA_OPTION)) {
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
			if (!strcmp(key, PVRDMA_OPTION)) {
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
		if (!strcmp(key, PVRDMA_RULESET)) {
			h->fw_known = true;
			h->fw_enabled = !strcmp(enabled, "true");
		}
	}
	xmlFreeDoc(doc);
	return 0;
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
static int read_state(struct vim *v, struct dvs_state *st, char *err, size_t errlen)
{
	if (st->found && read_dvs(v, st, err, errlen) != 0)
		return -1;
	for (size_t k = 0; k < st->n_hosts; k++) {
		struct dvs_host_state *h = &st->hosts[k];
		if (read_host(v, h, err, errlen) != 0)
			return -1;
		char id[170];
		snprintf(id, sizeof(id), " %s ", h->ref.value);
		h->member = h->found && strstr(st->member_ids, id) != NULL;
	}
	return 0;
}

/* ReconfigureDvs_Task with the version just read; a concurrent change is re-read and retried. */
static int set_mtu(struct vim *v, const struct qg_dvs *d, struct dvs_state *st, int *retries,
		   char *err, size_t errlen)
{
	for (int attempt = 0;; attempt++) {
		xmlDocPtr doc;
		char fault[64];
		char mtu[16];
		snprintf(mtu, sizeof(mtu), "%d", d->mtu);
		xmlNodePtr req =
		    vs_request(&doc, "ReconfigureDvs_Task", st->ref.type, st->ref.value);
		xmlNodePtr spec =
		    req ? vs_add_typed(req, "spec", "VMwareDVSConfigSpec", NULL) : NULL;
		if (!spec || !vs_add(spec, "configVersion", st->version) ||
		    !vs_add(spec, "maxMtu", mtu)) {
			xmlFreeDoc(doc);
			return qg_errf(err, errlen, "out of memory");
		}
		xmlDocPtr resp;
		xmlNodePtr ret;
		if (vim_invoke_ret(v, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
			return -1;
		struct vim_ref task;
		vim_ref_of(vs_child(ret, "returnval"), &task);
		xmlFreeDoc(resp);
		if (vim_wait_task(v, &task, 120, fault, sizeof(fault), err, errlen) == 0)
			return 0;
		if (strcmp(fault, "ConcurrentAccess") || attempt + 1 >= DVS_RETRIES)
			return -1;
		(*retries)++;
		if (read_dvs(v, st, err, errlen) != 0)
			return -1;
		if (st->max_mtu == d->mtu)
			return 0; /* the other change already did it */
	}
}

static int set_host(struct vim *v, const struct dvs_host_state *h, char *err, size_t errlen)
{
	xmlDocPtr doc;
	char fault[64];
	if (!h->vmknic_set || strcmp(h->vmknic, h->h->pvrdma_vmknic)) {
		xmlNodePtr req =
		    vs_request(&doc, "UpdateOptions", h->options.type, h->options.value);
		xmlNodePtr cv = req ? vs_add(req, "changedValue", NULL) : NULL;
		if (!cv || !vs_add(cv, "key", PVRDMA_OPTION) ||
		    !vs_add_typed(cv, "value", "xsd:string", h->h->pvrdma_vmknic)) {
			xmlFreeDoc(doc);
			return qg_errf(err, errlen, "out of memory");
		}
		if (vim_invoke(v, doc, fault, sizeof(fault), err, errlen) != 0)
			return -1;
	}
	if (!h->fw_known || !h->fw_enabled) {
		xmlNodePtr req =
		    vs_request(&doc, "EnableRuleset", h->firewall.type, h->firewall.value);
		if (!req || !vs_add(req, "id", PVRDMA_RULESET)) {
			xmlFreeDoc(doc);
			return qg_errf(err, errlen, "out of memory");
		}
		if (vim_invoke(v, doc, fault, sizeof(fault), err, errlen) != 0)
			return -1;
	}
	return 0;
}

int dvs_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
	     const struct qg_ssh_opts *o, bool dry_run, struct qg_push_result *r)
{
	(void)ctx;
	const struct qg_dvs *d = &m->dvs[i];
	char err[1024];
	struct dvs_endpoint ep;
	struct vim *v = NULL;
	struct dvs_state st = {.n_hosts = d->n_hosts};
	r->state = QG_PUSH_UNCHANGED;
	st.hosts = calloc(d->n_hosts + 1, sizeof(*st.hosts));
	if (!st.hosts) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < d->n_hosts; k++)
		st.hosts[k].h = &m->hosts[d->hosts[k]];
	if (dvs_endpoint(d, o->ca_file, o->insecure, &ep, err, sizeof(err)) != 0) {
		qg_push_say(r, "%s", err);
		free(st.hosts);
		return -1;
	}
	if (ep.insecure)
		fprintf(stderr,
			"qosgen: warning: %s: TLS certificate checking is OFF (--insecure or "
			"GOVC_INSECURE): anyone on the path can read the vSphere password\n",
			ep.url);
	struct vs_conn_opts co = {.url = ep.url,
				  .ca_file = ep.ca_file,
				  .insecure = ep.insecure,
				  .timeout_s = o->command_timeout_s};
	int rc = vim_connect(&co, ep.user, ep.password, &v, err, sizeof(err));
	dvs_endpoint_free(&ep);
	if (rc != 0 || locate(v, m, i, &st, err, sizeof(err)) != 0 ||
	    read_state(v, &st, err, sizeof(err)) != 0) {
		qg_push_say(r, "%s", err);
		goto out;
	}
	struct qg_buf plan = {0};
	int n = dvs_plan(m, i, &st, &plan);
	r->lines_planned = n;
	qg_buf_append(&r->sent, plan.data ? plan.data : "", plan.len);
	qg_buf_free(&plan);
	if (!st.found) {
		qg_push_say(r, "no distributed switch named '%s' in %s", d->name, co.url);
		goto out;
	}
	if (n == 0) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync: maxMtu %d, configVersion %s, %d host%s on the switch",
			    st.max_mtu, st.version, st.members, st.members == 1 ? "" : "s");
		goto out;
	}
	if (dry_run) {
		r->state = QG_PUSH_WOULD_CHANGE;
		qg_push_say(r, "%d setting%s would change (dry run: nothing changed)", n,
			    n == 1 ? "" : "s");
		goto out;
	}
	/* Each call below is atomic on the server; the read-back after them is the proof. */
	int retries = 0, was = st.max_mtu;
	char before[64];
	snprintf(before, sizeof(before), "%s", st.version);
	if (st.max_mtu != d->mtu && set_mtu(v, d, &st, &retries, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "maxMtu not changed: %s", err);
		goto out;
	}
	for (size_t k = 0; k < st.n_hosts; k++) {
		if (!st.hosts[k].found || !st.hosts[k].h->pvrdma_vmknic[0])
			continue;
		if (set_host(v, &st.hosts[k], err, sizeof(err)) != 0) {
			r->state = QG_PUSH_FAILED;
			qg_push_say(r, "host %s: %s (the switch's maxMtu is %d now)",
				    st.hosts[k].h->name, err, d->mtu);
			goto out;
		}
	}
	r->lines_sent = n;
	struct dvs_state after = st; /* same objects, values read again */
	struct qg_buf left = {0};
	if (read_state(v, &after, err, sizeof(err)) != 0 || dvs_plan(m, i, &after, &left) != 0) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "still differs after the push: %s", left.data ? left.data : err);
	} else {
		r->state = QG_PUSH_CONVERGED;
		char retry[64] = "";
		if (retries)
			snprintf(retry, sizeof(retry), ", %d retr%s after a concurrent change",
				 retries, retries == 1 ? "y" : "ies");
		qg_push_say(r,
			    "%d setting%s changed, read back in sync (maxMtu %d -> %d, "
			    "configVersion %s -> %s%s)",
			    n, n == 1 ? "" : "s", was, after.max_mtu, before, after.version, retry);
	}
	qg_buf_free(&left);
out:
	vim_close(v);
	free(st.hosts);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}
