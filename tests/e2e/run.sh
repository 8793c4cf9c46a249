#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end tests over a real OpenSSH sshd on 127.0.0.1. Starts the sshd,
# runs each e2e binary of BUILD against it, stops the sshd by its PID.
# Usage: run.sh BUILD
set -u
BUILD=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
cleanup() {
	sh "$here/sshd.sh" stop "$dir"
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
if ! sh "$here/sshd.sh" start "$dir"; then
	echo "FAIL e2e: cannot start a test sshd (needs openssh-server; 'make setup')"
	exit 1
fi
export QG_SSHD_DIR="$dir"
USER=${USER:-$(id -un)}
export USER
# The fault-injection shim the parallel-login test needs (see its source).
shim=$(cd "$BUILD" && pwd)/tests/slow_pub_write.so
if [ ! -f "$shim" ]; then
	echo "FAIL e2e: $shim is not built ('make test' builds it)"
	exit 1
fi
rc=0
for t in "$BUILD"/tests/e2e_*; do
	[ -x "$t" ] || continue
	# ASan wants to come first among preloaded libraries; the shim only wraps
	# fopen/fclose and passes every call on.
	LD_PRELOAD=$shim ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$t" || rc=1
done
exit $rc
