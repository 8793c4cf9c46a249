/* SPDX-License-Identifier: MIT */
/*
 * `qosgen push`: many devices in parallel with a bound (-j), a progress line
 * per device as it finishes, a summary table at the end, exit 3 if any device
 * failed (the others are unaffected).
 */
#include "push.h"
#include "json.h"
#include "verify.h"
#include "waves.h"
#include "../lib/errmsg.h"

#include "../lib/escape.h"
#include "../emit/modeljson.h"
#include "../lib/strmap.h"
#include "../model/target.h"
#include "../targets/registry.h"
#include "../lib/version.h"
#include "../transport/ssh.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <libssh/libssh.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const state_name[] = {
    "in sync",	    "would change", "converged", "RESTORED",	"UNCHANGED",
    "NOT RESTORED", "PARTIAL",	    "FAILED",	 "UNREACHABLE",
};

struct job {
	enum qg_device_kind kind;
	size_t index;
	const struct qg_target *target;
	const struct qg_driver *driver;
	struct qg_push_result r;
	double seconds;
	bool ok;
	int wave;	/* --batch: its wave, 1-based; 0 without --batch */
	bool untouched; /* --batch: an earlier wave stopped the push before its own */
};

struct pool {
	const struct qg_model *m;
	const struct qg_emit_ctx *ctx;
	const struct push_opts *po;
	struct job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
};

/*
 * --batch: the wave size, how many waves, how many ran, how many devices none
 * reached. --verify: the pairs that ran and their checks, the exit code of
 * the first pair not clean (verify's 1 or 3, then the push stopped), the
 * intent's pairs (the JSON array for them).
 */
struct waves {
	int size, total, done;
	size_t untouched;
	size_t pairs_run;
	int count[3]; /* checks: PASS, MARGINAL, FATAL */
	int verify_rc;
	bool *pair_done;
	size_t *ready;
	struct qg_wave_device *pushed;
	cJSON *pairs_json;
};

/*
 * What a device said (a host's report line, a switch's error line, read
 * into a result's message and sent lines) goes to the terminal escaped
 * (lib/escape.h): an escape sequence in it must not set the terminal's title
 * or erase what was printed, a newline not forge a line of ours.
 */
static void put_device_text(FILE *f, const char *s, size_t len)
{
	struct qg_buf b = {0};
	qg_escape_append(&b, s, len);
	if (b.failed)
		fputs("(out of memory)", f);
	else if (b.len)
		fwrite(b.data, 1, b.len, f);
	qg_buf_free(&b);
}

/* A switch's warnings (its own verdict's, targets/driver.h), one line each on stderr. */
static void put_warnings(const char *prefix, const char *name, const struct qg_buf *w)
{
	for (size_t i = 0; i < w->len;) {
		const char *nl = memchr(w->data + i, '\n', w->len - i);
		size_t n = nl ? (size_t)(nl - (w->data + i)) : w->len - i;
		fprintf(stderr, "%s%s: warning: ", prefix, name);
		put_device_text(stderr, w->data + i, n);
		fputc('\n', stderr);
		i += n + 1;
	}
}

/* The same, line by line: each line of s escaped and ended with a newline. */
static void put_device_lines(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
		put_device_text(f, s + i, n);
		fputc('\n', f);
		i += n + 1;
	}
}

/*
 * A host of several NICs reports NIC K's settings as nics[K].KEY, plan.json's
 * keys. Shown to people, each such key is followed by the NIC's netdev,
 * "[changed] nics[3].mtu (ens4f0np0): 1500 -> 9000", so that nobody counts
 * NICs to find the port; --json keeps the keys as they are (and lists the
 * NICs). Into out: s with those names added (the host's text is escaped
 * when printed, as before).
 */
