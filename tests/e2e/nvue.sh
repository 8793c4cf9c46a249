#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen against Cumulus Linux's NVUE REST API (issue 13): the real qosgen
# binary, the NVUE simulator (tests/sim/nvue_sim.py, HTTPS on 127.0.0.1 with
# a certificate made here and checked by qosgen through --ca-file):
#   dry run and diff show the change and send nothing; push converges and is
#   saved; a re-push sends nothing;
#   a value the switch refuses at apply: the revision ends invalid, the
#   applied configuration is untouched, qosgen says UNCHANGED with the
#   switch's words;
#   the connection dropped after the apply request: the read-back decides,
#   and says the revision applied;
#   an apply that never ends: outcome unknown, said so, exit 3;
#   an apply answered 502/504/408/429 by the front end, or cut, while NVUE
#   goes on (issue 36): followed to the revision's end, never UNCHANGED
#   while it may still apply; an unknown state word keeps the poll going;
#   a wrong password, an untrusted certificate, another hostname: nothing sent;
#   port roles (issue 28): their profiles refused whole, applied with their
#   bindings, a second diff empty, a role removed with its profiles;
#   each release's dialect (issue 34): Cumulus Linux 5.9 and 5.15 each
#   converge from their own build; a build of the other dialect, or a release
#   outside 5.6..5.16, is refused with nothing sent (push and diff); NVUE's own
#   verdict: a port whose PFC is applied but not operational is rolled back
#   (RESTORED, never converged), and FAILED with nothing sent when in sync;
#   a mixed fabric from one intent, the three switch OSes: Onyx (its
#   simulator behind a real sshd), Cumulus (NVUE) and SONiC (its simulator
#   behind another sshd): diff --all shows all three, push --all converges
#   them, a second diff --all is empty.
# Usage: nvue.sh BUILD
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
here=$(cd "$(dirname "$0")/../.." && pwd)
E2E_CLEANUP='nv_stop; sh "$(dirname "$0")/sshd.sh" stop "$dir/sshd-sonic"'

nv_cert "$(basename "$0" .sh)"

# nv_get PATH: the applied configuration at PATH, as the API answers it.
nv_get() {
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw "https://127.0.0.1:$nvport/nvue_v1/$1?rev=applied"
}
# nv_revisions: how many revisions were made (the simulator's are numbered; empty and startup are not).
nv_revisions() {
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw "https://127.0.0.1:$nvport/nvue_v1/revision" |
		python3 -c 'import json,sys; print(sum(k.isdigit() for k in json.load(sys.stdin)))'
}

intent() { # SWITCH_NAME [OS_VERSION] (none: the newest supported)
	osv=""
	[ -n "${2:-}" ] && osv=", os_version: \"$2\""
	cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e
$E2E_QOS
switches:
  - {name: $1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4, swp49s0-3],
     cable_length_m: {default: 5, swp49s0-3: 50}$osv}
