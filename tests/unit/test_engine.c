/* SPDX-License-Identifier: MIT */
/*
 * targets/engine.c: the push transaction over a fake target whose every
 * step fails on demand (refused, timed out, connection dropped, garbage
 * read back), proving each outcome and count the engine decides.
 */
#include "helpers.h"

#include "../../targets/engine.h"

#define N_SET 3	    /* the fake device's settings */
#define MAX_CALLS 8 /* faults are set per call of a step, 1-based */

enum fault { OK, REFUSE, TIME_OUT, DROP, GARBAGE };

struct fake {
	int dev[N_SET];				    /* the device itself */
	int want[N_SET], before[N_SET], now[N_SET]; /* the intent and the read-backs */
	bool connected;
	const char *hostname;
	/* faults by call number (index 1..MAX_CALLS-1) or for every call */
	int open_fault[MAX_CALLS];
	int read_fault[MAX_CALLS];
	int plan_rc, dry_fault, checkpoint_fault, apply_fault, roll_fault, save_fault;
	int apply_partial;  /* settings apply changes before its fault */
	bool apply_late;    /* a timed-out apply finishes by the next read */
	bool apply_ignores; /* apply answers OK but the last setting does not take */
	bool roll_ignores;  /* roll back answers OK but changes nothing */
	bool apply_whole;   /* apply counts every line sent, as an all-or-nothing patch does */
	/* issue 34: the version it runs, its verdicts by call, a warning it gives */
	const char *running;
	int version_fault;
	int verdict_fault[MAX_CALLS];
	const char *verdict_warns;
	/* what happened */
	int opens, reads, applies, rollbacks, saves, drops, verdicts;
};

static const char *step_err(int fault)
{
	return fault == REFUSE	   ? "refused by the fake"
	       : fault == TIME_OUT ? "timed out"
				   : "dropped";
}

static int step_fails(struct fake *f, int fault, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", step_err(fault));
	if (fault == DROP)
		f->connected = false;
	return fault == REFUSE	   ? QG_STEP_REFUSED
	       : fault == TIME_OUT ? QG_STEP_TIMED_OUT
				   : QG_STEP_LOST;
}

static int f_open(void *dev, char *err, size_t errlen)
{
	struct fake *f = dev;
	f->opens++;
	if (f->opens < MAX_CALLS && f->open_fault[f->opens]) {
		snprintf(err, errlen, "connection refused");
		return -1;
	}
	f->connected = true;
	return 0;
}

static void f_close(void *dev)
{
	((struct fake *)dev)->connected = false;
}

static int f_read_back(void *dev, enum qg_push_slot slot, char *err, size_t errlen)
{
	struct fake *f = dev;
	f->reads++;
	int fault = f->reads < MAX_CALLS ? f->read_fault[f->reads] : OK;
	if (!f->connected)
		return step_fails(f, DROP, err, errlen);
	if (fault == GARBAGE) {
		snprintf(err, errlen, "line 1: unparseable");
		return QG_STEP_REFUSED;
	}
	if (fault)
		return step_fails(f, fault, err, errlen);
	if (f->apply_late && f->applies)
		for (int k = 0; k < N_SET; k++)
			f->dev[k] = f->want[k];
	memcpy(slot == QG_READ_BEFORE ? f->before : f->now, f->dev, sizeof(f->dev));
	return QG_STEP_OK;
}

static const char *f_hostname(void *dev)
{
	return ((struct fake *)dev)->hostname;
}

static int f_plan(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct fake *f = dev;
	if (f->plan_rc) {
		snprintf(err, errlen, "the fake cannot");
		return f->plan_rc;
	}
	for (int k = 0; k < N_SET; k++)
		if (f->before[k] != f->want[k]) {
			qg_buf_printf(&r->sent, "set %d %d\n", k, f->want[k]);
			r->lines_planned++;
		}
	return 0;
}