static void name_nics(const struct qg_model *m, const struct job *j, const char *s, size_t len,
		      struct qg_buf *out)
{
	const struct qg_host *h = j->kind == QG_DEVICE_HOST ? &m->hosts[j->index] : NULL;
	if (!h || h->n_nics < 2) {
		qg_buf_append(out, s, len);
		return;
	}
	for (size_t i = 0; i < len;) {
		size_t e = i + 5, k = 0;
		bool key = (i == 0 || s[i - 1] == ' ') && len - i > 5 && !memcmp(s + i, "nics[", 5);
		while (key && e < len && s[e] >= '0' && s[e] <= '9' && k < h->n_nics)
			k = k * 10 + (size_t)(s[e++] - '0');
		key = key && e > i + 5 && k < h->n_nics && e + 1 < len && s[e] == ']' &&
		      s[e + 1] == '.';
		if (!key) {
			qg_buf_append(out, s + i, 1);
			i++;
			continue;
		}
		while (e < len && !strchr(" :,;\n", s[e]))
			e++;
		qg_buf_append(out, s + i, e - i);
		qg_buf_printf(out, " (%s)", h->nics[k].netdev);
		i = e;
	}
}

/* put_device_text() or put_device_lines() of what job j's device said, its NICs named. */
static void put_job_text(FILE *f, const struct qg_model *m, const struct job *j, const char *s,
			 size_t len, bool lines)
{
	struct qg_buf b = {0};
	name_nics(m, j, s, len, &b);
	if (b.failed)
		fputs("(out of memory)\n", f);
	else if (lines)
		put_device_lines(f, b.data ? b.data : "", b.len);
	else
		put_device_text(f, b.data ? b.data : "", b.len);
	qg_buf_free(&b);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		struct job *j = &p->jobs[i];
		double t0 = qg_monotonic_s();
		j->ok = j->driver->push(p->m, j->index, p->ctx, &p->po->access, p->po->dry_run,
					&j->r) == 0;
		j->seconds = qg_monotonic_s() - t0;
		pthread_mutex_lock(&p->lock);
		const char *name = qg_device_name(p->m, j->kind, j->index);
		if (p->po->json) {
			/* stdout holds the envelope alone; it is printed at the end */
		} else if (p->po->as_diff) {
			/*
			 * The difference on stdout, whatever else is wrong on the device (a
			 * host missing one knob still shows what would change on the others);
			 * what is wrong, on stderr.
			 */
			if (!j->ok) {
				fprintf(stderr, "qosgen diff: %s: ", name);
				put_job_text(stderr, p->m, j, j->r.message, strlen(j->r.message),
					     false);
				fputc('\n', stderr);
			}
			put_warnings("qosgen diff: ", name, &j->r.warnings);
			if (j->r.sent.len) {
				if (p->n > 1)
					printf("## %s\n", name);
				put_job_text(stdout, p->m, j, j->r.sent.data, j->r.sent.len, true);
			}
		} else {
			fprintf(stderr, "%s: ", name);
			put_job_text(stderr, p->m, j, j->r.message, strlen(j->r.message), false);
			fputc('\n', stderr);
			put_warnings("", name, &j->r.warnings);
			if (p->po->dry_run && j->r.sent.len)
				put_job_text(stdout, p->m, j, j->r.sent.data, j->r.sent.len, true);
		}
		fflush(stdout);
		pthread_mutex_unlock(&p->lock);
	}
}

