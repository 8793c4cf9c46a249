#!/bin/sh
# SPDX-License-Identifier: MIT
# qosgen push of a DVS and its hosts through the vSphere API, end to end
# against vcsim (govmomi's vCenter simulator, built from Debian's source
# package by tests/vcsim/build.sh, with qosgen-vcsim's one override: maxMtu
# and configVersion), read back with govc, an independent client. TLS is
# verified against a certificate this test makes; all traffic is to
# 127.0.0.1; every simulator is stopped by its PID.
# Usage: vsphere.sh BUILD
set -u
BUILD=$(cd "$1" && pwd)
Q=$BUILD/qosgen
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# One vcsim build serves every qosgen build (plain and ASan): QG_VCSIM_DIR.
vc=${QG_VCSIM_DIR:-$BUILD/vcsim}
mkdir -p "$vc"
if ! sh "$here/../vcsim/build.sh" "$vc" >"$vc/build.log" 2>&1; then
	echo "FAIL vsphere: cannot build vcsim from Debian's govmomi source package:"
	tail -5 "$vc/build.log"
	exit 1
fi
bin=$vc/bin
dir=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" -days 2 \
	-subj /CN=127.0.0.1 -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1 ||
	{ echo "FAIL vsphere: openssl cannot make a certificate"; exit 1; }

# sim NAME [FLAGS]: start a simulator; its host:port in $addr.
sim() {
	name=$1
	shift
	VCSIM_USERNAME=admin VCSIM_PASSWORD=qg-secret-7 "$bin/qosgen-vcsim" -l 127.0.0.1:0 \
		-cert "$dir/cert.pem" -key "$dir/key.pem" -hosts esx01.lab,esx02.lab "$@" \
		>"$dir/$name.out" 2>"$dir/$name.err" &
	pids="$pids $!"
	i=0
	while ! grep -q '^listening ' "$dir/$name.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "FAIL vsphere: $name did not start: $(cat "$dir/$name.err")"; exit 1; }
		sleep 0.1
	done
	addr=$(sed -n 's/^listening //p' "$dir/$name.out")
}

cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: vcsim
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
hosts:
  - {name: esx01, platform: esxi, address: esx01.lab, uplink: vmnic2, pvrdma_vmknic: vmk1}
  - {name: esx02, platform: esxi, address: esx02.lab, uplink: vmnic2, pvrdma_vmknic: vmk1}
dvs:
  - {name: DVS0, vcenter: vcenter.lab, datacenter: DC0, mtu: 9000, hosts: [esx01, esx02]}
YAML
sim main
export GOVC_URL="https://$addr/sdk" GOVC_USERNAME=admin GOVC_PASSWORD=qg-secret-7
ca="--ca-file $dir/cert.pem"
export GOVC_TLS_CA_CERTS="$dir/cert.pem" # for govc; qosgen gets --ca-file
push() { # ARGS...: qosgen push, output in $dir/out and $dir/err, status in $st
	env -u GOVC_TLS_CA_CERTS "$Q" push "$dir/intent.yaml" "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}
govc_get() { "$bin/govc" object.collect -s network/DVS0 "$1"; }

# shellcheck disable=SC2086
env -u GOVC_TLS_CA_CERTS "$Q" diff "$dir/intent.yaml" --dvs DVS0 $ca --exit-code >"$dir/d" 2>&1
st=$?
[ $st -eq 1 ] && grep -qx '\[differs\] maxMtu: 0 -> 9000' "$dir/d" &&
	grep -qx '\[differs\] host esx02: Net.PVRDMAVmknic: unset -> vmk1' "$dir/d" &&
	grep -qx '\[differs\] host esx01: firewall ruleset pvrdma: disabled -> enabled' "$dir/d" &&
	[ "$(govc_get config.maxMtu)" = 0 ]
check diff-reads-back $? "exit $st: $(cat "$dir/d")"

t0=$(date +%s%N)
# shellcheck disable=SC2086
push --dvs DVS0 $ca
t1=$(date +%s%N)
[ $st -eq 0 ] && grep -q '^DVS0: 5 settings changed, read back in sync (maxMtu 0 -> 9000, configVersion 1 -> 2)' "$dir/err" &&
	[ "$(govc_get config.maxMtu)" = 9000 ] && [ "$(govc_get config.configVersion)" = 2 ] &&
	"$bin/govc" host.option.ls -host /DC0/host/DC0_C0/esx01.lab Net.PVRDMAVmknic | grep -q 'Net.PVRDMAVmknic: *vmk1$' &&
	"$bin/govc" host.option.ls -host /DC0/host/DC0_C0/esx02.lab Net.PVRDMAVmknic | grep -q 'Net.PVRDMAVmknic: *vmk1$' &&
	"$bin/govc" firewall.ruleset.find -c=false -host /DC0/host/DC0_C0/esx01.lab -direction outbound -port 28250 -enabled=true | grep -qx pvrdma
check push-then-govc-reads-it $? "exit $st: $(cat "$dir/err") maxMtu $(govc_get config.maxMtu)"
echo "timing: one DVS push (2 hosts), end to end: $(((t1 - t0) / 1000000)) ms"

# shellcheck disable=SC2086
push --dvs DVS0 $ca
[ $st -eq 0 ] && grep -q '^DVS0: in sync: maxMtu 9000, configVersion 2' "$dir/err" &&
	[ "$(govc_get config.configVersion)" = 2 ]
check re-push-sends-nothing $? "exit $st: $(cat "$dir/err")"

# Someone changes the switch between qosgen's read and its reconfigure.
sim stale -concurrent 1
GOVC_URL="https://$addr/sdk" push --dvs DVS0 $ca
[ $st -eq 0 ] &&
	grep -q '^DVS0: 5 settings changed, read back in sync (maxMtu 0 -> 9000, configVersion 1 -> 3, 1 retry after a concurrent change)' "$dir/err" &&
	[ "$(GOVC_URL="https://$addr/sdk" govc_get config.maxMtu)" = 9000 ]
check stale-config-version-retried $? "exit $st: $(cat "$dir/err")"

GOVC_PASSWORD=wrong-password push --dvs DVS0 $ca
[ $st -eq 3 ] && grep -q "login as 'admin' refused: wrong user name or password" "$dir/err" &&
	! grep -q 'wrong-password\|qg-secret-7' "$dir/err" "$dir/out"
check wrong-password-refused $? "exit $st: $(cat "$dir/err")"

push --dvs DVS0
[ $st -eq 3 ] && grep -q "TLS certificate is not trusted" "$dir/err" && grep -q -- "--ca-file" "$dir/err"
check untrusted-certificate-refused $? "exit $st: $(cat "$dir/err")"

push --dvs DVS0 --insecure
[ $st -eq 0 ] && grep -q "warning: .*TLS certificate checking is OFF" "$dir/err"
check insecure-is-loud $? "exit $st: $(cat "$dir/err")"

GOVC_USERNAME= GOVC_PASSWORD= push --dvs DVS0 $ca
[ $st -eq 3 ] && grep -q "no vSphere credentials: set GOVC_USERNAME and GOVC_PASSWORD" "$dir/err"
check no-credentials $? "exit $st: $(cat "$dir/err")"

echo "$pass vsphere checks passed, $fail failed"
[ "$fail" -eq 0 ]
