#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/push: 64 simulated Onyx switches of 32 ports, from empty to converged
# and then an unchanged re-push, with qosgen; then the same fabric through
# Ansible's mellanox.onyx modules (forks 64, ansible_buffer_read_timeout=0),
# in the same run, on the same machine. Prints both times and the ratio.
# Between them, bench/push_hosts.sh: qosgen's own CPU and peak memory per
# host for push --all of 1,000 Linux hosts against the test sshd.
# Target (issue: push): qosgen at least 10x faster; the re-push under 2 s.
# Usage: bench/push.sh BUILD [N_SWITCHES]; QG_BENCH_NO_ANSIBLE=1 skips the
# baseline, QG_BENCH_HOSTS=0 the hosts.
set -u
BUILD=${1:-build}
N=${2:-64}
Q=$(cd "$BUILD" && pwd)/qosgen
SIM=$(cd "$BUILD" && pwd)/tests/onyx-sim
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
# shellcheck source=tests/e2e/lib.sh
. "$e2e/lib.sh"
dir=$(mktemp -d)
cleanup() {
	kill_ansible "$dir/home"
	sh "$e2e/sshd.sh" stop "$dir/sshd"
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }

QG_SSHD_EXTRA="MaxStartups 512
MaxSessions 64" sh "$e2e/sshd.sh" start "$dir/sshd" || exit 1
port=$(cat "$dir/sshd/port")
user=${USER:-$(id -un)}
mkdir -p "$dir/keys" "$dir/home/.ssh"
: >"$dir/sshd/authorized_keys"
: >"$dir/ssh_config"
{
	echo "version: 1"
	echo "fabric: bench"
	echo "$E2E_QOS"
	echo "switches:"
} >"$dir/intent.yaml"
: >"$dir/inventory.ini"
echo "[switches]" >>"$dir/inventory.ini"
for i in $(seq -w 1 "$N"); do
	ssh-keygen -q -t ed25519 -N '' -f "$dir/keys/sw$i"
	# One sshd, one key per switch: the key picks the simulated switch.
	sim_hostname "$SIM" "$dir/sw$i" 32 "sw$i"
	echo "command=\"$SIM --state $dir/sw$i --ports 32\" $(cat "$dir/keys/sw$i.pub")" >>"$dir/sshd/authorized_keys"
	printf 'Host qgbench-sw%s\n  HostName 127.0.0.1\n  Port %s\n  User %s\n  IdentityFile %s\n' \
		"$i" "$port" "$user" "$dir/keys/sw$i" >>"$dir/ssh_config"
	echo "  - {name: sw$i, platform: onyx, address: qgbench-sw$i, ports: [1/1-1/32]}" >>"$dir/intent.yaml"
	echo "sw$i ansible_host=127.0.0.1 ansible_port=$port ansible_user=$user ansible_ssh_private_key_file=$dir/keys/sw$i" >>"$dir/inventory.ini"
done
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$dir/home/.ssh/known_hosts"
opts="--known-hosts $dir/home/.ssh/known_hosts --ssh-config $dir/ssh_config -j $N --timeout 60"

# shellcheck disable=SC2086
t0=$(now)
"$Q" push "$dir/intent.yaml" --all $opts >"$dir/push1.log" 2>&1
st1=$?
t1=$(now)
# shellcheck disable=SC2086
"$Q" push "$dir/intent.yaml" --all $opts >"$dir/push2.log" 2>&1
st2=$?
[ -n "${QG_BENCH_PROFILE:-}" ] && sh -c "$QG_BENCH_PROFILE" -- "$Q" "$dir/intent.yaml" "$opts"
t2=$(now)
full=$(secs "$t0" "$t1")
again=$(secs "$t1" "$t2")
converged=$(grep -c ': 7 lines sent, in sync, saved' "$dir/push1.log")
insync=$(grep -c ': in sync, nothing sent' "$dir/push2.log")
echo "qosgen push, $N switches x 32 ports, empty -> converged: ${full} s (exit $st1, $converged/$N converged)"
echo "qosgen re-push, unchanged intent:                       ${again} s (exit $st2, $insync/$N in sync, target < 2 s)"

# qosgen's own cost per host (issue 15): push --all of a fleet of hosts,
# timed for the qosgen process alone (bench/push_hosts.sh). QG_BENCH_HOSTS
# sizes it (1000; 0 skips it).
hosts=${QG_BENCH_HOSTS:-1000}
sth=0
if [ "$hosts" -gt 0 ]; then
	sh "$(dirname "$0")/push_hosts.sh" "$BUILD" "$hosts"
	sth=$?
fi

# The same fabric through Ansible, from empty again.
if [ "${QG_BENCH_NO_ANSIBLE:-0}" = 1 ]; then
	echo "(Ansible baseline skipped)"
	exit "$sth"
elif command -v ansible-playbook >/dev/null; then
	rm -rf "$dir"/sw*/
	ansible_collection "$dir"
	cat >>"$dir/inventory.ini" <<INV
[switches:vars]
ansible_connection=ansible.netcommon.network_cli
ansible_network_os=mellanox.onyx.onyx
ansible_become=yes
ansible_become_method=enable
ansible_buffer_read_timeout=0
INV
	ansible_cfg "$dir" 64 60 60
	ifs=""
	for p in $(seq 1 32); do ifs="$ifs${ifs:+, }Eth1/$p"; done
	cat >"$dir/playbook.yml" <<PLAY
- hosts: switches
  gather_facts: false
  tasks:
    - mellanox.onyx.onyx_buffer_pool: {name: roce, pool_type: lossless, memory_percent: 50.0, switch_priority: 3}
    - mellanox.onyx.onyx_qos: {interfaces: [$ifs], trust: L3}
    - mellanox.onyx.onyx_traffic_class:
        interfaces: [$ifs]
        tc: 3
        congestion_control: {control: ecn, threshold_mode: absolute, min_threshold: 150, max_threshold: 1500}
    - mellanox.onyx.onyx_traffic_class: {interfaces: [$ifs], tc: 6, dcb: {mode: strict}}
    - mellanox.onyx.onyx_config: {lines: [interface ethernet 1/1-1/32 mtu 9216 force]}
PLAY
	t3=$(now)
	HOME="$dir/home" ANSIBLE_CONFIG="$dir/ansible.cfg" ANSIBLE_LOCAL_TEMP="$dir/tmp" \
		ansible-playbook "$dir/playbook.yml" >"$dir/ansible.log" 2>&1
	st3=$?
	t4=$(now)
	kill_ansible "$dir/home"
	ans=$(secs "$t3" "$t4")
	failed=$(grep -E '^sw[0-9]+ +:' "$dir/ansible.log" | grep -vc 'failed=0')
	echo "ansible-playbook, same fabric, forks 64:                ${ans} s (exit $st3, $failed hosts failed)"
	echo "$ans $full" | awk '{ printf "ratio ansible / qosgen: %.1fx (target >= 10x)\n", $1 / $2 }'
else
	echo "ansible-playbook not installed: no baseline this run ('make setup' installs it)"
	exit 1
fi
[ "$st1" -eq 0 ] && [ "$st2" -eq 0 ] && [ "$st3" -eq 0 ] && [ "$sth" -eq 0 ]
