#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: compile the bundled reference intent, then drive a simulated
# fabric (scripts/simfabric.sh: Onyx, Cumulus/NVUE and SONiC switches, a
# Linux and an ESXi host, all on 127.0.0.1) as a user would: diff, push,
# diff again in sync, a one-value policy change with its reviewer's diff,
# its push, in sync again. Everything started is stopped at exit, by PID.
# Exit 1 when a step does not end as it should (a push that does not
# converge, a diff that is not in sync): the demo is also a test
# (tests/demo/run.sh).
# Usage: demo.sh [QOSGEN]
set -eu
Q=${1:-build/qosgen}
top=$(cd "$(dirname "$0")/.." && pwd)
intent=examples/rdg-vsphere.yaml
out=demo-out

# say: a command as the user would type it, then its output.
say() { printf '\n$ %s\n' "$*"; }
note() { printf '# %s\n' "$*"; }
die() {
	printf '\ndemo: FAILED: %s\n' "$*" >&2
	exit 1
}
# sections: diff's output with each device's first 4 lines, the rest counted.
sections() {
	awk '/^## / { if (more) printf "   ... %d more lines\n", more; more = 0; n = 0; print; next }
		{ if (++n <= 4) print; else more++ }
		END { if (more) printf "   ... %d more lines\n", more }' "$1" | cut -c1-120
}

echo "== 1. Compile: one intent in, every device's configuration out"
say "$Q build $intent -o $out"
"$Q" build "$intent" -o "$out"
say "find $out -type f | sort"
find "$out" -type f | sort
say "head -n 12 $out/onyx/swx-mld-1-2.cli"
head -n 12 "$out/onyx/swx-mld-1-2.cli"

# The simulated fabric lives in a directory of its own, removed at exit.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qosgen-demo.XXXXXX")
fab=$tmp/fabric
stop() {
	sh "$top/scripts/simfabric.sh" stop "$fab" || true
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo
echo "== 2. A simulated fabric on 127.0.0.1 (scripts/simfabric.sh; 'make sim-start' keeps one for you)"
st=0
QG_BUILD=$(dirname "$Q") sh "$top/scripts/simfabric.sh" start "$fab" >"$tmp/start" 2>&1 || st=$?
sed '/^Next:/,$d' "$tmp/start"
[ "$st" -eq 0 ] || die "the simulated fabric did not start (exit $st)"
# shellcheck disable=SC1091
. "$fab/env"
f=$fab/fabric.yaml
note "the intent: examples/sim-fabric.yaml with each device's port and user"
note "\$SIM: $SIM"

echo
echo "== 3. What differs between the devices and the intent (nothing is changed)"
say "$Q diff $f --all \$SIM --exit-code"
st=0
# shellcheck disable=SC2086
"$Q" diff "$f" --all $SIM --exit-code >"$tmp/out" 2>"$tmp/err" || st=$?
sections "$tmp/out"
cat "$tmp/err"
note "exit $st: 1 is 'differs'"
[ "$st" -eq 1 ] || die "the first diff exited $st, not 1 (differs)"

# push_all: push --all; every device of the intent must say converged.
push_all() {
	say "$Q push $f --all \$SIM"
	st=0
	# shellcheck disable=SC2086
	"$Q" push "$f" --all $SIM >"$tmp/out" 2>"$tmp/err" || st=$?
	cat "$tmp/out" "$tmp/err"
	[ "$st" -eq 0 ] || die "push exited $st: not every device converged"
	for d in leaf-onyx leaf-nvue leaf-sonic gpu-01 esx-01; do
		grep -Eq "^$d +[a-z]+ +(converged|in sync) " "$tmp/err" || die "push: $d did not converge"
	done
}
# in_sync: diff --all --exit-code prints nothing and exits 0.
in_sync() {
	say "$Q diff $f --all \$SIM --exit-code && echo in sync"
	st=0
	# shellcheck disable=SC2086
	"$Q" diff "$f" --all $SIM --exit-code >"$tmp/out" 2>"$tmp/err" || st=$?
	cat "$tmp/out" "$tmp/err"
	if [ "$st" -ne 0 ] || [ -s "$tmp/out" ]; then
		die "diff after the push exited $st: not in sync"
	fi
	echo "in sync"
}

echo
echo "== 4. Push: only what differs; a switch saves a copy first, and rolls back on a failure"
push_all
echo
echo "== 5. Diff again: the devices now hold the intent"
in_sync

echo
echo "== 6. A policy change: raise the lossless class's ECN threshold, review, push"
say "$Q build $f -o $tmp/out.d   # the reviewed output, committed beside the intent"
"$Q" build "$f" -o "$tmp/out.d"
say "sed -i 's/min_kb: 150/min_kb: 300/' $f"
sed -i 's/min_kb: 150/min_kb: 300/' "$f"
grep -q 'min_kb: 300' "$f" || die "the example's ecn.min_kb is not 150"
say "$Q build $f --check -o $tmp/out.d   # the reviewer's diff"
st=0
"$Q" build "$f" --check -o "$tmp/out.d" >"$tmp/out" 2>&1 || st=$?
grep -v '"sha256"\|_sha256\|intent_hash' "$tmp/out" | grep -E '^(---|\+\+\+|[-+][^-+])' | cut -c1-120
note "exit $st: 1 is 'the output would change'; plan.json's hashes change too (not shown)"
if [ "$st" -ne 1 ] || ! grep -q '^+.*300' "$tmp/out"; then
	die "build --check did not show the change (exit $st)"
fi
push_all
grep -q '^leaf-onyx  *onyx  *converged  *[1-9]' "$tmp/err" || die "the change was not sent to leaf-onyx"
in_sync

echo
echo "== Done: the simulated fabric stops; nothing is left running"
trap - EXIT
stop
echo
echo "Next:"
next() { printf '  %-46s # %s\n' "$1" "$2"; }
next "make sim-start" "the same fabric, kept running for your own commands"
next "make sim-stop" "stop it"
next "$Q explain examples/sim-fabric.yaml" "every default and derived value, and why"
next "man ./docs/qosgen.1" "every command; docs/intent.md: the intent file"
