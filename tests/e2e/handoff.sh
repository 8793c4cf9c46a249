#!/bin/sh
# SPDX-License-Identifier: MIT
# The Ansible hand-off end to end (issues 15, 27): Debian's ansible-playbook
# runs the ansible/site.yml and ansible/inventory.yml that qosgen build wrote,
# unedited, against the three simulated switch OSes (the Onyx simulator
# behind a test sshd, the NVUE simulator over HTTPS with its test CA, the
# SONiC simulator behind a test sshd) and the test sshd's hosts (ESXi and
# Linux through fakehost.sh's fake tools) and a simulated Linux host that
# converges (tests/sim/host_sim.sh: the fake tools and a sysfs of its own,
# bound over /sys in each session's mount namespace). The switch plays and
# the Linux host play run qosgen push on the controller; the ESXi host runs
# its generated script. What it shows:
#   ansible-lint (Debian's) finds no violation in the generated files;
#   check mode (--check --diff) prints each device's qosgen diff and leaves
#   every simulator byte-identical (no NVUE revision, no SONiC checkpoint);
#   the first run changes every device, the second reports changed=0;
#   a priority added by hand on each switch between runs (PFC and the Onyx
#   pool on priority 4 too) is reported changed and removed (the plays no
#   longer only add); the simulated Linux host's MTU and rdma_cm ToS set
#   back by hand are reported changed and set again; its persistence
#   (persist: true, the default: the installed script, the systemd unit, the
#   udev rule) is installed by the first run and is in what the play reports:
#   after it `qosgen diff --host` finds it in sync, the second run reports
#   changed=0, a udev rule removed by hand is reported changed and put back;
#   in check mode `qosgen diff --host` prints what differs (persist: missing
#   included) and its files stay byte-identical;
#   `qosgen push --host` agrees (--dry-run changes nothing, then converged,
#   then in sync);
#   a failing switch stops its wave: with qosgen_serial=1 the NVUE switch
#   that cannot be reached fails, the SONiC switch after it and both hosts
#   are untouched; `qosgen push --all --batch 1` stops at the same switch and
#   says which devices were done, failed and untouched (text and --json);
#   the ESXi host runs its three parts as one; a Linux host missing RoCE
#   knobs (the loopback has none) is failed, never ok (qosgen's PARTIAL);
#   the NVUE password, given as a variable, is in no log, even at -vvv.
# Usage: handoff.sh BUILD
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
t0=$(date +%s)
fake=$(cd "$here/../scripts/fake" && pwd)
state="$dir/state"
SONIC_SIM="$here/../sim/sonic_sim.py"
SONIC_DB="$here/../sim/sonic-msn2700.config_db.json"
PY=$(python3 -c 'import sys; print(sys.executable)')
E2E_CLEANUP='kill_ansible "$dir/home"; sh "$here/sshd.sh" stop "$dir/hosts"; sh "$here/sshd.sh" stop "$dir/gpu-sshd"; sh "$here/sshd.sh" stop "$dir/sonic-sshd"; nv_stop'
if ! command -v ansible-playbook >/dev/null || ! ansible_collection "$dir"; then
	echo "FAIL handoff: ansible-playbook or the mellanox.onyx collection is missing ('make setup' installs ansible)"
	exit 1
fi
user=${USER:-$(id -un)}

# The Onyx switch behind $dir/sshd, the SONiC switch behind $dir/sonic-sshd,
# the hosts (fakehost.sh) behind $dir/hosts; one client key logs in to all.
sim_hostname "$SIM" "$dir/sw" 8 sw1
sshd_start "$dir/sshd" "$SIM --state $dir/sw --ports 8"
swport=$port
"$PY" "$SONIC_SIM" --state "$dir/sonic" init "$SONIC_DB" >/dev/null ||
	{ echo "FAIL handoff: the SONiC simulator refuses its device"; exit 1; }
