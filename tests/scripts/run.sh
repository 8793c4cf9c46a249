#!/bin/sh
# SPDX-License-Identifier: MIT
# Behaviour of the generated host scripts, run against fake device tools
# (tests/scripts/fake/) whose state starts from real captured outputs in
# ../shared/fixtures (or tests/fixtures/ where the project keeps its own).
# Checks the report lines, the exit codes, the ESXi option merge, and that a
# second run changes nothing. Usage: run.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../../../shared/fixtures
[ -d "$fixtures" ] || fixtures=$here/../fixtures
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
run() { # SCRIPT -> output in $tmp/log, status in $st
	PATH="$here/fake:$PATH" sh "$tmp/out/host/$1.sh" >"$tmp/log" 2>"$tmp/err"
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
PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh "$tmp/out/host/esx.sh" >"$tmp/log" 2>&1
st=$?
[ $st -eq 0 ] && [ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[differs] nmlx5_core.pfcrx: unset -> 0x08" &&
	has "$tmp/log" "[ok] nmlx5_core.pfctx: 8" &&
	has "$tmp/log" "[reboot] module options would change: applying them needs esx in maintenance mode and a reboot"
check esxi-dry-run-changes-nothing-says-reboot $? "exit $st: $(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run esx
check esxi-first-run-exit "$([ $st -eq 0 ]; echo $?)" "exit $st: $(cat "$tmp/log" "$tmp/err")"
for line in "[ok] nmlx5_core.pfctx: 8" "[changed] nmlx5_core.pfcrx: unset -> 0x08" \
	"[changed] nmlx5_core.trust_state: unset -> 2" "[changed] nmlx5_rdma.dscp_force: unset -> 26" \
	"[changed] Net.PVRDMAVmknic: unset -> vmk3" "[changed] firewall.pvrdma: disabled -> enabled" \
	"[changed] vmk3.mtu: 1500 -> 9000"; do
	has "$tmp/log" "$line"
	check "esxi-report '$line'" $? "$(cat "$tmp/log")"
done
has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8 pfcrx=0x08 trust_state=2'"
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

# The option strings as a real host prints them after the SmartX guide's commands.
if [ -f "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" ]; then
	grep '^nmlx5_core ' "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" >"$QG_STATE/module.nmlx5_core"
	grep '^nmlx5_rdma ' "$fixtures/esxi/esxcfg_module_g_nmlx5.txt" >"$QG_STATE/module.nmlx5_rdma"
	rm -f "$QG_STATE/calls"
	run esx
	[ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[ok] nmlx5_core.pfctx: 0x08" &&
		has "$tmp/log" "[ok] nmlx5_rdma.dscp_force: 26"
	check esxi-fixture-already-right $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
else
	check esxi-fixture 1 "fixtures not found at $fixtures"
fi

# Words of the host's own option string are data, never patterns: with '*'
# globbed, the merge wrote the names of the files in the working directory
# into the module's options, and 'pfctx=*' read back as a file's 'pfctx=1'
# (issue 18). The script runs from a directory holding such names.
mkdir -p "$tmp/globdir" && : >"$tmp/globdir/QG_GLOBBED" && : >"$tmp/globdir/pfctx=1"
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 * pfctx=*'" >"$QG_STATE/module.nmlx5_core"
(cd "$tmp/globdir" && PATH="$here/fake:$PATH" sh "$tmp/out/host/esx.sh" >"$tmp/log" 2>"$tmp/err")
has "$QG_STATE/module.nmlx5_core" "nmlx5_core enabled = 1 options = 'max_vfs=4 * pfctx=0x08 pfcrx=0x08 trust_state=2'" &&
	has "$tmp/log" "[changed] nmlx5_core.pfctx: * -> 0x08" && ! grep -q QG_GLOBBED "$tmp/log"
check esxi-option-words-not-globbed $? "$(cat "$QG_STATE/module.nmlx5_core" "$tmp/log" "$tmp/err")"

run esx-nouplink
[ $st -eq 1 ] && has "$tmp/log" "[failed] uplink: no uplink vmnic9 on this host"
check esxi-missing-uplink-fails $? "exit $st: $(cat "$tmp/log")"

# ---- Linux, mlnx_qos: start from the real 2023 default-state capture ----
grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$QG_STATE/mlnx_qos"
rm -f "$QG_STATE/calls"
PATH="$here/fake:$PATH" QG_DRY_RUN=1 sh "$tmp/out/host/pf-mlnx.sh" >"$tmp/log" 2>&1
[ ! -s "$QG_STATE/calls" ] && has "$tmp/log" "[differs] trust: pcp -> dscp"
check linux-dry-run-changes-nothing $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"
run pf-mlnx
# rdma_cm and the ECN knobs are absent here: reported, not fatal, exit 2.
check linux-missing-knobs-exit-2 "$([ $st -eq 2 ]; echo $?)" "exit $st: $(cat "$tmp/log")"
lo_mtu=$(cat /sys/class/net/lo/mtu)
for line in "[changed] mtu: $lo_mtu -> 9000" "[changed] trust: pcp -> dscp" \
	"[changed] pfc: 0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0" \
	"[n/a] tclass: no /sys/class/infiniband/qgtest0/tc/1/traffic_class (MLNX_OFED only; roce_tos covers rdma_cm)" \
	"[missing] ecn.roce_np.enable.3: no /sys/class/net/lo/ecn/roce_np/enable/3"; do
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
	! grep -q mlnx_qos "$QG_STATE/calls"
check linux-mlnx-second-run-ok $? "$(cat "$tmp/log")"

# ---- Linux, dcb: start from the iproute2 man-page outputs ----
d=$fixtures/host/dcb_manpage_examples.txt
grep '^prio-pfc ' "$d" >"$QG_STATE/dcb_pfc"
grep '^dscp-prio 0:0 24' "$d" >"$QG_STATE/dcb_app"
grep '^order: ' "$d" >"$QG_STATE/dcb_apptrust"
rm -f "$QG_STATE/calls"
run pf-dcb
for line in "[changed] trust: port pcp ethtype -> dscp" "[changed] dscp_prio: set 26:3" \
	"[changed] pfc: prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:on 7:on -> 0,0,0,1,0,0,0,0"; do
	has "$tmp/log" "$line"
	check "dcb-report '$line'" $? "$(cat "$tmp/log")"
done
rm -f "$QG_STATE/calls"
run pf-dcb
has "$tmp/log" "[ok] trust: dscp" && has "$tmp/log" "[ok] dscp_prio: 26:3 48:6" &&
	has "$tmp/log" "[ok] pfc: 0,0,0,1,0,0,0,0" && ! grep -q '^dcb' "$QG_STATE/calls" 2>/dev/null
check dcb-second-run-ok $? "$(cat "$tmp/log" "$QG_STATE/calls" 2>/dev/null)"

# ---- the reference switch configuration, straight from the seed document ----
seed=$here/../../../shared/seeds/000_d0a5270bf41eb4a2.txt
if [ -f "$seed" ]; then
	"$Q" build "$here/../../examples/rdg-vsphere.yaml" -o "$tmp/rdg" >/dev/null
	grep -E '^(traffic pool|interface ethernet)' "$seed" >"$tmp/seed.lines"
	grep -v -e '^#' -e '^$' -e ' mtu ' "$tmp/rdg/onyx/swx-mld-1-2.cli" >"$tmp/gen.lines"
	cmp -s "$tmp/seed.lines" "$tmp/gen.lines" && [ "$(wc -l <"$tmp/seed.lines")" -eq 6 ] &&
		grep -qxF 'interface ethernet 1/1-1/32 mtu 9216 force' "$tmp/rdg/onyx/swx-mld-1-2.cli"
	check onyx-seed-six-lines-plus-mtu $? "$(diff "$tmp/seed.lines" "$tmp/gen.lines")"
else
	check onyx-seed 1 "seed not found at $seed"
fi

# ---- the output directory: build --check and -o against hostile trees (issue 18) ----
"$Q" build "$here/intent.yaml" -o "$tmp/co" >/dev/null
echo "SECRET-$$" >"$tmp/secret"
rm "$tmp/co/host/esx.sh" && ln -s "$tmp/secret" "$tmp/co/host/esx.sh"
"$Q" build "$here/intent.yaml" --check -o "$tmp/co" >"$tmp/log" 2>&1
st=$?
[ $st -eq 3 ] && ! grep -q "SECRET-$$" "$tmp/log" && grep -q "co/host/esx.sh' is a symbolic link" "$tmp/log"
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
