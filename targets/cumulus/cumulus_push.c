/* SPDX-License-Identifier: MIT */
/*
 * The Cumulus driver: the steps of the push engine (targets/engine.h) over
 * the NVUE REST API over HTTPS (Cumulus Linux 5.x, NVUE API): read the
 * applied revision, compute the merge patch of what qosgen owns
 * (nvue_config.c), create a revision, PATCH it, apply it (answering the
 * apply prompt), poll until applied, read back and compare, and save. NVUE
 * applies a revision whole or not at all: a refused one leaves the applied
 * revision as it was, which the read-back proves UNCHANGED. An apply whose
 * answer does not say whether it runs (a lost connection, nginx's 502) is
 * followed by the revision's own state too; one not followed to an end
 * within --timeout may still apply, so the engine never rolls back under
 * it. A read-back that differs after an end is rolled back (the inverse
 * patch, in a new revision). Credentials: the intent's user (or
 * QOSGEN_NVUE_USER), the password from QOSGEN_NVUE_PASSWORD or
 * --ask-password; never argv.
 */
#include "../../lib/errmsg.h"
#include "../../lib/escape.h"
#include "../../model/names.h"
#include "../../transport/https.h"
#include "../../transport/readback.h"
#include "../driver.h"
#include "../engine.h"
#include "cumulus.h"
#include "cumulus_push.h"
#include "nvue_config.h"
#include "nvue_patch.h"
#include "nvue_readback.h"
#include "nvue_text.h"
#include "nvue_dialect.h"
#include "nvue_verdict.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NVUE_BASE "/nvue_v1"
#define NVUE_POLL_MS 200

struct nvue {
	const struct qg_switch *sw;
	const struct qg_access *a;
	struct qg_https *h;
	int timeout_s;
	char rev[CUMULUS_REVISION_ID_MAX +
		 1];	   /* the revision this push made, as the switch named it */
	char rev_url[768]; /* the same, escaped for a URL path and query */
	/* why the answer to an apply did not say whether it runs ("" when it did) */
	char unsure[160];
	long status;			    /* the latest request's HTTP status, 0 when none came */
	size_t got;			    /* the bytes of its answer */
	cJSON *want, *before, *now, *patch; /* now: the latest read-back after a change */
};

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

/* A request whose answer must be JSON with a 2xx status. */
static enum qg_https_outcome call(struct nvue *n, const struct qg_https_req *rq, cJSON **answer,
				  char *err, size_t errlen)
{
	const char *method = rq->method, *path = rq->path;
	struct qg_buf b = {0};
	long status = 0;
	*answer = NULL;
	enum qg_https_outcome o = qg_https_request(n->h, rq, &status, &b, err, errlen);
	n->status = o == QG_HTTPS_ANSWERED ? status : 0;
	n->got = b.len;
	if (o == QG_HTTPS_ANSWERED && status == 404 && !strcmp(method, "GET") &&
	    strstr(path, "?rev=applied")) {
		/* A subtree the switch has nothing in (a fresh switch's qos): empty, not an error.
		 */
		*answer = cJSON_CreateObject();
		if (!*answer)
			o = QG_HTTPS_LOST;
	} else if (o == QG_HTTPS_ANSWERED) {
		*answer = b.data ? cJSON_ParseWithLength(b.data, b.len) : NULL;
		if (status == 401)
			qg_errf(err, errlen,
				"%s %s: the switch refused the user name or password (401)", method,
				path);
		else if (status < 200 || status > 299)
			qg_errf(err, errlen, "%s %s: HTTP %ld: %.300s", method, path, status,
				b.data ? b.data : "");
		else if (!*answer)
			qg_errf(err, errlen, "%s %s: the answer is not JSON", method, path);
		if (!*answer || status < 200 || status > 299) {
			cJSON_Delete(*answer);
			*answer = NULL;
			/* A 2xx that is not JSON: answered, but what it did is unknown. */
			o = status < 200 || status > 299 ? qg_https_status_outcome(status)
							 : QG_HTTPS_LOST;
		}
	}
	qg_buf_free(&b);
	return o;
}

/*
 * The applied revision's interface, qos and system trees, read as any
 * read-back is: what is configured (filled=false, NVUE-API page, "View a
 * Configuration"), not NVUE's defaults laid under it, since only what is
 * configured can be unset (a default traffic class's ECN would otherwise
 * read back after every unset).
 */
