#!/bin/sh
# SPDX-License-Identifier: MIT
# History independence on hosts (issue 35): after `qosgen push` of intent A
# and then intent B, a host holds exactly what B pushed on a factory-fresh
# host gives, and a second push of B changes nothing. The real qosgen
# binary, real sshds on 127.0.0.1, and the hosts' own state compared, not
# qosgen's read-back of it:
#  - a Linux host, tests/sim/host_sim.sh: its sysfs (MTU, the ECN/DCQCN
#    knobs of all eight priorities, the CNP settings, rdma_cm's ToS), its
#    mlnx_qos state (trust, PFC, the DSCP map, shown under trust dscp only)
#    and its files under / (NCCL's and UCX's configuration, the installed
#    script, unit and rule);
#  - an ESXi host: its nmlx5_core and nmlx5_rdma option strings (the fake
#    esxcfg-module's state), as the options in effect: sorted (the driver
#    reads them by name; the merge appends what it changes), an unwritten
#    ecn the driver's default 0 (NVIDIA's ESXi driver manual).
# A DSCP remapped to another priority is left to the oracle of
# tests/unit/test_host_history.c and tests/scripts: the esxi target refuses
# such an intent.
# The matrix: a base intent and one change each (the lossless priority and
# DSCP moved twice, CNP moved and removed,
# ECN thresholds changed and ECN removed, trust pcp, the MTU), each pushed
# after the base and the base after it, and the issue's chain: base, then
# moved with new thresholds, then ECN removed, against ECN removed on a
# fresh host. Then NICs: a host of two NICs, then one: the removed NIC's
# unit and rule are gone after the next push, and diff names them first.
# Usage: host_history.sh BUILD
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
here=$(cd "$(dirname "$0")" && pwd)
hsim=$here/../sim/host_sim.sh
lin=$dir/linux
esx=$dir/esxi
E2E_CLEANUP='sh "$here/sshd.sh" stop "$dir/esx-sshd"'

sh "$hsim" init linux "$lin" ens1f0np0 mlx5_0
if ! why=$(sh "$hsim" check "$lin" 2>&1); then
	echo "FAIL host-history: the simulated Linux host cannot run here: $why"
	exit 1
fi
sshd_start "$dir/sshd" "sh $hsim serve $lin"
lport=$port
sshd_start "$dir/esx-sshd" "sh $hsim serve $esx"
eport=$port
cat "$dir/sshd/client_key.pub" >>"$dir/esx-sshd/authorized_keys"
user=${USER:-$(id -un)}
opts="--known-hosts $dir/known_hosts --accept-new --identity $dir/sshd/client_key --ssh-config /dev/null --timeout 20"

# intent NAME: $dir/NAME.yaml, the base with NAME's one change.
intent() {
	prio=3 dscp=26 ecn='ecn: {min_kb: 150, max_kb: 1500}' trust='' mtu=''
	cnp='  cnp: {priority: 6, dscp: 48, ets: strict}'
	nics='netdev: ens1f0np0, rdma_device: mlx5_0'
	case $1 in
	base) ;;
	moved) prio=4 dscp=34 ;;
	moved5) prio=5 dscp=40 ;;
	cnp-moved) cnp='  cnp: {priority: 7, dscp: 56, ets: strict}' ;;
	cnp-removed) cnp='' ;;
	ecn-changed) ecn='ecn: {min_kb: 300, max_kb: 3000}' ;;
	ecn-removed) ecn='' ;;
	pcp) trust='  trust: pcp' ;;
	mtu) mtu='  mtu: 4200' ;;
	moved-ecn) prio=4 dscp=34 ecn='ecn: {min_kb: 300, max_kb: 3000}' ;;
	moved-noecn) prio=4 dscp=34 ecn='' ;;
	two-nics) nics='nics: [{netdev: ens1f0np0, rdma_device: mlx5_0}, {netdev: ens2f0np0, rdma_device: mlx5_1}]' ;;
	one-nic) nics='nics: [{netdev: ens1f0np0, rdma_device: mlx5_0}]' ;;
	*) echo "unknown intent $1" >&2 && exit 2 ;;
	esac
	{
		echo "version: 1"
		echo "fabric: host-history"
		echo "qos:"
		[ -z "$trust" ] || echo "$trust"
		[ -z "$mtu" ] || echo "$mtu"
		lossless="priority: $prio, dscp: [$dscp], pool: {name: roce, memory_percent: 50}"
		[ -z "$ecn" ] || lossless="$lossless, $ecn"
		echo "  lossless: {$lossless}"
		[ -z "$cnp" ] || echo "$cnp"
		echo "hosts:"
		echo "  - {name: gpu, platform: linux, address: 127.0.0.1, port: $lport, user: $user, $nics}"
		echo "  - {name: esx, platform: esxi, address: 127.0.0.1, port: $eport, user: $user, uplink: vmnic2}"
	} >"$dir/$1.yaml"
}

