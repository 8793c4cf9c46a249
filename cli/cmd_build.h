/* SPDX-License-Identifier: MIT */
/*
 * The compile-side commands: build (the files, or --check against a
 * committed tree), check (the intent and the targets' checks alone) and
 * explain (every value with its source and reason). Each takes its argv
 * from its own name on and returns its exit code (cli/cli.h).
 */
#ifndef QG_CLI_CMD_BUILD_H
#define QG_CLI_CMD_BUILD_H

int cmd_build(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_explain(int argc, char **argv);

#endif