static int read_back(struct nvue *n, cJSON **have, char *err, size_t errlen)
{
	static const char *const parts[] = {"interface", "qos", "system"};
	cJSON *all = cJSON_CreateObject();
	for (size_t k = 0; all && k < sizeof(parts) / sizeof(parts[0]); k++) {
		char path[64];
		cJSON *part;
		snprintf(path, sizeof(path), NVUE_BASE "/%s?rev=applied&filled=false", parts[k]);
		if (call(n, &(struct qg_https_req){.method = "GET", .path = path}, &part, err,
			 errlen) != QG_HTTPS_ANSWERED) {
			/* Not reached, refused (401) or not answered: never read. */
			cJSON_Delete(all);
			return QG_STEP_LOST;
		}
		cJSON_AddItemToObject(all, parts[k], part);
	}
	char *text = all ? cJSON_PrintUnformatted(all) : NULL;
	cJSON_Delete(all);
	if (!text) {
		qg_errf(err, errlen, "out of memory");
		return QG_STEP_REFUSED;
	}
	struct qg_diags d;
	qg_diags_init(&d, "the switch's applied revision");
	int rc = nvue_config_parse(text, strlen(text), have, &d);
	cJSON_free(text);
	if (rc != 0)
		qg_errf(err, errlen, "cannot read the applied revision: %s",
			d.n ? d.v[0].msg : "out of memory");
	qg_diags_free(&d);
	return rc == 0 ? QG_STEP_OK : QG_STEP_REFUSED;
}

/* What the switch said about a revision: its issues' messages, one clause. */
static void issues_of(const cJSON *rev, char *out, size_t cap)
{
	const cJSON *issue = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(rev, "transition"), "issue");
	size_t used = 0;
	out[0] = '\0';
	const cJSON *i;
	cJSON_ArrayForEach(i, issue)
	{
		const char *msg =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(i, "message"));
		const char *code =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(i, "code"));
		if (used < cap)
			used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? "; " : "",
						 msg	? msg
						 : code ? code
							: "(no message)");
	}
}

/* A revision object as the API answers it: itself, or wrapped in its id. */
static const cJSON *revision_body(const cJSON *answer)
{
	if (cJSON_GetObjectItemCaseSensitive(answer, "state"))
		return answer;
	return cJSON_IsObject(answer) && answer->child ? answer->child : answer;
}

static int new_revision(struct nvue *n, char *err, size_t errlen)
{
	cJSON *a;
	if (call(n, &(struct qg_https_req){.method = "POST", .path = NVUE_BASE "/revision"}, &a,
		 err, errlen) != QG_HTTPS_ANSWERED)
		return -1;
	const char *id = cJSON_IsObject(a) && a->child ? a->child->string : NULL;
	if (!id) {
		cJSON_Delete(a);
		return qg_errf(err, errlen, "the switch's new revision has no id");
	}
	/*
	 * The id goes into a URL path: ".." there is a dot segment libcurl
	 * resolves, and /revision/.. would be the API's root. Only what NVUE
	 * documents as an id is used, checked before any request carries it.
	 */
	if (!cumulus_revision_id_ok(id)) {
		char shown[CUMULUS_REVISION_ID_MAX + 1];
		snprintf(shown, sizeof(shown), "%s", id);
		char *esc = qg_escape(shown);
		qg_errf(
		    err, errlen,
		    "the switch named its new revision '%s%s', which is not an NVUE revision "
		    "id (one like '1' or 'changeset/cumulus/2021-11-02_16.09.18_5Z1K': "
		    "letters, digits, '_', '-' and '.' in segments joined by '/', none empty or "
		    "starting with '.'); refused before any request used it",
		    esc ? esc : "?", strlen(id) > CUMULUS_REVISION_ID_MAX ? "..." : "");
		free(esc);
		cJSON_Delete(a);
		return -1;
	}
	snprintf(n->rev, sizeof(n->rev), "%s", id);
	cJSON_Delete(a);
	/* Ids hold slashes ("changeset/cumulus/2021-11-02_16.09.18_5Z1K"): escaped. */
	char *esc = curl_easy_escape(NULL, n->rev, 0);
	if (!esc)
		return qg_errf(err, errlen, "out of memory");
	snprintf(n->rev_url, sizeof(n->rev_url), "%s", esc);
	curl_free(esc);
	return 0;
}

