#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen push end to end: the real qosgen binary, a real OpenSSH sshd on
# 127.0.0.1, and the Onyx simulator as its ForceCommand.
#   build -> dry run -> push -> read back equals intent -> re-push sends nothing
#   -> a refused line is rolled back -> fault sweep (cut after every line k)
#   -> the switch's own verdict: an operational fault rolled back (RESTORED),
#   an in-sync switch that does not hold it FAILED -> another OS version
#   refused with nothing sent -> unknown and changed host keys refused.
# Usage: push.sh BUILD
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
sw="$dir/sw1"
# The sshds of other releases (9. below), should a check stop the script first.
E2E_CLEANUP='for d in sshd-old sshd-same; do sh "$(dirname "$0")/sshd.sh" stop "$dir/$d"; done'

sim_hostname "$SIM" "$sw" 32 sw1
sshd_start "$dir/sshd" "$SIM --state $sw --ports 32"
user=${USER:-$(id -un)}
cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e
$E2E_QOS
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $port, user: $user, ports: [1/1-1/32]}
acknowledge:
  - {warning: headroom-unproven, because: "the Onyx simulator has no hardware"}
YAML
kh="$dir/known_hosts"
ssh_opts="--known-hosts $kh --identity $dir/sshd/client_key --ssh-config /dev/null --timeout 20"
push() { # ARGS...; output in $dir/out, $dir/err; status in $st
	# shellcheck disable=SC2086
	"$Q" push "$dir/intent.yaml" --switch sw1 $ssh_opts "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}
# The simulator's own view of its running-config, without the timestamp line.
sim_config() {
	printf 'show running-config\n' | "$SIM" --state "$sw" --ports 32 |
		sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' | grep -v '^## Generated at'
}
config_lines() { # lines in the trace that change configuration
	grep -cE '^(interface|traffic|no (interface|traffic)|hostname|dcb)' "$sw/trace" 2>/dev/null || true
}

# 1. An unknown host key is refused without --accept-new, and nothing is sent.
push
[ $st -eq 3 ] && grep -q "unknown host key" "$dir/err" && [ ! -s "$sw/trace" ] &&
	grep -q '^sw1  *onyx  *UNREACHABLE ' "$dir/err"
check unknown-host-refused-unreachable $? "exit $st: $(cat "$dir/err")"

# 2. Dry run: the fourteen lines (the RDG's seven, and the ETS weights of the
# seven other traffic classes: no ets in the intent is NVIDIA's RoCE default,
# WRR 50 for the lossless class, issue 34), nothing configured.
push --accept-new --dry-run
[ $st -eq 0 ] && [ "$(wc -l <"$dir/out")" -eq 14 ] && [ "$(config_lines)" -eq 0 ]
check dry-run-sends-nothing $? "exit $st, $(wc -l <"$dir/out") lines, trace: $(config_lines)"
sim_config >"$dir/empty.rc"

# 3. Push: converged, with a named copy saved on the switch first.
: >"$sw/trace"
push
[ $st -eq 0 ] && grep -q "14 lines sent, in sync, saved" "$dir/err" && [ "$(config_lines)" -eq 14 ] &&
	ls "$sw/saved/"qosgen-pre-* >/dev/null 2>&1
check push-converges $? "exit $st: $(cat "$dir/err")"
grep -q 'configuration write to qosgen-pre-[0-9-]* no-switch' "$sw/trace"
check push-saves-named-copy-with-no-switch $? "$(grep configuration "$sw/trace")"
[ "$(grep -n 'configuration write$' "$sw/trace" | cut -d: -f1)" -gt "$(grep -n '^interface ethernet 1/1-1/32 traffic-class 6' "$sw/trace" | cut -d: -f1)" ]
check push-writes-config-last $? "$(cat "$sw/trace")"

# 4. Read back equals the intent (qosgen diff on the simulator's own output).
sim_config >"$dir/after.rc"
"$Q" diff "$dir/intent.yaml" --switch sw1 --running-config "$dir/after.rc" --exit-code >"$dir/d" 2>&1
check read-back-equals-intent $? "$(cat "$dir/d")"

# Diff over SSH agrees: nothing left, exit 0 with --exit-code.
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --switch sw1 $ssh_opts --exit-code >"$dir/d" 2>&1
check diff-over-ssh-in-sync $? "$(cat "$dir/d")"

# 5. Re-push of an unchanged intent sends zero configuration lines.
: >"$sw/trace"
push
[ $st -eq 0 ] && grep -q "in sync, nothing sent" "$dir/err" && [ "$(config_lines)" -eq 0 ]
check re-push-sends-nothing $? "exit $st, $(config_lines) lines: $(cat "$dir/err")"

# Drift behind qosgen's back: diff over SSH names exactly it, exit 1.
printf 'enable\nconfigure terminal\ninterface ethernet 1/7 qos trust L2\n' | "$SIM" --state "$sw" --ports 32 >/dev/null
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --switch sw1 $ssh_opts --exit-code >"$dir/d" 2>&1
st=$?
[ $st -eq 1 ] && [ "$(cat "$dir/d")" = "interface ethernet 1/7 qos trust L3" ]
check diff-over-ssh-finds-drift $? "exit $st: $(cat "$dir/d")"
push
[ $st -eq 0 ] && grep -q "1 line sent" "$dir/err"
check push-repairs-drift-with-one-line $? "exit $st: $(cat "$dir/err")"

# 6. A refused line: everything applied before it is rolled back, and verified.
reset_switch() {
	rm -f "$sw/state" "$sw/faults" "$sw/faults.done"
	sim_hostname "$SIM" "$sw" 32 sw1
	: >"$sw/trace"
}
reset_switch
echo "reject traffic-class 3 congestion-control" >"$sw/faults"
push
rm -f "$sw/faults"
sim_config >"$dir/now.rc"
[ $st -eq 3 ] && grep -q "refused" "$dir/err" && grep -q "restored to the earlier configuration" "$dir/err" &&
	cmp -s "$dir/empty.rc" "$dir/now.rc"
check refused-line-rolled-back $? "exit $st: $(cat "$dir/err"); $(diff "$dir/empty.rc" "$dir/now.rc")"

# 7. Fault sweep: cut the session after configuration line k, for every k. Each
# run must fail loudly and leave the switch restored, or converge on one more push.
total=7
ok=0
for k in $(seq 1 $total); do
	reset_switch
	echo "cut_after $k" >"$sw/faults"
	push
	first=$st
	msg=$(cat "$dir/err")
	sim_config >"$dir/now.rc"
	[ $k -eq 4 ] && echo "    k=4: $(echo "$msg" | head -n 1)"
	if [ $first -eq 3 ] && echo "$msg" | grep -q "session lost" && cmp -s "$dir/empty.rc" "$dir/now.rc"; then
		ok=$((ok + 1))
	elif [ $first -eq 3 ]; then
		push
		[ $st -eq 0 ] && ok=$((ok + 1))
	else
		echo "    k=$k: exit $first: $msg"
	fi
done
echo "fault sweep: $ok/$total runs ended restored or converged"
[ $ok -eq $total ]
check fault-sweep $? "$ok/$total"

# 8. The switch's own verdict (issue 34): its operational state read after the
# read-back is in sync. A pool the ASIC could not size ("Memory actual" 0) is
# refused by the switch: rolled back, RESTORED, never converged.
reset_switch
echo pool_unsized >"$sw/faults"
push
rm -f "$sw/faults"
sim_config >"$dir/now.rc"
[ $st -eq 3 ] && grep -q "RESTORED" "$dir/err" &&
	grep -q "the switch refuses it: traffic pool roce: 'Memory actual' is 0" "$dir/err" &&
	grep -q "restored to the earlier configuration" "$dir/err" && ! grep -q CONVERGED "$dir/err" &&
	cmp -s "$dir/empty.rc" "$dir/now.rc" && grep -q '^show traffic pool roce | json-print$' "$sw/trace"
check verdict-unsized-pool-restored $? "exit $st: $(cat "$dir/err"); $(diff "$dir/empty.rc" "$dir/now.rc")"

# PFC not operational on one intent port: refused too, with the port and Onyx's words.
reset_switch
echo "pfc_oper_disabled 1/5" >"$sw/faults"
push
rm -f "$sw/faults"
sim_config >"$dir/now.rc"
[ $st -eq 3 ] && grep -q "Eth1/5: 'PFC oper' is Disabled ('PFC admin' Auto)" "$dir/err" &&
	grep -q "RESTORED" "$dir/err" && cmp -s "$dir/empty.rc" "$dir/now.rc"
check verdict-pfc-oper-restored $? "exit $st: $(cat "$dir/err")"

# A switch configured as the intent says whose ETS does not hold it: FAILED,
# nothing sent, never "in sync"; without the fault the same push is in sync.
reset_switch
push
: >"$sw/trace"
echo ets_default >"$sw/faults"
push
rm -f "$sw/faults"
[ $st -eq 3 ] && grep -q '^sw1  *onyx  *FAILED ' "$dir/err" &&
	grep -q "configured as the intent says, but the switch refuses it: Eth1/1 TC [0-7]: .* is .*, configured [a-z0-9 ]* (and [0-9]* more); nothing sent" "$dir/err" &&
	[ "$(config_lines)" -eq 0 ] && ! grep -q 'configuration write' "$sw/trace"
check verdict-in-sync-but-refused-failed $? "exit $st: $(cat "$dir/err")"
push
[ $st -eq 0 ] && grep -q "in sync, nothing sent" "$dir/err"
check verdict-holds-in-sync $? "exit $st: $(cat "$dir/err")"

# 9. OS versions (issue 34): the switch's release is read first. One outside
# the versions qosgen writes is refused with both versions, nothing sent (not
# even the first read-back); a release of the same dialect as the build's is
# pushed.
other_release() { # NAME RELEASE: a second sshd whose simulator runs RELEASE, the same login
	sshd_start "$dir/$1" "$SIM --state $sw --ports 32 --version $2"
	cp "$dir/sshd/client_key.pub" "$dir/$1/authorized_keys"
}
other_release sshd-old 3.5.1000
sed "s/port: [0-9]*,/port: $port,/" "$dir/intent.yaml" >"$dir/old.yaml"
reset_switch
# shellcheck disable=SC2086
"$Q" push "$dir/old.yaml" --switch sw1 $ssh_opts --accept-new >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 3 ] && grep -q '^sw1  *onyx  *UNCHANGED ' "$dir/err" &&
	grep -q "the switch runs Onyx 3.5.1000, outside the versions qosgen writes (3.6.5000 to 3.10.4706" "$dir/err" &&
	grep -q "nothing sent" "$dir/err" && [ "$(grep -cv '^\(enable\|no cli session paging enable\|show version\)$' "$sw/trace")" -eq 0 ]
