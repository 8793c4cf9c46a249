/* SPDX-License-Identifier: MIT */
/*
 * `qosgen verify`: for each pair of the intent, over SSH: read both hosts'
 * facts (MTUs, the ToS rdma_cm applies, the RoCE v2 GID, port counters),
 * start the server side, run the client, read the facts again, and judge
 * (verbs/verdict.c). Pairs run one after the other: two bandwidth tests at
 * once would measure each other.
 *
 * A pair that names rails (issue 28) runs each rail on its own NICs, the
 * client's nics[K] to the server's nics[K], one rail after another over the
 * pair's two SSH sessions: rails at once would share the hosts' CPUs (and a
 * software RoCE device's), and each would be judged against a floor the
 * others pulled down. Each rail is reported and judged on its own; a rail
 * whose NIC is missing fails alone and the others still run. A pair without
 * rails runs rail 0 as before, with the same report.
 *
 * The traffic class on the wire is the one the host itself applies (rdma_cm's
 * default_roce_tos, read back), not the intent's: verify tests the host's
 * marking, and a host left at ToS 0 must show up as FATAL, not be papered
 * over by a correct --tclass. And since a job that sets no traffic class of
 * its own (NCCL without NCCL_IB_TC) takes neither, each rail also runs the
 * default-path probe (issue 35, verbs/defpath.h): datagrams that set none,
 * judged by the ToS the receiver saw on each.
 */
#include "verify.h"
#include "json.h"
#include "../model/derive.h"
#include "../lib/errmsg.h"
#include "../lib/escape.h"
#include "../lib/hash.h"
#include "../lib/version.h"
#include "../targets/registry.h"
#include "../verbs/remote.h"
#include "../verbs/verdict.h"

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <libssh/libssh.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_OK = 0, EXIT_FATAL = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };

/* One host of a pair: its session and its persistence, shared by the pair's rails. */
struct host_side {
	const struct qg_host *h;
	struct qg_ssh *ssh;
	char persist[256]; /* the persist report line; "" unread (see vd_side) */
	bool want_persist;
	char fail[512]; /* why the host could not be reached */
};

/* One end of a rail: a host's NIC, what was read on it and the traffic tool's output. */
struct side {
	const struct qg_host *h;
	struct host_side *host;
	const struct qg_nic *nic;
	struct qg_ssh *ssh;
	struct vr_facts before, after;
	bool have_before, have_after;
	struct vc_counters delta;
	bool have_delta;
	struct qg_buf out, err; /* the traffic tool's output */
	int status;
	char fail[512]; /* why this side could not be run */
};

struct server_job {
	struct side *s;
	const char *script;
	int rc;
	char err[512];
};

static void *run_server(void *arg)
{
	struct server_job *j = arg;
	j->rc = qg_ssh_run(j->s->ssh, "sh -s", j->script, strlen(j->script), &j->s->out, &j->s->err,
			   &j->s->status, j->err, sizeof(j->err));
	return NULL;
}

static int connect_host(struct host_side *s, const struct qg_ssh_opts *o)
{
	struct qg_ssh_target t = qg_host_ssh_target(s->h);
	return qg_ssh_connect(&t, o, &s->ssh, s->fail, sizeof(s->fail));
}

static int read_facts(struct side *s, struct vr_facts *f)
{
	struct qg_buf script = {0}, out = {0};
	vr_facts_script(s->nic, &script);
	int status = -1, rc = qg_ssh_run(s->ssh, "sh -s", script.data, script.len, &out, NULL,
					 &status, s->fail, sizeof(s->fail));
	if (rc == 0 && vr_facts_parse(out.data ? out.data : "", f, s->fail, sizeof(s->fail)) != 0)
		rc = -1;
	qg_buf_free(&script);
	qg_buf_free(&out);
	return rc;
}

/*
 * Whether the host's installed copy is current: the push's own payload, run
 * as a dry run without the script (QG_DRY_RUN=1: nothing written), and its
 * one "persist" line kept. Built with the built-in templates, as build does.
 */