YAML
}
export QOSGEN_NVUE_PASSWORD=e2e-pw
run() { # VERB ARGS...; output in $dir/out, $dir/err; status in $st
	verb=$1
	shift
	"$Q" "$verb" "$dir/intent.yaml" --ca-file "$dir/cert.pem" --timeout 5 "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}

# --- dry run, diff, push, re-push ---
nv_start
intent leaf1
run push --switch leaf1 --dry-run
[ $st -eq 0 ] && grep -q "would change" "$dir/err" &&
	grep -q '^nv set qos pfc default-global switch-priority 3$' "$dir/out" &&
	[ "$(nv_revisions)" -eq 0 ]
check "dry run shows, sends nothing" $? "exit $st: $(cat "$dir/err")"
run diff --switch leaf1 --exit-code
[ $st -eq 1 ] && grep -q '^nv set interface swp1-4 link mtu 9216$' "$dir/out"
check "diff --exit-code: differs" $? "exit $st: $(cat "$dir/out" "$dir/err")"
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" && grep -q "saved" "$dir/err" &&
	nv_get qos/pfc | grep -q '"3"' && nv_get qos/pfc | grep -q '"cable-length": *50' &&
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw \
		"https://127.0.0.1:$nvport/nvue_v1/qos/pfc?rev=startup" | grep -q '"3"'
check "push converges and saves" $? "exit $st: $(cat "$dir/err")"
revs=$(nv_revisions)
run push --switch leaf1
[ $st -eq 0 ] && grep -q "in sync: nothing to send" "$dir/err" && [ "$(nv_revisions)" -eq "$revs" ]
check "re-push sends nothing" $? "exit $st, revisions $revs -> $(nv_revisions): $(cat "$dir/err")"
run diff --switch leaf1 --exit-code
[ $st -eq 0 ] && [ ! -s "$dir/out" ]
check "diff after push: empty" $? "exit $st: $(cat "$dir/out")"

# --- issue 34: each release's dialect, the running version read first, NVUE's own verdict ---
# Each release converges from its own build, in its own words, and stays in sync.
for rel in 5.9.1:5.9 5.15.0:5.15; do
	v=${rel%%:*} osv=${rel#*:}
	key=state
	[ "$osv" = 5.9 ] && key=enable
	nv_start --version "$v"
	intent leaf1 "$osv"
	run push --switch leaf1
	[ $st -eq 0 ] && grep -q "converged" "$dir/err" &&
		nv_get qos/roce | grep -q "\"$key\": *\"\(on\|enabled\)\""
	check "Cumulus Linux $v: converges from its own build (qos roce $key)" $? "exit $st: $(cat "$dir/err"; nv_get qos/roce)"
	revs=$(nv_revisions)
	run push --switch leaf1
	[ $st -eq 0 ] && grep -q "in sync: nothing to send" "$dir/err" && [ "$(nv_revisions)" -eq "$revs" ]
	check "Cumulus Linux $v: re-push in sync, its RoCE status held" $? "exit $st: $(cat "$dir/err")"
done
# A build of another dialect: refused before anything is sent, push and diff, both ways.
nv_start --version 5.9.1
intent leaf1 ""
before=$(nv_get qos)
run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNCHANGED" "$dir/err" &&
	grep -q "runs Cumulus Linux 5.9.1, which speaks the roce-enable dialect" "$dir/err" &&
	grep -q "the build is for 5.16, the roce-state dialect: set its os_version to 5.9.1" "$dir/err" &&
	[ "$(nv_revisions)" -eq 0 ] && [ "$(nv_get qos)" = "$before" ]
check "a 5.16 build to a 5.9 switch: refused, nothing sent" $? "exit $st, $(nv_revisions) revisions: $(cat "$dir/err")"
run diff --switch leaf1
[ $st -eq 3 ] && grep -q "roce-enable dialect" "$dir/err" && [ ! -s "$dir/out" ] && [ "$(nv_revisions)" -eq 0 ]
check "... and diff says so, proposing nothing" $? "exit $st: $(cat "$dir/out" "$dir/err")"
nv_start --version 5.15.0
intent leaf1 5.9
run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNCHANGED" "$dir/err" &&
	grep -q "runs Cumulus Linux 5.15.0, which speaks the roce-state dialect" "$dir/err" &&
	[ "$(nv_revisions)" -eq 0 ]
check "a 5.9 build to a 5.15 switch: refused, nothing sent" $? "exit $st: $(cat "$dir/err")"
nv_start --version 5.4.0
intent leaf1 ""
run push --switch leaf1
[ $st -eq 3 ] && grep -q "runs Cumulus Linux 5.4.0, outside the versions qosgen writes (5.6 to 5.16" "$dir/err" &&
	[ "$(nv_revisions)" -eq 0 ]
check "an unsupported release (5.4.0): refused, nothing sent" $? "exit $st: $(cat "$dir/err")"
# NVUE's own verdict: a port whose PFC NVUE applied but did not make operational.
nv_start --pfc-not-operational swp2
intent leaf1 ""
run push --switch leaf1
[ $st -eq 3 ] && grep -q "RESTORED" "$dir/err" && ! grep -q "converged" "$dir/err" &&
	grep -q "interface swp2 qos roce status pfc pfc-priority is (none)" "$dir/err" &&
	! nv_get qos | grep -q lossless
check "PFC not operational on a port: rolled back, RESTORED, never converged" $? "exit $st: $(cat "$dir/err")"
# Configured as the intent says already, but not held: FAILED, nothing sent.
"$Q" build "$dir/intent.yaml" -o "$dir/built" >/dev/null 2>&1
nv_start --pfc-not-operational swp2 --config "$dir/built/nvue/leaf1.yaml"
intent leaf1 ""
run push --switch leaf1
[ $st -eq 3 ] && grep -q "FAILED" "$dir/err" &&
	grep -q "configured as the intent says, but the switch refuses it: NVUE's operational interface swp2" "$dir/err" &&
	[ "$(nv_revisions)" -eq 0 ]
check "in sync but PFC not operational: FAILED, nothing sent" $? "exit $st, $(nv_revisions) revisions: $(cat "$dir/err")"

# --- port roles (issue 28): NVUE port groups pushed, refused whole, removed ---
intent_roles() { # ROLES
	cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e
$E2E_QOS
switches:
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4, swp49s0-3],
     cable_length_m: {swp3-4: 5}, roles: $1}
YAML
}
ROLES='{hosts: {ports: [swp1-2], cable_length_m: 3, ecn: {min_kb: 300, max_kb: 3000}}, spines: {ports: [swp49s0-3], cable_length_m: 40}}'
nv_start --refuse-path 'qos/pfc/qosgen-spines/cable-length=40'
intent_roles "$ROLES"
run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNCHANGED" "$dir/err" && grep -q "qos.pfc.qosgen-spines.cable-length" "$dir/err" &&
	! nv_get qos/pfc | grep -q qosgen
