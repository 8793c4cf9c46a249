#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen push to hosts end to end: the real binary and a real sshd on
# 127.0.0.1 whose ForceCommand runs the pushed script against fake device
# tools (tests/scripts/fake) seeded from real captures. Usage: hostpush.sh BUILD
set -u
BUILD=$1
Q=$(cd "$BUILD" && pwd)/qosgen
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fake=$(cd "$here/../scripts/fake" && pwd)
fixtures=$here/../../../shared/fixtures
dir=$(mktemp -d)
state="$dir/state"
cleanup() {
	sh "$here/sshd.sh" stop "$dir/sshd"
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
[ $st -eq 0 ] && grep -q "^esx: 6 settings would change (dry run: nothing changed)" "$dir/err" &&
	[ ! -s "$state/calls" ] && grep -q "^\[differs\] nmlx5_core.pfcrx: unset -> 0x08" "$dir/out"
check esxi-dry-run $? "exit $st: $(cat "$dir/err" "$dir/out")"

push --host esx
[ $st -eq 0 ] && grep -q "^esx: 6 of 7 settings changed, all set; module options changed: reboot" "$dir/err" &&
	grep -qxF "nmlx5_core enabled = 1 options = 'max_vfs=4 pfctx=8 pfcrx=0x08 trust_state=2'" "$state/module.nmlx5_core"
check esxi-push-merges-and-converges $? "exit $st: $(cat "$dir/err") $(cat "$state/module.nmlx5_core")"

rm -f "$state/calls"
push --host esx
[ $st -eq 0 ] && grep -q "^esx: in sync, all 7 settings already right" "$dir/err" && [ ! -s "$state/calls" ]
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

# --all: the esx drift above is repaired, gpu1 stays partial; results as JSON.
push --all --json
[ $st -eq 3 ] && grep -q '"device":	"esx"' "$dir/out" && grep -q '"result":	"converged"' "$dir/out" &&
	grep -q '"result":	"PARTIAL"' "$dir/out"
check all-json $? "exit $st: $(cat "$dir/out" "$dir/err")"

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
r = json.load(open(sys.argv[1]))[0]
assert r["client"] == "gpu1" and r["server"] == "gpu2", r
assert r["hosts"][0]["netdev_mtu"] == 65536 and r["hosts"][0]["roce_tos"] == -1, r
assert r["summary"]["fatal"] >= 1 and r["checks"][0]["check"] == "bandwidth", r
' "$dir/out"
check verify-json $? "exit $st: $(cat "$dir/out" "$dir/err")"

echo "$pass host push checks passed, $fail failed"
[ "$fail" -eq 0 ]