sshd_start "$dir/sonic-sshd" "$PY $SONIC_SIM --state $dir/sonic"
soport=$port
cat "$dir/sshd/client_key.pub" >>"$dir/sonic-sshd/authorized_keys"
mkdir -p "$state"
sshd_start "$dir/hosts" "sh $here/fakehost.sh $state $fake"
hport=$port
cat "$dir/sshd/client_key.pub" >>"$dir/hosts/authorized_keys"
# gpu2, the simulated Linux host, behind $dir/gpu-sshd: a ConnectX PF as it
# comes up (MTU 1500, rdma_cm's ToS 0, ...), its files under $gpu.
gpu=$dir/gpu
sh "$here/../sim/host_sim.sh" init linux "$gpu" ens1f0np0 mlx5_0
if ! why=$(sh "$here/../sim/host_sim.sh" check "$gpu" 2>&1); then
	echo "FAIL handoff: the simulated Linux host cannot run here: $why"
	exit 1
fi
sshd_start "$dir/gpu-sshd" "sh $here/../sim/host_sim.sh serve $gpu"
gport=$port
cat "$dir/sshd/client_key.pub" >>"$dir/gpu-sshd/authorized_keys"
key=$dir/sshd/client_key
nv_cert handoff
nv_start
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8'" >"$state/module.nmlx5_core"
echo "nmlx5_rdma enabled = 1 options = ''" >"$state/module.nmlx5_rdma"

mkdir -p "$dir/home/.ssh" "$dir/rtmp"
known="$dir/home/.ssh/known_hosts"
printf '[127.0.0.1]:%s %s\n' "$swport" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$known"
printf '[127.0.0.1]:%s %s\n' "$soport" "$(cut -d' ' -f1,2 "$dir/sonic-sshd/host_key.pub")" >>"$known"
printf '[127.0.0.1]:%s %s\n' "$hport" "$(cut -d' ' -f1,2 "$dir/hosts/host_key.pub")" >>"$known"
printf '[127.0.0.1]:%s %s\n' "$gport" "$(cut -d' ' -f1,2 "$dir/gpu-sshd/host_key.pub")" >>"$known"
ansible_cfg "$dir" 5 15 30
# OpenSSH reads the passwd entry's home, not $HOME: the known hosts by name.
# The test sshd's ForceCommand replaces the sftp subsystem: files go through dd.
cat >>"$dir/ansible.cfg" <<CFG
[ssh_connection]
ssh_args = -F /dev/null -o UserKnownHostsFile=$known -o ControlMaster=no
transfer_method = piped
CFG

# The switches in the order the playbook's waves take them (the inventory's:
# Onyx, Cumulus, SONiC) and --batch takes them (the intent's). gpu2 has
# persistence (persist: true, the default): the Linux play's qosgen push
# installs its script, unit and rule, as `qosgen push --host` does.
cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e-handoff
$E2E_QOS
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $swport, user: $user, ports: [1/1-1/4]}
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4, swp49s0-3]}
  - {name: sonic, platform: sonic, address: 127.0.0.1, port: $soport, user: $user, ports: [Ethernet0-12/4]}
hosts:
  - {name: esx, platform: esxi, address: 127.0.0.1, port: $hport, user: $user, uplink: vmnic2}
  - {name: gpu2, platform: linux, address: 127.0.0.1, port: $gport, user: $user, netdev: ens1f0np0, rdma_device: mlx5_0}
YAML
"$Q" build "$dir/intent.yaml" -o "$dir/out" >/dev/null 2>"$dir/err"
check build $? "$(cat "$dir/err")"

# ansible-lint, Debian's, on the files as generated here (Onyx, NVUE, SONiC,
# ESXi, Linux) and on the k8s-pvrdma golden case's (a DVS, Linux hosts): no
# violation, production profile. One run: its start is most of its time.
cp -r "$here/../golden/k8s-pvrdma/expected/ansible" "$dir/out/ansible-dvs"
(cd "$dir/out" && HOME="$dir/home" ansible-lint --offline --profile production --nocolor \
	ansible/site.yml ansible/inventory.yml ansible-dvs/site.yml ansible-dvs/inventory.yml) >"$dir/lint" 2>&1
st=$?
rm -rf "$dir/out/ansible-dvs"
[ $st -eq 0 ] && grep -q 'Passed with production profile: 0 failure(s), 0 warning(s) on 4 files' "$dir/lint"
check ansible-lint-clean $? "exit $st: $(tail -30 "$dir/lint")"