check "roles: a profile the switch refuses, nothing applied" $? "exit $st: $(cat "$dir/err")"
nv_start
intent_roles "$ROLES"
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" &&
	nv_get interface/swp2/qos | grep -q '"profile": *"qosgen-hosts"' &&
	nv_get interface/swp49s3/qos/pfc | grep -q '"profile": *"qosgen-spines"' &&
	nv_get qos/pfc/qosgen-spines | grep -q '"cable-length": *40' &&
	nv_get qos/pfc/default-global | grep -q '"cable-length": *5'
check "roles: profiles and bindings applied" $? "exit $st: $(cat "$dir/err")"
run diff --switch leaf1 --exit-code
[ $st -eq 0 ] && [ ! -s "$dir/out" ]
check "roles: diff after push: empty" $? "exit $st: $(cat "$dir/out")"
intent_roles '{spines: {ports: [swp49s0-3], cable_length_m: 40}}'
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" && ! nv_get qos | grep -q qosgen-hosts &&
	! nv_get interface/swp1 | grep -q qosgen
check "roles: a role removed, its profiles and bindings go" $? "exit $st: $(cat "$dir/err")"

# --- a value the switch refuses: applied untouched, UNCHANGED ---
nv_start --refuse-path 'qos/congestion-control/*/traffic-class/*/min-threshold=150000'
intent leaf1
before=$(nv_get qos)
run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNCHANGED" "$dir/err" && grep -q "invalid" "$dir/err" &&
	grep -q "refused by the simulator" "$dir/err" && [ "$(nv_get qos)" = "$before" ]
check "refused value: unchanged" $? "exit $st: $(cat "$dir/err")"

# --- the connection dropped after the apply request: a read-back decides ---
nv_start --drop-apply 1
intent leaf1
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" && grep -q "the connection dropped after the apply" "$dir/err"
check "dropped after apply: read back, applied" $? "exit $st: $(cat "$dir/err")"

# --- an apply that never ends: outcome unknown ---
nv_start --hang-apply
intent leaf1
run push --switch leaf1 --timeout 2
[ $st -eq 3 ] && grep -q "still applying" "$dir/err" && grep -q "NOT RESTORED" "$dir/err"
check "apply never ends: outcome unknown" $? "exit $st: $(cat "$dir/err")"

# --- nothing sent: wrong password, untrusted certificate, another hostname ---
nv_start
intent leaf1
QOSGEN_NVUE_PASSWORD=wrong run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNREACHABLE" "$dir/err" && grep -q "401" "$dir/err" && [ "$(nv_revisions)" -eq 0 ]
check "wrong password: unreachable" $? "exit $st: $(cat "$dir/err")"
"$Q" push "$dir/intent.yaml" --switch leaf1 --timeout 5 >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 3 ] && grep -q "not trusted" "$dir/err" && [ "$(nv_revisions)" -eq 0 ]
check "untrusted certificate: refused" $? "exit $st: $(cat "$dir/err")"
printf -- '- set:\n    system:\n      hostname: spine9\n' >"$dir/other.yaml"
nv_start --config "$dir/other.yaml"
intent leaf1
run push --switch leaf1
[ $st -eq 3 ] && grep -q "hostname is 'spine9'" "$dir/err" && [ "$(nv_revisions)" -eq 0 ]
check "another hostname: refused" $? "exit $st: $(cat "$dir/err")"

