#!/bin/sh
# SPDX-License-Identifier: MIT
# Behaviour of the generated host scripts, run against fake device tools
# (tests/scripts/fake/) whose state starts from real captured outputs in
# tests/fixtures/.
# Checks the report lines, the exit codes, the ESXi option merge, and that a
# second run changes nothing. Usage: run.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../fixtures" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME CONDITION-EXIT-STATUS DETAIL
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
has() { grep -qxF -- "$2" "$1"; }

"$Q" build "$here/intent.yaml" -o "$tmp/out" >/dev/null || { echo "FAIL build"; exit 1; }
export QG_STATE="$tmp/state"
# The scripts' lock (and anything installed) under the test's own root, never this machine's /run.
export QG_ROOT="$tmp/root"
mkdir -p "$QG_ROOT/run"
# A host's script is three parts run as one: its platform's lib, its line of
# the platform's table host/hosts/P.sh and its group's file (the line names
# the group), put together here from the output directory into
# $tmp/script-NAME.sh; the by-hand command the table shows is tested below.
script_of() { # DIR NAME -> prints the path of NAME's script
	tab=$(grep -l "^qg_host='$2' " "$1"/host/hosts/*.sh)
	row=$(grep "^qg_host='$2' " "$tab")
	group=$(printf '%s\n' "$row" | sed -n "s/^qg_host='[^']*' qg_group='\([^']*\)'.*/\1/p")
	{ cat "$1/host/lib/${tab##*/}" && printf '%s\n' "$row" && cat "$1/host/groups/$group.sh"; } \
		>"$tmp/script-$2.sh" || echo "FAIL no script for $2 in $1" >&2
	echo "$tmp/script-$2.sh"
}
run() { # NAME -> output in $tmp/log, status in $st
	PATH="$here/fake:$PATH" sh "$(script_of "$tmp/out" "$1")" >"$tmp/log" 2>"$tmp/err"
	st=$?
}
dry_run() { # DIR NAME: a QG_DRY_RUN=1 run of NAME's script in DIR, as run
	PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh "$(script_of "$1" "$2")" >"$tmp/log" 2>"$tmp/err"
	st=$?
}
run_in() { # DIR NAME: a run of NAME's script in DIR
	PATH="$here/fake:$PATH" sh "$(script_of "$1" "$2")" >"$tmp/log" 2>"$tmp/err"
	st=$?
}

# ---- ESXi: merge into the option string captured from a real host ----
mkdir -p "$QG_STATE"
# The field case: PFC set earlier with pfctx=8 by PowerCLI, and max_vfs set by
# someone else. Nothing of theirs may be lost.
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8'" >"$QG_STATE/module.nmlx5_core"
echo "nmlx5_rdma enabled = 1 options = ''" >"$QG_STATE/module.nmlx5_rdma"
echo "" >"$QG_STATE/pvrdma_vmknic"
echo false >"$QG_STATE/fw_pvrdma"
echo 1500 >"$QG_STATE/vmk3_mtu"
# A dry run first: reports what differs, changes nothing.
PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh "$(script_of "$tmp/out" esx)" >"$tmp/log" 2>&1
st=$?
[ $st -eq 0 ] && [ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[differs] nmlx5_core.pfcrx: unset -> 0x08" &&
	has "$tmp/log" "[ok] nmlx5_core.pfctx: 8" &&
	has "$tmp/log" "[reboot] module options would change: applying them needs esx in maintenance mode and a reboot"
check esxi-dry-run-changes-nothing-says-reboot $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run esx
check esxi-first-run-exit "$([ $st -eq 0 ]; echo $?)" "exit $st: $(cat "$tmp/log" "$tmp/err")"
for line in "[ok] nmlx5_core.pfctx: 8" "[changed] nmlx5_core.pfcrx: unset -> 0x08" \
	"[changed] nmlx5_core.trust_state: unset -> 2" "[changed] nmlx5_core.ecn: unset -> 1" \
	"[changed] nmlx5_rdma.dscp_force: unset -> 26" \
	"[changed] Net.PVRDMAVmknic: unset -> vmk3" "[changed] firewall.pvrdma: disabled -> enabled" \
	"[changed] vmk3.mtu: 1500 -> 9000"; do
	has "$tmp/log" "$line"
	check "esxi-report '$line'" $? "$(cat "$tmp/log")"
done
has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8 pfcrx=0x08 trust_state=2 ecn=1'"
check esxi-merge-keeps-other-options $? "$(cat "$QG_STATE/module.nmlx5_core")"
grep -q '^\[reboot\]' "$tmp/log"
check esxi-reboot-when-options-changed $? "no [reboot] line"

rm -f "$QG_STATE/calls"
run esx
check esxi-second-run-exit "$([ $st -eq 0 ]; echo $?)" "exit $st"
[ ! -s "$QG_STATE/calls" ]
check esxi-second-run-changes-nothing $? "$(cat "$QG_STATE/calls" 2>/dev/null)"
! grep -q '^\[reboot\]' "$tmp/log" && ! grep -q '^\[changed\]' "$tmp/log"
check esxi-second-run-all-ok $? "$(cat "$tmp/log")"

# The option strings as a real host prints them after the SmartX guide's
# commands: PFC and trust set, the driver's ECN feature not (issue 23). With
# the intent's ecn the script turns it on, and only that: one call for
# nmlx5_core, the other words kept where they are, and a reboot asked for.
if [ -f "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" ]; then
	seed_fixture() {
		grep '^nmlx5_core ' "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" >"$QG_STATE/module.nmlx5_core"
		grep '^nmlx5_rdma ' "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" >"$QG_STATE/module.nmlx5_rdma"
		rm -f "$QG_STATE/calls"
	}
	seed_fixture
	run esx
	[ $st -eq 0 ] && has "$tmp/log" "[ok] nmlx5_core.pfctx: 0x08" &&
		has "$tmp/log" "[ok] nmlx5_rdma.dscp_force: 26" &&
		has "$tmp/log" "[changed] nmlx5_core.ecn: unset -> 1" &&
		[ "$(grep -c '^\[changed\]' "$tmp/log")" -eq 1 ] &&
		[ "$(wc -l <"$QG_STATE/calls")" -eq 1 ] &&
		has "$QG_STATE/calls" "system module parameters set -m nmlx5_core -p pfctx=0x08 pfcrx=0x08 trust_state=2 max_vfs=<value> ecn=1" &&
		has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'pfctx=0x08 pfcrx=0x08 trust_state=2 max_vfs=<value> ecn=1'" &&
		grep -q '^\[reboot\] module options changed' "$tmp/log"
	check esxi-fixture-ecn-turned-on $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
	# Without the intent's ecn, qosgen still owns the key: the driver's default 0.
	# The fixture's host, which never wrote it, is in sync (no call, no reboot);
	# one that has it on converges to 0.
	"$Q" build "$here/noecn.yaml" -o "$tmp/noecn" >/dev/null 2>&1 || check esxi-noecn-build 1 "build noecn.yaml"
	seed_fixture
	run_in "$tmp/noecn" esx
	[ $st -eq 0 ] && [ ! -s "$QG_STATE/calls" ] &&
		has "$tmp/log" "[ok] nmlx5_core.ecn: unset, the driver's default 0" &&
		! grep -q '^\[reboot\]' "$tmp/log"
	check esxi-noecn-unwritten-is-default $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
	echo "nmlx5_core enabled = 1 options = 'ecn=1 pfctx=0x08 pfcrx=0x08 trust_state=2'" >"$QG_STATE/module.nmlx5_core"
	run_in "$tmp/noecn" esx
	[ $st -eq 0 ] && has "$tmp/log" "[changed] nmlx5_core.ecn: 1 -> 0" &&
		has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'pfctx=0x08 pfcrx=0x08 trust_state=2 ecn=0'" &&
		grep -q '^\[reboot\]' "$tmp/log"
	check esxi-noecn-host-with-ecn-on-converges $? "exit $st: $(cat "$tmp/log" "$QG_STATE/module.nmlx5_core")"
	rm -f "$QG_STATE/calls"
	run_in "$tmp/noecn" esx
	[ $st -eq 0 ] && [ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[ok] nmlx5_core.ecn: 0"
	check esxi-noecn-second-run-ok $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
else
	check esxi-fixture 1 "fixtures not found at $fixtures"
fi

# Words of the host's own option string are data, never patterns: with '*'
# globbed, the merge wrote the names of the files in the working directory
# into the module's options, and 'pfctx=*' read back as a file's 'pfctx=1'
# (issue 18). The script runs from a directory holding such names.
mkdir -p "$tmp/globdir" && : >"$tmp/globdir/QG_GLOBBED" && : >"$tmp/globdir/pfctx=1"
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 * pfctx=*'" >"$QG_STATE/module.nmlx5_core"
esx=$(script_of "$tmp/out" esx)
(cd "$tmp/globdir" && PATH="$here/fake:$PATH" sh "$esx" >"$tmp/log" 2>"$tmp/err")
has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'max_vfs=4 * pfctx=0x08 pfcrx=0x08 trust_state=2 ecn=1'" &&
	has "$tmp/log" "[changed] nmlx5_core.pfctx: * -> 0x08" && ! grep -q QG_GLOBBED "$tmp/log"
check esxi-option-words-not-globbed $? "$(cat "$QG_STATE/module.nmlx5_core" "$tmp/log" "$tmp/err")"

run esx-nouplink
[ $st -eq 1 ] && has "$tmp/log" "[failed] uplink: no uplink vmnic9 on this host"
check esxi-missing-uplink-fails $? "exit $st: $(cat "$tmp/log")"

# ---- Linux, mlnx_qos: start from the real 2023 default-state capture ----
grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$QG_STATE/mlnx_qos"
rm -f "$QG_STATE/calls" "$QG_STATE/mlnx_qos.dscp2prio"
PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh "$(script_of "$tmp/out" pf-mlnx)" >"$tmp/log" 2>&1
# Under trust pcp mlnx_qos shows no map: the entries are unknown until trust is dscp.
[ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[differs] trust: pcp -> dscp" &&
	has "$tmp/log" "[differs] dscp2prio.26: unknown -> 3" && has "$tmp/log" "[differs] dscp2prio.48: unknown -> 6"
check linux-dry-run-changes-nothing $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run pf-mlnx
# rdma_cm and the ECN knobs are absent here: reported, not fatal, exit 2.
check linux-missing-knobs-exit-2 "$([ $st -eq 2 ]; echo $?)" "exit $st: $(cat "$tmp/log")"
lo_mtu=$(cat /sys/class/net/lo/mtu)
# trust dscp brings mlx5's default map, which already holds the intent's entries.
for line in "[changed] mtu: $lo_mtu -> 9000" "[changed] trust: pcp -> dscp" \
	"[ok] dscp2prio.26: 3" "[ok] dscp2prio.48: 6" \
	"[changed] pfc: 0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0" \
	"[n/a] tclass: not set: no /sys/class/infiniband/qgtest0/tc/1/traffic_class, driver none: no RDMA device qgtest0 (MLNX_OFED's mlx5 has it); covered instead by roce_tos for rdma_cm traffic, and by nccl.NCCL_IB_TC and ucx.UCX_IB_TRAFFIC_CLASS for NCCL and UCX jobs; a verbs job that sets no traffic class sends ToS 0" \
	"[missing] ecn.roce_np.enable.3: no /sys/class/net/lo/ecn/roce_np/enable/3" \
	"[n/a] ecn.roce_np.enable.4: not set: no /sys/class/net/lo/ecn/roce_np/enable/4 (its driver has no such knob; MLNX_OFED and DOCA have it): 0 cannot be written here" \
	"[changed] nccl.NCCL_IB_TC: unset -> 106 in /etc/nccl.conf" \
	"[changed] ucx.UCX_IB_TRAFFIC_CLASS: unset -> 106 in /etc/ucx/ucx.conf"; do
	has "$tmp/log" "$line"
	check "linux-report '$line'" $? "$(cat "$tmp/log")"
done
grep -q '^\[missing\] roce_tos: ' "$tmp/log"
check linux-roce-tos-missing-reported $? "$(cat "$tmp/log")"
has "$QG_STATE/calls" "ip link set dev lo mtu 9000"
check linux-mtu-set-with-ip $? "$(cat "$QG_STATE/calls")"
rm -f "$QG_STATE/calls"
run pf-mlnx
has "$tmp/log" "[ok] trust: dscp" && has "$tmp/log" "[ok] pfc: 0,0,0,1,0,0,0,0" &&
	has "$tmp/log" "[ok] dscp2prio.26: 3" && ! grep -q mlnx_qos "$QG_STATE/calls"
check linux-mlnx-second-run-ok $? "$(cat "$tmp/log")"

# NCCL's and UCX's files (issue 35): qosgen owns its one variable in each;
# the site's other lines stay, in place, and the file keeps its mode.
mkdir -p "$QG_ROOT/etc"
printf 'NCCL_DEBUG=WARN\nNCCL_IB_TC=0\n# site settings\nNCCL_SOCKET_IFNAME==ens1f0\n' >"$QG_ROOT/etc/nccl.conf"
chmod 640 "$QG_ROOT/etc/nccl.conf"
dry_run "$tmp/out" pf-mlnx
has "$tmp/log" "[differs] nccl.NCCL_IB_TC: 0 -> 106 in /etc/nccl.conf" && grep -qx 'NCCL_IB_TC=0' "$QG_ROOT/etc/nccl.conf"
check nccl-conf-dry-run $? "$(cat "$tmp/log" "$QG_ROOT/etc/nccl.conf")"
run pf-mlnx
printf 'NCCL_DEBUG=WARN\n# site settings\nNCCL_SOCKET_IFNAME==ens1f0\n%s\nNCCL_IB_TC=106\n' \
	'# qosgen push owns the next line: the RoCE traffic class of the fabric' >"$tmp/nccl.want"
has "$tmp/log" "[changed] nccl.NCCL_IB_TC: 0 -> 106 in /etc/nccl.conf" &&
	cmp -s "$tmp/nccl.want" "$QG_ROOT/etc/nccl.conf" && [ "$(stat -c %a "$QG_ROOT/etc/nccl.conf")" = 640 ] &&
	has "$tmp/log" "[ok] ucx.UCX_IB_TRAFFIC_CLASS: 106" && [ "$(stat -c %a "$QG_ROOT/etc/ucx/ucx.conf")" = 644 ]
check nccl-conf-owned-line-rest-kept $? "$(cat "$tmp/log"; diff "$tmp/nccl.want" "$QG_ROOT/etc/nccl.conf")"
run pf-mlnx
has "$tmp/log" "[ok] nccl.NCCL_IB_TC: 106" && cmp -s "$tmp/nccl.want" "$QG_ROOT/etc/nccl.conf"
check nccl-conf-second-run-ok $? "$(cat "$tmp/log" "$QG_ROOT/etc/nccl.conf")"

# The DSCP map: qosgen owns the classes' entries and checks them every run.
# mlnx_qos's state is the capture under trust dscp (as after the run above),
# its map kept by the fake as "DSCP PRIO" lines.
default_map() { # -> the firmware default, DSCP/8, in the fake's map file
	i=0
	while [ $i -lt 64 ]; do
		echo "$i $((i / 8))"
		i=$((i + 1))
	done >"$QG_STATE/mlnx_qos.dscp2prio"
}
remap() { # DSCP PRIO...: change entries of the fake's map
	while [ $# -ge 2 ]; do
		sed -i "s/^$1 .*/$1 $2/" "$QG_STATE/mlnx_qos.dscp2prio"
		shift 2
	done
}
# No QoS setting changed (mtu always reads changed: the fake ip leaves lo's MTU).
not_changed() { ! grep -q '^\[changed\] \(trust\|pfc\|dscp2prio\.[0-9a-z]*\):' "$tmp/log"; }
"$Q" build "$here/remap.yaml" -o "$tmp/remap" >/dev/null || { echo "FAIL build remap.yaml"; exit 1; }

# Someone remapped DSCP 26 to priority 0 and the CNP DSCP to 5, and DSCP 10,
# which no class uses, to 5: a dry run names all three and changes nothing.
default_map
remap 26 0 48 5 10 5
cp "$QG_STATE/mlnx_qos.dscp2prio" "$tmp/map.before"
rm -f "$QG_STATE/calls"
dry_run "$tmp/out" pf-mlnx
[ ! -s "$QG_STATE/calls" ] && cmp -s "$tmp/map.before" "$QG_STATE/mlnx_qos.dscp2prio" &&
	has "$tmp/log" "[differs] dscp2prio.26: 0 -> 3" && has "$tmp/log" "[differs] dscp2prio.48: 5 -> 6" &&
	has "$tmp/log" "[differs] dscp2prio.others: 10:5 -> DSCP/8"
check mlnx-map-dry-run-differs-changes-nothing $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run pf-mlnx
has "$tmp/log" "[changed] dscp2prio.26: 0 -> 3" && has "$tmp/log" "[changed] dscp2prio.48: 5 -> 6" &&
	has "$QG_STATE/calls" "mlnx_qos -i lo --dscp2prio set,26,3" &&
	has "$QG_STATE/calls" "mlnx_qos -i lo --dscp2prio set,48,6" &&
	has "$QG_STATE/mlnx_qos.dscp2prio" "26 3" && has "$QG_STATE/mlnx_qos.dscp2prio" "10 1" &&
	has "$tmp/log" "[changed] dscp2prio.others: 10:5 -> DSCP/8" &&
	has "$QG_STATE/calls" "mlnx_qos -i lo --dscp2prio set,10,1"
check mlnx-map-remapped-host-changed-others-default $? "$(cat "$tmp/log" "$QG_STATE/calls")"
rm -f "$QG_STATE/calls"
run pf-mlnx
not_changed && has "$tmp/log" "[ok] dscp2prio.26: 3" && has "$tmp/log" "[ok] dscp2prio.48: 6" &&
	! grep -q mlnx_qos "$QG_STATE/calls"
check mlnx-map-second-run-ok $? "$(cat "$tmp/log" "$QG_STATE/calls")"
# Nine DSCPs on priority 3: mlnx_qos continues the list on a second
# "prio:3 dscp:" line, where DSCP 26 then stands.
default_map
remap 32 3 33 3 34 3
dry_run "$tmp/out" pf-mlnx
has "$tmp/log" "[ok] dscp2prio.26: 3" && PATH="$here/fake:$PATH" mlnx_qos -i lo | grep -q "prio:3 dscp:26,25,24,$"
check mlnx-map-entry-on-a-wrapped-line $? "$(cat "$tmp/log"; PATH="$here/fake:$PATH" mlnx_qos -i lo)"

# The remap intent (DSCP 24 on 4, CNP DSCP 46 on 7) on a host at the default map.
default_map
rm -f "$QG_STATE/calls"
dry_run "$tmp/remap" pf-mlnx
[ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[differs] dscp2prio.24: 3 -> 4" &&
	has "$tmp/log" "[differs] dscp2prio.46: 5 -> 7"
check mlnx-remap-dry-run $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run_in "$tmp/remap" pf-mlnx
has "$tmp/log" "[changed] dscp2prio.24: 3 -> 4" && has "$tmp/log" "[changed] dscp2prio.46: 5 -> 7" &&
	has "$QG_STATE/mlnx_qos.dscp2prio" "24 4" && has "$QG_STATE/mlnx_qos.dscp2prio" "46 7" &&
	has "$QG_STATE/mlnx_qos.dscp2prio" "25 3"
check mlnx-remap-default-host-changed $? "$(cat "$tmp/log")"
rm -f "$QG_STATE/calls"
run_in "$tmp/remap" pf-mlnx
not_changed && has "$tmp/log" "[ok] dscp2prio.24: 4" && has "$tmp/log" "[ok] dscp2prio.46: 7" &&
	! grep -q '^mlnx_qos' "$QG_STATE/calls"
check mlnx-remap-second-run-ok $? "$(cat "$tmp/log" "$QG_STATE/calls")"
# Back to the default intent: the whole map is what a fresh host given it
# has (issue 35): the remap's entries go back to DSCP/8 too.
run pf-mlnx
has "$tmp/log" "[ok] dscp2prio.26: 3" && has "$tmp/log" "[ok] dscp2prio.48: 6" &&
	has "$tmp/log" "[changed] dscp2prio.others: 24:4 46:7 -> DSCP/8" &&
	has "$QG_STATE/mlnx_qos.dscp2prio" "24 3" && has "$QG_STATE/mlnx_qos.dscp2prio" "46 5"
check mlnx-map-history-back-to-default $? "$(cat "$tmp/log")"

# ---- Linux, dcb: start from the iproute2 man-page outputs ----
d=$fixtures/host/dcb_manpage_examples.txt
grep '^prio-pfc ' "$d" >"$QG_STATE/dcb_pfc"
grep '^dscp-prio 0:0 24' "$d" >"$QG_STATE/dcb_app"
grep '^order: ' "$d" >"$QG_STATE/dcb_apptrust"
rm -f "$QG_STATE/calls"
run pf-dcb
# The man page's table: DSCP 48 already on 6, DSCP 26 in no entry.
for line in "[changed] trust: port pcp ethtype -> dscp" "[changed] dscp2prio.26: unset -> 3" \
	"[ok] dscp2prio.48: 6" \
	"[changed] pfc: prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:on 7:on -> 0,0,0,1,0,0,0,0"; do
	has "$tmp/log" "$line"
	check "dcb-report '$line'" $? "$(cat "$tmp/log")"
done
has "$QG_STATE/calls" "dcb app replace dev lo dscp-prio 26:3" && ! grep -q 'dscp-prio 48:' "$QG_STATE/calls"
check dcb-map-replaces-only-what-differs $? "$(cat "$QG_STATE/calls")"
rm -f "$QG_STATE/calls"
run pf-dcb
has "$tmp/log" "[ok] trust: dscp" && has "$tmp/log" "[ok] dscp2prio.26: 3" && has "$tmp/log" "[ok] dscp2prio.48: 6" &&
	has "$tmp/log" "[ok] pfc: 0,0,0,1,0,0,0,0" && ! grep -q '^dcb' "$QG_STATE/calls" 2>/dev/null
check dcb-second-run-ok $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"

# mlx5 under trust dscp holds one APP entry per DSCP, its default DSCP/8.
dcb_default() {
	i=0
	out=dscp-prio
	while [ $i -lt 64 ]; do
		out="$out $i:$((i / 8))"
		i=$((i + 1))
	done
	echo "$out" >"$QG_STATE/dcb_app"
}
dcb_default
rm -f "$QG_STATE/calls"
run pf-dcb
not_changed && has "$tmp/log" "[ok] dscp2prio.26: 3" && has "$tmp/log" "[ok] dscp2prio.48: 6" &&
	! grep -q '^dcb' "$QG_STATE/calls" 2>/dev/null
check dcb-map-default-host-ok $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"

# The remap intent on the man page's table, where DSCP 24 has two priorities.
grep '^dscp-prio 0:0 24' "$d" >"$QG_STATE/dcb_app"
cp "$QG_STATE/dcb_app" "$tmp/app.before"
rm -f "$QG_STATE/calls"
dry_run "$tmp/remap" pf-dcb
[ ! -s "$QG_STATE/calls" ] && cmp -s "$tmp/app.before" "$QG_STATE/dcb_app" &&
	has "$tmp/log" "[differs] dscp2prio.24: 2,3 -> 4" && has "$tmp/log" "[differs] dscp2prio.46: unset -> 7"
check dcb-remap-dry-run-changes-nothing $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run_in "$tmp/remap" pf-dcb
has "$tmp/log" "[changed] dscp2prio.24: 2,3 -> 4" && has "$tmp/log" "[changed] dscp2prio.46: unset -> 7" &&
	[ "$("$here/fake/dcb" -N app show dev lo dscp-prio)" = "dscp-prio 0:0 24:4 46:7 48:6 " ]
check dcb-remap-changed $? "$(cat "$tmp/log"; "$here/fake/dcb" -N app show dev lo dscp-prio)"
rm -f "$QG_STATE/calls"
run_in "$tmp/remap" pf-dcb
not_changed && has "$tmp/log" "[ok] dscp2prio.24: 4" && has "$tmp/log" "[ok] dscp2prio.46: 7" &&
	! grep -q '^dcb' "$QG_STATE/calls" 2>/dev/null
check dcb-remap-second-run-ok $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
# A default host, remapped by someone: [changed] back to the intent.
dcb_default
"$here/fake/dcb" app replace dev lo dscp-prio 24:1 46:0
run_in "$tmp/remap" pf-dcb
has "$tmp/log" "[changed] dscp2prio.24: 1 -> 4" && has "$tmp/log" "[changed] dscp2prio.46: 0 -> 7"
check dcb-remapped-host-changed $? "$(cat "$tmp/log")"

# Back to the reference intent: the remap's entries of DSCPs no class has now
# are deleted, so DSCP/8 is in effect for them again, as on a fresh host.
rm -f "$QG_STATE/calls"
run pf-dcb
has "$tmp/log" "[changed] dscp2prio.others: 24:4 46:7 -> DSCP/8" &&
	has "$QG_STATE/calls" "dcb app del dev lo dscp-prio 24:4 46:7" &&
	! "$here/fake/dcb" -N app show dev lo dscp-prio | grep -q ' 24:\| 46:'
check dcb-history-back-to-default $? "$(cat "$tmp/log" "$QG_STATE/calls"; "$here/fake/dcb" -N app show dev lo dscp-prio)"

# dcb app replace that exits 0 having changed nothing (the kernel refused):
# the read-back decides, and the entry fails.
grep '^dscp-prio 0:0 24' "$d" >"$QG_STATE/dcb_app"
: >"$QG_STATE/dcb_app.refuse"
run pf-dcb
[ $st -eq 1 ] && has "$tmp/log" "[failed] dscp2prio.26: dcb app replace dev lo dscp-prio 26:3 failed (now unset)"
check dcb-map-refused-entry-fails $? "exit $st: $(cat "$tmp/log")"
rm -f "$QG_STATE/dcb_app.refuse"

# ---- a host's script is three parts (issue 15, item 3) ----
# As a user runs it by hand: the command the table's header shows, for NAME
# and GROUP, piped into sh -s here instead of ssh, does what push's script does.
cmd=$(sed -n 's/^#   \({ cat .*; }\) | ssh NAME sh -s$/\1/p' "$tmp/out/host/hosts/linux.sh")
cmd=$(printf '%s\n' "$cmd" | sed 's/NAME/pf-dcb/; s/GROUP/linux-pf-dcb/')
(cd "$tmp/out" && eval "$cmd" | PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh -s) >"$tmp/piped" 2>&1
dry_run "$tmp/out" pf-dcb
[ "$cmd" = "{ cat host/lib/linux.sh; awk -v h=\"qg_host='pf-dcb' \" 'index(\$0, h) == 1' host/hosts/linux.sh; cat host/groups/linux-pf-dcb.sh; }" ] &&
	cmp -s "$tmp/piped" "$tmp/log" && has "$tmp/log" "[ok] trust: dscp"
check three-parts-piped-into-sh-s $? "$cmd: $(diff "$tmp/piped" "$tmp/log")"
# Issue 24, item 11: the by-hand command, as the table's header shows it, picks
# gpu.1's line alone beside gpu-1 (a grep pattern's '.' matched both, and the
# later line, gpu-1's, won). Both orders: the other host's line first and last.
for order in "gpu.1 gpu-1" "gpu-1 gpu.1"; do
	{ sed -n '1,/^hosts:/p' "$here/intent.yaml"
	  for h in $order; do
		echo "  - {name: $h, platform: linux, address: 127.0.0.1, netdev: lo, rdma_device: qgtest0}"
	  done; } >"$tmp/dots.yaml"
	rm -rf "$tmp/dots"
	"$Q" build "$tmp/dots.yaml" -o "$tmp/dots" >/dev/null 2>&1
	cmd=$(sed -n 's/^#   \({ cat .*; }\) | ssh NAME sh -s$/\1/p' "$tmp/dots/host/hosts/linux.sh")
	cmd=$(printf '%s\n' "$cmd" | sed 's/NAME/gpu.1/; s/GROUP/linux-pf-mlnx_qos/')
	(cd "$tmp/dots" && eval "$cmd") >"$tmp/dots.sh" 2>&1
	[ -n "$cmd" ] && [ "$(grep -c '^qg_host=' "$tmp/dots.sh")" -eq 1 ] &&
		grep -q "^qg_host='gpu.1' " "$tmp/dots.sh"
	check "by-hand-command-fixed-name-$order" $? "$cmd: $(grep '^qg_host=' "$tmp/dots.sh")"
done
# A host's line with another group's body: refused before anything is read or set.
(cd "$tmp/out" && cat host/lib/linux.sh && grep "^qg_host='pf-mlnx' " host/hosts/linux.sh &&
	cat host/groups/linux-pf-dcb.sh) >"$tmp/wrong.sh"
rm -f "$QG_STATE/calls"
PATH="$here/fake:$PATH" sh "$tmp/wrong.sh" >"$tmp/log" 2>&1
st=$?
[ $st -eq 1 ] && [ ! -s "$QG_STATE/calls" ] &&
	[ "$(cat "$tmp/log")" = "[failed] group: host pf-mlnx is of group linux-pf-mlnx_qos, not linux-pf-dcb: run its own group's file" ]
check another-groups-body-refused $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
# Two hosts of one netdev and RDMA device share their unit and rule; neither names a host.
[ -f "$tmp/out/host/persist/lo/qgtest0.service" ] && [ -f "$tmp/out/host/persist/lo/qgtest0.rules" ] &&
	[ "$(find "$tmp/out/host/persist" -type f | wc -l)" -eq 2 ] &&
	! grep -q 'pf-mlnx\|pf-dcb' "$tmp/out/host/persist/lo/qgtest0.service" "$tmp/out/host/persist/lo/qgtest0.rules"
check persist-files-shared $? "$(find "$tmp/out/host/persist")"

# ---- a host of several NICs (issue 28): one run sets every NIC ----
# NIC 0 the loopback, NIC 1 a netdev no machine has: NIC 1 is missing alone
# (exit 2), NIC 0 still set, every line keyed nics[K]. as plan.json's settings.
{ sed -n '1,/^hosts:/p' "$here/intent.yaml"
  echo "  - {name: two, platform: linux, address: 127.0.0.1, nics: [{netdev: lo, rdma_device: qgtest0}, {netdev: qgabsent0, rdma_device: qgtest1}]}"
  other=
  for n in /sys/class/net/*; do
	[ -n "$other" ] || [ "${n##*/}" = lo ] || [ ! -e "$n/mtu" ] || other=${n##*/}
  done
  [ -z "$other" ] || echo "  - {name: both, platform: linux, address: 127.0.0.1, nics: [{netdev: lo, rdma_device: qgtest0}, {netdev: $other, rdma_device: qgtest1}]}"
} >"$tmp/nics.yaml"
"$Q" build "$tmp/nics.yaml" -o "$tmp/nics" >"$tmp/log" 2>&1
check nics-build $? "$(cat "$tmp/log")"
grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$QG_STATE/mlnx_qos"
rm -f "$QG_STATE/calls" "$QG_STATE/mlnx_qos.dscp2prio"
run_in "$tmp/nics" two
[ $st -eq 2 ] && has "$tmp/log" "[missing] nics[1].netdev: no network device qgabsent0 on this host" &&
	has "$tmp/log" "[changed] nics[0].trust: pcp -> dscp" &&
	has "$tmp/log" "[changed] nics[0].pfc: 0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0" &&
	has "$QG_STATE/calls" "mlnx_qos -i lo --trust dscp" && ! grep -q qgabsent0 "$QG_STATE/calls" &&
	[ "$(grep -c '^\[[a-z/]*\] nics\[1\]\.' "$tmp/log")" -eq 1 ] &&
	[ "$(grep -vc '^\[[a-z/]*\] \(nics\[[01]\]\.\|nccl\.\|ucx\.\)' "$tmp/log")" -eq 0 ]
check nics-one-absent-reported-alone $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
# The settings plan.json gives the host are the keys its lines carry.
python3 - "$tmp/nics/plan.json" "$tmp/log" <<'PY' >"$tmp/why" 2>&1
import json, re, sys
plan = json.load(open(sys.argv[1]))
host = next(d for d in plan["devices"] if d.get("name") == "two")
keys = set(next(g for g in plan["groups"] if g["name"] == host["group"])["settings"])
said = {m.group(1) for m in re.finditer(r"^\[[a-z/]+\] (nics\[0\]\.[^:]+):", open(sys.argv[2]).read(), re.M)}
assert said and said <= keys, (sorted(said - keys), sorted(keys))
assert all(k.startswith(("nics[0].", "nics[1].", "nccl.", "ucx.")) for k in keys), sorted(keys)
PY
check nics-report-keys-are-settings $? "$(cat "$tmp/why")"
# The installed copy given a netdev (a NIC's unit or rule) does that NIC alone.
sh_nics=$(script_of "$tmp/nics" two)
PATH="$here/fake:$PATH" sh "$sh_nics" lo >"$tmp/log" 2>&1
st=$?
[ $st -ne 1 ] && has "$tmp/log" "[ok] nics[0].trust: dscp" && ! grep -q 'nics\[1\]' "$tmp/log"
check nics-argument-one-nic $? "exit $st: $(cat "$tmp/log")"
PATH="$here/fake:$PATH" sh "$sh_nics" eth-none >"$tmp/log" 2>&1
st=$?
[ $st -eq 1 ] && [ "$(cat "$tmp/log")" = "[failed] nic: host two has no NIC eth-none in the intent" ]
check nics-argument-unknown-netdev $? "exit $st: $(cat "$tmp/log")"
# Two NICs present (a second netdev of this machine): both set. The fake
# mlnx_qos keeps one state for the host: NIC 0's changes read back [ok] on NIC 1.
if [ -n "$other" ]; then
	grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$QG_STATE/mlnx_qos"
	rm -f "$QG_STATE/calls" "$QG_STATE/mlnx_qos.dscp2prio"
	run_in "$tmp/nics" both
	has "$tmp/log" "[changed] nics[0].trust: pcp -> dscp" && has "$tmp/log" "[ok] nics[1].trust: dscp" &&
		has "$tmp/log" "[ok] nics[1].pfc: 0,0,0,1,0,0,0,0" && has "$tmp/log" "[ok] nics[1].dscp2prio.26: 3" &&
		grep -q '^\[\(ok\|changed\)\] nics\[1\]\.mtu: ' "$tmp/log" && has "$QG_STATE/calls" "ip link set dev lo mtu 9000"
	check nics-both-set $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
fi

# ---- the reference switch configuration, straight from the seed document (an excerpt) ----
seed=$fixtures/onyx/rdg_vsphere_running_config.txt
if [ -f "$seed" ]; then
	"$Q" build "$here/../../examples/rdg-vsphere.yaml" -o "$tmp/rdg" >/dev/null
	grep -E '^(traffic pool|interface ethernet)' "$seed" >"$tmp/seed.lines"
	# Besides the reference's lines and the MTU, qosgen writes only the owned
	# defaults of the other traffic classes (issue 23: 'no' forms, so that a
	# class an earlier intent used goes back to Onyx's default): 7 lines of
	# congestion control; and, the intent giving the lossless class no ets
	# (issue 34: NVIDIA's RoCE default on every switch OS, WRR 50), the seven
	# WRR classes' weights, the lossless class's 50 and the other six's 50.
	noform=' no traffic-class [0-7] congestion-control$'
	wrr=' traffic-class [0-7] dcb ets wrr [0-9]+$'
	grep -v -e '^#' -e '^$' -e ' mtu ' "$tmp/rdg/onyx/swx-mld-1-2.cli" | grep -Ev "$noform|$wrr" >"$tmp/gen.lines"
	cmp -s "$tmp/seed.lines" "$tmp/gen.lines" && [ "$(wc -l <"$tmp/seed.lines")" -eq 6 ] &&
		grep -qxF 'interface ethernet 1/1-1/32 mtu 9216 force' "$tmp/rdg/onyx/swx-mld-1-2.cli" &&
		[ "$(grep -Ec "$noform" "$tmp/rdg/onyx/swx-mld-1-2.cli")" -eq 7 ] &&
		[ "$(grep -Ec "$wrr" "$tmp/rdg/onyx/swx-mld-1-2.cli")" -eq 7 ] &&
		grep -qxF 'interface ethernet 1/1-1/32 traffic-class 3 dcb ets wrr 50' "$tmp/rdg/onyx/swx-mld-1-2.cli" &&
		[ "$(grep -E "$wrr" "$tmp/rdg/onyx/swx-mld-1-2.cli" | awk '{ s += $NF } END { print s }')" -eq 100 ]
	check onyx-seed-six-lines-plus-mtu-and-owned-defaults $? "$(diff "$tmp/seed.lines" "$tmp/gen.lines")"
else
	check onyx-seed 1 "seed not found at $seed"
fi

# ---- A VF guest: its MTU is the hypervisor's to grant (issue 23) ----
# The fake ip leaves lo's MTU as it is, as a hypervisor that holds a VF below
# the request does: the script reads it back and fails the setting with the
# reason; a refused request says the same; a dry run only reports.
"$Q" build "$here/vf.yaml" -o "$tmp/vf" >/dev/null 2>&1 || check vf-build 1 "build vf.yaml"
lo_mtu=$(cat /sys/class/net/lo/mtu)
vf_why="a VF MTU is bounded by the MTU of the vSwitch or DVS its port group is on (the hypervisor checks each request): raise that switch MTU to at least 9000"
rm -f "$QG_STATE/calls"
run_in "$tmp/vf" vf
[ $st -eq 1 ] && has "$QG_STATE/calls" "ip link set dev lo mtu 9000" &&
	has "$tmp/log" "[failed] mtu: ip link set dev lo mtu 9000 returned but the MTU reads $lo_mtu; $vf_why"
check vf-mtu-read-back-fails-with-reason $? "exit $st: $(cat "$tmp/log")"
export QG_IP_REFUSE_MTU=1
run_in "$tmp/vf" vf
unset QG_IP_REFUSE_MTU
[ $st -eq 1 ] && has "$tmp/log" "[failed] mtu: ip link set dev lo mtu 9000 failed (now $lo_mtu); $vf_why"
check vf-mtu-refused-says-where $? "exit $st: $(cat "$tmp/log")"
dry_run "$tmp/vf" vf
has "$tmp/log" "[differs] mtu: $lo_mtu -> 9000" && ! grep -q '^\[failed\] mtu' "$tmp/log"
check vf-mtu-dry-run-reports $? "exit $st: $(cat "$tmp/log")"
# A PF's MTU is its own: no read-back reason in its group.
! grep -q 'vSwitch or DVS' "$tmp/out/host/groups/linux-pf-mlnx_qos.sh" &&
	grep -q "qg_mtu \"\$qg_netdev\" '9000' 'a VF MTU is bounded" "$tmp/vf/host/groups/linux-vf.sh"
check vf-mtu-reason-in-vf-group-only $? "$(grep qg_mtu "$tmp/out/host/groups/linux-pf-mlnx_qos.sh" "$tmp/vf/host/groups/linux-vf.sh")"

# ---- the output directory: build --check and -o against hostile trees (issue 18) ----
"$Q" build "$here/intent.yaml" -o "$tmp/co" >/dev/null
echo "SECRET-$$" >"$tmp/secret"
rm "$tmp/co/host/hosts/esxi.sh" && ln -s "$tmp/secret" "$tmp/co/host/hosts/esxi.sh"
"$Q" build "$here/intent.yaml" --check -o "$tmp/co" >"$tmp/log" 2>&1
st=$?
[ $st -eq 3 ] && ! grep -q "SECRET-$$" "$tmp/log" && grep -q "co/host/hosts/esxi.sh' is a symbolic link" "$tmp/log"
check check-refuses-symlinked-output $? "exit $st: $(cat "$tmp/log")"
# Another tool's directory with its own plan.json: refused, all of it kept.
mkdir -p "$tmp/tf/.git" && echo '{"terraform_version":"1.5.7"}' >"$tmp/tf/plan.json" &&
	echo 'terraform {}' >"$tmp/tf/main.tf" && echo 'ref: refs/heads/main' >"$tmp/tf/.git/HEAD"
"$Q" build "$here/intent.yaml" -o "$tmp/tf" >"$tmp/log" 2>&1
st=$?
[ $st -eq 3 ] && grep -q "not a qosgen output directory (found: .git/, main.tf, plan.json)" "$tmp/log" &&
	grep -q terraform_version "$tmp/tf/plan.json" && [ -f "$tmp/tf/main.tf" ] && [ -f "$tmp/tf/.git/HEAD" ]
check build-refuses-lookalike-directory $? "exit $st: $(cat "$tmp/log"; ls -A "$tmp/tf")"
# qosgen's own output is still replaced.
"$Q" build "$here/intent.yaml" -o "$tmp/out" >"$tmp/log" 2>&1
check build-replaces-own-output $? "$(cat "$tmp/log")"

echo "$pass script checks passed, $fail failed"
[ "$fail" -eq 0 ]
