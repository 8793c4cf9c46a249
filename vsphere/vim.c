/* SPDX-License-Identifier: MIT */
#include "vim.h"
#include "../lib/errmsg.h"
#include "../lib/escape.h"
#include "../transport/readback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct vim {
	struct vs_conn *c;
	struct vim_ref pc, sm, root, views;
	bool logged_in;
};

void vim_ref_of(xmlNodePtr n, struct vim_ref *r)
{
	vs_attr(n, "type", r->type, sizeof(r->type));
	char *t = vs_text(n);
	snprintf(r->value, sizeof(r->value), "%s", t ? t : "");
	free(t);
}

static xmlNodePtr add_ref(xmlNodePtr parent, const char *name, const struct vim_ref *r)
{
	xmlNodePtr n = vs_add(parent, name, r->value);
	if (n && !xmlNewProp(n, (const xmlChar *)"type", (const xmlChar *)r->type))
		return NULL;
	return n;
}

int vim_invoke_ret(struct vim *v, xmlDocPtr doc, xmlDocPtr *resp, xmlNodePtr *ret, char *fault,
		   size_t faultlen, char *err, size_t errlen)
{
	return vs_call(v->c, doc, resp, ret, fault, faultlen, err, errlen);
}

int vim_invoke(struct vim *v, xmlDocPtr doc, char *fault, size_t faultlen, char *err, size_t errlen)
{
	xmlDocPtr resp;
	xmlNodePtr ret;
	int rc = vs_call(v->c, doc, &resp, &ret, fault, faultlen, err, errlen);
	xmlFreeDoc(resp);
	return rc;
}