static void read_persist(const struct qg_model *m, size_t i, struct host_side *s)
{
	s->persist[0] = '\0';
	const struct qg_driver *drv = qg_driver_for(s->h->target);
	s->want_persist = s->h->persist && drv && drv->persist_probe;
	if (!s->want_persist)
		return;
	struct qg_templates t;
	struct qg_diags d;
	struct qg_outset files = {0};
	struct qg_buf payload = {0}, out = {0};
	char hash[QG_SHA256_HEX] = "", err[256];
	qg_diags_init(&d, "templates");
	if (qg_templates_load(&t, NULL, &d) == 0) {
		struct qg_emit_ctx ctx = {
		    .templates = &t, .generator = QG_GENERATOR, .intent_hash = hash, .d = &d};
		int status = -1;
		if (qg_emit_device(m, QG_DEVICE_HOST, i, &ctx, &files) == 0 &&
		    drv->persist_probe(m, i, &ctx, &files, &payload) == 0 &&
		    qg_ssh_run(s->ssh, "QG_DRY_RUN=1 sh -s", payload.data, payload.len, &out, NULL,
			       &status, err, sizeof(err)) == 0 &&
		    out.data) {
			const char *l = strstr(out.data, "] persist: ");
			const char *b = l;
			while (b && b > out.data && b[-1] != '\n')
				b--;
			if (b)
				snprintf(s->persist, sizeof(s->persist), "%.*s",
					 (int)strcspn(b, "\n"), b);
			/* The host's text reaches the terminal: printable ASCII only. */
			for (char *c = s->persist; *c; c++)
				if (*c < 0x20 || *c > 0x7e)
					*c = '?';
		}
		qg_templates_free(&t);
	}
	qg_outset_free(&files);
	qg_buf_free(&payload);
	qg_buf_free(&out);
	qg_diags_free(&d);
}

/* A side's traffic result; on failure why says how it ended ("" when it did not fail). */
static void side_result(const struct side *x, const char *role, struct vr_result *res, char *why,
			size_t len)
{
	/* A side that exited non-zero with no output is not parsed: err must say something. */
	char err[256] = "no output", t[300];
	why[0] = '\0';
	if (x->status == 0 &&
	    vr_result_parse(x->out.data ? x->out.data : "", res, err, sizeof(err)) == 0)
		return;
	const struct qg_buf *b = x->err.len ? &x->err : &x->out;
	vr_output_tail(b->data ? b->data : "", b->len, t, sizeof(t));
	snprintf(why, len, "the %s on %s exited %d: %s", role, x->h->name, x->status,
		 t[0] ? t : err);
	vr_result_init(res);
}

/*
 * One rail of a pair: its report and verdict. A pair without rails is one
 * of these, rail 0, not named (the report as it was before rails).
 */
struct pair_report {
	const struct qg_pair *p;
	size_t rail;
	bool named;	     /* the pair names rails: the report names the rail and its NICs */
	struct side side[2]; /* client, server */
	struct vr_result client, server;
	struct vr_run run;
	char server_addr[16];
	struct vd_list checks;
	/* The default-path probe: its result, or why it did not run; to itself when loopback. */
	struct vr_defpath dp;
	char dp_why[300];
	bool dp_loopback;
	bool unreachable;	/* a host could not be reached or the tool not run */
	const char *fail_check; /* the check an unreachable rail fails: "reach" or "nic" */
	char why[600];
};

static void free_side(struct side *s)
{
	if (s->have_before)
		vr_facts_free(&s->before);
	if (s->have_after)
		vr_facts_free(&s->after);
	vc_counters_free(&s->delta);
	qg_buf_free(&s->out);
	qg_buf_free(&s->err);
}

struct defpath_job {
	struct qg_ssh *ssh;
	const char *script;
	struct qg_buf out;
	int status, rc;
	char err[256];
};

static void *run_defpath_server(void *arg)
{
	struct defpath_job *j = arg;
	j->rc = qg_ssh_run(j->ssh, "sh -s", j->script, strlen(j->script), &j->out, NULL, &j->status,
			   j->err, sizeof(j->err));
	return NULL;
}

/*
 * The default-path probe of a rail, after its traffic test: the client host
 * sends datagrams that set no traffic class to the server host, which reads
 * the ToS each arrived with. Both ends are qosgen probe; where only the
 * client host has it, the client sends to its own address (the marking is
 * the sender's: loopback, said in the report), and where the client has
 * none it is not measured. r->dp_why says why it did not run.
 */
