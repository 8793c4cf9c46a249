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
#   [missing] the tool or knob is not on this host
#   [n/a] not set: the knob is not on this host, and the line says what covers it
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

# qg_report STATUS KEY WHAT: the line "[STATUS] KEY: WHAT" push reads back.
# KEY is prefixed with $qg_key: a host of several NICs sets it to NIC K's
# "nics[K]." while that NIC's settings run, as they are keyed in plan.json.
qg_key=
qg_report() {
	qg_status=$1
	[ "$qg_dry" = 1 ] && [ "$qg_status" = changed ] && qg_status=differs
	printf '[%s] %s%s: %s\n' "$qg_status" "$qg_key" "$2" "$3"
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

# qg_mlnx_qos_dscp_others IF "DSCP...": every DSCP but the listed (the
# classes', set one by one above) at DSCP/8, mlx5's default map, so that an
# entry an earlier intent remapped goes back to what a fresh host has. The
# map is read once; only the entries that differ are set, then read again.
qg_mlnx_qos_map() {
	mlnx_qos -i "$1" 2>/dev/null | awk '
		$1 ~ /^prio:[0-7]$/ && $2 ~ /^dscp:/ {
			n = split(substr($2, 6), v, ",")
			for (i = 1; i <= n; i++)
				if (v[i] ~ /^[0-9]+$/)
					print v[i] + 0, substr($1, 6)
		}'
}

# Of a "DSCP PRIO" list on stdin: the entries off DSCP/8 of the DSCPs not
# in $1, "D:P" words.
qg_map_off_default() {
	awk -v keep=" $1 " '
		$1 ~ /^[0-9]+$/ && $2 ~ /^[0-7]$/ && index(keep, " " $1 " ") == 0 && $2 != int($1 / 8) {
			printf "%s%d:%d", sep, $1, $2
			sep = " "
		}'
}

qg_mlnx_qos_dscp_others() {
	if ! qg_have mlnx_qos; then
		qg_report missing dscp2prio.others "mlnx_qos is not installed (MLNX_OFED or mlnx-tools)"
		return
	fi
	qg_map=$(qg_mlnx_qos_map "$1")
	# Under trust pcp mlnx_qos shows no map: a dry run before trust dscp.
	if [ -z "$qg_map" ] && [ "$qg_dry" = 1 ]; then
		qg_report changed dscp2prio.others "unknown -> DSCP/8"
		return
	elif [ -z "$qg_map" ]; then
		qg_report failed dscp2prio.others "mlnx_qos -i $1 shows no DSCP map"
		return
	fi
	qg_off=$(printf '%s\n' "$qg_map" | qg_map_off_default "$2")
	if [ -z "$qg_off" ]; then
		qg_report ok dscp2prio.others "DSCP/8"
		return
	elif [ "$qg_dry" = 1 ]; then
		qg_report changed dscp2prio.others "$qg_off -> DSCP/8"
		return
	fi
	for qg_e in $qg_off; do
		qg_d=${qg_e%%:*}
		mlnx_qos -i "$1" --dscp2prio "set,$qg_d,$((qg_d / 8))" >/dev/null 2>&1
	done
	qg_now=$(qg_mlnx_qos_map "$1" | qg_map_off_default "$2")
	if [ -z "$qg_now" ]; then
		qg_report changed dscp2prio.others "$qg_off -> DSCP/8"
	else
		qg_report failed dscp2prio.others "mlnx_qos -i $1 --dscp2prio set,... left $qg_now"
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

# dcb's DSCP APP table as "DSCP PRIO" lines; an absent entry is the
# default map's. qg_dcb_dscp_others IF "DSCP...": the entries of other
# DSCPs off DSCP/8 deleted (dcb app del), so that the map in effect there is
# the default again.
qg_dcb_map() {
	dcb -N app show dev "$1" dscp-prio 2>/dev/null | awk '
		$1 == "dscp-prio" {
			for (i = 2; i <= NF; i++)
				if (split($i, kv, ":") == 2)
					print kv[1], kv[2]
		}'
}

qg_dcb_dscp_others() {
	if ! qg_have dcb; then
		qg_report missing dscp2prio.others "dcb (iproute2) is not installed"
		return
	fi
	if ! dcb -N app show dev "$1" dscp-prio >/dev/null 2>&1; then
		qg_report missing dscp2prio.others "dcb app is not supported on $1 (no DCB in its driver, or iproute2 too old)"
		return
	fi
	qg_off=$(qg_dcb_map "$1" | qg_map_off_default "$2")
	if [ -z "$qg_off" ]; then
		qg_report ok dscp2prio.others "DSCP/8"
		return
	elif [ "$qg_dry" = 1 ]; then
		qg_report changed dscp2prio.others "$qg_off -> DSCP/8"
		return
	fi
	# shellcheck disable=SC2086 # one word per entry, by design
	dcb app del dev "$1" dscp-prio $qg_off >/dev/null 2>&1
	qg_now=$(qg_dcb_map "$1" | qg_map_off_default "$2")
	if [ -z "$qg_now" ]; then
		qg_report changed dscp2prio.others "$qg_off -> DSCP/8"
	else
		qg_report failed dscp2prio.others "dcb app del dev $1 dscp-prio $qg_off left $qg_now"
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

# qg_file_default KEY PATH VALUE: a knob that VALUE turns off or puts back at
# its default (DCQCN off on a priority, a CNP setting back to the firmware's).
# Where the driver has no such file (inbox mlx5, rxe: the ECN sysfs is
# MLNX_OFED's and DOCA's) there is nothing qosgen can set: n/a, naming it.
qg_file_default() {
	if [ ! -e "$2" ]; then
		qg_report n/a "$1" "not set: no $2 (its driver has no such knob; MLNX_OFED and DOCA have it): $3 cannot be written here"
		return
	fi
	qg_file "$@"
}

# The driver of RDMA device $1, for the reports: the device's own driver
# link (mlx5_core), rxe's "parent" netdev file (soft-RoCE has no device).
qg_rdma_driver() {
	if qg_d=$(readlink "/sys/class/infiniband/$1/device/driver" 2>/dev/null); then
		echo "${qg_d##*/}"
	elif [ -e "/sys/class/infiniband/$1/parent" ]; then
		echo "rdma_rxe (soft-RoCE)"
	elif [ -e "/sys/class/infiniband/$1" ]; then
		echo "unknown (no driver link)"
	else
		echo "none: no RDMA device $1"
	fi
}

# MLNX_OFED's per-device traffic class for verbs QPs; it reads "Global
# tclass=N". Inbox drivers have no such file: then the setting is not set,
# and the report says which driver this is and what covers its traffic
# instead (rdma_cm's default ToS, NCCL's and UCX's own variables).
qg_tclass() {
	qg_f=/sys/class/infiniband/$1/tc/1/traffic_class
	if [ ! -e "$qg_f" ]; then
		qg_report n/a tclass "not set: no $qg_f, driver $(qg_rdma_driver "$1") (MLNX_OFED's mlx5 has it); covered instead by roce_tos for rdma_cm traffic, and by nccl.NCCL_IB_TC and ucx.UCX_IB_TRAFFIC_CLASS for NCCL and UCX jobs; a verbs job that sets no traffic class sends ToS 0"
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

# The line before each variable qosgen owns in a NAME=VALUE file: it names
# qosgen, and holds no '=' (NCCL would read a line with one as a variable).
qg_conf_mark='# qosgen push owns the next line: the RoCE traffic class of the fabric'

# qg_conf_var KEY FILE VAR VALUE: FILE (NCCL's /etc/nccl.conf, UCX's
# ucx.conf: NAME=VALUE lines) holds VAR=VALUE once. qosgen owns the
# variable VAR there, nothing else: every other line is kept, in its place;
# VAR's lines and qosgen's own comment go, and the two lines are added at
# the end. Written beside and renamed over, with the file's mode kept (a new
# file is 0644: every user's job reads it). QG_ROOT moves FILE, for tests.
qg_conf_var() {
	qg_f=${QG_ROOT:-}$2
	qg_cur=
	if [ -f "$qg_f" ]; then
		qg_cur=$(grep -E "^[[:space:]]*$3[[:space:]]*=" "$qg_f" 2>/dev/null)
	elif [ -e "$qg_f" ]; then
		qg_report failed "$1" "$qg_f is not a regular file"
		return
	fi
	if [ "$qg_cur" = "$3=$4" ]; then
		qg_report ok "$1" "$4"
		return
	fi
	qg_was=$(printf '%s\n' "$qg_cur" | sed -n 's/^[^=]*=//p' | tr '\n' ',' | sed 's/,$//')
	if [ "$qg_dry" = 1 ]; then
		qg_report changed "$1" "${qg_was:-unset} -> $4 in $2"
		return
	fi
	qg_tmp=$qg_f.qosgen-new.$$
	if [ -f "$qg_f" ]; then
		cp -p "$qg_f" "$qg_tmp" 2>/dev/null
	else
		mkdir -p "${qg_f%/*}" 2>/dev/null && : >"$qg_tmp" 2>/dev/null && chmod 644 "$qg_tmp" 2>/dev/null
	fi
	if [ -f "$qg_tmp" ] && {
		if [ -f "$qg_f" ]; then
			grep -vE "^[[:space:]]*$3[[:space:]]*=" "$qg_f" | grep -vxF "$qg_conf_mark"
		fi
		printf '%s\n%s\n' "$qg_conf_mark" "$3=$4"
	} >"$qg_tmp" 2>/dev/null && mv -f "$qg_tmp" "$qg_f" 2>/dev/null &&
		[ "$(grep -E "^[[:space:]]*$3[[:space:]]*=" "$qg_f")" = "$3=$4" ]; then
		qg_report changed "$1" "${qg_was:-unset} -> $4 in $2"
	else
		rm -f "$qg_tmp"
		qg_report failed "$1" "cannot write $3=$4 to $qg_f"
	fi
}
