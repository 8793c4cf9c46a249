/* SPDX-License-Identifier: MIT */
#include "cmd_push.h"
#include "cli.h"
#include "../push/json.h"

#include "../model/diag.h"
#include "../intent/intent.h"
#include "../model/target.h"
#include "../lib/readfile.h"
#include "../targets/registry.h"
#include "../transport/readback.h" /* QG_READBACK_MAX: the same for a file as over the network */
#include "../push/push.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After option parsing: exactly one way of naming the devices. */
static bool one_device_choice(const struct push_opts *po, bool all)
{
	return (po->switch_name != NULL) + (po->host_name != NULL) + (po->dvs_name != NULL) + all ==
	       1;
}

/* An option diff and push share (the device choice, SSH, TLS): EXIT_OK or the usage exit. */
static int device_option(const char *cmd, int c, struct push_opts *po, bool *all, char **argv)
{
	switch (cli_ssh_option(cmd, c, po, all)) {
	case 1:
		return EXIT_OK;
	case 0:
		return cli_bad_option(cmd, c, argv);
	default:
		return EXIT_USAGE;
	}
}

/* After the options: one intent file and one way of naming the devices; EXIT_OK or usage. */
static int device_args(const char *cmd, int argc, const struct push_opts *po, bool all)
{
	if (optind != argc - 1)
		return cli_usage_error(cmd, "expected one INTENT file");
	if (!one_device_choice(po, all))
		return cli_usage_error(
		    cmd, "name the devices: --switch NAME, --host NAME, --dvs NAME, or --all");
	return EXIT_OK;
}

static const struct option diff_opts[] = {
    SSH_OPTIONS,
    {"running-config", required_argument, NULL, 'r'},
    {"exit-code", no_argument, NULL, 'x'},
    {"json", no_argument, NULL, 'J'},
    {"ask-password", no_argument, NULL, 'P'},
    {NULL, 0, NULL, 0},
};

/* A diff's one device in --json, as push's devices are (docs/json.md). */
static void diff_json_device(cJSON *env, const char *sw, const char *target, int drc,
			     const char *message, const struct qg_buf *out)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "device", sw);
	cJSON_AddStringToObject(o, "kind", "switch");
	cJSON_AddStringToObject(o, "target", target);
	cli_json_status(o,
			drc	   ? "FAILED"
			: out->len ? "would change"
				   : "in sync",
			drc == 0, message);
	cJSON *lines = cli_json_lines(o, "lines", out->data, out->len);
	cli_json_failed_settings(o, NULL, 0);
	cJSON_AddNumberToObject(o, "lines_planned", cJSON_GetArraySize(lines));
	cJSON *a = cJSON_AddArrayToObject(env, "devices");
	cJSON_AddItemToArray(a, o);
	cJSON *sum = cJSON_AddObjectToObject(env, "summary");
	cJSON_AddNumberToObject(sum, "devices", 1);
	cJSON_AddNumberToObject(sum, "failed", drc != 0);
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(sum, "statuses"),
				drc	   ? "FAILED"
				: out->len ? "would change"
					   : "in sync",
				1);
}

