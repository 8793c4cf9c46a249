/* SPDX-License-Identifier: MIT */
/*
 * A CLI session with an Onyx switch over SSH, as shared/notes/onyx-cli-protocol.md
 * describes the real CLI: a PTY shell, the prompt "HOST [standalone: master] > "
 * (or " # " in enable and config modes) as the end of every reply, `enable`,
 * paging off, one command at a time, and any line starting with "%" an error.
 */
#ifndef QG_ONYX_SESSION_H
#define QG_ONYX_SESSION_H

#include "../../lib/buf.h"
#include "../../transport/ssh.h"

#include <stdbool.h>
#include <stddef.h>

/* Pure: does text end with an Onyx prompt ("... > " or "... # ", last line)? */
bool onyx_prompt_at_end(const char *text, size_t len);

/*
 * Pure: the reply to cmd without carriage returns, the echo of the command
 * and the final prompt line. *error is set when a line starts with "%".
 */
void onyx_reply_clean(const char *raw, size_t len, const char *cmd, struct qg_buf *out,
		      bool *error);

struct onyx_session;

/* Open a shell on ssh, wait for the first prompt, enable, turn paging off. */
int onyx_session_open(struct qg_ssh *ssh, struct onyx_session **out, char *err, size_t errlen);

/*
 * Send one command and wait for the prompt. Returns 0 with the cleaned reply
 * in out, 1 when the CLI answered with a "%" error (the reply in out), -1 when
 * the session failed (timeout, dropped connection; message in err).
 */
int onyx_session_cmd(struct onyx_session *s, const char *cmd, struct qg_buf *out, char *err,
		     size_t errlen);

void onyx_session_close(struct onyx_session *s);

#endif