/* One device's object of "devices" (docs/json.md). */
static cJSON *device_json(const struct qg_model *m, const struct job *j)
{
	static const char *const kind[] = {"switch", "host", "dvs"};
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "device", qg_device_name(m, j->kind, j->index));
	cJSON_AddStringToObject(o, "kind", kind[j->kind]);
	cJSON_AddStringToObject(o, "target", j->target->name);
	if (j->untouched)
		cli_json_status(o, "untouched", false, j->r.message);
	else
		cli_json_status(o, state_name[j->r.state], j->ok, j->r.message);
	if (j->wave)
		cJSON_AddNumberToObject(o, "batch", j->wave);
	/* What would change (a dry run, a diff) or was sent, one string per line. */
	cli_json_lines(o, "lines", j->r.sent.data, j->r.sent.len);
	cli_json_failed_settings(o, j->r.failed.data, j->r.failed.len);
	/* A switch's own verdict's warnings, when it has any (targets/driver.h). */
	if (j->r.warnings.len)
		cli_json_lines(o, "warnings", j->r.warnings.data, j->r.warnings.len);
	/* A host of several NICs: which NIC each nics[K] of its keys is (docs/json.md). */
	const struct qg_host *h = j->kind == QG_DEVICE_HOST ? &m->hosts[j->index] : NULL;
	cJSON *nics = h && h->n_nics > 1 ? cJSON_AddArrayToObject(o, "nics") : NULL;
	for (size_t k = 0; nics && k < h->n_nics; k++) {
		cJSON *nic = cJSON_CreateObject();
		cJSON_AddNumberToObject(nic, "nic", (double)k);
		cJSON_AddStringToObject(nic, "netdev", h->nics[k].netdev);
		cJSON_AddStringToObject(nic, "rdma_device", h->nics[k].rdma_device);
		cJSON_AddItemToArray(nics, nic);
	}
	cJSON_AddNumberToObject(o, "lines_planned", j->r.lines_planned);
	cJSON_AddNumberToObject(o, "lines_sent", j->r.lines_sent);
	cJSON_AddNumberToObject(o, "lines_rolled_back", j->r.lines_rolled_back);
	cJSON_AddStringToObject(o, "saved_as", j->r.saved_as);
	cJSON_AddNumberToObject(o, "seconds", (double)(long)(j->seconds * 1000) / 1000);
	return o;
}

/* "devices" and "summary" into the envelope; the caller prints it. */
static void add_json(cJSON *env, const struct qg_model *m, const struct job *jobs, size_t n,
		     int failed, const struct waves *w)
{
	cJSON *a = cJSON_AddArrayToObject(env, "devices");
	int count[sizeof(state_name) / sizeof(state_name[0])] = {0};
	for (size_t i = 0; i < n; i++) {
		cJSON_AddItemToArray(a, device_json(m, &jobs[i]));
		if (!jobs[i].untouched)
			count[jobs[i].r.state]++;
	}
	cJSON *sum = cJSON_AddObjectToObject(env, "summary");
	cJSON_AddNumberToObject(sum, "devices", (double)n);
	cJSON_AddNumberToObject(sum, "failed", failed);
	if (w->size) {
		cJSON *b = cJSON_AddObjectToObject(sum, "batches");
		cJSON_AddNumberToObject(b, "size", w->size);
		cJSON_AddNumberToObject(b, "total", w->total);
		cJSON_AddNumberToObject(b, "done", w->done);
		cJSON_AddNumberToObject(b, "untouched", (double)w->untouched);
	}
	if (w->pair_done) {
		cJSON *v = cJSON_AddObjectToObject(sum, "verify");
		cJSON_AddNumberToObject(v, "pairs", (double)w->pairs_run);
		cJSON_AddNumberToObject(v, "pass", w->count[0]);
		cJSON_AddNumberToObject(v, "marginal", w->count[1]);
		cJSON_AddNumberToObject(v, "fatal", w->count[2]);
		cJSON_AddNumberToObject(v, "not_run", (double)(m->verify.n_pairs - w->pairs_run));
	}
	/* Every status that occurred, in the order of targets/driver.h's states. */
	cJSON *by = cJSON_AddObjectToObject(sum, "statuses");
	for (size_t k = 0; k < sizeof(count) / sizeof(count[0]); k++)
		if (count[k])
			cJSON_AddNumberToObject(by, state_name[k], count[k]);
}

/* Same file, position and text: the one error that every host of a template shares. */
static bool diag_known(const struct qg_diags *d, const struct qg_diag *e)
{
	for (size_t k = 0; k < d->n; k++) {
		const struct qg_diag *x = &d->v[k];
		if (x->pos.line == e->pos.line && x->pos.col == e->pos.col &&
		    !strcmp(x->msg, e->msg) &&
		    !strcmp(x->file ? x->file : "", e->file ? e->file : ""))
			return true;
	}
	return false;
}

/*
 * Whether host i's script fills templates no host before it in the push
 * filled: a template's error (an unknown or unclosed placeholder, a site's
 * template missing) is one of its text, the same for every host that fills
 * it, and the hosts of one group (struct qg_target's group()) with the same
 * persist fill the same templates with the same names. seen: those so far.
 */