bool cumulus_revision_id_ok(const char *id)
{
	size_t len = strlen(id), seg = 0;
	if (len == 0 || len > CUMULUS_REVISION_ID_MAX)
		return false;
	for (size_t i = 0; i <= len; i++, seg++) {
		unsigned char c = (unsigned char)id[i];
		if (c == '/' || c == '\0') {
			if (seg == 0) /* empty: "/1", "1//2", "1/" */
				return false;
			seg = (size_t)-1;
		} else if (c == '.' && seg == 0) {
			return false; /* ".", "..", ".hidden" */
		} else if (!isalnum(c) || c > 127) {
			if (c != '_' && c != '-' && c != '.')
				return false;
		}
	}
	return true;
}

/*
 * How an apply ended: APPLIED; REFUSED, nothing applied (the switch said
 * no to the request, or the revision reached a documented failure state);
 * UNKNOWN, the revision may still apply (not followed to an end within
 * --timeout, or its state could not be read).
 */
enum applied { APPLIED, REFUSED, UNKNOWN };

enum cumulus_rev_end cumulus_revision_end(const char *state)
{
	if (!state)
		return CUMULUS_REV_GOING;
	if (!strcmp(state, "applied"))
		return CUMULUS_REV_APPLIED;
	if (!strcmp(state, "invalid") || !strcmp(state, "ays_fail"))
		return CUMULUS_REV_REFUSED;
	return CUMULUS_REV_GOING;
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Poll revision n->rev (at path) until its state ends or deadline (ms,
 * CLOCK_MONOTONIC) passes; the switch's words in err when it is not
 * applied. Each request gets only the time left, so a switch that answers
 * slowly cannot stretch the wait (issue 24, finding 3); a poll that is not
 * answered, or answered by a front end's error (502 while NVUE restarts),
 * is asked again, NVUE_POLL_MS apart, never in a hot loop; the answers
 * together are held to the read-back limit, so a switch cannot keep qosgen
 * reading for the whole --timeout either.
 */
static enum applied follow_revision(struct nvue *n, const char *path, long deadline, int limit_s,
				    char *err, size_t errlen)
{
	char last[400] = "no answer to its state yet";
	size_t read = 0;
	for (;;) {
		long left = deadline - now_ms();
		if (left <= 0)
			break;
		qg_https_limit(n->h, left);
		cJSON *a;
		enum qg_https_outcome o =
		    call(n, &(struct qg_https_req){.method = "GET", .path = path}, &a, err, errlen);
		read += n->got;
		if (o == QG_HTTPS_ANSWERED) {
			const cJSON *rev = revision_body(a);
			const char *state =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rev, "state"));
			enum cumulus_rev_end end = cumulus_revision_end(state);
			char said[600];
			issues_of(rev, said, sizeof(said));
			if (end == CUMULUS_REV_REFUSED)
				qg_errf(err, errlen,
					"the switch did not apply revision %s (%s)%s%s", n->rev,
					state, said[0] ? ": " : "", said);
			else if (state)
				snprintf(last, sizeof(last), "in state '%.60s'%s", state,
					 end == CUMULUS_REV_GOING && strcmp(state, "apply") &&
						 strcmp(state, "pending")
					     ? ", which NVIDIA does not document as an end"
					     : "");
			else
				snprintf(last, sizeof(last), "with no state in its answer");
			cJSON_Delete(a);
			if (end != CUMULUS_REV_GOING)
				return end == CUMULUS_REV_APPLIED ? APPLIED : REFUSED;
		} else if (n->status && qg_https_status_outcome(n->status) == QG_HTTPS_NOT_SENT) {
			/* The switch refuses to say (401, 404): asking again will not change it. */
			char why[400];
			snprintf(why, sizeof(why), "%s", err);
			qg_errf(
			    err, errlen,
			    "cannot follow revision %s to its end (%s): it may still be applying",
			    n->rev, why);
			return UNKNOWN;
		} else {
			snprintf(last, sizeof(last), "its state not read (%.360s)", err);
		}
		if (read > QG_READBACK_MAX) {
			qg_errf(
			    err, errlen,
			    "revision %s: the answers to its state passed the read-back limit of "
			    "%s before it ended; it may still be applying",
			    n->rev, QG_READBACK_MAX_TEXT);
			return UNKNOWN;
		}
		left = deadline - now_ms();
		sleep_ms(left < NVUE_POLL_MS ? (left > 0 ? left : 0) : NVUE_POLL_MS);
	}
	qg_errf(err, errlen, "revision %s is still applying after %d s (--timeout), %s", n->rev,
		limit_s, last);
	return UNKNOWN;
}

