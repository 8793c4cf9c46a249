#!/bin/sh
# SPDX-License-Identifier: MIT
# `make golden-update`: rewrite every expected file from the current build,
# for review in the commit (git diff tests/golden). Usage: update.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$here/platforms.sh"
switches=$(golden_platforms "$Q" "$tmp" switches)
hosts=$(golden_platforms "$Q" "$tmp" hosts)
[ -n "$switches" ] && [ -n "$hosts" ] || { echo "update: qosgen lists no platforms"; exit 1; }
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
	(cd "$case" && "$Q" build intent.yaml -o "$tmp/out" $args >/dev/null 2>"$tmp/stderr")
	echo $? >"$case/expected.exit"
	# The registry's list is not pinned (platforms.sh).
	sed -e "s/: $switches\( (\|$\)/: @SWITCH_PLATFORMS@\1/" \
		-e "s/: $hosts\( (\|$\)/: @HOST_PLATFORMS@\1/" "$tmp/stderr" >"$case/expected.stderr"
	rm -rf "$tmp/out"
	rm -f "$case/actual.stderr"
done
echo "golden files rewritten; review them with: git diff tests/golden"
