#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the suites of the manifest, tests/suites.tsv (one row each: its name,
# tier, the QG_ONLY kinds that select it, what it needs, what it cannot
# share, its expected seconds, its command), against the build in $1
# (default: build) and its ASan+UBSan build $1/asan, then a short fuzz run,
# then the soft-RoCE VM alone. Independent suites run at once, QG_JOBS of them
# (default: twice the cores, since much of a suite's time is waiting on sshd
# and simulator round trips), longest first; each suite's output prints whole
# when it ends. One line per suite, ending in its time: wall-clock seconds
# and the CPU seconds (user + system) of its processes (on a shared machine
# the CPU figure is the steadier one); then the time per tier, and, last,
# "N passed, N failed, N skipped". The only suite that may be skipped is
# sonic/yang, where SONiC's YANG models are not here (tests/sonic/models.sh):
# one SKIP line says what was not checked.
# QG_ONLY="KIND|NAME ..." runs the rows of those kinds (the table's kinds
# column: unit, manifest, skeleton, golden, schema, sonic, sonic-sim, scripts,
# cli, onyx, e2e, ansible, handoff, demo, readme, asan, fuzz, vm and shellcheck)
# or of those names (e2e/sonic), against $1 only. QG_SUITES=FILE reads
# another table (tests/core/manifest.sh's fake suites).
set -u
BUILD=${1:-build}
ONLY=${QG_ONLY:-}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 3
# SONiC's YANG models, found once and exported for every suite (and the copies
# of the tree that some make): $SONIC_YANG_DIR, or none.
# shellcheck source=tests/sonic/models.sh
. tests/sonic/models.sh
passed=0
failed=0
skipped=0
failures=""
work=$(mktemp -d) || exit 3
trap 'rm -rf "$work"' EXIT

# The clock: wall seconds, and the children's user + system CPU time in
# centiseconds from the shell's own `times` (in this shell, not a subshell,
# whose counts start at zero). A suite's time is what passed since the line
# before it. Each suite runs in a subshell of its own, so that the CPU time
# of one is never counted in another's lines (a shell adds a child's time
# when it reaps it, whenever that is).
clock_file=$work/clock
clock() {
	now=$(date +%s)
	times >"$clock_file"
	cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t * 100 }' "$clock_file")
}
clock
mark=$now
mark_cpu=$cpu
started=$now
secs() { printf '%d.%d' $(($1 / 100)) $(($1 % 100 / 10)); } # centiseconds as seconds
took() { # sets took to the time since the last line, for the end of this one
	clock
	took="[$((now - mark)) s, cpu $(secs $((cpu - mark_cpu))) s]"
	mark=$now
	mark_cpu=$cpu
}

record() { # NAME STATUS(0=pass) DETAIL
	took
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		printf 'PASS %s%s %s\n' "$1" "${3:+ ($3)}" "$took"
	else
		failed=$((failed + 1))
		failures="$failures $1"
		printf 'FAIL %s%s %s\n' "$1" "${3:+ ($3)}" "$took"
	fi
}

skip() { # NAME WHAT-WAS-NOT-CHECKED-AND-WHY
	skipped=$((skipped + 1))
	took
	printf 'SKIP %s (%s) %s\n' "$1" "$2" "$took"
}

# --- The runners: a row's command is a shell command, judged by run_script,
# or one of these, which print their own lines.