# The NVUE password as a vault's variables file would give it (never argv).
(umask 077 && echo 'qosgen_nvue_password: e2e-pw' >"$dir/vault.yml")
pintent=$dir/intent.yaml
qargs="--known-hosts $known --identity $key --ssh-config /dev/null --ca-file $dir/cert.pem"
# play OUT [ARGS...]: ansible-playbook on OUT's generated files, built from
# $pintent (the qosgen_intent of the plays that run qosgen), log in
# $dir/play.log. The NVUE password is a variable (as from a vault), not in
# ansible-playbook's environment: only the play hands it to qosgen.
play() {
	o=$1
	shift
	env -u QOSGEN_NVUE_PASSWORD HOME="$dir/home" ANSIBLE_CONFIG="$dir/ansible.cfg" \
		ANSIBLE_LOCAL_TEMP="$dir/tmp" ANSIBLE_REMOTE_TEMP="$dir/rtmp" ANSIBLE_NOCOLOR=1 \
		ansible-playbook -i "$o/ansible/inventory.yml" "$o/ansible/site.yml" --private-key "$key" \
		-e "{\"qosgen\": \"$Q\", \"qosgen_intent\": \"$pintent\", \"qosgen_push_args\": [\"--known-hosts\", \"$known\", \"--identity\", \"$key\", \"--ssh-config\", \"/dev/null\", \"--ca-file\", \"$dir/cert.pem\"]}" \
		-e "@$dir/vault.yml" \
		"$@" >"$dir/play.log" 2>&1
	st=$?
	recap=$(sed -n '/^PLAY RECAP/,$p' "$dir/play.log" | grep -E '^[a-z0-9-]+ +:' | tr -s ' ')
}
# recap_of HOST: its line of the last recap.
recap_of() { printf '%s\n' "$recap" | grep "^$1 :"; }
# unchanged: no device of the last recap changed or failed.
unchanged() {
	! printf '%s\n' "$recap" | grep -v 'changed=0' | grep -q . &&
		! printf '%s\n' "$recap" | grep -v 'failed=0' | grep -q .
}
qdiff() {
	# shellcheck disable=SC2086
	QOSGEN_NVUE_PASSWORD=e2e-pw "$Q" diff "$dir/intent.yaml" --all --exit-code $qargs >"$dir/d" 2>&1
}
nv() { # METHOD PATH [BODY]: NVUE's API as an operator's curl
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw -X "$1" -H 'Content-Type: application/json' \
		${3:+--data "$3"} "https://127.0.0.1:$nvport/nvue_v1/$2"
}
ssh_sonic() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$known" \
		-i "$key" -p "$soport" "$user@127.0.0.1" "$@"
}
# sonic_pfc0: the SONiC switch's PFC priorities on Ethernet0, as running.
sonic_pfc0() {
	"$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"])' \
		"$dir/sonic/running.json"
}
# gpu_mtu, gpu_tos: the simulated Linux host's MTU and rdma_cm ToS, as its
# sysfs has them.
gpu_mtu() { cat "$gpu/sys/class/net/ens1f0np0/mtu"; }
gpu_tos() { cat "$gpu/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"; }
# gpu_persisted: the simulated Linux host has its installed script, unit and
# rule (under its QG_ROOT, fakehost.sh), byte for byte as build wrote them.
gpu_rule=$gpu/root/etc/udev/rules.d/90-qosgen-roce-qos-ens1f0np0.rules
gpu_persisted() {
	cmp -s "$dir/out/host/persist/ens1f0np0/mlx5_0.rules" "$gpu_rule" &&
		cmp -s "$dir/out/host/persist/ens1f0np0/mlx5_0.service" \
			"$gpu/root/etc/systemd/system/qosgen-roce-qos-ens1f0np0@.service" &&
		[ -s "$gpu/root/usr/local/lib/qosgen/roce-qos-ens1f0np0.sh" ]
}
# snapshot: every simulator's state, byte for byte: the Onyx switch's files
# (less its trace of commands read), NVUE's applied and startup configurations
# and its revisions, the SONiC switch's files (less its log) and checkpoints,
# the hosts' fake state and the simulated Linux host's files, sysfs included
# (less the tools' call logs; the latter's names too).
snapshot() {
	(cd "$dir/sw" && find . -type f ! -name trace | sort | xargs cat)
	nv GET '?rev=applied&filled=false'
	nv GET '?rev=startup&filled=false'
	nv GET revision
	(cd "$dir/sonic" && find . -type f ! -name sim.log | sort | xargs cat)
	ssh_sonic sudo config list-checkpoints 2>&1
	(cd "$state" && find . -type f ! -name calls | sort | xargs cat)
	(cd "$gpu" && find . -type f ! -name calls | sort | xargs grep -r '')
}