static void run_default_path(const struct verify_opts *vo, struct pair_report *r)
{
	struct side *c = &r->side[0], *s = &r->side[1];
	struct vr_defpath_run run = {.port = vo->tcp_port, .count = 50, .limit_s = 60};
	char err[256];
	memset(&r->dp, 0, sizeof(r->dp));
	if (!c->before.have_qosgen) {
		snprintf(r->dp_why, sizeof(r->dp_why),
			 "qosgen is not installed on %s (the probe is qosgen probe --default-path)",
			 c->h->name);
		return;
	}
	struct qg_buf cs = {0}, cout = {0}, cerr = {0};
	int cst = -1;
	if (!s->before.have_qosgen) {
		if (!c->before.ipv4[0]) {
			snprintf(r->dp_why, sizeof(r->dp_why),
				 "qosgen is not installed on %s, and %s has no IPv4 address on %s "
				 "to send to itself",
				 s->h->name, c->h->name, c->nic->netdev);
			return;
		}
		r->dp_loopback = true;
		run.loopback = true;
		run.peer = c->before.ipv4;
		run.source = c->before.ipv4;
		vr_defpath_script(c->nic, &run, &cs);
		if (qg_ssh_run(c->ssh, "sh -s", cs.data, cs.len, &cout, &cerr, &cst, err,
			       sizeof(err)) != 0)
			snprintf(r->dp_why, sizeof(r->dp_why), "%s: %s", c->h->name, err);
	} else {
		struct vr_defpath_run srv = run;
		srv.server = true;
		struct qg_buf ss = {0};
		vr_defpath_script(s->nic, &srv, &ss);
		run.peer = r->server_addr;
		run.source = c->before.ipv4[0] ? c->before.ipv4 : NULL;
		vr_defpath_script(c->nic, &run, &cs);
		struct defpath_job job = {.ssh = s->ssh, .script = ss.data};
		pthread_t tid;
		if (pthread_create(&tid, NULL, run_defpath_server, &job) != 0) {
			snprintf(r->dp_why, sizeof(r->dp_why), "cannot start a thread");
		} else {
			nanosleep(&(struct timespec){.tv_nsec = 500 * 1000 * 1000}, NULL);
			if (qg_ssh_run(c->ssh, "sh -s", cs.data, cs.len, &cout, &cerr, &cst, err,
				       sizeof(err)) != 0)
				snprintf(r->dp_why, sizeof(r->dp_why), "%s: %s", c->h->name, err);
			pthread_join(tid, NULL);
			if (!r->dp_why[0] && job.rc != 0)
				snprintf(r->dp_why, sizeof(r->dp_why), "%s: %s", s->h->name,
					 job.err);
			/* The server's line first, then the client's, as a loopback prints them. */
			qg_buf_append(&job.out, cout.data ? cout.data : "", cout.len);
			qg_buf_free(&cout);
			cout = job.out;
		}
		qg_buf_free(&ss);
	}
	char tail[200];
	if (!r->dp_why[0] &&
	    vr_defpath_parse(cout.data ? cout.data : "", &r->dp, err, sizeof(err)) != 0) {
		const struct qg_buf *b = cerr.len ? &cerr : &cout;
		vr_output_tail(b->data ? b->data : "", b->len, tail, sizeof(tail));
		snprintf(r->dp_why, sizeof(r->dp_why), "%s (exit %d)%s%s", err, cst,
			 tail[0] ? ": " : "", tail);
	} else if (!r->dp_why[0] && (!r->dp.have_server || !r->dp.have_client)) {
		vr_output_tail(cerr.data ? cerr.data : "", cerr.len, tail, sizeof(tail));
		snprintf(r->dp_why, sizeof(r->dp_why), "the probe's %s side gave no result%s%s",
			 r->dp.have_server ? "client" : "server", tail[0] ? ": " : "", tail);
	}
	qg_buf_free(&cs);
	qg_buf_free(&cout);
	qg_buf_free(&cerr);
}

/* Both sides' NIC facts before the traffic; false (r says why) where a side fails. */
static bool rail_read_before(struct pair_report *r)
{
	for (int i = 0; i < 2; i++) {
		struct side *x = &r->side[i];
		if (read_facts(x, &x->before) != 0) {
			snprintf(r->why, sizeof(r->why), "%s: %s", x->h->name, x->fail);
			r->unreachable = true;
			return false;
		}
		x->have_before = true;
	}
	/* A named rail's NICs must be there: a missing one fails this rail alone. */
	for (int i = 0; r->named && i < 2; i++) {
		char why[300];
		if (vr_nic_missing(&r->side[i].before, r->side[i].nic, why, sizeof(why))) {
			size_t at = strlen(r->why);
			snprintf(r->why + at, sizeof(r->why) - at, "%s%s: %s", at ? "; " : "",
				 r->side[i].h->name, why);
			r->fail_check = "nic";
			r->unreachable = true;
		}
	}
	return !r->unreachable;
}

