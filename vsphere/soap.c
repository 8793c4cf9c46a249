/* SPDX-License-Identifier: MIT */
#include "soap.h"
#include "../transport/https.h"
#include "../lib/buf.h"
#include "../lib/errmsg.h"
#include "../lib/escape.h"
#include "../transport/readback.h"

#include <curl/curl.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h> /* xmlCreateMemoryParserCtxt */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define X(s) ((const xmlChar *)(s))

struct vs_conn {
	CURL *curl;
	struct curl_slist *headers;
	char url[512];
	size_t received; /* answer bytes so far: vs_conn_received */
};

/* One answer as it arrives, cut off (and the transfer aborted) past the read-back limit. */
struct answer {
	struct qg_buf buf;
	bool over;
};

static size_t collect(char *p, size_t size, size_t n, void *ctx)
{
	struct answer *a = ctx;
	size_t len = size * n;
	if (len > QG_READBACK_MAX - a->buf.len) {
		a->over = true;
		return 0; /* libcurl stops the transfer: CURLE_WRITE_ERROR */
	}
	qg_buf_append(&a->buf, p, len);
	return a->buf.failed ? 0 : len;
}

int vs_conn_open(const struct vs_conn_opts *o, struct vs_conn **out, char *err, size_t errlen)
{
	/*
	 * The first request logs in: over http:// the password would cross the
	 * network in clear text. Only when the caller asked for it by name.
	 */
	if (!strncasecmp(o->url, "http://", 7) && !o->allow_http)
		return qg_errf(err, errlen,
			       "%s: plain http:// would send the vSphere password in clear text; "
			       "use https:// (vCenter serves the API on 443), or --allow-http to "
			       "send it unencrypted anyway",
			       o->url);
	struct vs_conn *c = calloc(1, sizeof(*c));
	if (!c)
		return qg_errf(err, errlen, "out of memory");
	snprintf(c->url, sizeof(c->url), "%s", o->url);
	c->curl = curl_easy_init();
	/* vim25 6.5 is what vcsim 0.24 and every vCenter since 6.5 answer. */
	c->headers = curl_slist_append(NULL, "Content-Type: text/xml; charset=utf-8");
	c->headers =
	    c->headers ? curl_slist_append(c->headers, "SOAPAction: \"urn:vim25/6.5\"") : NULL;
	if (!c->curl || !c->headers) {
		vs_conn_close(c);
		return qg_errf(err, errlen, "cannot initialise libcurl");
	}
	CURL *h = c->curl;
	curl_easy_setopt(h, CURLOPT_URL, c->url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, c->headers);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	/* The session cookie: libcurl's engine, in memory only (an empty file name). */
	curl_easy_setopt(h, CURLOPT_COOKIEFILE, "");
	qg_https_tls_setopts(h, &(struct qg_tls_opts){.ca_file = o->ca_file,
						      .insecure = o->insecure,
						      .allow_http = o->allow_http,
						      .timeout_s = o->timeout_s});
	*out = c;
	return 0;
}

void vs_conn_close(struct vs_conn *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	curl_slist_free_all(c->headers);
	free(c);
}

xmlNodePtr vs_request(xmlDocPtr *doc, const char *op, const char *this_type, const char *this_val)
{
	*doc = xmlNewDoc(X("1.0"));
	xmlNodePtr env = *doc ? xmlNewNode(NULL, X("Envelope")) : NULL;
	if (!env)
		return NULL;
	xmlDocSetRootElement(*doc, env);
	xmlNsPtr soap = xmlNewNs(env, X(VS_NS_SOAP), X("soapenv"));
	if (!soap || !xmlNewNs(env, X(VS_NS_XSI), X("xsi")) ||
	    !xmlNewNs(env, X("http://www.w3.org/2001/XMLSchema"), X("xsd")))
		return NULL;
	xmlSetNs(env, soap);
	xmlNodePtr body = xmlNewChild(env, soap, X("Body"), NULL);
	xmlNodePtr req = body ? xmlNewChild(body, NULL, X(op), NULL) : NULL;
	xmlNsPtr vim = req ? xmlNewNs(req, X(VS_NS_VIM), NULL) : NULL;
	if (!vim)
		return NULL;
	xmlSetNs(req, vim);
	return vs_add_ref(req, "_this", this_type, this_val) ? req : NULL;
}

xmlNodePtr vs_add_ref(xmlNodePtr parent, const char *name, const char *type, const char *value)
{
	xmlNodePtr n = vs_add(parent, name, value);
	return n && xmlNewProp(n, X("type"), X(type)) ? n : NULL;
}

xmlNodePtr vs_add(xmlNodePtr parent, const char *name, const char *text)
{
	return xmlNewTextChild(parent, parent->ns, X(name), text ? X(text) : NULL);
}

