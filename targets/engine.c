/* SPDX-License-Identifier: MIT */
/*
 * The push transaction over a target's steps (engine.h): every decision of
 * how a push ended is made here, once, from what the steps and the
 * read-backs say; the words of the device stay the adapter's.
 */
#include "engine.h"

#include <stdio.h>
#include <string.h>

/* One run of the transaction. */
struct txn {
	const struct qg_push_ops *ops;
	void *dev;
	struct qg_push_result *r;
	bool reconnected; /* a lost step made a new connection */
	char cause[1024]; /* why the push did not simply converge: the failed step's words */
	char err[1024];	  /* the latest step's failure */
};

int qg_push_count_lines(const char *text, size_t len)
{
	int n = 0;
	for (size_t i = 0; text && i < len; i++)
		n += text[i] == '\n';
	return n;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* Where the operator finds the earlier configuration: the adapter's words, or ours. */
static void look(const struct txn *t, char *out, size_t cap)
{
	out[0] = '\0';
	if (t->ops->look)
		t->ops->look(t->dev, t->r, out, cap);
	if (!out[0])
		snprintf(out, cap, "look at it");
}

static void drop_checkpoint(const struct txn *t)
{
	if (t->ops->drop_checkpoint && t->r->saved_as[0])
		t->ops->drop_checkpoint(t->dev, t->r);
}

/* The switch may be anywhere between: say what is known, and where to look. */
static void not_restored(struct txn *t, const char *what)
{
	char where[512];
	look(t, where, sizeof(where));
	t->r->state = QG_PUSH_NOT_RESTORED;
	qg_push_say(t->r, "%s; %s%s: the switch may be half-configured; %s", t->cause,
		    t->reconnected ? "reconnected, " : "", what, where);
}

/* In sync: only now is it made the configuration a reboot starts with. */
static void save(struct txn *t)
{
	struct qg_push_result *r = t->r;
	int rc = t->ops->save(t->dev, r, t->err, sizeof(t->err));
	if (rc != QG_STEP_OK) {
		char where[512];
		look(t, where, sizeof(where));
		r->state = QG_PUSH_FAILED;
		qg_push_say(r,
			    "%d %s%s applied and read back in sync, but not saved (%s): a reboot "
			    "may lose it; %s",
			    r->lines_sent, t->ops->unit, plural(r->lines_sent), t->err, where);
		return;
	}
	drop_checkpoint(t);
	r->state = QG_PUSH_CONVERGED;
	t->ops->say(t->dev, r);
	if (t->cause[0]) {
		/* Converged after all: the step that failed is said too. */
		size_t used = strlen(r->message);
		snprintf(r->message + used, sizeof(r->message) - used,
			 " (%s; the read-back shows it applied)", t->cause);
	}
}

static void roll_back(struct txn *t);
static void settle(struct txn *t, int how);

/*
 * The latest read-back is in sync: the switch's own verdict decides (issue
 * 34). Held: saved. Refused: rolled back as any failure, since a state the
 * switch does not hold is not the intent's, however its configuration
 * reads. Unread: what it holds is unknown, as after a lost step.
 */
static void converge(struct txn *t)
{
	if (!t->ops->verdict) {
		save(t);
		return;
	}
	int rc = t->ops->verdict(t->dev, t->r, t->err, sizeof(t->err));
	if (rc == QG_STEP_OK) {
		save(t);
		return;
	}
	/* A cause of its own; an earlier step's failure, when there was one, stays first. */
	size_t used = strlen(t->cause);
	snprintf(t->cause + used, sizeof(t->cause) - used, "%s%s", used ? "; " : "",
		 rc == QG_STEP_REFUSED ? "read back in sync, but the switch refuses it: "
				       : "read back in sync, but the switch's own verdict "
					 "could not be read: ");
	used = strlen(t->cause);
	snprintf(t->cause + used, sizeof(t->cause) - used, "%s", t->err);
	if (rc == QG_STEP_REFUSED)
		roll_back(t);
	else
		settle(t, QG_STEP_LOST);
}

/*
 * Back to what the first read-back showed, from the latest read-back, and
 * proven by one more: RESTORED, or NOT RESTORED with why.
 */
static void roll_back(struct txn *t)
{
	struct qg_push_result *r = t->r;
	char what[1200];
	int rc = t->ops->roll_back(t->dev, r, t->err, sizeof(t->err));
	if (rc != QG_STEP_OK) {
		snprintf(what, sizeof(what), "the rollback failed (%s; %d %s%s put back)", t->err,
			 r->lines_rolled_back, t->ops->unit, plural(r->lines_rolled_back));
		not_restored(t, what);
		return;
	}
	rc = t->ops->read_back(t->dev, QG_READ_AFTER, t->err, sizeof(t->err));
	if (rc != QG_STEP_OK) {
		snprintf(what, sizeof(what), "the rollback could not be verified (%s)", t->err);
		not_restored(t, what);
		return;
	}
	if (t->ops->compare(t->dev) != QG_AT_BEFORE) {
		char why[512] = "";
		if (t->ops->why)
			t->ops->why(t->dev, QG_AT_BEFORE, why, sizeof(why));
		snprintf(what, sizeof(what),
			 "the rollback could not be verified: the read-back after it still "
			 "differs from the earlier configuration%s%s",
			 why[0] ? ": " : "", why);
		not_restored(t, what);
		return;
	}
	r->state = QG_PUSH_RESTORED;
	drop_checkpoint(t);
	qg_push_say(r, "%s; %srolled back %d %s%s: restored to the earlier configuration", t->cause,
		    t->reconnected ? "reconnected, " : "", r->lines_rolled_back, t->ops->unit,
		    plural(r->lines_rolled_back));
}

/*
 * A step failed after something may have been sent (its words in t->cause):
 * where is the switch? A new connection when the old one may be gone, then
 * the read-back decides. Refused: in sync is saved, as it was is UNCHANGED
 * (the only way to it once apply began), anything else is rolled back. Lost
 * (or unread after it): rolled back whatever the read-back shows, since
 * what the lost step did is unknown, and RESTORED only when proven. Still
 * running past --timeout: in sync is saved; anything else is NOT RESTORED,
 * never rolled back under a change that may still be applying.
 */
static void settle(struct txn *t, int how)
{
	struct qg_push_result *r = t->r;
	char what[1200];
	if (how == QG_STEP_LOST || how == QG_STEP_TIMED_OUT) {
		t->ops->close(t->dev);
		if (t->ops->open(t->dev, t->err, sizeof(t->err)) != 0) {
			snprintf(what, sizeof(what), "outcome unknown: cannot reconnect (%s)",
				 t->err);
			not_restored(t, what);
			return;
		}
		t->reconnected = true;
	}
	if (t->ops->read_back(t->dev, QG_READ_AFTER, t->err, sizeof(t->err)) != QG_STEP_OK) {
		snprintf(what, sizeof(what), "outcome unknown: cannot read back (%s)", t->err);
		not_restored(t, what);
		return;
	}
	enum qg_push_where at = t->ops->compare(t->dev);
	if (how == QG_STEP_LOST) {
		roll_back(t);
	} else if (at == QG_AT_INTENT) {
		converge(t);
	} else if (how == QG_STEP_TIMED_OUT) {
		snprintf(what, sizeof(what), "outcome unknown: %s may still be applying",
			 t->ops->applier);
		not_restored(t, what);
	} else if (at == QG_AT_BEFORE) {
		r->state = QG_PUSH_UNCHANGED;
		r->lines_sent = 0;
		drop_checkpoint(t);
		qg_push_say(r, "%s; the read-back shows nothing applied: unchanged", t->cause);
	} else {
		roll_back(t);
	}
}

/*
 * The OS version first (issue 34): a switch that speaks another dialect
 * than its files were built for would read back and take them in words it
 * does not mean. 0 to go on; -1 when r says why nothing was sent.
 */
static int check_version(struct txn *t, const struct qg_switch *sw)
{
	const struct qg_os_versions *vs = sw && sw->target ? sw->target->versions : NULL;
	if (!t->ops->os_version || !vs)
		return 0;
	char running[QG_VERSION_LEN], msg[768];
	int rc = t->ops->os_version(t->dev, running, sizeof(running), t->err, sizeof(t->err));
	if (rc != QG_STEP_OK) {
		t->r->state = rc < 0 ? QG_PUSH_UNREACHABLE : QG_PUSH_UNCHANGED;
		qg_push_say(t->r, "cannot read the switch's OS version (%s); nothing sent", t->err);
		return -1;
	}
	if (qg_os_version_match(vs, sw->os_version, running, msg, sizeof(msg)) != 0) {
		t->r->state = QG_PUSH_UNCHANGED;
		qg_push_say(t->r, "%s; nothing sent", msg);
		return -1;
	}
	return 0;
}

/* Everything before the first change: 0 to go on and apply, -1 when r says how it ended. */
static int prepare(struct txn *t, const struct qg_access *a, const struct qg_switch *sw,
		   bool dry_run)
{
	const struct qg_push_ops *ops = t->ops;
	struct qg_push_result *r = t->r;
	if (ops->open(t->dev, t->err, sizeof(t->err)) != 0) {
		r->state = QG_PUSH_UNREACHABLE;
		qg_push_say(r, "%s", t->err);
		return -1;
	}
	if (check_version(t, sw) != 0)
		return -1;
	int rc = ops->read_back(t->dev, QG_READ_BEFORE, t->err, sizeof(t->err));
	if (rc != QG_STEP_OK) {
		/* Never read, so never reached as far as a push goes. */
		r->state = rc < 0 ? QG_PUSH_UNREACHABLE : QG_PUSH_UNCHANGED;
		qg_push_say(r, "%s; nothing sent", t->err);
		return -1;
	}
	/* The wrong host behind a name is how the wrong switch gets configured. */
	if (ops->hostname && !qg_push_hostname_ok(a, sw, ops->hostname(t->dev), r))
		return -1;
	rc = ops->plan(t->dev, r, t->err, sizeof(t->err));
	if (rc != 0) {
		qg_push_say(r, rc > 0 ? "cannot converge exactly: %s; nothing sent" : "%s",
			    rc > 0 ? t->err : "out of memory; nothing sent");
		return -1;
	}
	if (r->lines_planned == 0) {
		/* In sync as written: in sync only if the switch holds it too. */
		rc = ops->verdict ? ops->verdict(t->dev, r, t->err, sizeof(t->err)) : QG_STEP_OK;
		if (rc != QG_STEP_OK) {
			r->state = QG_PUSH_FAILED;
			qg_push_say(
			    r,
			    rc == QG_STEP_REFUSED
				? "configured as the intent says, but the switch refuses it: "
				  "%s; nothing sent"
				: "configured as the intent says, but the switch's own verdict "
				  "could not be read (%s); nothing sent",
			    t->err);
			return -1;
		}
		r->state = QG_PUSH_IN_SYNC;
		ops->say(t->dev, r);
		return -1;
	}
	if (dry_run) {
		rc = ops->dry_run ? ops->dry_run(t->dev, r, t->err, sizeof(t->err)) : QG_STEP_OK;
		if (rc != QG_STEP_OK) {
			qg_push_say(r, "%d %s%s, but the switch's own dry run refuses them: %s",
				    r->lines_planned, ops->unit, plural(r->lines_planned), t->err);
			return -1;
		}
		r->state = QG_PUSH_WOULD_CHANGE;
		ops->say(t->dev, r);
		return -1;
	}
	if (ops->checkpoint && ops->checkpoint(t->dev, r, t->err, sizeof(t->err)) != QG_STEP_OK) {
		r->saved_as[0] = '\0';
		qg_push_say(r,
			    "cannot keep a copy of the configuration before changing it, so "
			    "nothing sent: %s",
			    t->err);
		return -1;
	}
	return 0;
}

int qg_push_run(const struct qg_push_ops *ops, void *dev, const struct qg_access *a,
		const struct qg_switch *sw, bool dry_run, struct qg_push_result *r)
{
	struct txn t = {.ops = ops, .dev = dev, .r = r};
	r->state = QG_PUSH_UNCHANGED;
	if (prepare(&t, a, sw, dry_run) == 0) {
		int rc = ops->apply(dev, r, t.err, sizeof(t.err));
		if (rc != QG_STEP_OK) {
			snprintf(t.cause, sizeof(t.cause), "%s", t.err);
			settle(&t, rc);
		} else if (ops->read_back(dev, QG_READ_AFTER, t.err, sizeof(t.err)) != QG_STEP_OK) {
			/* Applied, but what it did is unknown: a new connection reads again. */
			snprintf(t.cause, sizeof(t.cause), "cannot read back after the push (%s)",
				 t.err);
			settle(&t, QG_STEP_LOST);
		} else if (ops->compare(dev) == QG_AT_INTENT) {
			converge(&t);
		} else {
			char why[512] = "";
			if (ops->why)
				ops->why(dev, QG_AT_INTENT, why, sizeof(why));
			snprintf(t.cause, sizeof(t.cause),
				 "applied, but the read-back differs from the intent%s%s",
				 why[0] ? ": " : "", why);
			roll_back(&t);
		}
	}
	ops->close(dev);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}
