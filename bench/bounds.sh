#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/bounds: the largest intent qosgen accepts (gen/bounds.h, docs/intent.md
# "Bounds"), built, rebuilt over its own output and checked (issue 24, items 2
# and 10): 150,000 Linux hosts from one host list and 160 SONiC switches of
# 1,024 ports (163,840 ports, the bound; SONiC's ports cost the most per port
# of the switch targets). Prints each step's wall time, peak memory and the
# output's size. A benchmark: it prints and judges nothing but failure.
# Usage: bench/bounds.sh BUILD
set -u
BUILD=${1:-build}
Q=$(cd "$BUILD" && pwd)/qosgen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
[ -x /usr/bin/time ] || { echo "bench/bounds: /usr/bin/time is missing ('make setup' installs it)"; exit 3; }

f=$dir/largest.yaml
{
	printf 'version: 1\nfabric: largest\nqos:\n'
	printf '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n'
	printf '  cnp: {priority: 6, dscp: 48, ets: strict}\nswitches:\n'
	i=0
	while [ $i -lt 160 ]; do
		printf '  - {name: leaf%03d, platform: sonic, address: 10.30.0.%d, ports: [Ethernet0-1023/1]}\n' $i $((i + 1))
		i=$((i + 1))
	done
	printf '  - {name: "gpu-[1-150000]", platform: linux, address: 10.64.0.1, netdev: ens1f0, rdma_device: mlx5_0}\n' |
		sed 's/^/hosts:\n/'
} >"$f"

step() { # LABEL COMMAND...: runs it, prints its time and peak memory
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/log" 2>&1 || {
		echo "bench/bounds: $label failed: $(tail -n 3 "$dir/log")"
		exit 3
	}
	read -r secs kb <"$dir/time"
	printf 'BENCH bounds %s: %.2f s, %d MB peak\n' "$label" "$secs" $((kb / 1024))
}

"$Q" check "$f" >/dev/null || { echo "bench/bounds: the largest intent is refused"; exit 3; }
step "build (160 sonic switches x 1024 ports + 150000 hosts)" "$Q" build "$f" -o "$dir/out"
printf 'BENCH bounds output: %d files, %d MB, plan.json %d MB\n' "$(find "$dir/out" -type f | wc -l)" \
	"$(du -sm --apparent-size "$dir/out" | cut -f1)" "$(du -sm --apparent-size "$dir/out/plan.json" | cut -f1)"
step "rebuild over its own output" "$Q" build "$f" -o "$dir/out"
step "build --check" "$Q" build "$f" --check -o "$dir/out"
