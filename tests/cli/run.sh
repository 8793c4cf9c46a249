#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line as users call it: `qosgen diff` against real running-configs,
# exit codes, help and version. Usage: run.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/tests/fixtures
tmp=$(mktemp -d)
# lib.sh's NVUE simulator helpers (nv_cert, nv_start, nv_stop) keep their files in $dir.
dir=$tmp
# shellcheck source=tests/e2e/lib.sh
. "$top/tests/e2e/lib.sh"
trap 'nv_stop; rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
cd "$top" || exit 3
rdg=examples/rdg-vsphere.yaml
# The example's switch has no cable length, which Onyx has no default for:
# headroom-unproven (issue 34). The checks that want nothing on stderr take it
# acknowledged.
rdg_ack=$tmp/rdg-vsphere.yaml
cat "$rdg" - >"$rdg_ack" <<'YAML'
acknowledge:
  - {warning: headroom-unproven, because: "the guide gives no cable length"}
YAML

# The RDG's own switch, as its show running-config prints it: only the MTU
# differs, and the ETS of the classes the RDG leaves at Onyx's default: the
# intent gives the lossless class no ets, which is NVIDIA's RoCE default on
# every switch OS (issue 34), WRR 50, the other classes sharing the rest.
sed -n '/^## Running database/,/^cli default prefix-modes enable/p' \
	"$fixtures/onyx/rdg_vsphere_running_config.txt" >"$tmp/seed.rc"
[ -s "$tmp/seed.rc" ]
check seed-extracted $? "no running-config found in $fixtures/onyx/rdg_vsphere_running_config.txt"
"$Q" diff "$rdg_ack" --switch swx-mld-1-2 --running-config "$tmp/seed.rc" --exit-code >"$tmp/out" 2>"$tmp/err"
st=$?
{
	echo "interface ethernet 1/1-1/32 mtu 9216 force"
	for tw in 0:9 1:9 2:8 3:50 4:8 5:8 7:8; do
		echo "interface ethernet 1/1-1/32 traffic-class ${tw%:*} dcb ets wrr ${tw#*:}"
	done
} >"$tmp/seed.want"
[ $st -eq 1 ] && cmp -s "$tmp/out" "$tmp/seed.want" && [ ! -s "$tmp/err" ]
check diff-seed-needs-mtu-and-ets-only $? "exit $st: $(diff "$tmp/seed.want" "$tmp/out"; cat "$tmp/err")"

"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/seed.rc" >/dev/null 2>&1
check diff-without-exit-code-is-0 $? "exit $?"

# Apply what diff printed: then nothing is left, and --exit-code says 0.
cat "$tmp/seed.rc" "$tmp/out" >"$tmp/applied.rc"
"$Q" diff "$rdg_ack" --switch swx-mld-1-2 --running-config "$tmp/applied.rc" --exit-code >"$tmp/out2" 2>&1
st=$?
[ $st -eq 0 ] && [ ! -s "$tmp/out2" ]
check diff-converged-prints-nothing $? "exit $st: $(cat "$tmp/out2")"

# A switch with none of it (a real running-config from another fabric): all
# fourteen lines (the seven of the RDG and the seven ETS weights above), and
# a warning that its hostname is another switch's.
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$fixtures/onyx/onyx_config_config.cfg" >"$tmp/out3" 2>"$tmp/err3"
[ "$(wc -l <"$tmp/out3")" -eq 14 ] && grep -qxF "interface ethernet 1/1-1/32 qos trust L3" "$tmp/out3" &&
	grep -q "warning: the read-back's hostname is 'ufm-switch16', not switch 'swx-mld-1-2'" "$tmp/err3"
check diff-empty-switch-gets-everything $? "$(cat "$tmp/out3" "$tmp/err3")"

"$Q" diff "$rdg" --switch nope --running-config "$tmp/seed.rc" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "no switch named 'nope'" "$tmp/err"
check diff-unknown-switch-exit-2 $? "exit $st: $(cat "$tmp/err")"
# Usage errors are found before anything is contacted (the examples' hosts are not ours).
"$Q" diff "$rdg" --host vm-horovod-1 --running-config "$tmp/seed.rc" >/dev/null 2>&1
check diff-running-config-needs-switch-exit-2 "$([ $? -eq 2 ]; echo $?)" "expected exit 2"
"$Q" diff "$rdg" --host nope >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "no host named 'nope'" "$tmp/err"
check diff-unknown-host-exit-2 $? "exit $st: $(cat "$tmp/err")"
"$Q" diff "$rdg" >/dev/null 2>&1
check diff-needs-a-device-exit-2 "$([ $? -eq 2 ]; echo $?)" "expected exit 2"
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/none" >/dev/null 2>&1
check diff-unreadable-exit-3 "$([ $? -eq 3 ]; echo $?)" "expected exit 3"