check version-outside-range-refused $? "exit $st: $(cat "$dir/err"); trace: $(cat "$sw/trace")"
sh "$(dirname "$0")/sshd.sh" stop "$dir/sshd-old"
other_release sshd-same 3.8.2004
sed "s/port: [0-9]*,/port: $port, os_version: 3.10.4606,/" "$dir/intent.yaml" >"$dir/old.yaml"
reset_switch
# shellcheck disable=SC2086
"$Q" push "$dir/old.yaml" --switch sw1 $ssh_opts --accept-new >"$dir/out" 2>"$dir/err"
st=$?
# (14: the RDG's seven and the default ETS weights, as in 2. above; issue 34)
[ $st -eq 0 ] && grep -q "14 lines sent, in sync, saved" "$dir/err"
check version-same-dialect-pushed $? "exit $st: $(cat "$dir/err")"
sh "$(dirname "$0")/sshd.sh" stop "$dir/sshd-same"
port=$(cat "$dir/sshd/port")

# 10. A changed host key is refused, with both fingerprints, even with --accept-new.
other="$dir/other_key"
ssh-keygen -q -t ed25519 -N '' -f "$other"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$other.pub")" >"$kh"
: >"$sw/trace"
push --accept-new
[ $st -eq 3 ] && grep -q "host key mismatch (expected SHA256:.*, got SHA256:.*)" "$dir/err" && [ ! -s "$sw/trace" ]
check changed-host-key-refused $? "exit $st: $(cat "$dir/err")"