static bool new_templates(const struct qg_model *m, size_t i, struct qg_strmap *seen)
{
	const struct qg_host *h = &m->hosts[i];
	char group[QG_GROUP_LEN] = "", key[QG_GROUP_LEN + 64];
	if (!h->target->group)
		return true;
	h->target->group(m, i, group);
	snprintf(key, sizeof(key), "%s\t%s\t%d", h->target->name, group, h->persist);
	if (qg_strmap_get(seen, key))
		return false;
	/* The map keeps its keys, not copies: each its own value, freed with it. */
	char *copy = strdup(key);
	if (copy && qg_strmap_put(seen, copy, copy, NULL) < 0)
		free(copy);
	return true; /* out of memory: checked again, never skipped */
}

static void seen_free(struct qg_strmap *seen)
{
	for (size_t k = 0; k < seen->cap; k++)
		free(seen->vals ? seen->vals[k] : NULL);
	qg_strmap_free(seen);
}

/*
 * Fill the templates of the push's hosts once, here, before any thread
 * starts: a template error stops the push before any device is touched,
 * reported once however many hosts share the template (issue 18: sixteen
 * workers appending the same error to one list corrupted the heap). One
 * host per group is enough (new_templates()): the workers generate each
 * host's script when they push it, each into a diagnostics list of its own.
 */
static int check_host_scripts(const struct qg_model *m, const struct job *jobs, size_t n,
			      const struct qg_emit_ctx *ctx)
{
	struct qg_diags *d = ctx->d;
	struct qg_strmap seen = {0};
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].kind != QG_DEVICE_HOST || !new_templates(m, jobs[i].index, &seen))
			continue;
		struct qg_diags one;
		qg_diags_init(&one, d->file);
		struct qg_emit_ctx c = *ctx;
		c.d = &one;
		struct qg_outset files = {0};
		int rc = qg_emit_device(m, QG_DEVICE_HOST, jobs[i].index, &c, &files);
		qg_outset_free(&files);
		for (size_t k = 0; k < one.n; k++) {
			const struct qg_diag *e = &one.v[k];
			if (diag_known(d, e))
				continue;
			if (e->sev != QG_SEV_ERROR)
				qg_warning_named(d, e->pos, e->warning, e->warning_name, "%s",
						 e->msg);
			else if (e->file)
				qg_error_in(d, e->file, e->pos, "%s", e->msg);
			else
				qg_error(d, e->pos, "%s", e->msg);
		}
		if (rc != 0 && one.errors == 0)
			qg_error(d, (struct qg_pos){0}, "%s: cannot generate the host script%s",
				 qg_device_name(m, jobs[i].kind, jobs[i].index),
				 rc == -ENOMEM ? ": out of memory" : "");
		d->oom |= one.oom;
		qg_diags_free(&one);
	}
	seen_free(&seen);
	return d->errors || d->oom ? -1 : 0;
}

/*
 * --batch (issue 27): the order of the waves. Switches first: a lossless
 * class, a larger MTU, ECN marking must be in place on the path before the
 * senders use them (docs/ansible.md has the table, and the changes no
 * order keeps lossless). DVSes next, as the hosts' own switch, then the
 * hosts. Within a kind, the intent's order.
 */
static int wave_rank(enum qg_device_kind k)
{
	return k == QG_DEVICE_SWITCH ? 0 : k == QG_DEVICE_DVS ? 1 : 2;
}

/* Stable: the intent's order within a kind. */
static void waves_order(struct job *jobs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct job j = jobs[i];
		size_t k = i;
		for (; k > 0 && wave_rank(jobs[k - 1].kind) > wave_rank(j.kind); k--)
			jobs[k] = jobs[k - 1];
		jobs[k] = j;
	}
}

/* The end of the wave that starts at jobs[first]: at most size devices of one kind. */
static size_t wave_end(const struct job *jobs, size_t n, size_t first, int size)
{
	size_t end = first;
	while (end < n && end - first < (size_t)size && jobs[end].kind == jobs[first].kind)
		end++;
	return end;
}

