/* SPDX-License-Identifier: MIT */
/*
 * Host settings are independent and each is checked, changed and re-read by
 * the script, so there is nothing half-applied to roll back: a setting is
 * either as before or as the intent says, and the report names each one. A
 * failed or missing setting makes the push fail for that host, loudly, with
 * the keys; running the push again after fixing the cause converges.
 */
#include "script_push.h"

#include "report.h"
#include "../../transport/ssh.h"
#include "host_script.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "a, b, c" of the keys with one status, cut to fit. */
static void keys_with(const struct qg_report *rep, enum qg_report_status st, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t k = 0; k < rep->n && used < len; k++)
		if (rep->v[k].status == st)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 rep->v[k].key);
}

/*
 * "; N not set here (...): KEYS" for the [n/a] lines: a knob the host has
 * no file for (MLNX_OFED's traffic_class, its ECN sysfs on inbox drivers).
 * Said beside whatever else the push says, never silent (issue 35); the
 * lines themselves name the driver and what covers the setting.
 */
static void na_note(const struct qg_report *rep, char *out, size_t len)
{
	char keys[240];
	int n = 0;
	size_t used = 0;
	keys[0] = '\0';
	for (size_t k = 0; k < rep->n; k++) {
		if (rep->v[k].status != QG_REPORT_NA)
			continue;
		n++;
		if (used + strlen(rep->v[k].key) + 8 < sizeof(keys))
			used += (size_t)snprintf(keys + used, sizeof(keys) - used, "%s%s",
						 used ? ", " : "", rep->v[k].key);
		else if (used + 5 < sizeof(keys) && strcmp(keys + used - 3, "..."))
			used += (size_t)snprintf(keys + used, sizeof(keys) - used, ", ...");
	}
	if (n)
		snprintf(out, len,
			 "; %d not set here, the host has no such knob (see their [n/a] lines): %s",
			 n, keys);
	else
		out[0] = '\0';
}

/*
 * A reason is the host's text: kept whole up to REASON_MAX bytes, longer
 * ones cut at the start of a UTF-8 character and marked "...", so that a
 * host cannot fill the message (or the JSON) with one line, nor leave half
 * a character in it. Escaping is the printer's (push/push.c).
 */
#define REASON_MAX 160

static void reason_append(struct qg_buf *b, const char *s)
{
	size_t n = strlen(s);
	if (n <= REASON_MAX) {
		qg_buf_append(b, s, n);
		return;
	}
	n = REASON_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	qg_buf_append(b, s, n);
	qg_buf_puts(b, "...");
}

/*
 * r->failed: "KEY: REASON\n" per failed setting; list: the same as
 * "KEY: REASON; KEY: REASON" for the message, as many as fit in
 * LIST_MAX bytes, then "; and N more" (the JSON has them all).
 */
#define LIST_MAX 640

static void failed_reasons(const struct qg_report *rep, struct qg_push_result *r,
			   struct qg_buf *list)
{
	size_t shown = 0, failed = 0;
	for (size_t k = 0; k < rep->n; k++) {
		if (rep->v[k].status != QG_REPORT_FAILED)
			continue;
		failed++;
		size_t mark = r->failed.len;
		qg_buf_printf(&r->failed, "%s: ", rep->v[k].key);
		reason_append(&r->failed, rep->v[k].detail);
		size_t len = r->failed.failed ? 0 : r->failed.len - mark;
		if (!r->failed.failed && shown == failed - 1 && list->len + len + 2 <= LIST_MAX) {
			qg_buf_puts(list, shown ? "; " : "");
			qg_buf_append(list, r->failed.data + mark, len);
			shown++;
		}
		qg_buf_puts(&r->failed, "\n");
	}
	if (shown < failed)
		qg_buf_printf(list, "%sand %zu more", shown ? "; " : "", failed - shown);
	qg_buf_append(list, "", 0);
}

