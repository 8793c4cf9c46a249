#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every test suite against the build in $1 (default: build), then the
# same suites against the ASan+UBSan build in $1/asan, then a short fuzz run.
# Prints one line per suite, ending in its time: wall-clock seconds and the
# CPU seconds (user + system) of its processes (on a shared machine the CPU
# figure is the steadier one), and, last, "N passed, N failed, N skipped". The
# only suite that may be skipped is sonic/yang, where SONiC's YANG models are
# not here (tests/sonic/models.sh): one SKIP line says what was not checked.
# QG_ONLY=unit|skeleton|golden|schema|sonic|sonic-sim|scripts|shellcheck|cli|onyx|e2e|ansible|handoff|vm|demo|readme|fuzz
# runs those kinds only (several: space-separated), against $1 only.
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

# The clock: wall seconds, and the children's user + system CPU time in
# centiseconds from the shell's own `times` (in this shell, not a subshell,
# whose counts start at zero). A suite's time is what passed since the line
# before it.
clock_file=$(mktemp) || exit 3
trap 'rm -f "$clock_file"' EXIT
clock() {
	now=$(date +%s)
	times >"$clock_file"
	cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t * 100 }' "$clock_file")
}
clock
mark=$now
mark_cpu=$cpu
took() { # sets took to the time since the last line, for the end of this one
	clock
	took=$(printf '[%d s, cpu %d.%d s]' $((now - mark)) $(((cpu - mark_cpu) / 100)) $(((cpu - mark_cpu) % 100 / 10)))
	mark=$now
	mark_cpu=$cpu
}

record() { # NAME STATUS(0=pass) DETAIL
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		took
		printf 'PASS %s%s %s\n' "$1" "${3:+ ($3)}" "$took"
	else
		failed=$((failed + 1))
		failures="$failures $1"
		took
		printf 'FAIL %s%s %s\n' "$1" "${3:+ ($3)}" "$took"
	fi
}

