#!/bin/sh
# SPDX-License-Identifier: MIT
# A real client no one here wrote drives the simulator: Debian's Ansible with
# the mellanox.onyx modules (onyx_buffer_pool, onyx_qos, onyx_traffic_class,
# onyx_config) configures the simulated switch over a real sshd; a second run
# must report changed=0; then qosgen's diff of the same intent must be empty.
# Issue 34: the simulator runs release 3.9.3210 (not the build's 3.10.4706, of
# the same dialect); onyx_facts reads it off `show version | json-print`;
# onyx_pfc_interface reads the release and `show dcb priority-flow-control |
# json-print` in the shape it takes from 3.6.6000 and must find PFC already
# operational on a port of the lossless pool (no change); onyx_command's
# json-print shows, read with Ansible's from_json, hold the pool's "Memory
# actual", ETS and PFC as the verdict reads them.
# Usage: ansible.sh BUILD
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
sw="$dir/sw"
E2E_CLEANUP='kill_ansible "$dir/home"'
if ! command -v ansible-playbook >/dev/null || ! ansible_collection "$dir"; then
	echo "FAIL ansible: ansible-playbook or the mellanox.onyx collection is missing ('make setup' installs ansible)"
	exit 1
fi
sim_hostname "$SIM" "$sw" 8 sw1
sshd_start "$dir/sshd" "$SIM --state $sw --ports 8 --version 3.9.3210"
user=${USER:-$(id -un)}

# Strict host key checking, with the test sshd's key known.
mkdir -p "$dir/home/.ssh"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$dir/home/.ssh/known_hosts"
ansible_cfg "$dir" 5 15 30
cat >"$dir/inventory.ini" <<INV
[switches]
sw1 ansible_host=127.0.0.1 ansible_port=$port ansible_user=$user ansible_ssh_private_key_file=$dir/sshd/client_key ansible_connection=ansible.netcommon.network_cli ansible_network_os=mellanox.onyx.onyx ansible_become=yes ansible_become_method=enable
INV
cat >"$dir/playbook.yml" <<'PLAY'
- hosts: switches
  gather_facts: false
  tasks:
    - mellanox.onyx.onyx_buffer_pool:
        name: roce
        pool_type: lossless
        memory_percent: 50.0
        switch_priority: 3
    - mellanox.onyx.onyx_qos:
        interfaces: [Eth1/1, Eth1/2, Eth1/3, Eth1/4]
        trust: L3
    - mellanox.onyx.onyx_traffic_class:
        interfaces: [Eth1/1, Eth1/2, Eth1/3, Eth1/4]
        tc: 3
        congestion_control: {control: ecn, threshold_mode: absolute, min_threshold: 150, max_threshold: 1500}
    - mellanox.onyx.onyx_traffic_class:
        interfaces: [Eth1/1, Eth1/2, Eth1/3, Eth1/4]
        tc: 6
        dcb: {mode: strict}
    # The intent below gives the lossless class no ets: NVIDIA's RoCE
    # default, WRR 50, with the other six classes sharing the other 50
    # (issue 34; Onyx weighs WRR classes against each other).
    - mellanox.onyx.onyx_traffic_class:
        interfaces: [Eth1/1, Eth1/2, Eth1/3, Eth1/4]
        tc: "{{ item.tc }}"
        dcb: {mode: wrr, weight: "{{ item.weight }}"}
      loop:
        - {tc: 0, weight: 9}
        - {tc: 1, weight: 9}
        - {tc: 2, weight: 8}
        - {tc: 3, weight: 50}
        - {tc: 4, weight: 8}
        - {tc: 5, weight: 8}
        - {tc: 7, weight: 8}
    - mellanox.onyx.onyx_config:
        lines: [interface ethernet 1/1-1/4 mtu 9216 force]
    - mellanox.onyx.onyx_facts:
        gather_subset: [version]
    - ansible.builtin.assert:
        that: ansible_net_version['Product release'] == '3.9.3210'
    # PFC follows the lossless pool: nothing to send for a port of it.
    - mellanox.onyx.onyx_pfc_interface:
        name: Eth1/1
        state: enabled
      register: pfc
    - ansible.builtin.assert:
        that: pfc is not changed
    - mellanox.onyx.onyx_command:
        commands:
          - show traffic pool roce | json-print
          - show dcb ets interface ethernet 1/1 | json-print
          - show dcb priority-flow-control | json-print
      register: shows
    - ansible.builtin.assert:
        that:
          - (shows.stdout[0] | from_json).roce[0]['Memory actual'] == '5.9M'
          - (shows.stdout[0] | from_json).roce[0]['Switch Priorities'] == '3'
          - (shows.stdout[1] | from_json)[0]['Eth1/1'][2]['ETS per TC'][0]['6'][0]['S.Mode'] == 'Strict'
          - (shows.stdout[2] | from_json)[1]['Priority Enabled List'] == '3'
          - (shows.stdout[2] | from_json)[2]['Eth1/4'][0]['PFC oper'] == 'Enabled'
PLAY
play() {
	HOME="$dir/home" ANSIBLE_CONFIG="$dir/ansible.cfg" ANSIBLE_LOCAL_TEMP="$dir/tmp" \
		ansible-playbook "$dir/playbook.yml" >"$dir/play.log" 2>&1
	st=$?
	recap=$(grep -E '^sw1 +:' "$dir/play.log")
}

play
echo "$recap" | grep -q 'failed=0' && [ $st -eq 0 ] && ! echo "$recap" | grep -q 'changed=0'
check ansible-first-run-configures $? "exit $st: $recap $(tail -20 "$dir/play.log")"
play
[ $st -eq 0 ] && echo "$recap" | grep -q 'changed=0' && echo "$recap" | grep -q 'failed=0'
check ansible-second-run-changed-0 $? "exit $st: $recap $(tail -20 "$dir/play.log")"
echo "ansible: $recap"

cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: ansible-interop
$E2E_QOS
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: $port, user: $user, ports: [1/1-1/4]}
YAML
kill_ansible "$dir/home"
"$Q" diff "$dir/intent.yaml" --switch sw1 --known-hosts "$dir/home/.ssh/known_hosts" \
	--identity "$dir/sshd/client_key" --ssh-config /dev/null --exit-code >"$dir/d" 2>&1
check qosgen-diff-after-ansible-is-empty $? "$(cat "$dir/d")"

echo "$pass ansible checks passed, $fail failed"
[ "$fail" -eq 0 ]
