#!/bin/sh
# SPDX-License-Identifier: MIT
# The Ansible hand-off end to end (issue 15): Debian's ansible-playbook runs
# the ansible/site.yml and ansible/inventory.yml that qosgen build wrote,
# unedited, against the Onyx simulator, a Cumulus switch (the NVUE
# simulator over HTTPS, its test CA given as qosgen_nvue_ca_path, the
# password as qosgen_nvue_password) and an ESXi host (a test sshd whose
# sessions run the scripts against fake tools, tests/e2e/fakehost.sh).
# Check mode changes nothing (the NVUE switch's applied configuration as
# before); the first run changes, the second reports changed=0, and its last
# play (qosgen diff --all --exit-code) passes, as does qosgen diff run here
# afterwards. TLS is verified: the play fails against a CA bundle without the
# test CA. The script a host runs is its three parts (host/lib, its line of
# host/hosts, its group's body) as one, byte for byte. A Linux host missing RoCE knobs
# (the loopback has none) fails its task with the script's exit 2.
# Usage: handoff.sh BUILD
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
fake=$(cd "$here/../scripts/fake" && pwd)
state="$dir/state"
E2E_CLEANUP='kill_ansible "$dir/home"; sh "$here/sshd.sh" stop "$dir/hosts"; nv_stop'
if ! command -v ansible-playbook >/dev/null || ! ansible_collection "$dir"; then
	echo "FAIL handoff: ansible-playbook or the mellanox.onyx collection is missing ('make setup' installs ansible)"
	exit 1
fi
user=${USER:-$(id -un)}

# The switch: the simulator behind $dir/sshd; the hosts: fakehost.sh behind
# $dir/hosts. One client key logs in to both.
sim_hostname "$SIM" "$dir/sw" 8 sw1
sshd_start "$dir/sshd" "$SIM --state $dir/sw --ports 8"
swport=$port
mkdir -p "$state"
sshd_start "$dir/hosts" "sh $here/fakehost.sh $state $fake"
hport=$port
cat "$dir/sshd/client_key.pub" >>"$dir/hosts/authorized_keys"
key=$dir/sshd/client_key
nv_cert handoff
nv_start
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8'" >"$state/module.nmlx5_core"
echo "nmlx5_rdma enabled = 1 options = ''" >"$state/module.nmlx5_rdma"

mkdir -p "$dir/home/.ssh" "$dir/rtmp"
known="$dir/home/.ssh/known_hosts"
printf '[127.0.0.1]:%s %s\n' "$swport" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$known"
printf '[127.0.0.1]:%s %s\n' "$hport" "$(cut -d' ' -f1,2 "$dir/hosts/host_key.pub")" >>"$known"
ansible_cfg "$dir" 5 15 30
# OpenSSH reads the passwd entry's home, not $HOME: the known hosts by name.
# The test sshd's ForceCommand replaces the sftp subsystem: files go through dd.
cat >>"$dir/ansible.cfg" <<CFG
[ssh_connection]
ssh_args = -F /dev/null -o UserKnownHostsFile=$known -o ControlMaster=no
transfer_method = piped
CFG

cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e-handoff
$E2E_QOS
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $swport, user: $user, ports: [1/1-1/4]}
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4, swp49s0-3]}
hosts:
  - {name: esx, platform: esxi, address: 127.0.0.1, port: $hport, user: $user, uplink: vmnic2}
YAML
"$Q" build "$dir/intent.yaml" -o "$dir/out" >/dev/null 2>"$dir/err"
check build $? "$(cat "$dir/err")"

