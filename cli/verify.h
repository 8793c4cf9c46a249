/* SPDX-License-Identifier: MIT */
#ifndef QG_CLI_VERIFY_H
#define QG_CLI_VERIFY_H

#include "../gen/model.h"
#include "../transport/ssh.h"

#include <cjson/cJSON.h>

struct verify_opts {
	const char *pair; /* "CLIENT:SERVER", or NULL for every pair of the intent */
	cJSON *json;  /* --json: the envelope (cli/json.h) the pairs go into */
	int tcp_port; /* the probe's out-of-band port (perftest's 18515) */
	struct qg_ssh_opts ssh;
};

/*
 * Run every pair's traffic test over SSH and judge it. Returns the exit
 * code: 0 nothing FATAL, 1 a check is FATAL, 2 no such pair, 3 a host could
 * not be reached or the test could not run.
 */
int verify_run(const struct qg_model *m, const struct verify_opts *vo);

#endif
