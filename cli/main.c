/* SPDX-License-Identifier: MIT */
/*
 * qosgen's command line: one row per command, git-style; only main() exits.
 * Exit codes (docs/qosgen.1): 0 ok, 1 invalid intent or `--check` found
 * differences (or no output tree to compare), 2 usage, 3 I/O or system error.
 */
#include "../gen/build.h"
#include "../gen/explain.h"
#include "../gen/intent.h"
#include "../gen/names.h"
#include "../gen/outdir.h"
#include "../gen/readfile.h"
#include "../gen/target.h"
#include "../gen/template.h"
#include "../gen/version.h"
#include "../targets/registry.h"
#include "json.h"
#include "push.h"
#include "verify.h"
#include "../transport/readback.h" /* QG_READBACK_MAX: the same for a file as over the network */
#include "../verbs/probe.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
	const char *help;
};

static const struct command *find_command(const char *name);

static int usage_error(const char *cmd, const char *what)
{
	fprintf(stderr, "qosgen %s: %s\nusage: %s\n", cmd, what, find_command(cmd)->usage);
	return EXIT_USAGE;
}

/* getopt's own messages name the subcommand as the program; print ours instead. */
static int bad_option(const char *cmd, int c, char **argv)
{
	char what[160];
	const char *arg = argv[optind - 1];
	if (c == ':')
		snprintf(what, sizeof(what), "option '%s' needs a value", arg);
	else
		snprintf(what, sizeof(what), "unknown option '%s'", arg);
	return usage_error(cmd, what);
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static int print_help(const char *cmd)
{
	const struct command *c = find_command(cmd);
	printf("usage: %s\n\n%s", c->usage, c->help);
	return EXIT_OK;
}

/*
 * Load and validate the intent, and run the targets' checks: the one place
 * they run. Print every diagnostic, on stderr and, with --json, into the
 * envelope env too. Returns EXIT_OK with *m filled and, when ok is not
 * NULL, the checked model for qg_build() in it; or the exit code to use.
 */
static int load(const char *path, bool strict, struct qg_model *m, cJSON *env,
		struct qg_checked *ok)
{
	struct qg_diags d;
	qg_diags_init(&d, path);
	int rc = qg_intent_load_file(path, qg_targets, &d, m, NULL, NULL);
	/* A valid intent may still ask for what a target cannot express. */
	bool failed = rc != 0 || qg_build_check(m, &d, ok) != 0;
	/* The check()s' warnings the intent acknowledges, and its stale acknowledgements. */
	if (rc == 0)
		qg_warnings_acknowledge(m, &d, true);
	failed = failed || qg_diags_failed(&d, strict);
	if (env) {
		cli_json_diags(env, &d, strict);
		if (!failed)
			cli_json_model(env, m);
	}
	qg_diags_print(&d, stderr, strict);
	qg_diags_free(&d);
	if (!failed)
		return EXIT_OK;
	if (rc == 0)
		qg_model_free(m);
	return rc == -2 ? EXIT_SYSTEM : EXIT_INVALID;
}

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

static int cmd_build(int argc, char **argv)
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
			return bad_option("build", c, argv);
		}
	}
	if (optind != argc - 1)
		return usage_error("build", "expected one INTENT file");
	const char *intent = argv[optind];

	struct qg_model m;
	struct qg_checked ok;
	int rc = load(intent, strict, &m, NULL, &ok);
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
			/* From here a signal must not strand the temporary tree (gen/outdir.h). */
			qg_outdir_catch_signals();
			if (qg_outdir_write(out_dir, &out, err, sizeof(err)) != 0) {
				fprintf(stderr, "qosgen build: %s\n", err);
				rc = EXIT_SYSTEM;
				/* Stopped by a signal, its tree removed: die of it, as a shell expects. */
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

static int cmd_check(int argc, char **argv)
{
	bool strict = false;
	int c;
	while ((c = getopt_long(argc, argv, ":", check_opts, NULL)) != -1) {
		if (c != 's')
			return bad_option("check", c, argv);
		strict = true;
	}
	if (optind != argc - 1)
		return usage_error("check", "expected one INTENT file");
	struct qg_model m;
	int rc = load(argv[optind], strict, &m, NULL, NULL);
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
			usage_error("explain", what);
			return false;
		}
	snprintf(what, sizeof(what), "no %s named '%s' in the intent%s%s%s",
		 kind == QG_DEVICE_HOST ? "host" : "switch", name, near ? " (did you mean '" : "",
		 near ? near : "", near ? "'?)" : "");
	usage_error("explain", what);
	return false;
}