qargs="--known-hosts $known --identity $key --ssh-config /dev/null --ca-file $dir/cert.pem"
# qosgen's own NVUE password (the convergence play's qosgen diff, and qdiff).
export QOSGEN_NVUE_PASSWORD=e2e-pw
# play OUT [ARGS...]: ansible-playbook on OUT's generated files, log in $dir/play.log.
play() {
	o=$1
	shift
	HOME="$dir/home" ANSIBLE_CONFIG="$dir/ansible.cfg" ANSIBLE_LOCAL_TEMP="$dir/tmp" \
		ANSIBLE_REMOTE_TEMP="$dir/rtmp" ansible-playbook -i "$o/ansible/inventory.yml" \
		"$o/ansible/site.yml" --private-key "$key" \
		-e "{\"qosgen\": \"$Q\", \"qosgen_intent\": \"$dir/intent.yaml\", \"qosgen_diff_args\": [\"--known-hosts\", \"$known\", \"--identity\", \"$key\", \"--ssh-config\", \"/dev/null\", \"--ca-file\", \"$dir/cert.pem\"]}" \
		-e "{\"qosgen_nvue_ca_path\": \"$dir/cert.pem\", \"qosgen_nvue_password\": \"e2e-pw\"}" \
		"$@" >"$dir/play.log" 2>&1
	st=$?
	recap=$(sed -n '/^PLAY RECAP/,$p' "$dir/play.log" | grep -E '^[a-z0-9-]+ +:' | tr -s ' ')
}
# recap_of HOST: its line of the last recap.
recap_of() { printf '%s\n' "$recap" | grep "^$1 :"; }
qdiff() {
	# shellcheck disable=SC2086
	"$Q" diff "$dir/intent.yaml" --all --exit-code $qargs >"$dir/d" 2>&1
}

# nv_conf REV: the NVUE switch's configuration in revision REV, as configured.
nv_conf() {
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw "https://127.0.0.1:$nvport/nvue_v1/?rev=$1&filled=false"
}
fresh=$(nv_conf applied)

play "$dir/out" --check
recap_of sw1 | grep -q 'changed=1' && recap_of esx | grep -q 'changed=1' && [ $st -eq 0 ] &&
	recap_of leaf1 | grep -q 'changed=1 .*failed=0' && [ "$(nv_conf applied)" = "$fresh" ] &&
	! qdiff && grep -q '^\[differs\] nmlx5_core.pfcrx' "$dir/d" && [ ! -s "$state/calls" ] &&
	grep -q '^nv set qos roce mode lossless$' "$dir/d"
check check-mode-reports-changes-makes-none $? "exit $st: $recap $(tail -30 "$dir/play.log") $(cat "$dir/d")"
echo "handoff check mode: $(printf '%s' "$recap" | tr '\n' ';')"

play "$dir/out"
[ $st -eq 0 ] && recap_of sw1 | grep -q 'changed=[12] .*failed=0' &&
	recap_of esx | grep -q 'changed=1 .*failed=0' && recap_of leaf1 | grep -q 'changed=1 .*failed=0' &&
	recap_of localhost | grep -q 'ok=2 .*failed=0'
check first-run-changes-and-converges $? "exit $st: $recap $(tail -40 "$dir/play.log")"
echo "handoff first run: $(printf '%s' "$recap" | tr '\n' ';')"
grep -q 'configuration write' "$dir/sw/trace" 2>/dev/null || grep -rq . "$dir/sw/saved" 2>/dev/null
check first-run-saves-the-switch $? "$(ls "$dir/sw")"
[ "$(nv_conf startup)" = "$(nv_conf applied)" ] && [ "$(nv_conf applied)" != "$fresh" ]
check first-run-saves-the-nvue-switch $? "startup $(nv_conf startup)"

play "$dir/out"
[ $st -eq 0 ] && ! printf '%s\n' "$recap" | grep -v 'changed=0' | grep -q . &&
	! printf '%s\n' "$recap" | grep -v 'failed=0' | grep -q .
check second-run-changed-0 $? "exit $st: $recap $(tail -40 "$dir/play.log")"
echo "handoff second run: $(printf '%s' "$recap" | tr '\n' ';')"

