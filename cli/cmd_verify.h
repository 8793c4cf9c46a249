/* SPDX-License-Identifier: MIT */
/*
 * The commands that prove the path with RDMA traffic: probe (one end of a
 * perftest-compatible RC RDMA WRITE test, run here) and verify (the
 * intent's pairs over SSH, push/verify.c). Each takes its argv from its own
 * name on and returns its exit code (cli/cli.h).
 */
#ifndef QG_CLI_CMD_VERIFY_H
#define QG_CLI_CMD_VERIFY_H

int cmd_probe(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
