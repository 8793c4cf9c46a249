/* SPDX-License-Identifier: MIT */
/* The SONiC driver: see sonic_push.h. */
#include "sonic_push.h"
#include "../../lib/errmsg.h"
#include "../../model/headroom.h"
#include "../../model/names.h"
#include "../driver.h"
#include "../engine.h"
#include "config_db.h"
#include "config_db_judge.h"
#include "config_db_patch.h"
#include "sonic_readback.h"
#include "sonic_verdict.h"
#include "sonic_version.h"
#include "sonic.h"
#include "sonic_ports.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SHOW_RUNNING "show runningconfiguration all"
#define SHOW_VERSION "show version"

struct sonic {
	const struct qg_model *m;
	size_t i; /* the switch's index in m */
	const struct qg_switch *sw;
	const char *intent; /* the model's file, for an error at its lines */
	const struct qg_access *a;
	struct qg_ssh *ssh;
	cJSON *want, *before, *now, *patch; /* now: the latest read-back after a change */
	char checkpoint[64];
};

static int op_open(void *dev, char *err, size_t errlen)
{
	struct sonic *c = dev;
	qg_ssh_close(c->ssh);
	c->ssh = NULL;
	struct qg_ssh_target t = qg_switch_ssh_target(c->sw);
	return qg_ssh_connect(&t, &c->a->ssh, &c->ssh, err, errlen);
}