static int f_dry_run(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)r;
	struct fake *f = dev;
	return f->dry_fault ? step_fails(f, f->dry_fault, err, errlen) : QG_STEP_OK;
}

static int f_checkpoint(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct fake *f = dev;
	snprintf(r->saved_as, sizeof(r->saved_as), "ckpt");
	return f->checkpoint_fault ? step_fails(f, f->checkpoint_fault, err, errlen) : QG_STEP_OK;
}

static int f_apply(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct fake *f = dev;
	f->applies++;
	int n = f->apply_fault ? f->apply_partial : N_SET;
	for (int k = 0; k < N_SET && n > 0; k++) {
		if (f->dev[k] == f->want[k])
			continue;
		if (!(f->apply_ignores && n == 1))
			f->dev[k] = f->want[k];
		n--;
		r->lines_sent++;
	}
	if (f->apply_whole)
		r->lines_sent = r->lines_planned;
	return f->apply_fault ? step_fails(f, f->apply_fault, err, errlen) : QG_STEP_OK;
}

static enum qg_push_where f_compare(void *dev)
{
	struct fake *f = dev;
	if (!memcmp(f->now, f->want, sizeof(f->now)))
		return QG_AT_INTENT;
	if (!memcmp(f->now, f->before, sizeof(f->now)))
		return QG_AT_BEFORE;
	return QG_AT_NEITHER;
}

static int f_roll_back(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct fake *f = dev;
	f->rollbacks++;
	if (f->roll_fault)
		return step_fails(f, f->roll_fault, err, errlen);
	for (int k = 0; k < N_SET; k++)
		if (f->now[k] != f->before[k]) {
			if (!f->roll_ignores)
				f->dev[k] = f->before[k];
			r->lines_rolled_back++;
		}
	return QG_STEP_OK;
}

static int f_save(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)r;
	struct fake *f = dev;
	f->saves++;
	return f->save_fault ? step_fails(f, f->save_fault, err, errlen) : QG_STEP_OK;
}

static void f_drop(void *dev, struct qg_push_result *r)
{
	((struct fake *)dev)->drops++;
	r->saved_as[0] = '\0';
}

static void f_look(void *dev, const struct qg_push_result *r, char *out, size_t cap)
{
	(void)dev;
	snprintf(out, cap, "checkpoint '%s' is kept", r->saved_as);
}

static void f_say(void *dev, struct qg_push_result *r)
{
	(void)dev;
	qg_push_say(r, "said %d", (int)r->state);
}

static const struct qg_push_ops fake_ops = {
    .unit = "setting",
    .applier = "the fake",
    .open = f_open,
    .close = f_close,
    .read_back = f_read_back,
    .hostname = f_hostname,
    .plan = f_plan,
    .dry_run = f_dry_run,
    .checkpoint = f_checkpoint,
    .apply = f_apply,
    .compare = f_compare,
    .roll_back = f_roll_back,
    .save = f_save,
    .drop_checkpoint = f_drop,
    .look = f_look,
    .say = f_say,
};

/* issue 34: the version the fake runs, and its own verdict on a state read back in sync. */
static int f_os_version(void *dev, char *out, size_t cap, char *err, size_t errlen)
{
	struct fake *f = dev;
	if (f->version_fault)
		return step_fails(f, f->version_fault, err, errlen);
	snprintf(out, cap, "%s", f->running);
	return QG_STEP_OK;
}

static int f_verdict(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct fake *f = dev;
	f->verdicts++;
	int fault = f->verdicts < MAX_CALLS ? f->verdict_fault[f->verdicts] : OK;
	if (fault == REFUSE) {
		snprintf(err, errlen, "port 1's headroom is over its limit");
		return QG_STEP_REFUSED;
	}
	if (fault)
		return step_fails(f, fault, err, errlen);
	if (f->verdict_warns)
		qg_buf_printf(&r->warnings, "%s\n", f->verdict_warns);
	return QG_STEP_OK;
}

