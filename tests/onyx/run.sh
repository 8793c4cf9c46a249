#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden diff tests on running-configs that others wrote (tests/onyx/real/,
# sources in real/SOURCES.md) and on variants of them (each case says what it
# changed), each against an intent of its own:
#   1. `qosgen diff --running-config` prints exactly expected.out and
#      expected.err and exits expected.exit (a refusal names its line);
#   2. when it proposes commands: the running-config is loaded into the Onyx
#      simulator (its own parser and printer), the proposed commands are
#      applied there (every one must be accepted), the simulator's own
#      running-config is read back, and a second diff must be empty.
# A case: tests/onyx/cases/NAME/ with intent.yaml, running.cfg (or `source`:
# one line naming a file under real/), expected.{out,err,exit}, and README
# (what it tests and where its text came from).
# Usage: run.sh QOSGEN SIM    (QG_UPDATE=1 rewrites the expected files)
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SIM=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $1"
	else
		fail=$((fail + 1))
		echo "FAIL $1"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | head -20 | sed 's/^/    /'
	fi
}

# The lines of a running-config the simulator may take (the rest it does not
# model); prefix-mode indentation and "## " comments dropped.
sim_lines() {
	sed 's/^[ \t]*//; s/\r$//' "$1" | grep -E '^(interface ethernet [^ ]+ .|traffic pool |hostname |dcb priority-flow-control |advanced buffer |pool )'
}

for c in "$here"/cases/*/; do
	name=$(basename "$c")
	rc=$c/running.cfg
	[ -f "$c/source" ] && rc=$here/real/$(cat "$c/source")
	sw=$(sed -n 's/^  - {name: \([^,]*\),.*/\1/p' "$c/intent.yaml" | head -n 1)
	# Relative paths, the intent's too (a warning names it), so the
	# diagnostics read the same on every machine.
	intent=intent.yaml
	[ -f "$c/source" ] && intent=../cases/$name/intent.yaml
	(cd "$(dirname "$rc")" && "$Q" diff "$intent" --switch "$sw" \
		--running-config "$(basename "$rc")" >"$tmp/out" 2>"$tmp/err")
	echo $? >"$tmp/exit"
	if [ "${QG_UPDATE:-0}" = 1 ]; then
		for f in out err exit; do cp "$tmp/$f" "$c/expected.$f"; done
	fi
	ok=0
	for f in out err exit; do
		cmp -s "$tmp/$f" "$c/expected.$f" || ok=1
	done
	check "diff/$name" $ok "$(for f in out err exit; do diff -u "$c/expected.$f" "$tmp/$f"; done)"
	[ "$(cat "$tmp/exit")" -eq 0 ] && [ -s "$tmp/out" ] || continue

	# 2. Converge in the simulator, then nothing left.
	st=$tmp/sim-$name
	{
		echo enable
		echo configure terminal
		sim_lines "$rc"
		echo exit
	} | "$SIM" --state "$st" --ports 64 >/dev/null
	{
		echo enable
		echo configure terminal
		cat "$tmp/out"
		echo exit
		echo show running-config
	} | "$SIM" --state "$st" --ports 64 >"$tmp/sim.out"
	refused=$(grep '^%' "$tmp/sim.out")
	sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' "$tmp/sim.out" >"$tmp/after.cfg"
	"$Q" diff "$c/intent.yaml" --switch "$sw" --running-config "$tmp/after.cfg" --exit-code \
		>"$tmp/d2" 2>&1
	[ $? -eq 0 ] && [ -z "$refused" ]
	check "converge/$name" $? "simulator refused: $refused
second diff: $(cat "$tmp/d2")"
done
echo "$pass onyx real-config checks passed, $fail failed"
[ "$fail" -eq 0 ]
