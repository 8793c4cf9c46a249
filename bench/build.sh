#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/build: `qosgen build` of generated fabrics against a PyYAML + Jinja2
# script rendering the same files with no validation (bench/baseline_render.py),
# in one run on one machine: 500 switches + 10,000 Linux hosts, then 5,000 +
# 100,000. Prints wall time, peak memory and output size (files, bytes, disk)
# of each, the ratio baseline / qosgen, and qosgen's scaling from the smaller
# fabric to the larger.
# Targets (issue: fleet scale): at 500 + 10,000 qosgen >= 20x faster than the
# baseline and its output under 15 MB; the larger fabric at most 11x the time
# of the smaller, under 1 GiB. The bench prints and judges nothing.
# The 8-NIC fleet (issue 28, item 5): 10,000 hosts of eight NICs each against
# 10,000 hosts of one, no switches, so that the NICs' cost alone is measured:
# both times and their ratio (target: within 2x).
# The headroom check (issue 34, headroom [BASE]): the 500 + 10,000 fabric as
# above, built by this qosgen and, given BASE (another build directory, the
# one before the headroom work), by BASE's, the median of 5 runs each, and
# their ratio (target: at most 1.10); then the same fabric with every switch's
# model and cable length given, so that every port's headroom is worked out,
# against the plain one, and at 5,000 + 100,000 (linear: about 10x).
# Usage: bench/build.sh BUILD [small|both|nics|headroom [BASE]]  (default both; nics: that figure alone)
set -u
BUILD=${1:-build}
SIZES=${2:-both}
Q=$(cd "$BUILD" && pwd)/qosgen
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
for tool in /usr/bin/time /usr/bin/python3; do
	[ -x "$tool" ] || { echo "bench/build: $tool is missing ('make setup' installs it)"; exit 3; }
done

# fabric SWITCHES HOSTS FILE [proven]: one device per line, as a large site
# writes it; proven: each switch with its model and cable length (issue 34).
fabric() {
	/usr/bin/python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import sys
n_sw, n_h, path, proven = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
hw = ", model: SN2700, cable_length_m: 5" if proven else ""
with open(path, "w") as f:
    f.write("version: 1\nfabric: bench\nqos:\n  lossless: {priority: 3, dscp: [26], pool: "
            "{name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
            "  cnp: {priority: 6, dscp: 48, ets: strict}\n")
    if proven:
        f.write("acknowledge: [ignored-by-onyx-cable-length]\n")
    f.write("switches:\n")
    for i in range(n_sw):
        f.write(f"  - {{name: sw{i:05d}, platform: onyx, address: 10.{i // 250}.{i % 250}.1, "
                f"ports: [1/1-1/32]{hw}}}\n")
    f.write("hosts:\n")
    for i in range(n_h):
        f.write(f"  - {{name: gpu{i:06d}, platform: linux, function: pf, address: "
                f"10.{100 + i // 65000}.{(i // 250) % 256}.{i % 250 + 1}, netdev: ens1f0, "
                f"rdma_device: mlx5_0}}\n")
PY
}

# hosts_fabric HOSTS NICS FILE: hosts alone, one per line, each with NICS NICs
# (one: the shorthand; more: one nics item of two ranges, as a GPU server's
# are written).
hosts_fabric() {
	/usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import sys
n_h, n_nics, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write("version: 1\nfabric: bench\nqos:\n  lossless: {priority: 3, dscp: [26], pool: "
            "{name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"
            "  cnp: {priority: 6, dscp: 48, ets: strict}\nhosts:\n")
    nics = ("netdev: ens1f0np0, rdma_device: mlx5_0" if n_nics == 1 else
            f'nics: [{{netdev: "ens[1-{n_nics}]f0np0", rdma_device: "mlx5_[0-{n_nics - 1}]"}}]')
    for i in range(n_h):
        f.write(f"  - {{name: gpu{i:06d}, platform: linux, address: "
                f"10.{100 + i // 65000}.{(i // 250) % 256}.{i % 250 + 1}, {nics}}}\n")
PY
}

# timed LABEL COMMAND...: runs it; sets secs, kb (peak RSS) and prints nothing.
timed() {
	label=$1
	shift
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/$label.log" 2>&1 || {
		echo "bench/build: $label failed: $(tail -n 3 "$dir/$label.log")"
		exit 3
	}
	read -r secs kb <"$dir/time"
}

# out_size DIR: its files, their bytes (what git stores and a diff reads) and
# what they take on this filesystem (du: at least one block, 4 KiB on ext4, per
# file, whatever its size), in MB.
out_size() {
	printf '%d files, %d MB (%d MB on disk)' "$(find "$1" -type f | wc -l)" \
		"$(du -sm --apparent-size "$1" | cut -f1)" "$(du -sm "$1" | cut -f1)"
}