# --- check mode: each device's qosgen diff, nothing sent ---
snapshot >"$dir/before"
play "$dir/out" --check --diff
snapshot >"$dir/after"
[ $st -eq 0 ] && recap_of sw1 | grep -q 'changed=1 .*failed=0' && recap_of leaf1 | grep -q 'changed=1 .*failed=0' &&
	recap_of sonic | grep -q 'changed=1 .*failed=0' && recap_of esx | grep -q 'changed=1 .*failed=0' &&
	recap_of gpu2 | grep -q 'changed=1 .*failed=0' &&
	cmp -s "$dir/before" "$dir/after" && [ ! -s "$state/calls" ] && [ ! -s "$gpu/calls" ] &&
	grep -q '\[differs\] mtu: 1500 -> 9000' "$dir/play.log" && grep -q '\[differs\] roce_tos: 0 -> 106' "$dir/play.log" &&
	grep -q '"\[differs\] persist: missing -> sha256 [0-9a-f]*"' "$dir/play.log" && [ ! -e "$gpu/root/usr" ] &&
	grep -q '"nv set qos pfc default-global switch-priority 3"' "$dir/play.log" &&
	grep -q '"traffic pool roce map switch-priority 3"' "$dir/play.log" &&
	grep -q 'PORT_QOS_MAP/Ethernet0/pfc_enable' "$dir/play.log" &&
	grep -q '\[differs\] nmlx5_core.pfcrx' "$dir/play.log"
check check-mode-shows-the-diff-sends-nothing $? "exit $st: $recap $(diff "$dir/before" "$dir/after" | head -20) $(grep -c 'traffic pool roce map switch-priority 3' "$dir/play.log") $(grep -c 'nv set qos pfc default-global switch-priority 3' "$dir/play.log") $(grep -c 'pfcrx' "$dir/play.log")"
echo "handoff check mode: $(printf '%s' "$recap" | tr '\n' ';')"
# Issue 37: the report says a dry run's outcome once ("N settings would
# change (dry run: nothing sent)"), not after "would change: " again.
grep -q 'settings would change (dry run' "$dir/play.log" && ! grep -q 'would change: [0-9]* setting' "$dir/play.log"
check check-mode-says-would-change-once $? "$(grep 'would change' "$dir/play.log" | head -5)"

# --- the first run changes every device, the second none ---
play "$dir/out"
[ $st -eq 0 ] && recap_of sw1 | grep -q 'changed=1 .*failed=0' && recap_of leaf1 | grep -q 'changed=1 .*failed=0' &&
	recap_of sonic | grep -q 'changed=1 .*failed=0' && recap_of esx | grep -q 'changed=1 .*failed=0' &&
	recap_of gpu2 | grep -q 'changed=1 .*failed=0' && [ "$(gpu_mtu) $(gpu_tos)" = '9000 106' ] &&
	grep -q '"\[changed\] persist: missing -> sha256 [0-9a-f]*"' "$dir/play.log" && gpu_persisted
check first-run-changes $? "exit $st: $recap $(tail -40 "$dir/play.log"; find "$gpu/root")"
echo "handoff first run: $(printf '%s' "$recap" | tr '\n' ';')"
qdiff
check first-run-converges-exactly $? "$(cat "$dir/d")"
# The Linux host with its persistence: what `qosgen diff --host` says, by name.
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host gpu2 --exit-code $qargs >"$dir/d" 2>&1
check first-run-linux-host-persist-in-sync $? "$(cat "$dir/d")"

# The second run, at -vvv, keeps what the ESXi host ran (its three parts as
# one) and leaves no copy on the controller; the Linux host's installed
# script is its three parts as one too.
rm -rf "$dir/rtmp" "$dir/ctmp"
mkdir -p "$dir/rtmp" "$dir/ctmp"
export ANSIBLE_KEEP_REMOTE_FILES=1 TMPDIR="$dir/ctmp"
play "$dir/out" -vvv
unset ANSIBLE_KEEP_REMOTE_FILES TMPDIR
[ $st -eq 0 ] && unchanged && [ "$(printf '%s\n' "$recap" | wc -l)" -eq 5 ]
check second-run-changed-0 $? "exit $st: $recap $(tail -40 "$dir/play.log")"
echo "handoff second run: $(printf '%s' "$recap" | tr '\n' ';')"
! grep -q 'e2e-pw' "$dir/play.log" && grep -q 'no_log' "$dir/play.log"
check nvue-password-in-no-log $? "$(grep -n 'e2e-pw' "$dir/play.log" | head -5)"
(cd "$dir/out" && cat host/lib/esxi.sh && grep "^qg_host='esx' " host/hosts/esxi.sh &&
	cat host/groups/esxi.sh) >"$dir/esx.script"
