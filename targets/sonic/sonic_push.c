/* SPDX-License-Identifier: MIT */
/*
 * The SONiC driver: SONiC's own CLI over SSH, one command a channel, as its
 * operators run it (sonic-utilities' generic config updater):
 *
 *   show runningconfiguration all            the read-back (config_db JSON)
 *   sudo -n config checkpoint NAME           the earlier configuration, kept
 *   sudo -n config apply-patch /dev/stdin    the JSON Patch, on the channel's stdin
 *   sudo -n config rollback NAME             back to the checkpoint
 *   sudo -n config save -y                   only once the read-back is in sync
 *   sudo -n config delete-checkpoint NAME    only after success
 *
 * apply-patch validates the patched configuration against SONiC's YANG
 * models before it changes anything, so a refused patch leaves the switch
 * as it was: the read-back decides, at every path the patch touches. A
 * connection lost during apply-patch leaves the outcome unknown until a new
 * connection's read-back decides. An apply-patch that does not answer
 * within --timeout is not a lost connection: it may still be applying
 * (GCU applies a change a second, and a switch's `show` reads the
 * database, not behind the apply), so only "in sync" is final then, and
 * nothing is rolled back under it. The checkpoint stays on the switch
 * whenever the switch may not be as it was, so `config rollback NAME` is
 * at hand. `sudo -n`: a sudo that wants a password fails at once instead of
 * waiting for one on a channel with no terminal. `--dry-run` runs
 * apply-patch's own dry run: the switch validates, nothing changes.
 */
#include "../../gen/errmsg.h"
#include "../../gen/names.h"
#include "../driver.h"
#include "config_db.h"
#include "config_db_judge.h"
#include "config_db_patch.h"
#include "sonic_readback.h"
#include "sonic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SHOW_RUNNING "show runningconfiguration all"

struct sonic {
	const struct qg_switch *sw;
	const char *intent; /* the model's file, for an error at its lines */
	const struct qg_access *a;
	struct qg_ssh *ssh;
	char checkpoint[64];
};

static int open_session(struct sonic *c, char *err, size_t errlen)
{
	qg_ssh_close(c->ssh);
	c->ssh = NULL;
	struct qg_ssh_target t = qg_switch_ssh_target(c->sw);
	return qg_ssh_connect(&t, &c->a->ssh, &c->ssh, err, errlen);
}

/* The last non-empty line of a command's output: what SONiC's CLI says of a failure. */
static void last_line(const struct qg_buf *b, char *out, size_t cap)
{
	size_t end = b->len;
	while (end > 0 &&
	       (b->data[end - 1] == '\n' || b->data[end - 1] == '\r' || b->data[end - 1] == ' '))
		end--;
	size_t start = end;
	while (start > 0 && b->data[start - 1] != '\n')
		start--;
	snprintf(out, cap, "%.*s", (int)(end - start), end ? b->data + start : "");
}

/*
 * Run one command. 0: exit status 0, its stdout in out (may be NULL). 1: it
 * failed, with what it said in err. -1: the connection failed (err); the
 * command may or may not have run. QG_SSH_TIMED_OUT: it did not finish within
 * --timeout (err) and may still be running.
 */
static int run(struct sonic *c, const char *cmd, const char *in, size_t in_len, struct qg_buf *out,
	       char *err, size_t errlen)
{
	struct qg_buf o = {0}, e = {0};
	int status = -1;
	if (!c->ssh && open_session(c, err, errlen) != 0)
		return -1;
	int ran = qg_ssh_run(c->ssh, cmd, in, in_len, &o, &e, &status, err, errlen);
	if (ran != 0) {
		qg_buf_free(&o);
		qg_buf_free(&e);
		/* The session is gone (or abandoned): the next command connects again. */
		qg_ssh_close(c->ssh);
		c->ssh = NULL;
		return ran == QG_SSH_TIMED_OUT ? ran : -1;
	}
	int rc = 0;
	if (status != 0) {
		char said[512];
		last_line(e.len ? &e : &o, said, sizeof(said));
		qg_errf(err, errlen, "'%s' failed (exit %d): %s", cmd, status,
			*said ? said : "no message");
		rc = 1;
	} else if (out) {
		*out = o;
		o = (struct qg_buf){0};
	}
	qg_buf_free(&o);
	qg_buf_free(&e);
	return rc;
}

/* A configuration, read and parsed; -1 with err when it cannot be read or judged as one. */
static int read_back(struct sonic *c, cJSON **have, char *err, size_t errlen)
{
	struct qg_buf text = {0};
	*have = NULL;
	if (run(c, SHOW_RUNNING, NULL, 0, &text, err, errlen) != 0)
		return -1;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	int rc = sonic_readback_parse(text.data ? text.data : "", text.len, have, &d);
	if (rc != 0)
		qg_errf(err, errlen, "'%s': %s", SHOW_RUNNING, d.n ? d.v[0].msg : "out of memory");
	qg_diags_free(&d);
	qg_buf_free(&text);
	return rc == 0 ? 0 : -1;
}