/*
 * Where the client connects: the server's RoCE netdev address, else (rail
 * 0 of a pair without rails, as before) its SSH address: another rail's
 * NIC is not where the SSH address leads. False (r says why): none.
 */
static bool rail_server_addr(struct pair_report *r)
{
	struct side *s = &r->side[1];
	struct in_addr a;
	if (s->before.ipv4[0])
		snprintf(r->server_addr, sizeof(r->server_addr), "%s", s->before.ipv4);
	else if (!r->named && inet_pton(AF_INET, s->h->address, &a) == 1)
		snprintf(r->server_addr, sizeof(r->server_addr), "%s", s->h->address);
	else {
		snprintf(r->why, sizeof(r->why),
			 "%s: no IPv4 address on %s to run RoCE traffic to (is the netdev up?)",
			 s->h->name, s->nic->netdev);
		r->fail_check = r->named ? "nic" : "reach";
		r->unreachable = true;
		return false;
	}
	return true;
}

/* The rail's run (r->run) and each side's script of it. */
static void rail_scripts(const struct qg_model *m, const struct verify_opts *vo,
			 struct pair_report *r, struct qg_buf *sscript, struct qg_buf *cscript)
{
	const struct qg_qos *q = &m->qos;
	struct side *c = &r->side[0], *s = &r->side[1];
	int tos = qg_roce_tos(q);
	int size = m->verify.message_size, secs = m->verify.duration_s;
	r->run = (struct vr_run){.tcp_port = vo->tcp_port,
				 .size = size,
				 .iters = vr_iters(size, secs, r->p->min_gbps_centi),
				 /* at a tenth of the minimum bandwidth, plus set-up */
				 .limit_s = secs * 10 + 30};
	struct vr_run srv = r->run, cli = r->run;
	srv.server = true;
	srv.tclass = s->before.roce_tos >= 0 ? s->before.roce_tos : tos;
	cli.peer = r->server_addr;
	cli.tclass = c->before.roce_tos >= 0 ? c->before.roce_tos : tos;
	/*
	 * qosgen probe picks a RoCE v2 GID of its device itself; a named rail
	 * gives it the one of its own netdev (the facts'), as perftest always
	 * gets, so that a device with GIDs of other netdevs still runs its rail.
	 */
	srv.gid_index = s->before.have_qosgen && !r->named ? -1 : s->before.gid_index;
	cli.gid_index = c->before.have_qosgen && !r->named ? -1 : c->before.gid_index;
	r->run.tclass = cli.tclass;
	vr_run_script(s->nic, &srv, sscript);
	vr_run_script(c->nic, &cli, cscript);
}

/* The traffic: the server's script on a thread, the client's here; r says why where one fails. */
static void rail_traffic(struct pair_report *r, const char *sscript, const struct qg_buf *cscript)
{
	struct side *c = &r->side[0], *s = &r->side[1];
	struct server_job job = {.s = s, .script = sscript};
	pthread_t tid;
	bool threaded = pthread_create(&tid, NULL, run_server, &job) == 0;
	if (!threaded) {
		snprintf(r->why, sizeof(r->why), "cannot start a thread for the server side");
		r->unreachable = true;
	} else {
		/* qosgen probe's client retries the connect; the perftest fallback loops. */
		nanosleep(&(struct timespec){.tv_nsec = 300 * 1000 * 1000}, NULL);
		c->status = -1;
		if (qg_ssh_run(c->ssh, "sh -s", cscript->data, cscript->len, &c->out, &c->err,
			       &c->status, c->fail, sizeof(c->fail)) != 0) {
			snprintf(r->why, sizeof(r->why), "%s: %s", c->h->name, c->fail);
			r->unreachable = true;
		}
		pthread_join(tid, NULL);
		if (job.rc != 0 && !r->unreachable) {
			snprintf(r->why, sizeof(r->why), "%s: %s", s->h->name, job.err);
			r->unreachable = true;
		}
	}
}