int script_push_judge(const char *out, const char *errout, int status, bool dry_run,
		      struct qg_push_result *r)
{
	struct qg_report rep;
	if (qg_report_parse(out ? out : "", &rep) != 0) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "out of memory");
		return -ENOMEM;
	}
	int changed = 0, failed = 0, missing = 0, differs = 0, settings = 0;
	bool reboot = false;
	for (size_t k = 0; k < rep.n; k++) {
		settings += rep.v[k].status != QG_REPORT_REBOOT;
		changed += rep.v[k].status == QG_REPORT_CHANGED;
		failed += rep.v[k].status == QG_REPORT_FAILED;
		missing += rep.v[k].status == QG_REPORT_MISSING;
		differs += rep.v[k].status == QG_REPORT_DIFFERS;
		reboot |= rep.v[k].status == QG_REPORT_REBOOT;
		if (rep.v[k].status == QG_REPORT_CHANGED || rep.v[k].status == QG_REPORT_DIFFERS)
			qg_buf_printf(&r->sent, "[%s] %s: %s\n",
				      qg_report_status_name(rep.v[k].status), rep.v[k].key,
				      rep.v[k].detail);
	}
	r->lines_planned = dry_run ? differs : changed;
	r->lines_sent = changed;
	char na[320], then[400];
	na_note(&rep, na, sizeof(na));
	snprintf(then, sizeof(then), "%s%s",
		 !reboot   ? ""
		 : dry_run ? "; module options would change: applying them needs a reboot"
			   : "; module options changed: reboot the host to apply them",
		 na);
	char keys[600];
	if (settings == 0 || (status != 0 && status != 1 && status != 2)) {
		r->state = QG_PUSH_FAILED;
		/* The first line of what the script said on stderr. */
		size_t n = errout ? strcspn(errout, "\n") : 0;
		qg_push_say(r, "the script exited %d without a report%s%.*s", status, n ? ": " : "",
			    (int)(n < 512 ? n : 512), n ? errout : "");
	} else if (failed) {
		/* Why each failed, as the script said it: the keys alone sent the
		 * user to the host to find out (issue 25, item 2). */
		r->state = QG_PUSH_FAILED;
		struct qg_buf list = {0};
		failed_reasons(&rep, r, &list);
		qg_push_say(r, "%d setting%s failed: %s; %d changed%s", failed,
			    failed == 1 ? "" : "s", list.failed ? "(out of memory)" : list.data,
			    changed, then);
		if (list.failed)
			r->failed.failed = true;
		qg_buf_free(&list);
	} else if (missing) {
		r->state = QG_PUSH_PARTIAL;
		keys_with(&rep, QG_REPORT_MISSING, keys, sizeof(keys));
		qg_push_say(r, "%d of %d settings set (%d %s); missing on this host: %s%s",
			    settings - missing - differs, settings, dry_run ? differs : changed,
			    dry_run ? "would change" : "changed", keys, then);
	} else if (dry_run) {
		r->state = differs ? QG_PUSH_WOULD_CHANGE : QG_PUSH_IN_SYNC;
		if (differs)
			qg_push_say(r, "%d setting%s would change (dry run: nothing changed)%s",
				    differs, differs == 1 ? "" : "s", then);
		else
			qg_push_say(r, "in sync, nothing to change%s", na);
	} else if (changed) {
		r->state = QG_PUSH_CONVERGED;
		qg_push_say(r, "%d of %d settings changed, all set%s", changed, settings, then);
	} else {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync, all %d settings already right%s", settings, na);
	}
	qg_report_free(&rep);
	return r->sent.failed || r->failed.failed ? -ENOMEM : 0;
}

/* "cannot generate the host script: FILE:LINE:COL: what" from the first error. */
static void say_emit_failed(struct qg_push_result *r, const struct qg_diags *d)
{
	const struct qg_diag *e = qg_diags_first_error(d);
	if (!e) {
		qg_push_say(r, "cannot generate the host script%s",
			    d->oom ? ": out of memory" : "");
		return;
	}
	const char *file = e->file ? e->file : d->file ? d->file : "";
	if (e->pos.line > 0)
		qg_push_say(r, "cannot generate the host script: %s:%d:%d: %s", file, e->pos.line,
			    e->pos.col, e->msg);
	else
		qg_push_say(r, "cannot generate the host script: %s%s%s", file, *file ? ": " : "",
			    e->msg);
}

int script_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		const struct qg_access *a, bool dry_run, script_payload_fn payload_of,
		struct qg_push_result *r)
{
	const struct qg_host *h = &m->hosts[i];
	const struct qg_target *t = qg_target_for(m, QG_DEVICE_HOST, i);
	struct qg_outset files = {0};
	struct qg_buf out = {0}, errout = {0};
	struct qg_ssh *ssh = NULL;
	char err[1024];
	r->state = QG_PUSH_UNCHANGED;
	/*
	 * This runs in one of the push's threads, beside others given the same
	 * ctx: a template error goes to a list of this call's own (issue 18:
	 * threads appending to the shared list corrupted the heap).
	 */
	struct qg_diags d;
	qg_diags_init(&d, ctx->d ? ctx->d->file : NULL);
	struct qg_emit_ctx own = *ctx;
	own.d = &d;
	if (!t || qg_emit_device(m, QG_DEVICE_HOST, i, &own, &files) != 0 || files.n < 1) {
		say_emit_failed(r, &d);
		goto out;
	}
	/*
	 * What goes to sh -s: the host's script (host_script.h: its three files
	 * as one) alone, or what its target makes of it (Linux: the install or
	 * removal of its copy in front, linux_persist.c).
	 */
	struct qg_buf payload = {0};
	if (payload_of) {
		if (payload_of(m, i, &own, &files, a->uninstall, &payload) != 0) {
			qg_buf_free(&payload);
			say_emit_failed(r, &d);
			goto out;
		}
	} else if (a->uninstall) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "nothing to remove: qosgen installs nothing on %s hosts", t->name);
		goto out;
	} else if (host_script_assemble(m, i, &files, &payload) != 0) {
		qg_buf_free(&payload);
		say_emit_failed(r, &d);
		goto out;
	}
	struct qg_ssh_target target = qg_host_ssh_target(h);
	if (qg_ssh_connect(&target, &a->ssh, &ssh, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_UNREACHABLE;
		qg_push_say(r, "%s", err);
		qg_buf_free(&payload);
		goto out;
	}
	int status = -1;
	const char *cmd = dry_run ? "QG_DRY_RUN=1 sh -s" : "sh -s";
	int ran = payload.failed ? -1
				 : qg_ssh_run(ssh, cmd, payload.data, payload.len, &out, &errout,
					      &status, err, sizeof(err));
	if (payload.failed)
		snprintf(err, sizeof(err), "out of memory");
	qg_buf_free(&payload);
	if (ran != 0) {
		/* Each setting is atomic on the host; the report so far is lost with the session.
		 */
		r->state = QG_PUSH_FAILED;
		qg_push_say(r, "%s; run the push again: the script is idempotent", err);
		goto out;
	}
	script_push_judge(out.data, errout.data, status, dry_run, r);
out:
	qg_diags_free(&d);
	qg_buf_free(&out);
	qg_buf_free(&errout);
	qg_outset_free(&files);
	qg_ssh_close(ssh);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}
