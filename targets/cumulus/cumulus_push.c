/* SPDX-License-Identifier: MIT */
/*
 * The Cumulus driver: the NVUE REST API over HTTPS (Cumulus Linux 5.x,
 * NVUE API): read the applied revision, compute the merge patch of what
 * qosgen owns (nvue_config.c), create a revision, PATCH it, apply it
 * (answering the apply prompt), poll until applied, read back and compare,
 * and save. NVUE applies a revision whole or not at all: a refused one
 * leaves the applied revision as it was, which is UNCHANGED. A connection
 * lost once the apply was asked for leaves the outcome unknown until a read
 * back decides. Credentials: the intent's user (or QOSGEN_NVUE_USER), the
 * password from QOSGEN_NVUE_PASSWORD or --ask-password; never argv.
 */
#include "../../gen/errmsg.h"
#include "../../gen/escape.h"
#include "../../gen/names.h"
#include "../../transport/https.h"
#include "../driver.h"
#include "cumulus.h"
#include "cumulus_push.h"
#include "nvue_config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NVUE_BASE "/nvue_v1"
#define NVUE_POLL_MS 200

struct nvue {
	struct qg_https *h;
	int timeout_s;
	char rev[CUMULUS_REVISION_ID_MAX +
		 1];	   /* the revision this push made, as the switch named it */
	char rev_url[768]; /* the same, escaped for a URL path and query */
	bool dropped;	   /* the connection dropped after an apply was asked for */
};

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

/* A request whose answer must be JSON with a 2xx status. */
static enum qg_https_outcome call(struct nvue *n, const char *method, const char *path,
				  const char *body, cJSON **answer, char *err, size_t errlen)
{
	struct qg_buf b = {0};
	long status = 0;
	*answer = NULL;
	enum qg_https_outcome o =
	    qg_https_request(n->h, method, path, body, &status, &b, err, errlen);
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
			o = status == 401 || status >= 400 ? QG_HTTPS_NOT_SENT : QG_HTTPS_LOST;
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
		if (call(n, "GET", path, NULL, &part, err, errlen) != QG_HTTPS_ANSWERED) {
			cJSON_Delete(all);
			return -1;
		}
		cJSON_AddItemToObject(all, parts[k], part);
	}
	char *text = all ? cJSON_PrintUnformatted(all) : NULL;
	cJSON_Delete(all);
	if (!text)
		return qg_errf(err, errlen, "out of memory");
	struct qg_diags d;
	qg_diags_init(&d, "the switch's applied revision");
	int rc = nvue_config_parse(text, strlen(text), have, &d);
	cJSON_free(text);
	if (rc != 0)
		qg_errf(err, errlen, "cannot read the applied revision: %s",
			d.n ? d.v[0].msg : "out of memory");
	qg_diags_free(&d);
	return rc == 0 ? 0 : -1;
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
	if (call(n, "POST", NVUE_BASE "/revision", NULL, &a, err, errlen) != QG_HTTPS_ANSWERED)
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

/* UNKNOWN: the connection dropped; STILL_APPLYING: the switch kept applying past --timeout. */
enum applied { APPLIED, REFUSED, UNKNOWN, STILL_APPLYING };

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Apply the revision and wait for its end; the switch's words in err when it
 * is not applied. The wait, from the apply request to the last poll's
 * answer, ends by --timeout (default 120 s): each request gets only the
 * time left, so a switch that answers slowly cannot stretch it by a whole
 * --timeout per poll (issue 24, finding 3: 2.5 s polls under --timeout 3
 * waited 43.5 s, when only the sleeps between polls were counted).
 */
