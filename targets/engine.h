/* SPDX-License-Identifier: MIT */
/*
 * The push transaction of a switch, written once for every switch driver:
 *
 *   open -> OS version -> read back -> hostname -> judge + plan -> (dry run stops here)
 *   -> checkpoint -> apply -> read back: in sync? -> the switch's verdict: held? -> save
 *                              not in sync, or refused: roll back -> read back
 *                                                       -> RESTORED / NOT RESTORED
 *
 * A driver is an adapter: a const struct qg_push_ops over its own session
 * (an opaque pointer), the transport inside it. The engine owns every
 * decision of enum qg_push_state, the hostname check, the counts and the
 * outcome of a step whose end is unknown: a step that lost its connection
 * or ran past --timeout after something may have been sent is never
 * UNCHANGED: a lost step is rolled back, RESTORED only where the read-back
 * after the rollback proves it; a step still running past --timeout is
 * saved when the read-back is in sync, else NOT RESTORED without a
 * rollback, which would race it (sonic_push.c says why).
 * The engine does no I/O of its own, so tests/unit/test_engine.c drives
 * every path through a fake target whose steps fail on demand.
 */
#ifndef QG_ENGINE_H
#define QG_ENGINE_H

#include "driver.h"

#include <stdbool.h>
#include <stddef.h>

/* How one step that talks to the device ended. */
enum qg_step {
	QG_STEP_OK = 0,
	/* the device answered no, or an answer that does not parse, and the step is over: it
	 * took no effect beyond what the result counts (r->lines_sent for apply), and nothing
	 * of it can still take effect later. A step that goes on on the device after its
	 * answer (NVUE's apply) is REFUSED only once the device says it ended so; until
	 * then it is TIMED_OUT, never REFUSED, or the read-back could find it not yet
	 * applied and say UNCHANGED (issue 36) */
	QG_STEP_REFUSED = 1,
	QG_STEP_LOST = -1,	/* the connection failed: the step may or may not have run */
	QG_STEP_TIMED_OUT = -2, /* no end within --timeout: the step may still be running */
};

/* Which read-back a read_back op fills: the first, or the latest one after a change. */
enum qg_push_slot { QG_READ_BEFORE, QG_READ_AFTER };

/* Where the latest read-back (QG_READ_AFTER) finds the device. */
enum qg_push_where {
	QG_AT_INTENT,  /* in sync with the intent: nothing left to send */
	QG_AT_BEFORE,  /* as the first read-back, at everything the plan touches */
	QG_AT_NEITHER, /* part-way, or changed by someone else meanwhile */
};

/*
 * A target's steps. Each takes the adapter's session `dev`; a step that
 * fails writes what happened to err, one clause in the device's own words.
 * Optional ops may be NULL.
 */
struct qg_push_ops {
	/* "line", "change", "setting": what lines_planned counts, for messages */
	const char *unit;
	/* what applies a change, for "outcome unknown: X may still be applying" */
	const char *applier;
	/* Reach the device, again after a lost step. 0, or -1 with err. */
	int (*open)(void *dev, char *err, size_t errlen);
	/* Drop the connection; the session stays for another open. */
	void (*close)(void *dev);
	/*
	 * Optional: the OS version the device runs (issue 34), read before
	 * anything else, into out as model/osversion.h's QG_VERSION_RULE writes
	 * it: enum qg_step. The engine refuses, before the first read-back, a
	 * switch whose version is outside its target's or speaks another
	 * dialect than the one its files were built for (qg_os_version_match).
	 */
	int (*os_version)(void *dev, char *out, size_t cap, char *err, size_t errlen);
	/*
	 * Read the device's configuration and parse it into slot: enum qg_step.
	 * LOST or TIMED_OUT when it was not answered (the first read-back then
	 * makes the push UNREACHABLE), REFUSED when refused or unparseable.
	 */
	int (*read_back)(void *dev, enum qg_push_slot slot, char *err, size_t errlen);
	/* The hostname of the first read-back (NULL op: the target has none to check). */
	const char *(*hostname)(void *dev);
	/*
	 * Judge and plan from the first read-back: the lines to send into r->sent
	 * and their count into r->lines_planned (0: in sync). 0; 1 when the target
	 * cannot converge exactly (err says why); -1 out of memory.
	 */
	int (*plan)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Optional: the device's own dry run of the plan: enum qg_step. */
	int (*dry_run)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Optional: keep the earlier configuration, named in r->saved_as: enum qg_step. */
	int (*checkpoint)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Send the plan, counting what the device accepted in r->lines_sent: enum qg_step. */
	int (*apply)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Judge the latest QG_READ_AFTER read-back. */
	enum qg_push_where (*compare)(void *dev);
	/*
	 * Optional: the device's own verdict on a state its read-back shows in
	 * sync (issue 34), from its operational state rather than the
	 * configuration qosgen wrote: SONiC's buffer manager, NVUE's
	 * operational revision, Onyx's show commands. OK: the device holds it.
	 * REFUSED: it does not (err says what, in the device's words): never
	 * CONVERGED nor in sync; after a change it is rolled back as any other
	 * failure. LOST or TIMED_OUT: the verdict was not read, which proves
	 * nothing either. What the device holds but differs from qosgen's own
	 * numbers beyond their tolerance goes to r->warnings. Called after the
	 * read-back it judges (the first one when nothing is sent).
	 */
	int (*verdict)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/*
	 * Optional: why the latest compare did not find the device at `at` (QG_AT_INTENT
	 * after the apply, QG_AT_BEFORE after a rollback), one clause in the target's
	 * words ("" when it has none).
	 */
	void (*why)(void *dev, enum qg_push_where at, char *out, size_t cap);
	/*
	 * Put back what the first read-back showed, from the latest read-back,
	 * counting r->lines_rolled_back: enum qg_step.
	 */
	int (*roll_back)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Make the configuration the one a reboot starts with: enum qg_step. */
	int (*save)(void *dev, struct qg_push_result *r, char *err, size_t errlen);
	/* Optional: after success, drop the checkpoint (clearing r->saved_as when gone). */
	void (*drop_checkpoint)(void *dev, struct qg_push_result *r);
	/*
	 * Where the operator finds the earlier configuration when the switch may
	 * not be as it was ("the earlier configuration is saved on it as 'X'").
	 */
	void (*look)(void *dev, const struct qg_push_result *r, char *out, size_t cap);
	/* The message of IN_SYNC, WOULD_CHANGE and CONVERGED (r->state set). */
	void (*say)(void *dev, struct qg_push_result *r);
};

/*
 * Run the transaction for switch sw through ops over dev (opened here,
 * closed before returning; dev itself stays the caller's). Fills r as
 * struct qg_driver.push says; returns 0 when in sync at the end (or a dry
 * run's plan), -1 otherwise.
 */
int qg_push_run(const struct qg_push_ops *ops, void *dev, const struct qg_access *a,
		const struct qg_switch *sw, bool dry_run, struct qg_push_result *r);

/* The number of '\n'-ended lines in text (NULL: 0): what most plans count. */
int qg_push_count_lines(const char *text, size_t len);

#endif
