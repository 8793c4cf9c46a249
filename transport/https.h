/* SPDX-License-Identifier: MIT */
/*
 * JSON over HTTPS with basic authentication, on libcurl: what a REST
 * driver (NVUE) needs. The certificate and the host name are checked unless
 * the command line said --insecure; plain http:// only with --allow-http;
 * answers are bounded by the read-back limit. The password is given to
 * libcurl as an option, never in a URL, and is not kept here.
 */
#ifndef QG_HTTPS_H
#define QG_HTTPS_H

#include "../lib/buf.h"
#include "tls.h"

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

/* The TLS and protocol options every HTTPS client of qosgen sets (vsphere/soap.c too). */
void qg_https_tls_setopts(CURL *h, const struct qg_tls_opts *o);

struct qg_https;

/* Where an HTTPS client connects, and as whom. */
struct qg_https_endpoint {
	const char *base; /* "https://host:port/nvue_v1" */
	const struct qg_tls_opts *tls;
	const char *user, *password;
};

/* 0, or -1 with err (the URL's scheme refused). */
int qg_https_open(const struct qg_https_endpoint *e, struct qg_https **out, char *err,
		  size_t errlen);
void qg_https_close(struct qg_https *h);

/*
 * The next requests each end within ms milliseconds (connecting included),
 * or within --timeout if that is sooner; 0 lifts it. For a caller with a
 * deadline of its own, so that a slow server cannot stretch it by a full
 * --timeout per request.
 */
void qg_https_limit(struct qg_https *h, long ms);

/* How a request ended, for a push that must know whether a change may have happened. */
enum qg_https_outcome {
	QG_HTTPS_ANSWERED, /* a status and a body came back */
	QG_HTTPS_NOT_SENT, /* no connection (refused, DNS, TLS, timeout before sending) */
	QG_HTTPS_LOST,	   /* sent, then the connection dropped or timed out: outcome unknown */
};

/*
 * What an answered request's HTTP status says of its effect (issue 36):
 * QG_HTTPS_ANSWERED for 2xx; QG_HTTPS_NOT_SENT where the server says it did
 * not carry the request out (4xx, apart from 408 and 429); QG_HTTPS_LOST
 * where the status does not say: a 5xx, 408 or 429 may come from a proxy in
 * front of the server after the request reached it (NVUE's API sits behind
 * nginx, which answers 502 or 504 when its backend is slow or restarting,
 * and the backend may still carry the request out), and 1xx or 3xx is no
 * answer to the request at all.
 */
enum qg_https_outcome qg_https_status_outcome(long status);

/* One request: method "GET", "POST", "PATCH" or "DELETE" on base + path; body (JSON) may be NULL.
 */
struct qg_https_req {
	const char *method, *path, *body;
};

/*
 * Send rq. Fills *status and answer (cleared first). Returns the outcome;
 * err says what went wrong when it is not ANSWERED.
 */
enum qg_https_outcome qg_https_request(struct qg_https *h, const struct qg_https_req *rq,
				       long *status, struct qg_buf *answer, char *err,
				       size_t errlen);

#endif