static enum applied apply_revision(struct nvue *n, char *err, size_t errlen)
{
	char path[900];
	cJSON *a;
	int limit_s = n->timeout_s > 0 ? n->timeout_s : 120;
	long deadline = now_ms() + 1000L * limit_s;
	snprintf(path, sizeof(path), NVUE_BASE "/revision/%s", n->rev_url);
	qg_https_limit(n->h, 1000L * limit_s);
	enum qg_https_outcome o = call(
	    n, "PATCH", path, "{\"state\": \"apply\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}", &a,
	    err, errlen);
	cJSON_Delete(a);
	if (o == QG_HTTPS_NOT_SENT) {
		qg_https_limit(n->h, 0);
		return REFUSED;
	}
	/* Lost: the switch may be applying it; the revision's own state says (a new connection). */
	n->dropped |= o == QG_HTTPS_LOST;
	enum applied end = UNKNOWN;
	for (;;) {
		long left = deadline - now_ms();
		if (left <= 0) {
			end = STILL_APPLYING;
			break;
		}
		qg_https_limit(n->h, left);
		if (call(n, "GET", path, NULL, &a, err, errlen) != QG_HTTPS_ANSWERED) {
			/* Cut by the deadline: the switch may well be applying still. */
			end = now_ms() >= deadline ? STILL_APPLYING : UNKNOWN;
			break;
		}
		const cJSON *rev = revision_body(a);
		const char *state =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rev, "state"));
		char said[600];
		issues_of(rev, said, sizeof(said));
		bool done = true;
		if (state && !strcmp(state, "applied"))
			end = APPLIED;
		else if (state && (!strcmp(state, "apply") || !strcmp(state, "applying") ||
				   !strcmp(state, "pending") || !strcmp(state, "ready")))
			done = false;
		else
			end = REFUSED;
		if (end == REFUSED)
			qg_errf(err, errlen, "the switch did not apply revision %s (%s)%s%s",
				n->rev, state ? state : "no state", said[0] ? ": " : "", said);
		cJSON_Delete(a);
		if (done)
			break;
		left = deadline - now_ms();
		sleep_ms(left < NVUE_POLL_MS ? (left > 0 ? left : 0) : NVUE_POLL_MS);
	}
	qg_https_limit(n->h, 0);
	if (end == STILL_APPLYING)
		qg_errf(err, errlen, "revision %s is still applying after %d s (--timeout)", n->rev,
			limit_s);
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
	enum qg_https_outcome o = call(n, "PATCH", path, body, &a, err, errlen);
	cJSON_free(body);
	cJSON_Delete(a);
	/* A patch that never reached the applied revision changed nothing yet. */
	if (o != QG_HTTPS_ANSWERED)
		return REFUSED;
	return apply_revision(n, err, errlen);
}

static int count_lines(const struct qg_buf *b)
{
	int n = 0;
	for (size_t i = 0; i < b->len; i++)
		n += b->data[i] == '\n';
	return n;
}

/*
 * After a lost connection or an apply that did not end: where is the switch?
 * A revision still applying may yet change it: then only "applied" is final.
 */
static void settle(struct nvue *n, const cJSON *want, const cJSON *before, const cJSON *sent,
		   bool still_applying, const char *cause, struct qg_push_result *r)
{
	char err[1024];
	cJSON *after = NULL;
	if (read_back(n, &after, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; outcome unknown: cannot read back (%s); look with "
			    "'nv config history'",
			    cause, err);
		return;
	}
	bool oom;
	cJSON *left = nvue_config_patch(want, after, &oom);
	if (!left && !oom) {
		r->state = QG_PUSH_CONVERGED;
		qg_push_say(r, "%s; the read-back shows revision %s applied: in sync", cause,
			    n->rev);
	} else if (still_applying) {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(
		    r,
		    "%s; outcome unknown: it may still apply; look with 'nv config history' "
		    "and 'nv show revision %s'",
		    cause, n->rev);
	} else if (nvue_config_same_at(sent, after, before)) {
		r->state = QG_PUSH_UNCHANGED;
		qg_push_say(r, "%s; the read-back shows nothing applied: unchanged", cause);
	} else {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r,
			    "%s; the read-back matches neither the intent nor the earlier "
			    "configuration: look at it ('nv config diff', 'nv config history')",
			    cause);
	}
	cJSON_Delete(left);
	cJSON_Delete(after);
}

/* Applied, but the read-back disagrees: undo what was sent, and prove it. */
static void roll_back(struct nvue *n, const cJSON *before, const cJSON *sent, const char *cause,
		      struct qg_push_result *r)
{
	char err[1024];
	bool oom;
	cJSON *undo = nvue_config_inverse(sent, before, &oom), *after = NULL;
	enum applied a = undo ? send_patch(n, undo, err, sizeof(err)) : REFUSED;
	if (a == APPLIED && read_back(n, &after, err, sizeof(err)) == 0 &&
	    nvue_config_same_at(sent, after, before)) {
		r->state = QG_PUSH_RESTORED;
		r->lines_rolled_back = r->lines_sent;
		qg_push_say(r,
			    "%s; rolled back with revision %s: restored to the earlier "
			    "configuration",
			    cause, n->rev);
	} else {
		r->state = QG_PUSH_NOT_RESTORED;
		qg_push_say(r, "%s; the rollback %s: look at it ('nv config history')", cause,
			    a == APPLIED ? "could not be verified" : err);
	}
	cJSON_Delete(after);
	cJSON_Delete(undo);
}

