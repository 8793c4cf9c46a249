#!/bin/sh
# SPDX-License-Identifier: MIT
# The man page against the tool (issue 17, item 6): for every command the
# binary lists, the options of `qosgen help CMD` (usage and help text) and the
# options of the man page's SYNOPSIS line for CMD must be the same set, every
# one of them must be accepted by the parser (not "unknown option"), and each
# must be described under OPTIONS or in the command's COMMANDS entry.
# Usage: manpage.sh QOSGEN; prints FAIL lines and "N man page checks passed, N failed".
set -u
Q=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/docs/qosgen.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
# roff to text: \- is -, font escapes and requests' names dropped.
roff() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/^\.[A-Z][A-Z]* *//'; }
opts() { grep -oE -- '(^|[^a-zA-Z0-9-])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[^-]*//' | grep -vxE -- '-(h|-help)' | sort -u; }
# The SYNOPSIS lines of one command: from ".B qosgen CMD" to the next .br.
synopsis() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" | awk -v c="$1" '
		$0 == ".B qosgen " c { on = 1; next }
		on && /^\.br/ { on = 0 }
		on' | roff
}
section() { sed -n "/^\\.SH $1/,/^\\.SH /p" "$man" | roff; }
cmds=$("$Q" --help | sed -n 's/^  qosgen \([a-z]*\).*/\1/p')
[ -n "$cmds" ]
check command-list $? "no commands in qosgen --help"
for c in $cmds; do
	"$Q" help "$c" | opts >"$tmp/help"
	synopsis "$c" | opts >"$tmp/man"
	grep -q . "$tmp/man" || [ ! -s "$tmp/help" ]
	check "man-synopsis-has-$c" $? "no SYNOPSIS entry for '$c' in docs/qosgen.1"
	missing=$(comm -23 "$tmp/help" "$tmp/man" | tr '\n' ' ')
	[ -z "$missing" ]
	check "man-synopsis-$c-lacks-help-options" $? "$missing"
	extra=$(comm -13 "$tmp/help" "$tmp/man" | tr '\n' ' ')
	[ -z "$extra" ]
	check "help-$c-lacks-man-options" $? "$extra"
	# Every option is one the parser takes: never "unknown option".
	for o in $(cat "$tmp/help" "$tmp/man" | sort -u); do
		"$Q" "$c" "$o" >/dev/null 2>"$tmp/err" </dev/null
		! grep -q "unknown option" "$tmp/err"
		check "parser-$c-takes-$o" $? "$(head -1 "$tmp/err")"
	done
	# Described: in OPTIONS, or the command's own paragraph.
	for o in $(cat "$tmp/man"); do
		section 'OPTIONS' | grep -qe "$o" || section 'COMMANDS' | grep -qe "$o"
		check "man-describes-$c-$o" $? "$o is in the SYNOPSIS but described nowhere"
	done
done
echo "$pass man page checks passed, $fail failed"
[ "$fail" -eq 0 ]