(cd "$dir/out" && cat host/lib/linux.sh && grep "^qg_host='gpu2' " host/hosts/linux.sh &&
	cat host/groups/linux-pf-mlnx_qos.sh) >"$dir/gpu2.script"
# The ESXi host's script in the remote temporary folder, by content; the
# Linux host's (qosgen push, sh -s) installed.
ran=$(find "$dir/rtmp" -type f -name '*.sh' -exec cksum {} + | cut -d' ' -f1,2 | sort)
[ "$ran" = "$(cksum <"$dir/esx.script" | cut -d' ' -f1,2)" ] && [ -z "$(ls -A "$dir/ctmp")" ] &&
	cmp -s "$dir/gpu2.script" "$gpu/root/usr/local/lib/qosgen/roce-qos-ens1f0np0.sh"
check host-runs-its-three-files-as-one $? "ran: $(find "$dir/rtmp" -type f -name '*.sh' -exec cksum {} +); expected: $(cksum "$dir/esx.script"); left on the controller: $(ls -A "$dir/ctmp"); installed: $(cksum "$gpu/root/usr/local/lib/qosgen/roce-qos-ens1f0np0.sh" "$dir/gpu2.script")"

# --- a priority added by hand on every switch: changed, and removed; the
# Linux host's MTU and RoCE ToS set back by hand (ip link, rdma_cm's
# configfs): changed, and set again ---
printf 'enable\nconfigure terminal\ntraffic pool roce map switch-priority 4\ninterface ethernet 1/2 mtu 1500 force\nexit\n' |
	"$SIM" --state "$dir/sw" --ports 8 >/dev/null
rev=$(nv POST revision | python3 -c 'import json,sys; print(next(iter(json.load(sys.stdin))))')
nv PATCH "?rev=$rev" '{"qos": {"pfc": {"default-global": {"switch-priority": {"4": {}}}}}}' >/dev/null
nv PATCH "revision/$rev" '{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}' >/dev/null
sleep 1
echo '[{"op": "replace", "path": "/PORT_QOS_MAP/Ethernet0/pfc_enable", "value": "3,4"}]' |
	ssh_sonic sudo config apply-patch /dev/stdin >/dev/null 2>&1
echo 1500 >"$gpu/sys/class/net/ens1f0np0/mtu"
echo 0 >"$gpu/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"
rm "$gpu_rule"
qdiff
grep -q 'mtu: 1500 -> 9000' "$dir/d" && grep -q 'roce_tos: 0 -> 106' "$dir/d" &&
	grep -q '^\[differs\] persist: stale (90-qosgen-roce-qos-ens1f0np0.rules; ' "$dir/d" &&
	grep -q 'no traffic pool roce map switch-priority 4' "$dir/d" &&
	grep -q 'nv unset qos pfc default-global switch-priority 4' "$dir/d" && grep -q '"value":"3"' "$dir/d"
check drift-made-by-hand $? "$(cat "$dir/d")"
play "$dir/out"
[ $st -eq 0 ] && recap_of sw1 | grep -q 'changed=1 .*failed=0' && recap_of leaf1 | grep -q 'changed=1 .*failed=0' &&
	recap_of sonic | grep -q 'changed=1 .*failed=0' && recap_of esx | grep -q 'changed=0 .*failed=0' &&
	recap_of gpu2 | grep -q 'changed=1 .*failed=0' && [ "$(gpu_mtu) $(gpu_tos)" = '9000 106' ] && gpu_persisted &&
	grep -q '\[changed\] persist: stale (90-qosgen-roce-qos-ens1f0np0.rules; ' "$dir/play.log" &&
	grep -q '\[changed\] mtu: 1500 -> 9000' "$dir/play.log" && grep -q '\[changed\] roce_tos: 0 -> 106' "$dir/play.log" &&
	grep -q '"no traffic pool roce map switch-priority 4"' "$dir/play.log" &&
	grep -q '"nv unset qos pfc default-global switch-priority 4"' "$dir/play.log"