/* What a wave's device must be for the next wave: in sync, converged, (dry run) would change. */
static bool wave_device_done(const struct job *j)
{
	return j->ok && (j->r.state == QG_PUSH_IN_SYNC || j->r.state == QG_PUSH_CONVERGED ||
			 j->r.state == QG_PUSH_WOULD_CHANGE);
}

/* The pool's workers over jobs[first..end), joined before it returns. */
static void run_pool(struct pool *p, size_t first, size_t end)
{
	p->next = first;
	p->n = end;
	size_t workers = p->po->jobs > 0 ? (size_t)p->po->jobs : 4;
	if (workers > end - first)
		workers = end - first ? end - first : 1;
	pthread_t *tids = calloc(workers, sizeof(*tids));
	size_t started = 0;
	for (size_t w = 0; tids && w < workers; w++)
		if (pthread_create(&tids[w], NULL, worker, p) == 0)
			started++;
	if (started == 0)
		worker(p);
	for (size_t w = 0; w < started; w++)
		pthread_join(tids[w], NULL);
	free(tids);
}

/*
 * --verify: after the wave that ends at jobs[end - 1] converged, the pairs
 * whose hosts are all pushed now (jobs[0..end), push/waves.h) and
 * have not run. Returns false when one is not clean: the push stops.
 */
static bool verify_wave(struct pool *p, const struct job *jobs, size_t end, int wave,
			struct waves *w)
{
	for (size_t i = 0; i < end; i++)
		w->pushed[i] =
		    (struct qg_wave_device){.kind = jobs[i].kind, .index = jobs[i].index};
	size_t n = qg_verify_pairs_ready(p->m, w->pushed, end, w->pair_done, w->ready);
	if (n == 0)
		return true;
	const struct push_opts *po = p->po;
	struct verify_opts vo = {.tcp_port = po->verify_port, .ssh = po->access.ssh};
	if (!po->json) {
		if (wave)
			fprintf(stderr, "qosgen push: batch %d: verify %zu pair%s\n", wave, n,
				n == 1 ? "" : "s");
		else
			fprintf(stderr, "qosgen push: verify %zu pair%s\n", n, n == 1 ? "" : "s");
	}
	int rc = verify_pairs_run(
	    p->m, &vo, w->ready, n,
	    &(struct verify_reports){
		.batch = wave, .out = stderr, .json = w->pairs_json, .count = w->count});
	w->pairs_run += n;
	if (rc != 0)
		w->verify_rc = rc;
	return rc == 0;
}

/*
 * Every wave in turn, stopping after the first with a device not done, or
 * (--verify) with a pair not clean: the devices of the later waves are
 * marked untouched, nothing sent to them. Without --batch, one wave of every
 * device.
 */
static void run_waves(struct pool *p, struct job *jobs, size_t n, struct waves *w)
{
	if (!w->size) {
		run_pool(p, 0, n);
		bool all_done = true;
		for (size_t i = 0; i < n; i++)
			all_done &= wave_device_done(&jobs[i]);
		if (p->po->verify && all_done)
			verify_wave(p, jobs, n, 0, w);
		return;
	}
	for (size_t first = 0, end; first < n; first = end) {
		end = wave_end(jobs, n, first, w->size);
		w->total++;
		for (size_t i = first; i < end; i++)
			jobs[i].wave = w->total;
	}
	size_t first = 0;
	for (int k = 1; first < n; k++) {
		size_t end = wave_end(jobs, n, first, w->size);
		static const char *const kind[] = {"switch", "host", "DVS"};
		static const char *const kinds[] = {"switches", "hosts", "DVSes"};
		enum qg_device_kind kd = jobs[first].kind;
		if (!p->po->json)
			fprintf(stderr, "qosgen push: batch %d of %d: %zu %s\n", k, w->total,
				end - first, (end - first == 1 ? kind : kinds)[kd]);
		run_pool(p, first, end);
		w->done = k;
		bool all_done = true;
		for (size_t i = first; i < end; i++)
			all_done &= wave_device_done(&jobs[i]);
		first = end;
		if (!all_done)
			break;
		if (p->po->verify && !verify_wave(p, jobs, end, k, w))
			break;
	}
	for (size_t i = first; i < n; i++) {
		jobs[i].untouched = true;
		jobs[i].r.state = QG_PUSH_UNCHANGED;
		qg_push_say(&jobs[i].r, "untouched: batch %d %s", w->done,
			    w->verify_rc ? "failed verify" : "did not converge");
		w->untouched++;
	}
}