/* Each side's result and its facts after the traffic (the counters' delta). */
static void rail_results(struct pair_report *r)
{
	struct side *c = &r->side[0], *s = &r->side[1];
	/* Both sides' errors, the server's first: a server that failed makes the client fail. */
	char why[2][300];
	side_result(s, "server", &r->server, why[0], sizeof(why[0]));
	side_result(c, "client", &r->client, why[1], sizeof(why[1]));
	snprintf(r->why, sizeof(r->why), "%s%s%s", why[0], why[0][0] && why[1][0] ? "; " : "",
		 why[1]);
	for (int i = 0; i < 2; i++) {
		struct side *x = &r->side[i];
		if (read_facts(x, &x->after) == 0) {
			x->have_after = true;
			x->have_delta = vc_counters_delta(&x->before.counters, &x->after.counters,
							  &x->delta) == 0;
		}
	}
}

/*
 * Rail r->rail of a pair whose hosts are connected (r's sides hold their
 * sessions): read both NICs' facts, run the traffic between them, read the
 * facts again.
 */
static void run_rail(const struct qg_model *m, const struct verify_opts *vo, struct pair_report *r)
{
	r->fail_check = "reach";
	if (!rail_read_before(r) || !rail_server_addr(r))
		return;
	struct qg_buf sscript = {0}, cscript = {0};
	rail_scripts(m, vo, r, &sscript, &cscript);
	rail_traffic(r, sscript.data, &cscript);
	qg_buf_free(&sscript);
	qg_buf_free(&cscript);
	if (r->unreachable)
		return;
	rail_results(r);
	run_default_path(vo, r);
}

/*
 * Why a pair did not run holds the hosts' text (an SSH error with the
 * server's disconnect message, a tool's last lines): escaped once here for
 * both the text and the JSON output. Escaping is idempotent on what is
 * already escaped (a backslash passes unchanged).
 */
static void escape_one(char *s, size_t len)
{
	char *e = qg_escape(s);
	snprintf(s, len, "%s", e ? e : "(out of memory)");
	free(e);
}

static void escape_why(struct pair_report *r)
{
	escape_one(r->why, sizeof(r->why));
	escape_one(r->dp_why, sizeof(r->dp_why));
}

static void judge_pair(const struct qg_model *m, struct pair_report *r)
{
	const struct qg_qos *q = &m->qos;
	struct vd_expected e = {.min_gbps = (double)r->p->min_gbps_centi / 100,
				.mtu = q->mtu,
				.path_mtu = qg_roce_path_mtu(q->mtu),
				.tos = qg_roce_tos(q),
				.ecn = q->ecn};
	struct vd_measured me = {.gbps = r->client.ok ? r->client.gbps : -1,
				 .path_mtu = r->client.ok ? r->client.path_mtu : -1,
				 .n_sides = 2};
	for (int i = 0; i < 2; i++) {
		struct side *x = &r->side[i];
		const struct vr_facts *f = x->have_after ? &x->after : &x->before;
		const struct vr_result *res = i == 0 ? &r->client : &r->server;
		me.side[i] = (struct vd_side){
		    .name = x->h->name,
		    .netdev_mtu = f->netdev_mtu,
		    /* the verbs tool's own reading first: ibv_devinfo may be missing */
		    .active_mtu = res->active_mtu >= 0 ? res->active_mtu : f->active_mtu,
		    .tos = x->before.roce_tos,
		    .persist = x->host->want_persist ? x->host->persist : NULL,
		    .delta = x->have_delta && x->delta.n ? &x->delta : NULL};
	}
	const struct side *c = &r->side[0];
	me.dp = (struct vd_default_path){.asked = true,
					 .sender = c->h->name,
					 .device = c->nic->rdma_device,
					 .peer = r->dp_loopback ? c->h->name : r->side[1].h->name,
					 .why = r->dp_why,
					 .tclass = r->dp.tclass,
					 .sent = r->dp.sent,
					 .received = r->dp.received,
					 .tos = r->dp.tos,
					 .n_tos = r->dp.n_tos,
					 .roce_tos = c->before.roce_tos,
					 .traffic_class = c->before.traffic_class};
	vd_judge(&e, &me, &r->checks);
}

/*
 * "gpu-001 -> gpu-002", and for a named rail " rail 3 (ens4f0np0/mlx5_3 ->
 * ens4f0np0/mlx5_3)": the hosts' names with the NICs the rail ran on.
 */