/* Whether the switch is at the intent: no patch left. */
static bool in_sync(const cJSON *want, const cJSON *have)
{
	bool oom;
	cJSON *left = sonic_config_patch(want, have, &oom);
	cJSON_Delete(left);
	return !left && !oom;
}

/* The checkpoint is no longer needed: gone from the switch, and from the result. */
static void drop_checkpoint(struct sonic *c, struct qg_push_result *r)
{
	char cmd[128], err[256];
	snprintf(cmd, sizeof(cmd), "sudo -n config delete-checkpoint %s", c->checkpoint);
	if (run(c, cmd, NULL, 0, NULL, err, sizeof(err)) == 0) {
		c->checkpoint[0] = '\0';
		r->saved_as[0] = '\0';
	}
}

/* Something was or may have been applied that must not stay: back to the checkpoint, proven. */
static void roll_back(struct sonic *c, const cJSON *before, const cJSON *patch, const char *cause,
		      struct qg_push_result *r)
{
	char cmd[128], err[1024], name[sizeof(c->checkpoint)];
	cJSON *after = NULL;
	snprintf(name, sizeof(name), "%s", c->checkpoint);
	snprintf(cmd, sizeof(cmd), "sudo -n config rollback %s", name);
	int rc = run(c, cmd, NULL, 0, NULL, err, sizeof(err));
	if (rc == 0 && read_back(c, &after, err, sizeof(err)) == 0 &&
	    sonic_config_same_at(patch, after, before)) {
		r->state = QG_PUSH_RESTORED;
		r->lines_rolled_back = r->lines_sent;
		drop_checkpoint(c, r);
		qg_push_say(r,
			    "%s; rolled back to checkpoint %s: restored to the earlier "
			    "configuration",
			    cause, name);
	} else {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; the rollback %s: look at it (checkpoint %s is kept: 'sudo config "
			    "rollback %s')",
			    cause, rc == 0 && after ? "could not be verified" : err, r->saved_as,
			    r->saved_as);
	}
	cJSON_Delete(after);
}

/*
 * apply-patch did not answer (the connection dropped) or refused: where is
 * the switch? In sync: applied (0). As it was: nothing applied (1, state
 * UNCHANGED). Anything else is rolled back (1). still_applying (it did not
 * finish within --timeout): only "in sync" is final; anything else is an
 * outcome unknown (1, NOT RESTORED), the checkpoint kept: what the read-back
 * shows now the apply may yet change, and a rollback would race it.
 */
static int settle(struct sonic *c, const cJSON *want, const cJSON *before, const cJSON *patch,
		  bool still_applying, const char *cause, struct qg_push_result *r)
{
	char err[1024];
	cJSON *after = NULL;
	if (read_back(c, &after, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; outcome unknown: cannot read back (%s); checkpoint %s holds the "
			    "earlier configuration ('sudo config rollback %s')",
			    cause, err, r->saved_as, r->saved_as);
		return 1;
	}
	int rc = 1;
	if (in_sync(want, after)) {
		rc = 0;
	} else if (still_applying) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; outcome unknown: apply-patch may still be applying; look with "
			    "'show runningconfiguration all' once it ends (checkpoint %s is kept: "
			    "'sudo config rollback %s')",
			    cause, r->saved_as, r->saved_as);
	} else if (sonic_config_same_at(patch, after, before)) {
		r->state = QG_PUSH_UNCHANGED;
		drop_checkpoint(c, r);
		qg_push_say(r, "%s; the read-back shows nothing applied: unchanged", cause);
	} else {
		roll_back(c, before, patch, cause, r);
	}
	cJSON_Delete(after);
	return rc;
}

static int count_ops(const cJSON *patch)
{
	return patch ? cJSON_GetArraySize(patch) : 0;
}

/* Checked and patched against what the switch holds now; -1 with r filled when not. */
static int plan(struct sonic *c, const cJSON *want, const cJSON *before, cJSON **patch,
		struct qg_push_result *r)
{
	if (!qg_push_hostname_ok(c->a, c->sw, sonic_readback_hostname(before), r))
		return -1;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	struct sonic_ports_at at = {c->intent, c->sw->ports_pos};
	int judged = sonic_config_judge(want, before, &at, &d);
	/* An error at the intent's lines (its ports) says where, as the compiler form does. */
	char where[300] = "";
	if (judged > 0 && d.v[0].file && d.v[0].pos.line > 0)
		snprintf(where, sizeof(where), "%s:%d:%d: ", d.v[0].file, d.v[0].pos.line,
			 d.v[0].pos.col);
	if (judged > 0)
		qg_push_say(r, "cannot converge exactly: %s%s%s", where, d.v[0].msg,
			    judged > 1 ? " (and more: qosgen diff --running-config shows all)"
				       : "");
	qg_diags_free(&d);
	if (judged > 0)
		return -1;
	bool oom;
	*patch = sonic_config_patch(want, before, &oom);
	if (oom) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	sonic_patch_text(*patch, &r->sent);
	r->lines_planned = count_ops(*patch);
	return 0;
}

