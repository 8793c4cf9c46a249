#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line as users call it: `qosgen diff` against real running-configs,
# exit codes, help and version. Usage: run.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=$top/../shared
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
cd "$top" || exit 3
rdg=examples/rdg-vsphere.yaml

# The RDG's own switch, as its show running-config prints it: only the MTU differs.
sed -n '/^## Running database/,/^cli default prefix-modes enable/p' \
	"$shared/seeds/000_d0a5270bf41eb4a2.txt" >"$tmp/seed.rc"
[ -s "$tmp/seed.rc" ]
check seed-extracted $? "no running-config found in the seed at $shared/seeds"
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/seed.rc" --exit-code >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(cat "$tmp/out")" = "interface ethernet 1/1-1/32 mtu 9216 force" ] && [ ! -s "$tmp/err" ]
check diff-seed-needs-mtu-only $? "exit $st: $(cat "$tmp/out" "$tmp/err")"

"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/seed.rc" >/dev/null 2>&1
check diff-without-exit-code-is-0 $? "exit $?"

# Apply what diff printed: then nothing is left, and --exit-code says 0.
cat "$tmp/seed.rc" "$tmp/out" >"$tmp/applied.rc"
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/applied.rc" --exit-code >"$tmp/out2" 2>&1
st=$?
[ $st -eq 0 ] && [ ! -s "$tmp/out2" ]
check diff-converged-prints-nothing $? "exit $st: $(cat "$tmp/out2")"

# A switch with none of it (a real running-config from another fabric): all seven lines.
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$shared/fixtures/onyx/onyx_config_config.cfg" >"$tmp/out3" 2>&1
[ "$(wc -l <"$tmp/out3")" -eq 7 ] && grep -qxF "interface ethernet 1/1-1/32 qos trust L3" "$tmp/out3"
check diff-empty-switch-gets-everything $? "$(cat "$tmp/out3")"

"$Q" diff "$rdg" --switch nope --running-config "$tmp/seed.rc" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "no switch named 'nope'" "$tmp/err"
check diff-unknown-switch-exit-2 $? "exit $st: $(cat "$tmp/err")"
"$Q" diff "$rdg" --switch swx-mld-1-2 >/dev/null 2>&1
check diff-needs-readback-exit-2 "$([ $? -eq 2 ]; echo $?)" "expected exit 2"
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/none" >/dev/null 2>&1
check diff-unreadable-exit-3 "$([ $? -eq 3 ]; echo $?)" "expected exit 3"

"$Q" --version | grep -qx 'qosgen [0-9.]*'
check version $? "$("$Q" --version)"
"$Q" help diff | grep -q -- '--running-config FILE'
check help-diff $? "no diff help"
"$Q" frob >/dev/null 2>&1
check unknown-command-exit-2 "$([ $? -eq 2 ]; echo $?)" "expected exit 2"

echo "$pass cli checks passed, $fail failed"
[ "$fail" -eq 0 ]
