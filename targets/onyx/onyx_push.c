/* SPDX-License-Identifier: MIT */
/* Push to an Onyx switch: see onyx_push.h. */
#include "onyx_push.h"
#include "onyx.h"
#include "onyx_diff.h"
#include "onyx_judge.h"
#include "onyx_oper.h"
#include "onyx_parse.h"
#include "onyx_ports.h"
#include "onyx_restore.h"
#include "onyx_session.h"
#include "onyx_verdict.h"
#include "onyx_version.h"

#include "../../transport/ssh.h"
#include "../driver.h"
#include "../engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct onyx_push {
	const struct qg_switch *sw;
	const struct qg_ssh_opts *o;
	struct qg_ssh *ssh;
	struct onyx_session *s;
	struct onyx_config want, before, now; /* now: the latest read-back after a change */
	struct qg_buf cmds;		      /* the plan, as onyx_cmds_next() reads it */
};

static int op_open(void *dev, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	struct qg_ssh_target t = qg_switch_ssh_target(p->sw);
	if (qg_ssh_connect(&t, p->o, &p->ssh, err, errlen) != 0)
		return -1;
	if (onyx_session_open(p->ssh, &p->s, err, errlen) != 0) {
		qg_ssh_close(p->ssh);
		p->ssh = NULL;
		return -1;
	}
	return 0;
}

static void op_close(void *dev)
{
	struct onyx_push *p = dev;
	onyx_session_close(p->s);
	qg_ssh_close(p->ssh);
	p->s = NULL;
	p->ssh = NULL;
}

/* One command: enum qg_step, the switch's words (first line) in err when refused. */
static int cmd(struct onyx_push *p, const char *line, char *err, size_t errlen)
{
	struct qg_buf reply = {0};
	int rc = onyx_session_cmd(p->s, line, &reply, err, errlen);
	if (rc == 1) {
		char *nl = reply.data ? strchr(reply.data, '\n') : NULL;
		if (nl)
			*nl = '\0';
		snprintf(err, errlen, "'%s': %s", line, reply.data ? reply.data : "%");
	}
	qg_buf_free(&reply);
	return rc == 0 ? QG_STEP_OK : rc == 1 ? QG_STEP_REFUSED : QG_STEP_LOST;
}

/* The first error in d as one clause ("running-config line 12: ..."), with how many more. */
static void first_error(const struct qg_diags *d, char *err, size_t errlen)
{
	const struct qg_diag *e = qg_diags_first_error(d);
	if (e)
		snprintf(err, errlen, "running-config line %d: %s%s", e->pos.line, e->msg,
			 d->errors > 1 ? " (and more: qosgen diff shows all)" : "");
	else
		snprintf(err, errlen, "out of memory");
}

/*
 * A show: its reply in text, enum qg_step. A "%" answer is REFUSED with
 * the switch's first line in err.
 */
static int show(struct onyx_push *p, const char *line, struct qg_buf *text, char *err,
		size_t errlen)
{
	int rc = onyx_session_cmd(p->s, line, text, err, errlen);
	if (rc == 1) {
		char *nl = text->data ? strchr(text->data, '\n') : NULL;
		if (nl)
			*nl = '\0';
		snprintf(err, errlen, "'%s' was refused: %.200s", line,
			 text->data ? text->data : "%");
	}
	return rc == 0 ? QG_STEP_OK : rc == 1 ? QG_STEP_REFUSED : QG_STEP_LOST;
}

/* The release the switch runs, off `show version` (onyx_version.c). */
static int op_os_version(void *dev, char *out, size_t cap, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	struct qg_buf text = {0};
	int rc = show(p, "show version", &text, err, errlen);
	if (rc == QG_STEP_OK &&
	    onyx_version_parse(text.data ? text.data : "", text.len, out, cap, err, errlen) != 0)
		rc = QG_STEP_REFUSED;
	qg_buf_free(&text);
	return rc;
}

/* A show's answer that does not parse: REFUSED, naming the show. */
static int unreadable(const char *line, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "'%s': %s", line, why);
	return QG_STEP_REFUSED;
}

/*
 * Onyx's own verdict (onyx_verdict.h): the lossless pool, PFC and each
 * intent port's ETS as the switch holds them, one show each (a port's
 * `show dcb ets interface ethernet X`: the sources show no range form of
 * it). The commands name only the intent's pool and ports, whose
 * characters the loader has checked.
 */