# run_script NAME DETAIL COMMAND: COMMAND's exit status judges it, its last
# line is the detail, with the lines the row's sed script DETAIL makes of its
# output after it. A failure prints its FAIL lines with what follows them and
# its indented lines (or, if it printed none, its last lines).
run_script() {
	out=$(eval "$3" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ]; then
		why=$(printf '%s\n' "$out" | grep -E -A4 '^(FAIL|    )' | grep -v '^--$' | head -n 60)
		[ -n "$why" ] || why=$(printf '%s\n' "$out" | tail -n 20)
		printf '%s\n' "$why" | cut -c1-300 | sed 's/^/    /'
	fi
	detail=$(printf '%s\n' "$out" | tail -n 1)
	if [ "$2" != - ]; then
		extra=$(printf '%s\n' "$out" | sed -n "$2" | tr -s ' ' | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
		[ -z "$extra" ] || detail="$detail; $extra"
	fi
	record "$1" "$rc" "$detail"
}

# cmocka binaries: each prints its own per-test lines; we count tests.
run_unit() { # BUILD LABEL
	for t in "$1"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		out=$("$t" 2>&1)
		rc=$?
		ok=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p')
		printf '%s\n' "$out" | grep -E '^\[  (FAILED|  ERROR)' | sed 's/^/    /'
		record "$2unit/$name" "$rc" "${ok:-0} tests"
	done
}

# The e2e cmocka binaries against a real sshd on 127.0.0.1 (tests/e2e/run.sh
# starts it and stops it by PID): their tests, counted.
run_cmocka() { # NAME BUILD
	out=$(sh tests/e2e/run.sh "$2" 2>&1)
	rc=$?
	ok=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
	printf '%s\n' "$out" | grep -E '^(FAIL|\[  (FAILED|  ERROR))' | sed 's/^/    /'
	record "$1" "$rc" "${ok:-0} tests against a real sshd"
}

# Real kernel soft-RoCE in a QEMU VM (tests/vm/run.sh): qosgen push to two
# hosts over SSH, qosgen verify between them (and its negative cases), the
# ToS seen on the wire, perftest interop. Every check and the evidence print.
run_vm() {
	out=$(sh tests/vm/run.sh "$BUILD" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|RESULT|TCPDUMP verify|VERIFY verify-ok|INFO (verify|sshd)|BENCH)' |
		head -60 | sed 's/^/    /'
	# The failed checks again, just above the suite's line (the part a short log keeps).
	printf '%s\n' "$out" | grep '^FAILED ' | head -20 | sed 's/^/    /'
	timing=$(printf '%s\n' "$out" | sed -n 's/^TIMING: //p')
	record vm/soft-roce "$rc" "$(printf '%s\n' "$out" | tail -n 1); $timing"
}

# One tests/fuzz/fuzz_NAME.c (its row's each), over its seeds
# tests/fuzz/corpus-NAME/ (and tests/fuzz/NAME.dict when there is one);
# NAME's underscores become dashes. The seed is fixed (QG_FUZZ_SEED, default
# 1) so that a red run can be replayed and a commit that passed does not fail
# on the next run by chance; `make fuzz` is the long, random-seeded run. A
# failing input is kept in $BUILD/fuzz/ and printed in base64 with the
# oracle's own message.
run_fuzz() { # TARGET
	secs=${QG_FUZZ_SECONDS:-20}
	seed=${QG_FUZZ_SEED:-1}
	target=$1
	name=$(printf '%s' "${target#fuzz_}" | tr _ -)
	f=$BUILD/fuzz/$target
	if [ ! -x "$f" ]; then
		record "fuzz/$target" 1 "$f not built: run 'make fuzz-build' (needs clang)"
		return
	fi
	seeds=tests/fuzz/corpus-$name
	dict=
	[ -f "tests/fuzz/$name.dict" ] && dict=-dict=tests/fuzz/$name.dict
	corpus=$(mktemp -d)
	# shellcheck disable=SC2086
	out=$("$f" -seed="$seed" -max_total_time="$secs" -max_len=8192 \
		-artifact_prefix="$BUILD/fuzz/$name-" $dict "$corpus" "$seeds" 2>&1)
	rc=$?
	rm -rf "$corpus"
	execs=$(printf '%s\n' "$out" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p' | tail -n 1)
	if [ "$rc" -ne 0 ]; then
		# The oracle's words come before the sanitizer's stack; then the input.
		printf '%s\n' "$out" | grep -v '^ *#[0-9]' | grep -v '^INFO:\|^#[0-9]' |
			head -n 20 | sed 's/^/    /'
		unit=$(printf '%s\n' "$out" | sed -n 's/.*Test unit written to \(.*\)$/\1/p' | tail -n 1)
		if [ -n "$unit" ] && [ -f "$unit" ]; then
			echo "    input ($unit, replay: $f $unit), base64:"
			base64 -w 76 "$unit" | head -n 40 | sed 's/^/    /'
		fi
	fi
	record "fuzz/$target" "$rc" "${execs:-0} executions, $secs s, seed $seed"
}

# --- The manifest: the rows QG_ONLY selects, each a job j_*_N.
tab=$(printf '\t')
jobs=0
tiers=""
yang_skip=""
asan_missing=""
matched=" "
# selected NAME KINDS: whether QG_ONLY (empty: everything) asks for the row.
selected() {
	[ -z "$ONLY" ] && return 0
	hit=1
	for want in $ONLY; do
		case "$1 ,$2," in
		"$want "* | *",$want,"*)
			matched="$matched$want "
			hit=0
			;;
		esac
	done
	return $hit
}
# add_job NAME TIER EXCL WEIGHT DETAIL COMMAND
add_job() {
	jobs=$((jobs + 1))
	eval "j_name_$jobs=\$1 j_tier_$jobs=\$2 j_excl_$jobs=\$3 j_weight_$jobs=\$4 j_detail_$jobs=\$5 j_cmd_$jobs=\$6"
	case " $tiers " in *" $2 "*) ;; *) tiers="$tiers $2" ;; esac
}
while IFS=$tab read -r name tier kinds needs excl weight each detail cmd; do
	case $name in '' | '#'*) continue ;; esac
	selected "$name" "$kinds" || continue
	case ,$needs, in *,yang,* | *,yang\?,*) [ -n "$SONIC_YANG_DIR" ] || yang_skip=1 ;; esac
	case ,$needs, in *,yang,*) [ -n "$SONIC_YANG_DIR" ] || continue ;; esac
	case ,$needs, in *,asan,*) [ -x "$BUILD/asan/qosgen" ] || {
		asan_missing=1
		continue
	} ;;
	esac
	if [ "$each" = - ]; then
		add_job "$name" "$tier" "$excl" "$weight" "$detail" "$cmd"
		continue
	fi
	# shellcheck disable=SC2086
	for f in $each; do
		[ -e "$f" ] || continue
		stem=$(basename "$f")
		stem=${stem%.*}
		add_job "${name%%\**}$stem${name#*\*}" "$tier" "$excl" "$weight" "$detail" \
			"${cmd%%\**}$stem${cmd#*\*}"
	done
