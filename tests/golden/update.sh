#!/bin/sh
# SPDX-License-Identifier: MIT
# `make golden-update`: rewrite every expected file from the current build,
# for review in the commit (git diff tests/golden). Usage: update.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for case in "$here"/*/; do
	[ "$(basename "$case")" = errors ] && continue
	[ -f "$case/intent.yaml" ] || continue
	rm -rf "$case/expected" "$case/expected.actual"
	"$Q" build "$case/intent.yaml" -o "$case/expected" >/dev/null || echo "update: $case failed"
done
for case in "$here"/errors/*/; do
	args=""
	[ -f "$case/args" ] && args=$(cat "$case/args")
	# shellcheck disable=SC2086
	(cd "$case" && "$Q" build intent.yaml -o "$tmp/out" $args >/dev/null 2>expected.stderr)
	echo $? >"$case/expected.exit"
	rm -rf "$tmp/out"
	rm -f "$case/actual.stderr"
done
echo "golden files rewritten; review them with: git diff tests/golden"