# What the host ran is its script's three parts as one, byte for byte (kept
# on the host for this run), and the controller's temporary copy is gone.
rm -rf "$dir/rtmp" "$dir/ctmp"
mkdir -p "$dir/rtmp" "$dir/ctmp"
export ANSIBLE_KEEP_REMOTE_FILES=1 TMPDIR="$dir/ctmp"
play "$dir/out" --limit esx
unset ANSIBLE_KEEP_REMOTE_FILES TMPDIR
(cd "$dir/out" && cat host/lib/esxi.sh && grep "^qg_host='esx' " host/hosts/esxi.sh &&
	cat host/groups/esxi.sh) >"$dir/esx.script"
ran=$(find "$dir/rtmp" -type f -name '*.sh')
[ $st -eq 0 ] && grep -q "^qg_host='esx' qg_group='esxi' " "$dir/out/host/hosts/esxi.sh" &&
	[ "$(printf '%s\n' "$ran" | wc -l)" -eq 1 ] && cmp -s "$ran" "$dir/esx.script" &&
	[ -z "$(ls -A "$dir/ctmp")" ]
check host-runs-its-three-files-as-one $? "exit $st: ran '$ran' ($(cmp "$ran" "$dir/esx.script" 2>&1)); left on the controller: $(ls -A "$dir/ctmp")"

kill_ansible "$dir/home"
qdiff
check qosgen-diff-after-ansible-is-empty $? "$(cat "$dir/d")"

# TLS is verified: a CA bundle without the test CA fails the NVUE play.
play "$dir/out" --limit leaf1 -e '{"qosgen_nvue_ca_path": "/etc/ssl/certs/ca-certificates.crt"}'
[ $st -ne 0 ] && recap_of leaf1 | grep -q 'failed=1' && grep -q 'CERTIFICATE_VERIFY_FAILED' "$dir/play.log"
check nvue-play-verifies-tls $? "exit $st: $recap $(tail -20 "$dir/play.log")"
echo "handoff diff: exit 0, $(wc -c <"$dir/d") bytes"

# Drift on the switch: a port's MTU the next run repairs (onyx_config sends
# the line the running-config lacks), and a second priority in the lossless
# pool, which onyx_config cannot see as wrong (it only adds lines): the
# convergence play fails and shows qosgen's fix.
printf 'enable\nconfigure terminal\ninterface ethernet 1/2 mtu 1500 force\ntraffic pool roce map switch-priority 4\nexit\n' |
	"$SIM" --state "$dir/sw" --ports 8 >/dev/null
play "$dir/out"
[ $st -ne 0 ] && recap_of sw1 | grep -q 'changed=2 .*failed=0' && recap_of localhost | grep -q 'failed=1' &&
	grep -q 'no traffic pool roce map switch-priority 4' "$dir/play.log" && ! grep -q 'mtu 9216' "$dir/play.log"
check convergence-play-fails-on-what-onyx-config-leaves $? "exit $st: $recap $(tail -30 "$dir/play.log")"

# A Linux host on the loopback: the script sets what exists and exits 2 for
# the missing RoCE knobs; the task fails and shows the [missing] lines.
cat >"$dir/linux.yaml" <<YAML
version: 1
fabric: e2e-handoff-linux
$E2E_QOS
hosts:
  - {name: gpu1, platform: linux, address: 127.0.0.1, port: $hport, user: $user, netdev: lo, rdma_device: qgtest0}
YAML
"$Q" build "$dir/linux.yaml" -o "$dir/lout" >/dev/null 2>"$dir/err"
grep -v '^\$' "$here/../../../shared/fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$state/mlnx_qos"
rm -f "$state/calls"
play "$dir/lout" --limit gpu1
[ $st -ne 0 ] && recap_of gpu1 | grep -q 'failed=1' && grep -q '"rc": 2' "$dir/play.log" &&
	grep -q '\[missing\] roce_tos' "$dir/play.log" && grep -q 'mlnx_qos -i lo --trust dscp' "$state/calls"
check linux-missing-knob-fails-task $? "exit $st: $recap $(tail -30 "$dir/play.log")"

echo "$pass handoff checks passed, $fail failed"
[ "$fail" -eq 0 ]