static int op_verdict(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	const struct onyx_config *want = &p->want;
	if (want->n_pools == 0)
		return QG_STEP_OK;
	struct onyx_oper o = {0};
	struct onyx_oper_ets *ets = calloc(want->n_ports ? want->n_ports : 1, sizeof(*ets));
	struct qg_buf text = {0};
	char line[160], why[300];
	if (!ets) {
		snprintf(err, errlen, "out of memory");
		return QG_STEP_REFUSED;
	}
	snprintf(line, sizeof(line), "show traffic pool %s | json-print", want->pools[0].name);
	int rc = show(p, line, &text, err, errlen);
	if (rc == QG_STEP_OK &&
	    onyx_oper_pool_parse(text.data ? text.data : "", text.len, want->pools[0].name, &o.pool,
				 why, sizeof(why)))
		rc = unreadable(line, why, err, errlen);
	qg_buf_free(&text);
	snprintf(line, sizeof(line), "show dcb priority-flow-control | json-print");
	if (rc == QG_STEP_OK)
		rc = show(p, line, &text, err, errlen);
	if (rc == QG_STEP_OK &&
	    onyx_oper_pfc_parse(text.data ? text.data : "", text.len, &o.pfc, why, sizeof(why)))
		rc = unreadable(line, why, err, errlen);
	qg_buf_free(&text);
	for (size_t k = 0; rc == QG_STEP_OK && k < want->n_ports; k++) {
		char port[QG_PORT_TEXT_LEN], ifname[QG_PORT_TEXT_LEN + 4];
		onyx_port_format(&want->ports[k].id, port);
		snprintf(ifname, sizeof(ifname), "Eth%s", port);
		snprintf(line, sizeof(line), "show dcb ets interface ethernet %s | json-print",
			 port);
		rc = show(p, line, &text, err, errlen);
		if (rc == QG_STEP_OK && onyx_oper_ets_parse(text.data ? text.data : "", text.len,
							    ifname, &ets[k], why, sizeof(why)))
			rc = unreadable(line, why, err, errlen);
		qg_buf_free(&text);
	}
	if (rc == QG_STEP_OK) {
		/*
		 * qosgen's own figures: none yet on this branch. The lossless
		 * pool's bytes come from the model's buffer (model/headroom.h,
		 * issue 34) when that lands; until then nothing is compared.
		 */
		struct onyx_expect expect = {0, ONYX_FIGURE_TOLERANCE_PCT};
		o.ets = ets;
		if (onyx_verdict_judge(want, &o, &expect, err, errlen, &r->warnings) > 0)
			rc = QG_STEP_REFUSED;
	}
	onyx_oper_pfc_free(&o.pfc);
	free(ets);
	return rc;
}

static int op_read_back(void *dev, enum qg_push_slot slot, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	struct onyx_config *c = slot == QG_READ_BEFORE ? &p->before : &p->now;
	struct qg_buf text = {0};
	onyx_config_free(c);
	memset(c, 0, sizeof(*c));
	int rc = onyx_session_cmd(p->s, "show running-config", &text, err, errlen);
	if (rc == 1)
		snprintf(err, errlen, "'show running-config' was refused: %.200s", text.data);
	if (rc == 0) {
		struct qg_diags d;
		qg_diags_init(&d, "running-config");
		if (onyx_config_parse(text.data ? text.data : "", text.len, c, &d) != 0) {
			first_error(&d, err, errlen);
			rc = 1;
		}
		qg_diags_free(&d);
	}
	qg_buf_free(&text);
	return rc == 0 ? QG_STEP_OK : rc == 1 ? QG_STEP_REFUSED : QG_STEP_LOST;
}

static const char *op_hostname(void *dev)
{
	return ((struct onyx_push *)dev)->before.hostname;
}

/* The plan's lines, without their sections, into out. */
static void plain_lines(const char *cmds, struct qg_buf *out)
{
	const char *cursor = cmds, *line;
	int sec;
	size_t len;
	while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
		qg_buf_append(out, line, len);
		qg_buf_puts(out, "\n");
	}
}

static int op_plan(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	struct qg_diags d;
	qg_diags_init(&d, "running-config");
	int judged = onyx_config_judge(&p->want, &p->before, &d);
	if (judged > 0)
		first_error(&d, err, errlen);
	qg_diags_free(&d);
	if (judged > 0)
		return 1;
	onyx_config_diff(&p->want, &p->before, &p->cmds);
	if (p->cmds.failed)
		return -1;
	r->lines_planned = qg_push_count_lines(p->cmds.data, p->cmds.len);
	plain_lines(p->cmds.data, &r->sent);
	return 0;
}

static int op_checkpoint(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(r->saved_as, sizeof(r->saved_as), "qosgen-pre-%Y%m%d-%H%M%S", &tm);
	char save[128];
	snprintf(save, sizeof(save), "configuration write to %s no-switch", r->saved_as);
	return cmd(p, save, err, errlen);
}

/*
 * A command list in config mode, one line at a time, and back to enable
 * mode while the session lasts. *sent counts the lines the switch took;
 * log (may be NULL) gets them. enum qg_step; err names the line that failed.
 */