done <"${QG_SUITES:-tests/suites.tsv}"
for want in $ONLY; do
	case $matched in *" $want "*) ;; *)
		record "QG_ONLY=$want" 1 "no such kind or suite (see tests/suites.tsv)"
		;;
	esac
done
# Without SONiC's YANG models one SKIP line, once a run, says what was not
# checked and why: sonic/yang (the golden cases' config_db JSON against the
# models, and broken copies that yanglint must refuse: issue 14), and the
# simulator's validation of the patches it takes (sim/sonic-selftest says how
# many of its checks needed it; no other suite asserts on it).
[ -z "$yang_skip" ] ||
	skip "sonic/yang" "not checked against SONiC's YANG models: the golden cases' config_db JSON and its broken copies, and the patches the SONiC simulator takes; $qg_yang_why"
[ -z "$asan_missing" ] || record asan 1 "$BUILD/asan not built: 'make test' builds it"

# --- The scheduler. A job runs in a subshell of its own, with its own clock
# and counts, its output in $work/N.out; it ends by writing $work/N.tally
# (its counts, its failures, its wall and CPU time). This shell starts jobs
# while a slot is free, longest (weight) first, never two that name one word
# of excl at once; polls for tallies; prints each ended job's output whole and
# adds its counts. Rows whose excl is "alone" run after all others, one at a
# time, with the machine to themselves (the VM: its verify judges bandwidth).
slots=${QG_JOBS:-}
[ -n "$slots" ] || [ "${QG_LANES:-}" != 1 ] || slots=1
[ -n "$slots" ] || slots=$(($(nproc 2>/dev/null || echo 1) * 2))
case $slots in '' | *[!0-9]* | 0)
	echo "QG_JOBS=$slots: not a number of jobs" >&2
	exit 2
	;;
