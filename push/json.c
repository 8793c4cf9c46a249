/* SPDX-License-Identifier: MIT */
#include "json.h"

#include "../lib/hash.h"
#include "../emit/modeljson.h"
#include "../lib/version.h"

#include <stdlib.h>
#include <string.h>

cJSON *cli_json_envelope(const char *command, const char *intent)
{
	cJSON *env = cJSON_CreateObject();
	if (!env)
		return NULL;
	/* Every key from the start, so that the order is the same whatever happens. */
	cJSON_AddStringToObject(env, "command", command);
	cJSON_AddStringToObject(env, "generator", QG_GENERATOR);
	cJSON_AddStringToObject(env, "intent", intent);
	cJSON_AddNullToObject(env, "fabric");
	cJSON_AddNullToObject(env, "intent_sha256");
	cJSON_AddFalseToObject(env, "ok");
	cJSON_AddNumberToObject(env, "exit", 0);
	cJSON_AddArrayToObject(env, "diagnostics");
	return env;
}

/* One diagnostic as the JSON shows it: where, severity, warning, message and a suffix. */
struct json_diag {
	const char *file;
	struct qg_pos pos;
	const char *severity;
	const char *warning; /* the warning's name; NULL: not a warning */
	const char *msg, *suffix;
};

static void add_diag(cJSON *a, const struct json_diag *g)
{
	const char *file = g->file, *severity = g->severity, *msg = g->msg, *suffix = g->suffix;
	struct qg_pos pos = g->pos;
	const char *warning = g->warning;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return;
	cJSON_AddStringToObject(o, "file", file);
	/* Line 0 is "not from the file" (model/diag.h): no position at all. */
	if (pos.line > 0) {
		cJSON_AddNumberToObject(o, "line", pos.line);
		cJSON_AddNumberToObject(o, "col", pos.col);
	} else {
		cJSON_AddNullToObject(o, "line");
		cJSON_AddNullToObject(o, "col");
	}
	cJSON_AddStringToObject(o, "severity", severity);
	/* A warning's name (issue 25), what the text prints in brackets; null for the rest. */
	if (warning && warning[0])
		cJSON_AddStringToObject(o, "warning", warning);
	else
		cJSON_AddNullToObject(o, "warning");
	size_t n = strlen(msg) + strlen(suffix) + 1;
	char *text = malloc(n);
	if (text)
		snprintf(text, n, "%s%s", msg, suffix);
	cJSON_AddStringToObject(o, "message", text ? text : msg);
	free(text);
	cJSON_AddItemToArray(a, o);
}

void cli_json_diags(cJSON *env, struct qg_diags *d, bool strict)
{
	cJSON *a = cJSON_GetObjectItemCaseSensitive(env, "diagnostics");
	if (!a)
		return;
	qg_diags_sort(d);
	for (size_t i = 0; i < d->n; i++) {
		const struct qg_diag *g = &d->v[i];
		if (g->acknowledged)
			continue; /* as the text: explain lists what the intent acknowledges */
		const char *file = g->file ? g->file : d->file;
		/* As the text says it: a warning --strict stops on is an error, tagged. */
		bool as_error = g->sev == QG_SEV_ERROR || strict;
		add_diag(a, &(struct json_diag){
				.file = file,
				.pos = g->pos,
				.severity = as_error ? "error" : "warning",
				.warning = g->warning_name,
				.msg = g->msg,
				.suffix = g->sev != QG_SEV_ERROR && strict ? " [--strict]" : ""});
		for (size_t j = 0; j < g->n_notes; j++)
			add_diag(a, &(struct json_diag){.file = file,
							.pos = g->notes[j].pos,
							.severity = "note",
							.warning = NULL,
							.msg = g->notes[j].msg,
							.suffix = ""});
	}
	if (d->oom)
		add_diag(a, &(struct json_diag){.file = d->file,
						.severity = "error",
						.warning = NULL,
						.msg = "out of memory while collecting diagnostics",
						.suffix = ""});
}

void cli_json_model(cJSON *env, const struct qg_model *m)
{
	char hash[QG_SHA256_HEX];
	cJSON_ReplaceItemInObjectCaseSensitive(env, "fabric", cJSON_CreateString(m->fabric));
	if (qg_model_hash(m, hash) == 0)
		cJSON_ReplaceItemInObjectCaseSensitive(env, "intent_sha256",
						       cJSON_CreateString(hash));
}

void cli_json_status(cJSON *o, const char *status, bool ok, const char *message)
{
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddBoolToObject(o, "ok", ok);
	cJSON_AddStringToObject(o, "message", message ? message : "");
}

cJSON *cli_json_lines(cJSON *o, const char *name, const char *s, size_t len)
{
	cJSON *lines = cJSON_AddArrayToObject(o, name);
	for (size_t i = 0; lines && s && i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
		char *l = strndup(s + i, n);
		if (l)
			cJSON_AddItemToArray(lines, cJSON_CreateString(l));
		free(l);
		i += n + 1;
	}
	return lines;
}

void cli_json_failed_settings(cJSON *o, const char *s, size_t len)
{
	cJSON *a = cJSON_AddArrayToObject(o, "failed_settings");
	for (size_t i = 0; a && s && i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
		/* "KEY: REASON": the key ends at the first colon (a report key holds none). */
		const char *sep = memchr(s + i, ':', n);
		size_t k = sep ? (size_t)(sep - (s + i)) : n;
		size_t r = k + 2 <= n ? k + 2 : n;
		char *key = strndup(s + i, k);
		char *reason = strndup(s + i + r, n - r);
		cJSON *e = key && reason ? cJSON_CreateObject() : NULL;
		if (e) {
			cJSON_AddStringToObject(e, "key", key);
			cJSON_AddStringToObject(e, "reason", reason);
			cJSON_AddItemToArray(a, e);
		}
		free(key);
		free(reason);
		i += n + 1;
	}
}

/*
 * cJSON writes C0 controls in strings as \u00NN but DEL and the C1 controls
 * (U+0080..U+009F, which some terminals obey like ESC) as they are. Outside
 * strings JSON is ASCII, so every such byte is in a string, and \u007f,
 * \u009b there is the same text for a JSON reader and nothing for a terminal.
 */
void cli_json_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; p[i]; i++) {
		if (p[i] == 0x7f)
			fputs("\\u007f", f);
		else if (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
			fprintf(f, "\\u%04x", p[++i]);
		else
			fputc(p[i], f);
	}
	fputc('\n', f);
}

int cli_json_finish(cJSON *env, int exit_code)
{
	if (!env) {
		fprintf(stderr, "qosgen: out of memory for the JSON output\n");
		return 3;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(env, "ok", cJSON_CreateBool(exit_code == 0));
	cJSON_ReplaceItemInObjectCaseSensitive(env, "exit", cJSON_CreateNumber(exit_code));
	char *s = cJSON_Print(env);
	if (s)
		cli_json_put(stdout, s);
	else
		fprintf(stderr, "qosgen: out of memory for the JSON output\n");
	free(s);
	cJSON_Delete(env);
	fflush(stdout);
	return s ? exit_code : 3;
}
