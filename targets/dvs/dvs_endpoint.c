/* SPDX-License-Identifier: MIT */
/* Where and as whom the DVS push logs in: the environment, as govc reads it; the login. */
#include "dvs_endpoint.h"
#include "../../lib/errmsg.h"
#include "../../model/warnings.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

int dvs_endpoint(const struct qg_dvs *d, const struct qg_tls_opts *tls, struct dvs_endpoint *out,
		 char *err, size_t errlen)
{
	const char *ca_file = tls->ca_file;
	bool insecure = tls->insecure, allow_http = tls->allow_http;
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
	char *user = NULL, *pass = NULL, *clean = NULL, *scheme = NULL;
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
	/*
	 * The Login that follows carries the password: over http:// anyone on
	 * the path reads it (GOVC_URL=http://user:pass@... did, silently). Only
	 * https, unless the command line asks for plain HTTP by name.
	 */
	curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
	out->plain_http = scheme && !strcasecmp(scheme, "http");
	if (!scheme || (strcasecmp(scheme, "https") && !out->plain_http)) {
		qg_errf(err, errlen, "GOVC_URL's scheme '%s' is not https (https://HOST/sdk)",
			scheme ? scheme : "");
		goto out;
	}
	if (out->plain_http && !allow_http) {
		qg_errf(
		    err, errlen,
		    "%s: plain http:// would send the vSphere password in clear text; use "
		    "https:// in GOVC_URL (vCenter serves the API on 443), or pass --allow-http "
		    "to send it unencrypted anyway",
		    out->url);
		goto out;
	}
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
	curl_free(scheme);
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

int dvs_login(const struct qg_dvs *d, const struct qg_tls_opts *o, struct vim **v, char *url,
	      size_t urlcap, char *err, size_t errlen)
{
	struct dvs_endpoint ep;
	if (dvs_endpoint(d, o, &ep, err, errlen) != 0)
		return -1;
	if (ep.plain_http)
		fprintf(stderr,
			"qosgen: warning: %s: plain HTTP (--allow-http): the vSphere user name, "
			"password and session cross the network UNENCRYPTED; anyone on the path "
			"can read them [%s]\n",
			ep.url, qg_warning_info(QG_W_VSPHERE_PLAIN_HTTP)->name);
	if (ep.insecure)
		fprintf(stderr,
			"qosgen: warning: %s: TLS certificate checking is OFF (--insecure or "
			"GOVC_INSECURE): anyone on the path can read the vSphere password [%s]\n",
			ep.url, qg_warning_info(QG_W_VSPHERE_TLS_UNCHECKED)->name);
	struct vs_conn_opts co = {.url = ep.url,
				  .ca_file = ep.ca_file,
				  .insecure = ep.insecure,
				  .allow_http = ep.plain_http,
				  .timeout_s = o->timeout_s};
	snprintf(url, urlcap, "%s", ep.url);
	int rc = vim_connect(&co, ep.user, ep.password, v, err, errlen);
	dvs_endpoint_free(&ep);
	return rc;
}
