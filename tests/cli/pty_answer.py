#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Run a command on a pseudo-terminal of its own, as a user at a terminal.

Usage: pty_answer.py PROMPT ANSWER COMMAND [ARG...]

The command is a new session whose controlling terminal is the pty, so its
/dev/tty is that pty (what --ask-password opens). When PROMPT has shown on
the terminal, ANSWER and a newline are typed; what the terminal showed is
printed (its CR LF as LF), and the exit status is the command's (124 after
60 s). Typing only after the prompt matters: qosgen turns echo off and
flushes the input before it writes the prompt, so text typed earlier would
be discarded.
"""
import os
import pty
import select
import signal
import sys
import time


def main():
    prompt, answer = sys.argv[1].encode(), sys.argv[2].encode()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[3], sys.argv[3:])
    seen = b""
    answered = False
    deadline = time.monotonic() + 60
    while True:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sys.stdout.buffer.write(seen.replace(b"\r\n", b"\n"))
            return 124
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: the command ended and closed the terminal
            data = b""
        if not data:
            break
        seen += data
        if not answered and prompt in seen:
            os.write(fd, answer + b"\n")
            answered = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    sys.stdout.buffer.write(seen.replace(b"\r\n", b"\n"))
    return os.waitstatus_to_exitcode(status)


sys.exit(main())