run() { # SWITCHES HOSTS: prints one line each for qosgen and the baseline
	f=$dir/fabric-$1-$2.yaml
	fabric "$1" "$2" "$f"
	rm -rf "$dir/out" "$dir/base"
	timed qosgen "$Q" build "$f" -o "$dir/out"
	q_secs=$secs q_kb=$kb q_out=$(out_size "$dir/out")
	timed baseline /usr/bin/python3 "$top/bench/baseline_render.py" "$f" "$dir/base" "$top/templates"
	b_secs=$secs b_kb=$kb b_out=$(out_size "$dir/base")
	ratio=$(echo "$b_secs $q_secs" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }')
	printf 'BENCH build %s switches + %s hosts: qosgen %.2f s, %d MB peak, out %s; baseline %.2f s, %d MB peak, out %s; baseline/qosgen %sx\n' \
		"$1" "$2" "$q_secs" $((q_kb / 1024)) "$q_out" "$b_secs" $((b_kb / 1024)) "$b_out" "$ratio"
	rm -rf "$dir/out" "$dir/base" "$f"
}

nics_run() { # HOSTS NICS: sets n_secs, n_kb, n_out
	f=$dir/hosts-$1-$2.yaml
	hosts_fabric "$1" "$2" "$f"
	rm -rf "$dir/out"
	timed qosgen "$Q" build "$f" -o "$dir/out"
	n_secs=$secs n_kb=$kb n_out=$(out_size "$dir/out")
	rm -rf "$dir/out" "$f"
}

nics() {
	nics_run 10000 1
	one_secs=$n_secs one_kb=$n_kb one_out=$n_out
	nics_run 10000 8
	ratio=$(echo "$one_secs $n_secs" | awk '{ printf "%.2f", ($1 > 0 ? $2 / $1 : 0) }')
	printf 'BENCH build 10000 hosts x 8 NICs: qosgen %.2f s, %d MB peak, out %s; 10000 one-NIC hosts: %.2f s, %d MB peak, out %s; 8-NIC/one-NIC %sx the time (target <= 2x)\n' \
		"$n_secs" $((n_kb / 1024)) "$n_out" "$one_secs" $((one_kb / 1024)) "$one_out" "$ratio"
}

# median5 QOSGEN FABRIC: the median wall time of 5 builds, into med (and kb, the last's peak).
median5() {
	: >"$dir/times"
	for _ in 1 2 3 4 5; do
		rm -rf "$dir/out"
		timed qosgen "$1" build "$2" -o "$dir/out"
		echo "$secs" >>"$dir/times"
	done
	med=$(sort -n "$dir/times" | sed -n 3p)
}

headroom() { # [BASE]: the headroom check's cost
	f=$dir/plain.yaml p=$dir/proven.yaml
	fabric 500 10000 "$f"
	fabric 500 10000 "$p" proven
	median5 "$Q" "$f"
	plain=$med
	if [ -n "${1:-}" ]; then
		base=$(cd "$1" && pwd)/qosgen
		median5 "$base" "$f"
		echo "$med $plain" | awk '{ printf "BENCH build headroom 500 switches + 10000 hosts: before %.2f s, after %.2f s (median of 5): after/before %.3fx (target <= 1.10)\n", $1, $2, ($1 > 0 ? $2 / $1 : 0) }'
	fi
	median5 "$Q" "$p"
	proven=$med
	echo "$plain $proven" | awk '{ printf "BENCH build headroom proven 500 switches (16,000 ports) + 10000 hosts: %.2f s against %.2f s unproven (median of 5): %.3fx\n", $2, $1, ($1 > 0 ? $2 / $1 : 0) }'
	fabric 5000 100000 "$p" proven
	rm -rf "$dir/out"
	timed qosgen "$Q" build "$p" -o "$dir/out"
	echo "$proven $secs" | awk '{ printf "BENCH build headroom proven 10x fabric: %.2f s, %.1fx the time (linear: about 10x)\n", $2, ($1 > 0 ? $2 / $1 : 0) }'
	rm -rf "$dir/out" "$f" "$p"
}

if [ "$SIZES" = nics ]; then
	nics
	exit 0
fi
if [ "$SIZES" = headroom ]; then
	headroom "${3:-}"
	exit 0
fi
run 500 10000
small=$q_secs
nics
if [ "$SIZES" = both ]; then
	run 5000 100000
	echo "$small $q_secs" | awk '{ printf "BENCH build scaling 10x fabric: qosgen %.1fx the time (target <= 11x)\n", ($1 > 0 ? $2 / $1 : 0) }'
fi