static void print_title(const struct pair_report *r, FILE *f)
{
	const struct side *c = &r->side[0], *s = &r->side[1];
	fprintf(f, "== %s -> %s", c->h->name, s->h->name);
	if (r->named)
		fprintf(f, " rail %zu (%s/%s -> %s/%s)", r->rail, c->nic->netdev,
			c->nic->rdma_device, s->nic->netdev, s->nic->rdma_device);
}

static void print_text(const struct pair_report *r, FILE *f)
{
	print_title(r, f);
	if (r->unreachable) {
		fprintf(f, "\n[FATAL] Check %s: %s\n\nPASS: 0\nMARGINAL: 0\nFATAL: 1\n",
			r->fail_check, r->why);
		return;
	}
	fprintf(f, ": %s to %s, %d B x %llu, traffic class %d, to %s\n",
		r->client.ok ? r->client.tool : "no result",
		r->server.ok ? r->server.tool : "no result", r->run.size, r->run.iters,
		r->run.tclass, r->server_addr);
	if (r->why[0])
		fprintf(f, "   %s\n", r->why);
	struct qg_buf b = {0};
	vd_print(&r->checks, &b);
	fputs(b.data ? b.data : "", f);
	qg_buf_free(&b);
}

static cJSON *side_json(const struct side *x)
{
	cJSON *o = cJSON_CreateObject();
	const struct vr_facts *f = x->have_after ? &x->after : &x->before;
	cJSON_AddStringToObject(o, "host", x->h->name);
	cJSON_AddNumberToObject(o, "netdev_mtu", f->netdev_mtu);
	cJSON_AddNumberToObject(o, "active_mtu", f->active_mtu);
	cJSON_AddNumberToObject(o, "roce_tos", x->before.roce_tos);
	cJSON_AddNumberToObject(o, "traffic_class", x->before.traffic_class);
	cJSON_AddNumberToObject(o, "gid_index", f->gid_index);
	cJSON *d = cJSON_AddObjectToObject(o, "counters_delta");
	for (size_t i = 0; i < x->delta.n; i++)
		if (x->delta.v[i].value)
			cJSON_AddNumberToObject(d, x->delta.v[i].name, (double)x->delta.v[i].value);
	return o;
}

static const char *const level_name[] = {"PASS", "MARGINAL", "FATAL"};

/* A check as every status of --json is (docs/json.md): status, ok, message. */
static void add_check(cJSON *checks, int level, const char *what, const char *detail)
{
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "check", what);
	cli_json_status(c, level_name[level], level != VD_FATAL, detail);
	cJSON_AddItemToArray(checks, c);
}

