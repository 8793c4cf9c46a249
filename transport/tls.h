/* SPDX-License-Identifier: MIT */
/*
 * How qosgen checks an HTTPS endpoint (vCenter, later NVUE): the options of
 * the command line, the same for every HTTPS driver, kept apart from SSH's.
 */
#ifndef QG_TLS_H
#define QG_TLS_H

#include <stdbool.h>

struct qg_tls_opts {
	const char *ca_file; /* --ca-file: the CA of the server's certificate; NULL: the system's */
	bool insecure;	     /* --insecure: the explicit, loud opt-out of checking it */
	/* --allow-http: a plain http:// URL at all (the password then crosses in clear text) */
	bool allow_http;
	int timeout_s; /* --timeout: each request, and a task's wait; 0: 120 */
};

#endif
