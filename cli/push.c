/* SPDX-License-Identifier: MIT */
/*
 * `qosgen push`: many devices in parallel with a bound (-j), a progress line
 * per device as it finishes, a summary table at the end, exit 3 if any device
 * failed (the others are unaffected).
 */
#include "push.h"
#include "../gen/errmsg.h"

#include "../gen/modeljson.h"
#include "../gen/target.h"
#include "../gen/version.h"
#include "../transport/ssh.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <libssh/libssh.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const state_name[] = {
    "in sync",	 "would change", "converged", "RESTORED",
    "UNCHANGED", "NOT RESTORED", "PARTIAL",   "FAILED",
};

struct job {
	enum qg_device_kind kind;
	size_t index;
	const struct qg_target *target;
	struct qg_push_result r;
	double seconds;
	bool ok;
};

struct pool {
	const struct qg_model *m;
	const struct qg_emit_ctx *ctx;
	const struct push_opts *po;
	struct job *jobs;
	size_t n, next;
	pthread_mutex_t lock;
};

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
		j->ok = j->target->push(p->m, j->index, p->ctx, &p->po->ssh, p->po->dry_run,
					&j->r) == 0;
		j->seconds = qg_monotonic_s() - t0;
		pthread_mutex_lock(&p->lock);
		const char *name = qg_device_name(p->m, j->kind, j->index);
		if (p->po->as_diff) {
			/* The difference on stdout; a device that cannot be read, on stderr. */
			if (!j->ok)
				fprintf(stderr, "qosgen diff: %s: %s\n", name, j->r.message);
			else if (j->r.sent.len && p->n > 1)
				printf("## %s\n%s", name, j->r.sent.data);
			else if (j->r.sent.len)
				fputs(j->r.sent.data, stdout);
		} else if (!p->po->json) {
			fprintf(stderr, "%s: %s\n", name, j->r.message);
			if (p->po->dry_run && j->r.sent.len)
				fputs(j->r.sent.data, stdout);
		}
		fflush(stdout);
		pthread_mutex_unlock(&p->lock);
	}
}

static void print_json(const struct qg_model *m, struct job *jobs, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "device", qg_device_name(m, j->kind, j->index));
		cJSON_AddStringToObject(o, "target", j->target->name);
		cJSON_AddStringToObject(o, "result", state_name[j->r.state]);
		cJSON_AddBoolToObject(o, "ok", j->ok);
		cJSON_AddNumberToObject(o, "lines_planned", j->r.lines_planned);
		cJSON_AddNumberToObject(o, "lines_sent", j->r.lines_sent);
		cJSON_AddNumberToObject(o, "lines_rolled_back", j->r.lines_rolled_back);
		cJSON_AddStringToObject(o, "saved_as", j->r.saved_as);
		cJSON_AddStringToObject(o, "message", j->r.message);
		cJSON_AddNumberToObject(o, "seconds", (double)(long)(j->seconds * 1000) / 1000);
		cJSON_AddItemToArray(a, o);
	}
	char *s = cJSON_Print(a);
	if (s)
		printf("%s\n", s);
	free(s);
	cJSON_Delete(a);
}

int push_run(const struct qg_model *m, const struct push_opts *po)
{
	struct job *jobs = calloc(m->n_switches + m->n_hosts + m->n_dvs + 1, sizeof(*jobs));
	if (!jobs)
		return 3;
	bool all = !po->switch_name && !po->host_name && !po->dvs_name;
	size_t n = 0;
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		const char *want = kind == QG_DEVICE_SWITCH ? po->switch_name
				   : kind == QG_DEVICE_HOST ? po->host_name
							    : po->dvs_name;
		for (size_t i = 0; i < qg_device_count(m, kind); i++) {
			if (!all && (!want || strcmp(want, qg_device_name(m, kind, i))))
				continue;
			const struct qg_target *t = qg_target_for(m, kind, i);
			if (t && t->push)
				jobs[n++] = (struct job){.kind = kind, .index = i, .target = t};
		}
	}
	if (!all && n == 0) {
		fprintf(stderr, "qosgen push: no %s named '%s' in the intent\n",
			po->switch_name ? "switch"
			: po->host_name ? "host"
					: "DVS",
			po->switch_name ? po->switch_name
			: po->host_name ? po->host_name
					: po->dvs_name);
		free(jobs);
		return 2;
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

	/* libssh must be initialised once, before any thread uses it. */
	ssh_init();
	curl_global_init(CURL_GLOBAL_DEFAULT);
	struct pool p = {.m = m, .ctx = &ctx, .po = po, .jobs = jobs, .n = n};
	pthread_mutex_init(&p.lock, NULL);
	size_t workers = po->jobs > 0 ? (size_t)po->jobs : 4;
	if (workers > n)
		workers = n ? n : 1;
	pthread_t *tids = calloc(workers, sizeof(*tids));
	size_t started = 0;
	for (size_t w = 0; tids && w < workers; w++)
		if (pthread_create(&tids[w], NULL, worker, &p) == 0)
			started++;
	if (started == 0)
		worker(&p);
	for (size_t w = 0; w < started; w++)
		pthread_join(tids[w], NULL);
	free(tids);
	pthread_mutex_destroy(&p.lock);
	ssh_finalize();
	curl_global_cleanup();

	int failed = 0, differ = 0;
	for (size_t i = 0; i < n; i++) {
		failed += !jobs[i].ok;
		differ += jobs[i].r.state == QG_PUSH_WOULD_CHANGE ||
			  (jobs[i].r.state == QG_PUSH_PARTIAL && jobs[i].r.sent.len);
	}
	if (po->as_diff) {
		/* nothing more to print */
	} else if (po->json) {
		print_json(m, jobs, n);
	} else {
		fprintf(stderr, "\n%-24s %-7s %-13s %5s %8s %7s\n", "DEVICE", "TARGET", "RESULT",
			"SENT", "UNDONE", "SECONDS");
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "%-24s %-7s %-13s %5d %8d %7.2f\n",
				qg_device_name(m, jobs[i].kind, jobs[i].index),
				jobs[i].target->name, state_name[jobs[i].r.state],
				jobs[i].r.lines_sent, jobs[i].r.lines_rolled_back, jobs[i].seconds);
		fprintf(stderr, "%zu device%s, %d failed\n", n, n == 1 ? "" : "s", failed);
	}
	for (size_t i = 0; i < n; i++)
		qg_buf_free(&jobs[i].r.sent);
	qg_diags_print(&d, stderr, false);
	qg_diags_free(&d);
	qg_templates_free(&templates);
	free(jobs);
	if (failed)
		return 3;
	return po->as_diff && po->exit_code && differ ? 1 : 0;
}
