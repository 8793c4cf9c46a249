/* SPDX-License-Identifier: MIT */
/*
 * What qosgen's commands share (cli/main.c dispatches, cli/cmd_*.c run
 * them): the exit codes (docs/qosgen.1), the usage errors, loading and
 * checking the intent, and the options of every command that reaches
 * devices. Only main() exits.
 */
#ifndef QG_CLI_H
#define QG_CLI_H

#include "../emit/build.h"
#include "../model/model.h"
#include "../push/push.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_SYSTEM = 3 };

/* The usage line of command cmd (cli/main.c's table). */
const char *cli_usage(const char *cmd);

/* "qosgen CMD: WHAT" and the usage line on stderr; EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *what);
/* getopt's unknown option or missing value c, as cli_usage_error(). */
int cli_bad_option(const char *cmd, int c, char **argv);

/*
 * Load and validate the intent, and run the targets' checks: the one place
 * they run. Print every diagnostic, on stderr and, with --json, into the
 * envelope env too. Returns EXIT_OK with *m filled and, when ok is not
 * NULL, the checked model for qg_build() in it; or the exit code to use.
 */
int cli_load(const char *path, bool strict, struct qg_model *m, cJSON *env, struct qg_checked *ok);

/*
 * The options every command that talks to devices takes; their getopt codes
 * are handled by cli_ssh_option() below.
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
int cli_ssh_option(const char *cmd, int c, struct push_opts *po, bool *all);

/*
 * --ask-password: the prompt's answer lives in memory only, until
 * cli_drop_password(). One answer serves SSH logins and NVUE's API alike
 * (the environment variables stay apart), so the prompt names both.
 * EXIT_OK or EXIT_SYSTEM (reported).
 */
int cli_ask_password(const char *cmd, struct qg_ssh_opts *ssh);
void cli_drop_password(struct qg_ssh_opts *ssh);

#endif