check priority-added-by-hand-changed $? "exit $st: $recap $(tail -40 "$dir/play.log")"
qdiff
check priority-added-by-hand-removed $? "$(cat "$dir/d")"

# --- waves: a failing switch stops its wave and every later one ---
# Drift on the SONiC switch and the host, after the NVUE switch in the
# waves; then the NVUE switch cannot be reached.
echo '[{"op": "replace", "path": "/PORT_QOS_MAP/Ethernet0/pfc_enable", "value": "3,4"}]' |
	ssh_sonic sudo config apply-patch /dev/stdin >/dev/null 2>&1
echo "nmlx5_rdma enabled = 1 options = 'dscp_force=24'" >"$state/module.nmlx5_rdma"
echo 0 >"$gpu/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"
nv_stop
play "$dir/out" -e qosgen_serial=1
[ $st -ne 0 ] && recap_of sw1 | grep -q 'changed=0 .*failed=0' && recap_of leaf1 | grep -q 'failed=1' &&
	! recap_of sonic && ! recap_of esx && ! recap_of gpu2 && grep -q 'UNREACHABLE' "$dir/play.log" &&
	grep -q "dscp_force=24" "$state/module.nmlx5_rdma" && [ "$(sonic_pfc0)" = 3,4 ] && [ "$(gpu_tos)" = 0 ]
check playbook-wave-stops-at-a-failing-switch $? "exit $st: $recap $(tail -30 "$dir/play.log")"
echo "handoff waves (serial 1): $(printf '%s' "$recap" | tr '\n' ';')"

# shellcheck disable=SC2086
QOSGEN_NVUE_PASSWORD=e2e-pw "$Q" push "$dir/intent.yaml" --all --batch 1 $qargs >"$dir/p.out" 2>"$dir/p.err"
st=$?
[ $st -eq 3 ] && grep -q '^qosgen push: batch 2 of 5: 1 switch$' "$dir/p.err" &&
	! grep -q 'batch 3 of 5' "$dir/p.err" && grep -q '^sw1 .* in sync ' "$dir/p.err" &&
	grep -q '^leaf1 .* UNREACHABLE ' "$dir/p.err" && grep -q '^sonic .* untouched ' "$dir/p.err" &&
	grep -q '^esx .* untouched ' "$dir/p.err" && grep -q '^gpu2 .* untouched ' "$dir/p.err" &&
	grep -q '^stopped after batch 2 of 5 .*: 3 devices untouched$' "$dir/p.err" &&
	grep -q "dscp_force=24" "$state/module.nmlx5_rdma" && [ "$(sonic_pfc0)" = 3,4 ] && [ "$(gpu_tos)" = 0 ]
check push-batch-stops-at-a-failing-switch $? "exit $st: $(cat "$dir/p.err")"
# shellcheck disable=SC2086
QOSGEN_NVUE_PASSWORD=e2e-pw "$Q" push "$dir/intent.yaml" --all --batch 2 --json $qargs >"$dir/p.out" 2>"$dir/p.err"
st=$?
[ $st -eq 3 ] && python3 - "$dir/p.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = {x["device"]: x for x in r["devices"]}
assert [x["device"] for x in r["devices"]] == ["sw1", "leaf1", "sonic", "esx", "gpu2"], r
assert d["sw1"]["status"] == "in sync" and d["sw1"]["batch"] == 1, d["sw1"]
assert d["leaf1"]["status"] == "UNREACHABLE" and not d["leaf1"]["ok"], d["leaf1"]
assert d["sonic"]["status"] == "untouched" and d["sonic"]["batch"] == 2, d["sonic"]
assert d["esx"]["status"] == "untouched" and d["esx"]["batch"] == 3, d["esx"]
assert d["gpu2"]["status"] == "untouched" and d["gpu2"]["batch"] == 3, d["gpu2"]
s = r["summary"]
assert s["failed"] == 1 and s["batches"] == {"size": 2, "total": 3, "done": 1, "untouched": 3}, s
PY
check push-batch-json $? "exit $st: $(cat "$dir/p.out" "$dir/p.err")"
# The NVUE switch back (a fresh one, on its port): every wave runs, every device converges.
nv_start --port "$nvport"
# shellcheck disable=SC2086
QOSGEN_NVUE_PASSWORD=e2e-pw "$Q" push "$dir/intent.yaml" --all --batch 1 $qargs >"$dir/p.out" 2>"$dir/p.err"
st=$?
[ $st -eq 0 ] && grep -q '^qosgen push: batch 5 of 5: 1 host$' "$dir/p.err" && grep -q '^leaf1 .* converged ' "$dir/p.err" &&
	grep -q '^sonic .* converged ' "$dir/p.err" && grep -q '^esx .* converged ' "$dir/p.err" &&
	grep -q '^gpu2 .* converged ' "$dir/p.err" && [ "$(gpu_tos)" = 106 ] && qdiff