push() { # NAME: push intent NAME to both hosts; output in $dir/err, status in $st
	# shellcheck disable=SC2086
	"$Q" push "$dir/$1.yaml" --all $opts >"$dir/out" 2>"$dir/err"
	st=$?
}
factory() { # both hosts as they come up; the Linux host with a second NIC too
	rm -rf "$lin" "$esx"
	sh "$hsim" init linux "$lin" ens1f0np0 mlx5_0
	sh "$hsim" init linux "$lin" ens2f0np0 mlx5_1
	sh "$hsim" init esxi "$esx"
}
# owned: everything of the hosts' own state, every file by path and content:
# the sysfs tree, mlnx_qos's state (its DSCP map only under trust dscp,
# where mlnx_qos shows it and the NIC reads it), / (the configuration files
# and the installed copy), the ESXi option strings. Not the tools' call logs
# and not the lock.
owned() {
	trusted=$(sed -n 's/^Priority trust state: //p' "$lin/mlnx_qos")
	for f in $(cd "$lin" && find . -type f ! -name calls ! -name 'qosgen-roce-qos.lock' | LC_ALL=C sort); do
		[ "$f" = ./mlnx_qos.dscp2prio ] && [ "$trusted" != dscp ] && continue
		echo "== linux $f"
		cat "$lin/$f"
	done
	for f in module.nmlx5_core module.nmlx5_rdma; do
		echo "== esxi $f"
		sed -n "s/.*options = '\(.*\)'.*/\1/p" "$esx/$f" | tr ' ' '\n' | grep . | grep -vx 'ecn=0' | LC_ALL=C sort
	done
}

names="moved moved5 cnp-moved cnp-removed ecn-changed ecn-removed pcp mtu moved-ecn moved-noecn"
for n in base $names; do
	intent "$n"
	factory
	push "$n"
	# The simulated hosts have no RDMA device: tclass is n/a, all else converges.
	[ $st -eq 0 ] && owned >"$dir/$n.ref"
	check "fresh-$n" $? "exit $st: $(cat "$dir/err")"
done

# pair A B: push A, then B; the hosts as B leaves a fresh pair, and B again changes nothing.
pair() {
	factory
	push "$1"
	a=$st
	aerr=$(cat "$dir/err")
	push "$2"
	b=$st
	berr=$(cat "$dir/err")
	owned >"$dir/now"
	push "$2"
	[ $a -eq 0 ] && [ $b -eq 0 ] && cmp -s "$dir/$2.ref" "$dir/now" && [ $st -eq 0 ] &&
		grep -q '^gpu: in sync' "$dir/err" && grep -q '^esx: in sync' "$dir/err"
	check "$1-then-$2" $? "A: exit $a: $aerr; B: exit $b: $berr; again: exit $st: $(cat "$dir/err");
    the hosts differ from B on fresh hosts (< fresh, > after A):
$(diff "$dir/$2.ref" "$dir/now" | sed 's/^/    /')"
}

for n in $names; do
	pair base "$n"
	pair "$n" base
done
pair moved5 moved
pair pcp moved5
pair cnp-removed cnp-moved

