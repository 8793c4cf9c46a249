/* SPDX-License-Identifier: MIT */
/* Where and as whom the DVS push logs in to vCenter, and the login (dvs_endpoint.c). */
#ifndef QG_DVS_ENDPOINT_H
#define QG_DVS_ENDPOINT_H

#include "../../model/model.h"
#include "../../transport/tls.h"
#include "../../vsphere/vim.h"

#include <stdbool.h>
#include <stddef.h>

/* Where and as whom to log in: $GOVC_URL and friends, as govc reads them. */
struct dvs_endpoint {
	char url[512]; /* https://HOST/sdk, credentials removed */
	char user[256];
	char *password; /* malloc'ed; scrubbed and freed by dvs_endpoint_free */
	const char *ca_file;
	bool insecure;
	bool plain_http; /* an http:// URL, allowed by name (--allow-http) */
};

/*
 * From the environment (GOVC_URL, which may carry user:password@,
 * GOVC_USERNAME, GOVC_PASSWORD, GOVC_INSECURE, GOVC_TLS_CA_CERTS) and the
 * intent's vcenter when GOVC_URL is unset; tls's ca_file and insecure (the
 * command line's) win. An http:// GOVC_URL is refused unless tls->allow_http
 * (--allow-http); any other scheme but https always is.
 * 0 or -1 with err (no secret in it).
 */
int dvs_endpoint(const struct qg_dvs *d, const struct qg_tls_opts *tls, struct dvs_endpoint *out,
		 char *err, size_t errlen);
void dvs_endpoint_free(struct dvs_endpoint *e);

/*
 * Log in to d's vCenter (dvs_endpoint, then vim_connect), warning on stderr
 * first of what would cross the network unprotected (--allow-http,
 * --insecure); the endpoint's URL, credentials removed, in url. 0, or -1
 * with err.
 */
int dvs_login(const struct qg_dvs *d, const struct qg_tls_opts *o, struct vim **v, char *url,
	      size_t urlcap, char *err, size_t errlen);

#endif
