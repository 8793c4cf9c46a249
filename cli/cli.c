/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include "../model/diag.h"
#include "../intent/intent.h"
#include "../model/warnings.h"
#include "../targets/registry.h"
#include "../push/json.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *cmd, const char *what)
{
	fprintf(stderr, "qosgen %s: %s\nusage: %s\n", cmd, what, cli_usage(cmd));
	return EXIT_USAGE;
}

/* getopt's own messages name the subcommand as the program; print ours instead. */
int cli_bad_option(const char *cmd, int c, char **argv)
{
	char what[160];
	const char *arg = argv[optind - 1];
	if (c == ':')
		snprintf(what, sizeof(what), "option '%s' needs a value", arg);
	else
		snprintf(what, sizeof(what), "unknown option '%s'", arg);
	return cli_usage_error(cmd, what);
}

/*
 * Load and validate the intent, and run the targets' checks: the one place
 * they run. Print every diagnostic, on stderr and, with --json, into the
 * envelope env too. Returns EXIT_OK with *m filled and, when ok is not
 * NULL, the checked model for qg_build() in it; or the exit code to use.
 */
int cli_load(const char *path, bool strict, struct qg_model *m, cJSON *env, struct qg_checked *ok)
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
 * The options diff and push share: the devices (--switch, --host, --all) and
 * the SSH options. 1: handled; 0: not one of them; -1: bad value (reported).
 */
int cli_ssh_option(const char *cmd, int c, struct push_opts *po, bool *all)
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
		cli_usage_error(cmd, "--timeout takes seconds, at least 1");
		return -1;
	default:
		return 0;
	}
}

/*
 * --ask-password: the prompt's answer lives in memory only, until
 * cli_drop_password(). One answer serves SSH logins and NVUE's API alike (the
 * environment variables stay apart), so the prompt names both.
 */
int cli_ask_password(const char *cmd, struct qg_ssh_opts *ssh)
{
	char err[256];
	char *password = qg_ssh_ask_password(
	    strcmp(cmd, "verify") ? "SSH and NVUE password: " : "SSH password: ", err, sizeof(err));
	if (!password) {
		fprintf(stderr, "qosgen %s: %s\n", cmd, err);
		return EXIT_SYSTEM;
	}
	ssh->password = password;
	return EXIT_OK;
}

void cli_drop_password(struct qg_ssh_opts *ssh)
{
	char *password = (char *)ssh->password;
	if (password) {
		explicit_bzero(password, strlen(password));
		free(password);
	}
	ssh->password = NULL;
}
