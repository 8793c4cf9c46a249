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
rc=0
for t in "$BUILD"/tests/e2e_*; do
	[ -x "$t" ] || continue
	"$t" || rc=1
done
exit $rc