static int send_lines(struct onyx_push *p, const char *cmds, struct qg_buf *log, int *sent,
		      char *err, size_t errlen)
{
	const char *cursor = cmds, *line;
	int sec, rc = cmd(p, "configure terminal", err, errlen);
	size_t len;
	while (rc == QG_STEP_OK && onyx_cmds_next(&cursor, &sec, &line, &len)) {
		char one[512];
		if (len >= sizeof(one)) {
			/* Never a cut command: refuse the line whole. */
			snprintf(err, errlen, "a command of %zu bytes is longer than qosgen sends",
				 len);
			rc = QG_STEP_REFUSED;
			break;
		}
		snprintf(one, sizeof(one), "%.*s", (int)len, line);
		rc = cmd(p, one, err, errlen);
		if (rc != QG_STEP_OK)
			break;
		(*sent)++;
		if (log) {
			qg_buf_puts(log, one);
			qg_buf_puts(log, "\n");
		}
	}
	/* In enable mode "exit" would log out: only from config mode, and a live session. */
	if (rc != QG_STEP_LOST) {
		char junk[256];
		cmd(p, "exit", junk, sizeof(junk));
	}
	return rc;
}

static int op_apply(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	char why[700];
	r->sent.len = 0; /* from here on: what was sent, not what would be */
	int rc = send_lines(p, p->cmds.data, &r->sent, &r->lines_sent, why, sizeof(why));
	if (rc == QG_STEP_REFUSED)
		snprintf(err, errlen, "line %d of %d refused: %s", r->lines_sent + 1,
			 r->lines_planned, why);
	else if (rc != QG_STEP_OK)
		/* A dropped line may still have taken effect: the read-back decides. */
		snprintf(err, errlen, "session lost at line %d of %d (%s)", r->lines_sent + 1,
			 r->lines_planned, why);
	return rc;
}

static enum qg_push_where op_compare(void *dev)
{
	struct onyx_push *p = dev;
	struct qg_buf left = {0}, back = {0};
	onyx_config_diff(&p->want, &p->now, &left);
	onyx_config_restore(&p->want, &p->before, &p->now, &back);
	enum qg_push_where at = QG_AT_NEITHER;
	if (!left.failed && left.len == 0)
		at = QG_AT_INTENT;
	else if (!back.failed && back.len == 0)
		at = QG_AT_BEFORE;
	qg_buf_free(&left);
	qg_buf_free(&back);
	return at;
}

static int op_roll_back(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct onyx_push *p = dev;
	struct qg_buf undo = {0};
	onyx_config_restore(&p->want, &p->before, &p->now, &undo);
	int rc = QG_STEP_OK;
	if (undo.failed) {
		/* A partial undo must never be sent, nor an empty one taken for "nothing to do". */
		snprintf(err, errlen, "it could not be computed (out of memory)");
		rc = QG_STEP_REFUSED;
	} else if (undo.len) {
		char why[700];
		rc = send_lines(p, undo.data, NULL, &r->lines_rolled_back, why, sizeof(why));
		if (rc != QG_STEP_OK)
			snprintf(err, errlen, "at %s, %d of %d undo lines sent", why,
				 r->lines_rolled_back, qg_push_count_lines(undo.data, undo.len));
	}
	qg_buf_free(&undo);
	return rc;
}

static int op_save(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)r;
	return cmd(dev, "configuration write", err, errlen);
}

static void op_look(void *dev, const struct qg_push_result *r, char *out, size_t cap)
{
	(void)dev;
	if (r->saved_as[0])
		snprintf(out, cap, "the earlier configuration is saved on it as '%s'", r->saved_as);
}

static void op_say(void *dev, struct qg_push_result *r)
{
	(void)dev;
	if (r->state == QG_PUSH_IN_SYNC)
		qg_push_say(r, "in sync, nothing sent");
	else if (r->state == QG_PUSH_WOULD_CHANGE)
		qg_push_say(r, "%d line%s to send (dry run: nothing sent)", r->lines_planned,
			    r->lines_planned == 1 ? "" : "s");
	else
		qg_push_say(
		    r, "%d line%s sent, in sync, saved (the earlier configuration is kept as '%s')",
		    r->lines_sent, r->lines_sent == 1 ? "" : "s", r->saved_as);
}

static const struct qg_push_ops onyx_push_ops = {
    .unit = "line",
    .applier = "the configuration",
    .open = op_open,
    .close = op_close,
    .os_version = op_os_version,
    .read_back = op_read_back,
    .hostname = op_hostname,
    .plan = op_plan,
    .checkpoint = op_checkpoint,
    .apply = op_apply,
    .compare = op_compare,
    .verdict = op_verdict,
    .roll_back = op_roll_back,
    .save = op_save,
    .look = op_look,
    .say = op_say,
};

static int onyx_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx; /* the switch gets commands from the diff, not a generated file */
	struct onyx_push p = {.sw = &m->switches[i], .o = &a->ssh};
	int rc = -1;
	r->state = QG_PUSH_UNCHANGED;
	if (onyx_config_from_model(m, i, &p.want) != 0)
		qg_push_say(r, "out of memory");
	else
		rc = qg_push_run(&onyx_push_ops, &p, a, p.sw, dry_run, r);
	onyx_config_free(&p.want);
	onyx_config_free(&p.before);
	onyx_config_free(&p.now);
	qg_buf_free(&p.cmds);
	return rc;
}

const struct qg_driver qg_driver_onyx = {.target = &qg_target_onyx, .push = onyx_push};