int vim_connect(const struct vs_conn_opts *o, const char *user, const char *password,
		struct vim **out, char *err, size_t errlen)
{
	struct vim *v = calloc(1, sizeof(*v));
	if (!v)
		return qg_errf(err, errlen, "out of memory");
	if (vs_conn_open(o, &v->c, err, errlen) != 0) {
		free(v);
		return -1;
	}
	char fault[64];
	xmlDocPtr doc, resp;
	xmlNodePtr ret;
	if (!vs_request(&doc, "RetrieveServiceContent", "ServiceInstance", "ServiceInstance")) {
		xmlFreeDoc(doc);
		vim_close(v);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vs_call(v->c, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0) {
		vim_close(v);
		return -1;
	}
	xmlNodePtr sc = vs_child(ret, "returnval");
	vim_ref_of(vs_child(sc, "propertyCollector"), &v->pc);
	vim_ref_of(vs_child(sc, "sessionManager"), &v->sm);
	vim_ref_of(vs_child(sc, "rootFolder"), &v->root);
	vim_ref_of(vs_child(sc, "viewManager"), &v->views);
	xmlFreeDoc(resp);
	if (!v->pc.value[0] || !v->sm.value[0] || !v->root.value[0] || !v->views.value[0]) {
		vim_close(v);
		return qg_errf(err, errlen,
			       "%s: the service content lacks the property collector, "
			       "session manager, root folder or view manager",
			       o->url);
	}
	xmlNodePtr req = vs_request(&doc, "Login", v->sm.type, v->sm.value);
	if (!req || !vs_add(req, "userName", user) || !vs_add(req, "password", password)) {
		xmlFreeDoc(doc);
		vim_close(v);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vim_invoke(v, doc, fault, sizeof(fault), err, errlen) != 0) {
		if (!strcmp(fault, "InvalidLogin"))
			qg_errf(err, errlen,
				"%s: login as '%s' refused: wrong user name or password "
				"($GOVC_USERNAME, $GOVC_PASSWORD)",
				o->url, user);
		vim_close(v);
		return -1;
	}
	v->logged_in = true;
	*out = v;
	return 0;
}

void vim_close(struct vim *v)
{
	if (!v)
		return;
	if (v->logged_in) {
		xmlDocPtr doc;
		char fault[64], err[256];
		if (vs_request(&doc, "Logout", v->sm.type, v->sm.value))
			vim_invoke(v, doc, fault, sizeof(fault), err, sizeof(err));
		else
			xmlFreeDoc(doc);
	}
	vs_conn_close(v->c);
	free(v);
}

bool vim_path_text(xmlNodePtr n, const char *path, char *out, size_t len)
{
	char part[64];
	const char *p = path;
	while (n && *p) {
		size_t k = strcspn(p, ".");
		snprintf(part, sizeof(part), "%.*s", (int)k, p);
		n = vs_child(n, part);
		p += k + (p[k] == '.');
	}
	char *t = n ? vs_text(n) : NULL;
	int w = snprintf(out, len, "%s", t ? t : "");
	free(t);
	return w >= 0 && (size_t)w < len;
}

/*
 * RetrievePropertiesEx, then ContinueRetrievePropertiesEx while a token comes
 * back: at most VIM_MAX_PAGES pages, and the read-back limit for all of them
 * together, so a server that always has more cannot keep qosgen here.
 */
static int retrieve(struct vim *v, xmlDocPtr doc, int (*each)(xmlNodePtr objects, void *ctx),
		    void *ctx, char *err, size_t errlen)
{
	char fault[64], token[256];
	size_t start = vs_conn_received(v->c);
	for (int page = 1;; page++) {
		xmlDocPtr resp;
		xmlNodePtr ret;
		if (vs_call(v->c, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
			return -1;
		xmlNodePtr rv = vs_child(ret, "returnval");
		int stop = 0;
		for (xmlNodePtr o = vs_child(rv, "objects"); o && !stop; o = vs_next(o, "objects"))
			stop = each(o, ctx);
		vim_path_text(rv, "token", token, sizeof(token));
		xmlFreeDoc(resp);
		if (stop || !token[0])
			return 0;
		if (page == VIM_MAX_PAGES)
			return qg_errf(err, errlen,
				       "RetrievePropertiesEx: the server still sends continuation "
				       "tokens after %d pages; stopped (more than a vCenter holds)",
				       VIM_MAX_PAGES);
		if (vs_conn_received(v->c) - start > QG_READBACK_MAX)
			return qg_errf(err, errlen,
				       "RetrievePropertiesEx: %d pages are more than the read-back "
				       "limit of " QG_READBACK_MAX_TEXT
				       " and the server still sends "
				       "continuation tokens; stopped",
				       page);
		xmlNodePtr req =
		    vs_request(&doc, "ContinueRetrievePropertiesEx", v->pc.type, v->pc.value);
		if (!req || !vs_add(req, "token", token)) {
			xmlFreeDoc(doc);
			return qg_errf(err, errlen, "out of memory");
		}
	}
}

struct find_ctx {
	const char *name;
	struct vim_ref *out;
	bool found;
};

static int find_each(xmlNodePtr o, void *ctx)
{
	struct find_ctx *f = ctx;
	for (xmlNodePtr p = vs_child(o, "propSet"); p; p = vs_next(p, "propSet")) {
		char name[16], val[256];
		vim_path_text(p, "name", name, sizeof(name));
		vim_path_text(p, "val", val, sizeof(val));
		if (!strcmp(name, "name") && !strcmp(val, f->name)) {
			vim_ref_of(vs_child(o, "obj"), f->out);
			f->found = true;
			return 1;
		}
	}
	return 0;
}

int vim_find(struct vim *v, const char *type, const char *name, struct vim_ref *out, char *err,
	     size_t errlen)
{
	char fault[64];
	xmlDocPtr doc, resp;
	xmlNodePtr ret;
	xmlNodePtr req = vs_request(&doc, "CreateContainerView", v->views.type, v->views.value);
	if (!req || !add_ref(req, "container", &v->root) || !vs_add(req, "type", type) ||
	    !vs_add(req, "recursive", "true")) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	if (vs_call(v->c, doc, &resp, &ret, fault, sizeof(fault), err, errlen) != 0)
		return -1;
	struct vim_ref view;
	vim_ref_of(vs_child(ret, "returnval"), &view);
	xmlFreeDoc(resp);

	req = vs_request(&doc, "RetrievePropertiesEx", v->pc.type, v->pc.value);
	xmlNodePtr spec = req ? vs_add(req, "specSet", NULL) : NULL;
	xmlNodePtr ps = spec ? vs_add(spec, "propSet", NULL) : NULL;
	xmlNodePtr os = ps && vs_add(ps, "type", type) && vs_add(ps, "pathSet", "name")
			    ? vs_add(spec, "objectSet", NULL)
			    : NULL;
	xmlNodePtr sel = os && add_ref(os, "obj", &view) && vs_add(os, "skip", "true")
			     ? vs_add_typed(os, "selectSet", "TraversalSpec", NULL)
			     : NULL;
	if (!sel || !vs_add(sel, "name", "view") || !vs_add(sel, "type", "ContainerView") ||
	    !vs_add(sel, "path", "view") || !vs_add(sel, "skip", "false") ||
	    !vs_add(req, "options", NULL)) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	struct find_ctx f = {.name = name, .out = out};
	int rc = retrieve(v, doc, find_each, &f, err, errlen);
	/* The view is per session; destroy it anyway so long sessions do not pile them up. */
	if (vs_request(&doc, "DestroyView", view.type, view.value)) {
		char e2[256];
		vim_invoke(v, doc, fault, sizeof(fault), e2, sizeof(e2));
	} else {
		xmlFreeDoc(doc);
	}
	if (rc != 0)
		return -1;
	return f.found ? 0 : 1;
}

int vim_props(struct vim *v, const struct vim_query *q, xmlDocPtr *out, xmlNodePtr *vals, char *err,
	      size_t errlen)
{
	const struct vim_ref *obj = q->obj;
	const char *const *paths = q->paths;
	size_t n = q->n;
	char fault[64];
	xmlDocPtr doc;
	*out = NULL;
	xmlNodePtr req = vs_request(&doc, "RetrievePropertiesEx", v->pc.type, v->pc.value);
	xmlNodePtr spec = req ? vs_add(req, "specSet", NULL) : NULL;
	xmlNodePtr ps = spec ? vs_add(spec, "propSet", NULL) : NULL;
	bool ok = ps && vs_add(ps, "type", obj->type);
	for (size_t k = 0; ok && k < n; k++)
		ok = vs_add(ps, "pathSet", paths[k]) != NULL;
	xmlNodePtr os = ok ? vs_add(spec, "objectSet", NULL) : NULL;
	if (!os || !add_ref(os, "obj", obj) || !vs_add(req, "options", NULL)) {
		xmlFreeDoc(doc);
		return qg_errf(err, errlen, "out of memory");
	}
	xmlNodePtr ret;
	if (vs_call(v->c, doc, out, &ret, fault, sizeof(fault), err, errlen) != 0)
		return -1;
	xmlNodePtr o = vs_child(vs_child(ret, "returnval"), "objects");
	for (size_t k = 0; k < n; k++) {
		vals[k] = NULL;
		for (xmlNodePtr p = vs_child(o, "propSet"); p; p = vs_next(p, "propSet")) {
			char name[128];
			vim_path_text(p, "name", name, sizeof(name));
			if (!strcmp(name, paths[k]))
				vals[k] = vs_child(p, "val");
		}
	}
	return 0;
}

int vim_wait_task(struct vim *v, const struct vim_ref *task, int timeout_s, char *fault,
		  size_t faultlen, char *err, size_t errlen)
{
	static const char *const paths[] = {"info.state", "info.error"};
	double until = qg_monotonic_s() + (timeout_s > 0 ? timeout_s : 60);
	fault[0] = '\0';
	for (;;) {
		xmlDocPtr doc;
		xmlNodePtr vals[2];
		if (vim_props(v, &(struct vim_query){.obj = task, .paths = paths, .n = 2}, &doc,
			      vals, err, errlen) != 0)
			return -1;
		char state[32];
		char *t = vs_text(vals[0]);
		snprintf(state, sizeof(state), "%s", t ? t : "");
		free(t);
		if (!strcmp(state, "success")) {
			xmlFreeDoc(doc);
			return 0;
		}
		/* The task's id and state are the server's text, as the fault is. */
		char *id = qg_escape(task->value), *st = qg_escape(state);
		int rc = 1;
		if (!strcmp(state, "error")) {
			char msg[300];
			vs_fault_of(vals[1], fault, faultlen, msg, sizeof(msg));
			if (!fault[0]) /* failed, even without a typed fault: fault says so */
				snprintf(fault, faultlen, "Fault");
			rc = qg_errf(err, errlen, "task %s failed: %s%s%s", id ? id : "?", fault,
				     msg[0] ? ": " : "", msg);
		} else if (qg_monotonic_s() > until) {
			rc = qg_errf(err, errlen, "task %s still '%s' after %d s", id ? id : "?",
				     st ? st : "?", timeout_s);
		}
		free(id);
		free(st);
		xmlFreeDoc(doc);
		if (rc < 0)
			return -1;
		nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);
	}
}