"$Q" --version | grep -qx 'qosgen [0-9.]*'
check version $? "$("$Q" --version)"
"$Q" help diff | grep -q -- '--running-config FILE'
check help-diff $? "no diff help"
"$Q" frob >/dev/null 2>&1
check unknown-command-exit-2 "$([ $? -eq 2 ]; echo $?)" "expected exit 2"
"$Q" chek examples/rdg-vsphere.yaml 2>&1 | grep -q "'chek' is not a qosgen command (did you mean 'check'?)"
check mistyped-command-suggested $? "$("$Q" chek 2>&1)"
[ "$("$Q" check examples/rdg-vsphere.yaml)" = "examples/rdg-vsphere.yaml: ok: 1 switch, 10 hosts, 0 dvs" ]
check check-says-ok $? "$("$Q" check examples/rdg-vsphere.yaml 2>&1)"

# Independent cross-check through the Onyx simulator (its own parser and
# printer): apply the generated file, read the simulator's running-config back,
# and qosgen must find nothing left to do; then a port changed behind its back.
sim=$(dirname "$Q")/tests/onyx-sim
if [ -x "$sim" ]; then
	for ex in rdg-vsphere:swx-mld-1-2 k8s-pvrdma:sn2700-a bitfusion-pvrdma:tor-1; do
		name=${ex%%:*}
		sw=${ex#*:}
		rm -rf "$tmp/sim" "$tmp/build"
		"$Q" build "examples/$name.yaml" -o "$tmp/build" >/dev/null
		{
			echo enable
			echo configure terminal
			grep -v -e '^#' -e '^$' "$tmp/build/onyx/$sw.cli"
			echo exit
			echo show running-config
		} | "$sim" --state "$tmp/sim" >"$tmp/sim.out"
		! grep -q '^%' "$tmp/sim.out"
		check "sim-accepts-$name" $? "$(grep '^%' "$tmp/sim.out")"
		sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' "$tmp/sim.out" >"$tmp/sim.rc"
		"$Q" diff "examples/$name.yaml" --switch "$sw" --running-config "$tmp/sim.rc" --exit-code >"$tmp/d" 2>&1
		check "sim-roundtrip-in-sync-$name" $? "$(cat "$tmp/d")"
	done
	printf 'enable\nconfigure terminal\nhostname tor-1\ninterface ethernet 1/5 qos trust L2\ninterface ethernet 1/9-1/10 mtu 1500 force\nexit\nshow running-config\n' |
		"$sim" --state "$tmp/sim" | sed -n 's/^.*\(## Running database\)/\1/; /^## Running database/,$p' >"$tmp/sim2.rc"
	"$Q" diff examples/bitfusion-pvrdma.yaml --switch tor-1 --running-config "$tmp/sim2.rc" >"$tmp/d2" 2>"$tmp/d2.err"
	# Nothing on stderr but the example's unproven headroom (no model: issue 34).
	printf 'interface ethernet 1/9-1/10 mtu 9216 force\ninterface ethernet 1/5 qos trust L3\n' | cmp -s - "$tmp/d2" &&
		! grep -v '\[headroom-unproven\]$' "$tmp/d2.err"
	check sim-drift-found-and-minimal $? "$(cat "$tmp/d2" "$tmp/d2.err")"
	# Every json-print the simulator offers has the shape of the real capture.
	fx=$fixtures/onyx
	rm -rf "$tmp/simj"
	printf 'enable\nconfigure terminal\ntraffic pool roce type lossless\ntraffic pool roce memory percent 50\ntraffic pool roce map switch-priority 3\ninterface ethernet 1/1 traffic-class 2 congestion-control red minimum-relative 9 maximum-relative 90\ninterface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 500 maximum-absolute 1550\n' |
		"$sim" --state "$tmp/simj" >/dev/null
	for pair in "onyx_buffer_pool.cfg:show traffic pool roce" \
		"show_qos_interface_ethernet.cfg:show qos interface ethernet 1/1" \
		"onyx_show_interface_congestion_control.cfg:show interfaces ethernet 1/1 congestion-control" \
		"onyx_show_dcb_ets_interface.cfg:show dcb ets interface ethernet 1/1" \
		"onyx_facts_show_version.cfg:show version"; do
		file=${pair%%:*}
		cmd=${pair#*:}
		printf 'enable\n%s | json-print\n' "$cmd" | "$sim" --state "$tmp/simj" |
			sed 's/^.*# //' | sed -n '/^[[{]/,/^[]}]$/p' >"$tmp/sim.json"
		if [ "$file" = onyx_facts_show_version.cfg ]; then
			# qosgen's sim prints the keys clients read; the capture has more.
			/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); k=['Product name','Product release','Version summary','Product model']; sys.exit(0 if all(x in d for x in k) else 1)" "$tmp/sim.json"
		else
			/usr/bin/python3 "$top/tests/sim/shape.py" "$fx/$file" "$tmp/sim.json" >"$tmp/shape" 2>&1
		fi
		check "sim-json-shape-$file" $? "$(cat "$tmp/shape" 2>/dev/null) $(head -c 300 "$tmp/sim.json")"
	done
else
	check onyx-sim 1 "$sim not built ('make test' builds it)"
fi

# ---- One JSON vocabulary (issue 17): every command's --json against
# docs/json.schema.json, for a run that got past the intent and for a refused
# intent (its diagnostics on stdout, the exit code kept). Devices on a closed
# local port: refused at once, nothing else contacted.
cat >"$tmp/j.yaml" <<'YAML'
version: 1
fabric: json-shape
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
switches:
  - {name: sw1, platform: onyx, address: 127.0.0.1, port: 1, user: admin, ports: "1/1-1/4"}
hosts:
  - {name: gpu1, platform: linux, address: 127.0.0.1, port: 1, user: root, netdev: eth0, rdma_device: mlx5_0}
  - {name: gpu2, platform: linux, address: 127.0.0.1, port: 1, user: root, netdev: eth0, rdma_device: mlx5_1}
verify:
  pairs:
    - {client: gpu1, server: gpu2, min_gbps: 10}
YAML
printf 'version: 1\nfabric: bad\nqos:\n  lossless: {priority: "3", dscp: [26], pool: {name: roce, memory_percent: 50}}\n' >"$tmp/bad.yaml"
json_case() { # NAME COMMAND MODE ARGS...: run qosgen COMMAND ARGS --json, check the shape
	name=$1 cmd=$2 mode=$3
	shift 3
	"$Q" "$cmd" "$@" --json >"$tmp/j.out" 2>"$tmp/j.err"
	st=$?
	/usr/bin/python3 "$top/tests/cli/json_shape.py" "$top/docs/json.schema.json" "$cmd" "$tmp/j.out" "$st" "$mode" >"$tmp/j.why" 2>&1
	check "json-$name" $? "exit $st: $(cat "$tmp/j.why") $(head -c 300 "$tmp/j.err")"
}
json_case explain explain ran "$tmp/j.yaml"
json_case explain-invalid explain invalid "$tmp/bad.yaml"
json_case push-unreachable push ran "$tmp/j.yaml" --all --timeout 2
json_case push-invalid push invalid "$tmp/bad.yaml" --all
json_case diff-saved diff ran "$rdg" --switch swx-mld-1-2 --running-config "$tmp/seed.rc"
json_case diff-unreachable diff ran "$tmp/j.yaml" --host gpu1 --timeout 2
json_case diff-invalid diff invalid "$tmp/bad.yaml" --all
json_case verify-unreachable verify ran "$tmp/j.yaml" --timeout 2
json_case verify-invalid verify invalid "$tmp/bad.yaml"
# What the shapes carry: numbers as numbers, one status vocabulary.
"$Q" explain "$rdg" --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
rows = {r["key"]: r["value"] for r in d["rows"]}
assert rows["qos.mtu"] == 9000 and rows["device.clx-mld-41.nmlx5_rdma.dscp_force"] == 26, rows
assert rows["derived.roce_tos"] == 106 and rows["switches.swx-mld-1-2.port_count"] == 32, rows
assert rows["device.swx-mld-1-2.ports"] == "1/1-1/32" and rows["derived.pfc_bitmap"] == "0x08", rows
' >"$tmp/j.why" 2>&1
check json-explain-numbers $? "$(cat "$tmp/j.why")"
# Issue 25: an Onyx fabric passes check --strict once it acknowledges the two
# warnings the onyx target gives on purpose; without them, it cannot. The
# intent names them as before issue 26, the names are now ignored-by-onyx-*.
ack=tests/golden/errors/acknowledge-strict/intent.yaml
"$Q" check --strict "$ack" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q ': ok: 2 switches' "$tmp/out"
check check-strict-acknowledged $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
sed '/^acknowledge:/,$d' "$ack" >"$tmp/unack.yaml"
"$Q" check --strict "$tmp/unack.yaml" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q 'own \[ignored-by-onyx-pfc-watchdog\] \[--strict\]$' "$tmp/err" &&
	grep -q 'own \[ignored-by-onyx-cable-length\] \[--strict\]$' "$tmp/err"
check check-strict-unacknowledged-fails $? "exit $st: $(cat "$tmp/err")"
# In --json, each warning's name is a field; an acknowledged one is not a
# diagnostic but a row of explain, with the intent's reason.
json_case explain-stale explain ran tests/golden/errors/acknowledge-stale/intent.yaml
"$Q" explain tests/golden/errors/acknowledge-stale/intent.yaml --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [(g["severity"], g["warning"]) for g in d["diagnostics"]] == [("warning", "stale-acknowledgement")], d["diagnostics"]
rows = {r["key"]: r for r in d["rows"]}
r = rows["acknowledge.ignored-by-onyx-pfc-watchdog"]
assert r["value"] == "acknowledged" and r["reason"].startswith("the Onyx spine keeps its own"), r
' >"$tmp/j.why" 2>&1
check json-warning-names $? "$(cat "$tmp/j.why")"
"$Q" explain "$ack" --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["diagnostics"] == [] and d["ok"], d["diagnostics"]
assert sum(r["key"].startswith("acknowledge.") for r in d["rows"]) == 2, d["rows"]
' >"$tmp/j.why" 2>&1
check json-acknowledged-not-diagnostics $? "$(cat "$tmp/j.why")"
# Issue 25: 64 alike hosts print as one block per group, each host once, on
# one line with its address (before: five to seven rows per host, no address).
# A Linux group has some 30 settings rows since issue 35 (DCQCN on all eight
# priorities, the jobs' files): under 400 lines, where 64 hosts printed per
# host would be thousands.
cat >"$tmp/h64.yaml" <<'YAML'
version: 1
fabric: h64
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
switches:
  - {name: leaf1, platform: cumulus, address: 10.0.0.1, ports: [swp1-32]}
hosts:
  - {name: "gpu-[01-32]", platform: linux, address: 10.1.0.11, netdev: ens1f0, rdma_device: mlx5_0}
  - {name: "vm-[01-16]", platform: linux, function: vf, address: 10.2.0.11, netdev: ens1f0, rdma_device: mlx5_0}
  - {name: "esx[01-16]", platform: esxi, address: "esx[01-16].lab.example.net", uplink: vmnic1}
YAML
"$Q" explain "$tmp/h64.yaml" >"$tmp/out" 2>"$tmp/err"
st=$?
lines=$(wc -l <"$tmp/out")
n=0
for h in gpu-07 vm-16 esx01; do
	[ "$(grep -c "$h" "$tmp/out")" -eq 1 ] && n=$((n + 1))
done
[ $st -eq 0 ] && [ $n -eq 3 ] && [ "$lines" -lt 400 ] &&
	grep -q '^gpu-07 10\.1\.0\.17$' "$tmp/out" && grep -q '^esx01 esx01\.lab\.example\.net$' "$tmp/out" &&
	[ "$(grep -c '^hosts of group ' "$tmp/out")" -eq 3 ]
check explain-groups-alike-hosts $? "exit $st, $lines lines, $n hosts once: $(head -c 600 "$tmp/err" "$tmp/out")"
"$Q" explain "$tmp/h64.yaml" --host gpu-07 >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && grep -q '^hosts\.gpu-07\.group  *linux-pf-mlnx_qos  *derived' "$tmp/out" &&
	grep -q '^hosts\.gpu-07\.address  *10\.1\.0\.17  *given  *where push and verify reach the host$' "$tmp/out" &&
	grep -q '^device\.gpu-07\.mtu  *9000 ' "$tmp/out" && ! grep -q 'gpu-08\|^qos\.' "$tmp/out"
check explain-host $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
"$Q" explain "$tmp/h64.yaml" --host gpu-7 >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^qosgen explain: no host named 'gpu-7' in the intent (did you mean 'gpu-07'?)$" "$tmp/err"
check explain-unknown-host-did-you-mean $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
"$Q" explain "$tmp/h64.yaml" --switch leaf1 >"$tmp/out" 2>&1
st=$?
# With the fabric's rows that decide the switch (issue 37): not the hosts' own.
[ $st -eq 0 ] && grep -q '^device\.leaf1\.' "$tmp/out" && grep -q '^qos\.lossless\.dscp ' "$tmp/out" &&
	grep -q '^derived\.pfc_vector ' "$tmp/out" && ! grep -q 'gpu-\|^qos\.mtu \|^derived\.host_dscp' "$tmp/out"
check explain-switch $? "exit $st: $(cat "$tmp/out")"
json_case explain-host explain ran "$tmp/h64.yaml" --host vm-03
"$Q" explain "$tmp/h64.yaml" --json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
groups = {g["name"]: g for g in d["groups"]}
assert sorted(groups) == ["esxi", "linux-pf-mlnx_qos", "linux-vf"], groups
assert groups["linux-vf"]["hosts"][:2] == ["vm-01", "vm-02"] and len(groups["linux-vf"]["hosts"]) == 16
assert d["summary"]["groups"] == 3, d["summary"]
rows = {r["key"]: r for r in d["rows"]}
for h in ("gpu-01", "vm-16", "esx09"):
    assert rows["hosts.%s.port" % h]["device"] == h, h
assert rows["hosts.esx09.address"]["value"] == "esx09.lab.example.net"
assert rows["device.gpu-32.mtu"]["value"] == 9000
' >"$tmp/j.why" 2>&1
check json-explain-groups $? "$(cat "$tmp/j.why")"
"$Q" diff "$rdg" --switch swx-mld-1-2 --running-config "$tmp/seed.rc" --exit-code --json >"$tmp/j.out" 2>/dev/null
st=$?
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
dev = d["devices"][0]
assert dev["status"] == "would change" and dev["lines"] == open(sys.argv[2]).read().splitlines(), dev
assert d["summary"] == {"devices": 1, "failed": 0, "statuses": {"would change": 1}}, d["summary"]
' "$tmp/j.out" "$tmp/seed.want" >"$tmp/j.why" 2>&1 && [ $st -eq 1 ]
check json-diff-saved-lines $? "exit $st: $(cat "$tmp/j.why")"
"$Q" push "$tmp/j.yaml" --all --timeout 2 --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [x["status"] for x in d["devices"]] == ["UNREACHABLE"] * 3 and not any(x["ok"] for x in d["devices"]), d
assert d["summary"]["statuses"] == {"UNREACHABLE": 3} and d["exit"] == 3, d["summary"]
' >"$tmp/j.why" 2>&1
check json-push-status $? "$(cat "$tmp/j.why")"
"$Q" push "$tmp/bad.yaml" --all --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
e = [x for x in d["diagnostics"] if x["severity"] == "error"][0]
assert (e["line"], e["col"]) == (4, 24) and "quoted string" in e["message"], e
assert e["file"].endswith("bad.yaml") and d["exit"] == 1 and d["ok"] is False, d
' >"$tmp/j.why" 2>&1
check json-invalid-intent-diagnostics $? "$(cat "$tmp/j.why")"

# The man page against --help and the parser (issue 17, item 6).
sh "$top/tests/cli/manpage.sh" "$Q" >"$tmp/man.out" 2>&1
check man-page-agrees-with-help $? "$(grep FAIL "$tmp/man.out" | head -20) $(tail -n 1 "$tmp/man.out")"

# ---- issue 25, item 1: every "..., or --OPTION" hint names an option that
# the commands which can print it take. diff said "no NVUE password: set
# QOSGEN_NVUE_PASSWORD, or --ask-password" and then refused --ask-password.
# One cause, one message (issue 37): one mistake of each kind in valid intents,
# exactly one error each, at the mistake's line (tests/cli/one_cause.py).
/usr/bin/python3 "$top/tests/cli/one_cause.py" "$Q" "$top" >"$tmp/one_cause" 2>&1
check one-cause $? "$(grep -v '^[0-9]' "$tmp/one_cause" | head -12)"

# explain's reasons against the build's plan.json (issue 37): tests/cli/explain_truth.py.
/usr/bin/python3 "$top/tests/cli/explain_truth.py" "$Q" "$top" >"$tmp/explain_truth" 2>&1
check explain-truth $? "$(grep -v '^[0-9]' "$tmp/explain_truth" | head -12)"

# The hints and the commands that can print them: tests/cli/hints.py.
/usr/bin/python3 "$top/tests/cli/hints.py" "$top" >"$tmp/hints"
[ "$(sort -u -k2 "$tmp/hints" | wc -l)" -ge 15 ] && grep -q "cumulus_push.c diff --ask-password" "$tmp/hints"
check hints-found $? "$(cat "$tmp/hints")"
while read -r file cmd opt; do
	"$Q" "$cmd" "$opt" </dev/null >/dev/null 2>"$tmp/err"
	! grep -q "unknown option" "$tmp/err" && "$Q" help "$cmd" | grep -q -- "$opt"
	check "hint-$cmd-takes-$opt" $? "$file names $opt to qosgen $cmd, which says: $(head -1 "$tmp/err")"
done <"$tmp/hints"
# The NVUE password through --ask-password, typed at a terminal (a pty), for
# diff as for push: the switch is read with it; without any, the hint; a
# wrong one is the switch's 401. Never echoed.
nv_cert cli
nv_start
cat >"$tmp/nv.yaml" <<YAML
version: 1
fabric: cli-nvue
$E2E_QOS
switches:
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: [swp1-4]}
YAML
nv() { # VERB [--type PASSWORD] ARGS...: qosgen VERB of nv.yaml's leaf1, no password in the
	# environment; --type: with --ask-password, PASSWORD typed at its prompt
	verb=$1
	shift
	if [ "${1:-}" = --type ]; then
		typed=$2
		shift 2
		env -u QOSGEN_NVUE_PASSWORD -u QOSGEN_SSH_PASSWORD /usr/bin/python3 "$top/tests/cli/pty_answer.py" "password: " "$typed" \
			"$Q" "$verb" "$tmp/nv.yaml" --switch leaf1 --ca-file "$tmp/cert.pem" --timeout 5 --ask-password "$@" >"$tmp/out" 2>"$tmp/err"
	else
		env -u QOSGEN_NVUE_PASSWORD -u QOSGEN_SSH_PASSWORD "$Q" "$verb" "$tmp/nv.yaml" --switch leaf1 --ca-file "$tmp/cert.pem" \
			--timeout 5 "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	fi
	st=$?
}
nv diff
[ $st -eq 3 ] && grep -qF "no NVUE password: set QOSGEN_NVUE_PASSWORD, or --ask-password" "$tmp/err"
check nvue-diff-no-password-hint $? "exit $st: $(cat "$tmp/err")"
nv diff --type e2e-pw --exit-code
[ $st -eq 1 ] && grep -qx 'nv set qos pfc default-global switch-priority 3' "$tmp/out" && ! grep -q e2e-pw "$tmp/out"
check nvue-diff-ask-password $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
nv diff --type wrong-pw
[ $st -eq 3 ] && grep -q "401" "$tmp/out"
check nvue-diff-ask-password-wrong $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
nv push --type e2e-pw --dry-run
[ $st -eq 0 ] && grep -q "leaf1: .*would change" "$tmp/out" && ! grep -q e2e-pw "$tmp/out"
check nvue-push-ask-password $? "exit $st: $(cat "$tmp/out" "$tmp/err")"
nv_stop
# --help lists it in both synopses.
"$Q" --help | sed -n '/^  qosgen diff/,/^  qosgen push/p' | grep -q -- '--ask-password' &&
	"$Q" --help | sed -n '/^  qosgen push/,/^  qosgen probe/p' | grep -q -- '--ask-password'
