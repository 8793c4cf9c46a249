#!/bin/sh
# qosgen 0.1.0: the helpers of every Linux host's RoCE QoS script
# Generated: edit the intent, not this file; nothing of the intent is in it.
# A host's script is three parts run as one, in this order: this one, the
# host's line of host/hosts/linux.sh (who it is) and its group's body
# (host/groups/GROUP.sh: what it gets); host/hosts/linux.sh shows the command.
#
# Idempotent: it reads each setting first and changes only what differs.
# One line per setting:
#   [ok] already right   [changed] set now   [failed] could not be set
#   [missing] the tool or knob is not on this host   [n/a] absent and not needed here
#   [differs] would be changed (QG_DRY_RUN=1: nothing is changed)
# Exit status: 0 all set; 1 a setting failed; 2 none failed but one is missing.
set -u
# No pathname expansion: lists are split into words below (the trust order,
# a host's answers), and a word must never become file names, whatever
# characters a value may hold one day.
set -f
# mlnx_qos, ip and dcb live in sbin, which a non-login SSH session may lack.
PATH=${PATH:-/usr/bin:/bin}:/usr/local/sbin:/usr/sbin:/sbin
export PATH

# One run at a time: udev or systemd start this script when the netdev and
# when the RDMA device appear (a driver reload brings both within
# milliseconds), and a push may run it then too. flock(1) is util-linux's
# (busybox has one too); without it runs are not serialised. The lock waits
# at most 60 s: a hung run must not keep the settings away for good.
# QG_ROOT moves the lock for tests; the unit and the udev rule never set it.
qg_lock=${QG_ROOT:-}/run/qosgen-roce-qos.lock
if qg_have_flock=$(command -v flock) && { command exec 9>>"$qg_lock"; } 2>/dev/null; then
	"$qg_have_flock" -w 60 9 || echo "qosgen: $qg_lock still held after 60 s; running anyway" >&2
fi
qg_failed=0
qg_missing=0

# With QG_DRY_RUN=1 nothing is changed: what would change is reported as
# [differs], and the exit status is as if it had been set.
qg_dry=${QG_DRY_RUN:-0}

qg_report() {
	qg_status=$1
	[ "$qg_dry" = 1 ] && [ "$qg_status" = changed ] && qg_status=differs
	printf '[%s] %s: %s\n' "$qg_status" "$2" "$3"
	case $1 in
	failed) qg_failed=1 ;;
	missing) qg_missing=1 ;;
	esac
}

# Run a command that changes the host, unless this is a dry run.
qg_apply() {
	[ "$qg_dry" = 1 ] && return 0
	"$@"
}

qg_have() {
	command -v "$1" >/dev/null 2>&1
}

# Everything below acts on this netdev; without it nothing can be set.
qg_need_netdev() {
	if [ ! -d "/sys/class/net/$1" ]; then
		qg_report failed netdev "no network device $1 on this host"
		exit 1
	fi
}

# qg_file KEY PATH VALUE: a sysfs or configfs file holding one value.
qg_file() {
	if [ ! -e "$2" ]; then
		qg_report missing "$1" "no $2"
		return
	fi
	if ! qg_cur=$(cat "$2" 2>/dev/null); then
		qg_report failed "$1" "cannot read $2"
	elif [ "$qg_cur" = "$3" ]; then
		qg_report ok "$1" "$3"
	elif [ "$qg_dry" = 1 ]; then
		qg_report changed "$1" "$qg_cur -> $3"
	elif ! { printf '%s\n' "$3" >"$2"; } 2>/dev/null; then
		qg_report failed "$1" "cannot write $3 to $2 (now $qg_cur)"
	elif [ "$(cat "$2" 2>/dev/null)" != "$3" ]; then
		qg_report failed "$1" "wrote $3 to $2 but it reads $(cat "$2" 2>/dev/null)"
	else
		qg_report changed "$1" "$qg_cur -> $3"
	fi
}

# qg_mtu NETDEV MTU [WHY]: WHY is given for a VF, whose MTU request the
# hypervisor checks against the MTU of its port group's vSwitch or DVS
# (vSphere SR-IOV networking): then the MTU is read back after the change,
# and a refusal, or a change that does not hold, is a failure that says WHY.
qg_mtu() {
	qg_cur=$(cat "/sys/class/net/$1/mtu" 2>/dev/null)
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok mtu "$2"
	elif ! qg_have ip; then
		qg_report missing mtu "ip (iproute2) is not installed"
	elif qg_apply ip link set dev "$1" mtu "$2" 2>/dev/null; then
		qg_now=$(cat "/sys/class/net/$1/mtu" 2>/dev/null)
		if [ -n "${3:-}" ] && [ "$qg_dry" != 1 ] && [ "$qg_now" != "$2" ]; then
			qg_report failed mtu "ip link set dev $1 mtu $2 returned but the MTU reads ${qg_now:-nothing}; $3"
		else
			qg_report changed mtu "$qg_cur -> $2"
		fi
	else
		qg_report failed mtu "ip link set dev $1 mtu $2 failed (now $qg_cur)${3:+; $3}"
	fi
}