skip() { # NAME WHAT-WAS-NOT-CHECKED-AND-WHY
	skipped=$((skipped + 1))
	took
	printf 'SKIP %s (%s) %s\n' "$1" "$2" "$took"
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

# The core's boundary (issue 13): gen/ includes no target header.
run_layers() {
	out=$(sh tests/core/layers.sh 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" | sed 's/^/    /'
	record "core/layers" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Issue 39: the repository stands alone (tests/core/standalone.sh).
run_standalone() {
	out=$(sh tests/core/standalone.sh 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" | head -20 | sed 's/^/    /'
	record "core/standalone" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Issue 26: a copy of the tree with a skeleton target added (its folder and
# one registry line, nothing else) builds and passes unit, layers and golden,
# and the skeleton is told of every intent feature it lacks. Once, not under ASan.
run_skeleton() { # BUILD
	out=$(sh tests/core/skeleton.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^FAIL' | head -20 | sed 's/^/    /'
	record "core/skeleton" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

run_golden() { # QOSGEN LABEL
	out=$(sh tests/golden/run.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|  )' | head -60
	summary=$(printf '%s\n' "$out" | tail -n 1)
	record "$2golden" "$rc" "$summary"
}

# The intent's JSON Schema (issue 26): docs/intent.schema.json and the man
# page's key list as the key table gives them; every example and golden intent
# valid under it (python3-jsonschema), the schema error goldens refused.
run_schema() { # BUILD
	out=$(sh tests/schema/run.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40 | sed 's/^/    /'
	record "schema" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# The golden cases' sonic/*.json against SONiC's own YANG models (yanglint),
# and broken copies that yanglint must refuse (issue 14).
# Without the models (SONiC's code, not carried here: docs/testing.md) one
# SKIP line, once a run, says what was not checked and why: this suite, and
# the simulator's validation of the patches it takes (sim/sonic-selftest
# says how many of its checks needed it; no other suite asserts on it).
skip_models() {
	[ -z "$SONIC_YANG_DIR" ] || return 1
	[ -n "${models_skipped:-}" ] && return 0
	models_skipped=1
	skip "sonic/yang" "not checked against SONiC's YANG models: the golden cases' config_db JSON and its broken copies, and the patches the SONiC simulator takes; $qg_yang_why"
}
run_sonic() { # QOSGEN
	out=$(sh tests/sonic/validate.sh "$1" 2>&1)
	rc=$?
	if [ "$rc" -eq 77 ]; then
		skip_models && return
		rc=1 # validate.sh skipped where this harness found models
	fi
	printf '%s\n' "$out" | grep -E '^FAIL' | head -40 | sed 's/^/    /'
	record "sonic/yang" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

run_scripts() { # QOSGEN LABEL
	out=$(sh tests/scripts/run.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|  )' | head -60
	record "$2scripts" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Runs shellcheck on the repository's scripts and every generated one (issue 17).
run_shellcheck() { # QOSGEN
	out=$(sh tests/scripts/shellcheck.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -60
	record "shellcheck" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

run_cli() { # QOSGEN LABEL
	out=$(sh tests/cli/run.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|  )' | head -60
	record "$2cli" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Running-configs others wrote (tests/onyx/real/) and variants: golden diffs,
# then convergence in the Onyx simulator; and the simulator's own self-test.
run_onyx() { # BUILD LABEL
	out=$(sh tests/onyx/run.sh "$1/qosgen" "$1/tests/onyx-sim" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -60
	record "$2onyx/real-configs" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	[ -n "$2" ] && return
	out=$(sh tests/sim/selftest.sh "$1/tests/onyx-sim" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	record "sim/selftest" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	# The NVUE simulator, driven by the curl lines of NVIDIA's NVUE API pages.
	out=$(sh tests/sim/nvue_selftest.sh 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^FAIL' | head -40 | sed 's/^/    /'
	record "sim/nvue-selftest" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	run_sonic_sim
}

# The SONiC simulator behind a real sshd, driven by the OpenSSH client and jsondiff.
run_sonic_sim() {
	skip_models
	out=$(sh tests/sim/sonic_selftest.sh 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^FAIL' | head -40 | sed 's/^/    /'
	record "sim/sonic-selftest" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Real sshd on 127.0.0.1: the harness starts it and stops it by PID.
run_e2e() { # BUILD LABEL
	out=$(sh tests/e2e/run.sh "$1" 2>&1)
	rc=$?
	ok=$(printf '%s\n' "$out" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
	printf '%s\n' "$out" | grep -E '^(FAIL|\[  (FAILED|  ERROR))' | sed 's/^/    /'
	record "$2e2e/ssh" "$rc" "${ok:-0} tests against a real sshd"
	out=$(sh tests/e2e/push.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	sweep=$(printf '%s\n' "$out" | grep '^fault sweep:')
	record "$2e2e/push" "$rc" "$(printf '%s\n' "$out" | tail -n 1); $sweep"
	out=$(sh tests/e2e/converge.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	sweep=$(printf '%s\n' "$out" | grep '^fault sweep')
	record "$2e2e/converge" "$rc" "$(printf '%s\n' "$out" | tail -n 1); $sweep"
	# Issue 23: intent A then B on the Onyx simulator equals B on a factory switch.
	out=$(sh tests/e2e/onyx_history.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	record "$2e2e/onyx-history" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	out=$(sh tests/e2e/hostpush.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	record "$2e2e/hostpush" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	out=$(sh tests/e2e/host_history.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	record "$2e2e/host-history" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	out=$(QG_VCSIM_DIR="$PWD/build/vcsim" sh tests/e2e/vsphere.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep '^FAIL' | head -10 | sed 's/^/    /'
	record "$2e2e/vsphere" "$rc" "$(printf '%s\n' "$out" | tail -n 1); $(printf '%s\n' "$out" | sed -n 's/^timing: //p')"
	out=$(sh tests/e2e/nvue.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -A2 '^FAIL' | head -40 | sed 's/^/    /'
	record "$2e2e/nvue" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	out=$(sh tests/e2e/nvue_history.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -A4 '^FAIL' | head -40 | cut -c1-300 | sed 's/^/    /'
	record "$2e2e/nvue-history" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
	out=$(sh tests/e2e/sonic.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -A2 '^FAIL' | head -40 | sed 's/^/    /'
	sweep=$(printf '%s\n' "$out" | grep '^fault sweep:')
	record "$2e2e/sonic" "$rc" "$(printf '%s\n' "$out" | tail -n 1); $sweep"
	out=$(sh tests/e2e/sonic_history.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -A2 '^FAIL' | head -40 | sed 's/^/    /'
	record "$2e2e/sonic-history" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# A client no one here wrote: Ansible's mellanox.onyx modules against the simulator.
run_ansible() { # BUILD
	out=$(sh tests/e2e/ansible.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	recap=$(printf '%s\n' "$out" | sed -n 's/^ansible: sw1 *: //p' | tr -s ' ')
	record "e2e/ansible" "$rc" "$(printf '%s\n' "$out" | tail -n 1); second run: $recap"
}

# The Ansible hand-off (issue 15): the generated ansible/site.yml and
# inventory.yml, run by Debian's ansible-playbook against the Onyx simulator
# and fake hosts behind test sshds (the shellcheck suite checks the script).
run_handoff() { # BUILD
	out=$(sh tests/e2e/handoff.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -40
	second=$(printf '%s\n' "$out" | sed -n 's/^handoff second run: //p' | tr -s ' ')
	record "e2e/handoff" "$rc" "$(printf '%s\n' "$out" | tail -n 1); second run: $second"
}

# `make demo` and `make sim-start`/`sim-stop` (issue 25): the demo's pushes
# converge on the simulated fabric, nothing is left running; once, not under ASan.
run_demo() { # BUILD
	out=$(sh tests/demo/run.sh "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -A3 '^FAIL' | head -40 | cut -c1-300 | sed 's/^/    /'
	record "demo" "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
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

# Every command of the README's sh blocks, run in a scratch copy of the
# checkout, with what its output blocks say they print (issue 25). Once, in
# the normal pass: it tests the README, not the build.
run_readme() {
	out=$(sh tests/readme/run.sh "$BUILD" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -60 | sed 's/^/    /'
	record readme "$rc" "$(printf '%s\n' "$out" | tail -n 1)"
}

# Every tests/fuzz/fuzz_NAME.c, over its seeds tests/fuzz/corpus-NAME/ (and
# tests/fuzz/NAME.dict when there is one); NAME's underscores become dashes.
# The seed is fixed (QG_FUZZ_SEED, default 1) so that a red run can be
# replayed and a commit that passed does not fail on the next run by chance;
# `make fuzz` is the long, random-seeded run. A failing input is kept in
# $BUILD/fuzz/ and printed in base64 with the oracle's own message.
run_fuzz() {
	secs=${QG_FUZZ_SECONDS:-20}
	seed=${QG_FUZZ_SEED:-1}
	for src in tests/fuzz/fuzz_*.c; do
		target=$(basename "$src" .c)
		name=$(printf '%s' "${target#fuzz_}" | tr _ -)
		f=$BUILD/fuzz/$target
		if [ ! -x "$f" ]; then
			record "fuzz/$target" 1 "$f not built: run 'make fuzz-build' (needs clang)"
			continue
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
	done
}

for kind in $ONLY; do
	case $kind in
	unit)
		run_unit "$BUILD" ""
		run_layers
		run_standalone
		;;
	skeleton) run_skeleton "$BUILD" ;;
	golden) run_golden "$BUILD/qosgen" "" ;;
	schema) run_schema "$BUILD" ;;
	sonic) run_sonic "$BUILD/qosgen" ;;
	scripts) run_scripts "$BUILD/qosgen" "" ;;
	shellcheck) run_shellcheck "$BUILD/qosgen" ;;
	cli) run_cli "$BUILD/qosgen" "" ;;
	onyx) run_onyx "$BUILD" "" ;;
	e2e) run_e2e "$BUILD" "" ;;
	ansible) run_ansible "$BUILD" ;;
	handoff) run_handoff "$BUILD" ;;
	vm) run_vm ;;
	demo) run_demo "$BUILD" ;;
	readme) run_readme ;;
	fuzz) run_fuzz ;;
	sonic-sim) run_sonic_sim ;;
	*)
		record "QG_ONLY=$kind" 1 "no such kind (see the top of tests/run.sh)"
		;;
	esac
done
# The whole run in two lanes, run at once: the plain build's suites, and the
# ASan build's with the fuzzers. They share no state (every suite has its own
# temporary directory, ports come from the kernel or are retried when taken,
# tests/vcsim/build.sh builds once under a lock), and much of each suite's
# time is spent waiting (sshd and simulator round trips, timeouts it tests),
# so on two cores the lanes overlap rather than queue. Lane 1 prints as it
# goes; lane 2 writes to a file, printed after lane 1 with the lines' own
# times. Then the soft-RoCE VM alone: its verify checks judge bandwidth, which
# a second lane on the same cores would take from it. QG_LANES=1 runs
# everything one suite after another.
lane1() {
	run_unit "$BUILD" ""
	run_layers
	run_standalone
	run_skeleton "$BUILD"
	run_golden "$BUILD/qosgen" ""
	run_schema "$BUILD"
	run_sonic "$BUILD/qosgen"
	run_scripts "$BUILD/qosgen" ""
	run_shellcheck "$BUILD/qosgen"
	run_cli "$BUILD/qosgen" ""
	run_onyx "$BUILD" ""
	run_e2e "$BUILD" ""
	run_ansible "$BUILD"
	run_handoff "$BUILD"
	run_demo "$BUILD"
	run_readme
}
lane2() {
	# vcsim first, so that neither lane's e2e/vsphere waits for its build.
	sh tests/vcsim/build.sh "$PWD/build/vcsim" >/dev/null 2>&1 || :
	took
	echo "lane 2: vcsim built or found (e2e/vsphere says if it failed) $took"
	if [ -x "$BUILD/asan/qosgen" ]; then
		run_unit "$BUILD/asan" "asan/"
		run_golden "$BUILD/asan/qosgen" "asan/"
		run_cli "$BUILD/asan/qosgen" "asan/"
		run_onyx "$BUILD/asan" "asan/"
		run_e2e "$BUILD/asan" "asan/"
	else
		record asan 1 "$BUILD/asan not built: 'make test' builds it"
	fi
	run_fuzz
}
# run_lane LANE TALLY: the lane in this (sub)shell, with its own clock, and
# its counts written to TALLY. Each lane is a subshell of its own, so that
# the CPU time of one is never counted in the other's lines (a shell adds a
# child's time when it reaps it, whenever that is).
run_lane() {
	clock_file=$(mktemp) || exit 3
	clock
	mark=$now
	mark_cpu=$cpu
	"$1"
	printf '%s %s %s\n%s\n' "$passed" "$failed" "$skipped" "$failures" >"$2"
	rm -f "$clock_file"
}
add_tally() { # TALLY LANE: a lane's counts into this shell's
	read -r p f s <"$1" || { p=0 f=1 s=0 failures="$failures $2"; }
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	failures="$failures$(sed -n 2p "$1")"
}
[ -n "$ONLY" ] || {
	if [ "${QG_LANES:-2}" -eq 1 ]; then
		lane1
		lane2
	else
		lanes=$(mktemp -d) || exit 3
		trap 'rm -f "$clock_file"; rm -rf "$lanes"' EXIT
		(run_lane lane2 "$lanes/tally2") >"$lanes/out2" 2>&1 &
		lane2_pid=$!
		(run_lane lane1 "$lanes/tally1")
		wait "$lane2_pid"
		cat "$lanes/out2"
		add_tally "$lanes/tally1" lane1
		add_tally "$lanes/tally2" lane2
		clock
		mark=$now
		mark_cpu=$cpu
	fi
	run_vm
}

[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