esac
job_main() { # N: the job, in its subshell
	clock_file=$work/$1.clock
	passed=0
	failed=0
	skipped=0
	failures=""
	clock
	mark=$now
	mark_cpu=$cpu
	t0=$now
	c0=$cpu
	eval "name=\$j_name_$1 detail=\$j_detail_$1 cmd=\$j_cmd_$1"
	case $cmd in
	run_unit* | run_cmocka* | run_fuzz* | run_vm*) eval "$cmd" ;;
	*) run_script "$name" "$detail" "$cmd" ;;
	esac
	clock
	printf '%s %s %s %s %s\n%s\n' "$passed" "$failed" "$skipped" $((now - t0)) $((cpu - c0)) \
		"$failures" >"$work/$1.tmp"
	mv "$work/$1.tmp" "$work/$1.tally"
}
running=""
nrun=0
held=" "
start_job() { # N
	(job_main "$1") >"$work/$1.out" 2>&1 &
	eval "j_pid_$1=\$!"
	running="$running $1"
	nrun=$((nrun + 1))
	eval "excl=\$j_excl_$1"
	[ "$excl" = - ] || held="$held$(printf '%s' "$excl" | tr , ' ') "
}
free() { # N: none of its excl words held
	eval "excl=\$j_excl_$1"
	[ "$excl" = - ] && return 0
	for r in $(printf '%s' "$excl" | tr , ' '); do
		case $held in *" $r "*) return 1 ;; esac
	done
}
collect() { # N: print an ended job, add its counts and times
	eval "wait \$j_pid_$1"
	eval "excl=\$j_excl_$1 tier=\$j_tier_$1"
	cat "$work/$1.out"
	{
		read -r p f s w c
		IFS= read -r fl
	} <"$work/$1.tally"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	failures="$failures$fl"
	eval "tw_$tier=\$((\${tw_$tier:-0} + w)) tc_$tier=\$((\${tc_$tier:-0} + c)) tn_$tier=\$((\${tn_$tier:-0} + p + f + s))"
	rest=""
	for j in $running; do [ "$j" = "$1" ] || rest="$rest $j"; done
	running=$rest
	nrun=$((nrun - 1))
	for r in $(printf '%s' "$excl" | tr , ' '); do held=$(printf '%s' "$held" | sed "s/ $r / /g"); done
}
# The jobs by weight, heaviest first; the table's order among equals.
order=$(i=1; while [ $i -le $jobs ]; do
	eval "printf '%s %s\n' \"\$j_weight_$i\" $i"
	i=$((i + 1))
done | sort -s -k1,1nr | cut -d' ' -f2)
pending=""
alone=""
for n in $order; do
	eval "excl=\$j_excl_$n"
	case ,$excl, in *,alone,*) alone="$alone $n" ;; *) pending="$pending $n" ;; esac
done
schedule() { # SLOTS: run $pending to the end
	while [ -n "$pending" ] || [ "$nrun" -gt 0 ]; do
		rest=""
		for n in $pending; do
			if [ "$nrun" -lt "$1" ] && free "$n"; then
				start_job "$n"
			else
				rest="$rest $n"
			fi
		done
		pending=$rest
		ended=""
		for n in $running; do
			[ -f "$work/$n.tally" ] || continue
			collect "$n"
			ended=1
		done
		[ -n "$ended" ] || sleep 0.2
	done
}
schedule "$slots"
for n in $alone; do
	pending=$n
	schedule 1
done

# The time per tier: its suites' wall and CPU seconds, summed (they ran at
# once, so the wall figures add to more than the run took).
clock
elapsed=$((now - started))
for t in $tiers; do
	k=0
	eval "w=\${tw_$t:-0} c=\${tc_$t:-0} k=\${tn_$t:-0}"
	printf 'TIME %-7s %4d s, cpu %s s (%d suites)\n' "$t" "$w" "$(secs "$c")" "$k"
done
printf 'TIME all     %4d s elapsed, %d at once\n' "$elapsed" "$slots"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