# mlnx_qos (MLNX_OFED / mlnx-tools): trust state and PFC vector.
qg_mlnx_qos_trust() {
	if ! qg_have mlnx_qos; then
		qg_report missing trust "mlnx_qos is not installed (MLNX_OFED or mlnx-tools)"
		return
	fi
	qg_cur=$(mlnx_qos -i "$1" 2>/dev/null | sed -n 's/^Priority trust state: *//p')
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok trust "$2"
	elif qg_apply mlnx_qos -i "$1" --trust "$2" >/dev/null 2>&1; then
		qg_report changed trust "${qg_cur:-unknown} -> $2"
	else
		qg_report failed trust "mlnx_qos -i $1 --trust $2 failed"
	fi
}

qg_mlnx_qos_pfc() {
	if ! qg_have mlnx_qos; then
		qg_report missing pfc "mlnx_qos is not installed (MLNX_OFED or mlnx-tools)"
		return
	fi
	qg_cur=$(mlnx_qos -i "$1" 2>/dev/null |
		awk '$1 == "enabled" { v = $2; for (i = 3; i <= NF; i++) v = v "," $i; print v; exit }')
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok pfc "$2"
	elif qg_apply mlnx_qos -i "$1" --pfc "$2" >/dev/null 2>&1; then
		qg_report changed pfc "${qg_cur:-unknown} -> $2"
	else
		qg_report failed pfc "mlnx_qos -i $1 --pfc $2 failed"
	fi
}

# The DSCP-to-priority map, one entry a call: qg_*_dscp2prio IF DSCP PRIO.
# The entry read back after the set decides, not the tool's exit status:
# dcb app replace exits 0 when the kernel refused the entry (dcb/dcb_app.c),
# and on mlx5, which drops a DSCP's old entry itself, says its removal failed.
#
# mlnx_qos shows the map only under trust dscp, as lines "<tab>prio:P
# dscp:NN,NN,...," of at most eight DSCPs (more continue on a line of the same
# prefix). Prints DSCP $2's priorities: "unset" if none, "unknown" if no map.
qg_mlnx_qos_prio_of() {
	mlnx_qos -i "$1" 2>/dev/null | awk -v d="$2" '
		$1 ~ /^prio:[0-7]$/ && $2 ~ /^dscp:/ {
			shown = 1
			n = split(substr($2, 6), v, ",")
			for (i = 1; i <= n; i++)
				if (v[i] ~ /^[0-9]+$/ && v[i] + 0 == d + 0)
					p = p (p == "" ? "" : ",") substr($1, 6)
		}
		END { print shown ? (p == "" ? "unset" : p) : "unknown" }'
}

qg_mlnx_qos_dscp2prio() {
	qg_k=dscp2prio.$2
	if ! qg_have mlnx_qos; then
		qg_report missing "$qg_k" "mlnx_qos is not installed (MLNX_OFED or mlnx-tools)"
		return
	fi
	qg_cur=$(qg_mlnx_qos_prio_of "$1" "$2")
	if [ "$qg_cur" = "$3" ]; then
		qg_report ok "$qg_k" "$3"
		return
	elif [ "$qg_dry" = 1 ]; then
		qg_report changed "$qg_k" "$qg_cur -> $3"
		return
	fi
	mlnx_qos -i "$1" --dscp2prio "set,$2,$3" >/dev/null 2>&1
	qg_now=$(qg_mlnx_qos_prio_of "$1" "$2")
	if [ "$qg_now" = "$3" ]; then
		qg_report changed "$qg_k" "$qg_cur -> $3"
	else
		qg_report failed "$qg_k" "mlnx_qos -i $1 --dscp2prio set,$2,$3 failed (now $qg_now)"
	fi
}

# iproute2 dcb (upstream kernels): trust order, DSCP app table, PFC.
qg_dcb_trust() {
	if ! qg_have dcb; then
		qg_report missing trust "dcb (iproute2) is not installed"
		return
	fi
	if ! qg_out=$(dcb apptrust show dev "$1" 2>/dev/null); then
		qg_report missing trust "dcb apptrust is not supported here (kernel or iproute2 too old)"
		return
	fi
	qg_cur=$(printf '%s\n' "$qg_out" | sed -n 's/^order: *//p')
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok trust "$2"
	elif qg_apply dcb apptrust set dev "$1" order $2 2>/dev/null; then
		qg_report changed trust "${qg_cur:-unknown} -> $2"
	else
		qg_report failed trust "dcb apptrust set dev $1 order $2 failed"
	fi
}