# 11. A listener that accepts and never speaks SSH: --timeout bounds the
# handshake too (it used to wait a fixed 10 s), the message says so, and the
# switch is UNREACHABLE.
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
print(s.getsockname()[1], flush=True)
conns = []
t0 = time.time()
while time.time() - t0 < 30:
    s.settimeout(1)
    try:
        conns.append(s.accept()[0])
    except OSError:
        pass
' >"$dir/silent.port" &
silent=$!
for _ in $(seq 1 50); do [ -s "$dir/silent.port" ] && break; sleep 0.1; done
sed "s/port: $port,/port: $(cat "$dir/silent.port"),/" "$dir/intent.yaml" >"$dir/silent.yaml"
t0=$(date +%s)
# shellcheck disable=SC2086
"$Q" push "$dir/silent.yaml" --switch sw1 $ssh_opts --timeout 2 >"$dir/out" 2>"$dir/err"
st=$?
took=$(($(date +%s) - t0))
kill "$silent" 2>/dev/null
wait "$silent" 2>/dev/null
[ $st -eq 3 ] && [ "$took" -le 6 ] && grep -q "timed out after 2 s connecting or in the SSH handshake" "$dir/err" &&
	grep -q '^sw1  *onyx  *UNREACHABLE ' "$dir/err"
check timeout-bounds-the-handshake $? "exit $st after $took s: $(cat "$dir/err")"

echo "$pass push checks passed, $fail failed"
[ "$fail" -eq 0 ]