static int cmd_explain(int argc, char **argv)
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
			return bad_option("explain", c, argv);
	}
	if (optind != argc - 1)
		return usage_error("explain", "expected one INTENT file");
	if (host && sw)
		return usage_error("explain", "give --host or --switch, not both");
	struct qg_model m;
	cJSON *env = json ? cli_json_envelope("explain", argv[optind]) : NULL;
	int rc = load(argv[optind], false, &m, env, NULL);
	if (rc != EXIT_OK)
		return json ? cli_json_finish(env, rc) : rc;
	const char *one = host ? host : sw;
	if (one && !explain_device_known(&m, host ? QG_DEVICE_HOST : QG_DEVICE_SWITCH, one)) {
		/* As diff's unknown --host: the envelope with exit 2 and no rows (docs/json.md). */
		qg_model_free(&m);
		return json ? cli_json_finish(env, EXIT_USAGE) : EXIT_USAGE;
	}
	cJSON *e = qg_explain_json(&m);
	if (one)
		qg_explain_only(e, one);
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

/*
 * The options every command that talks to devices takes; their getopt codes
 * are handled by ssh_option() below.
 */
#define SSH_OPTIONS                                                                                \
	{"switch", required_argument, NULL, 's'}, {"host", required_argument, NULL, 'h'},          \
	    {"dvs", required_argument, NULL, 'D'}, {"ca-file", required_argument, NULL, 'C'},      \
	    {"insecure", no_argument, NULL, 'I'}, {"all", no_argument, NULL, 'a'},                 \
	    {"known-hosts", required_argument, NULL, 'k'}, {"accept-new", no_argument, NULL, 'A'}, \
	    {"identity", required_argument, NULL, 'i'},                                            \
	    {"ssh-config", required_argument, NULL, 'F'},                                          \
	    {"timeout", required_argument, NULL, 't'},                                             \
	    {"accept-hostname", no_argument, NULL, 'H'}, {"allow-http", no_argument, NULL, 'L'},   \
	{                                                                                          \
		"templates", required_argument, NULL, 'T'                                          \
	}

/*
 * The options diff and push share: the devices (--switch, --host, --all) and
 * the SSH options. 1: handled; 0: not one of them; -1: bad value (reported).
 */
static int ssh_option(const char *cmd, int c, struct push_opts *po, bool *all)
{
	switch (c) {
	case 's':
		po->switch_name = optarg;
		return 1;
	case 'h':
		po->host_name = optarg;
		return 1;
	case 'D':
		po->dvs_name = optarg;
		return 1;
	case 'C':
		po->access.tls.ca_file = optarg;
		return 1;
	case 'I':
		po->access.tls.insecure = true;
		return 1;
	case 'L':
		po->access.tls.allow_http = true;
		return 1;
	case 'a':
		*all = true;
		return 1;
	case 'k':
		po->access.ssh.known_hosts = optarg;
		return 1;
	case 'A':
		po->access.ssh.accept_new = true;
		return 1;
	case 'i':
		po->access.ssh.identity = optarg;
		return 1;
	case 'F':
		po->access.ssh.config = optarg;
		return 1;
	case 'T':
		po->templates = optarg;
		return 1;
	case 'H':
		po->access.accept_hostname = true;
		return 1;
	case 't':
		/* One bound for connect, handshake and every command: a listener that
		 * accepts and never speaks SSH is given up on after it too. */
		po->access.ssh.command_timeout_s = po->access.ssh.connect_timeout_s =
		    po->access.tls.timeout_s = atoi(optarg);
		if (po->access.ssh.command_timeout_s >= 1)
			return 1;
		usage_error(cmd, "--timeout takes seconds, at least 1");
		return -1;
	default:
		return 0;
	}
}

/*
 * --ask-password: the prompt's answer lives in memory only, until
 * drop_password(). One answer serves SSH logins and NVUE's API alike (the
 * environment variables stay apart), so the prompt names both.
 */
