/* SPDX-License-Identifier: MIT */
#include "cmd_build.h"
#include "cli.h"
#include "../push/json.h"

#include "../model/diag.h"
#include "../emit/explain.h"
#include "../intent/intent.h"
#include "../model/names.h"
#include "../emit/outdir.h"
#include "../model/template.h"
#include "../model/target.h"
#include "../targets/registry.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>

/*
 * Whether dir holds an output tree for --check to compare: its plan.json is
 * there (not followed if a link: qg_outdir_check() judges what it is). A
 * dir that is missing, not a directory or without one holds none; one that
 * cannot be looked into is left to qg_outdir_check() to report.
 */
static bool has_output_tree(const char *dir)
{
	char *plan = NULL;
	struct stat st;
	if (asprintf(&plan, "%s/plan.json", dir) < 0)
		return true;
	int rc = lstat(plan, &st);
	int err = errno;
	free(plan);
	return rc == 0 || (err != ENOENT && err != ENOTDIR);
}

static const struct option build_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"check", no_argument, NULL, 'c'},
    {"templates", required_argument, NULL, 't'},
    {"strict", no_argument, NULL, 's'},
    {NULL, 0, NULL, 0},
};

int cmd_build(int argc, char **argv)
{
	const char *out_dir = "out", *templates = NULL;
	bool check = false, strict = false;
	int c;
	while ((c = getopt_long(argc, argv, ":o:", build_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out_dir = optarg;
			break;
		case 'c':
			check = true;
			break;
		case 't':
			templates = optarg;
			break;
		case 's':
			strict = true;
			break;
		default:
			return cli_bad_option("build", c, argv);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("build", "expected one INTENT file");
	const char *intent = argv[optind];

	struct qg_model m;
	struct qg_checked ok;
	int rc = cli_load(intent, strict, &m, NULL, &ok);
	if (rc != EXIT_OK)
		return rc;

	struct qg_diags d;
	qg_diags_init(&d, intent);
	struct qg_templates t;
	struct qg_outset out = {0};
	rc = EXIT_INVALID;
	if (qg_templates_load(&t, templates, &d) == 0) {
		int b = qg_build(&ok, &t, &d, &out);
		if (b == 0)
			rc = EXIT_OK;
		else if (b != -1)
			rc = EXIT_SYSTEM;
		qg_templates_free(&t);
	}
	qg_diags_print(&d, stderr, strict);
	qg_diags_free(&d);
	if (rc == EXIT_OK) {
		char err[512];
		if (check && !has_output_tree(out_dir)) {
			/*
			 * A mistyped DIR (or a tree never built) is not a difference:
			 * a diff of every file as added buried the one line that
			 * mattered (issue 25, item 8).
			 */
			fprintf(stderr,
				"qosgen build: %s: no output tree here (no plan.json); build it "
				"first with qosgen build %s -o %s\n",
				out_dir, intent, out_dir);
			rc = EXIT_INVALID;
		} else if (check) {
			int diff = qg_outdir_check(out_dir, &out, stdout, err, sizeof(err));
			if (diff < 0) {
				fprintf(stderr, "qosgen build: %s\n", err);
				rc = EXIT_SYSTEM;
			} else if (diff > 0) {
				fprintf(stderr,
					"qosgen build: '%s' differs from what '%s' gives; run "
					"'qosgen build %s -o %s' and commit the result\n",
					out_dir, intent, intent, out_dir);
				rc = EXIT_INVALID;
			}
		} else {
			/* From here a signal must not strand the temporary tree (emit/outdir.h). */
			qg_outdir_catch_signals();
			if (qg_outdir_write(out_dir, &out, err, sizeof(err)) != 0) {
				fprintf(stderr, "qosgen build: %s\n", err);
				rc = EXIT_SYSTEM;
				/* Stopped by a signal, its tree removed: die of it, as a shell
				 * expects. */
				int sig = qg_outdir_stopped();
				if (sig) {
					signal(sig, SIG_DFL);
					raise(sig);
				}
			} else {
				printf("qosgen: wrote %zu files to %s for fabric %s\n", out.n,
				       out_dir, m.fabric);
			}
		}
	}
	qg_outset_free(&out);
	qg_model_free(&m);
	return rc;
}

static const struct option check_opts[] = {
    {"strict", no_argument, NULL, 's'},
    {NULL, 0, NULL, 0},
};

int cmd_check(int argc, char **argv)
{
	bool strict = false;
	int c;
	while ((c = getopt_long(argc, argv, ":", check_opts, NULL)) != -1) {
		if (c != 's')
			return cli_bad_option("check", c, argv);
		strict = true;
	}
	if (optind != argc - 1)
		return cli_usage_error("check", "expected one INTENT file");
	struct qg_model m;
	int rc = cli_load(argv[optind], strict, &m, NULL, NULL);
	if (rc == EXIT_OK) {
		/* Say so: silence on success left newcomers unsure the check ran. */
		printf("%s: ok: %zu switch%s, %zu host%s, %zu dvs\n", argv[optind], m.n_switches,
		       m.n_switches == 1 ? "" : "es", m.n_hosts, m.n_hosts == 1 ? "" : "s",
		       m.n_dvs);
		qg_model_free(&m);
	}
	return rc;
}

static const struct option explain_opts[] = {
    {"json", no_argument, NULL, 'j'},
    {"host", required_argument, NULL, 'h'},
    {"switch", required_argument, NULL, 's'},
    {NULL, 0, NULL, 0},
};

/* Is name a device of this kind? If not, a usage error naming the nearest one (did you mean). */
static bool explain_device_known(const struct qg_model *m, enum qg_device_kind kind,
				 const char *name)
{
	const char *near = NULL;
	size_t best = 3;
	for (size_t i = 0; i < qg_device_count(m, kind); i++) {
		const char *n = qg_device_name(m, kind, i);
		size_t d = qg_edit_distance(name, n);
		if (d == 0)
			return true;
		if (d < best) {
			best = d;
			near = n;
		}
	}
	char what[300];
	enum qg_device_kind other = kind == QG_DEVICE_HOST ? QG_DEVICE_SWITCH : QG_DEVICE_HOST;
	for (size_t i = 0; !near && i < qg_device_count(m, other); i++)
		if (!strcmp(name, qg_device_name(m, other, i))) {
			snprintf(what, sizeof(what), "'%s' is a %s, not a %s: use --%s", name,
				 other == QG_DEVICE_HOST ? "host" : "switch",
				 kind == QG_DEVICE_HOST ? "host" : "switch",
				 other == QG_DEVICE_HOST ? "host" : "switch");
			cli_usage_error("explain", what);
			return false;
		}
	snprintf(what, sizeof(what), "no %s named '%s' in the intent%s%s%s",
		 kind == QG_DEVICE_HOST ? "host" : "switch", name, near ? " (did you mean '" : "",
		 near ? near : "", near ? "'?)" : "");
	cli_usage_error("explain", what);
	return false;
}

int cmd_explain(int argc, char **argv)
{
	bool json = false;
	const char *host = NULL, *sw = NULL;
	int c;
	while ((c = getopt_long(argc, argv, ":", explain_opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'h')
			host = optarg;
		else if (c == 's')
			sw = optarg;
		else
			return cli_bad_option("explain", c, argv);
	}
	if (optind != argc - 1)
		return cli_usage_error("explain", "expected one INTENT file");
	if (host && sw)
		return cli_usage_error("explain", "give --host or --switch, not both");
	struct qg_model m;
	cJSON *env = json ? cli_json_envelope("explain", argv[optind]) : NULL;
	int rc = cli_load(argv[optind], false, &m, env, NULL);
	if (rc != EXIT_OK)
		return json ? cli_json_finish(env, rc) : rc;
	const char *one = host ? host : sw;
	if (one && !explain_device_known(&m, host ? QG_DEVICE_HOST : QG_DEVICE_SWITCH, one)) {
		/* As diff's unknown --host: the envelope with exit 2 and no rows (docs/json.md). */
		qg_model_free(&m);
		return json ? cli_json_finish(env, EXIT_USAGE) : EXIT_USAGE;
	}
	cJSON *e = qg_explain_json(&m);
	if (one) {
		const char *target = NULL;
		for (size_t i = 0; sw && i < m.n_switches; i++)
			if (!strcmp(m.switches[i].name, sw))
				target = m.switches[i].target->name;
		qg_explain_only(e, one, target);
	}
	if (json) {
		/* The rows move into the envelope, which already names fabric and hash. */
		cJSON *rows = cJSON_DetachItemFromObjectCaseSensitive(e, "rows");
		cJSON *groups = cJSON_DetachItemFromObjectCaseSensitive(e, "groups");
		cJSON *sum = cJSON_CreateObject();
		cJSON_AddNumberToObject(sum, "rows", cJSON_GetArraySize(rows));
		if (groups)
			cJSON_AddNumberToObject(sum, "groups", cJSON_GetArraySize(groups));
		cJSON_AddItemToObject(env, "rows", rows);
		if (groups)
			cJSON_AddItemToObject(env, "groups", groups);
		cJSON_AddItemToObject(env, "summary", sum);
		cJSON_Delete(e);
		qg_model_free(&m);
		return cli_json_finish(env, rc);
	}
	struct qg_buf text = {0};
	qg_explain_text(e, &text);
	if (text.failed) {
		fprintf(stderr, "qosgen explain: out of memory\n");
		rc = EXIT_SYSTEM;
	} else {
		fputs(text.data, stdout);
	}
	qg_buf_free(&text);
	cJSON_Delete(e);
	qg_model_free(&m);
	return rc;
}
