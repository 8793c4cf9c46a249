/* SPDX-License-Identifier: MIT */
/*
 * SSH to switches and hosts, on libssh. The one place qosgen talks to the
 * network; everything above it sees connect, run a command (with stdin),
 * and close.
 *
 * Host keys are checked against known_hosts as OpenSSH does with
 * StrictHostKeyChecking=yes, or =accept-new when asked: an unknown key is
 * refused (or recorded, with accept_new), a changed key is always refused
 * and both fingerprints are printed. Passwords come only from an
 * environment variable, never from argv, files or logs.
 */
#ifndef QG_SSH_H
#define QG_SSH_H

#include "../lib/buf.h"
#include "readback.h"

#include <stdbool.h>
#include <stddef.h>

struct qg_ssh_target {
	const char *host; /* name or address; ~/.ssh/config may map it (HostName) */
	int port;	  /* 0: from ~/.ssh/config, else 22 */
	const char *user; /* NULL or "": from ~/.ssh/config, else the local user */
};

struct qg_ssh_opts {
	const char *known_hosts;  /* NULL: ~/.ssh/known_hosts */
	bool accept_new;	  /* record an unknown key instead of refusing it */
	const char *config;	  /* NULL: ~/.ssh/config when present; "" to read none */
	const char *identity;	  /* a private key file; NULL: ssh-agent and default keys */
	const char *password_env; /* NULL: QOSGEN_SSH_PASSWORD */
	const char *password;	  /* asked at a prompt (qg_ssh_ask_password); kept in memory only */
	int connect_timeout_s;	  /* 0: 10 */
	int command_timeout_s;	  /* 0: 120 */
	int keepalive_s;	  /* 0: 15; an SSH_MSG_IGNORE while waiting, to keep NATs open */
};

struct qg_ssh;

/*
 * Connect, check the host key, authenticate. Returns 0, or -1 with a message
 * naming host:port and what failed in err (no secret is ever put there).
 */
int qg_ssh_connect(const struct qg_ssh_target *t, const struct qg_ssh_opts *o, struct qg_ssh **out,
		   char *err, size_t errlen);

/*
 * Run cmd, feed it input (may be NULL), collect stdout and stderr (either
 * buffer may be NULL to discard) and the exit status. Returns 0, or -1 with
 * err (dropped connection, or more kept output, stdout and stderr together,
 * than the read-back limit of readback.h), or QG_SSH_TIMED_OUT with err when
 * the command did not finish within the session's command timeout: unlike a
 * dropped connection, the command may still be running on the device. A
 * killed command gives status 255.
 */
#define QG_SSH_TIMED_OUT (-2)
int qg_ssh_run(struct qg_ssh *s, const char *cmd, const char *input, size_t input_len,
	       struct qg_buf *out, struct qg_buf *errout, int *status, char *err, size_t errlen);

/* An interactive shell on a PTY, for CLIs such as Onyx's. */
struct qg_ssh_shell;

/* Open a PTY (vt100, 200 columns, so nothing wraps) and a shell. 0 or -1. */
int qg_ssh_shell_open(struct qg_ssh *s, struct qg_ssh_shell **out, char *err, size_t errlen);
int qg_ssh_shell_write(struct qg_ssh_shell *sh, const char *data, size_t len, char *err,
		       size_t errlen);
/*
 * Append output to out until done(out->data, out->len, ctx) is true. -1 with
 * err on timeout (the session's command timeout), a dropped connection, or
 * out growing past the read-back limit (readback.h) before done.
 */
int qg_ssh_shell_read_until(struct qg_ssh_shell *sh, struct qg_buf *out,
			    bool (*done)(const char *text, size_t len, void *ctx), void *ctx,
			    char *err, size_t errlen);
void qg_ssh_shell_close(struct qg_ssh_shell *sh);

/*
 * Ask for a password on the controlling terminal, echo off (never argv, a
 * file or a log). Returns a malloc'ed string, or NULL with err.
 */
char *qg_ssh_ask_password(const char *prompt, char *err, size_t errlen);

/* "host:port" as connected, for messages. */
const char *qg_ssh_peer(const struct qg_ssh *s);

void qg_ssh_close(struct qg_ssh *s);

#endif