/* Applied: the read-back decides; in sync, it is saved and the checkpoint goes. */
static void finish(struct sonic *c, const cJSON *want, const cJSON *before, const cJSON *patch,
		   struct qg_push_result *r)
{
	char err[1024];
	cJSON *after = NULL;
	int rb = read_back(c, &after, err, sizeof(err));
	bool ok = rb == 0 && in_sync(want, after);
	cJSON_Delete(after);
	/* A read-back that failed once is tried again by settle(), on a new connection. */
	if (rb != 0 && settle(c, want, before, patch, false, err, r) != 0)
		return;
	if (rb == 0 && !ok) {
		roll_back(c, before, patch, "applied, but the read-back differs from the intent",
			  r);
		return;
	}
	int saved = run(c, "sudo -n config save -y", NULL, 0, NULL, err, sizeof(err));
	if (saved != 0) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r,
			    "applied and read back in sync, but %s (%s): a reboot may lose it; "
			    "run 'sudo config save -y' (checkpoint %s is kept)",
			    saved < 0 ? "whether 'config save' ran is unknown" : "not saved", err,
			    r->saved_as);
		return;
	}
	drop_checkpoint(c, r);
	r->state = QG_PUSH_CONVERGED;
	qg_push_say(r, "%d changes applied with config apply-patch, read back in sync, saved%s",
		    r->lines_sent,
		    c->checkpoint[0] ? "; checkpoint could not be deleted ('sudo config "
				       "delete-checkpoint' it)"
				     : "");
}

static int sonic_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx; /* the switch gets the patch from the read-back, not a generated file */
	struct sonic c = {.sw = &m->switches[i], .intent = m->file, .a = a};
	char err[1024], cmd[160];
	cJSON *want = sonic_config_from_model(m, i), *before = NULL, *patch = NULL;
	r->state = QG_PUSH_UNCHANGED;
	if (!want) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	if (open_session(&c, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_UNREACHABLE;
		qg_push_say(r, "%s", err);
		goto out;
	}
	if (read_back(&c, &before, err, sizeof(err)) != 0) {
		qg_push_say(r, "%s; nothing sent", err);
		goto out;
	}
	if (plan(&c, want, before, &patch, r) != 0)
		goto out;
	if (!patch) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync: nothing to send");
		goto out;
	}
	if (dry_run) {
		int rc = run(&c, "sudo -n config apply-patch --dry-run /dev/stdin", r->sent.data,
			     r->sent.len, NULL, err, sizeof(err));
		if (rc == 0) {
			r->state = QG_PUSH_WOULD_CHANGE;
			qg_push_say(r,
				    "%d changes would be applied; the switch's apply-patch "
				    "--dry-run accepts them (nothing changed)",
				    r->lines_planned);
		} else {
			qg_push_say(r, "%d changes, but the switch's dry run refuses them: %s",
				    r->lines_planned, err);
		}
		goto out;
	}
	snprintf(c.checkpoint, sizeof(c.checkpoint), "qosgen-%ld-%ld", (long)time(NULL),
		 (long)getpid());
	snprintf(cmd, sizeof(cmd), "sudo -n config checkpoint %s", c.checkpoint);
	if (run(&c, cmd, NULL, 0, NULL, err, sizeof(err)) != 0) {
		qg_push_say(r, "no checkpoint, so nothing sent: %s", err);
		goto out;
	}
	snprintf(r->saved_as, sizeof(r->saved_as), "%s", c.checkpoint);
	int rc = run(&c, "sudo -n config apply-patch /dev/stdin", r->sent.data, r->sent.len, NULL,
		     err, sizeof(err));
	r->lines_sent = r->lines_planned;
	if (rc != 0) {
		char cause[1200];
		snprintf(cause, sizeof(cause), "%s%s", rc == -1 ? "the connection dropped: " : "",
			 err);
		if (settle(&c, want, before, patch, rc == QG_SSH_TIMED_OUT, cause, r) != 0) {
			if (r->state == QG_PUSH_UNCHANGED)
				r->lines_sent = 0;
			goto out;
		}
	}
	finish(&c, want, before, patch, r);
out:
	cJSON_Delete(patch);
	cJSON_Delete(before);
	cJSON_Delete(want);
	qg_ssh_close(c.ssh);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}

const struct qg_driver qg_driver_sonic = {.target = &qg_target_sonic, .push = sonic_push};