static void op_close(void *dev)
{
	struct sonic *c = dev;
	qg_ssh_close(c->ssh);
	c->ssh = NULL;
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
 * Run one command: enum qg_step. OK: exit status 0, its stdout in out (may
 * be NULL). REFUSED: it failed, with what it said in err. LOST: the
 * connection failed (err); the command may or may not have run.
 * TIMED_OUT: it did not finish within --timeout (err) and may still be
 * running.
 */
/* A command for the switch's shell, and what it reads on stdin (NULL: nothing). */
struct sonic_cmd {
	const char *cmd;
	const char *in;
	size_t in_len;
};

static int run(struct sonic *c, const struct sonic_cmd *sc, struct qg_buf *out, char *err,
	       size_t errlen)
{
	const char *cmd = sc->cmd, *in = sc->in;
	size_t in_len = sc->in_len;
	struct qg_buf o = {0}, e = {0};
	int status = -1;
	if (!c->ssh && op_open(c, err, errlen) != 0)
		return QG_STEP_LOST;
	int ran = qg_ssh_run(c->ssh, cmd, in, in_len, &o, &e, &status, err, errlen);
	if (ran != 0) {
		qg_buf_free(&o);
		qg_buf_free(&e);
		/* The session is gone (or abandoned): the next command connects again. */
		op_close(c);
		return ran == QG_SSH_TIMED_OUT ? QG_STEP_TIMED_OUT : QG_STEP_LOST;
	}
	int rc = QG_STEP_OK;
	if (status != 0) {
		char said[512];
		last_line(e.len ? &e : &o, said, sizeof(said));
		qg_errf(err, errlen, "'%s' failed (exit %d): %s", cmd, status,
			*said ? said : "no message");
		rc = QG_STEP_REFUSED;
	} else if (out) {
		*out = o;
		o = (struct qg_buf){0};
	}
	qg_buf_free(&o);
	qg_buf_free(&e);
	return rc;
}

/*
 * The release the switch runs, off `show version` (sonic_version.h): no
 * sudo, as an operator runs it. Its last part lists docker images through
 * `sudo docker images`, which may fail without a password: the version
 * line comes first and is all that is read.
 */
static int op_os_version(void *dev, char *out, size_t cap, char *err, size_t errlen)
{
	struct sonic *c = dev;
	struct qg_buf text = {0};
	int rc = run(c, &(struct sonic_cmd){.cmd = SHOW_VERSION}, &text, err, errlen);
	if (rc != QG_STEP_OK)
		return rc;
	if (sonic_version_parse(text.data ? text.data : "", text.len, out, cap, err, errlen) != 0)
		rc = QG_STEP_REFUSED;
	qg_buf_free(&text);
	return rc;
}

/*
 * A command whose answer is JSON, run and parsed by parse (sonic_readback_parse,
 * sonic_dbdump_parse) into *out: enum qg_step, err when it cannot be read or
 * parsed as one.
 */
static int run_json(struct sonic *c, const char *cmd,
		    int (*parse)(const char *, size_t, cJSON **, struct qg_diags *), cJSON **out,
		    char *err, size_t errlen)
{
	struct qg_buf text = {0};
	*out = NULL;
	int rc = run(c, &(struct sonic_cmd){.cmd = cmd}, &text, err, errlen);
	if (rc != QG_STEP_OK)
		return rc;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	if (parse(text.data ? text.data : "", text.len, out, &d) != 0) {
		qg_errf(err, errlen, "'%s': %s", cmd, d.n ? d.v[0].msg : "out of memory");
		rc = QG_STEP_REFUSED;
	}
	qg_diags_free(&d);
	qg_buf_free(&text);
	return rc;
}

/* A configuration, read and parsed: enum qg_step, err when it cannot be read or judged as one. */
static int op_read_back(void *dev, enum qg_push_slot slot, char *err, size_t errlen)
{
	struct sonic *c = dev;
	cJSON **have = slot == QG_READ_BEFORE ? &c->before : &c->now;
	cJSON_Delete(*have);
	return run_json(c, SHOW_RUNNING, sonic_readback_parse, have, err, errlen);
}

static const char *op_hostname(void *dev)
{
	return sonic_readback_hostname(((struct sonic *)dev)->before);
}

/* Judged and patched against the first read-back; 1 with err when it cannot converge. */
static int op_plan(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct sonic *c = dev;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	struct sonic_ports_at at = {c->intent, c->sw->ports_pos};
	int judged = sonic_config_judge(c->want, c->before, &at, &d);
	/* An error at the intent's lines (its ports) says where, as the compiler form does. */
	char where[300] = "";
	if (judged > 0 && d.v[0].file && d.v[0].pos.line > 0)
		snprintf(where, sizeof(where), "%s:%d:%d: ", d.v[0].file, d.v[0].pos.line,
			 d.v[0].pos.col);
	if (judged > 0)
		snprintf(err, errlen, "%s%s%s", where, d.v[0].msg,
			 judged > 1 ? " (and more: qosgen diff --running-config shows all)" : "");
	qg_diags_free(&d);
	if (judged > 0)
		return 1;
	bool oom;
	c->patch = sonic_config_patch(c->want, c->before, &oom);
	if (oom)
		return -1;
	sonic_patch_text(c->patch, &r->sent);
	r->lines_planned = c->patch ? cJSON_GetArraySize(c->patch) : 0;
	return 0;
}

static int op_dry_run(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	return run(dev,
		   &(struct sonic_cmd){.cmd = "sudo -n config apply-patch --dry-run /dev/stdin",
				       .in = r->sent.data,
				       .in_len = r->sent.len},
		   NULL, err, errlen);
}

static int op_checkpoint(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct sonic *c = dev;
	char cmd[160];
	snprintf(c->checkpoint, sizeof(c->checkpoint), "qosgen-%ld-%ld", (long)time(NULL),
		 (long)getpid());
	snprintf(cmd, sizeof(cmd), "sudo -n config checkpoint %s", c->checkpoint);
	int rc = run(c, &(struct sonic_cmd){.cmd = cmd}, NULL, err, errlen);
	if (rc == QG_STEP_OK)
		snprintf(r->saved_as, sizeof(r->saved_as), "%s", c->checkpoint);
	return rc;
}

/* The patch applies whole or not at all: sent is all of it, the read-back decides. */
static int op_apply(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	char why[1024];
	int rc = run(dev,
		     &(struct sonic_cmd){.cmd = "sudo -n config apply-patch /dev/stdin",
					 .in = r->sent.data,
					 .in_len = r->sent.len},
		     NULL, why, sizeof(why));
	r->lines_sent = r->lines_planned;
	snprintf(err, errlen, "%s%s", rc == QG_STEP_LOST ? "the connection dropped: " : "", why);
	return rc;
}

/* Whether the switch is at the intent: no patch left. */
static bool in_sync(const cJSON *want, const cJSON *have)
{
	bool oom;
	cJSON *left = sonic_config_patch(want, have, &oom);
	cJSON_Delete(left);
	return !left && !oom;
}

static enum qg_push_where op_compare(void *dev)
{
	struct sonic *c = dev;
	if (in_sync(c->want, c->now))
		return QG_AT_INTENT;
	return sonic_config_same_at(c->patch, c->now, c->before) ? QG_AT_BEFORE : QG_AT_NEITHER;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

/*
 * qosgen's own figures for port k's lossless PG (model/headroom.h, the same
 * Lua the dynamic model runs, with SONiC's template inputs), and the
 * tolerance within which the switch's agree; -1 when qosgen cannot prove
 * the port (no model): nothing to compare, and check has said so. A switch
 * of a release before the Lua's latest change (sonic-swss #3235, 202405)
 * may differ by more: the warning says by how much.
 */
static int expected_headroom(const struct sonic *c, size_t k, struct sonic_figures *out, int *pct)
{
	struct qg_headroom_pg pg;
	if (qg_headroom_port(c->m, c->i, k, &pg) != 0)
		return -1;
	*out = (struct sonic_figures){
	    .xon = pg.xon_bytes, .xoff = pg.xoff_bytes, .size = pg.size_bytes};
	*pct = QG_HEADROOM_TOLERANCE_PCT;
	return 0;
}

/*
 * The buffer manager's verdict (sonic_verdict.h): the limits once, then
 * APPL_DB until it reflects config_db. buffermgrd applies a change
 * asynchronously, so after a change it is read again, 0.2 s then twice as
 * long each time (at most 2 s), until no PG is pending or --timeout has
 * passed; what is still pending then is refused. With nothing sent the
 * configuration has stood for as long as it has: one read decides.
 */
static int op_verdict(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct sonic *c = dev;
	const struct qg_switch *sw = c->sw;
	const cJSON *config = c->now ? c->now : c->before;
	if (!sw->n_ports)
		return QG_STEP_OK;
	char(*names)[QG_PORT_TEXT_LEN] = calloc(sw->n_ports, sizeof(*names));
	const char **ports = calloc(sw->n_ports, sizeof(*ports));
	cJSON *limits = NULL, *appl = NULL;
	struct sonic_verdict v = {0};
	int rc = names && ports ? QG_STEP_OK : QG_STEP_REFUSED;
	if (rc != QG_STEP_OK)
		qg_errf(err, errlen, "out of memory");
	for (size_t k = 0; names && ports && k < sw->n_ports; k++) {
		sonic_port_format(&sw->ports[k], names[k]);
		ports[k] = names[k];
	}
	if (rc == QG_STEP_OK)
		rc = run_json(c, SONIC_DUMP_LIMITS, sonic_dbdump_parse, &limits, err, errlen);
	int timeout = c->a->ssh.command_timeout_s > 0 ? c->a->ssh.command_timeout_s : 120;
	double start = now_s(), deadline = start + (c->now ? timeout : 0), wait = 0.2;
	while (rc == QG_STEP_OK) {
		cJSON_Delete(appl);
		sonic_verdict_free(&v);
		rc = run_json(c, SONIC_DUMP_APPL, sonic_dbdump_parse, &appl, err, errlen);
		if (rc == QG_STEP_OK &&
		    sonic_verdict_judge(ports, sw->n_ports, c->m->qos.lossless.priority, config,
					appl, limits, &v) != 0) {
			qg_errf(err, errlen, "out of memory");
			rc = QG_STEP_REFUSED;
		}
		double left = deadline - now_s();
		if (rc != QG_STEP_OK || !sonic_verdict_pending(&v) || left <= 0)
			break;
		sleep_s(wait < left ? wait : left);
		wait = wait * 2 < 2 ? wait * 2 : 2;
	}
	if (rc == QG_STEP_OK) {
		/* "within N s" only after a change, the wait it had. */
		int waited = (int)(now_s() - start + 0.5);
		if (sonic_verdict_refused(&v, c->now ? (waited > 0 ? waited : 1) : 0, err, errlen))
			rc = QG_STEP_REFUSED;
		sonic_verdict_notes(&v, &r->warnings);
		int differ = 0;
		for (size_t k = 0; k < v.n; k++) {
			struct sonic_figures want;
			int pct;
			if (expected_headroom(c, k, &want, &pct) == 0)
				differ +=
				    sonic_headroom_compare(&v.pg[k], &want, pct, &r->warnings);
		}
		const struct qg_headroom_os *os = sw->target->headroom;
		if (differ && os)
			sonic_pattern_note(config, os->lossless_mtu, os->small_packet_pct,
					   &r->warnings);
	}
	sonic_verdict_free(&v);
	cJSON_Delete(appl);
	cJSON_Delete(limits);
	free(ports);
	free(names);
	return rc;
}

static int op_roll_back(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct sonic *c = dev;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "sudo -n config rollback %s", c->checkpoint);
	int rc = run(c, &(struct sonic_cmd){.cmd = cmd}, NULL, err, errlen);
	if (rc == QG_STEP_OK)
		r->lines_rolled_back = r->lines_sent;
	return rc;
}

static int op_save(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)r;
	char why[1024];
	int rc =
	    run(dev, &(struct sonic_cmd){.cmd = "sudo -n config save -y"}, NULL, why, sizeof(why));
	snprintf(err, errlen, "%s%s", rc < 0 ? "whether 'config save' ran is unknown: " : "", why);
	return rc;
}