check help-synopses-ask-password $? "$("$Q" --help)"

# ---- issue 25, item 8: build --check -o DIR where DIR holds no output tree:
# one line saying so, exit 1, no diff (it printed every file as added).
for what in missing empty file; do
	rm -rf "$tmp/nobuild"
	case $what in empty) mkdir -p "$tmp/nobuild" && echo x >"$tmp/nobuild/README" ;; file) echo x >"$tmp/nobuild" ;; esac
	"$Q" build "$rdg_ack" --check -o "$tmp/nobuild" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] &&
		[ "$(cat "$tmp/err")" = "qosgen build: $tmp/nobuild: no output tree here (no plan.json); build it first with qosgen build $rdg_ack -o $tmp/nobuild" ]
	check "check-no-output-tree-$what" $? "exit $st: $(head -c 300 "$tmp/out") $(cat "$tmp/err")"
done
rm -rf "$tmp/nobuild"
"$Q" build "$rdg" -o "$tmp/nobuild" >/dev/null && rm "$tmp/nobuild/onyx/swx-mld-1-2.cli"
"$Q" build "$rdg" --check -o "$tmp/nobuild" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -qx -- '--- a/onyx/swx-mld-1-2.cli' "$tmp/out" && grep -q "differs from what" "$tmp/err"
check check-output-tree-still-diffed $? "exit $st: $(cat "$tmp/err")"