static int open_switch(const struct qg_switch *sw, const struct qg_access *a, struct nvue *n,
		       char *err, size_t errlen)
{
	const char *user = sw->user[0] ? sw->user : getenv("QOSGEN_NVUE_USER");
	if (!user || !*user)
		return qg_errf(err, errlen,
			       "no NVUE user: give the switch's user in the intent, or "
			       "QOSGEN_NVUE_USER");
	const char *password = getenv("QOSGEN_NVUE_PASSWORD");
	if (!password)
		password = a->ssh.password;
	if (!password)
		return qg_errf(err, errlen,
			       "no NVUE password: set QOSGEN_NVUE_PASSWORD, or --ask-password");
	/* An IPv6 literal goes in brackets in a URL. */
	bool v6 = strchr(sw->address, ':') != NULL;
	char base[400];
	/* The server only: every path carries the /nvue_v1 prefix itself. */
	snprintf(base, sizeof(base), "https://%s%s%s:%d", v6 ? "[" : "", sw->address, v6 ? "]" : "",
		 sw->port);
	n->timeout_s = a->tls.timeout_s;
	return qg_https_open(base, &a->tls, user, password, &n->h, err, errlen);
}

static int cumulus_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			const struct qg_access *a, bool dry_run, struct qg_push_result *r)
{
	(void)ctx; /* the switch gets the patch from the diff, not a generated file */
	const struct qg_switch *sw = &m->switches[i];
	struct nvue n = {0};
	char err[1024];
	cJSON *want = nvue_config_from_model(m, i), *before = NULL, *patch = NULL, *after = NULL;
	r->state = QG_PUSH_UNCHANGED;
	if (!want) {
		qg_push_say(r, "out of memory");
		return -1;
	}
	if (open_switch(sw, a, &n, err, sizeof(err)) != 0 ||
	    read_back(&n, &before, err, sizeof(err)) != 0) {
		r->state = QG_PUSH_UNREACHABLE;
		qg_push_say(r, "%s", err);
		goto out;
	}
	if (!qg_push_hostname_ok(a, sw, nvue_config_hostname(before), r))
		goto out;
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	int judged = nvue_config_judge(want, before, &d);
	if (judged > 0)
		qg_push_say(r, "cannot converge exactly: %s", d.v[0].msg);
	qg_diags_free(&d);
	if (judged > 0)
		goto out;
	bool oom;
	patch = nvue_config_patch(want, before, &oom);
	if (oom) {
		qg_push_say(r, "out of memory");
		goto out;
	}
	nvue_emit_commands(patch, &r->sent);
	r->lines_planned = count_lines(&r->sent);
	if (!patch) {
		r->state = QG_PUSH_IN_SYNC;
		qg_push_say(r, "in sync: nothing to send");
		goto out;
	}
	if (dry_run) {
		r->state = QG_PUSH_WOULD_CHANGE;
		qg_push_say(r, "%d settings would change (dry run: nothing sent)",
			    r->lines_planned);
		goto out;
	}
	enum applied done = send_patch(&n, patch, err, sizeof(err));
	if (done == REFUSED) {
		qg_push_say(r, "%s; the applied revision is as it was: unchanged", err);
		goto out;
	}
	r->lines_sent = r->lines_planned;
	if (done == UNKNOWN || done == STILL_APPLYING) {
		settle(&n, want, before, patch, true, err, r);
		goto out;
	}
	if (read_back(&n, &after, err, sizeof(err)) != 0) {
		settle(&n, want, before, patch, false, err, r);
		goto out;
	}
	cJSON *left = nvue_config_patch(want, after, &oom);
	bool converged = !left && !oom;
	cJSON_Delete(left);
	if (!converged) {
		roll_back(&n, before, patch, "applied, but the read-back differs from the intent",
			  r);
		goto out;
	}
	cJSON *saved;
	if (call(&n, "PATCH", NVUE_BASE "/revision/applied",
		 "{\"state\": \"save\", \"auto-prompt\": {\"ays\": \"ays_yes\"}}", &saved, err,
		 sizeof(err)) != QG_HTTPS_ANSWERED) {
		r->state = QG_PUSH_FAILED;
		qg_push_say(r,
			    "revision %s applied and in sync, but not saved as the startup "
			    "configuration (%s): a reboot would lose it; run 'nv config save'",
			    n.rev, err);
		goto out;
	}
	cJSON_Delete(saved);
	r->state = QG_PUSH_CONVERGED;
	qg_push_say(r, "%d settings sent in revision %s, applied, read back in sync, saved%s",
		    r->lines_sent, n.rev,
		    n.dropped ? " (the connection dropped after the apply request; the revision's "
				"state and the read-back decided)"
			      : "");
out:
	cJSON_Delete(after);
	cJSON_Delete(patch);
	cJSON_Delete(before);
	cJSON_Delete(want);
	qg_https_close(n.h);
	return r->state == QG_PUSH_IN_SYNC || r->state == QG_PUSH_CONVERGED ||
		       r->state == QG_PUSH_WOULD_CHANGE
		   ? 0
		   : -1;
}

const struct qg_driver qg_driver_cumulus = {.target = &qg_target_cumulus, .push = cumulus_push};