/*
 * Apply the revision and follow it to its end (default --timeout 120 s,
 * from the apply request to the last poll's answer). Only an answer that
 * says the request was not carried out is a refusal: one that does not say
 * (a lost connection, a 5xx, 408 or 429, which nginx in front of NVUE gives
 * while NVUE goes on applying) leaves the outcome to the revision's state,
 * as any apply does (issue 36, finding 1).
 */
static enum applied apply_revision(struct nvue *n, char *err, size_t errlen)
{
	char path[900];
	cJSON *a;
	int limit_s = n->timeout_s > 0 ? n->timeout_s : 120;
	long deadline = now_ms() + 1000L * limit_s;
	snprintf(path, sizeof(path), NVUE_BASE "/revision/%s", n->rev_url);
	qg_https_limit(n->h, 1000L * limit_s);
	enum qg_https_outcome o =
	    call(n,
		 &(struct qg_https_req){
		     .method = "PATCH",
		     .path = path,
		     .body = "{\"state\": \"apply\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}"},
		 &a, err, errlen);
	cJSON_Delete(a);
	enum applied end = REFUSED;
	if (o != QG_HTTPS_NOT_SENT) {
		if (o == QG_HTTPS_LOST && !n->status)
			snprintf(n->unsure, sizeof(n->unsure),
				 "the connection dropped after the apply request");
		else if (o == QG_HTTPS_LOST)
			snprintf(n->unsure, sizeof(n->unsure),
				 "the apply request was answered HTTP %ld%s, which does not say "
				 "whether it ran",
				 n->status, n->status / 100 == 2 ? " without JSON" : "");
		end = follow_revision(n, path, deadline, limit_s, err, errlen);
	}
	qg_https_limit(n->h, 0);
	return end;
}

/* A new revision holding patch, applied. */
static enum applied send_patch(struct nvue *n, const cJSON *patch, char *err, size_t errlen)
{
	if (new_revision(n, err, errlen) != 0)
		return REFUSED;
	char *body = cJSON_PrintUnformatted(patch);
	if (!body) {
		qg_errf(err, errlen, "out of memory");
		return REFUSED;
	}
	char path[900];
	cJSON *a;
	snprintf(path, sizeof(path), NVUE_BASE "/?rev=%s", n->rev_url);
	enum qg_https_outcome o =
	    call(n, &(struct qg_https_req){.method = "PATCH", .path = path, .body = body}, &a, err,
		 errlen);
	cJSON_free(body);
	cJSON_Delete(a);
	/* A patch that never reached the applied revision changed nothing yet. */
	if (o != QG_HTTPS_ANSWERED)
		return REFUSED;
	return apply_revision(n, err, errlen);
}

static int op_open(void *dev, char *err, size_t errlen)
{
	struct nvue *n = dev;
	const struct qg_switch *sw = n->sw;
	const char *user = sw->user[0] ? sw->user : getenv("QOSGEN_NVUE_USER");
	if (!user || !*user)
		return qg_errf(err, errlen,
			       "no NVUE user: give the switch's user in the intent, or "
			       "QOSGEN_NVUE_USER");
	const char *password = getenv("QOSGEN_NVUE_PASSWORD");
	if (!password)
		password = n->a->ssh.password;
	if (!password)
		return qg_errf(err, errlen,
			       "no NVUE password: set QOSGEN_NVUE_PASSWORD, or --ask-password");
	/* An IPv6 literal goes in brackets in a URL. */
	bool v6 = strchr(sw->address, ':') != NULL;
	char base[400];
	/* The server only: every path carries the /nvue_v1 prefix itself. */
	snprintf(base, sizeof(base), "https://%s%s%s:%d", v6 ? "[" : "", sw->address, v6 ? "]" : "",
		 sw->port);
	n->timeout_s = n->a->tls.timeout_s;
	return qg_https_open(
	    &(struct qg_https_endpoint){
		.base = base, .tls = &n->a->tls, .user = user, .password = password},
	    &n->h, err, errlen);
}

static void op_close(void *dev)
{
	struct nvue *n = dev;
	qg_https_close(n->h);
	n->h = NULL;
}

