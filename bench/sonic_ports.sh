#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/sonic_ports: how a SONiC switch's cost grows with its ports. One
# switch of N ports (default 1024, Ethernet0-1023/1: SONIC_PORT_MAX is the
# most one switch has) is built, then `qosgen diff --running-config` judges a
# read-back of the same size (the MSN2700's config_db,
# tests/sim/sonic-msn2700.config_db.json, with every table's Ethernet0 rows
# copied to each of the N ports) and computes and prints the patch, as push
# does. The baseline is the same with N/4 ports, in the same invocation:
# linear time gives a ratio near 4, a quadratic one near 16. Prints, per size
# and then the ratios:
#   BENCH sonic-ports ports=N build seconds=S
#   BENCH sonic-ports ports=N diff bytes=B seconds=S
#   BENCH sonic-ports scaling 4x ports: build R x time, diff R x time
# Figures (a shared 2-core machine, load 5, old and new back to back):
# before the index of config_db.c and config_db_patch.c, build 5.06 s and
# diff 4.73 s at 1,024 ports, 24.4x and 16.0x the times at 256; after,
# 0.41 s and 0.60 s, 3.0x and 3.6x (bench/sonic_readback.sh on the same
# builds: 7.2x before, 1.4x after; 80,000 rows 2.46 s, then 0.63 s). The
# largest intent's shape (bench/bounds.sh) at 16 switches of 1,024 ports and
# 150,000 hosts: 118.68 s before, 10.88 s after, 654 MB peak both, the same files.
# Usage: bench/sonic_ports.sh BUILD [N]
set -u
BUILD=${1:-build}
N=${2:-1024}
top=$(cd "$(dirname "$0")/.." && pwd)
Q=$(cd "$BUILD" && pwd)/qosgen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

elapsed() { # START END: seconds between two `date +%s.%N`
	echo "$2 - $1" | bc
}

one() { # PORTS: prints the BENCH lines, leaves the seconds in $build and $diff
	cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: bench
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
  pfc_watchdog: {detection_ms: 200, restoration_ms: 400}
switches:
  - {name: sonic, platform: sonic, address: 127.0.0.1, cable_length_m: 5, ports: [Ethernet0-$(($1 - 1))/1]}
YAML
	python3 - "$top/tests/sim/sonic-msn2700.config_db.json" "$1" >"$dir/readback.json" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
for name, table in db.items():
    if not isinstance(table, dict):
        continue
    rows = {k: v for k, v in table.items() if not k.startswith("Ethernet")}
    first = {k: v for k, v in table.items() if k == "Ethernet0" or k.startswith("Ethernet0|")}
    for p in range(n):
        for k, v in first.items():
            rows[f"Ethernet{p}" + k[len("Ethernet0"):]] = v
    db[name] = rows
db["CABLE_LENGTH"]["AZURE"] = {f"Ethernet{p}": "40m" for p in range(n)}
print(json.dumps(db, indent=4))
PY
	rm -rf "$dir/out"
	start=$(date +%s.%N)
	"$Q" build "$dir/intent.yaml" -o "$dir/out" >"$dir/log" 2>&1 || {
		echo "FAIL sonic-ports: build of $1 ports: $(head -c 500 "$dir/log")"
		exit 1
	}
	end=$(date +%s.%N)
	build=$(elapsed "$start" "$end")
	printf 'BENCH sonic-ports ports=%s build seconds=%.2f\n' "$1" "$build"
	bytes=$(wc -c <"$dir/readback.json")
	start=$(date +%s.%N)
	"$Q" diff "$dir/intent.yaml" --switch sonic --running-config "$dir/readback.json" \
		>"$dir/log" 2>&1
	st=$?
	end=$(date +%s.%N)
	# diff exits 0 (in sync) or 1 (differs); anything else is a failure.
	if [ $st -gt 1 ]; then
		echo "FAIL sonic-ports: diff of $1 ports: exit $st: $(head -c 500 "$dir/log")"
		exit 1
	fi
	diff=$(elapsed "$start" "$end")
	printf 'BENCH sonic-ports ports=%s diff bytes=%s seconds=%.2f\n' "$1" "$bytes" "$diff"
}
one $((N / 4))
base_build=$build base_diff=$diff
one "$N"
printf 'BENCH sonic-ports scaling 4x ports: build %.1f x time, diff %.1f x time\n' \
	"$(echo "$build / $base_build" | bc -l)" "$(echo "$diff / $base_diff" | bc -l)"
