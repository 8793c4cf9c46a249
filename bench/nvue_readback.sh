#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/nvue_readback: a Cumulus switch's NVUE read-back at scale (issue 24,
# finding 6): `qosgen diff --running-config` of generated read-backs of N
# interfaces (each with link mtu, link state, type and qos pfc-watchdog
# state), as the REST API's JSON (one key per interface) and as a
# startup.yaml of range keys (1,000 interfaces a key), for N = 10,000,
# 20,000 and 40,000. The diff parses, expands, judges and patches against an
# intent of 128 ports. /usr/bin/time measures the qosgen process. Linear
# work doubles with N: the ratio column is each time over the 10,000's, to
# be read against the size's 1, 2, 4. QG_BENCH_BASELINE=PATH also times
# another qosgen (an older build) on the same files, in the same run.
# Prints one line per run:
#   BENCH nvue read-back json 40000: qosgen X s (Y x the 10000's), Z MB peak
# Usage: bench/nvue_readback.sh BUILD
set -u
BUILD=${1:-build}
Q=$(cd "$BUILD" && pwd)/qosgen
[ -x /usr/bin/time ] || {
	echo "bench/nvue_readback: /usr/bin/time is missing ('make setup' installs it)"
	exit 1
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cat >"$dir/intent.yaml" <<'YAML'
version: 1
fabric: bench
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
switches:
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, user: cumulus, ports: [swp1-128]}
YAML
# readback N FORM: the generated read-back, on stdout.
readback() {
	python3 - "$1" "$2" <<'PY'
import json, sys
n, form = int(sys.argv[1]), sys.argv[2]
if form == "json":
    ifs = {f"swp{i}": {"link": {"mtu": 9216, "state": {"up": {}}}, "type": "swp",
                       "qos": {"pfc-watchdog": {"state": "disable"}}} for i in range(1, n + 1)}
    json.dump({"interface": ifs, "system": {"hostname": "leaf1"}}, sys.stdout)
else:
    print("- set:\n    system:\n      hostname: leaf1\n    interface:")
    for k in range(0, n, 1000):
        print(f"      swp{k + 1}-{min(n, k + 1000)}:\n        link:\n          mtu: 9216\n"
              "          state:\n            up: {}\n        type: swp")
PY
}
# timed BIN FILE: seconds and peak MB of one diff, as "S MB".
timed() {
	/usr/bin/time -o "$dir/time" -f '%e %M' "$1" diff "$dir/intent.yaml" --switch leaf1 \
		--running-config "$2" >/dev/null 2>&1
	awk '{ printf "%s %.0f\n", $1, $2 / 1024 }' "$dir/time"
}
for form in json yaml; do
	for bin in "$Q" ${QG_BENCH_BASELINE:+"$QG_BENCH_BASELINE"}; do
		name=qosgen
		[ "$bin" = "$Q" ] || name="baseline $bin"
		first=
		for n in 10000 20000 40000; do
			readback "$n" "$form" >"$dir/rb.$form"
			r=$(timed "$bin" "$dir/rb.$form")
			secs=${r% *}
			first=${first:-$secs}
			echo "BENCH nvue read-back $form $n: $name $secs s ($(awk -v a="$secs" -v b="$first" \
				'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }') x the 10000's), ${r#* } MB peak"
		done
	done
done
