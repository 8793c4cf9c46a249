#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 26: adding a target is its folder and one registry line. In a copy
# of the tree, add targets/skeleton/ (from tests/core/skeleton/: a switch
# target that declares no feature) and its line in targets/registry.c; prove
# by git's diff in the copy that nothing else changed; build; run the unit
# (with layers) and golden suites there; regenerate the schema and the man
# page's key list (`make schema`) and run the schema suite there; then build an intent that gives
# every feature for a skeleton switch: each is reported once, as ignored by
# skeleton, under its warning name. Prints one line per check and, last,
# "skeleton: N checks passed, N failed".
# Usage: skeleton.sh [BUILD] (BUILD's objects are copied too: only what the
# new target touches is rebuilt).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
tree=$tmp/tree
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }
finish() {
	echo "skeleton: $pass checks passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# The tree as it is, committed or not (but nothing git ignores).
mkdir -p "$tree"
(cd "$top" && { git ls-files -z && git ls-files -z --others --exclude-standard; } |
	cpio -0pdm --quiet "$tree" 2>/dev/null)
if [ -d "$top/$BUILD" ]; then
	mkdir -p "$tree/build"
	(cd "$top/$BUILD" && tar cf - --exclude=./asan --exclude=./fuzz .) | (cd "$tree/build" && tar xf -)
fi
cd "$tree" || exit 3
git init -q . && git add -A && git -c user.name=skeleton -c user.email=skeleton@localhost \
	commit -qm base || { bad copy "git in the copy failed"; finish; }

# The target: its folder and one line.
mkdir targets/skeleton
cp "$top/tests/core/skeleton/skeleton.c" "$top/tests/core/skeleton/skeleton.h" targets/skeleton/
awk '/a new target: its line above this one/ { printf "\tX(skeleton) \\\n" } { print }' \
	targets/registry.c >"$tmp/registry.c" && cat "$tmp/registry.c" >targets/registry.c
changed=$(git status --porcelain | tr '\n' ';')
lines=$(git diff --numstat | tr '\t' ' ')
if [ "$changed" = " M targets/registry.c;?? targets/skeleton/;" ] &&
	[ "$lines" = "1 0 targets/registry.c" ]; then
	ok "diff: targets/skeleton/ and one registry line"
else
	bad diff "the copy changed more: $changed $lines"
fi

# Its own two jobs, outside the jobserver of a make that runs this test (make
# test's): given -j2 inside one, make warns, and a warning fails the build here.
if MAKEFLAGS='' make -j2 all unit BUILD=build >"$tmp/make.log" 2>&1 && ! grep -q 'warning:' "$tmp/make.log"; then
	ok build
else
	bad build "$(grep -E 'error|warning:' "$tmp/make.log" | head -5)"
	finish
fi
for kind in unit golden; do
	# Each suite's line without its time at the end ("[N s, cpu N s]").
	if out=$(QG_ONLY=$kind sh tests/run.sh build 2>&1); then
		out=$(printf '%s\n' "$out" | sed 's/ \[[0-9]* s, cpu [0-9.]* s\]$//')
		# unit: its binaries and their tests, and layers; golden: its own tally.
		tests=$(printf '%s\n' "$out" | sed -n 's/^PASS unit.* (\([0-9]*\) tests)$/\1/p' |
			awk '{ s += $1 } END { print s + 0 }')
		if [ "$kind" = unit ]; then
			ok "unit: $(printf '%s\n' "$out" | grep -c '^PASS') suites, $tests tests"
		else
			ok "golden: $(printf '%s\n' "$out" | sed -n 's/^PASS golden (\(.*\))$/\1/p')"
		fi
	else
		bad "$kind" "$(printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -10)"
	fi
done

# The schema: `make schema` regenerates docs/intent.schema.json and the man
# page's key list with the skeleton in them (docs/targets.md: a new target
# commits both), and the schema suite passes on them; the skeleton is one of
# the schema's switch platforms.
if make schema BUILD=build >"$tmp/schema.log" 2>&1; then
	ok "make schema"
else
	bad "make schema" "$(tail -5 "$tmp/schema.log")"
fi
if out=$(sh tests/schema/run.sh build 2>&1); then
	ok "$(printf '%s\n' "$out" | tail -n 1)"
else
	bad schema "$(printf '%s\n' "$out" | grep -E '^(FAIL|    )' | head -10)"
fi
platforms=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        p = o.get("properties", {}).get("switches")
        if p is not None:
            return p["items"]["properties"]["platform"]["enum"]
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    return None
print(" ".join(find(s) or []))' docs/intent.schema.json 2>&1)
case " $platforms " in
*" skeleton "*) ok "schema: skeleton among the switch platforms ($platforms)" ;;
*) bad "schema platforms" "skeleton not among the switch platforms: $platforms" ;;
esac

# Every feature, given for a skeleton switch.
cat >"$tmp/sk.yaml" <<'YAML'
version: 1
fabric: sk
qos:
  trust: pcp
  lossless: {priority: 3, traffic_class: 4, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}
  cnp: {priority: 6, dscp: 48, ets: strict}
  pfc_watchdog: {restoration_ms: 400}
switches:
  - {name: sk1, platform: skeleton, address: sk1.example.net, ports: [port1, port2], cable_length_m: 5,
     roles: {spines: {ports: port2, ecn: {min_kb: 300, max_kb: 3000}}}}
YAML
if build/qosgen build "$tmp/sk.yaml" -o "$tmp/out" >/dev/null 2>"$tmp/err" &&
	[ "$(cat "$tmp/out/skeleton/sk1.txt")" = "$(printf 'port1 mtu 9216\nport2 mtu 9216')" ]; then
	ok "build with a skeleton switch"
else
	bad "build with a skeleton switch" "$(cat "$tmp/err")"
fi
# The features, as qosgen names them for acknowledge; restoration_ms is
# under pfc_watchdog, which the skeleton lacks too: that one warning covers it;
# a role's ecn is under qos.lossless.ecn, likewise.
printf 'acknowledge: [zz-none]\n' | cat "$tmp/sk.yaml" - >"$tmp/ack.yaml"
features=$(build/qosgen check "$tmp/ack.yaml" 2>&1 |
	sed -n 's/.*ignored-by-<platform>-<feature> (<feature>: \([^)]*\)).*/\1/p' | head -n 1 |
	sed 's/, /\n/g' | grep -v -e '^pfc-watchdog-restoration$' -e '^role-ecn$')
[ -n "$features" ] || bad features "qosgen lists no features"
n=0
for f in $features; do
	n=$((n + 1))
	got=$(grep -c ": ignored by skeleton: .* \[ignored-by-skeleton-$f\]$" "$tmp/err")
	if [ "$got" -eq 1 ]; then
		ok "feature $f: ignored by skeleton, once"
	else
		bad "feature $f" "$got warnings [ignored-by-skeleton-$f]"
	fi
done
all=$(grep -c 'ignored by skeleton' "$tmp/err")
if [ "$all" -eq "$n" ]; then ok "$n features, $all warnings"; else bad count "$n features, $all warnings"; fi
finish