xmlNodePtr vs_add_typed(xmlNodePtr parent, const char *name, const char *xsi_type, const char *text)
{
	xmlNodePtr n = vs_add(parent, name, text);
	xmlNsPtr xsi = n ? xmlSearchNsByHref(n->doc, n, X(VS_NS_XSI)) : NULL;
	if (!xsi || !xmlNewNsProp(n, xsi, X("type"), X(xsi_type)))
		return NULL;
	return n;
}

xmlNodePtr vs_child(xmlNodePtr n, const char *name)
{
	for (xmlNodePtr k = n ? n->children : NULL; k; k = k->next)
		if (k->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)k->name, name)))
			return k;
	return NULL;
}

xmlNodePtr vs_next(xmlNodePtr n, const char *name)
{
	for (xmlNodePtr k = n ? n->next : NULL; k; k = k->next)
		if (k->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)k->name, name)))
			return k;
	return NULL;
}

/*
 * Only n's own text and CDATA children, never xmlNodeGetContent: that
 * follows entity references and expands them without limit. (An answer has
 * none, vs_answer_parse refuses any DTD; this does not depend on it.)
 */
char *vs_text(xmlNodePtr n)
{
	struct qg_buf b = {0};
	for (xmlNodePtr k = n ? n->children : NULL; k; k = k->next)
		if ((k->type == XML_TEXT_NODE || k->type == XML_CDATA_SECTION_NODE) && k->content)
			qg_buf_puts(&b, (const char *)k->content);
	return qg_buf_steal(&b, NULL);
}

void vs_xsi_type(xmlNodePtr n, char *out, size_t len)
{
	xmlChar *t = n ? xmlGetNsProp(n, X("type"), X(VS_NS_XSI)) : NULL;
	const char *s = t ? (const char *)t : "";
	const char *colon = strchr(s, ':');
	snprintf(out, len, "%s", colon ? colon + 1 : s);
	xmlFree(t);
}

void vs_attr(xmlNodePtr n, const char *name, char *out, size_t len)
{
	/* xmlGetProp would also match XMLSchema-instance:type: the plain attribute only. */
	xmlChar *t = n ? xmlGetNoNsProp(n, X(name)) : NULL;
	snprintf(out, len, "%s", t ? (const char *)t : "");
	xmlFree(t);
}

/* The server's text, escaped for a terminal, into out (cut to fit). */
static void escaped(const char *s, char *out, size_t len)
{
	struct qg_buf b = {0};
	qg_escape_append(&b, s, strlen(s));
	snprintf(out, len, "%s", b.data && !b.failed ? b.data : "");
	qg_buf_free(&b);
}

void vs_fault_of(xmlNodePtr fault, char *type, size_t typelen, char *msg, size_t msglen)
{
	type[0] = msg[0] = '\0';
	/* <soapenv:Fault>: faultstring, detail/<XFault xsi:type="X">. */
	xmlNodePtr fs = vs_child(fault, "faultstring"), detail = vs_child(fault, "detail");
	/* A task's LocalizedMethodFault: fault xsi:type="X", localizedMessage. */
	xmlNodePtr inner = vs_child(fault, "fault"), lm = vs_child(fault, "localizedMessage");
	xmlNodePtr typed = detail ? vs_child(detail, NULL) : inner;
	char raw[256];
	vs_xsi_type(typed, raw, sizeof(raw));
	if (!raw[0] && typed) {
		snprintf(raw, sizeof(raw), "%s", (const char *)typed->name);
		size_t n = strlen(raw);
		if (n > 5 && !strcmp(raw + n - 5, "Fault"))
			raw[n - 5] = '\0';
	}
	escaped(raw, type, typelen);
	char *m = vs_text(fs ? fs : lm);
	escaped(m ? m : "", msg, msglen);
	free(m);
}

/* SAX: called once the DOCTYPE's name is read, before its internal subset: stop there. */
static void refuse_doctype(void *ctx, const xmlChar *name, const xmlChar *external_id,
			   const xmlChar *system_id)
{
	(void)name;
	(void)external_id;
	(void)system_id;
	xmlParserCtxtPtr p = ctx;
	*(bool *)p->_private = true;
	xmlStopParser(p);
}