/* The target's words for where the latest read-back is off: the first setting that differs. */
static void f_why(void *dev, enum qg_push_where at, char *out, size_t cap)
{
	const struct fake *f = dev;
	const int *to = at == QG_AT_INTENT ? f->want : f->before;
	for (int k = 0; k < N_SET; k++)
		if (f->now[k] != to[k]) {
			snprintf(out, cap, "setting %d is %d, not %d", k, f->now[k], to[k]);
			return;
		}
}

/* The fake's ops with why: what run() uses when set. */
static struct qg_push_ops why_ops;
static const struct qg_push_ops *use_ops = &fake_ops;

static const struct qg_switch sw1 = {.name = "sw1", .address = "10.0.0.1"};

/* A target of two dialects, and a switch built for the newer one (issue 34). */
static const struct qg_dialect fake_dialects[] = {
    {"5.9", "old", "enable on", "the fake's notes 5.9"},
    {"5.15", "new", "state enabled", "the fake's notes 5.15"},
    {0},
};
static const struct qg_os_versions fake_versions = {.os = "Fake OS",
						    .oldest = "5.9",
						    .newest = "5.15",
						    .source = "the fake's notes",
						    .dialects = fake_dialects};
static const struct qg_target fake_target = {.name = "fake", .versions = &fake_versions};
static const struct qg_switch sw_v = {
    .name = "sw1", .address = "10.0.0.1", .target = &fake_target, .os_version = "5.15"};
static const struct qg_switch *use_sw = &sw1;
static struct qg_push_ops verdict_ops;

/* A device at 0,0,0 and an intent of 1,1,1: three settings to send. */
static struct fake fresh(void)
{
	return (struct fake){.want = {1, 1, 1}, .hostname = "sw1"};
}

static struct qg_push_result result;

static int run(struct fake *f, bool dry_run, bool accept_hostname)
{
	struct qg_access a = {.accept_hostname = accept_hostname};
	qg_buf_free(&result.sent);
	qg_buf_free(&result.warnings);
	memset(&result, 0, sizeof(result));
	int rc = qg_push_run(use_ops, f, &a, use_sw, dry_run, &result);
	assert_false(f->connected); /* closed at the end, whatever happened */
	return rc;
}

static void expect(enum qg_push_state state, int planned, int sent, int rolled_back)
{
	if (result.state != state)
		fprintf(stderr, "state %d, message: %s\n", (int)result.state, result.message);
	assert_int_equal(result.state, state);
	assert_int_equal(result.lines_planned, planned);
	assert_int_equal(result.lines_sent, sent);
	assert_int_equal(result.lines_rolled_back, rolled_back);
}

static void says(const char *words)
{
	if (!strstr(result.message, words))
		fprintf(stderr, "message: %s\nwanted: %s\n", result.message, words);
	assert_non_null(strstr(result.message, words));
}

static void device_is(const struct fake *f, int v0, int v1, int v2)
{
	assert_int_equal(f->dev[0], v0);
	assert_int_equal(f->dev[1], v1);
	assert_int_equal(f->dev[2], v2);
}

static void test_in_sync(void **state)
{
	(void)state;
	struct fake f = fresh();
	f.dev[0] = f.dev[1] = f.dev[2] = 1;
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_IN_SYNC, 0, 0, 0);
	assert_int_equal(f.applies, 0);
	assert_int_equal(f.saves, 0);
}

static void test_converges(void **state)
{
	(void)state;
	struct fake f = fresh();
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);
	says("said 2");
	device_is(&f, 1, 1, 1);
	assert_int_equal(f.saves, 1);
	assert_int_equal(f.drops, 1);
	assert_string_equal(result.sent.data, "set 0 1\nset 1 1\nset 2 1\n");
}

