/* SPDX-License-Identifier: MIT */
#ifndef QG_PUSH_VERIFY_H
#define QG_PUSH_VERIFY_H

#include "../model/model.h"
#include "../transport/ssh.h"

#include <cjson/cJSON.h>
#include <stdio.h>

struct verify_opts {
	const char *pair; /* "CLIENT:SERVER", or NULL for every pair of the intent */
	cJSON *json;	  /* --json: the envelope (push/json.h) the pairs go into */
	int tcp_port;	  /* the probe's out-of-band port (perftest's 18515) */
	struct qg_ssh_opts ssh;
};

/*
 * Run every pair's traffic test over SSH and judge it. Returns the exit
 * code: 0 nothing FATAL, 1 a check is FATAL, 2 no such pair, 3 a host could
 * not be reached or the test could not run.
 */
int verify_run(const struct qg_model *m, const struct verify_opts *vo);

/*
 * The pairs m->verify.pairs[idx[0..n)] in that order, as verify_run runs
 * them (the caller has called ssh_init): each pair's report, one per rail
 * when it names rails, as text to to->out, or, with to->json (an array), as
 * its object there, with "batch": to->batch when that is > 0 (push
 * --verify). to->count[PASS, MARGINAL, FATAL] adds the checks.
 * Returns verify_run's exit code for these pairs (0, 1 or 3).
 */
/* Where the pairs' reports go: text to out, or each pair's object into json (an array). */
struct verify_reports {
	int batch; /* > 0: push --verify's wave, "batch" in each object */
	FILE *out;
	cJSON *json;
	int *count; /* [PASS, MARGINAL, FATAL], added to */
};

int verify_pairs_run(const struct qg_model *m, const struct verify_opts *vo, const size_t *idx,
		     size_t n, const struct verify_reports *to);

#endif