# Issue 24, item 10: a fabric's switches are bounded (model/bounds.h), named at
# the first one past the bound (tests/golden/errors/bounds has hosts and ports).
{ sed -n '1,/^  cnp:/p' "$top/tests/golden/errors/bounds/intent.yaml"
  echo "switches:"
  awk 'BEGIN { for (i = 0; i <= 10000; i++)
	printf "  - {name: sw%05d, platform: onyx, address: 10.%d.%d.1, ports: [1/1]}\n", i, i / 250, i % 250 }'
} >"$tmp/switches.yaml"
"$Q" check "$tmp/switches.yaml" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(cat "$tmp/err")" = "$tmp/switches.yaml:10011:5: error: switches[sw10000]: one switch more than a fabric has at most (10000), which keeps its build bounded (docs/intent.md, \"Bounds\")" ]
check switches-bounded $? "exit $st: $(cat "$tmp/err")"

# Issue 36, finding 2: 150,000 hosts of 32 NICs, each host its own names
# (18.5 MB). Each bound held alone (hosts, NICs per host), so the build ran
# 17.8 s and 3.6 GB before the output bound refused it (check alone 807 MB).
# Now refused at the `nics` of the entry that passes the fabric's NIC bound
# (5,121 hosts of 32), counted before any range is expanded, within 1 GiB,
# nothing written.
{ sed -n '1,/^  cnp:/p' "$top/tests/golden/errors/bounds/intent.yaml"
  echo "hosts:"
  awk 'BEGIN { for (i = 1; i <= 150000; i++) { a = 167772161 + i
	printf "  - {name: h%d, platform: linux, address: %d.%d.%d.%d, nics: [{netdev: \"e%d_[0-31]\", rdma_device: \"m%d_[0-31]\"}]}\n",
		i, int(a / 16777216), int(a / 65536) % 256, int(a / 256) % 256, a % 256, i, i } }'
} >"$tmp/nics.yaml"
line=$(grep -n '{name: h5121,' "$tmp/nics.yaml" | cut -d: -f1)
col=$(sed -n "${line}p" "$tmp/nics.yaml" | awk '{ print index($0, "nics:") }')
/usr/bin/time -f '%e %M' -o "$tmp/time" "$Q" build "$tmp/nics.yaml" -o "$tmp/nics-out" >"$tmp/out" 2>"$tmp/err"
st=$?
# time's last line: its first says the exit status when it is not 0.
secs=$(tail -n 1 "$tmp/time" | cut -d' ' -f1)
kb=$(tail -n 1 "$tmp/time" | cut -d' ' -f2)
[ $st -eq 1 ] && [ "$(head -n 1 "$tmp/err")" = "$tmp/nics.yaml:$line:$col: error: hosts[h5121]: brings the fabric's RoCE NICs to 163872 (here 1 host of 32 NICs), hosts times their NICs, ranges expanded; a fabric has at most 163840 NICs, which keeps its build bounded (docs/intent.md, \"Bounds\")" ] &&
	[ "${kb:-9999999}" -lt 1048576 ] && [ ! -e "$tmp/nics-out" ]