static void test_dry_run(void **state)
{
	(void)state;
	struct fake f = fresh();
	assert_int_equal(run(&f, true, false), 0);
	expect(QG_PUSH_WOULD_CHANGE, 3, 0, 0);
	assert_int_equal(f.applies, 0);
	device_is(&f, 0, 0, 0);

	f = fresh();
	f.dry_fault = REFUSE;
	assert_int_equal(run(&f, true, false), -1);
	expect(QG_PUSH_UNCHANGED, 3, 0, 0);
	says("dry run refuses them: refused by the fake");
	assert_int_equal(f.applies, 0);
}

/* Before anything is sent: unreachable or unchanged, never a change. */
static void test_fails_before_sending(void **state)
{
	(void)state;
	struct fake f = fresh();
	f.open_fault[1] = 1;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNREACHABLE, 0, 0, 0);
	assert_string_equal(result.message, "connection refused");

	static const struct {
		int fault;
		enum qg_push_state state;
		const char *says;
	} first_read[] = {{DROP, QG_PUSH_UNREACHABLE, "dropped; nothing sent"},
			  {TIME_OUT, QG_PUSH_UNREACHABLE, "timed out; nothing sent"},
			  {REFUSE, QG_PUSH_UNCHANGED, "refused by the fake; nothing sent"},
			  {GARBAGE, QG_PUSH_UNCHANGED, "line 1: unparseable; nothing sent"}};
	for (size_t k = 0; k < sizeof(first_read) / sizeof(first_read[0]); k++) {
		f = fresh();
		f.read_fault[1] = first_read[k].fault;
		assert_int_equal(run(&f, false, false), -1);
		expect(first_read[k].state, 0, 0, 0);
		says(first_read[k].says);
		assert_int_equal(f.applies, 0);
	}

	f = fresh();
	f.plan_rc = 1;
	run(&f, false, false);
	expect(QG_PUSH_UNCHANGED, 0, 0, 0);
	says("cannot converge exactly: the fake cannot; nothing sent");
	f = fresh();
	f.plan_rc = -1;
	run(&f, false, false);
	expect(QG_PUSH_UNCHANGED, 0, 0, 0);
	says("out of memory");

	for (int fault = REFUSE; fault <= DROP; fault++) {
		f = fresh();
		f.checkpoint_fault = fault;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_UNCHANGED, 3, 0, 0);
		says("cannot keep a copy of the configuration");
		assert_int_equal(f.applies, 0);
		assert_string_equal(result.saved_as, "");
	}
}

static void test_hostname(void **state)
{
	(void)state;
	struct fake f = fresh();
	f.hostname = "spine9";
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNCHANGED, 0, 0, 0);
	says("says its hostname is 'spine9', not 'sw1'");
	assert_int_equal(f.applies, 0);

	f = fresh();
	f.hostname = "spine9";
	assert_int_equal(run(&f, false, true), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);
}

/* Refused with nothing applied: the read-back proves it unchanged. */
static void test_apply_refused(void **state)
{
	(void)state;
	struct fake f = fresh();
	f.apply_fault = REFUSE;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNCHANGED, 3, 0, 0);
	says("refused by the fake; the read-back shows nothing applied: unchanged");
	assert_int_equal(f.rollbacks, 0);
	assert_int_equal(f.drops, 1);
	assert_int_equal(f.opens, 1);

	/* A patch refused whole: sent, but the read-back shows none of it took. */
	f = fresh();
	f.apply_fault = REFUSE;
	f.apply_whole = true;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNCHANGED, 3, 0, 0);

	/* Part-way: what took effect is rolled back, and proven. */
	f = fresh();
	f.apply_fault = REFUSE;
	f.apply_partial = 2;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_RESTORED, 3, 2, 2);
	says("refused by the fake; rolled back 2 settings: restored to the earlier configuration");
	device_is(&f, 0, 0, 0);
	assert_int_equal(f.rollbacks, 1);

	/* The refused part did not matter: in sync, saved. */
	f = fresh();
	f.apply_fault = REFUSE;
	f.apply_partial = 3;
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);
	says("(refused by the fake; the read-back shows it applied)");
}