static cJSON *pair_json(const struct pair_report *r, int count[3])
{
	int mine[3] = {0};
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "client", r->side[0].h->name);
	cJSON_AddStringToObject(o, "server", r->side[1].h->name);
	/* A named rail: its index and the NICs it ran on, the client's first. */
	if (r->named) {
		cJSON_AddNumberToObject(o, "rail", (double)r->rail);
		cJSON *nics = cJSON_AddArrayToObject(o, "nics");
		for (int i = 0; i < 2; i++) {
			cJSON *n = cJSON_CreateObject();
			cJSON_AddStringToObject(n, "host", r->side[i].h->name);
			cJSON_AddStringToObject(n, "netdev", r->side[i].nic->netdev);
			cJSON_AddStringToObject(n, "rdma_device", r->side[i].nic->rdma_device);
			cJSON_AddItemToArray(nics, n);
		}
	}
	cJSON *checks = cJSON_CreateArray();
	if (r->unreachable) {
		add_check(checks, VD_FATAL, r->fail_check, r->why);
		mine[VD_FATAL]++;
	} else {
		for (size_t i = 0; i < r->checks.n; i++) {
			add_check(checks, r->checks.v[i].level, r->checks.v[i].what,
				  r->checks.v[i].detail);
			mine[r->checks.v[i].level]++;
		}
	}
	/* The pair's status is its worst check; ok as its exit status counts it. */
	int worst = mine[VD_FATAL] ? VD_FATAL : mine[VD_MARGINAL] ? VD_MARGINAL : VD_PASS;
	cli_json_status(o, level_name[worst], worst != VD_FATAL && !r->unreachable && r->client.ok,
			r->why);
	if (!r->unreachable) {
		cJSON_AddStringToObject(o, "tool", r->client.ok ? r->client.tool : "");
		cJSON_AddStringToObject(o, "server_tool", r->server.ok ? r->server.tool : "");
		cJSON_AddStringToObject(o, "server_address", r->server_addr);
		cJSON_AddNumberToObject(o, "size", r->run.size);
		cJSON_AddNumberToObject(o, "iters", (double)r->run.iters);
		cJSON_AddNumberToObject(o, "tclass", r->run.tclass);
		cJSON_AddNumberToObject(o, "gbps", r->client.ok ? r->client.gbps : -1);
		cJSON_AddNumberToObject(o, "path_mtu", r->client.ok ? r->client.path_mtu : -1);
	}
	cJSON_AddItemToObject(o, "checks", checks);
	if (!r->unreachable) {
		/* The default-path probe (issue 35): what it saw, or why it did not run. */
		cJSON *dp = cJSON_AddObjectToObject(o, "default_path");
		cJSON_AddBoolToObject(dp, "measured", !r->dp_why[0]);
		cJSON_AddBoolToObject(dp, "loopback", r->dp_loopback);
		cJSON_AddNumberToObject(dp, "tclass", r->dp.tclass);
		cJSON_AddNumberToObject(dp, "sent", r->dp.sent);
		cJSON_AddNumberToObject(dp, "received", r->dp.received);
		cJSON *tos = cJSON_AddArrayToObject(dp, "tos");
		for (int k = 0; k < r->dp.n_tos; k++)
			cJSON_AddItemToArray(tos, cJSON_CreateNumber(r->dp.tos[k]));
		if (r->dp_why[0])
			cJSON_AddStringToObject(dp, "why", r->dp_why);
	}
	if (!r->unreachable) {
		cJSON *sides = cJSON_AddArrayToObject(o, "hosts");
		for (int i = 0; i < 2; i++)
			cJSON_AddItemToArray(sides, side_json(&r->side[i]));
	}
	cJSON *sum = cJSON_AddObjectToObject(o, "summary");
	cJSON_AddNumberToObject(sum, "pass", mine[VD_PASS]);
	cJSON_AddNumberToObject(sum, "marginal", mine[VD_MARGINAL]);
	cJSON_AddNumberToObject(sum, "fatal", mine[VD_FATAL]);
	for (int k = 0; k < 3; k++)
		count[k] += mine[k];
	return o;
}

/* "CLIENT:SERVER" names a pair of the intent. */
static bool pair_wanted(const struct qg_model *m, const struct qg_pair *p, const char *want)
{
	if (!want)
		return true;
	const char *colon = strchr(want, ':');
	if (!colon)
		return false;
	const char *cn = m->hosts[p->client].name, *sn = m->hosts[p->server].name;
	return strlen(cn) == (size_t)(colon - want) && !strncmp(want, cn, strlen(cn)) &&
	       !strcmp(colon + 1, sn);
}

/* Report r as text to out or as JSON into json; counts its checks; returns its exit code. */
static int report_rail(const struct qg_model *m, struct pair_report *r, double t0,
		       const struct verify_reports *to)
{
	FILE *out = to->out;
	cJSON *json = to->json;
	int *count = to->count;
	escape_why(r);
	if (!r->unreachable)
		judge_pair(m, r);
	if (json) {
		cJSON *o = pair_json(r, count);
		if (o && to->batch > 0)
			cJSON_AddNumberToObject(o, "batch", to->batch);
		cJSON_AddItemToArray(json, o);
	} else {
		print_text(r, out);
		fprintf(out, "(%.1f s)\n", qg_monotonic_s() - t0);
		/* Counted as pair_json counts: a rail that did not run, one FATAL. */
		if (r->unreachable)
			count[VD_FATAL]++;
		for (size_t k = 0; !r->unreachable && k < r->checks.n; k++)
			count[r->checks.v[k].level]++;
	}
	fflush(out);
	if (r->unreachable || !r->client.ok)
		return EXIT_SYSTEM;
	return vd_fatal(&r->checks) ? EXIT_FATAL : EXIT_OK;
}

/*
 * One pair: both hosts connected once, then each of its rails (rail 0 alone
 * when it names none), one after another. A host that cannot be reached
 * fails the pair as one report, the rails unrun.
 */