static int ask_password(const char *cmd, struct qg_ssh_opts *ssh)
{
	char err[256];
	char *password = qg_ssh_ask_password(strcmp(cmd, "verify") ? "SSH and NVUE password: "
								 : "SSH password: ",
					     err, sizeof(err));
	if (!password) {
		fprintf(stderr, "qosgen %s: %s\n", cmd, err);
		return EXIT_SYSTEM;
	}
	ssh->password = password;
	return EXIT_OK;
}

static void drop_password(struct qg_ssh_opts *ssh)
{
	char *password = (char *)ssh->password;
	if (password) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	ssh->password = NULL;
}

/* After option parsing: exactly one way of naming the devices. */
static bool one_device_choice(const struct push_opts *po, bool all)
{
	return (po->switch_name != NULL) + (po->host_name != NULL) + (po->dvs_name != NULL) + all ==
	       1;
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
	int rc = load(intent, false, &m, env, NULL);
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

static int cmd_diff(int argc, char **argv)
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
		default:
			switch (ssh_option("diff", c, &po, &all)) {
			case 1:
				break;
			case 0:
				return bad_option("diff", c, argv);
			default:
				return EXIT_USAGE;
			}
		}
	}
	if (optind != argc - 1)
		return usage_error("diff", "expected one INTENT file");
	if (!one_device_choice(&po, all))
		return usage_error(
		    "diff", "name the devices: --switch NAME, --host NAME, --dvs NAME, or --all");
	if (file && !po.switch_name)
		return usage_error("diff", "--running-config goes with --switch NAME");
	cJSON *env = json ? cli_json_envelope("diff", argv[optind]) : NULL;
	int rc;
	if (file) {
		rc = diff_saved(argv[optind], po.switch_name, file, exit_code, env);
	} else {
		/* Read the devices over SSH: a dry-run push, printing only what differs. */
		struct qg_model m;
		rc = load(argv[optind], false, &m, env, NULL);
		if (rc == EXIT_OK) {
			/*
			 * A diff reads the devices as a push does, with the same
			 * credentials: an NVUE switch's password among them, which
			 * cumulus_push.c's hint tells diff users to give this way too.
			 */
			if (ask && ask_password("diff", &po.access.ssh) != EXIT_OK) {
				rc = EXIT_SYSTEM;
			} else {
				po.exit_code = exit_code;
				po.json = env;
				rc = push_run(&m, &po);
			}
			drop_password(&po.access.ssh);
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

static int cmd_push(int argc, char **argv)
{
	struct push_opts po = {.jobs = 4, .verify_port = 18515};
	bool all = false, ask = false, json = false;
	int c;
	while ((c = getopt_long(argc, argv, ":j:", push_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			po.jobs = atoi(optarg);
			if (po.jobs < 1 || po.jobs > 256)
				return usage_error("push", "-j takes a number 1..256");
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
				return usage_error("push",
						   "--batch takes a number of devices 1..100000");
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
				return usage_error("push", "--verify-port takes 1..65535");
			po.verify_port = (int)v;
			break;
		}
		default:
			switch (ssh_option("push", c, &po, &all)) {
			case 1:
				break;
			case 0:
				return bad_option("push", c, argv);
			default:
				return EXIT_USAGE;
			}
		}
	}
	if (optind != argc - 1)
		return usage_error("push", "expected one INTENT file");
	if (!one_device_choice(&po, all))
		return usage_error(
		    "push", "name the devices: --switch NAME, --host NAME, --dvs NAME, or --all");
	if (po.batch && !all)
		return usage_error("push", "--batch goes with --all");
	/* Traffic proves a pushed fabric: not one device, not a dry run, not an uninstall. */
	if (po.verify && !all)
		return usage_error("push", "--verify goes with --all");
	if (po.verify && (po.dry_run || po.access.uninstall))
		return usage_error("push", "--verify pushes: not with --dry-run or --uninstall");
	if (po.access.uninstall && (po.switch_name || po.dvs_name))
		return usage_error("push", "--uninstall is for hosts: --host NAME or --all");
	cJSON *env = json ? cli_json_envelope("push", argv[optind]) : NULL;
	struct qg_model m;
	int rc = load(argv[optind], false, &m, env, NULL);
	if (rc == EXIT_OK) {
		if (ask && ask_password("push", &po.access.ssh) != EXIT_OK)
			rc = EXIT_SYSTEM;
		else {
			po.json = env;
			rc = push_run(&m, &po);
		}
		drop_password(&po.access.ssh);
		qg_model_free(&m);
	}
	return json ? cli_json_finish(env, rc) : rc;
}

static const struct option probe_opts[] = {
    {"server", no_argument, NULL, 'S'},
    {"device", required_argument, NULL, 'd'},
    {"ib-port", required_argument, NULL, 'i'},
    {"gid-index", required_argument, NULL, 'x'},
    {"tclass", required_argument, NULL, 'c'},
    {"size", required_argument, NULL, 's'},
    {"iters", required_argument, NULL, 'n'},
    {"port", required_argument, NULL, 'p'},
    {NULL, 0, NULL, 0},
};

static int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = {
	    .tcp_port = 18515, .ib_port = 1, .gid_index = -1, .size = 65536, .iters = 5000};
	int c;
	while ((c = getopt_long(argc, argv, ":d:x:s:n:p:", probe_opts, NULL)) != -1) {
		long v = optarg ? strtol(optarg, NULL, 10) : 0;
		switch (c) {
		case 'S':
			o.server = true;
			break;
		case 'd':
			o.device = optarg;
			break;
		case 'i':
			o.ib_port = (int)v;
			break;
		case 'x':
			o.gid_index = (int)v;
			break;
		case 'c':
			if (v < 0 || v > 255)
				return usage_error("probe",
						   "--tclass takes 0..255 (DSCP << 2 | ECN)");
			o.tclass = (int)v;
			break;
		case 's':
			if (v < 1 || v > 8388608)
				return usage_error("probe", "--size takes 1..8388608 bytes");
			o.size = (size_t)v;
			break;
		case 'n':
			if (v < 1)
				return usage_error("probe", "--iters takes a positive count");
			o.iters = (uint64_t)v;
			break;
		case 'p':
			o.tcp_port = (int)v;
			break;
		default:
			return bad_option("probe", c, argv);
		}
	}
	if (!o.device)
		return usage_error("probe", "name the RDMA device: -d DEV");
	if (o.server != (optind == argc))
		return usage_error("probe", o.server
						? "a server takes no address"
						: "expected the server's address (or --server)");
	if (!o.server)
		o.peer = argv[optind];
	struct probe_result r;
	char err[512];
	if (probe_run(&o, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "qosgen probe: %s\n", err);
		return EXIT_SYSTEM;
	}
	printf("{\"role\": \"%s\", \"device\": \"%s\", \"gid_index\": %d, \"active_mtu\": %d, "
	       "\"path_mtu\": %d, \"tclass\": %d, \"size\": %llu, \"iters\": %llu, "
	       "\"seconds\": %.6f, \"gbps\": %.3f, \"msg_rate_mpps\": %.6f, "
	       "\"peer_version\": \"%s\"}\n",
	       o.server ? "server" : "client", o.device, r.gid_index, r.active_mtu, r.path_mtu,
	       o.tclass, (unsigned long long)r.size, (unsigned long long)r.iters, r.seconds, r.gbps,
	       r.msg_rate, r.peer_version);
	return EXIT_OK;
}

static const struct option verify_opts[] = {
    {"pair", required_argument, NULL, 'P'},	  {"json", no_argument, NULL, 'j'},
    {"port", required_argument, NULL, 'p'},	  {"known-hosts", required_argument, NULL, 'k'},
    {"accept-new", no_argument, NULL, 'A'},	  {"identity", required_argument, NULL, 'i'},
    {"ssh-config", required_argument, NULL, 'F'}, {"timeout", required_argument, NULL, 't'},
    {"ask-password", no_argument, NULL, 'W'},	  {NULL, 0, NULL, 0},
};

static int cmd_verify(int argc, char **argv)
{
	struct verify_opts vo = {.tcp_port = 18515};
	struct push_opts po = {0};
	bool all = false, ask = false, json = false;
	int c;
	while ((c = getopt_long(argc, argv, ":p:", verify_opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			vo.pair = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			vo.tcp_port = atoi(optarg);
			if (vo.tcp_port < 1 || vo.tcp_port > 65535)
				return usage_error("verify", "--port takes 1..65535");
			break;
		case 'W':
			ask = true;
			break;
		default:
			switch (ssh_option("verify", c, &po, &all)) {
			case 1:
				break;
			case -1:
				return EXIT_USAGE;
			default:
				return bad_option("verify", c, argv);
			}
		}
	}
	if (optind != argc - 1)
		return usage_error("verify", "expected one INTENT file");
	cJSON *env = json ? cli_json_envelope("verify", argv[optind]) : NULL;
	struct qg_model m;
	int rc = load(argv[optind], false, &m, env, NULL);
	if (rc == EXIT_OK) {
		vo.ssh = po.access.ssh;
		if (ask && ask_password("verify", &vo.ssh) != EXIT_OK)
			rc = EXIT_SYSTEM;
		else {
			vo.json = env;
			rc = verify_run(&m, &vo);
		}
		drop_password(&vo.ssh);
		qg_model_free(&m);
	}
	return json ? cli_json_finish(env, rc) : rc;
}

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    {"build", cmd_build, "qosgen build INTENT [-o DIR] [--check] [--templates DIR] [--strict]",
     "Compile INTENT into every device's settings under DIR (default: out):\n"
     "  onyx/<switch>.cli  host/<host>.sh  dvs/<dvs>.xml  dvs/<dvs>.govc.sh  plan.json\n"
     "A host's script is host/lib/<platform>.sh, host/<host>.sh and host/groups/<group>.sh\n"
     "run as one (host/<host>.sh shows the command); plan.json names each host's group.\n"
     "The directory is replaced as a whole, atomically; on any error nothing is written.\n\n"
     "  -o, --output DIR   where to write (an existing DIR must be empty or hold a plan.json)\n"
     "  --check            write nothing; exit 1 with a unified diff if DIR differs, or\n"
     "                     with one line if DIR holds no output tree (no plan.json)\n"
     "  --templates DIR    use DIR/<name>.in instead of the built-in templates\n"
     "  --strict           treat warnings as errors (not those the intent acknowledges)\n"},
    {"check", cmd_check, "qosgen check INTENT [--strict]",
     "Validate INTENT and report every problem in compiler form; write nothing.\n\n"
     "  --strict           treat warnings as errors (not those the intent acknowledges)\n"},
    {"explain", cmd_explain, "qosgen explain INTENT [--host NAME | --switch NAME] [--json]",
     "Print the normalised intent: every value with its source (given, default, derived)\n"
     "and the reason for each default and derived value, then what each device gets.\n"
     "Alike hosts (one group of the build) print once per group, with a table of their\n"
     "names and addresses.\n\n"
     "  --host NAME        only that host's rows, its group's name among them\n"
     "  --switch NAME      only that switch's rows\n"
     "  --json             the same rows as JSON, every host's, and the groups\n"},
    {"diff", cmd_diff,
     "qosgen diff INTENT (--switch NAME [--running-config FILE] | --host NAME | --dvs NAME |\n"
     "       --all) [--exit-code] [--json]\n"
     "       [--known-hosts FILE] [--accept-new] [--identity FILE] [--ssh-config FILE]\n"
     "       [--timeout S] [--accept-hostname] [--ca-file FILE] [--insecure] [--allow-http]\n"
     "       [--templates DIR] [--ask-password]",
     "Print what differs between the devices and the intent, reading them over SSH: for a\n"
     "switch the fewest commands, ranges compressed as Onyx prints them; for a host the\n"
     "settings that would change. Nothing is printed when in sync, and nothing is changed.\n"
     "With --running-config FILE, compare a saved 'show running-config' instead ('-' or\n"
     "/dev/stdin: standard input). A read-back that is not a running-config (empty, binary,\n"
     "UTF-16) or that holds what qosgen cannot judge (advanced buffer mode, a split the\n"
     "intent's ports disagree with, a QoS line qosgen does not model on an intent port,\n"
     "another lossless priority) is refused with its line: exit 3, nothing proposed.\n\n"
     "  --exit-code        exit 1 when there are differences (as git diff --exit-code)\n"
     "  --json             the differences as JSON on stdout (docs/json.md)\n"
     "  the other options: as for push\n"},
    {"push", cmd_push,
     "qosgen push INTENT (--switch NAME | --host NAME | --dvs NAME | --all) [-j N] [--dry-run]\n"
     "       [--json] [--ca-file FILE] [--insecure] [--allow-http]\n"
     "       [--known-hosts FILE]"
     " [--accept-new] [--identity FILE] [--ssh-config FILE] [--timeout S] [--templates DIR]\n"
     "       [--accept-hostname] [--uninstall] [--ask-password] [--batch N] [--verify]\n"
     "       [--verify-port N]",
     "Bring the devices to the intent over SSH, sending only what differs: a second push of an\n"
     "unchanged intent sends nothing. Before changing a switch it saves a named copy of its\n"
     "configuration on the switch; if a line is refused or the session drops, it rolls back\n"
     "what it applied (reconnecting if needed) and says in which state the switch is left.\n"
     "A host gets its script (its three files as one) over the session, run by sh, which\n"
     "changes only what differs and reports each setting; a missing tool or knob is\n"
     "reported, not fatal to the rest. A Linux host with persist: true (the default) also\n"
     "gets the script, a systemd unit and a udev rule installed\n"
     "(/usr/local/lib/qosgen/roce-qos-NETDEV.sh,\n"
     "/etc/systemd/system/qosgen-roce-qos-NETDEV@.service,\n"
     "/etc/udev/rules.d/90-qosgen-roce-qos-NETDEV.rules), so that its settings come back\n"
     "when the NIC does (boot, driver reload, reset); 'persist' is then one of its settings.\n"
     "A DVS goes through the vSphere API (HTTPS to vCenter): its maxMtu with the\n"
     "configVersion just read (retried if someone changed the switch meanwhile), and on its\n"
     "hosts Net.PVRDMAVmknic and the pvrdma firewall ruleset. vCenter and credentials as\n"
     "govc takes them: $GOVC_URL (else the intent's vcenter), $GOVC_USERNAME,\n"
     "$GOVC_PASSWORD, $GOVC_INSECURE, $GOVC_TLS_CA_CERTS; never on the command line.\n"
     "A Cumulus switch goes through the NVUE REST API (HTTPS, port 8765 unless the intent\n"
     "says): a revision, a merge patch, apply, read back, save; rolled back with the inverse\n"
     "patch. The user is the intent's, else $QOSGEN_NVUE_USER; the password\n"
     "$QOSGEN_NVUE_PASSWORD or --ask-password. --ca-file and --insecure apply to it too.\n\n"
     "  --switch NAME      one switch; --host NAME: one host; --dvs NAME: one distributed\n"
     "                     switch; --all: every device\n"
     "  --ca-file FILE     the CA of vCenter's or NVUE's certificate (default: the\n"
     "                     system's CAs)\n"
     "  --insecure         do not check vCenter's or NVUE's certificate (loudly; not\n"
     "                     recommended)\n"
     "  --allow-http       accept an http:// GOVC_URL: the vSphere password then crosses\n"
     "                     the network in clear text (loudly; without it, refused)\n"
     "  -j, --jobs N       devices in parallel (default 4)\n"
     "  --batch N          with --all: in waves of N devices, switches first, then DVSes,\n"
     "                     then hosts, each in the intent's order; the first wave with a\n"
     "                     device not in sync or converged stops the push, the later\n"
     "                     waves untouched (docs/ansible.md: which order keeps traffic\n"
     "                     lossless)\n"
     "  --verify           with --all: after each wave that converged, run the intent's\n"
     "                     verify pairs whose two hosts are now pushed, each once, as\n"
     "                     qosgen verify does (without --batch: once, after the push); a\n"
     "                     pair with a FATAL check or that cannot run stops the push, the\n"
     "                     later waves untouched, and the exit is verify's (1 or 3)\n"
     "  --verify-port N    the traffic test's TCP port for its out-of-band exchange, as\n"
     "                     verify takes it (18515)\n"
     "  --dry-run          read back and print what would be sent; send nothing\n"
     "  --json             results as JSON on stdout (docs/json.md)\n"
     "  --known-hosts FILE host keys (default ~/.ssh/known_hosts); unknown keys are refused\n"
     "  --accept-new       record an unknown host key on first use (a changed key is always\n"
     "                     refused)\n"
     "  --identity FILE    private key; default ssh-agent and ~/.ssh/config's IdentityFile\n"
     "  --ssh-config FILE  instead of ~/.ssh/config (HostName, User, Port, IdentityFile)\n"
     "  --timeout S        connect, handshake and each command or request (default 120)\n"
     "  --templates DIR    host script templates, as for build\n"
     "  --accept-hostname  go on when a switch's running-config names another hostname\n"
     "                     (default: that switch is refused, nothing sent)\n"
     "  --ask-password     ask for the password on the terminal (SSH, or NVUE's)\n"
     "  --uninstall        hosts only: remove exactly those installed files (and their\n"
     "                     directory when empty), change no setting\n"
     "A password comes only from that prompt, $QOSGEN_SSH_PASSWORD or $QOSGEN_NVUE_PASSWORD,\n"
     "never from the command line, and is never written anywhere.\n"
     "Exit 3 when any device failed.\n"},
    {"probe", cmd_probe,
     "qosgen probe -d DEV (--server | SERVER_ADDRESS) [--tclass N] [-s SIZE] [-n ITERS]\n"
     "       [-x GID_INDEX] [--ib-port P] [-p TCP_PORT]",
     "An RC RDMA WRITE bandwidth test that speaks perftest 4.5's out-of-band protocol:\n"
     "either side may be an unmodified ib_write_bw (same -s on both). --tclass sets the\n"
     "GRH traffic class (106 = DSCP 26 with ECT(0)). Prints the result as JSON.\n"},
    {"verify", cmd_verify,
     "qosgen verify INTENT [--pair CLIENT:SERVER] [--json] [-p TCP_PORT]\n"
     "       [--known-hosts FILE] [--accept-new] [--identity FILE] [--ssh-config FILE]\n"
     "       [--timeout S] [--ask-password]",
     "Prove the QoS path with RDMA traffic: for every pair of the intent's verify.pairs,\n"
     "over SSH, run an RC RDMA WRITE test (qosgen probe on the hosts, else ib_write_bw)\n"
     "with the traffic class the client host really applies (rdma_cm's default_roce_tos,\n"
     "read back), and judge it against the intent, one line per check:\n"
     "  bandwidth >= min_gbps; path MTU (both hosts' active MTU and netdev MTU);\n"
     "  RoCE marking on each host (ToS = DSCP << 2 | ECT(0)); loss and retransmission\n"
     "  counters that rose during the run; ECN and CNP counters (reported).\n"
     "Each check is PASS, MARGINAL or FATAL; a summary follows each pair.\n\n"
     "  --pair C:S         one pair, by host names\n"
     "  --json             the results as JSON on stdout (docs/json.md)\n"
     "  -p, --port N       the test's TCP port for the out-of-band exchange (18515)\n"
     "  --known-hosts, --accept-new, --identity, --ssh-config, --timeout, --ask-password:\n"
     "                     as for push; hosts are reached at their intent address.\n"
     "Exit 0 when nothing is FATAL, 1 when a check is FATAL, 3 when a host could not be\n"
     "reached or the test could not run.\n"},
    {"help", cmd_help, "qosgen help [COMMAND]", "Show help for qosgen or one COMMAND.\n"},
    {NULL, NULL, NULL, NULL},
};

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static int main_help(FILE *f)
{
	fprintf(
	    f,
	    "usage: qosgen COMMAND [ARGS]\n\n"
	    "qosgen compiles one lossless-RoCE intent into switch, host and vSphere settings.\n\n"
	    "commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %s\n", c->usage);
	fprintf(f, "\n'qosgen COMMAND --help' for one command; 'qosgen --version'.\n"
		   "exit codes: 0 ok, 1 invalid intent or differences, 2 usage, 3 I/O or system "
		   "error\n");
	return EXIT_OK;
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2)
		return main_help(stdout);
	if (!find_command(argv[1])) {
		fprintf(stderr, "qosgen help: '%s' is not a qosgen command\n", argv[1]);
		return EXIT_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	opterr = 0;
	if (argc < 2) {
		main_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("%s\n", QG_GENERATOR);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return main_help(stdout);
	const struct command *c = find_command(argv[1]);
	if (!c) {
		const char *near = NULL;
		size_t best = 3;
		for (const struct command *k = commands; k->name; k++) {
			size_t d = qg_edit_distance(argv[1], k->name);
			if (d < best) {
				best = d;
				near = k->name;
			}
		}
		fprintf(stderr, "qosgen: '%s' is not a qosgen command%s%s%s; see 'qosgen --help'\n",
			argv[1], near ? " (did you mean '" : "", near ? near : "",
			near ? "'?)" : "");
		return EXIT_USAGE;
	}
	if (wants_help(argc - 1, argv + 1))
		return print_help(c->name);
	return c->run(argc - 1, argv + 1);
}
