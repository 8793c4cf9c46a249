#!/bin/sh
# SPDX-License-Identifier: MIT
# The test manifest and its scheduler (issue 38): tests/run.sh, run on a table
# of fake suites (QG_SUITES) that sleep and log when they start and end,
# runs them at once up to QG_JOBS, longest first, never two that share an
# excl word together, an "alone" row after all others with nothing beside it;
# prints each suite's output whole, its line with its time, a failure's FAIL
# lines, the time per tier, and the closing counts. And the real table: every
# suite script under tests/ that run.sh should run has a row, every row's
# script exists, and every kind QG_ONLY is documented to take selects a row.
# Prints "ok"/"bad" lines and one summary; exit 1 on a finding.
set -u
cd "$(dirname "$0")/../.." || exit 3
# Run by run.sh itself (QG_ONLY=unit, make unit): its settings are not this test's.
unset QG_ONLY QG_JOBS QG_LANES QG_SUITES
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok $1"
}
bad() {
	fail=$((fail + 1))
	echo "FAIL $1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | head -20 | sed 's/^/    /'
}
check() { # NAME STATUS WHY
	if [ "$2" -eq 0 ]; then ok "$1"; else bad "$1" "$3"; fi
}

# A fake suite: logs its start and end (seconds since the epoch, with
# nanoseconds) in $tmp/log, prints lines with a pause between them (a
# scheduler that let two suites write at once would interleave them), exits
# with STATUS; run.sh prints a failed suite's indented and FAIL lines.
cat >"$tmp/fake.sh" <<'EOF'
#!/bin/sh
# fake.sh LOG NAME SECONDS STATUS
echo "start $2 $(date +%s.%N)" >>"$1"
echo "    $2: evidence 1"
sleep "$3"
echo "    $2: evidence 2"
[ "$4" -eq 0 ] || echo "FAIL $2: the reason"
echo "end $2 $(date +%s.%N)" >>"$1"
echo "$2: 1 check, $4 failed"
exit "$4"
EOF
t=$(printf '\t')
row() { # NAME TIER KINDS EXCL WEIGHT SECONDS STATUS
	printf '%s\n' "$1${t}$2${t}$3${t}-${t}$4${t}$5${t}-${t}-${t}sh $tmp/fake.sh $tmp/log $1 $6 $7"
}
{
	echo "# a comment"
	row a/long tA k1 - 9 3 1
	row b/lock1 tA k1 lk 5 2 1
	row c/lock2 tB k2 lk 4 1 0
	row d/short tB k2 - 1 0.5 0
	row e/alone tC k3 alone 50 0.5 0
	row f/short tB k2 - 2 1 0
} >"$tmp/suites.tsv"

QG_SUITES=$tmp/suites.tsv QG_JOBS=3 sh tests/run.sh build >"$tmp/out" 2>&1
st=$?
out=$(cat "$tmp/out")
[ $st -eq 1 ] && [ "$(tail -n 1 "$tmp/out")" = "4 passed, 2 failed, 0 skipped" ] &&
	grep -Eqx 'failed: (a/long b/lock1|b/lock1 a/long)' "$tmp/out"
check "closing counts and exit status" $? "exit $st: $out"
grep -Eqx 'PASS d/short \(d/short: 1 check, 0 failed\) \[[0-9]+ s, cpu [0-9]+\.[0-9] s\]' "$tmp/out" &&
	grep -Eqx 'FAIL a/long \(a/long: 1 check, 1 failed\) \[[0-9]+ s, cpu [0-9]+\.[0-9] s\]' "$tmp/out" &&
	grep -qx '    FAIL a/long: the reason' "$tmp/out" && ! grep -q 'd/short: evidence' "$tmp/out"
check "suite lines: PASS/FAIL name (last line) [N s, cpu N s]; a failure's FAIL lines" $? "$out"
grep -Eq '^TIME tA +[0-9]+ s, cpu [0-9.]+ s \(2 suites\)$' "$tmp/out" &&
	grep -Eq '^TIME tB +[0-9]+ s, cpu [0-9.]+ s \(3 suites\)$' "$tmp/out" &&
	grep -Eq '^TIME all +[0-9]+ s elapsed, 3 at once$' "$tmp/out"
check "the time per tier" $? "$out"

