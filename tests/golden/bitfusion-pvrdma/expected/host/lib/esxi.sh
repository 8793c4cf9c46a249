#!/bin/sh
# qosgen 0.1.0: the helpers of every ESXi host's RoCE QoS script
# Generated: edit the intent, not this file; nothing of the intent is in it.
# A host's script is three parts run as one, in this order: this one, the
# host's line of host/hosts/esxi.sh (who it is) and its group's body
# (host/groups/GROUP.sh: what it gets); host/hosts/esxi.sh shows the command.
#
# Idempotent: it reads each setting first and changes only what differs.
# `esxcli system module parameters set` replaces a module's whole option
# string, so this script reads the current string and merges its own keys
# into it: options set by someone else are kept.
# One line per setting:
#   [ok] already right   [changed] set now   [failed] could not be set
#   [missing] the tool or object is not on this host
#   [differs] would be changed (QG_DRY_RUN=1: nothing is changed)
# Exit status: 0 all set; 1 a setting failed; 2 none failed but one is missing.
# Module options take effect at the next reboot; the last line says when one is needed.
set -u
# No pathname expansion: the host's option string is split into words below,
# and a word such as '*' must stay itself, never become the names of files in
# the working directory written back into the module's options.
set -f
qg_reboot=0
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

qg_need_uplink() {
	if ! esxcli network nic get -n "$1" >/dev/null 2>&1; then
		qg_report failed uplink "no uplink $1 on this host"
		exit 1
	fi
}

# A number as esxcli takes it: 0x-hex, or decimal without a leading zero
# (sh arithmetic reads 08 as bad octal, and that error ends the script).
qg_is_num() {
	case $1 in
	0[xX]?*) case ${1#0[xX]} in *[!0-9a-fA-F]*) return 1 ;; esac ;;
	0 | [1-9] | [1-9]*[0-9]) case $1 in *[!0-9]*) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}

# Numbers compare by value (pfctx=8 is pfctx=0x08), anything else as text.
qg_same() {
	if qg_is_num "$1" && qg_is_num "$2"; then
		[ "$(($1))" -eq "$(($2))" ]
	else
		[ "$1" = "$2" ]
	fi
}

# The value the driver takes for an option its string does not write, where
# its manual documents one and qosgen owns the key: nmlx5_core ecn is 0,
# "disabled (Default)" (NVIDIA ConnectX-4/ConnectX-5 Native ESXi Driver for
# VMware vSphere User Manual v4.17.15.16, "nmlx5_core Module Parameters").
# An unwritten ecn is then already 0: no change, and no reboot asked for
# nothing. The same table as targets/common/esxi_options.c's.
# nmlx5_rdma's dscp_force and pcp_force: the one the intent's trust does not
# use is "unset", out of the string (whatever the driver does unforced).
qg_opt_default() {
	case $1.$2 in
	nmlx5_core.ecn) echo 0 ;;
	nmlx5_rdma.dscp_force | nmlx5_rdma.pcp_force) echo unset ;;
	esac
}

# qg_module_opts MODULE KEY=VALUE...: merge into the module's option string;
# KEY=unset takes KEY out of it.
qg_module_opts() {
	qg_mod=$1
	shift
	if ! qg_out=$(esxcfg-module -g "$qg_mod" 2>/dev/null); then
		qg_report missing "$qg_mod" "module $qg_mod is not loaded on this host"
		return
	fi
	qg_cur=$(printf '%s\n' "$qg_out" | sed -n "s/.*options = '\(.*\)'.*/\1/p")
	qg_new=$qg_cur
	qg_changed=""
	for qg_kv in "$@"; do
		qg_k=${qg_kv%%=*}
		qg_v=${qg_kv#*=}
		qg_old=""
		qg_rest=""
		for qg_w in $qg_new; do
			if [ "${qg_w%%=*}" = "$qg_k" ]; then
				qg_old=${qg_w#*=}
			else
				qg_rest="$qg_rest $qg_w"
			fi
		done
		if [ -n "$qg_old" ] && qg_same "$qg_old" "$qg_v"; then
			qg_report ok "$qg_mod.$qg_k" "$qg_old"
			continue
		fi
		qg_def=$(qg_opt_default "$qg_mod" "$qg_k")
		if [ -z "$qg_old" ] && [ -n "$qg_def" ] && qg_same "$qg_def" "$qg_v"; then
			if [ "$qg_v" = unset ]; then
				qg_report ok "$qg_mod.$qg_k" "unset"
			else
				qg_report ok "$qg_mod.$qg_k" "unset, the driver's default $qg_def"
			fi
			continue
		fi
		if [ "$qg_v" = unset ]; then
			qg_new=${qg_rest# }
		else
			qg_new="${qg_rest# } $qg_k=$qg_v"
			qg_new=${qg_new# }
		fi
		qg_changed="$qg_changed $qg_mod.$qg_k:${qg_old:-unset}:$qg_v"
	done
	[ -z "$qg_changed" ] && return
	if qg_apply esxcli system module parameters set -m "$qg_mod" -p "$qg_new" >/dev/null 2>&1; then
		for qg_c in $qg_changed; do
			qg_r=${qg_c#*:}
			qg_report changed "${qg_c%%:*}" "${qg_r%%:*} -> ${qg_r#*:}"
		done
		qg_reboot=1
	else
		qg_report failed "$qg_mod" "esxcli system module parameters set -m $qg_mod -p '$qg_new' failed"
	fi
}

qg_advanced_string() {
	qg_cur=$(esxcli system settings advanced list -o "$1" 2>/dev/null |
		sed -n 's/^ *String Value: *//p')
	if [ "$qg_cur" = "$2" ]; then
		qg_report ok "$3" "$2"
	elif qg_apply esxcli system settings advanced set -o "$1" -s "$2" >/dev/null 2>&1; then
		qg_report changed "$3" "${qg_cur:-unset} -> $2"
	else
		qg_report failed "$3" "esxcli system settings advanced set -o $1 -s $2 failed"
	fi
}

qg_firewall_ruleset() {
	qg_cur=$(esxcli network firewall ruleset list -r "$1" 2>/dev/null |
		awk -v r="$1" '$1 == r { print $2 }')
	if [ -z "$qg_cur" ]; then
		qg_report missing "firewall.$1" "no firewall ruleset $1 on this host"
	elif [ "$qg_cur" = true ]; then
		qg_report ok "firewall.$1" enabled
	elif qg_apply esxcli network firewall ruleset set -e true -r "$1" >/dev/null 2>&1; then
		qg_report changed "firewall.$1" "disabled -> enabled"
	else
		qg_report failed "firewall.$1" "esxcli network firewall ruleset set -e true -r $1 failed"
	fi
}

qg_vmknic_mtu() {
	qg_cur=$(esxcli network ip interface list 2>/dev/null |
		awk -v v="$1" '$1 == "Name:" { n = $2 } n == v && $1 == "MTU:" { print $2; exit }')
	if [ -z "$qg_cur" ]; then
		qg_report failed "$1.mtu" "no VMkernel adapter $1 on this host"
	elif [ "$qg_cur" = "$2" ]; then
		qg_report ok "$1.mtu" "$2"
	elif qg_apply esxcli network ip interface set -m "$2" -i "$1" >/dev/null 2>&1; then
		qg_report changed "$1.mtu" "$qg_cur -> $2"
	else
		qg_report failed "$1.mtu" "esxcli network ip interface set -m $2 -i $1 failed"
	fi
}