check nics-fabric-bounded $? "exit $st, $secs s, ${kb:-?} KB peak: $(head -c 600 "$tmp/err")"
rm -f "$tmp/nics.yaml"

# Issue 24, item 9: a build stopped by SIGTERM or SIGINT while it writes its
# temporary tree removes it and dies of the signal (before the fix the tree
# stayed beside -o); env --default-signal undoes the SIGINT a non-interactive
# shell's background job starts ignoring. 5,000 switches: 5,000 files to
# write, time enough to see the tree and signal it.
{ sed -n '1,/^  cnp:/p' "$top/tests/golden/errors/bounds/intent.yaml"
  echo "switches:"
  awk 'BEGIN { for (i = 0; i < 5000; i++)
	printf "  - {name: sw%05d, platform: onyx, address: 10.%d.%d.1, ports: [1/1-1/32]}\n", i, i / 250, i % 250 }'
} >"$tmp/big.yaml"
for pair in TERM:15 INT:2; do
	sig=${pair%:*}
	rm -rf "$tmp/sig" && mkdir "$tmp/sig"
	env --default-signal="$sig" "$Q" build "$tmp/big.yaml" -o "$tmp/sig/out" >/dev/null 2>&1 &
	pid=$!
	seen=
	while [ -z "$seen" ] && kill -0 "$pid" 2>/dev/null; do
		for t in "$tmp/sig"/.out.qosgen-*; do
			[ -d "$t" ] && seen=${t##*/}
		done
	done
	kill -s "$sig" "$pid"
	wait "$pid"
	st=$?
	[ -n "$seen" ] && [ $st -eq $((128 + ${pair#*:})) ] && [ -z "$(ls -A "$tmp/sig")" ]
	check "signal-$sig-removes-temporary-tree" $? "exit $st, saw '$seen', left: $(ls -A "$tmp/sig")"
done
# A tree a killed build left (its marker names a process that is gone) is
# removed by the next build; look-alikes are not: no marker, a marker of a
# running process, a link to a marked tree, another output's name.
rm -rf "$tmp/stale" && mkdir "$tmp/stale" "$tmp/elsewhere"
gone=$(sh -c 'echo $$')
plant() { # NAME PID: a temporary tree with qosgen's marker for PID ('' for none)
	mkdir -p "$tmp/stale/$1/onyx"
	echo x >"$tmp/stale/$1/onyx/sw1.cli"
	[ -z "$2" ] || echo "qosgen: a temporary output tree, being written by pid $2" >"$tmp/stale/$1/.qosgen-partial"
}
plant .out.qosgen-Ab12Cd "$gone"
plant .out.qosgen-backup ""
plant .out.qosgen-Run123 $$
plant .other.qosgen-Ab12Cd "$gone"
plant .out.qosgen-Ab12C "$gone"
mkdir -p "$tmp/elsewhere/t" && echo "qosgen: a temporary output tree, being written by pid $gone" >"$tmp/elsewhere/t/.qosgen-partial"
ln -s "$tmp/elsewhere/t" "$tmp/stale/.out.qosgen-Lnk123"
"$Q" build "$top/examples/rdg-vsphere.yaml" -o "$tmp/stale/out" >/dev/null 2>"$tmp/err"
st=$?
left=$(ls -A "$tmp/stale" | tr '\n' ' ')
[ $st -eq 0 ] && [ "$left" = ".other.qosgen-Ab12Cd .out.qosgen-Ab12C .out.qosgen-Lnk123 .out.qosgen-Run123 .out.qosgen-backup out " ] &&
	[ -f "$tmp/elsewhere/t/.qosgen-partial" ] && [ ! -e "$tmp/stale/out/.qosgen-partial" ]
check stale-temporary-tree-removed-lookalikes-kept $? "exit $st: $left $(cat "$tmp/err")"

# push --all --batch 1 --verify (issue 27): after each wave that converged, the
# verify pairs whose two hosts are pushed now; a pair not clean stops the push.
# Three Linux hosts behind the test sshd (tests/e2e/fakehost.sh); its hostile
# state makes every session print one setting already right and exit 0: each
# host's push is in sync, and a host that then prints no facts for verify
# (no RDMA read back) fails the pair h1:h2 after batch 2, so h3 is untouched.
mkdir -p "$tmp/wv/state"
if ! why=$(sh "$top/tests/e2e/sshd.sh" start "$tmp/wv/sshd" "sh $top/tests/e2e/fakehost.sh $tmp/wv/state $top/tests/scripts/fake" 2>&1); then
	check push-verify-sshd 1 "cannot start a test sshd: $why"
else
	trap 'sh "$top/tests/e2e/sshd.sh" stop "$tmp/wv/sshd"; nv_stop; rm -rf "$tmp"' EXIT INT TERM
	wport=$(cat "$tmp/wv/sshd/port")
	wuser=${USER:-$(id -un)}
	printf '[ok] mtu: 1500\n' >"$tmp/wv/state/hostile.out"
	echo 0 >"$tmp/wv/state/hostile.rc"
	{
		printf 'version: 1\nfabric: cli-verify\n%s\nhosts:\n' "$E2E_QOS"
		for h in 1 2 3; do
			echo "  - {name: h$h, platform: linux, address: 127.0.0.1, port: $wport, user: $wuser, netdev: lo, rdma_device: qgtest$h, persist: false}"
		done
		printf 'verify:\n  pairs:\n    - {client: h1, server: h2, min_gbps: 1}\n  duration_s: 1\n'
	} >"$tmp/wv/intent.yaml"
	wopts="--known-hosts $tmp/wv/known_hosts --accept-new --identity $tmp/wv/sshd/client_key --ssh-config /dev/null --timeout 10"
	# shellcheck disable=SC2086
	"$Q" push "$tmp/wv/intent.yaml" --all --batch 1 --verify $wopts >"$tmp/wv/out" 2>"$tmp/wv/err"
	st=$?
	[ $st -eq 3 ] && grep -q '^qosgen push: batch 2: verify 1 pair$' "$tmp/wv/err" &&
		! grep -q '^qosgen push: batch 1: verify' "$tmp/wv/err" && ! grep -q 'batch 3 of 3' "$tmp/wv/err" &&
		grep -q '^== h1 -> h2$' "$tmp/wv/err" && grep -q '^\[FATAL\] Check reach: h1: ' "$tmp/wv/err" &&
		grep -q '^h2 .* in sync ' "$tmp/wv/err" && grep -q '^h3 .* untouched ' "$tmp/wv/err" &&
		grep -q '^verify: 1 pair run, 0 not run; checks: 0 PASS, 0 MARGINAL, 1 FATAL$' "$tmp/wv/err" &&
		grep -q '^stopped after batch 2 of 3 (a verify pair not clean): 1 device untouched$' "$tmp/wv/err"
	check push-batch-verify-stops-next-wave $? "exit $st: $(cat "$tmp/wv/err")"
	# shellcheck disable=SC2086
	"$Q" push "$tmp/wv/intent.yaml" --all --batch 2 --verify --json $wopts >"$tmp/j.out" 2>"$tmp/j.err"
	st=$?
	/usr/bin/python3 "$top/tests/cli/json_shape.py" "$top/docs/json.schema.json" push "$tmp/j.out" "$st" ran >"$tmp/j.why" 2>&1 &&
		/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["pairs"]
assert [(x["client"], x["server"], x["batch"], x["status"], x["ok"]) for x in p] == [("h1", "h2", 1, "FATAL", False)], p
dev = {x["device"]: (x["status"], x["batch"]) for x in d["devices"]}
assert dev == {"h1": ("in sync", 1), "h2": ("in sync", 1), "h3": ("untouched", 2)}, dev
s = d["summary"]
assert s["verify"] == {"pairs": 1, "pass": 0, "marginal": 0, "fatal": 1, "not_run": 0}, s
assert s["batches"]["done"] == 1 and s["batches"]["untouched"] == 1 and d["exit"] == 3, s
' "$tmp/j.out" >>"$tmp/j.why" 2>&1
	check push-batch-verify-json $? "exit $st: $(cat "$tmp/j.why" "$tmp/j.err")"
	# Refused before any device is contacted: no pairs, not --all, a dry run.
	grep -v 'pairs:\|client: h1\|duration_s' "$tmp/wv/intent.yaml" | sed '/^verify:/d' >"$tmp/wv/nopairs.yaml"
	rm -f "$tmp/wv/state/calls"
	# shellcheck disable=SC2086
	"$Q" push "$tmp/wv/nopairs.yaml" --all --verify $wopts >/dev/null 2>"$tmp/wv/err"
	st=$?
	[ $st -eq 2 ] && grep -q -- '--verify: the intent has no verify.pairs; nothing was pushed' "$tmp/wv/err"
	check push-verify-without-pairs-exit-2 $? "exit $st: $(cat "$tmp/wv/err")"
	"$Q" push "$tmp/wv/intent.yaml" --host h1 --verify >/dev/null 2>"$tmp/wv/err"
	st=$?
	[ $st -eq 2 ] && grep -q -- '--verify goes with --all' "$tmp/wv/err"
	check push-verify-needs-all $? "exit $st: $(cat "$tmp/wv/err")"
	"$Q" push "$tmp/wv/intent.yaml" --all --verify --dry-run >/dev/null 2>"$tmp/wv/err"
	st=$?
	[ $st -eq 2 ] && grep -q -- '--verify pushes: not with --dry-run or --uninstall' "$tmp/wv/err"
	check push-verify-not-dry-run $? "exit $st: $(cat "$tmp/wv/err")"
	"$Q" push "$tmp/wv/intent.yaml" --all --verify --verify-port 0 >/dev/null 2>"$tmp/wv/err"
	st=$?
	[ $st -eq 2 ] && grep -q -- '--verify-port takes 1..65535' "$tmp/wv/err"
	check push-verify-port-range $? "exit $st: $(cat "$tmp/wv/err")"
	sh "$top/tests/e2e/sshd.sh" stop "$tmp/wv/sshd"
fi

echo "$pass cli checks passed, $fail failed"
[ "$fail" -eq 0 ]
