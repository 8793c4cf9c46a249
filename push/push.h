/* SPDX-License-Identifier: MIT */
/*
 * push/, the runs that reach devices (docs/architecture.md): the device pool
 * of diff and push and `push --batch`'s waves (push.c, waves.c), the pairs
 * of verify over SSH (verify.c), and the one `--json` envelope every command
 * fills (json.c). Each device's transaction is its target's driver on the
 * engine (targets/engine.c), below this floor; the commands (cli/) are
 * above it and only parse arguments and print.
 */
#ifndef QG_PUSH_PUSH_H
#define QG_PUSH_PUSH_H

#include "../model/model.h"
#include "../targets/driver.h"

#include <cjson/cJSON.h>

struct push_opts {
	const char *switch_name; /* --switch NAME */
	const char *host_name;	 /* --host NAME */
	const char *dvs_name;	 /* --dvs NAME; all three NULL with --all */
	int jobs;		 /* -j */
	bool dry_run;
	cJSON *json;		 /* --json: the envelope (push/json.h) the devices go into */
	struct qg_access access; /* SSH and TLS options, --accept-hostname */
	const char *templates;	 /* --templates DIR, for the host scripts */
	bool as_diff;		 /* `qosgen diff`: only what differs on stdout, no summary */
	bool exit_code;		 /* with as_diff: exit 1 when anything differs */
	/*
	 * --batch N (with --all): waves of N devices, switches first, then
	 * DVSes, then hosts, each in the intent's order, a wave never mixing
	 * kinds; the first wave with a device not in sync or converged stops
	 * the push, the rest untouched. 0: all at once.
	 */
	int batch;
	/*
	 * --verify (with --all): after each wave that converged, the intent's
	 * verify pairs whose two hosts are now pushed (push/waves.h), as
	 * `qosgen verify` runs them; a pair that is not clean (exit 1 or 3 of
	 * verify) stops the push like a device that did not converge. Without
	 * --batch: once, after the one wave. verify_port: verify's -p.
	 */
	bool verify;
	int verify_port;
};

/*
 * Push and report; returns the exit code (0, 2 unknown device, 3 a device
 * failed; as a diff with exit_code, 1 when something differs; with verify,
 * verify's 1 or 3 when a pair is not clean, 2 when the intent has none).
 */
int push_run(const struct qg_model *m, const struct push_opts *po);

#endif
