#!/bin/sh
# SPDX-License-Identifier: MIT
# ForceCommand of the test sshd for host pushes: run what the client asked
# for with the fake device tools first in PATH and their state in QG_STATE,
# so the generated scripts run for real without touching this machine.
# Usage (from sshd_config): fakehost.sh STATE_DIR FAKE_DIR
#
# Hostile devices (issue 18), when the state says so:
#  - STATE/hostile.out or hostile.err: a host whose session prints exactly
#    those bytes (to stdout, to stderr) whatever it was sent, and exits with
#    STATE/hostile.rc (default 2);
#  - STATE/hostile.switch: an interactive session (no command, as an Onyx CLI
#    is opened) is a switch prompt whose every answer is that file's line, an
#    Onyx error ('%' first) with terminal escape sequences in it.
QG_STATE=$1
PATH=$2:$PATH
# What a push installs, and the scripts' lock, land under STATE/root: the
# scripts honour QG_ROOT (the installed unit and udev rule never set it).
QG_ROOT=$QG_STATE/root
mkdir -p "$QG_ROOT/run"
export QG_STATE PATH QG_ROOT
if [ -z "${SSH_ORIGINAL_COMMAND:-}" ] && [ -f "$QG_STATE/hostile.switch" ]; then
	prompt='hostile [standalone: master] > '
	printf '%s' "$prompt"
	while IFS= read -r _; do
		cat "$QG_STATE/hostile.switch"
		printf '%s' "$prompt"
	done
	exit 0
fi
if [ -f "$QG_STATE/hostile.out" ] || [ -f "$QG_STATE/hostile.err" ]; then
	cat >/dev/null
	cat "$QG_STATE/hostile.out" 2>/dev/null
	cat "$QG_STATE/hostile.err" >&2 2>/dev/null
	exit "$(cat "$QG_STATE/hostile.rc" 2>/dev/null || echo 2)"
fi
exec sh -c "$SSH_ORIGINAL_COMMAND"
