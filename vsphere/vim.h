/* SPDX-License-Identifier: MIT */
/*
 * The vSphere operations qosgen needs, on vsphere/soap.c: log in, find an
 * object by name (a ContainerView read by the PropertyCollector; the type is
 * taken from the answer, since vCenter says VmwareDistributedVirtualSwitch
 * where vcsim says DistributedVirtualSwitch), read properties, wait for a
 * task, log out.
 */
#ifndef QG_VIM_H
#define QG_VIM_H

#include "soap.h"

struct vim_ref {
	char type[64];
	char value[160]; /* vCenter view ids run to 80+ characters: session[UUID]UUID */
};

struct vim;

/* A ManagedObjectReference element: its plain "type" attribute and its text. */
void vim_ref_of(xmlNodePtr n, struct vim_ref *r);

/* RetrieveServiceContent and Login. The password is not kept. */
int vim_connect(const struct vs_conn_opts *o, const char *user, const char *password,
		struct vim **out, char *err, size_t errlen);
/* Logout (best effort) and free. */
void vim_close(struct vim *v);

/*
 * Pages of one property read (RetrievePropertiesEx, then
 * ContinueRetrievePropertiesEx while the server sends a token). vCenter
 * holds at most 2,500 hosts and 128 distributed switches, the types qosgen
 * looks for: this many pages hold them even one object a page, four times
 * over. Together the pages are one read-back (transport/readback.h).
 */
#define VIM_MAX_PAGES 10000

/*
 * The object of a type (and its subtypes) named name anywhere under the root
 * folder. 0 found, 1 not found, -1 error (a server that sends more pages or
 * bytes than the bounds above is one).
 */
int vim_find(struct vim *v, const char *type, const char *name, struct vim_ref *out, char *err,
	     size_t errlen);

/* The properties asked of one object: paths[0..n). */
struct vim_query {
	const struct vim_ref *obj;
	const char *const *paths;
	size_t n;
};

/*
 * Properties of one object: vals[k] is the <val> of q->paths[k], or NULL when
 * the server left it out (vcsim omits empty strings). *doc holds them; free
 * it with xmlFreeDoc. 0 or -1.
 */
int vim_props(struct vim *v, const struct vim_query *q, xmlDocPtr *doc, xmlNodePtr *vals, char *err,
	      size_t errlen);

/*
 * Send a request built with vs_request (a method on v's service objects or
 * any object); on a fault, fault holds its type. The answer is dropped.
 */
int vim_invoke(struct vim *v, xmlDocPtr doc, char *fault, size_t faultlen, char *err,
	       size_t errlen);
/* ... keeping the answer (free *resp). */
int vim_invoke_ret(struct vim *v, xmlDocPtr doc, xmlDocPtr *resp, xmlNodePtr *ret, char *fault,
		   size_t faultlen, char *err, size_t errlen);

/* Wait for a task: 0 success; -1 with fault and err (the task's error, or a timeout). */
int vim_wait_task(struct vim *v, const struct vim_ref *task, int timeout_s, char *fault,
		  size_t faultlen, char *err, size_t errlen);

/*
 * "a.b" -> the text of <a><b> under n; "" if absent. False when it did not
 * fit in out (cut short): a value that is sent back must not be.
 */
bool vim_path_text(xmlNodePtr n, const char *path, char *out, size_t len);

#endif