/* The checkpoint is no longer needed: gone from the switch, and from the result. */
static void op_drop_checkpoint(void *dev, struct qg_push_result *r)
{
	struct sonic *c = dev;
	char cmd[128], err[256];
	snprintf(cmd, sizeof(cmd), "sudo -n config delete-checkpoint %s", c->checkpoint);
	if (run(c, &(struct sonic_cmd){.cmd = cmd}, NULL, err, sizeof(err)) == QG_STEP_OK) {
		c->checkpoint[0] = '\0';
		r->saved_as[0] = '\0';
	}
}

static void op_look(void *dev, const struct qg_push_result *r, char *out, size_t cap)
{
	(void)dev;
	if (r->saved_as[0])
		snprintf(out, cap,
			 "look with 'show runningconfiguration all' (checkpoint %s is kept: 'sudo "
			 "config rollback %s')",
			 r->saved_as, r->saved_as);
}

static void op_say(void *dev, struct qg_push_result *r)
{
	struct sonic *c = dev;
	if (r->state == QG_PUSH_IN_SYNC)
		qg_push_say(r, "in sync: nothing to send");
	else if (r->state == QG_PUSH_WOULD_CHANGE)
		qg_push_say(r,
			    "%d changes would be applied; the switch's apply-patch --dry-run "
			    "accepts them (nothing changed)",
			    r->lines_planned);
	else
		qg_push_say(
		    r, "%d changes applied with config apply-patch, read back in sync, saved%s",
		    r->lines_sent,
		    c->checkpoint[0] ? "; checkpoint could not be deleted ('sudo config "
				       "delete-checkpoint' it)"
				     : "");
}