/* A dropped connection: never UNCHANGED, always a rollback on a new connection. */
static void test_apply_dropped(void **state)
{
	(void)state;
	for (int partial = 0; partial <= N_SET; partial++) {
		struct fake f = fresh();
		f.apply_fault = DROP;
		f.apply_partial = partial;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_RESTORED, 3, partial, partial);
		says("dropped; reconnected, rolled back");
		device_is(&f, 0, 0, 0);
		assert_int_equal(f.opens, 2);
		assert_int_equal(f.rollbacks, 1);
		assert_int_equal(f.saves, 0);
	}

	struct fake f = fresh();
	f.apply_fault = DROP;
	f.apply_partial = 1;
	f.open_fault[2] = 1;
	run(&f, false, false);
	expect(QG_PUSH_NOT_RESTORED, 3, 1, 0);
	says("dropped; outcome unknown: cannot reconnect (connection refused): the switch may be "
	     "half-configured; checkpoint 'ckpt' is kept");
	assert_int_equal(f.rollbacks, 0);
	assert_int_equal(f.drops, 0);

	for (int fault = REFUSE; fault <= GARBAGE; fault++) {
		f = fresh();
		f.apply_fault = DROP;
		f.apply_partial = 1;
		f.read_fault[2] = fault;
		run(&f, false, false);
		expect(QG_PUSH_NOT_RESTORED, 3, 1, 0);
		says("dropped; reconnected, outcome unknown: cannot read back (");
		assert_int_equal(f.rollbacks, 0);
		device_is(&f, 1, 0, 0);
	}
}

/* Past --timeout: in sync is final; anything else is unknown, and not raced. */
static void test_apply_timed_out(void **state)
{
	(void)state;
	struct fake f = fresh();
	f.apply_fault = TIME_OUT;
	f.apply_partial = 1;
	f.apply_late = true;
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 1, 0);
	assert_int_equal(f.saves, 1);

	/*
	 * Issue 36: an apply whose answer said nothing of its effect (NVUE behind
	 * nginx's 502) reports TIMED_OUT with nothing applied yet; the change that
	 * lands by the read-back is saved, never said UNCHANGED.
	 */
	f = fresh();
	f.apply_fault = TIME_OUT;
	f.apply_partial = 0;
	f.apply_late = true;
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 0, 0);
	says("(timed out; the read-back shows it applied)");
	assert_int_equal(f.rollbacks, 0);
	device_is(&f, 1, 1, 1);

	for (int partial = 0; partial < N_SET; partial++) {
		f = fresh();
		f.apply_fault = TIME_OUT;
		f.apply_partial = partial;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_NOT_RESTORED, 3, partial, 0);
		says("timed out; reconnected, outcome unknown: the fake may still be applying: the "
		     "switch may be half-configured; checkpoint 'ckpt' is kept");
		assert_int_equal(f.rollbacks, 0);
		assert_int_equal(f.drops, 0);
		assert_string_equal(result.saved_as, "ckpt");
	}
}

/* Applied, then the read-back: unreadable once, or not in sync. */
static void test_read_back_after_apply(void **state)
{
	(void)state;
	for (int fault = REFUSE; fault <= GARBAGE; fault++) {
		struct fake f = fresh();
		f.read_fault[2] = fault;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_RESTORED, 3, 3, 3);
		says("cannot read back after the push (");
		says("reconnected, rolled back 3 settings: restored");
		device_is(&f, 0, 0, 0);
		assert_int_equal(f.opens, 2);
	}

	struct fake f = fresh();
	f.apply_ignores = true;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_RESTORED, 3, 3, 2);
	assert_string_equal(result.message,
			    "applied, but the read-back differs from the intent; rolled back 2 "
			    "settings: restored to the earlier configuration");
	assert_int_equal(f.opens, 1);
	assert_int_equal(f.drops, 1);
}