static int run_pair(const struct qg_model *m, const struct verify_opts *vo, const struct qg_pair *p,
		    const struct verify_reports *to)
{
	struct host_side hs[2] = {{.h = &m->hosts[p->client]}, {.h = &m->hosts[p->server]}};
	static const size_t rail0 = 0;
	const size_t *rails = p->rails_given ? p->rails : &rail0;
	size_t n_rails = p->rails_given ? p->n_rails : 1;
	int rc = EXIT_OK;
	double t0 = qg_monotonic_s();
	for (int i = 0; i < 2; i++) {
		if (connect_host(&hs[i], &vo->ssh) == 0) {
			read_persist(m, i == 0 ? p->client : p->server, &hs[i]);
			continue;
		}
		struct pair_report r = {.p = p, .unreachable = true, .fail_check = "reach"};
		for (int k = 0; k < 2; k++)
			r.side[k].h = hs[k].h;
		vr_result_init(&r.client);
		vr_result_init(&r.server);
		snprintf(r.why, sizeof(r.why), "%s: %s", hs[i].h->name, hs[i].fail);
		rc = report_rail(m, &r, t0, to);
		n_rails = 0;
		break;
	}
	for (size_t k = 0; k < n_rails; k++) {
		struct pair_report *r = calloc(1, sizeof(*r));
		if (!r) {
			rc = EXIT_SYSTEM;
			break;
		}
		r->p = p;
		r->rail = rails[k];
		r->named = p->rails_given;
		for (int i = 0; i < 2; i++)
			r->side[i] = (struct side){.h = hs[i].h,
						   .host = &hs[i],
						   .nic = &hs[i].h->nics[rails[k]],
						   .ssh = hs[i].ssh};
		vr_result_init(&r->client);
		vr_result_init(&r->server);
		if (k > 0)
			t0 = qg_monotonic_s();
		run_rail(m, vo, r);
		int one = report_rail(m, r, t0, to);
		if (one == EXIT_SYSTEM || (one == EXIT_FATAL && rc == EXIT_OK))
			rc = one;
		for (int i = 0; i < 2; i++)
			free_side(&r->side[i]);
		free(r);
	}
	for (int i = 0; i < 2; i++)
		if (hs[i].ssh)
			qg_ssh_close(hs[i].ssh);
	return rc;
}

int verify_pairs_run(const struct qg_model *m, const struct verify_opts *vo, const size_t *idx,
		     size_t n, const struct verify_reports *to)
{
	int rc = EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		int one = run_pair(m, vo, &m->verify.pairs[idx[i]], to);
		if (one == EXIT_SYSTEM || (one == EXIT_FATAL && rc == EXIT_OK))
			rc = one;
	}
	return rc;
}

int verify_run(const struct qg_model *m, const struct verify_opts *vo)
{
	size_t n = 0;
	size_t *idx = calloc(m->verify.n_pairs + 1, sizeof(*idx));
	if (!idx)
		return EXIT_SYSTEM;
	for (size_t i = 0; i < m->verify.n_pairs; i++)
		if (pair_wanted(m, &m->verify.pairs[i], vo->pair))
			idx[n++] = i;
	if (n == 0) {
		if (vo->pair)
			fprintf(stderr,
				"qosgen verify: no pair '%s' in the intent's verify.pairs "
				"(CLIENT:SERVER, by host name)\n",
				vo->pair);
		else
			fprintf(stderr, "qosgen verify: the intent has no verify.pairs\n");
		free(idx);
		return EXIT_USAGE;
	}
	ssh_init();
	cJSON *all = vo->json ? cJSON_AddArrayToObject(vo->json, "pairs") : NULL;
	int count[3] = {0};
	int rc = verify_pairs_run(
	    m, vo, idx, n, &(struct verify_reports){.out = stdout, .json = all, .count = count});
	if (all) {
		cJSON *sum = cJSON_AddObjectToObject(vo->json, "summary");
		cJSON_AddNumberToObject(sum, "pairs", (double)n);
		/* With rails, pairs has an entry per rail: how many, beside the pairs. */
		bool rails = false;
		for (size_t i = 0; i < n; i++)
			rails |= m->verify.pairs[idx[i]].rails_given;
		if (rails)
			cJSON_AddNumberToObject(sum, "rails", cJSON_GetArraySize(all));
		cJSON_AddNumberToObject(sum, "pass", count[VD_PASS]);
		cJSON_AddNumberToObject(sum, "marginal", count[VD_MARGINAL]);
		cJSON_AddNumberToObject(sum, "fatal", count[VD_FATAL]);
	}
	ssh_finalize();
	free(idx);
	return rc;
}