static const struct qg_push_ops sonic_push_ops = {
    .unit = "change",
    .applier = "apply-patch",
    .open = op_open,
    .close = op_close,
    .os_version = op_os_version,
    .read_back = op_read_back,
    .hostname = op_hostname,
    .plan = op_plan,
    .dry_run = op_dry_run,
    .checkpoint = op_checkpoint,
    .apply = op_apply,
    .compare = op_compare,
    .verdict = op_verdict,
    .roll_back = op_roll_back,
    .save = op_save,
    .drop_checkpoint = op_drop_checkpoint,
    .look = op_look,
    .say = op_say,
};

static int sonic_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx; /* the switch gets the patch from the read-back, not a generated file */
	struct sonic c = {.m = m, .i = i, .sw = &m->switches[i], .intent = m->file, .a = a};
	int rc = -1;
	r->state = QG_PUSH_UNCHANGED;
	c.want = sonic_config_from_model(m, i);
	if (!c.want)
		qg_push_say(r, "out of memory");
	else
		rc = qg_push_run(&sonic_push_ops, &c, a, c.sw, dry_run, r);
	cJSON_Delete(c.patch);
	cJSON_Delete(c.now);
	cJSON_Delete(c.before);
	cJSON_Delete(c.want);
	qg_ssh_close(c.ssh);
	return rc;
}

const struct qg_driver qg_driver_sonic = {.target = &qg_target_sonic, .push = sonic_push};