/* The rollback itself fails, or cannot be proven. */
static void test_roll_back_fails(void **state)
{
	(void)state;
	for (int fault = REFUSE; fault <= DROP; fault++) {
		struct fake f = fresh();
		f.apply_fault = REFUSE;
		f.apply_partial = 2;
		f.roll_fault = fault;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_NOT_RESTORED, 3, 2, 0);
		says("; the rollback failed (");
		says("checkpoint 'ckpt' is kept");
		device_is(&f, 1, 1, 0);
		assert_int_equal(f.drops, 0);
	}

	/* Verification after the rollback: unreadable, or still not as it was. */
	for (int fault = REFUSE; fault <= GARBAGE; fault++) {
		struct fake f = fresh();
		f.apply_fault = REFUSE;
		f.apply_partial = 2;
		f.read_fault[3] = fault;
		run(&f, false, false);
		expect(QG_PUSH_NOT_RESTORED, 3, 2, 2);
		says("the rollback could not be verified (");
		device_is(&f, 0, 0, 0); /* restored in fact, but unproven: not RESTORED */
	}
	struct fake f = fresh();
	f.apply_fault = REFUSE;
	f.apply_partial = 2;
	f.roll_ignores = true;
	run(&f, false, false);
	expect(QG_PUSH_NOT_RESTORED, 3, 2, 2);
	says("the read-back after it still differs from the earlier configuration");
	device_is(&f, 1, 1, 0);
}

/* A target that says why a read-back is off: its words follow the engine's. */
static void test_why(void **state)
{
	(void)state;
	why_ops = fake_ops;
	why_ops.why = f_why;
	use_ops = &why_ops;
	struct fake f = fresh();
	f.apply_ignores = true;
	f.roll_ignores = true;
	run(&f, false, false);
	expect(QG_PUSH_NOT_RESTORED, 3, 3, 2);
	says("applied, but the read-back differs from the intent: setting 2 is 0, not 1; ");
	says("still differs from the earlier configuration: setting 0 is 1, not 0: ");
	/* Rolled back and proven: the why of the apply stays in the message. */
	f = fresh();
	f.apply_ignores = true;
	run(&f, false, false);
	expect(QG_PUSH_RESTORED, 3, 3, 2);
	says("applied, but the read-back differs from the intent: setting 2 is 0, not 1; rolled "
	     "back 2 settings");
	use_ops = &fake_ops;
}

static void test_save_fails(void **state)
{
	(void)state;
	for (int fault = REFUSE; fault <= DROP; fault++) {
		struct fake f = fresh();
		f.save_fault = fault;
		assert_int_equal(run(&f, false, false), -1);
		expect(QG_PUSH_FAILED, 3, 3, 0);
		says("3 settings applied and read back in sync, but not saved (");
		says("checkpoint 'ckpt' is kept");
		assert_int_equal(f.drops, 0);
		device_is(&f, 1, 1, 1);
	}
}

/* The fake with a version and a verdict, built for 5.15; each test sets it up. */
static struct fake versioned(const char *running)
{
	verdict_ops = fake_ops;
	verdict_ops.os_version = f_os_version;
	verdict_ops.verdict = f_verdict;
	use_ops = &verdict_ops;
	use_sw = &sw_v;
	struct fake f = fresh();
	f.running = running;
	return f;
}

static void plain(void)
{
	use_ops = &fake_ops;
	use_sw = &sw1;
}

