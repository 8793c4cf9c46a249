#!/bin/sh
# SPDX-License-Identifier: MIT
# A simulated Linux or ESXi host behind a test sshd (a test tool, as the
# switch simulators are; qosgen knows nothing of it). Its device tools are
# the fakes of tests/scripts/fake, whose state is files in STATE, run by
# tests/e2e/fakehost.sh; for Linux also a sysfs of its own: STATE/sys, bound
# over /sys in a private mount namespace for each session, so that the
# generated script reads and writes its NIC's knobs (MTU, ECN, rdma_cm's
# configfs ToS) at the paths a real host has, and nothing of this machine's.
#   host_sim.sh init linux STATE NETDEV RDMA_DEVICE   a factory-fresh host
#   host_sim.sh init esxi STATE                       (ConnectX, nmlx5 drivers)
#   host_sim.sh check STATE                           can serve run here (exit 1: why)
#   host_sim.sh serve STATE                           the sshd's ForceCommand
# The mount namespace: as root unshare -m, else unshare -rm (a user
# namespace, which Debian 12 allows unprivileged users); with propagation
# unchanged, since in a chroot (CI's fresh root) / is no mount point and
# unshare's own "make / private" fails: /sys is made private instead, and
# only then is STATE/sys bound over it, so that the bind never reaches the
# machine's /sys.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fake=$(cd "$here/../scripts/fake" && pwd)

# linux_init STATE NETDEV RDMA_DEVICE: a ConnectX PF as it comes up: MTU
# 1500, trust pcp, PFC off, ECN off, rdma_cm's default ToS 0; mlnx_qos's
# output as mlnx-tools prints it (tests/scripts/fake/mlnx_qos reads it).
linux_init() {
	n=$1/sys/class/net/$2
	mkdir -p "$n/ecn/roce_np/enable" "$n/ecn/roce_rp/enable" \
		"$1/sys/kernel/config/rdma_cm/$3/ports/1" "$1/root/run"
	echo 1500 >"$n/mtu"
	for p in 0 1 2 3 4 5 6 7; do
		echo 0 >"$n/ecn/roce_np/enable/$p"
		echo 0 >"$n/ecn/roce_rp/enable/$p"
	done
	echo 0 >"$n/ecn/roce_np/cnp_dscp"
	echo 0 >"$n/ecn/roce_np/cnp_802p_prio"
	echo 0 >"$1/sys/kernel/config/rdma_cm/$3/ports/1/default_roce_tos"
	{
		echo "DCBX mode: OS controlled"
		echo "Priority trust state: pcp"
		echo "PFC configuration:"
		echo "    priority    0   1   2   3   4   5   6   7"
		echo "    enabled     0   0   0   0   0   0   0   0"
		for tc in 0 1 2 3 4 5 6 7; do
			echo "tc: $tc ratelimit: unlimited, tsa: vendor"
			echo "     priority:  $tc"
		done
	} >"$1/mlnx_qos"
	# The firmware's DSCP-to-priority map (DSCP/8), which the fake mlnx_qos
	# would otherwise write on its first call, a read included: a dry run
	# must leave the host's files as they were.
	d=0
	while [ $d -lt 64 ]; do
		echo "$d $((d / 8))"
		d=$((d + 1))
	done >"$1/mlnx_qos.dscp2prio"
}

# esxi_init STATE: nmlx5 module options as a fresh install has them.
esxi_init() {
	mkdir -p "$1/root/run"
	echo "nmlx5_core enabled = 1 options = ''" >"$1/module.nmlx5_core"
	echo "nmlx5_rdma enabled = 1 options = ''" >"$1/module.nmlx5_rdma"
}

# in_ns STATE COMMAND...: COMMAND with STATE/sys bound over /sys, in a mount
# namespace of its own.
in_ns() {
	st=$1
	shift
	ns=-rm
	[ "$(id -u)" -ne 0 ] || ns=-m
	# shellcheck disable=SC2016
	unshare "$ns" --propagation unchanged sh -c \
		'mount --make-rprivate /sys && mount --bind "$1/sys" /sys && shift && exec "$@"' sh "$st" "$@"
}

case ${1:-} in
init)
	case ${2:-} in
	linux) linux_init "$3" "$4" "$5" ;;
	esxi) esxi_init "$3" ;;
	*) echo "host_sim.sh: init linux|esxi" >&2; exit 2 ;;
	esac
	;;
check)
	# Whether this machine gives a session its own mount namespace, as serve needs.
	if ! why=$(in_ns "$2" test -d /sys/class/net 2>&1); then
		echo "host_sim.sh: no private mount namespace here ($why); as a user, it needs user namespaces (sysctl kernel.unprivileged_userns_clone=1)" >&2
		exit 1
	fi
	;;
serve)
	if [ ! -d "$2/sys" ]; then
		exec sh "$here/../e2e/fakehost.sh" "$2" "$fake"
	fi
	in_ns "$2" sh "$here/../e2e/fakehost.sh" "$2" "$here/host:$fake"
	;;
*)
	echo "usage: host_sim.sh init linux STATE NETDEV RDMA_DEVICE | init esxi STATE | check STATE | serve STATE" >&2
	exit 2
	;;
esac