# The issue's chain: A, then B (moved, thresholds changed), then C (no ECN),
# against C on fresh hosts; DCQCN off on every priority at the end.
factory
push base
push moved-ecn
push moved-noecn
owned >"$dir/now"
ecn_on=$(cat "$lin"/sys/class/net/ens1f0np0/ecn/roce_*/enable/* | grep -c 1)
cmp -s "$dir/moved-noecn.ref" "$dir/now" && [ "$ecn_on" -eq 0 ] &&
	[ "$(cat "$lin/sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp")" = 48 ]
check chain-ends-as-fresh-dcqcn-off $? "$ecn_on knobs on; $(diff "$dir/moved-noecn.ref" "$dir/now" | sed 's/^/    /')"

# A NIC leaves the intent: its unit and rule go with the next push to the
# host, and diff names them before (here the host becomes a one-NIC host, so
# its script is renamed too: roce-qos.sh goes, roce-qos-NETDEV.sh comes).
factory
intent two-nics
intent one-nic
push two-nics
r=$lin/root
[ $st -eq 0 ] && [ -f "$r/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules" ] &&
	[ -f "$r/etc/systemd/system/qosgen-roce-qos-ens2f0np0@.service" ]
check nics-two-installed $? "exit $st: $(cat "$dir/err"; ls -R "$r")"
# shellcheck disable=SC2086
"$Q" diff "$dir/one-nic.yaml" --host gpu $opts >"$dir/d" 2>&1
# (A list of one NIC is the one-NIC shorthand: its script is roce-qos-NETDEV.sh.)
grep -q '^\[differs\] persist: stale (.*90-qosgen-roce-qos-ens2f0np0.rules (gone), qosgen-roce-qos-ens2f0np0@.service (gone), roce-qos.sh (gone); ' "$dir/d" &&
	[ -f "$r/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules" ]
check nic-removed-diff-names-its-files $? "$(cat "$dir/d")"
push one-nic
[ $st -eq 0 ] && [ ! -e "$r/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules" ] &&
	[ ! -e "$r/etc/systemd/system/qosgen-roce-qos-ens2f0np0@.service" ] &&
	[ -f "$r/etc/udev/rules.d/90-qosgen-roce-qos-ens1f0np0.rules" ] && [ ! -e "$r/usr/local/lib/qosgen/roce-qos.sh" ] &&
	[ -f "$r/usr/local/lib/qosgen/roce-qos-ens1f0np0.sh" ] &&
	grep -q '^gpu: .*changed' "$dir/err"
check nic-removed-push-removes-its-files $? "exit $st: $(cat "$dir/err"; ls -R "$r")"
push one-nic
[ $st -eq 0 ] && grep -q '^gpu: in sync' "$dir/err"
check nic-removed-then-in-sync $? "exit $st: $(cat "$dir/err")"
# A file of qosgen's names that another tool wrote (no "qosgen" in it) stays.
echo 'ACTION=="add", RUN+="/bin/true"' >"$r/etc/udev/rules.d/90-qosgen-roce-qos-ens9.rules"
push one-nic
[ $st -eq 0 ] && [ -f "$r/etc/udev/rules.d/90-qosgen-roce-qos-ens9.rules" ]
check sweep-leaves-files-not-qosgens $? "exit $st: $(cat "$dir/err")"

# --uninstall takes qosgen's lines out of NCCL's and UCX's files, the rest stays.
printf 'NCCL_DEBUG=WARN\n' >>"$r/etc/nccl.conf"
# shellcheck disable=SC2086
"$Q" push "$dir/one-nic.yaml" --host gpu --uninstall $opts >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 0 ] && [ "$(cat "$r/etc/nccl.conf")" = NCCL_DEBUG=WARN ] && ! grep -q . "$r/etc/ucx/ucx.conf" &&
	[ ! -e "$r/usr/local/lib/qosgen" ]
check uninstall-removes-job-lines-only $? "exit $st: $(cat "$dir/err" "$r/etc/nccl.conf")"

echo "$pass host history checks passed, $fail failed"
[ "$fail" -eq 0 ]
