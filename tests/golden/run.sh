#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden tests. Usage: run.sh QOSGEN
#  tests/golden/<case>/intent.yaml + expected/: the build must give exactly
#    expected/ (diff -r), twice byte-identically, and `build --check` must agree.
#  tests/golden/errors/<case>/intent.yaml + expected.stderr + expected.exit
#    (+ optional args): the exact diagnostics and exit code, run from the case
#    directory; and a failing build leaves an earlier output directory as it was.
#    @SWITCH_PLATFORMS@, @HOST_PLATFORMS@ in expected.stderr: the registry's (platforms.sh).
# On a mismatch the actual output is written beside the expected one as
# *.actual (ignored by git), as aerleon does, for `diff` or review.
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
. "$here/platforms.sh"
switches=$(golden_platforms "$Q" "$tmp" switches)
hosts=$(golden_platforms "$Q" "$tmp" hosts)
[ -n "$switches" ] && [ -n "$hosts" ] || { echo "FAIL golden: qosgen lists no platforms"; exit 1; }
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

for case in "$here"/*/; do
	name=$(basename "$case")
	[ "$name" = errors ] && continue
	[ -f "$case/intent.yaml" ] || continue
	rm -rf "$tmp/a" "$tmp/b" "$case/expected.actual"
	if ! "$Q" build "$case/intent.yaml" -o "$tmp/a" >/dev/null 2>"$tmp/err"; then
		bad "$name" "build failed: $(cat "$tmp/err")"
		continue
	fi
	if ! diff -r "$case/expected" "$tmp/a" >"$tmp/diff" 2>&1; then
		cp -r "$tmp/a" "$case/expected.actual"
		bad "$name" "output differs from expected/ (see $name/expected.actual)"
		sed 's/^/  /' "$tmp/diff" | head -40
		continue
	fi
	"$Q" build "$case/intent.yaml" -o "$tmp/b" >/dev/null 2>&1
	if ! diff -r "$tmp/a" "$tmp/b" >/dev/null; then
		bad "$name" "two builds differ"
		continue
	fi
	if ! "$Q" build "$case/intent.yaml" --check -o "$case/expected" >"$tmp/check" 2>&1; then
		bad "$name" "build --check disagrees with diff -r"
		sed 's/^/  /' "$tmp/check" | head -20
		continue
	fi
	ok
done

for case in "$here"/errors/*/; do
	name=errors/$(basename "$case")
	args=""
	[ -f "$case/args" ] && args=$(cat "$case/args")
	rm -f "$case/actual.stderr"
	want=$(cat "$case/expected.exit")
	# An earlier output that a failing build must leave exactly as it was.
	rm -rf "$tmp/out"
	if [ "$want" -ne 0 ]; then
		mkdir -p "$tmp/out" && echo earlier >"$tmp/out/plan.json"
	fi
	# shellcheck disable=SC2086
	(cd "$case" && "$Q" build intent.yaml -o "$tmp/out" $args >/dev/null 2>"$tmp/stderr")
	rc=$?
	if [ "$rc" != "$want" ]; then
		cp "$tmp/stderr" "$case/actual.stderr"
		bad "$name" "exit $rc, expected $want"
		sed 's/^/  /' "$tmp/stderr" | head -10
		continue
	fi
	sed -e "s/@SWITCH_PLATFORMS@/$switches/g" -e "s/@HOST_PLATFORMS@/$hosts/g" "$case/expected.stderr" >"$tmp/expected.stderr"
	if ! cmp -s "$tmp/expected.stderr" "$tmp/stderr"; then
		cp "$tmp/stderr" "$case/actual.stderr"
		bad "$name" "stderr differs"
		diff -u "$tmp/expected.stderr" "$tmp/stderr" | sed 's/^/  /' | head -20
		continue
	fi
	if [ "$want" -ne 0 ] && { [ "$(cat "$tmp/out/plan.json")" != earlier ] ||
		[ "$(find "$tmp/out" | wc -l)" -ne 2 ]; }; then
		bad "$name" "a failed build changed the earlier output directory"
		rm -rf "$tmp/out"
		continue
	fi
	rm -rf "$tmp/out"
	ok