# --- a mixed fabric from one intent: Onyx (sshd + simulator) and NVUE ---
nv_start
sw="$dir/onyx1"
sshd_start "$dir/sshd" "$SIM --state $sw --ports 32"
sim_hostname "$SIM" "$sw" 32 onyx1
user=${USER:-$(id -un)}
kh="$dir/known_hosts"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$kh"
onyx_port=$port
python3 "$here/tests/sim/sonic_sim.py" --state "$dir/sonic1" init "$here/tests/sim/sonic-msn2700.config_db.json" >/dev/null
sshd_start "$dir/sshd-sonic" "python3 $here/tests/sim/sonic_sim.py --state $dir/sonic1"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd-sonic/host_key.pub")" >>"$kh"
# One client key for both sshds: qosgen takes one --identity.
cat "$dir/sshd/client_key.pub" >>"$dir/sshd-sonic/authorized_keys"
# The simulator's device is an MSN2700 whose hostname is "sonic".
cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e
$E2E_QOS
switches:
  - {name: onyx1, platform: onyx, address: 127.0.0.1, port: $onyx_port, user: $user, ports: [1/1-1/4]}
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4]}
  - {name: sonic, platform: sonic, address: 127.0.0.1, port: $port, user: $user, ports: [Ethernet0-12/4]}
YAML
ssh_opts="--known-hosts $kh --identity $dir/sshd/client_key --ssh-config /dev/null"
# shellcheck disable=SC2086
run diff --all --exit-code $ssh_opts
[ $st -eq 1 ] && grep -q '^## onyx1$' "$dir/out" && grep -q '^## leaf1$' "$dir/out" &&
	grep -q '^## sonic$' "$dir/out" &&
	grep -q '^traffic pool roce type lossless$' "$dir/out" &&
	grep -q '^nv set qos roce mode lossless$' "$dir/out" &&
	grep -q '"path":"/DSCP_TO_TC_MAP/QOSGEN"' "$dir/out"
check "mixed fabric: diff --all shows all three OSes" $? "exit $st: $(cat "$dir/out" "$dir/err")"
# shellcheck disable=SC2086
run push --all $ssh_opts
[ $st -eq 0 ] && grep -q "^onyx1 .*onyx .*converged" "$dir/err" &&
	grep -q "^leaf1 .*cumulus .*converged" "$dir/err" && grep -q "^sonic .*sonic .*converged" "$dir/err"
check "mixed fabric: push --all converges all three" $? "exit $st: $(cat "$dir/err")"
# shellcheck disable=SC2086
run diff --all --exit-code $ssh_opts
[ $st -eq 0 ] && [ ! -s "$dir/out" ]
check "mixed fabric: second diff --all empty" $? "exit $st: $(cat "$dir/out" "$dir/err")"

# --- issue 24: hostile and slow switches ---
# 8: a revision id that is no NVUE id ('..': libcurl resolves /revision/.. to
# the API's root, and the apply would PATCH /nvue_v1/) is refused before any
# request uses it; the switch's text comes back escaped. The documented
# changeset form still converges.
nvlog_at() { wc -l <"$dir/nvsim.log"; }
nv_start --rev-id .. --rev-id "$(printf '1/../\033[2J')" --rev-id changeset/cumulus/2021-11-02_16.09.18_5Z1K
intent leaf1
at=$(nvlog_at)
run push --switch leaf1
[ $st -eq 3 ] && grep -q "revision '\.\.', which is not an NVUE revision id" "$dir/err" &&
	grep -q "UNCHANGED" "$dir/err" && ! tail -n +$((at + 1)) "$dir/nvsim.log" | grep -q '"PATCH '
check "revision id '..': refused, nothing patched" $? "exit $st: $(cat "$dir/err"; tail -n +$((at + 1)) "$dir/nvsim.log")"
at=$(nvlog_at)
run push --switch leaf1
[ $st -eq 3 ] && grep -qF "revision '1/../\\x1b[2J', which is not" "$dir/err" &&
	! grep -q "$(printf '\033')" "$dir/err" && ! tail -n +$((at + 1)) "$dir/nvsim.log" | grep -q '"PATCH '
check "revision id with control bytes: refused, escaped" $? "exit $st: $(cat "$dir/err")"
run push --switch leaf1
[ $st -eq 0 ] && grep -q "revision changeset/cumulus/2021-11-02_16.09.18_5Z1K, applied" "$dir/err"
check "documented changeset id: converges" $? "exit $st: $(cat "$dir/err")"
# 3: polls that each take 2.5 s, --timeout 3: the apply wait, every poll
# request included, ends by the deadline (the outcome then unknown, still
# applying). Before, only the sleeps between polls were counted: 40 s and
# more. A bound on behaviour, loose: a loaded machine passes it.
nv_start --hang-apply --slow-poll 2.5
intent leaf1
t0=$(date +%s%N)
run push --switch leaf1 --timeout 3
ms=$((($(date +%s%N) - t0) / 1000000))
[ $st -eq 3 ] && grep -q "still applying" "$dir/err" && grep -q "NOT RESTORED" "$dir/err" &&
	[ "$ms" -lt 10000 ]