# When each ran: start and end times by name. The sleeps (a second or more
# where an order is checked) leave room for a slow start on a loaded machine.
at() { awk -v e="$1" -v n="$2" '$1 == e && $2 == n { print $3 }' "$tmp/log"; }
before() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
# Longest first: the first three to start are a, b and f (c waits for b's
# lock, so f, the next by weight, takes the third slot; then d after it).
first=$(sort -k3,3n "$tmp/log" | awk '$1 == "start" { print $2 }' | head -n 3 | sort | tr '\n' ' ')
[ "$first" = "a/long b/lock1 f/short " ]
check "longest first, at most QG_JOBS at once (first three: $first)" $? "$(cat "$tmp/log")"
# At once: a ran while b ran.
before "$(at start b/lock1)" "$(at end a/long)" && before "$(at start a/long)" "$(at end b/lock1)"
check "independent suites at once" $? "$(cat "$tmp/log")"
# Never together: c starts after b ends.
before "$(at end b/lock1)" "$(at start c/lock2)"
check "two rows with one excl word never at once" $? "$(cat "$tmp/log")"
# Alone: e, the heaviest, starts after every other ended.
last=0
for n in a/long b/lock1 c/lock2 d/short f/short; do
	e=$(at end "$n")
	before "$e" "$last" || last=$e
done
before "$last" "$(at start e/alone)"
check "an alone row after all others" $? "$(cat "$tmp/log")"
# Whole: a and b failed while both ran; each one's lines together, then its line.
whole=0
for n in a/long b/lock1; do
	grep -A4 -x "        $n: evidence 1" "$tmp/out" | tr '\n' '|' |
		grep -Eq "^        $n: evidence 1\|        $n: evidence 2\|    FAIL $n: the reason\|    $n: 1 check, 1 failed\|FAIL $n " ||
		whole=1
done
check "a failed suite's output whole, then its line" $whole "$out"

# QG_ONLY: a kind, a name, an unknown word.
QG_SUITES=$tmp/suites.tsv QG_ONLY='k2 e/alone nosuch' sh tests/run.sh build >"$tmp/only" 2>&1
[ "$(grep -Ec '^(PASS|FAIL) ' "$tmp/only")" -eq 5 ] && ! grep -q 'a/long\|b/lock1' "$tmp/only" &&
	grep -q '^FAIL QG_ONLY=nosuch (no such kind or suite' "$tmp/only" &&
	[ "$(tail -n 1 "$tmp/only")" = "4 passed, 1 failed, 0 skipped" ]
check "QG_ONLY by kind and by name; an unknown one fails" $? "$(cat "$tmp/only")"

# The real table.
real=tests/suites.tsv
rows=$(grep -v '^#' "$real" | grep -c .)
short=$(grep -v '^#' "$real" | awk -F '\t' 'NF != 9 { print NR ": " $0 }')
[ -z "$short" ]
check "tests/suites.tsv: $rows rows of 9 tab-separated columns" $? "$short"
# Every suite script has a row: each run.sh under tests/ (but this harness's
# own and the fresh root's, which runs all of it), each tests/e2e/*.sh that
# is a suite (not a helper), each simulator self-test.
missing=""
for s in tests/*/run.sh tests/e2e/*.sh tests/sim/*selftest.sh tests/core/*.sh tests/scripts/*.sh tests/sonic/validate.sh; do
	case $s in
	tests/fresh/run.sh | tests/e2e/lib.sh | tests/e2e/sshd.sh | tests/e2e/fakehost.sh) continue ;;
	tests/vm/run.sh) grep -q 'run_vm$' "$real" && continue ;;
	tests/e2e/run.sh) grep -q 'run_cmocka' "$real" && continue ;;
	esac
	grep -q " $s\( \|$\)" "$real" || missing="$missing $s"
done
[ -z "$missing" ]
check "every suite script has a row" $? "no row runs:$missing"
gone=""
for s in $(grep -v '^#' "$real" | cut -f9 | grep -o 'tests/[a-z_/]*\.sh'); do
	[ -f "$s" ] || gone="$gone $s"
done
[ -z "$gone" ]
check "every row's script exists" $? "missing:$gone"
# The kinds the docs, CI and tests/core/skeleton.sh give QG_ONLY, each selecting a row.
none=""
for k in unit skeleton golden schema sonic sonic-sim scripts shellcheck cli onyx e2e ansible \
	handoff demo readme asan fuzz vm manifest; do
	grep -v '^#' "$real" | cut -f3 | tr ',' '\n' | grep -qx "$k" || none="$none $k"
done
[ -z "$none" ]
check "every QG_ONLY kind selects a row" $? "no row for:$none"

echo "manifest: $pass checks passed, $fail failed"
[ "$fail" -eq 0 ]
