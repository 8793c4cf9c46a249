/* SPDX-License-Identifier: MIT */
/*
 * SOAP over HTTPS to a vSphere endpoint (vCenter, or vcsim in tests), on
 * libcurl and libxml2. The one place qosgen talks HTTP: a request is a vim25
 * operation element built with libxml2 (so every value is escaped), the
 * answer is parsed namespace-aware (servers prefix XMLSchema-instance as they
 * like: vcsim says XMLSchema-instance:type, vCenter xsi:type).
 *
 * The session cookie lives only in libcurl's in-memory cookie engine; TLS is
 * verified unless the caller asked for insecure, and plain http:// is
 * refused unless the caller asked for it by name.
 *
 * An answer is the server's text, to be judged, not trusted: at most the
 * read-back limit (transport/readback.h), no DTD at all (SOAP 1.1 and 1.2
 * forbid a DOCTYPE in a message, and a DTD is where an entity bomb lives),
 * so no entity other than XML's five and character references is ever read,
 * let alone expanded.
 */
#ifndef QG_SOAP_H
#define QG_SOAP_H

#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>

#define VS_NS_SOAP "http://schemas.xmlsoap.org/soap/envelope/"
#define VS_NS_XSI "http://www.w3.org/2001/XMLSchema-instance"
#define VS_NS_VIM "urn:vim25"

struct vs_conn;

struct vs_conn_opts {
	const char *url;     /* https://HOST[:PORT]/sdk, no credentials */
	const char *ca_file; /* NULL: the system's CAs */
	bool insecure;	     /* skip certificate and name checks */
	bool allow_http;     /* let an http:// URL through (the password then crosses in clear) */
	int timeout_s;	     /* per request; 0: 60 */
};

int vs_conn_open(const struct vs_conn_opts *o, struct vs_conn **out, char *err, size_t errlen);
void vs_conn_close(struct vs_conn *c);

/* A request: the operation element (in urn:vim25) with its _this. */
xmlNodePtr vs_request(xmlDocPtr *doc, const char *op, const char *this_type, const char *this_val);
/* A child element with text (escaped by libxml2); NULL on allocation failure. */
xmlNodePtr vs_add(xmlNodePtr parent, const char *name, const char *text);
/* A ManagedObjectReference: <name type="TYPE">VALUE</name>. */
xmlNodePtr vs_add_ref(xmlNodePtr parent, const char *name, const char *type, const char *value);
/* A child element with text and an xsi:type. */
xmlNodePtr vs_add_typed(xmlNodePtr parent, const char *name, const char *xsi_type,
			const char *text);

/*
 * Send the request (doc is consumed). On success *resp is the answer's
 * document and *ret the operation's response element. On a SOAP fault, -1 with
 * fault set to the fault's type ("ConcurrentAccess", "InvalidLogin", ...;
 * "Fault" if untyped) and err to its message. On transport errors, -1 with
 * fault "" and err saying what failed (an untrusted certificate says how to
 * trust it): the server may or may not have acted on the request.
 */
int vs_call(struct vs_conn *c, xmlDocPtr doc, xmlDocPtr *resp, xmlNodePtr *ret, char *fault,
	    size_t faultlen, char *err, size_t errlen);

/* Bytes of answers received on c so far: the budget of a read that spans many calls. */
size_t vs_conn_received(const struct vs_conn *c);

/*
 * An answer's bytes into a document (pure; vs_call's parser). 0 with *doc
 * (the caller frees it); -1 with err when it is empty or not well-formed
 * XML (not a SOAP answer at all); -2 with err when it is refused for what it
 * is: larger than the read-back limit, or carrying a DOCTYPE.
 */
int vs_answer_parse(const char *data, size_t len, xmlDocPtr *doc, char *err, size_t errlen);

/* Parsing helpers (pure). */
xmlNodePtr vs_child(xmlNodePtr n, const char *name);   /* first element child by local name */
xmlNodePtr vs_next(xmlNodePtr n, const char *name);    /* next sibling element by local name */
char *vs_text(xmlNodePtr n); /* malloc'ed text of n's own text children, "" if none */
void vs_xsi_type(xmlNodePtr n, char *out, size_t len); /* xsi:type, prefix stripped */
void vs_attr(xmlNodePtr n, const char *name, char *out, size_t len);
/*
 * The fault inside a <soapenv:Fault> or a task's LocalizedMethodFault, both
 * escaped for a terminal (lib/escape.h): they go into messages.
 */
void vs_fault_of(xmlNodePtr fault, char *type, size_t typelen, char *msg, size_t msglen);

#endif