/* libxml2's messages outside a parser context (encoding errors): not on our stderr. */
static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int vs_answer_parse(const char *data, size_t len, xmlDocPtr *doc, char *err, size_t errlen)
{
	*doc = NULL;
	if (len > QG_READBACK_MAX) {
		qg_errf(err, errlen,
			"the answer is larger than the read-back limit of " QG_READBACK_MAX_TEXT);
		return -2;
	}
	if (!len)
		return qg_errf(err, errlen, "the answer is empty");
	xmlParserCtxtPtr p = xmlCreateMemoryParserCtxt(data, (int)len);
	if (!p)
		return qg_errf(err, errlen, "out of memory");
	/*
	 * No network, no DTD loading, no entity substitution (XML_PARSE_NOENT
	 * unset), libxml2's default limits on depth and text (no
	 * XML_PARSE_HUGE), and no message of libxml2's own on stderr: they would
	 * print the server's bytes unescaped.
	 */
	xmlCtxtUseOptions(p, XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_NOERROR |
				 XML_PARSE_NOWARNING);
	bool doctype = false;
	p->sax->internalSubset = refuse_doctype;
	p->_private = &doctype;
	/* Per thread in libxml2, as the push's threads are: set and restored around the parse. */
	xmlGenericErrorFunc was = xmlGenericError;
	void *was_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(NULL, quiet);
	xmlParseDocument(p);
	xmlSetGenericErrorFunc(was_ctx, was);
	bool ok = p->wellFormed && !doctype;
	if (ok)
		*doc = p->myDoc;
	else
		xmlFreeDoc(p->myDoc);
	p->myDoc = NULL;
	xmlFreeParserCtxt(p);
	if (doctype) {
		qg_errf(err, errlen,
			"the answer carries a DOCTYPE, which SOAP forbids in a message (a DTD can "
			"declare entities that expand without bound); refused");
		return -2;
	}
	return ok ? 0 : qg_errf(err, errlen, "the answer is not well-formed XML");
}

size_t vs_conn_received(const struct vs_conn *c)
{
	return c->received;
}

int vs_call(struct vs_conn *c, xmlDocPtr doc, xmlDocPtr *resp, xmlNodePtr *ret, char *fault,
	    size_t faultlen, char *err, size_t errlen)
{
	*resp = NULL;
	*ret = NULL;
	fault[0] = '\0';
	xmlChar *body = NULL;
	int blen = 0;
	xmlDocDumpMemoryEnc(doc, &body, &blen, "UTF-8");
	xmlFreeDoc(doc);
	if (!body)
		return qg_errf(err, errlen, "out of memory");
	struct answer answer = {0};
	char curl_err[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, (const char *)body);
	curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE, (long)blen);
	curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, &answer);
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, curl_err);
	CURLcode rc = curl_easy_perform(c->curl);
	/* The request may hold a password (Login): scrub it before freeing. */
	explicit_bzero(body, (size_t)blen);
	xmlFree(body);
	curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, NULL);
	long status = 0;
	curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
	c->received += answer.buf.len;
	if (answer.over || rc == CURLE_FILESIZE_EXCEEDED) {
		qg_buf_free(&answer.buf);
		return qg_errf(
		    err, errlen,
		    "%s: the answer is larger than the read-back limit of " QG_READBACK_MAX_TEXT
		    "; refused",
		    c->url);
	}
	if (answer.buf.failed) {
		qg_buf_free(&answer.buf);
		return qg_errf(err, errlen, "%s: out of memory for the answer", c->url);
	}
	if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE) {
		qg_buf_free(&answer.buf);
		return qg_errf(err, errlen,
			       "%s: the server's TLS certificate is not trusted (%s); give its CA "
			       "with --ca-file (or $GOVC_TLS_CA_CERTS), or --insecure to skip the "
			       "check",
			       c->url, curl_err[0] ? curl_err : curl_easy_strerror(rc));
	}
	if (rc != CURLE_OK) {
		qg_buf_free(&answer.buf);
		return qg_errf(err, errlen, "%s: %s", c->url,
			       curl_err[0] ? curl_err : curl_easy_strerror(rc));
	}
	xmlDocPtr d;
	char why[256];
	int parsed = vs_answer_parse(answer.buf.data, answer.buf.len, &d, why, sizeof(why));
	qg_buf_free(&answer.buf);
	if (parsed == -2)
		return qg_errf(err, errlen, "%s: %s", c->url, why);
	xmlNodePtr env = d ? xmlDocGetRootElement(d) : NULL;
	xmlNodePtr b = vs_child(env, "Body"), first = vs_child(b, NULL);
	if (!first) {
		xmlFreeDoc(d);
		return qg_errf(err, errlen,
			       "%s: HTTP %ld with no SOAP answer (is this a vSphere "
			       "endpoint? the URL ends in /sdk)",
			       c->url, status);
	}
	if (!strcmp((const char *)first->name, "Fault")) {
		char msg[400];
		vs_fault_of(first, fault, faultlen, msg, sizeof(msg));
		/* An answer that is a fault is a refusal, typed or not (callers tell it from no
		 * answer). */
		if (!fault[0])
			snprintf(fault, faultlen, "Fault");
		xmlFreeDoc(d);
		return qg_errf(err, errlen, "%s%s%s", fault, msg[0] ? ": " : "", msg);
	}
	*resp = d;
	*ret = first;
	return 0;
}
