#!/bin/sh
# SPDX-License-Identifier: MIT
# History independence on Onyx (issue 23): after `qosgen push` of intent A and
# then intent B, the state qosgen owns on B's ports is exactly what B pushed on
# a factory switch gives, and a second push of B sends nothing. The real
# qosgen binary, a real OpenSSH sshd on 127.0.0.1, the Onyx simulator as its
# ForceCommand; the state compared is the simulator's own (its state file:
# per port MTU, trust, and per traffic class the congestion control and the
# scheduler; the traffic pools), not qosgen's read-back of it.
#
# The matrix: a base intent and one change each (the lossless priority and
# DSCP moved, CNP moved, ECN thresholds changed, ECN removed, the lossless
# scheduler wrr 60 and strict, the MTU, the pool size, a port added, a port
# removed, and pfc_watchdog + cable_length_m, which the onyx target ignores
# with a warning; port roles with their own ECN thresholds, issue 28), each
# pushed after the base and the base after it; and a few changes chained
# (moved -> wrr, wrr -> ECN removed, a role's thresholds and ports changed, ...).
#
# Two ways (issue 38): with --direct, every pair of the matrix without SSH:
# a push is qosgen diff of the simulator's own running-config (`show
# running-config` on its standard input) and the lines it proposes typed into
# the simulator's configure mode, as tests/onyx/run.sh converges; push plans
# its lines with the same functions (onyx_config_judge, onyx_config_diff, on
# the running-config it reads), so the pair judges what push would leave;
# "B again sends nothing" is a diff of B that proposes nothing. Without it, a
# few pairs over SSH with qosgen push (each also judged directly), and the
# checks that read push's own words. The factory states both compare with
# are made directly, so the SSH pairs also prove push and the direct way
# leave one state.
# Usage: onyx_history.sh BUILD [--direct]
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
sw="$dir/sw1"
direct=${2:-}

user=${USER:-$(id -un)}
port=22
if [ "$direct" != --direct ]; then
	sshd_start "$dir/sshd" "$SIM --state $sw --ports 32"
	kh="$dir/known_hosts"
	printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$kh"
	ssh_opts="--known-hosts $kh --identity $dir/sshd/client_key --ssh-config /dev/null --timeout 20"
fi

# intent NAME: $dir/NAME.yaml, the base with NAME's one change; its ports in
# $dir/NAME.ports (simulator port numbers, unsplit).
intent() {
	prio=3 dscp=26 cprio=6 cdscp=48 ecn='ecn: {min_kb: 150, max_kb: 1500}' ets=''
	mtu='' pct=50 ports='1/1-1/4' extra='' sw_extra='' nums='1 2 3 4'
	case $1 in
	base) ;;
	moved) prio=4 dscp=34 ;;
	cnp-moved) cprio=5 cdscp=40 ;;
	ecn-changed) ecn='ecn: {min_kb: 300, max_kb: 3000}' ;;
	ecn-removed) ecn='' ;;
	wrr) ets='ets: {mode: wrr, weight: 60}' ;;
	strict) ets='ets: strict' ;;
	mtu) mtu='  switch_mtu: 9100' ;;
	pool) pct=40 ;;
	port-added) ports='1/1-1/5' nums='1 2 3 4 5' ;;
	port-removed) ports='1/1-1/3' nums='1 2 3' ;;
	wd-cable) extra='  pfc_watchdog: true' sw_extra=', cable_length_m: 5' ;;
	moved-wrr) prio=4 dscp=34 ets='ets: {mode: wrr, weight: 30}' ;;
	roles) sw_extra=', roles: {hosts: {ports: 1/1-1/2, ecn: {min_kb: 100, max_kb: 1000}},
       spines: {ports: 1/3-1/4, ecn: {min_kb: 300, max_kb: 3000}}}' ;;
	roles-changed) sw_extra=', roles: {hosts: {ports: 1/1}, spines: {ports: 1/2-1/3,
       ecn: {min_kb: 400, max_kb: 4000}}}' ;;
	*) echo "unknown intent $1" >&2 && exit 2 ;;
	esac
	{
		echo "version: 1"
		echo "fabric: history"
		echo "qos:"
		[ -n "$mtu" ] && echo "$mtu"
		lossless="priority: $prio, dscp: [$dscp], pool: {name: roce, memory_percent: $pct}"
		[ -n "$ecn" ] && lossless="$lossless, $ecn"
		[ -n "$ets" ] && lossless="$lossless, $ets"
		echo "  lossless: {$lossless}"
		echo "  cnp: {priority: $cprio, dscp: $cdscp, ets: strict}"
		[ -n "$extra" ] && echo "$extra"
		echo "switches:"
		echo "  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $port, user: $user, ports: [$ports]$sw_extra}"
	} >"$dir/$1.yaml"
	echo "$nums" >"$dir/$1.ports"
}