check push-batch-every-wave $? "exit $st: $(cat "$dir/p.err") $(cat "$dir/d")"
"$Q" push "$dir/intent.yaml" --switch sw1 --batch 1 >/dev/null 2>"$dir/p.err"
[ $? -eq 2 ] && grep -q -- '--batch goes with --all' "$dir/p.err"
check push-batch-needs-all $? "$(cat "$dir/p.err")"

# --- qosgen push --host on the simulated Linux host, as a cross-check of
# the plays: --dry-run prints the MTU set by hand and changes nothing; the
# push converges it; the next is in sync ---
echo 1500 >"$gpu/sys/class/net/ens1f0np0/mtu"
rm -f "$gpu/calls"
(cd "$gpu" && find . -type f | sort | xargs grep -r '') >"$dir/before"
# shellcheck disable=SC2086
"$Q" push "$dir/intent.yaml" --host gpu2 --dry-run $qargs >"$dir/p.out" 2>"$dir/p.err"
st=$?
(cd "$gpu" && find . -type f | sort | xargs grep -r '') >"$dir/after"
grep -q 'mtu: 1500 -> 9000' "$dir/p.out" "$dir/p.err" && cmp -s "$dir/before" "$dir/after"
check push-host-dry-run-changes-nothing $? "exit $st: $(cat "$dir/p.out" "$dir/p.err") $(diff "$dir/before" "$dir/after" | head)"
# shellcheck disable=SC2086
"$Q" push "$dir/intent.yaml" --host gpu2 $qargs >"$dir/p.out" 2>"$dir/p.err"
st=$?
# shellcheck disable=SC2086
"$Q" push "$dir/intent.yaml" --host gpu2 $qargs >"$dir/p2.out" 2>"$dir/p2.err"
st2=$?
[ $st -eq 0 ] && grep -q '^gpu2 .* converged ' "$dir/p.err" && [ "$(gpu_mtu)" = 9000 ] &&
	[ $st2 -eq 0 ] && grep -q '^gpu2 .* in sync ' "$dir/p2.err"
check push-host-converges-then-in-sync $? "exit $st, $st2: $(cat "$dir/p.out" "$dir/p.err" "$dir/p2.out" "$dir/p2.err")"

# --- a Linux host missing RoCE knobs: failed, never ok ---
cat >"$dir/linux.yaml" <<YAML
version: 1
fabric: e2e-handoff-linux
$E2E_QOS
hosts:
  - {name: gpu1, platform: linux, address: 127.0.0.1, port: $hport, user: $user, netdev: lo, rdma_device: qgtest0}
YAML
"$Q" build "$dir/linux.yaml" -o "$dir/lout" >/dev/null 2>"$dir/err"
grep -v '^\$' "$here/../fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$state/mlnx_qos"
rm -f "$state/calls"
pintent=$dir/linux.yaml
play "$dir/lout" --limit gpu1
[ $st -ne 0 ] && recap_of gpu1 | grep -q 'failed=1' && grep -q 'qosgen exit 3: PARTIAL: ' "$dir/play.log" &&
	grep -q 'missing on this host: roce_tos' "$dir/play.log" && grep -q 'mlnx_qos -i lo --trust dscp' "$state/calls"
check linux-missing-knob-fails-task $? "exit $st: $recap $(tail -30 "$dir/play.log")"

echo "handoff: $(($(date +%s) - t0)) s"
echo "$pass handoff checks passed, $fail failed"
[ "$fail" -eq 0 ]
