/* SPDX-License-Identifier: MIT */
/*
 * Push to an Onyx switch: only the difference, all or nothing.
 *
 *   read back -> diff -> save a named copy -> configure terminal -> one line at
 *   a time -> exit -> read back, must be in sync -> configuration write
 *
 * On a refused line or a dropped session the switch is read back again
 * (reconnecting if needed) and every setting the push manages is put back to
 * what the first read-back showed (onyx_config_restore), then verified by a
 * third read-back. The result says which of these states the switch is in.
 */
#include "onyx.h"
#include "onyx_diff.h"
#include "onyx_judge.h"
#include "onyx_parse.h"
#include "onyx_restore.h"
#include "onyx_session.h"

#include "../../transport/ssh.h"
#include "../driver.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int connect_switch(const struct qg_switch *sw, const struct qg_ssh_opts *o,
			  struct qg_ssh **ssh, struct onyx_session **s, char *err, size_t errlen)
{
	struct qg_ssh_target t = qg_switch_ssh_target(sw);
	if (qg_ssh_connect(&t, o, ssh, err, errlen) != 0)
		return -1;
	if (onyx_session_open(*ssh, s, err, errlen) != 0) {
		qg_ssh_close(*ssh);
		*ssh = NULL;
		return -1;
	}
	return 0;
}

static void disconnect(struct qg_ssh **ssh, struct onyx_session **s)
{
	onyx_session_close(*s);
	qg_ssh_close(*ssh);
	*s = NULL;
	*ssh = NULL;
}

/* The first error in d as one line ("line 12: ..."), with how many more there are. */
static void first_error(const struct qg_diags *d, char *err, size_t errlen)
{
	const struct qg_diag *e = qg_diags_first_error(d);
	if (e)
		snprintf(err, errlen, "running-config line %d: %s%s", e->pos.line, e->msg,
			 d->errors > 1 ? " (and more: qosgen diff shows all)" : "");
	else
		snprintf(err, errlen, "out of memory");
}

/* show running-config, parsed. 0, or -1 with err (what was read, when it was no running-config). */
static int read_back(struct onyx_session *s, struct onyx_config *c, char *err, size_t errlen)
{
	struct qg_buf text = {0};
	int rc = onyx_session_cmd(s, "show running-config", &text, err, errlen);
	if (rc == 1)
		snprintf(err, errlen, "'show running-config' was refused: %.200s", text.data);
	if (rc == 0) {
		struct qg_diags d;
		qg_diags_init(&d, "running-config");
		rc = onyx_config_parse(text.data ? text.data : "", text.len, c, &d);
		if (rc)
			first_error(&d, err, errlen);
		qg_diags_free(&d);
	}
	qg_buf_free(&text);
	return rc ? -1 : 0;
}

/* Send a command list in config mode. Returns lines sent OK; *failed on error. */
static int send_lines(struct onyx_session *s, const char *cmds, struct qg_buf *log, int *failed,
		      char *what, size_t wlen, char *err, size_t errlen)
{
	int sent = 0, sec;
	*failed = 0;
	struct qg_buf reply = {0};
	const char *cursor = cmds, *line;
	size_t len;
	while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
		char cmd[512];
		if (len >= sizeof(cmd)) {
			/* Never a cut command: refuse the line whole. */
			*failed = 1;
			snprintf(what, wlen, "a command of %zu bytes is longer than qosgen sends",
				 len);
			break;
		}
		snprintf(cmd, sizeof(cmd), "%.*s", (int)len, line);
		reply.len = 0;
		int rc = onyx_session_cmd(s, cmd, &reply, err, errlen);
		if (rc == 0) {
			sent++;
			if (log) {
				qg_buf_puts(log, cmd);
				qg_buf_puts(log, "\n");
			}
			continue;
		}
		*failed = rc == 1 ? 1 : -1;
		if (rc == 1) {
			/* The switch's own words, first line only, for the report. */
			char *nl = reply.data ? strchr(reply.data, '\n') : NULL;
			if (nl)
				*nl = '\0';
			snprintf(what, wlen, "'%s': %s", cmd, reply.data ? reply.data : "%");
		} else {
			snprintf(what, wlen, "'%s': %s", cmd, err);
		}
		break;
	}
	qg_buf_free(&reply);
	return sent;
}

