/* SPDX-License-Identifier: MIT */
/*
 * The commands that reach devices to change them or to compare: diff (what
 * differs, read over SSH or HTTPS, or from a saved running-config) and push
 * (send it); both run push/push.c's device pool. Each takes its argv from
 * its own name on and returns its exit code (cli/cli.h).
 */
#ifndef QG_CLI_CMD_PUSH_H
#define QG_CLI_CMD_PUSH_H

int cmd_diff(int argc, char **argv);
int cmd_push(int argc, char **argv);

#endif