done
# A lossless priority move on NVUE (issue 23): `build --check` of the moved
# intent against the earlier output shows what moves and what goes back: the
# new priority on traffic class 3, whose egress buffer NVUE's RoCE mode
# reserves (RoCE page, "Change RoCE Configuration"), the old one on the
# traffic class the new one leaves (a queue of its own, issue 34), traffic
# class 3's share 70 and the six lossy classes' 5, PFC off 3; traffic class
# 3's ECN unchanged.
mv_check=$("$Q" build "$here/cumulus-priority-move/intent.yaml" --check -o "$here/cumulus-fabric/expected" 2>/dev/null)
missing=""
for line in '+nv set qos egress-queue-mapping default-global switch-priority 4 traffic-class 3' \
	'+nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 4' \
	'+nv set qos egress-scheduler default-global traffic-class 3 bw-percent 70' \
	'+nv set qos egress-scheduler default-global traffic-class 4 bw-percent 5' \
	'-nv set qos pfc default-global switch-priority 3' \
	'+nv set qos egress-scheduler default-global traffic-class 0 bw-percent 5'; do
	printf '%s\n' "$mv_check" | grep -qxF -- "$line" || missing="$missing [$line]"
done
if printf '%s\n' "$mv_check" | grep -q '^[-+]nv .*congestion-control'; then
	missing="$missing [no congestion-control change]"
fi
if [ -z "$missing" ]; then ok; else bad cumulus-priority-move-check "build --check lacks$missing"; fi
# A one-value policy change shows only the files whose device settings changed:
# an ECN threshold is the switches' (and plan.json's); every host script and the
# govc script stay byte-identical (no per-edit provenance line in them).
rm -rf "$tmp/a" "$tmp/b"
ex=$here/../../examples/rdg-vsphere.yaml
sed 's/min_kb: 150/min_kb: 160/' "$ex" >"$tmp/edited.yaml"
if ! grep -q 'min_kb: 160' "$tmp/edited.yaml"; then
	bad one-value-change "the example has no 'min_kb: 150' to edit"
elif "$Q" build "$ex" -o "$tmp/a" >/dev/null 2>&1 && "$Q" build "$tmp/edited.yaml" -o "$tmp/b" >/dev/null 2>&1; then
	changed=$(cd "$tmp/a" && find . -type f | sort | while read -r f; do
		cmp -s "$f" "$tmp/b/$f" || echo "${f#./}"
	done | tr '\n' ' ')
	case " $changed" in
	*" host/"* | *".govc.sh"*) bad one-value-change "changed beyond the switches: $changed" ;;
	*onyx/*) ok ;;
	*) bad one-value-change "no switch file changed: $changed" ;;
	esac
else
	bad one-value-change "build failed"
fi

# Issue 15, item 3: a host policy value (the MTU) shows in the file of the
# hosts' group it concerns (the Linux VFs') and in plan.json, never in the
# hosts' table, a platform's helpers or a persistence unit: on a fleet of
# 10,000 hosts it changes a handful of files.
rm -rf "$tmp/a" "$tmp/b"
sed 's/^  mtu: 9000$/  mtu: 4200/' "$ex" >"$tmp/edited.yaml"
if ! grep -q '^  mtu: 4200$' "$tmp/edited.yaml"; then
	bad one-host-value-change "the example has no '  mtu: 9000' to edit"
elif "$Q" build "$ex" -o "$tmp/a" >/dev/null 2>&1 && "$Q" build "$tmp/edited.yaml" -o "$tmp/b" >/dev/null 2>&1; then
	changed=$(cd "$tmp/a" && find . -type f | sort | while read -r f; do
		cmp -s "$f" "$tmp/b/$f" || echo "${f#./}"
	done | tr '\n' ' ')
	if [ "$changed" = "host/groups/linux-vf.sh plan.json " ]; then
		ok
	else
		bad one-host-value-change "expected host/groups/linux-vf.sh and plan.json to change, got: $changed"
	fi
else
	bad one-host-value-change "build failed"
fi

echo "$pass golden cases passed, $fail failed"
[ "$fail" -eq 0 ]