static int count_lines(const char *text)
{
	int n = 0;
	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Put back what the push changed, from the first read-back `before`. The
 * session may be gone: then reconnect. Sets the final state and message.
 */
static void roll_back(const struct qg_switch *sw, const struct qg_ssh_opts *o,
		      const struct onyx_config *want, const struct onyx_config *before,
		      struct qg_ssh **ssh, struct onyx_session **s, bool in_config,
		      const char *cause, struct qg_push_result *r)
{
	char err[1024];
	struct onyx_config now = {0}, after = {0};
	struct qg_buf undo = {0}, left = {0};
	const char *how = "";
	if (!*s) {
		how = "reconnected, ";
		if (connect_switch(sw, o, ssh, s, err, sizeof(err)) != 0) {
			r->state = QG_PUSH_NOT_RESTORED;
			qg_push_say(r,
				    "%s; cannot reconnect to roll back (%s): the switch may be "
				    "half-configured; "
				    "the earlier configuration is saved on it as '%s'",
				    cause, err, r->saved_as);
			return;
		}
	}
	/* Back to enable mode; in enable mode "exit" would log out. */
	if (in_config && !how[0]) {
		struct qg_buf junk = {0};
		onyx_session_cmd(*s, "exit", &junk, err, sizeof(err));
		qg_buf_free(&junk);
	}
	if (read_back(*s, &now, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; %scannot read the switch back to roll back (%s); the earlier "
			    "configuration is saved on it as '%s'",
			    cause, how, err, r->saved_as);
		return;
	}
	onyx_config_restore(want, before, &now, &undo);
	if (undo.failed) {
		/* A partial undo must never be sent, nor an empty one taken for "nothing to do". */
		r->state = QG_PUSH_FAILED;
		qg_push_say(
		    r,
		    "%s; %sthe rollback could not be computed (out of memory): nothing was "
		    "put back, the switch keeps what was applied; the earlier configuration "
		    "is saved on it as '%s'",
		    cause, how, r->saved_as);
		goto done;
	}
	int planned = count_lines(undo.data), failed = 0;
	char what[700] = "";
	if (planned > 0) {
		struct qg_buf reply = {0};
		if (onyx_session_cmd(*s, "configure terminal", &reply, err, sizeof(err)) != 0)
			failed = -1;
		qg_buf_free(&reply);
		if (!failed)
			r->lines_rolled_back = send_lines(*s, undo.data, NULL, &failed, what,
							  sizeof(what), err, sizeof(err));
		struct qg_buf out = {0};
		onyx_session_cmd(*s, "exit", &out, err, sizeof(err));
		qg_buf_free(&out);
	}
	/* Verify: a third read-back must show the earlier values. */
	if (!failed && read_back(*s, &after, err, sizeof(err)) == 0) {
		onyx_config_restore(want, before, &after, &left);
		if (left.len == 0 && !left.failed) {
			r->state = QG_PUSH_RESTORED;
			qg_push_say(
			    r, "%s; %srolled back %d line%s: restored to the earlier configuration",
			    cause, how, r->lines_rolled_back, r->lines_rolled_back == 1 ? "" : "s");
		}
	}
	if (r->state != QG_PUSH_RESTORED) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(
		    r,
		    "%s; %sthe rollback did not complete%s%s (%d of %d undo line%s sent): the "
		    "switch "
		    "may be half-configured; the earlier configuration is saved on it as '%s'",
		    cause, how, what[0] ? " at " : "", what, r->lines_rolled_back, planned,
		    planned == 1 ? "" : "s", r->saved_as);
	}
done:
	onyx_config_free(&now);
	onyx_config_free(&after);
	qg_buf_free(&undo);
	qg_buf_free(&left);
}