/*
 * The devices the call names (every one with --all; hosts alone with
 * --uninstall) into jobs, *n of them, each with its driver. 0, or the exit
 * code of a call that names nothing to push (2, said on stderr).
 */
static int jobs_select(const struct qg_model *m, const struct push_opts *po, struct job *jobs,
		       size_t *n_jobs)
{
	bool all = !po->switch_name && !po->host_name && !po->dvs_name;
	size_t n = 0, named = 0;
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		const char *want = kind == QG_DEVICE_SWITCH ? po->switch_name
				   : kind == QG_DEVICE_HOST ? po->host_name
							    : po->dvs_name;
		/* --uninstall undoes what host pushes install; switches and DVS have nothing. */
		if (po->access.uninstall && kind != QG_DEVICE_HOST)
			continue;
		for (size_t i = 0; i < qg_device_count(m, kind); i++) {
			if (!all && (!want || strcmp(want, qg_device_name(m, kind, i))))
				continue;
			named++;
			const struct qg_target *t = qg_target_for(m, kind, i);
			const struct qg_driver *drv = t ? qg_driver_for(t) : NULL;
			if (drv)
				jobs[n++] = (struct job){
				    .kind = kind, .index = i, .target = t, .driver = drv};
			else
				fprintf(stderr,
					"qosgen push: %s: the %s target has no driver yet; "
					"skipped\n",
					qg_device_name(m, kind, i), t ? t->name : "(none)");
		}
	}
	*n_jobs = n;
	/* The device was named and is there, but its target cannot push (said above). */
	if (!all && n == 0 && named > 0)
		return 2;
	/* Before anything is pushed: --verify with nothing to verify is a mistake in the call. */
	if (po->verify && m->verify.n_pairs == 0) {
		fprintf(stderr, "qosgen push: --verify: the intent has no verify.pairs; nothing "
				"was pushed\n");
		return 2;
	}
	if (!all && n == 0) {
		fprintf(stderr, "qosgen push: no %s named '%s' in the intent\n",
			po->switch_name ? "switch"
			: po->host_name ? "host"
					: "DVS",
			po->switch_name ? po->switch_name
			: po->host_name ? po->host_name
					: po->dvs_name);
		return 2;
	}
	return 0;
}

/* The text summary on stderr: a line per device, the counts, and why the push stopped. */
static void summary_print(const struct qg_model *m, const struct push_opts *po,
			  const struct job *jobs, size_t n, int failed, const struct waves *w)
{
	fprintf(stderr, "\n%-24s %-7s %-13s %5s %8s %7s\n", "DEVICE", "TARGET", "RESULT", "SENT",
		"UNDONE", "SECONDS");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%-24s %-7s %-13s %5d %8d %7.2f\n",
			qg_device_name(m, jobs[i].kind, jobs[i].index), jobs[i].target->name,
			jobs[i].untouched ? "untouched" : state_name[jobs[i].r.state],
			jobs[i].r.lines_sent, jobs[i].r.lines_rolled_back, jobs[i].seconds);
	fprintf(stderr, "%zu device%s, %d failed\n", n, n == 1 ? "" : "s", failed);
	if (po->verify)
		fprintf(stderr,
			"verify: %zu pair%s run, %zu not run; checks: %d PASS, %d "
			"MARGINAL, %d FATAL\n",
			w->pairs_run, w->pairs_run == 1 ? "" : "s",
			m->verify.n_pairs - w->pairs_run, w->count[0], w->count[1], w->count[2]);
	if (w->untouched)
		fprintf(stderr, "stopped after batch %d of %d (%s): %zu device%s untouched\n",
			w->done, w->total,
			w->verify_rc ? "a verify pair not clean"
				     : "a device not in sync or converged",
			w->untouched, w->untouched == 1 ? "" : "s");
}

