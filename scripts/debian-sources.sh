#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints this machine's apt entries for Debian 12 (bookworm, -updates,
# -security) as one-line `deb` entries, from sources.list, *.list and deb822
# *.sources alike: the archive the machine already uses, so that no script of
# the project names a host. Used by the fresh-root check (tests/fresh/run.sh)
# and by the vcsim build's private deb-src configuration (tests/vcsim/build.sh).
set -eu
suite='^bookworm(-updates|-security)?$'
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	awk -v suite="$suite" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ suite) { print; next } }' "$f"
done
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk -v suite="$suite" '
	function flush(   n, m, i, j, us, ss, opt) {
		if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "" && suites != "") {
			n = split(uris, us, " ")
			m = split(suites, ss, " ")
			opt = signed != "" ? "[signed-by=" signed "] " : ""
			for (i = 1; i <= n; i++)
				for (j = 1; j <= m; j++)
					if (ss[j] ~ suite)
						print "deb " opt us[i] " " ss[j] " " comps
		}
		types = uris = suites = comps = signed = enabled = ""
	}
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		key = tolower($1); sub(/:$/, "", key)
		val = $0; sub(/^[^:]*:[ \t]*/, "", val)
		if (key == "types") types = val
		else if (key == "uris") uris = val
		else if (key == "suites") suites = val
		else if (key == "components") comps = val
		else if (key == "signed-by") signed = val
		else if (key == "enabled") enabled = tolower(val)
	}
	END { flush() }' "$f"
done
