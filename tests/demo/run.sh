#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo` and `make sim-start`/`sim-stop` (issue 25), against the build:
#   the demo exits 0; its two pushes converge on every device, each diff
#   after a push is in sync, the policy change's diff is shown and pushed;
#   afterwards no process of its temporary directory and no port it used is
#   left; run from a copy of the examples, the compiled files it shows exist;
#   simfabric.sh start into a directory: the printed diff and push commands,
#   run exactly as printed with its env, work; a second start is refused
#   while it runs; stop stops all, a second stop is fine; nothing left;
#   a switch that refuses a line: the demo exits non-zero, says so, and still
#   stops everything.
# Usage: run.sh BUILD
set -u
BUILD=$(cd "${1:-build}" && pwd)
Q=$BUILD/qosgen
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 3
t=$(mktemp -d)
pass=0
fail=0
check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1: $3"
	fi
}
# procs_of DIR: the PIDs whose command line names DIR (the demo's and the
# fabric's processes all do: sshd -f DIR/..., the simulators' --state DIR/...).
procs_of() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF "$1/" && echo "${p#/proc/}"
	done
}
# listening PORT...: those of the ports something listens on.
listening() {
	for p in "$@"; do
		ss -Hltn "sport = :$p" | grep -q . && echo "$p"
	done
}
ports_in() { grep -o '127\.0\.0\.1:[0-9]*' "$1" | cut -d: -f2 | sort -u; }
cleanup() {
	QG_BUILD=$BUILD sh scripts/simfabric.sh stop "$t/fab" >/dev/null 2>&1
	for pid in $(procs_of "$t"); do kill "$pid" 2>/dev/null; done
	rm -rf "$t"
}
trap cleanup EXIT INT TERM
# left DIR OUTPUT: nothing of DIR runs, no port OUTPUT names listens.
left() {
	sleep 0.5
	l=$(procs_of "$1")
	# shellcheck disable=SC2046
	lp=$(listening $(ports_in "$2"))
	[ -z "$l" ] && [ -z "$lp" ] && [ "$(ports_in "$2" | wc -l)" -ge 5 ]
	check "$3: nothing left" $? "processes: $l $(for p in $l; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done); ports: $lp"
}

# --- make demo ---
# From a copy of the examples, so that its demo-out is the test's (it was
# tests/cli's check): every file it shows exists, and it ends with next steps.
mkdir -p "$t/tmp" "$t/work" && cp -r examples "$t/work/"
(cd "$t/work" && TMPDIR=$t/tmp QG_BUILD=$BUILD sh "$top/scripts/demo.sh" "$Q") >"$t/demo.out" 2>&1
st=$?
check "demo: exit 0" "$st" "exit $st: $(tail -20 "$t/demo.out")"
shown=$(grep -c '^demo-out/' "$t/demo.out")
[ "$shown" -ge 10 ] && grep '^demo-out/' "$t/demo.out" | (cd "$t/work" && xargs ls >/dev/null) &&
	grep -q '^  make sim-start  *# ' "$t/demo.out" && [ "$(tail -n 1 "$t/demo.out" | cut -c1-6)" = "  man " ]
check "demo: the files it shows exist ($shown), next steps last" $? "$(tail -n 8 "$t/demo.out")"
for d in leaf-onyx leaf-nvue leaf-sonic gpu-01 esx-01; do
	[ "$(grep -cE "^$d +[a-z]+ +converged +[1-9]" "$t/demo.out")" -ge 1 ] &&
		[ "$(grep -cE "^$d +[a-z]+ +(converged|in sync) " "$t/demo.out")" -eq 2 ]
	check "demo: $d converged, twice in sync or converged" $? "$(grep "^$d " "$t/demo.out")"
done
[ "$(grep -c '^5 devices, 0 failed$' "$t/demo.out")" -eq 2 ] &&
	[ "$(grep -cx 'in sync' "$t/demo.out")" -eq 2 ]
check "demo: both pushes, both diffs after them in sync" $? "$(grep -E 'devices|in sync' "$t/demo.out")"
grep -qx '+interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 300 maximum-absolute 1500' "$t/demo.out" &&
	grep -qx -- '-nv set qos congestion-control default-global traffic-class 3 min-threshold 150000' "$t/demo.out" &&
	grep -qE '^leaf-onyx: 1 line sent, in sync' "$t/demo.out" &&
	grep -qE '^leaf-sonic: 3 changes applied' "$t/demo.out" && grep -qE '^gpu-01: in sync' "$t/demo.out"
check "demo: the policy change's diff shown, and only it pushed" $? "$(sed -n '/== 6/,$p' "$t/demo.out")"
grep -q '^simfabric: stopped leaf-onyx([0-9]*) leaf-sonic([0-9]*) gpu-01([0-9]*) esx-01([0-9]*) leaf-nvue([0-9]*)' "$t/demo.out" &&
	[ -z "$(ls -A "$t/tmp")" ]
check "demo: stopped all five, its directory removed" $? "$(grep simfabric: "$t/demo.out"; ls -A "$t/tmp")"
# Issue 37: nothing about SONiC's YANG models, which a user's clone never has.
! grep -qi 'yang' "$t/demo.out"
check "demo: no word of SONiC's YANG models to a user" $? "$(grep -i yang "$t/demo.out")"
[ "$(wc -l <"$t/demo.out")" -lt 250 ]
check "demo: readable (under 250 lines)" $? "$(wc -l <"$t/demo.out") lines"
left "$t/tmp" "$t/demo.out" demo

