/* SPDX-License-Identifier: MIT */
/*
 * The device side of a target: reaching a device, reading it back, pushing
 * the difference and rolling back. A driver belongs to one target
 * (struct qg_target, model/target.h, the pure side) and is found through the
 * registry (targets/registry.h); the compiler core never sees this header.
 */
#ifndef QG_DRIVER_H
#define QG_DRIVER_H

#include "../lib/buf.h"
#include "../model/target.h"
#include "../transport/ssh.h"
#include "../transport/tls.h"

#include <stdbool.h>

/* How a push of one device ended. */
enum qg_push_state {
	QG_PUSH_IN_SYNC,      /* nothing to send */
	QG_PUSH_WOULD_CHANGE, /* --dry-run: differences found, nothing sent */
	QG_PUSH_CONVERGED,    /* sent, read back, in sync */
	QG_PUSH_RESTORED,     /* failed; what was applied was rolled back and verified */
	QG_PUSH_UNCHANGED,    /* failed before anything was sent (unreachable, refused key) */
	QG_PUSH_NOT_RESTORED, /* failed and the rollback could not be verified: look at it */
	QG_PUSH_PARTIAL,      /* a host: all it has is set, but some tool or knob is missing */
	/*
	 * a host: some settings failed (each reported); a switch: in sync but not saved
	 * (targets/engine.c), or a DVS change that failed part-way
	 */
	QG_PUSH_FAILED,
	QG_PUSH_UNREACHABLE, /* never reached: connect, host key or login failed; nothing sent */
};

struct qg_push_result {
	enum qg_push_state state;
	int lines_planned;
	int lines_sent;
	int lines_rolled_back;
	char saved_as[64];  /* the named copy of the earlier configuration, if made */
	char message[1024]; /* what happened, one line */
	struct qg_buf sent; /* the configuration lines sent, in order */
	/*
	 * A host: "KEY: REASON\n" for each setting its script reported failed,
	 * in its order, REASON as the host wrote it (untrusted: escape it to
	 * print it) and bounded (targets/common/script_push.c); empty otherwise.
	 */
	struct qg_buf failed;
	/*
	 * A switch: what its own verdict tolerates but the operator should
	 * know, one line each (issue 34: the headroom the switch computed
	 * against qosgen's, beyond the tolerance). It may hold the device's
	 * words: cli/ escapes them when it prints them. The state stands.
	 */
	struct qg_buf warnings;
};

/*
 * What a push may use and do, from the command line: each transport's
 * options its own, and the policies a driver reads.
 */
struct qg_access {
	struct qg_ssh_opts ssh; /* switches and hosts reached over SSH */
	struct qg_tls_opts tls; /* endpoints reached over HTTPS (vCenter) */
	/* go on when a switch's read-back names another hostname (--accept-hostname) */
	bool accept_hostname;
	/* hosts: remove what the push installs for persistence, and run nothing (--uninstall) */
	bool uninstall;
};

struct qg_driver {
	const struct qg_target *target;
	/*
	 * Bring device i to the model, sending only the difference and leaving
	 * no device half-configured (see qg_push_state); with dry_run, read and
	 * report only. Called from the push's worker threads with one ctx for
	 * all of them: nothing may write to ctx. Fills r; returns 0 when the
	 * device is in sync at the end, -1 otherwise.
	 */
	int (*push)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    const struct qg_access *a, bool dry_run, struct qg_push_result *r);
	/*
	 * For verify: what to run on host i as `QG_DRY_RUN=1 sh -s` (nothing
	 * written) to learn whether the copy a push installed to survive a
	 * reboot is current; it prints one report line of key "persist". Built
	 * from files, what the target's emit() gave for i. NULL: the target
	 * installs nothing. 0, -EINVAL or -ENOMEM.
	 */
	int (*persist_probe)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			     const struct qg_outset *files, struct qg_buf *out);
};

/* Set r->message, printf-style: one line saying what happened to the device. */
void qg_push_say(struct qg_push_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The wrong host behind a name is how the wrong switch gets configured: true
 * when the switch's own hostname names sw (or --accept-hostname), else
 * false with r's message saying nothing was sent.
 */
bool qg_push_hostname_ok(const struct qg_access *a, const struct qg_switch *sw,
			 const char *hostname, struct qg_push_result *r);

/* Where a device of the intent is reached over SSH: its address, port and user. */
struct qg_ssh_target qg_switch_ssh_target(const struct qg_switch *s);
struct qg_ssh_target qg_host_ssh_target(const struct qg_host *h);

#endif
