/* SPDX-License-Identifier: MIT */
#include "onyx_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct onyx_session {
	struct qg_ssh_shell *sh;
};

bool onyx_prompt_at_end(const char *text, size_t len)
{
	/* Ansible's terminal plugin: (?P<prompt>(.*)( > | # )\Z) on the last line. */
	if (len < 3)
		return false;
	const char *end = text + len;
	if (!(end[-1] == ' ' && (end[-2] == '>' || end[-2] == '#') && end[-3] == ' '))
		return false;
	/* The prompt names the host in front: "switch [standalone: master] # ". */
	const char *line = end - 3;
	while (line > text && line[-1] != '\n' && line[-1] != '\r')
		line--;
	return line < end - 3;
}

void onyx_reply_clean(const char *raw, size_t len, const char *cmd, struct qg_buf *out, bool *error)
{
	*error = false;
	const char *end = raw + len;
	/* The last line is the prompt: drop it. */
	const char *last = end;
	while (last > raw && last[-1] != '\n')
		last--;
	bool echo_seen = false;
	for (const char *line = raw; line < last;) {
		const char *nl = memchr(line, '\n', (size_t)(last - line));
		const char *stop = nl ? nl : last;
		size_t n = (size_t)(stop - line);
		while (n > 0 && line[n - 1] == '\r')
			n--;
		/* A line may carry leftovers of the previous prompt before the echo. */
		const char *text = line;
		if (!echo_seen) {
			const char *at =
			    n >= strlen(cmd) ? memmem(line, n, cmd, strlen(cmd)) : NULL;
			if (at && (size_t)(at - line) + strlen(cmd) == n) {
				echo_seen = true;
				line = nl ? nl + 1 : last;
				continue;
			}
		}
		if (n > 0 && text[0] == '%')
			*error = true;
		qg_buf_append(out, text, n);
		qg_buf_puts(out, "\n");
		line = nl ? nl + 1 : last;
	}
}

static bool at_prompt(const char *text, size_t len, void *ctx)
{
	(void)ctx;
	return onyx_prompt_at_end(text, len);
}

/* Send a line with CR, as a terminal does, and read the whole reply. */
static int exchange(struct onyx_session *s, const char *cmd, struct qg_buf *raw, char *err,
		    size_t errlen)
{
	char line[4200];
	snprintf(line, sizeof(line), "%s\r", cmd);
	if (qg_ssh_shell_write(s->sh, line, strlen(line), err, errlen) != 0)
		return -1;
	return qg_ssh_shell_read_until(s->sh, raw, at_prompt, NULL, err, errlen);
}

int onyx_session_open(struct qg_ssh *ssh, struct onyx_session **out, char *err, size_t errlen)
{
	*out = NULL;
	struct onyx_session *s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	struct qg_buf raw = {0};
	if (qg_ssh_shell_open(ssh, &s->sh, err, errlen) != 0 ||
	    qg_ssh_shell_read_until(s->sh, &raw, at_prompt, NULL, err, errlen) != 0) {
		qg_buf_free(&raw);
		onyx_session_close(s);
		return -1;
	}
	qg_buf_free(&raw);
	/* As Ansible's onyx plugins do: enable, then paging off. */
	static const char *const init[] = {"enable", "no cli session paging enable"};
	for (size_t i = 0; i < 2; i++) {
		struct qg_buf reply = {0};
		int rc = onyx_session_cmd(s, init[i], &reply, err, errlen);
		if (rc == 1)
			snprintf(err, errlen, "%s: '%s' was refused: %.200s", qg_ssh_peer(ssh),
				 init[i], reply.data ? reply.data : "");
		qg_buf_free(&reply);
		if (rc != 0) {
			onyx_session_close(s);
			return -1;
		}
	}
	*out = s;
	return 0;
}

int onyx_session_cmd(struct onyx_session *s, const char *cmd, struct qg_buf *out, char *err,
		     size_t errlen)
{
	struct qg_buf raw = {0};
	int rc = exchange(s, cmd, &raw, err, errlen);
	if (rc == 0) {
		bool error;
		onyx_reply_clean(raw.data ? raw.data : "", raw.len, cmd, out, &error);
		rc = error ? 1 : 0;
	}
	qg_buf_free(&raw);
	return rc;
}

void onyx_session_close(struct onyx_session *s)
{
	if (!s)
		return;
	qg_ssh_shell_close(s->sh);
	free(s);
}
