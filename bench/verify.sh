#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/verify: qosgen probe and ib_write_bw (perftest 4.5) on the same
# soft-RoCE link in the same VM run, same size and iterations; prints both
# and the ratio (target: qosgen >= 0.97x perftest). Usage: bench/verify.sh BUILD
set -u
BUILD=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(sh "$top/tests/vm/run.sh" "$BUILD" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(BENCH|TIMING)'
[ $rc -eq 0 ] || printf '%s\n' "$out" | grep -E 'FAIL' | head
exit $rc