/* Another dialect, or a version outside the target's: refused before the first read-back. */
static void test_version(void **state)
{
	(void)state;
	struct fake f = versioned("5.9.2");
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNCHANGED, 0, 0, 0);
	says("runs Fake OS 5.9.2, which speaks the old dialect");
	says("set its os_version to 5.9.2");
	says("nothing sent");
	assert_int_equal(f.reads, 0);
	device_is(&f, 0, 0, 0);

	f = versioned("6.1");
	assert_int_equal(run(&f, true, false), -1);
	expect(QG_PUSH_UNCHANGED, 0, 0, 0);
	says("outside the versions qosgen writes (5.9 to 5.15");
	assert_int_equal(f.reads, 0);

	f = versioned("junk");
	assert_int_equal(run(&f, false, false), -1);
	says("no version qosgen can read");

	f = versioned("5.15");
	f.version_fault = DROP;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_UNREACHABLE, 0, 0, 0);
	says("cannot read the switch's OS version (dropped)");

	/* A push without a switch (a DVS) has no versions to check. */
	f = versioned("junk");
	use_sw = NULL;
	verdict_ops.hostname = NULL; /* nor a hostname, as the DVS's adapter */
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);

	/* A patch release of the built version's dialect converges. */
	f = versioned("5.15.3");
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);
	plain();
}

/* A state read back in sync that the switch refuses is rolled back, never converged. */
static void test_verdict_refused(void **state)
{
	(void)state;
	struct fake f = versioned("5.15");
	f.verdict_fault[1] = REFUSE;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_RESTORED, 3, 3, 3);
	says("read back in sync, but the switch refuses it: port 1's headroom is over its limit");
	says("restored to the earlier configuration");
	device_is(&f, 0, 0, 0);
	assert_int_equal(f.saves, 0);

	/* Configured as the intent says already, but refused: not in sync, nothing sent. */
	f = versioned("5.15");
	f.dev[0] = f.dev[1] = f.dev[2] = 1;
	f.verdict_fault[1] = REFUSE;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_FAILED, 0, 0, 0);
	says("configured as the intent says, but the switch refuses it");
	says("nothing sent");
	assert_int_equal(f.applies, 0);
	plain();
}

/* A verdict not read proves nothing: rolled back as after a lost step; its warnings kept. */
static void test_verdict_unread(void **state)
{
	(void)state;
	struct fake f = versioned("5.15");
	f.verdict_fault[1] = TIME_OUT;
	assert_int_equal(run(&f, false, false), -1);
	expect(QG_PUSH_RESTORED, 3, 3, 3);
	says("the switch's own verdict could not be read: timed out");
	device_is(&f, 0, 0, 0);

	f = versioned("5.15");
	f.verdict_warns = "port 1: the switch's headroom 10% above qosgen's";
	assert_int_equal(run(&f, false, false), 0);
	expect(QG_PUSH_CONVERGED, 3, 3, 0);
	assert_string_equal(result.warnings.data,
			    "port 1: the switch's headroom 10% above qosgen's\n");
	plain();
}

static void test_count_lines(void **state)
{
	(void)state;
	assert_int_equal(qg_push_count_lines(NULL, 0), 0);
	assert_int_equal(qg_push_count_lines("a\nb\n", 4), 2);
	assert_int_equal(qg_push_count_lines("a\nb", 3), 1);
}

static int teardown(void **state)
{
	(void)state;
	qg_buf_free(&result.sent);
	qg_buf_free(&result.warnings);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_in_sync),
	    cmocka_unit_test(test_converges),
	    cmocka_unit_test(test_dry_run),
	    cmocka_unit_test(test_fails_before_sending),
	    cmocka_unit_test(test_hostname),
	    cmocka_unit_test(test_apply_refused),
	    cmocka_unit_test(test_apply_dropped),
	    cmocka_unit_test(test_apply_timed_out),
	    cmocka_unit_test(test_read_back_after_apply),
	    cmocka_unit_test(test_roll_back_fails),
	    cmocka_unit_test(test_why),
	    cmocka_unit_test(test_save_fails),
	    cmocka_unit_test(test_version),
	    cmocka_unit_test(test_verdict_refused),
	    cmocka_unit_test(test_verdict_unread),
	    cmocka_unit_test(test_count_lines),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
