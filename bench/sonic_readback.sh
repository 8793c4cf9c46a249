#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/sonic_readback: how long `qosgen diff --running-config` takes on a
# hostile-sized SONiC read-back (issue 24, finding 6): the MSN2700's
# config_db (tests/sim/sonic-msn2700.config_db.json) plus N extra QUEUE rows
# of ports outside the intent (default 80,000: about 6 MB), parsed, judged
# and the patch computed and printed, as push does. The baseline is the same
# with N/4 rows, in the same invocation: linear time gives a ratio near 4, a
# quadratic one near 16. Prints, per size and then the ratio:
#   BENCH sonic-readback rows=N bytes=B seconds=S
#   BENCH sonic-readback scaling 4x rows: R x time
# Usage: bench/sonic_readback.sh BUILD [N]
set -u
BUILD=${1:-build}
N=${2:-80000}
top=$(cd "$(dirname "$0")/.." && pwd)
Q=$(cd "$BUILD" && pwd)/qosgen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/intent.yaml" <<YAML
version: 1
fabric: bench
qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}
switches:
  - {name: sonic, platform: sonic, address: 127.0.0.1, ports: [Ethernet0-124/4]}
YAML
one() { # ROWS: prints the BENCH line, leaves the seconds in $secs
	python3 - "$top/tests/sim/sonic-msn2700.config_db.json" "$1" >"$dir/readback.json" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
q = db["QUEUE"]
for i in range(int(sys.argv[2])):
    q[f"Ethernet{1000 + i // 8}|{i % 8}"] = {"scheduler": "scheduler.0"}
print(json.dumps(db, indent=4))
PY
	bytes=$(wc -c <"$dir/readback.json")
	start=$(date +%s.%N)
	"$Q" diff "$dir/intent.yaml" --switch sonic --running-config "$dir/readback.json" \
		>"$dir/out" 2>"$dir/err"
	st=$?
	end=$(date +%s.%N)
	# diff exits 0 (in sync) or 1 (differs); anything else is a failure.
	if [ $st -gt 1 ]; then
		echo "FAIL sonic-readback: exit $st: $(head -c 500 "$dir/err")"
		exit 1
	fi
	secs=$(echo "$end - $start" | bc)
	printf 'BENCH sonic-readback rows=%s bytes=%s seconds=%.2f\n' "$1" "$bytes" "$secs"
}
one $((N / 4))
base=$secs
one "$N"
printf 'BENCH sonic-readback scaling 4x rows: %.1f x time\n' "$(echo "$secs / $base" | bc -l)"