int push_run(const struct qg_model *m, const struct push_opts *po)
{
	struct job *jobs = calloc(m->n_switches + m->n_hosts + m->n_dvs + 1, sizeof(*jobs));
	if (!jobs)
		return 3;
	size_t n = 0;
	int rc = jobs_select(m, po, jobs, &n);
	if (rc) {
		free(jobs);
		return rc;
	}

	/* What the host scripts are built from, as `qosgen build` builds them. */
	char hash[QG_SHA256_HEX];
	struct qg_templates templates;
	struct qg_diags d;
	qg_diags_init(&d, "templates");
	if (qg_model_hash(m, hash) != 0 || qg_templates_load(&templates, po->templates, &d) != 0) {
		qg_diags_print(&d, stderr, false);
		qg_diags_free(&d);
		free(jobs);
		return 3;
	}
	struct qg_emit_ctx ctx = {
	    .templates = &templates, .generator = QG_GENERATOR, .intent_hash = hash, .d = &d};
	if (check_host_scripts(m, jobs, n, &ctx) != 0) {
		qg_diags_print(&d, stderr, false);
		fprintf(stderr, "qosgen %s: the host scripts cannot be generated; nothing was %s\n",
			po->as_diff ? "diff" : "push", po->as_diff ? "read" : "pushed");
		qg_diags_free(&d);
		qg_templates_free(&templates);
		free(jobs);
		return 3;
	}

	/* libssh must be initialised once, before any thread uses it. */
	ssh_init();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	struct pool p = {.m = m, .ctx = &ctx, .po = po, .jobs = jobs, .n = n};
	pthread_mutex_init(&p.lock, NULL);
	struct waves w = {.size = po->batch};
	if (po->verify) {
		w.pair_done = calloc(m->verify.n_pairs + 1, sizeof(*w.pair_done));
		w.ready = calloc(m->verify.n_pairs + 1, sizeof(*w.ready));
		w.pushed = calloc(n + 1, sizeof(*w.pushed));
		if (po->json)
			w.pairs_json = cJSON_AddArrayToObject(po->json, "pairs");
	}
	if (po->verify && (!w.pair_done || !w.ready || !w.pushed)) {
		fprintf(stderr, "qosgen push: out of memory\n");
		for (size_t i = 0; i < n; i++) {
			jobs[i].untouched = true;
			qg_push_say(&jobs[i].r, "untouched: out of memory");
		}
		w.untouched = n;
	} else {
		if (w.size)
			waves_order(jobs, n);
		run_waves(&p, jobs, n, &w);
	}
	pthread_mutex_destroy(&p.lock);
	ssh_finalize();
	curl_global_cleanup();

	int failed = 0, differ = 0;
	for (size_t i = 0; i < n; i++) {
		failed += !jobs[i].ok && !jobs[i].untouched;
		differ +=
		    jobs[i].r.state == QG_PUSH_WOULD_CHANGE ||
		    ((jobs[i].r.state == QG_PUSH_PARTIAL || jobs[i].r.state == QG_PUSH_FAILED) &&
		     jobs[i].r.sent.len && po->dry_run);
	}
	if (po->json) {
		add_json(po->json, m, jobs, n, failed, &w);
	} else if (!po->as_diff) {
		summary_print(m, po, jobs, n, failed, &w);
	}
	for (size_t i = 0; i < n; i++) {
		qg_buf_free(&jobs[i].r.sent);
		qg_buf_free(&jobs[i].r.failed);
		qg_buf_free(&jobs[i].r.warnings);
	}
	qg_diags_print(&d, stderr, false);
	qg_diags_free(&d);
	qg_templates_free(&templates);
	free(jobs);
	free(w.pair_done);
	free(w.ready);
	free(w.pushed);
	/* A device that failed first; else a pair's verdict, as `qosgen verify` exits. */
	if (failed || (w.untouched && !w.verify_rc))
		return 3;
	if (w.verify_rc)
		return w.verify_rc;
	return po->as_diff && po->exit_code && differ ? 1 : 0;
}
