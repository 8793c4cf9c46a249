#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen push converges exactly, or refuses, on switches others configured:
# the real qosgen binary, a real OpenSSH sshd on 127.0.0.1, the Onyx
# simulator as its ForceCommand, seeded with the shapes found in real
# running-configs (tests/onyx/real/):
#   a pool on another priority, a lossy pool sharing the lossless priority
#   -> converged, and a re-push sends nothing;
#   another pool owning the priority, advanced buffer mode, a split port the
#   intent names whole, another hostname -> refused, nothing sent;
#   20 ports with 20 different MTUs -> a refused line and a cut session after
#   every line k each end restored (the simulator's whole running-config as
#   before) or, after one more push, converged.
# Usage: converge.sh BUILD
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
sw="$dir/sw1"

sshd_start "$dir/sshd" "$SIM --state $sw --ports 32"
user=${USER:-$(id -un)}
kh="$dir/known_hosts"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$kh"
ssh_opts="--known-hosts $kh --identity $dir/sshd/client_key --ssh-config /dev/null --timeout 20"

intent() { # PORTS: the switch sw1 with these ports
	cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e
$E2E_QOS
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $port, user: $user, ports: $1}
YAML
}
push() { # ARGS...; output in $dir/out, $dir/err; status in $st
	# shellcheck disable=SC2086
	"$Q" push "$dir/intent.yaml" --switch sw1 $ssh_opts "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}
# seed LINES: a switch named sw1 configured with LINES (one per line), trace empty.
seed() {
	rm -rf "$sw"
	sim_hostname "$SIM" "$sw" 32 sw1
	printf 'enable\nconfigure terminal\n%s\nexit\n' "$1" | "$SIM" --state "$sw" --ports 32 >"$dir/seed.out"
	if grep -q '^%' "$dir/seed.out"; then
		echo "FAIL seed: the simulator refused: $(grep '^%' "$dir/seed.out")"
		exit 1
	fi
	rm -f "$sw/trace"
}
sim_config() {
	printf 'show running-config\n' | "$SIM" --state "$sw" --ports 32 |
		sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' | grep -v '^## Generated at'
}
config_lines() {
	grep -cE '^(interface|traffic|no (interface|traffic|dcb|advanced)|hostname|dcb|advanced)' "$sw/trace" 2>/dev/null || true
}
# converges NAME: push converges, the read-back is the intent, a re-push sends nothing.
converges() {
	push
	first="exit $st: $(cat "$dir/err")"
	sim_config >"$dir/after.rc"
	"$Q" diff "$dir/intent.yaml" --switch sw1 --running-config "$dir/after.rc" --exit-code >"$dir/d" 2>&1
	d=$?
	: >"$sw/trace"
	push
	[ "$d" -eq 0 ] && [ $st -eq 0 ] && grep -q "in sync, nothing sent" "$dir/err" && [ "$(config_lines)" -eq 0 ]
	check "$1" $? "first push: $first; diff: $(cat "$dir/d"); re-push: exit $st: $(cat "$dir/err")"
}
# refused NAME WORDS: push exits 3 saying WORDS, and nothing reached the switch.
refused() {
	before=$(sim_config)
	push
	[ $st -eq 3 ] && grep -q -- "$2" "$dir/err" && [ "$(config_lines)" -eq 0 ] && [ "$(sim_config)" = "$before" ]
	check "$1" $? "exit $st, $(config_lines) lines sent: $(cat "$dir/err")"
}

intent "[1/1-1/4]"
seed "traffic pool roce type lossless
traffic pool roce memory percent 50.00
traffic pool roce map switch-priority 5"
converges pool-on-priority-5-converges
sim_config | grep -q '^traffic pool roce map switch-priority 3$'
check pool-maps-only-the-lossless-priority $? "$(sim_config | grep 'traffic pool')"

seed "traffic pool bulk type lossy
traffic pool bulk memory percent 30.00
traffic pool bulk map switch-priority 0 3"
converges lossy-pool-gives-up-priority-3
sim_config | grep -q '^traffic pool bulk map switch-priority 0$'
check other-pool-keeps-its-other-priority $? "$(sim_config | grep 'traffic pool')"

seed "traffic pool rocepool type lossless
traffic pool rocepool memory percent 60.00
traffic pool rocepool map switch-priority 3"
refused second-pool-owning-priority-refused "traffic pool 'rocepool' owns switch-priority 3"

seed "advanced buffer management force"
refused advanced-buffer-mode-refused "advanced buffer mode"

intent "[1/15-1/16]"
seed "interface ethernet 1/16 module-type qsfp-split-4 force"
refused split-port-named-whole-refused "port 1/16 is split into 4"
intent "[1/15, 1/16/1-1/16/4]"
converges split-subports-converge

intent "[1/1-1/4]"
seed "hostname other"
refused other-hostname-refused "says its hostname is 'other', not 'sw1'"
push --accept-hostname
[ $st -eq 0 ] && grep -q "sent, in sync, saved" "$dir/err"
check accept-hostname-goes-on $? "exit $st: $(cat "$dir/err")"

# 20 ports, 20 different MTUs: the rollback restores each (it used to stop at 16
# distinct commands, send nothing, and still say "restored").
intent "[1/1-1/20]"
mtus=$(for p in $(seq 1 20); do echo "interface ethernet 1/$p mtu $((1500 + 100 * p)) force"; done)
seed "$mtus"
sim_config >"$dir/before.rc"
echo "reject traffic-class 6 dcb ets strict" >"$sw/faults"
push
rm -f "$sw/faults"
sim_config >"$dir/now.rc"
[ $st -eq 3 ] && grep -q "restored to the earlier configuration" "$dir/err" && cmp -s "$dir/before.rc" "$dir/now.rc"
check twenty-mtus-rolled-back $? "exit $st: $(cat "$dir/err"); $(diff "$dir/before.rc" "$dir/now.rc")"
total=7
ok=0
for k in $(seq 1 $total); do
	seed "$mtus"
	echo "cut_after $k" >"$sw/faults"
	push
	first=$st
	msg=$(cat "$dir/err")
	sim_config >"$dir/now.rc"
	if [ $first -eq 3 ] && echo "$msg" | grep -q "restored to the earlier configuration" &&
		cmp -s "$dir/before.rc" "$dir/now.rc"; then
		ok=$((ok + 1))
	elif [ $first -eq 3 ] && ! echo "$msg" | grep -q "restored to the earlier"; then
		push
		[ $st -eq 0 ] && ok=$((ok + 1))
	else
		echo "    k=$k: exit $first: $msg; $(diff "$dir/before.rc" "$dir/now.rc" | head -5)"
	fi
done
echo "fault sweep (20 distinct MTUs): $ok/$total runs ended restored or converged"
[ $ok -eq $total ]
check twenty-mtus-fault-sweep $? "$ok/$total"

echo "$pass convergence checks passed, $fail failed"
[ "$fail" -eq 0 ]