/* diff --running-config FILE: switch sw's saved read-back against the intent. */
static int diff_saved(const char *intent, const char *sw, const char *file, bool exit_code,
		      cJSON *env)
{
	struct qg_model m;
	int rc = cli_load(intent, false, &m, env, NULL);
	if (rc != EXIT_OK)
		return rc;
	size_t i = 0;
	while (i < m.n_switches && strcmp(m.switches[i].name, sw))
		i++;
	if (i == m.n_switches) {
		fprintf(stderr, "qosgen diff: no switch named '%s' in %s\n", sw, intent);
		qg_model_free(&m);
		return EXIT_USAGE;
	}
	const struct qg_target *t = qg_target_for(&m, QG_DEVICE_SWITCH, i);
	if (!t || !t->diff) {
		fprintf(stderr, "qosgen diff: switch '%s': its target reads no running-config\n",
			sw);
		qg_model_free(&m);
		return EXIT_USAGE;
	}
	size_t len;
	int err;
	/* "-" and /dev/stdin alike: ssh sw 'show running-config' | qosgen diff ... */
	bool stdin_file = !strcmp(file, "-");
	char *text = stdin_file ? qg_read_fd(0, QG_READBACK_MAX, &len, &err)
				: qg_read_file(file, QG_READBACK_MAX, true, &len, &err);
	if (!text) {
		fprintf(stderr, "qosgen diff: cannot read '%s': %s\n",
			stdin_file ? "standard input" : file, strerror(err));
		qg_model_free(&m);
		return EXIT_SYSTEM;
	}
	struct qg_diags d;
	qg_diags_init(&d, stdin_file ? "<stdin>" : file);
	struct qg_buf out = {0};
	int drc = t->diff(&m, i, text, len, &out, &d);
	rc = drc == 0 ? EXIT_OK : EXIT_SYSTEM;
	char why[256] = "";
	if (drc == -EINVAL)
		snprintf(why, sizeof(why), "nothing to propose from this read-back");
	else if (drc != 0)
		snprintf(why, sizeof(why), "%s", strerror(-drc));
	if (env) {
		/* The read-back's diagnostics (its own file name) beside the intent's. */
		cli_json_diags(env, &d, false);
		diff_json_device(env, sw, t->name, drc, why, &out);
	}
	qg_diags_print(&d, stderr, false);
	if (why[0])
		fprintf(stderr, "qosgen diff: switch '%s': %s\n", sw, why);
	if (rc == EXIT_OK && out.len) {
		if (!env)
			fputs(out.data, stdout);
		if (exit_code)
			rc = EXIT_INVALID;
	}
	qg_buf_free(&out);
	qg_diags_free(&d);
	free(text);
	qg_model_free(&m);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	const char *file = NULL;
	bool exit_code = false, all = false, json = false, ask = false;
	struct push_opts po = {.jobs = 8, .dry_run = true, .as_diff = true};
	int c;
	while ((c = getopt_long(argc, argv, ":", diff_opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			file = optarg;
			break;
		case 'x':
			exit_code = true;
			break;
		case 'J':
			json = true;
			break;
		case 'P':
			ask = true;
			break;
		default: {
			int rc = device_option("diff", c, &po, &all, argv);
			if (rc != EXIT_OK)
				return rc;
		}
		}
	}
	int usage = device_args("diff", argc, &po, all);
	if (usage != EXIT_OK)
		return usage;
	if (file && !po.switch_name)
		return cli_usage_error("diff", "--running-config goes with --switch NAME");
	cJSON *env = json ? cli_json_envelope("diff", argv[optind]) : NULL;
	int rc;
	if (file) {
		rc = diff_saved(argv[optind], po.switch_name, file, exit_code, env);
	} else {
		/* Read the devices over SSH: a dry-run push, printing only what differs. */
		struct qg_model m;
		rc = cli_load(argv[optind], false, &m, env, NULL);
		if (rc == EXIT_OK) {
			/*
			 * A diff reads the devices as a push does, with the same
			 * credentials: an NVUE switch's password among them, which
			 * cumulus_push.c's hint tells diff users to give this way too.
			 */
			if (ask && cli_ask_password("diff", &po.access.ssh) != EXIT_OK) {
				rc = EXIT_SYSTEM;
			} else {
				po.exit_code = exit_code;
				po.json = env;
				rc = push_run(&m, &po);
			}
			cli_drop_password(&po.access.ssh);
			qg_model_free(&m);
		}
	}
	return json ? cli_json_finish(env, rc) : rc;
}

static const struct option push_opts[] = {
    {"jobs", required_argument, NULL, 'j'},
    {"dry-run", no_argument, NULL, 'n'},
    {"json", no_argument, NULL, 'J'},
    {"ask-password", no_argument, NULL, 'P'},
    {"uninstall", no_argument, NULL, 'U'},
    {"batch", required_argument, NULL, 'B'},
    {"verify", no_argument, NULL, 'V'},
    {"verify-port", required_argument, NULL, 'R'},
    SSH_OPTIONS,
    {NULL, 0, NULL, 0},
};

int cmd_push(int argc, char **argv)
{
	struct push_opts po = {.jobs = 4, .verify_port = 18515};
	bool all = false, ask = false, json = false;
	int c;
	while ((c = getopt_long(argc, argv, ":j:", push_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			po.jobs = atoi(optarg);
			if (po.jobs < 1 || po.jobs > 256)
				return cli_usage_error("push", "-j takes a number 1..256");
			break;
		case 'n':
			po.dry_run = true;
			break;
		case 'J':
			json = true;
			break;
		case 'P':
			ask = true;
			break;
		case 'U':
			po.access.uninstall = true;
			break;
		case 'B': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || end == optarg || v < 1 || v > 100000)
				return cli_usage_error(
				    "push", "--batch takes a number of devices 1..100000");
			po.batch = (int)v;
			break;
		}
		case 'V':
			po.verify = true;
			break;
		case 'R': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || end == optarg || v < 1 || v > 65535)
				return cli_usage_error("push", "--verify-port takes 1..65535");
			po.verify_port = (int)v;
			break;
		}
		default: {
			int rc = device_option("push", c, &po, &all, argv);
			if (rc != EXIT_OK)
				return rc;
		}
		}
	}
	int usage = device_args("push", argc, &po, all);
	if (usage != EXIT_OK)
		return usage;
	if (po.batch && !all)
		return cli_usage_error("push", "--batch goes with --all");
	/* Traffic proves a pushed fabric: not one device, not a dry run, not an uninstall. */
	if (po.verify && !all)
		return cli_usage_error("push", "--verify goes with --all");
	if (po.verify && (po.dry_run || po.access.uninstall))
		return cli_usage_error("push",
				       "--verify pushes: not with --dry-run or --uninstall");
	if (po.access.uninstall && (po.switch_name || po.dvs_name))
		return cli_usage_error("push", "--uninstall is for hosts: --host NAME or --all");
	cJSON *env = json ? cli_json_envelope("push", argv[optind]) : NULL;
	struct qg_model m;
	int rc = cli_load(argv[optind], false, &m, env, NULL);
	if (rc == EXIT_OK) {
		if (ask && cli_ask_password("push", &po.access.ssh) != EXIT_OK)
			rc = EXIT_SYSTEM;
		else {
			po.json = env;
			rc = push_run(&m, &po);
		}
		cli_drop_password(&po.access.ssh);
		qg_model_free(&m);
	}
	return json ? cli_json_finish(env, rc) : rc;
}
