/* SPDX-License-Identifier: MIT */
#include "https.h"

#include "../lib/errmsg.h"
#include "readback.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void qg_https_tls_setopts(CURL *h, const struct qg_tls_opts *o)
{
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, o->allow_http ? "https,http" : "https");
	/* An announced length over the limit fails at once; the writer cuts the unannounced. */
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)QG_READBACK_MAX);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)(o->timeout_s > 0 ? o->timeout_s : 60));
	if (o->ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, o->ca_file);
	if (o->insecure) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
	}
}

struct qg_https {
	CURL *curl;
	struct curl_slist *headers;
	char base[512];
	long timeout_ms; /* each request's limit: --timeout's */
	long limit_ms;	 /* qg_https_limit(): a shorter one for the next requests; 0: none */
};

struct sink {
	struct qg_buf *buf;
	bool over;
};

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t len = size * n;
	if (s->buf->len + len > QG_READBACK_MAX) {
		s->over = true;
		return 0;
	}
	qg_buf_append(s->buf, data, len);
	return s->buf->failed ? 0 : len;
}

int qg_https_open(const struct qg_https_endpoint *e, struct qg_https **out, char *err,
		  size_t errlen)
{
	const char *base = e->base, *user = e->user, *password = e->password;
	const struct qg_tls_opts *tls = e->tls;
	*out = NULL;
	if (!strncasecmp(base, "http://", 7) && !tls->allow_http)
		return qg_errf(err, errlen,
			       "%s: plain http:// would send the password in clear text; use "
			       "https://, or --allow-http to send it unencrypted anyway",
			       base);
	struct qg_https *h = calloc(1, sizeof(*h));
	if (!h)
		return qg_errf(err, errlen, "out of memory");
	snprintf(h->base, sizeof(h->base), "%s", base);
	h->curl = curl_easy_init();
	h->headers = curl_slist_append(NULL, "Content-Type: application/json");
	h->headers = h->headers ? curl_slist_append(h->headers, "Accept: application/json") : NULL;
	if (!h->curl || !h->headers) {
		qg_https_close(h);
		return qg_errf(err, errlen, "cannot initialise libcurl");
	}
	qg_https_tls_setopts(h->curl, tls);
	h->timeout_ms = 1000L * (tls->timeout_s > 0 ? tls->timeout_s : 60);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, collect);
	/* Basic authentication, as NVUE's API takes it; libcurl copies both strings. */
	curl_easy_setopt(h->curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	curl_easy_setopt(h->curl, CURLOPT_USERNAME, user);
	curl_easy_setopt(h->curl, CURLOPT_PASSWORD, password ? password : "");
	*out = h;
	return 0;
}

void qg_https_limit(struct qg_https *h, long ms)
{
	h->limit_ms = ms;
}

void qg_https_close(struct qg_https *h)
{
	if (!h)
		return;
	if (h->curl) {
		/* libcurl keeps its own copy of the password until cleanup. */
		curl_easy_setopt(h->curl, CURLOPT_PASSWORD, "");
		curl_easy_cleanup(h->curl);
	}
	curl_slist_free_all(h->headers);
	free(h);
}

enum qg_https_outcome qg_https_status_outcome(long status)
{
	if (status >= 200 && status <= 299)
		return QG_HTTPS_ANSWERED;
	/*
	 * A 408 (RFC 9110, 15.5.9), 429 (RFC 6585, 4) or 5xx may be a front end's
	 * word (a proxy's timeout or rate limit, nginx's 502/504) as well as the
	 * server's, so none proves the request never ran (issue 36).
	 */
	if (status >= 400 && status <= 499 && status != 408 && status != 429)
		return QG_HTTPS_NOT_SENT;
	return QG_HTTPS_LOST;
}

/* Did libcurl fail before the request could reach the server? */
static bool before_sending(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_LOGIN_DENIED:
		return true;
	default:
		return false;
	}
}

enum qg_https_outcome qg_https_request(struct qg_https *h, const struct qg_https_req *rq,
				       long *status, struct qg_buf *answer, char *err,
				       size_t errlen)
{
	const char *method = rq->method, *path = rq->path, *body = rq->body;
	char url[1024];
	snprintf(url, sizeof(url), "%s%s", h->base, path);
	qg_buf_free(answer);
	struct sink sink = {answer, false};
	char curl_err[CURL_ERROR_SIZE] = "";
	CURL *c = h->curl;
	curl_easy_setopt(c, CURLOPT_URL, url);
	/*
	 * libcurl sends a request again on a new connection when a reused one
	 * turns out dead; for a change (an apply) that would repeat it. Only
	 * reads reuse connections.
	 */
	curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, strcmp(method, "GET") ? 1L : 0L);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_HTTPGET, 0L);
	if (body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	} else if (!strcmp(method, "GET")) {
		curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, NULL);
	} else {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, 0L);
	}
	/* A caller's deadline (an apply's wait) may leave less than --timeout, never more. */
	long ms = h->limit_ms > 0 && h->limit_ms < h->timeout_ms ? h->limit_ms : h->timeout_ms;
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	CURLcode rc = curl_easy_perform(c);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, NULL);
	*status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	if (sink.over || rc == CURLE_FILESIZE_EXCEEDED) {
		qg_errf(err, errlen,
			"%s: the answer is larger than the read-back limit of " QG_READBACK_MAX_TEXT
			"; refused",
			url);
		return QG_HTTPS_LOST;
	}
	if (answer->failed) {
		qg_errf(err, errlen, "%s: out of memory for the answer", url);
		return QG_HTTPS_LOST;
	}
	if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE) {
		qg_errf(err, errlen,
			"%s: the server's TLS certificate is not trusted (%s); give its CA with "
			"--ca-file, or --insecure to skip the check",
			url, curl_err[0] ? curl_err : curl_easy_strerror(rc));
		return QG_HTTPS_NOT_SENT;
	}
	if (rc != CURLE_OK) {
		qg_errf(err, errlen, "%s: %s", url,
			curl_err[0] ? curl_err : curl_easy_strerror(rc));
		return before_sending(rc) ? QG_HTTPS_NOT_SENT : QG_HTTPS_LOST;
	}
	return QG_HTTPS_ANSWERED;
}
