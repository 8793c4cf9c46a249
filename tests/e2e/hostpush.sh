#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen push to hosts end to end: the real binary and a real sshd on
# 127.0.0.1 whose ForceCommand runs the pushed script against fake device
# tools (tests/scripts/fake) seeded from real captures. Usage: hostpush.sh BUILD
set -u
BUILD=$1
Q=$(cd "$BUILD" && pwd)/qosgen
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/e2e/lib.sh
. "$here/lib.sh"
fake=$(cd "$here/../scripts/fake" && pwd)
fixtures=$here/../fixtures
dir=$(mktemp -d)
state="$dir/state"
cleanup() {
	sh "$here/sshd.sh" stop "$dir/sshd"
	[ ! -d "$dir/nics-sshd" ] || sh "$here/sshd.sh" stop "$dir/nics-sshd"
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
mkdir -p "$state"
# The real qosgen is on the sessions' PATH too, for verify's probe.
mkdir -p "$dir/bin"
ln -s "$Q" "$dir/bin/qosgen"
sshd_start "$dir/sshd" "sh $here/fakehost.sh $state $dir/bin:$fake"
user=${USER:-$(id -un)}
cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: e2e-hosts
$E2E_QOS
hosts:
  - {name: esx, platform: esxi, address: 127.0.0.1, port: $port, user: $user, uplink: vmnic2, pvrdma_vmknic: vmk3}
  - {name: gpu1, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest0}
  - {name: gpu2, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest1}
verify:
  pairs:
    - {client: gpu1, server: gpu2, min_gbps: 90}
  duration_s: 1
YAML
echo "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8'" >"$state/module.nmlx5_core"
echo "nmlx5_rdma enabled = 1 options = ''" >"$state/module.nmlx5_rdma"
echo "" >"$state/pvrdma_vmknic"
echo false >"$state/fw_pvrdma"
echo 1500 >"$state/vmk3_mtu"
grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$state/mlnx_qos"
opts="--known-hosts $dir/known_hosts --accept-new --identity $dir/sshd/client_key --ssh-config /dev/null"
push() {
	# shellcheck disable=SC2086
	"$Q" push "$dir/intent.yaml" $opts "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}

push --host esx --dry-run
[ $st -eq 0 ] && grep -q "^esx: 7 settings would change (dry run: nothing changed)" "$dir/err" &&
	[ ! -s "$state/calls" ] && grep -q "^\[differs\] nmlx5_core.pfcrx: unset -> 0x08" "$dir/out"
check esxi-dry-run $? "exit $st: $(cat "$dir/err" "$dir/out")"

push --host esx
[ $st -eq 0 ] && grep -q "^esx: 7 of 9 settings changed, all set; module options changed: reboot" "$dir/err" &&
	grep -qxF "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8 pfcrx=0x08 trust_state=2 ecn=1'" "$state/module.nmlx5_core"
check esxi-push-merges-and-converges $? "exit $st: $(cat "$dir/err") $(cat "$state/module.nmlx5_core")"

rm -f "$state/calls"
push --host esx
[ $st -eq 0 ] && grep -q "^esx: in sync, all 9 settings already right" "$dir/err" && [ ! -s "$state/calls" ]
check esxi-re-push-changes-nothing $? "exit $st: $(cat "$dir/err")"

# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host esx $opts --exit-code >"$dir/d" 2>&1
check esxi-diff-over-ssh-in-sync $? "$(cat "$dir/d")"
echo "nmlx5_rdma enabled = 1 options = 'dscp_force=24'" >"$state/module.nmlx5_rdma"
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host esx $opts --exit-code >"$dir/d" 2>&1
st=$?
[ $st -eq 1 ] && [ "$(cat "$dir/d")" = "[differs] nmlx5_rdma.dscp_force: 24 -> 26" ]
check esxi-diff-over-ssh-finds-drift $? "exit $st: $(cat "$dir/d")"

# The loopback has none of the RDMA knobs: set what exists, name what is missing, fail loudly.
push --host gpu1
[ $st -eq 3 ] && grep -q "^gpu1: .* settings set (.* changed); missing on this host: roce_tos, ecn.roce_np.enable.3" "$dir/err" &&
	grep -q "PARTIAL" "$dir/err" && grep -q "mlnx_qos -i lo --trust dscp" "$state/calls"
check linux-missing-knobs-partial $? "exit $st: $(cat "$dir/err")"

# Persistence (issue 16): the push installed the script, the unit and the rule
# (under the session's QG_ROOT, fakehost.sh), byte for byte as build writes them:
# the script as its three parts (issue 15: the lib, the host's line of the
# hosts' table, its group's file), the unit and the rule of its netdev and
# RDMA device.
"$Q" build "$dir/intent.yaml" -o "$dir/built" >/dev/null 2>&1
r=$state/root
(cd "$dir/built" && cat host/lib/linux.sh && grep "^qg_host='gpu1' " host/hosts/linux.sh &&
	cat host/groups/linux-pf-mlnx_qos.sh) >"$dir/gpu1.script"
grep -q "^qg_host='gpu1' qg_group='linux-pf-mlnx_qos' " "$dir/built/host/hosts/linux.sh" &&
	cmp -s "$dir/gpu1.script" "$r/usr/local/lib/qosgen/roce-qos-lo.sh" &&
	cmp -s "$dir/built/host/persist/lo/qgtest0.service" "$r/etc/systemd/system/qosgen-roce-qos-lo@.service" &&
	cmp -s "$dir/built/host/persist/lo/qgtest0.rules" "$r/etc/udev/rules.d/90-qosgen-roce-qos-lo.rules" &&
	[ "$(stat -c %a "$r/usr/local/lib/qosgen/roce-qos-lo.sh")" = 755 ] &&
	grep -q "^gpu1: .*(.* changed); missing on this host" "$dir/err"
check linux-persist-installed $? "exit $st: $(cat "$dir/err"; ls -lR "$r")"
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host gpu1 $opts >"$dir/d" 2>&1
! grep -q persist "$dir/d"
check linux-persist-current-no-diff $? "$(cat "$dir/d")"
echo '# edited on the host' >>"$r/usr/local/lib/qosgen/roce-qos-lo.sh"
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host gpu1 $opts >"$dir/d" 2>&1
grep -q '^\[differs\] persist: stale (roce-qos-lo.sh; installed sha256 [0-9a-f]\{12\}) -> sha256 [0-9a-f]\{12\}$' "$dir/d" &&
	grep -q '# edited on the host' "$r/usr/local/lib/qosgen/roce-qos-lo.sh"
check linux-persist-stale-in-diff $? "$(cat "$dir/d")"
echo 'keep me' >"$r/etc/udev/rules.d/70-local.rules"
push --host gpu1 --uninstall
[ $st -eq 0 ] && grep -q "^gpu1: 1 of 1 settings changed, all set" "$dir/err" &&
	[ ! -e "$r/usr/local/lib/qosgen" ] && [ ! -e "$r/etc/systemd/system/qosgen-roce-qos-lo@.service" ] &&
	[ ! -e "$r/etc/udev/rules.d/90-qosgen-roce-qos-lo.rules" ] && [ -f "$r/etc/udev/rules.d/70-local.rules" ]
check linux-persist-uninstall-exactly $? "exit $st: $(cat "$dir/err"; ls -lR "$r")"
rm -f "$state/calls"
push --host gpu1 --uninstall
[ $st -eq 0 ] && grep -q "^gpu1: in sync" "$dir/err" && [ ! -s "$state/calls" ]
check linux-persist-uninstall-again-nothing $? "exit $st: $(cat "$dir/err")"
push --switch x --uninstall
[ $st -eq 2 ]
check linux-persist-uninstall-hosts-only $? "exit $st: $(cat "$dir/err")"
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host gpu1 $opts >"$dir/d" 2>&1
grep -q '^\[differs\] persist: missing -> sha256 ' "$dir/d"
check linux-persist-missing-in-diff $? "$(cat "$dir/d")"

# --all: the esx drift above is repaired, gpu1 stays partial; results as JSON.
push --all --json
[ $st -eq 3 ] && grep -q '"device":	"esx"' "$dir/out" && grep -q '"status":	"converged"' "$dir/out" &&
	grep -q '"status":	"PARTIAL"' "$dir/out"
check all-json $? "exit $st: $(cat "$dir/out" "$dir/err")"

# A host missing a knob still shows what would change on the others (issue 17):
# diff prints the [differs] line, the dry run says "would change", and --json
# carries the line; the missing knob is reported on stderr, exit 3.
printf '[ok] mtu: 9000\n[differs] trust: pcp -> dscp\n[missing] roce_tos: no configfs\n' >"$state/hostile.out"
# shellcheck disable=SC2086
"$Q" diff "$dir/intent.yaml" --host gpu1 $opts --exit-code >"$dir/d" 2>"$dir/derr"
st=$?
[ $st -eq 3 ] && [ "$(cat "$dir/d")" = "[differs] trust: pcp -> dscp" ] &&
	grep -q "missing on this host: roce_tos" "$dir/derr"
check diff-shows-differences-beside-missing-knobs $? "exit $st: $(cat "$dir/d" "$dir/derr")"
push --host gpu1 --dry-run
grep -q "^gpu1: 1 of 3 settings set (1 would change); missing on this host: roce_tos" "$dir/err"
check dry-run-partial-says-would-change $? "$(cat "$dir/err")"
push --host gpu1 --dry-run --json
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["devices"][0]
assert r["lines"] == ["[differs] trust: pcp -> dscp"], r
' "$dir/out"
check dry-run-json-carries-lines $? "$(cat "$dir/out")"
rm -f "$state/hostile.out"

# ---- issue 18: hostile devices and a racing push ----
# Device text reaches the terminal escaped: a report line that sets the
# terminal's title and erases a line, a C1 CSI, a newline that would forge a
# second line. Text output shows them as \x1b, \u009b; --json carries the exact
# text, every control escaped as \u00NN (cJSON leaves DEL and C1 raw).
raw_controls() { # FILE...: true when any holds ESC, BEL, CR, DEL or a C1 control
	LC_ALL=C grep -q "$(printf '[\033\007\r\177]')" "$@" || LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$@"
}
printf '[changed] mtu: 1500 -> 9000\n[missing] roce_tos\033]0;PWNED\007\033[2K\302\233: gone\n[differs] trust\302\233: 2J\r\033[1A\n' >"$state/hostile.out"
push --host gpu1
[ $st -eq 3 ] && ! raw_controls "$dir/out" "$dir/err" &&
	grep -qF 'missing on this host: roce_tos\x1b]0;PWNED\x07\x1b[2K\u009b' "$dir/err"
check hostile-report-escaped $? "exit $st: $(od -c "$dir/err" | head -20)"
push --host gpu1 --json
[ $st -eq 3 ] && ! raw_controls "$dir/out" "$dir/err" && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["devices"][0]
assert "roce_tos\x1b]0;PWNED\x07\x1b[2K\x9b" in r["message"], r
' "$dir/out"
check hostile-report-json-escaped $? "exit $st: $(od -c "$dir/out" | head -20)"
push --host gpu1 --dry-run
[ $st -eq 3 ] && ! raw_controls "$dir/out" "$dir/err" && grep -qxF '[differs] trust\u009b: 2J\x0d\x1b[1A' "$dir/out"
check hostile-dry-run-lines-escaped $? "exit $st: $(od -c "$dir/out" | head -20)"
rm -f "$state/hostile.out"
printf '\033[2J\033]0;PWNED\007boom\n' >"$state/hostile.err"
echo 9 >"$state/hostile.rc"
push --host gpu1
[ $st -eq 3 ] && ! raw_controls "$dir/err" &&
	grep -qF 'the script exited 9 without a report: \x1b[2J\x1b]0;PWNED\x07boom' "$dir/err"
check hostile-stderr-escaped $? "exit $st: $(od -c "$dir/err" | head -20)"
rm -f "$state/hostile.err" "$state/hostile.rc"
# A switch whose every answer is an error line with escape sequences.
printf '%% \033]0;PWNED\007\033[2K\302\233denied\r\n' >"$state/hostile.switch"
cat >"$dir/sw.yaml" <<YAML
version: 1
fabric: e2e-hostile
$E2E_QOS
switches:
  - {name: hostile, platform: onyx, address: 127.0.0.1, port: $port, user: $user, ports: [1/1]}
YAML
# shellcheck disable=SC2086
"$Q" push "$dir/sw.yaml" --switch hostile $opts >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 3 ] && ! raw_controls "$dir/out" "$dir/err" && grep -qF '% \x1b]0;PWNED\x07\x1b[2K\u009bdenied' "$dir/err"
check hostile-switch-error-escaped $? "exit $st: $(od -c "$dir/err" | head -20)"
rm -f "$state/hostile.switch"

# 40 hosts, templates with a malformed placeholder, 16 workers: the workers
# shared one diagnostics list and corrupted it (a double free, a use after
# free, a heap overflow under ASan). The scripts are generated once before
# any thread starts: each error is reported once, nothing is pushed.
mkdir -p "$dir/tpl"
sed 's/{{fabric}}/{{ fabric }}/' "$here/../../templates/esxi-hosts.sh.in" >"$dir/tpl/esxi-hosts.sh.in"
sed 's/{{fabric}}/{{fabric}/' "$here/../../templates/linux-hosts.sh.in" >"$dir/tpl/linux-hosts.sh.in"
{
	printf 'version: 1\nfabric: e2e-race\n%s\nhosts:\n' "$E2E_QOS"
	for i in $(seq 1 20); do
		echo "  - {name: esx$i, platform: esxi, address: 127.0.0.1, port: $port, user: $user, uplink: vmnic2}"
		echo "  - {name: lin$i, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest0}"
	done
} >"$dir/many.yaml"
rm -f "$state/calls"
for run in 1 2 3; do
	# shellcheck disable=SC2086
	"$Q" push "$dir/many.yaml" --all -j 16 --templates "$dir/tpl" $opts >"$dir/out" 2>"$dir/err"
	st=$?
	[ $st -eq 3 ] && [ "$(grep -c 'tpl/esxi-hosts.sh.in:1:.*malformed placeholder' "$dir/err")" -eq 1 ] &&
		[ "$(grep -c 'tpl/linux-hosts.sh.in:1:.*malformed placeholder' "$dir/err")" -eq 1 ] &&
		grep -q 'nothing was pushed' "$dir/err" && ! grep -q Sanitizer "$dir/err" && [ ! -s "$state/calls" ]
	check "templates-checked-before-threads-$run" $? "exit $st: $(head -c 3000 "$dir/err")"
done

# ---- issue 25, items 2 and 11: why a setting failed; no redraws into a file ----
# A Linux host without its netdev and an ESXi host without its uplink: each
# script says why ("[failed] netdev: no network device ..."), and the push
# said only "1 setting failed (netdev)". The reason reaches the text (push
# and diff) and --json's failed_settings.
cat >"$dir/fail.yaml" <<YAML
version: 1
fabric: e2e-fail
$E2E_QOS
hosts:
  - {name: nodev, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: qgnodev0, rdma_device: qgtest0, persist: false}
  - {name: esxnoup, platform: esxi, address: 127.0.0.1, port: $port, user: $user, uplink: vmnic9}
  - {name: lin1, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest0, persist: false}
  - {name: lin2, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest0, persist: false}
  - {name: lin3, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgtest0, persist: false}
  - {name: esx2, platform: esxi, address: 127.0.0.1, port: $port, user: $user, uplink: vmnic2}
YAML
fpush() { # ARGS...: push of fail.yaml; $dir/out, $dir/err, $st
	# shellcheck disable=SC2086
	"$Q" push "$dir/fail.yaml" $opts "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}
fpush --host nodev
[ $st -eq 3 ] && grep -qxF "nodev: 1 setting failed: netdev: no network device qgnodev0 on this host; 0 changed" "$dir/err"
check failed-reason-in-push-text $? "exit $st: $(cat "$dir/err")"
fpush --host esxnoup
[ $st -eq 3 ] && grep -qxF "esxnoup: 1 setting failed: uplink: no uplink vmnic9 on this host; 0 changed" "$dir/err"
check failed-reason-esxi $? "exit $st: $(cat "$dir/err")"
# shellcheck disable=SC2086
"$Q" diff "$dir/fail.yaml" --host nodev $opts >"$dir/d" 2>"$dir/derr"
st=$?
[ $st -eq 3 ] && grep -qxF "qosgen diff: nodev: 1 setting failed: netdev: no network device qgnodev0 on this host; 0 changed" "$dir/derr"
check failed-reason-in-diff $? "exit $st: $(cat "$dir/d" "$dir/derr")"
fpush --host nodev --json
[ $st -eq 3 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
assert d["status"] == "FAILED", d
assert d["failed_settings"] == [{"key": "netdev", "reason": "no network device qgnodev0 on this host"}], d
' "$dir/out" && /usr/bin/python3 "$here/../cli/json_shape.py" "$here/../../docs/json.schema.json" push "$dir/out" $st ran
check failed-reason-in-json $? "exit $st: $(cat "$dir/out" "$dir/err")"
# A hostile reason: escaped on the terminal, exact in JSON (JSON-escaped), cut at 160 bytes.
long=$(printf '%0200d' 0)
printf '[failed] mtu: \033]0;PWNED\007\302\233gone %s\n[failed] trust: x\r\033[1A\n' "$long" >"$state/hostile.out"
echo 1 >"$state/hostile.rc"
fpush --host nodev
[ $st -eq 3 ] && ! raw_controls "$dir/out" "$dir/err" &&
	grep -qF "nodev: 2 settings failed: mtu: \x1b]0;PWNED\x07\u009bgone 000" "$dir/err" &&
	grep -qF "...; trust: x\x0d\x1b[1A; 0 changed" "$dir/err"
check failed-reason-hostile-escaped $? "exit $st: $(od -c "$dir/err" | head -20)"
fpush --host nodev --json
[ $st -eq 3 ] && ! raw_controls "$dir/out" && python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["devices"][0]["failed_settings"]
r = "\x1b]0;PWNED\x07\x9bgone " + "0" * 200
assert [x["key"] for x in f] == ["mtu", "trust"], f
assert f[0]["reason"] == r.encode()[:160].decode() + "...", f[0]
assert f[1]["reason"] == "x\r\x1b[1A", f[1]
' "$dir/out"
check failed-reason-hostile-json $? "exit $st: $(od -c "$dir/out" | head -20)"
rm -f "$state/hostile.out" "$state/hostile.rc"
# Item 11: push --all of a fleet into files drew a progress line of thousands
# of spaces; output to a file is plain lines: no carriage return, no run of spaces.
fpush --all -j 3
[ $st -eq 3 ] && [ "$(grep -c '^\(nodev\|esxnoup\|lin[123]\|esx2\): ' "$dir/err")" -eq 6 ] &&
	! LC_ALL=C grep -q "$(printf '\r')" "$dir/out" "$dir/err" &&
	! grep -q '                                        ' "$dir/out" "$dir/err"
check push-all-to-file-no-redraw $? "exit $st: $(od -c "$dir/err" | head -20)"

# ---- issue 28: a host of two NICs, one push configures both ----
# A simulated Linux host (tests/sim/host_sim.sh: the fake tools, and a sysfs of
# its own bound over /sys for each session) with two ConnectX PFs as they come
# up. One push converges both, a second is in sync; the one script and each
# NIC's unit and rule are installed as build writes them; a NIC gone is
# missing alone, the push PARTIAL; --uninstall removes every NIC's files.
nics=$dir/nics
sh "$here/../sim/host_sim.sh" init linux "$nics" ens1f0np0 mlx5_0
sh "$here/../sim/host_sim.sh" init linux "$nics" ens2f0np0 mlx5_1
if ! why=$(sh "$here/../sim/host_sim.sh" check "$nics" 2>&1); then
	check nics-simulated-host 1 "the simulated Linux host cannot run here: $why"
else
	mainport=$port
	sshd_start "$dir/nics-sshd" "sh $here/../sim/host_sim.sh serve $nics"
	nport=$port
	port=$mainport
	cat "$dir/sshd/client_key.pub" >>"$dir/nics-sshd/authorized_keys"
	cat >"$dir/nics.yaml" <<YAML
version: 1
fabric: e2e-nics
$E2E_QOS
hosts:
  - {name: rails, platform: linux, address: 127.0.0.1, port: $nport, user: $user, nics: [{netdev: "ens[1-2]f0np0", rdma_device: "mlx5_[0-1]"}]}
YAML
	npush() { # ARGS...: push of nics.yaml; $dir/out, $dir/err, $st
		# shellcheck disable=SC2086
		"$Q" push "$dir/nics.yaml" $opts "$@" >"$dir/out" 2>"$dir/err"
		st=$?
	}
	sysv() { cat "$nics/sys/$1"; }
	npush --host rails --dry-run
	[ $st -eq 0 ] && grep -q "^rails: [0-9]* settings would change (dry run: nothing changed)" "$dir/err" &&
		grep -qxF "[differs] nics[0].mtu (ens1f0np0): 1500 -> 9000" "$dir/out" &&
		grep -qxF "[differs] nics[1].mtu (ens2f0np0): 1500 -> 9000" "$dir/out" &&
		grep -qxF "[differs] nics[1].roce_tos (ens2f0np0): 0 -> 106" "$dir/out" &&
		[ "$(sysv class/net/ens2f0np0/mtu)" = 1500 ]
	check nics-dry-run-names-both $? "exit $st: $(cat "$dir/err" "$dir/out")"
	npush --host rails
	[ $st -eq 0 ] && grep -q "^rails: [0-9]* of [0-9]* settings changed, all set" "$dir/err" &&
		(for n in ens1f0np0 ens2f0np0; do
			[ "$(sysv "class/net/$n/mtu")" = 9000 ] && [ "$(sysv "class/net/$n/ecn/roce_np/enable/3")" = 1 ] &&
				[ "$(sysv "class/net/$n/ecn/roce_np/cnp_dscp")" = 48 ] || exit 1
		done) &&
		[ "$(sysv kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos)" = 106 ] &&
		[ "$(sysv kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos)" = 106 ]
	check nics-push-converges-both $? "exit $st: $(cat "$dir/err")"
	npush --host rails
	[ $st -eq 0 ] && grep -q "^rails: in sync, all [0-9]* settings already right" "$dir/err"
	check nics-second-push-in-sync $? "exit $st: $(cat "$dir/err")"
	# shellcheck disable=SC2086
	"$Q" diff "$dir/nics.yaml" --host rails $opts --exit-code >"$dir/d" 2>&1
	check nics-diff-in-sync $? "$(cat "$dir/d")"
	# One script for the host; a unit and a rule per NIC, each running it for its NIC.
	"$Q" build "$dir/nics.yaml" -o "$dir/nbuilt" >/dev/null 2>&1
	r=$nics/root
	(cd "$dir/nbuilt" && cat host/lib/linux.sh && grep "^qg_host='rails' " host/hosts/linux.sh &&
		cat host/groups/linux-pf-mlnx_qos-x2.sh) >"$dir/rails.script"
	ok=0
	cmp -s "$dir/rails.script" "$r/usr/local/lib/qosgen/roce-qos.sh" &&
		[ "$(stat -c %a "$r/usr/local/lib/qosgen/roce-qos.sh")" = 755 ] || ok=1
	for nic in ens1f0np0/mlx5_0 ens2f0np0/mlx5_1; do
		n=${nic%/*}
		cmp -s "$dir/nbuilt/host/persist-nics/$nic.service" "$r/etc/systemd/system/qosgen-roce-qos-$n@.service" &&
			cmp -s "$dir/nbuilt/host/persist-nics/$nic.rules" "$r/etc/udev/rules.d/90-qosgen-roce-qos-$n.rules" &&
			grep -qxF "ExecStart=/usr/local/lib/qosgen/roce-qos.sh $n" "$r/etc/systemd/system/qosgen-roce-qos-$n@.service" || ok=1
	done
	check nics-persist-installed-per-nic $ok "$(ls -lR "$r")"
	npush --host rails --json
	[ $st -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
assert d["nics"] == [{"nic": 0, "netdev": "ens1f0np0", "rdma_device": "mlx5_0"},
                     {"nic": 1, "netdev": "ens2f0np0", "rdma_device": "mlx5_1"}], d
' "$dir/out" && /usr/bin/python3 "$here/../cli/json_shape.py" "$here/../../docs/json.schema.json" push "$dir/out" $st ran
	check nics-json-lists-nics $? "exit $st: $(cat "$dir/out" "$dir/err")"
	# NIC 1 gone (its driver unloaded): missing alone, NIC 0 still set.
	mv "$nics/sys/class/net/ens2f0np0" "$nics/gone"
	echo 1500 >"$nics/sys/class/net/ens1f0np0/mtu"
	npush --host rails
	[ $st -eq 3 ] && grep -q "^rails: .*missing on this host: nics\[1\].netdev (ens2f0np0)" "$dir/err" &&
		grep -q "PARTIAL" "$dir/err" && [ "$(sysv class/net/ens1f0np0/mtu)" = 9000 ]
	check nics-one-gone-missing-alone $? "exit $st: $(cat "$dir/err")"
	mv "$nics/gone" "$nics/sys/class/net/ens2f0np0"
	npush --host rails --uninstall
	[ $st -eq 0 ] && [ ! -e "$r/usr/local/lib/qosgen" ] &&
		[ -z "$(find "$r/etc" -name '*qosgen*' 2>/dev/null)" ]
	check nics-uninstall-every-nic $? "exit $st: $(cat "$dir/err"; ls -lR "$r")"
fi

# verify over real SSH: the facts are read on the host (lo: MTU 65536,
# 127.0.0.1), and a host without the RDMA device fails loudly, naming the
# verb call, on both sides; exit 3 (the test could not run).
# shellcheck disable=SC2086
"$Q" verify "$dir/intent.yaml" $opts >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 3 ] && grep -q "^== gpu1 -> gpu2: no result to no result, 65536 B x 171662, traffic class 106, to 127.0.0.1" "$dir/out" &&
	grep -q "the server on gpu2 exited 3: qosgen probe: ibv_open_device: no RDMA device 'qgtest1'" "$dir/out" &&
	grep -q "^\[FATAL\] Check bandwidth: no result: the traffic test did not run" "$dir/out" &&
	grep -q "^\[MARGINAL\] Check RoCE marking on gpu1: rdma_cm's default ToS could not be read" "$dir/out"
check verify-no-rdma-device $? "exit $st: $(cat "$dir/out" "$dir/err")"
# shellcheck disable=SC2086
"$Q" verify "$dir/intent.yaml" $opts --pair gpu2:gpu1 >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 2 ] && grep -q "no pair 'gpu2:gpu1' in the intent's verify.pairs" "$dir/err"
check verify-unknown-pair $? "exit $st: $(cat "$dir/err")"
# shellcheck disable=SC2086
"$Q" verify "$dir/intent.yaml" $opts --json >"$dir/out" 2>"$dir/err"
st=$?
[ $st -eq 3 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["pairs"][0]
assert r["client"] == "gpu1" and r["server"] == "gpu2", r
assert r["hosts"][0]["netdev_mtu"] == 65536 and r["hosts"][0]["roce_tos"] == -1, r
assert r["summary"]["fatal"] >= 1 and r["checks"][0]["check"] == "bandwidth", r
' "$dir/out"
check verify-json $? "exit $st: $(cat "$dir/out" "$dir/err")"

echo "$pass host push checks passed, $fail failed"
[ "$fail" -eq 0 ]