static int onyx_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	const struct qg_ssh_opts *o = &a->ssh;
	(void)ctx; /* the switch gets commands from the diff, not a generated file */
	const struct qg_switch *sw = &m->switches[i];
	char err[1024], what[700];
	struct qg_ssh *ssh = NULL;
	struct onyx_session *s = NULL;
	struct onyx_config want = {0}, have = {0}, after = {0};
	struct qg_buf cmds = {0}, reply = {0};
	r->state = QG_PUSH_UNCHANGED;

	if (onyx_config_from_model(m, i, &want) != 0) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	if (connect_switch(sw, o, &ssh, &s, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_UNREACHABLE;
		qg_push_say(r, "%s", err);
		goto out;
	}
	if (read_back(s, &have, err, sizeof(err)) != 0) {
		qg_push_say(r, "cannot read the running-config: %s", err);
		goto out;
	}
	/* The wrong host behind a name is how the wrong switch gets configured. */
	if (!a->accept_hostname && !onyx_config_hostname_matches(&have, sw->name, sw->address)) {
		qg_push_say(
		    r,
		    "refused: the switch at %s says its hostname is '%s', not '%s'; nothing "
		    "sent (check the intent's address, or --accept-hostname to go on)",
		    sw->address, have.hostname, sw->name);
		goto out;
	}
	struct qg_diags jd;
	qg_diags_init(&jd, "running-config");
	if (onyx_config_judge(&want, &have, &jd) > 0) {
		first_error(&jd, err, sizeof(err));
		qg_push_say(r, "refused, nothing sent: %s", err);
		qg_diags_free(&jd);
		goto out;
	}
	qg_diags_free(&jd);
	onyx_config_diff(&want, &have, &cmds);
	if (cmds.failed) {
		qg_push_say(r, "out of memory computing the difference; nothing sent");
		goto out;
	}
	r->lines_planned = count_lines(cmds.data);
	if (r->lines_planned == 0) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync, nothing sent");
		goto out;
	}
	if (dry_run) {
		r->state = QG_PUSH_WOULD_CHANGE;
		const char *cursor = cmds.data, *line;
		int sec;
		size_t len;
		while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
			qg_buf_append(&r->sent, line, len);
			qg_buf_puts(&r->sent, "\n");
		}
		qg_push_say(r, "%d line%s to send (dry run: nothing sent)", r->lines_planned,
			    r->lines_planned == 1 ? "" : "s");
		goto out;
	}

	/* A named copy for the operator; no-switch keeps the active file active. */
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(r->saved_as, sizeof(r->saved_as), "qosgen-pre-%Y%m%d-%H%M%S", &tm);
	char save[128];
	snprintf(save, sizeof(save), "configuration write to %s no-switch", r->saved_as);
	int rc = onyx_session_cmd(s, save, &reply, err, sizeof(err));
	if (rc != 0) {
		qg_push_say(r, "cannot save a copy of the configuration before changing it: %s",
			    rc == 1 ? reply.data : err);
		r->saved_as[0] = '\0';
		goto out;
	}
	reply.len = 0;
	rc = onyx_session_cmd(s, "configure terminal", &reply, err, sizeof(err));
	if (rc != 0) {
		qg_push_say(r, "'configure terminal' failed: %s", rc == 1 ? reply.data : err);
		goto out;
	}

	int failed = 0;
	r->lines_sent =
	    send_lines(s, cmds.data, &r->sent, &failed, what, sizeof(what), err, sizeof(err));
	if (failed) {
		char cause[900];
		if (failed == 1) {
			snprintf(cause, sizeof(cause), "line %d of %d refused: %s",
				 r->lines_sent + 1, r->lines_planned, what);
		} else {
			/* A dropped line may still have taken effect: the read-back decides. */
			snprintf(cause, sizeof(cause), "session lost at line %d of %d (%s)",
				 r->lines_sent + 1, r->lines_planned, err);
			disconnect(&ssh, &s);
		}
		roll_back(sw, o, &want, &have, &ssh, &s, true, cause, r);
		goto out;
	}
	reply.len = 0;
	onyx_session_cmd(s, "exit", &reply, err, sizeof(err));
	struct qg_buf left = {0};
	if (read_back(s, &after, err, sizeof(err)) != 0) {
		disconnect(&ssh, &s);
		roll_back(sw, o, &want, &have, &ssh, &s, false, "cannot read back after the push",
			  r);
		goto out;
	}
	onyx_config_diff(&want, &after, &left);
	if (left.len) {
		qg_buf_free(&left);
		roll_back(sw, o, &want, &have, &ssh, &s, false,
			  "every line was accepted but the read-back still differs", r);
		goto out;
	}
	qg_buf_free(&left);
	/* Everything succeeded: only now make it the saved configuration. */
	reply.len = 0;
	rc = onyx_session_cmd(s, "configuration write", &reply, err, sizeof(err));
	r->state = QG_PUSH_CONVERGED;
	if (rc != 0)
		qg_push_say(
		    r,
		    "%d line%s sent and in sync, but 'configuration write' failed (%s): the "
		    "change is active but not saved",
		    r->lines_sent, r->lines_sent == 1 ? "" : "s", rc == 1 ? reply.data : err);
	else
		qg_push_say(
		    r, "%d line%s sent, in sync, saved (the earlier configuration is kept as '%s')",
		    r->lines_sent, r->lines_sent == 1 ? "" : "s", r->saved_as);
out:
	disconnect(&ssh, &s);
	onyx_config_free(&want);
	onyx_config_free(&have);
	onyx_config_free(&after);
	qg_buf_free(&cmds);
	qg_buf_free(&reply);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}

const struct qg_driver qg_driver_onyx = {.target = &qg_target_onyx, .push = onyx_push};