check "slow polls: the apply wait ends by --timeout" $? "exit $st after $ms ms: $(cat "$dir/err")"

# --- issue 36: an apply whose answer does not say whether it ran ---
# nginx in front of NVUE answers 502/504 (and a front end 408/429) while NVUE
# goes on applying: qosgen follows the revision's state to its end, so the
# change that lands a moment later is read back and saved, never UNCHANGED.
for code in 502 504 408 429; do
	nv_start --apply-error "$code" --apply-delay 1.5
	intent leaf1
	run push --switch leaf1
	[ $st -eq 0 ] && grep -q "converged" "$dir/err" && grep -q "answered HTTP $code" "$dir/err" &&
		! grep -q UNCHANGED "$dir/err" && nv_get qos/pfc | grep -q '"3"'
	check "apply answered $code, applied later: followed, converged" $? "exit $st: $(cat "$dir/err")"
done
# A state word NVIDIA does not document as an end, for a while before
# `applied`: the poll goes on.
nv_start --apply-state verifying --apply-delay 1.5
intent leaf1
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" && ! grep -q UNCHANGED "$dir/err"
check "an unknown in-progress state word: polled on, converged" $? "exit $st: $(cat "$dir/err")"
# The connection cut after the apply, then nginx answers 502 while NVUE
# restarts: polls that fail are asked again until the revision's end.
nv_start --drop-apply 1 --busy-after-apply 1 --apply-delay 1.5
intent leaf1
run push --switch leaf1
[ $st -eq 0 ] && grep -q "converged" "$dir/err" && grep -q "the connection dropped after the apply" "$dir/err" &&
	grep -q 'answered 502 by the front end (--busy-after-apply)' "$dir/nvsim.log"
check "connection cut, then 502s while it applies: followed, converged" $? "exit $st: $(cat "$dir/err")"
# Answered 502 and never ending within --timeout: outcome unknown, read
# back, not rolled back under it, NOT RESTORED; never UNCHANGED.
nv_start --apply-error 502 --hang-apply --apply-state verifying
intent leaf1
at=$(nvlog_at)
run push --switch leaf1 --timeout 2
[ $st -eq 3 ] && grep -q "NOT RESTORED" "$dir/err" && grep -q "still applying after 2 s" "$dir/err" &&
	grep -q "in state 'verifying', which NVIDIA does not document as an end" "$dir/err" &&
	! grep -q UNCHANGED "$dir/err" && [ "$(tail -n +$((at + 1)) "$dir/nvsim.log" | grep -c '"PATCH /nvue_v1/revision/')" -eq 1 ]
check "apply answered 502, never ends: NOT RESTORED, no rollback" $? "exit $st: $(cat "$dir/err")"
# A switch whose answers to the polls are large and never end (4 MiB of
# progress text each): the answers together are held to the read-back limit
# (16 MiB), so the wait ends after a few polls, long before --timeout, with
# the outcome unknown: NOT RESTORED, never UNCHANGED (issue 36).
nv_start --hang-apply --progress-kb 4096
intent leaf1
at=$(nvlog_at)
t0=$(date +%s%N)
run push --switch leaf1 --timeout 60
ms=$((($(date +%s%N) - t0) / 1000000))
polls=$(tail -n +$((at + 1)) "$dir/nvsim.log" | grep -c '"GET /nvue_v1/revision/')
[ $st -eq 3 ] && grep -q "passed the read-back limit of 16 MiB before it ended" "$dir/err" &&
	grep -q "NOT RESTORED" "$dir/err" && ! grep -q UNCHANGED "$dir/err" &&
	[ "$ms" -lt 30000 ] && [ "$polls" -ge 4 ] && [ "$polls" -le 8 ]
check "polls answered with 4 MiB each, never ending: held to the read-back limit" $? \
	"exit $st after $ms ms, $polls polls: $(cat "$dir/err")"
# A documented end after all: answered 502, the revision ends invalid, the
# applied configuration untouched: that is UNCHANGED, and said so.
nv_start --apply-error 502 --refuse-path 'qos/congestion-control/*/traffic-class/*/min-threshold=150000'
intent leaf1
before=$(nv_get qos)
run push --switch leaf1
[ $st -eq 3 ] && grep -q "UNCHANGED" "$dir/err" && grep -q "(invalid)" "$dir/err" && [ "$(nv_get qos)" = "$before" ]
check "apply answered 502, then invalid: unchanged" $? "exit $st: $(cat "$dir/err")"

echo "$pass nvue checks passed, $fail failed"
[ "$fail" -eq 0 ]