# --- simfabric.sh start / stop, as the user runs them ---
QG_BUILD=$BUILD sh scripts/simfabric.sh start "$t/fab" >"$t/start.out" 2>&1
st=$?
[ $st -eq 0 ] && [ -f "$t/fab/env" ] && [ -f "$t/fab/ca.pem" ] && [ -f "$t/fab/ssh_config" ] &&
	[ "$(wc -l <"$t/fab/known_hosts")" -eq 4 ] && ! grep -q 'StrictHostKeyChecking no' "$t/fab/ssh_config" &&
	[ "$(stat -c %a "$t/fab/env")" = 600 ] && "$Q" check "$t/fab/fabric.yaml" >/dev/null 2>&1
check "sim-start: starts, writes its files" $? "exit $st: $(cat "$t/start.out")"
# The printed lines, run as printed (build/qosgen: this build's).
printed() { grep -E "^  $1" "$t/start.out" | head -n 1 | sed "s|^  ||; s|^build/qosgen |$Q |"; }
src=$(printed '\. ')
dcmd=$(printed 'build/qosgen diff ')
pcmd=$(printed 'build/qosgen push ')
[ "$src" = ". $t/fab/env" ] && [ "$dcmd" = "$Q diff $t/fab/fabric.yaml --all \$SIM" ]
check "sim-start: prints what to type" $? "$(cat "$t/start.out")"
! grep -qi 'yang' "$t/start.out"
check "sim-start: no word of SONiC's YANG models to a user" $? "$(grep -i yang "$t/start.out")"
# Issue 37: the README's "Trying it without switches" names every device
# sim-start starts, no fewer (it once left out esx-01).
devs=$(sed -n 's/^  \([a-z0-9-]*\)  *[A-Za-z() ]* \(ssh\|https\) 127\.0\.0\.1:[0-9]*.*/\1/p' "$t/start.out")
para=$(sed -n '/^## Trying it without switches/,/^```sh/p' "$top/README.md")
missing=""
for d in $devs; do
	printf '%s\n' "$para" | grep -qF "\`$d\`" || missing="$missing $d"
done
[ "$(printf '%s\n' "$devs" | grep -c .)" -eq 5 ] && [ -z "$missing" ]
check "sim-start: the README names every device it starts" $? "started: $(echo $devs); not in the README:$missing"
(
	eval "$src"
	case $SIM in *--ssh-config*--known-hosts*--ca-file*) ;; *) exit 9 ;; esac
	eval "$dcmd" >"$t/d1" 2>&1 || exit 1
	grep -q '^## leaf-onyx$' "$t/d1" && grep -q '^## leaf-nvue$' "$t/d1" && grep -q '^## leaf-sonic$' "$t/d1" &&
		grep -q '^## gpu-01$' "$t/d1" && grep -q '^## esx-01$' "$t/d1" || exit 2
	eval "$pcmd" >"$t/p1" 2>&1 || exit 3
	[ "$(grep -cE '^(leaf-onyx|leaf-nvue|leaf-sonic|gpu-01|esx-01) +[a-z]+ +converged ' "$t/p1")" -eq 5 ] || exit 4
	eval "$dcmd --exit-code" >"$t/d2" 2>&1 || exit 5
	[ ! -s "$t/d2" ] || exit 6
)
st=$?
check "sim-start: the printed diff, push, diff: differs, converged, in sync" $st \
	"step $st: $(cat "$t/d1" "$t/p1" "$t/d2" 2>/dev/null | head -40)"
ssh -F "$t/fab/ssh_config" -o BatchMode=yes gpu-01 'cat /sys/class/net/ens1f0np0/mtu' >"$t/ssh.out" 2>&1
[ "$(cat "$t/ssh.out")" = 9000 ]
check "sim-start: OpenSSH's ssh -F ssh_config reaches a device, host key checked" $? "$(cat "$t/ssh.out")"
QG_BUILD=$BUILD sh scripts/simfabric.sh start "$t/fab" >"$t/again.out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "already running in $t/fab" "$t/again.out" &&
	[ "$(grep -c . "$t/fab/known_hosts")" -eq 4 ]
check "sim-start again: refused while running" $? "exit $st: $(cat "$t/again.out")"
sh scripts/simfabric.sh stop "$t/fab" >"$t/stop.out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q "^simfabric: stopped leaf-onyx(" "$t/stop.out" && [ ! -e "$t/fab" ]
check "sim-stop: stops, removes what it wrote" $? "exit $st: $(cat "$t/stop.out"; ls -A "$t/fab" 2>&1)"
sh scripts/simfabric.sh stop "$t/fab" >"$t/stop2.out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q "nothing running" "$t/stop2.out"
check "sim-stop twice: fine" $? "exit $st: $(cat "$t/stop2.out")"
left "$t/fab" "$t/start.out" sim

# --- a switch that refuses: the demo fails loudly and still stops everything ---
mkdir -p "$t/tmp2"
echo "reject traffic-class 3 congestion-control" >"$t/faults"
TMPDIR=$t/tmp2 QG_BUILD=$BUILD QG_SIM_ONYX_FAULTS=$t/faults sh scripts/demo.sh "$Q" >"$t/fail.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q '^demo: FAILED: push exited 3' "$t/fail.out" &&
	grep -qE '^leaf-onyx +onyx +(RESTORED|UNCHANGED)' "$t/fail.out" &&
	grep -q '^simfabric: stopped leaf-onyx(' "$t/fail.out" && [ -z "$(ls -A "$t/tmp2")" ]
check "demo with a refusing switch: exit non-zero, stopped" $? "exit $st: $(tail -20 "$t/fail.out")"
left "$t/tmp2" "$t/fail.out" "refusing demo"

echo "$pass demo checks passed, $fail failed"
[ "$fail" -eq 0 ]
