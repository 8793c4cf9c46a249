#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs shellcheck at warning level on every shell script: the repository's own
# (every *.sh and every file with a sh or bash #! line) and every script
# qosgen generates for the golden cases, the examples and tests/scripts'
# intent (host scripts, each as the three files a host runs as one, govc
# scripts, and the NVUE command files, which are lines a shell runs). Sourced files declare their shell (issue 17, item 9).
# Usage: shellcheck.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
if ! command -v shellcheck >/dev/null 2>&1; then
	echo "FAIL shellcheck not installed ('make setup' installs it)"
	exit 1
fi
pass=0
fail=0
check() { # LABEL SHELLCHECK-ARGS...: one file, its findings printed on failure
	label=$1
	shift
	if out=$(shellcheck -x -S warning "$@" 2>&1); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $label"
		printf '%s\n' "$out" | sed 's/^/    /' | head -40
	fi
}

# The repository's scripts, outside what builds and tests write.
find . \( -name .git -o -name build -o -name out -o -name demo-out -o -path '*/expected' \) -prune -o \
	-type f -print | sort >"$tmp/files"
own=0
while IFS= read -r f; do
	case $f in
	*.sh) ;;
	*.in | *.md | *.c | *.h | *.py | *.yaml | *.json) continue ;;
	*) head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*/(env )?(ba|da)?sh( |$)' || continue ;;
	esac
	own=$((own + 1))
	check "$f" "$f"
done <"$tmp/files"

# What qosgen writes, built now by the binary under test.
gen=0
for intent in tests/golden/*/intent.yaml examples/*.yaml tests/scripts/intent.yaml; do
	name=$(basename "$(dirname "$intent")")-$(basename "$intent" .yaml)
	if ! "$Q" build "$intent" -o "$tmp/$name" >/dev/null 2>"$tmp/err"; then
		fail=$((fail + 1))
		echo "FAIL build $intent: $(cat "$tmp/err")"
		continue
	fi
	# A host's script is three parts run as one: the platform's helpers, the
	# host's line of host/hosts/PLATFORM.sh and the body of the group it names,
	# checked as the host runs it.
	for tab in "$tmp/$name"/host/hosts/*.sh; do
		[ -f "$tab" ] || continue
		platform=$(basename "$tab" .sh)
		while IFS= read -r row; do
			h=$(printf '%s\n' "$row" | sed -n "s/^qg_host='\([^']*\)' .*/\1/p")
			[ -n "$h" ] || continue
			g=$(printf '%s\n' "$row" | sed -n "s/^qg_host='[^']*' qg_group='\([^']*\)'.*/\1/p")
			if ! { cat "$tmp/$name/host/lib/$platform.sh" && printf '%s\n' "$row" &&
				cat "$tmp/$name/host/groups/$g.sh"; } >"$tmp/$name-$h.sh"; then
				fail=$((fail + 1))
				echo "FAIL $intent: host $h's line names no group's file ($g)"
				continue
			fi
			gen=$((gen + 1))
			check "$intent: host $h (host/lib/$platform.sh, its line, host/groups/$g.sh)" "$tmp/$name-$h.sh"
		done <"$tab"
	done
	for f in "$tmp/$name"/dvs/*.govc.sh; do
		[ -f "$f" ] || continue
		gen=$((gen + 1))
		check "$intent: ${f#"$tmp/$name/"}" "$f"
	done
	for f in "$tmp/$name"/nvue/*.nv; do
		[ -f "$f" ] || continue
		gen=$((gen + 1))
		check "$intent: ${f#"$tmp/$name/"}" -s sh "$f"
	done
done

echo "$pass scripts clean ($own of the repository, $gen generated), $fail with findings"
[ "$fail" -eq 0 ]