/*
 * The running version (issue 34), before anything else: NVUE's system object
 * without a revision, its operational view, whose `build` says the release
 * ("build": "Cumulus Linux 5.4.0": the 5.6 API page, "Replace an Entire
 * Configuration", step 6). The engine compares it with the build's.
 */
static int op_os_version(void *dev, char *out, size_t cap, char *err, size_t errlen)
{
	cJSON *sys;
	enum qg_https_outcome o =
	    call(dev, &(struct qg_https_req){.method = "GET", .path = NVUE_BASE "/system"}, &sys,
		 err, errlen);
	if (o != QG_HTTPS_ANSWERED)
		return QG_STEP_LOST; /* not reached, refused (401) or not answered: as read_back()
				      */
	int rc = nvue_system_version(sys, out, cap, err, errlen);
	cJSON_Delete(sys);
	return rc == 0 ? QG_STEP_OK : QG_STEP_REFUSED;
}

/* A GET of NVUE's operational view: enum qg_step, the answer in *answer when OK. */
static int get_operational(struct nvue *n, const char *path, cJSON **answer, char *err,
			   size_t errlen)
{
	enum qg_https_outcome o =
	    call(n, &(struct qg_https_req){.method = "GET", .path = path}, answer, err, errlen);
	return o == QG_HTTPS_ANSWERED ? QG_STEP_OK
	       : o == QG_HTTPS_LOST   ? QG_STEP_LOST
				      : QG_STEP_REFUSED;
}

/*
 * NVUE's own verdict (issue 34) on a state read back in sync: its RoCE
 * status, switch-wide (`nv show qos roce`) and on each intent port (`nv show
 * interface <if> qos roce status`), must run what was applied
 * (nvue_verdict.c). A status NVUE does not answer is one it does not hold.
 */
static int op_verdict(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct nvue *n = dev;
	(void)r; /* no warnings: NVUE documents its buffer view (the HR column) as a table only
		    (docs/intent.md) */
	cJSON *roce;
	int rc = get_operational(n, NVUE_BASE "/qos/roce?rev=operational", &roce, err, errlen);
	if (rc == QG_STEP_OK) {
		if (nvue_verdict_roce(n->want, roce, err, errlen) != 0)
			rc = QG_STEP_REFUSED;
		cJSON_Delete(roce);
	}
	const cJSON *ifs = cJSON_GetObjectItemCaseSensitive(n->want, "interface");
	const cJSON *x;
	cJSON_ArrayForEach(x, ifs)
	{
		if (rc != QG_STEP_OK)
			break;
		/* An intent port's name (cumulus_ports.c): letters, digits; nothing to escape. */
		char path[QG_NAME_LEN + 64];
		cJSON *status;
		snprintf(path, sizeof(path), NVUE_BASE "/interface/%s/qos/roce/status", x->string);
		rc = get_operational(n, path, &status, err, errlen);
		if (rc == QG_STEP_OK && nvue_verdict_port(n->want, x->string, status, err, errlen))
			rc = QG_STEP_REFUSED;
		cJSON_Delete(status);
	}
	return rc;
}

static int op_read_back(void *dev, enum qg_push_slot slot, char *err, size_t errlen)
{
	struct nvue *n = dev;
	cJSON **have = slot == QG_READ_BEFORE ? &n->before : &n->now;
	cJSON_Delete(*have);
	*have = NULL;
	return read_back(n, have, err, errlen);
}

static const char *op_hostname(void *dev)
{
	return nvue_config_hostname(((struct nvue *)dev)->before);
}

static int op_plan(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct nvue *n = dev;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	int judged = nvue_config_judge(n->want, n->before, &d);
	if (judged > 0)
		snprintf(err, errlen, "%s", d.v[0].msg);
	qg_diags_free(&d);
	if (judged > 0)
		return 1;
	bool oom;
	n->patch = nvue_config_patch(n->want, n->before, &oom);
	if (oom)
		return -1;
	nvue_emit_commands(n->patch, &r->sent);
	r->lines_planned = qg_push_count_lines(r->sent.data, r->sent.len);
	/* A patch is sent even where it reads as no command: never taken for in sync. */
	if (n->patch && r->lines_planned == 0)
		r->lines_planned = 1;
	return 0;
}