push() { # NAME: push intent NAME; output in $dir/err, status in $st
	# shellcheck disable=SC2086
	"$Q" push "$dir/$1.yaml" --switch sw1 $ssh_opts >"$dir/out" 2>"$dir/err"
	st=$?
}
# apply NAME: intent NAME without SSH: qosgen diff of the simulator's
# running-config, its lines typed into the simulator; the lines in
# $dir/lines, status in $st (the simulator refusing a line, "%", fails it).
apply() {
	printf 'show running-config\n' | "$SIM" --state "$sw" --ports 32 |
		sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' >"$dir/running.cfg"
	"$Q" diff "$dir/$1.yaml" --switch sw1 --running-config "$dir/running.cfg" >"$dir/lines" 2>"$dir/err"
	st=$?
	[ $st -eq 0 ] || return
	{
		printf 'enable\nconfigure terminal\n'
		cat "$dir/lines"
		printf 'exit\n'
	} | "$SIM" --state "$sw" --ports 32 >"$dir/applied"
	! grep '^%' "$dir/applied" >>"$dir/err"
	st=$?
}
factory() { # a new switch called sw1, nothing else set
	rm -rf "$sw"
	sim_hostname "$SIM" "$sw" 32 sw1
}
# owned NAME: the simulator's state of what qosgen owns on NAME's ports: each
# port's line (MTU, trust, per TC congestion control and scheduler) and the
# traffic pools.
owned() {
	grep '^pool ' "$sw/state" | sort
	read -r nums <"$dir/$1.ports"
	for p in $nums; do
		grep "^port $p 0 " "$sw/state"
	done
}

names="moved cnp-moved ecn-changed ecn-removed wrr strict mtu pool port-added port-removed wd-cable moved-wrr
roles roles-changed"
for n in base $names; do
	intent "$n"
	factory
	apply "$n"
	[ $st -eq 0 ] && owned "$n" >"$dir/$n.ref"
	check "factory-$n" $? "exit $st: $(cat "$dir/err")"
done

# The way each intent goes on: push over SSH, or apply (--direct).
step=push
[ "$direct" = --direct ] && step=apply
# again: the step just run sent nothing: directly, its diff proposed no line;
# over SSH, push says so and the simulator's trace holds no configuration line.
again() {
	if [ "$direct" = --direct ]; then
		sent=$(grep -c . "$dir/lines")
		[ $st -eq 0 ] && [ "$sent" -eq 0 ]
		return
	fi
	sent=$(grep -cE '^(interface|traffic|no (interface|traffic|dcb)|dcb)' "$sw/trace" 2>/dev/null || true)
	[ $st -eq 0 ] && grep -q "in sync, nothing sent" "$dir/err" && [ "$sent" -eq 0 ]
}

# pair A B: A, then B; B's owned state as on a factory switch, and B again sends nothing.
pair() {
	factory
	$step "$1"
	a=$st
	aerr=$(cat "$dir/err")
	$step "$2"
	b=$st
	berr=$(cat "$dir/err")
	owned "$2" >"$dir/now"
	rm -f "$sw/trace"
	$step "$2"
	again
	[ $? -eq 0 ] && [ $a -eq 0 ] && [ $b -eq 0 ] && cmp -s "$dir/$2.ref" "$dir/now"
	check "$1-then-$2" $? "A: exit $a: $aerr; B: exit $b: $berr; again: exit $st, $sent lines: $(cat "$dir/err");
    owned state differs from B on a factory switch (< factory, > after A):
$(diff "$dir/$2.ref" "$dir/now" | sed 's/^/    /')"
}

if [ "$direct" = --direct ]; then
	for n in $names; do
		pair base "$n"
		pair "$n" base
	done
	pair moved wrr
	pair wrr ecn-removed
	pair ecn-removed moved-wrr
	pair moved-wrr cnp-moved
	pair strict wrr
	pair port-added port-removed
	pair roles roles-changed
	pair roles-changed roles
	pair roles-changed ecn-changed
	pair moved roles
	echo "$pass direct history checks passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
# Over SSH, a few pairs of the matrix (every one is judged with --direct):
# the lossless class moved and back, a port added then another removed, the
# roles changed and back.
pair base moved
pair moved base
pair port-added port-removed
pair roles roles-changed
pair roles-changed roles

# The warnings change nothing: B with pfc_watchdog and cable lengths after the
# base sends no line at all.
factory
push base
rm -f "$sw/trace"
push wd-cable
sent=$(grep -cE '^(interface|traffic|no (interface|traffic|dcb)|dcb)' "$sw/trace" 2>/dev/null || true)
[ $st -eq 0 ] && [ "$sent" -eq 0 ] && grep -q 'pfc_watchdog' "$dir/err" && grep -q 'cable_length_m' "$dir/err"
check watchdog-and-cable-change-nothing $? "exit $st, $sent lines: $(cat "$dir/err")"

# The finding of issue 23, by name: after 3 -> 4, TC 3 keeps no ECN.
factory
push base
push moved
printf 'show running-config\n' | "$SIM" --state "$sw" --ports 32 >"$dir/rc"
! grep -q 'traffic-class 3 congestion-control' "$dir/rc" && grep -q 'traffic-class 4 congestion-control ecn' "$dir/rc" &&
	grep -q '^ *traffic pool roce map switch-priority 4$' "$dir/rc"
check moved-leaves-no-ecn-on-tc3 $? "$(grep -E 'traffic' "$dir/rc")"

echo "$pass history checks passed, $fail failed"
[ "$fail" -eq 0 ]
