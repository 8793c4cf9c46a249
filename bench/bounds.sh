#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/bounds: the largest intent qosgen accepts (model/bounds.h, docs/intent.md
# "Bounds"), built, rebuilt over its own output and checked (issue 24, items 2
# and 10): 150,000 Linux hosts from two host lists, 136,160 of one NIC and
# 13,840 of two (163,840 NICs, the fabric's NIC bound, issue 36), and 160
# SONiC switches of 1,024 ports (163,840 ports, the bound; SONiC's ports cost
# the most per port of the switch targets). Then the same switches with the
# NIC bound spent on 5,120 hosts of 32 NICs (the most a host has), built.
# Prints each step's wall time, peak memory and the output's size. A
# benchmark: it prints and judges nothing but failure.
# Usage: bench/bounds.sh BUILD
set -u
BUILD=${1:-build}
Q=$(cd "$BUILD" && pwd)/qosgen
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
[ -x /usr/bin/time ] || { echo "bench/bounds: /usr/bin/time is missing ('make setup' installs it)"; exit 3; }

switches() { # the 160 SONiC switches of 1,024 ports
	printf 'version: 1\nfabric: largest\nqos:\n'
	printf '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n'
	printf '  cnp: {priority: 6, dscp: 48, ets: strict}\nswitches:\n'
	i=0
	while [ $i -lt 160 ]; do
		printf '  - {name: leaf%03d, platform: sonic, address: 10.30.0.%d, ports: [Ethernet0-1023/1]}\n' $i $((i + 1))
		i=$((i + 1))
	done
}
f=$dir/largest.yaml
{
	switches
	printf 'hosts:\n'
	printf '  - {name: "gpu-[1-136160]", platform: linux, address: 10.64.0.1, netdev: ens1f0, rdma_device: mlx5_0}\n'
	printf '  - {name: "duo-[1-13840]", platform: linux, address: 10.96.0.1, nics: [{netdev: "ens[1-2]f0", rdma_device: "mlx5_[0-1]"}]}\n'
} >"$f"
f32=$dir/nics32.yaml
{
	switches
	printf 'hosts:\n'
	printf '  - {name: "gpu-[1-5120]", platform: linux, address: 10.64.0.1, nics: [{netdev: "ens[0-31]np0", rdma_device: "mlx5_[0-31]"}]}\n'
} >"$f32"

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

output() { # DIR: what a build wrote
	printf 'BENCH bounds output: %d files, %d MB, plan.json %d MB\n' "$(find "$1" -type f | wc -l)" \
		"$(du -sm --apparent-size "$1" | cut -f1)" "$(du -sm --apparent-size "$1/plan.json" | cut -f1)"
}
"$Q" check "$f" >/dev/null || { echo "bench/bounds: the largest intent is refused"; exit 3; }
step "build (160 sonic switches x 1024 ports + 150000 hosts, 163840 NICs)" "$Q" build "$f" -o "$dir/out"
output "$dir/out"
step "rebuild over its own output" "$Q" build "$f" -o "$dir/out"
step "build --check" "$Q" build "$f" --check -o "$dir/out"
rm -rf "$dir/out"
"$Q" check "$f32" >/dev/null || { echo "bench/bounds: the 32-NIC fleet is refused"; exit 3; }
step "build (160 sonic switches x 1024 ports + 5120 hosts x 32 NICs)" "$Q" build "$f32" -o "$dir/out32"
output "$dir/out32"