static int op_apply(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	enum applied done = send_patch(dev, ((struct nvue *)dev)->patch, err, errlen);
	if (done == REFUSED)
		return QG_STEP_REFUSED;
	r->lines_sent = r->lines_planned;
	/* Still applying, perhaps: read back, but never rolled back under it (engine.h). */
	return done == APPLIED ? QG_STEP_OK : QG_STEP_TIMED_OUT;
}

static enum qg_push_where op_compare(void *dev)
{
	struct nvue *n = dev;
	bool oom;
	cJSON *left = nvue_config_patch(n->want, n->now, &oom);
	cJSON_Delete(left);
	if (!left && !oom)
		return QG_AT_INTENT;
	return nvue_config_same_at(n->patch, n->now, n->before) ? QG_AT_BEFORE : QG_AT_NEITHER;
}

/* The inverse of what was sent (each path back to its earlier value, or deleted), applied. */
static int op_roll_back(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	struct nvue *n = dev;
	bool oom;
	cJSON *undo = nvue_config_inverse(n->patch, n->before, &oom);
	enum applied done = REFUSED;
	if (undo)
		done = send_patch(n, undo, err, errlen);
	else
		qg_errf(err, errlen, "out of memory computing the inverse patch");
	cJSON_Delete(undo);
	if (done == APPLIED)
		r->lines_rolled_back = r->lines_sent;
	return done == APPLIED ? QG_STEP_OK : done == REFUSED ? QG_STEP_REFUSED : QG_STEP_TIMED_OUT;
}

/* The applied revision saved as the startup configuration, so a reboot keeps it. */
static int op_save(void *dev, struct qg_push_result *r, char *err, size_t errlen)
{
	(void)r;
	cJSON *saved;
	enum qg_https_outcome o =
	    call(dev,
		 &(struct qg_https_req){
		     .method = "PATCH",
		     .path = NVUE_BASE "/revision/applied",
		     .body = "{\"state\": \"save\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}"},
		 &saved, err, errlen);
	cJSON_Delete(saved);
	return o == QG_HTTPS_ANSWERED ? QG_STEP_OK
	       : o == QG_HTTPS_LOST   ? QG_STEP_LOST
				      : QG_STEP_REFUSED;
}

static void op_look(void *dev, const struct qg_push_result *r, char *out, size_t cap)
{
	struct nvue *n = dev;
	(void)r;
	if (n->rev[0])
		snprintf(out, cap, "look with 'nv config history' and 'nv show revision %s'",
			 n->rev);
	else
		snprintf(out, cap, "look with 'nv config history'");
}

static void op_say(void *dev, struct qg_push_result *r)
{
	struct nvue *n = dev;
	if (r->state == QG_PUSH_IN_SYNC)
		qg_push_say(r, "in sync: nothing to send");
	else if (r->state == QG_PUSH_WOULD_CHANGE)
		qg_push_say(r, "%d settings would change (dry run: nothing sent)",
			    r->lines_planned);
	else
		qg_push_say(
		    r, "%d settings sent in revision %s, applied, read back in sync, saved%s%s%s",
		    r->lines_sent, n->rev, n->unsure[0] ? " (" : "", n->unsure,
		    n->unsure[0] ? "; the revision's state and the read-back decided)" : "");
}

static const struct qg_push_ops cumulus_push_ops = {
    .unit = "setting",
    .applier = "the revision",
    .open = op_open,
    .close = op_close,
    .os_version = op_os_version,
    .read_back = op_read_back,
    .hostname = op_hostname,
    .plan = op_plan,
    .apply = op_apply,
    .compare = op_compare,
    .verdict = op_verdict,
    .roll_back = op_roll_back,
    .save = op_save,
    .look = op_look,
    .say = op_say,
};

static int cumulus_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx; /* the switch gets the patch from the diff, not a generated file */
	struct nvue n = {.sw = &m->switches[i], .a = a};
	int rc = -1;
	r->state = QG_PUSH_UNCHANGED;
	n.want = nvue_config_from_model(m, i);
	if (!n.want)
		qg_push_say(r, "out of memory");
	else
		rc = qg_push_run(&cumulus_push_ops, &n, a, n.sw, dry_run, r);
	cJSON_Delete(n.patch);
	cJSON_Delete(n.now);
	cJSON_Delete(n.before);
	cJSON_Delete(n.want);
	qg_https_close(n.h);
	return rc;
}

const struct qg_driver qg_driver_cumulus = {.target = &qg_target_cumulus, .push = cumulus_push};