# dcb -N app show prints "dscp-prio 0:0 24:3 48:6 ", sorted, or nothing for an
# empty table; a DSCP may have several priorities. Prints DSCP $2's: "unset"
# if none; fails when dcb cannot read the table.
qg_dcb_prio_of() {
	qg_out=$(dcb -N app show dev "$1" dscp-prio 2>/dev/null) || return 1
	printf '%s\n' "$qg_out" | awk -v d="$2" '
		$1 == "dscp-prio" {
			for (i = 2; i <= NF; i++)
				if (split($i, kv, ":") == 2 && kv[1] ~ /^[0-9]+$/ && kv[1] + 0 == d + 0)
					p = p (p == "" ? "" : ",") kv[2]
		}
		END { print p == "" ? "unset" : p }'
}

# replace, not add: DSCP $2 is left with this one priority (dcb-app(8)).
qg_dcb_dscp2prio() {
	qg_k=dscp2prio.$2
	if ! qg_have dcb; then
		qg_report missing "$qg_k" "dcb (iproute2) is not installed"
		return
	fi
	if ! qg_cur=$(qg_dcb_prio_of "$1" "$2"); then
		qg_report missing "$qg_k" "dcb app is not supported on $1 (no DCB in its driver, or iproute2 too old)"
		return
	fi
	if [ "$qg_cur" = "$3" ]; then
		qg_report ok "$qg_k" "$3"
		return
	elif [ "$qg_dry" = 1 ]; then
		qg_report changed "$qg_k" "$qg_cur -> $3"
		return
	fi
	dcb app replace dev "$1" dscp-prio "$2:$3" >/dev/null 2>&1
	qg_now=$(qg_dcb_prio_of "$1" "$2")
	if [ "$qg_now" = "$3" ]; then
		qg_report changed "$qg_k" "$qg_cur -> $3"
	else
		qg_report failed "$qg_k" "dcb app replace dev $1 dscp-prio $2:$3 failed (now ${qg_now:-unreadable})"
	fi
}

qg_dcb_pfc() {
	if ! qg_have dcb; then
		qg_report missing pfc "dcb (iproute2) is not installed"
		return
	fi
	qg_cur=$(dcb pfc show dev "$1" prio-pfc 2>/dev/null)
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok pfc "$3"
	elif qg_apply dcb pfc set dev "$1" prio-pfc all:off "$4:on" 2>/dev/null; then
		qg_report changed pfc "${qg_cur:-unknown} -> $3"
	else
		qg_report failed pfc "dcb pfc set dev $1 prio-pfc all:off $4:on failed"
	fi
}

# RoCE ToS of rdma_cm connections: the configfs knob default_roce_tos
# (upstream since 4.11, and MLNX_OFED alike). The directory is kept after use:
# removing it, as cma_roce_tos does, is what loses the setting.
qg_roce_tos() {
	qg_cfs=/sys/kernel/config
	if [ ! -d "$qg_cfs/rdma_cm" ]; then
		qg_apply modprobe rdma_cm 2>/dev/null
		grep -qs " $qg_cfs configfs " /proc/mounts || qg_apply mount -t configfs none "$qg_cfs" 2>/dev/null
	fi
	if [ ! -d "$qg_cfs/rdma_cm" ]; then
		qg_report missing roce_tos "no $qg_cfs/rdma_cm (configfs or the rdma_cm module is missing)"
		return
	fi
	# rdma_cm learns of a device a moment after its uevent, which is when udev
	# runs this script; until then mkdir, or the knob of an entry made for the
	# device before it was re-created, fails with ENODEV: wait up to 5 s.
	qg_i=0
	while [ -e "/sys/class/infiniband/$1" ] && [ "$qg_dry" != 1 ] && [ $qg_i -lt 20 ] &&
		! cat "$qg_cfs/rdma_cm/$1/ports/$2/default_roce_tos" >/dev/null 2>&1; do
		[ -d "$qg_cfs/rdma_cm/$1" ] || mkdir "$qg_cfs/rdma_cm/$1" 2>/dev/null
		qg_i=$((qg_i + 1))
		sleep 0.25
	done
	if [ ! -d "$qg_cfs/rdma_cm/$1" ] && ! qg_apply mkdir "$qg_cfs/rdma_cm/$1" 2>/dev/null; then
		qg_report failed roce_tos "no RDMA device $1 (mkdir $qg_cfs/rdma_cm/$1 failed)"
		return
	fi
	qg_file roce_tos "$qg_cfs/rdma_cm/$1/ports/$2/default_roce_tos" "$3"
}

# MLNX_OFED's per-device traffic class for verbs QPs; it reads "Global tclass=N".
qg_tclass() {
	qg_f=/sys/class/infiniband/$1/tc/1/traffic_class
	if [ ! -e "$qg_f" ]; then
		qg_report n/a tclass "no $qg_f (MLNX_OFED only; roce_tos covers rdma_cm)"
		return
	fi
	qg_cur=$(sed -n 's/.*tclass=\([0-9]*\).*/\1/p' "$qg_f" 2>/dev/null)
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok tclass "$2"
	elif [ "$qg_dry" = 1 ] || { printf '%s\n' "$2" >"$qg_f"; } 2>/dev/null; then
		qg_report changed tclass "${qg_cur:-unset} -> $2"
	else
		qg_report failed tclass "cannot write $2 to $qg_f"
	fi
}
