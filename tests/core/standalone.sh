#!/bin/sh
# SPDX-License-Identifier: MIT
# The repository stands alone (issue 39): a clone has nothing beside it, so
# no tracked file that runs (tests/, scripts/, bench/, tools/, .ci/, the
# Makefile; documentation aside) reads ../shared, in any spelling: what a
# test needs is under tests/ (tests/fixtures/README.md gives each file's
# source). The one exception is the documented default place of SONiC's YANG
# models, which the repository cannot carry: tests/sonic/models.sh and
# tests/sim/sonic_sim.py's models_dir(). Prints one line; exit 1 on a finding.
set -u
cd "$(dirname "$0")/../.." || exit 3
# The spellings: a path through ../shared (shell, C), and Python's join of
# ".." and "shared". Built here so that this file does not name itself.
dots='\.\.'
pattern="$dots/shared|\"$dots\", *\"shared\""
# Every file there, tracked or not, but what builds and runs write.
found=$(find tests scripts bench tools .ci Makefile \( -name build -o -name out -o -name demo-out \
	-o -name sim-fabric \) -prune -o -type f ! -name '*.md' -print 2>/dev/null | LC_ALL=C sort |
	grep -v -e '^tests/sonic/models\.sh$' -e '^tests/sim/sonic_sim\.py$' -e '^tests/core/standalone\.sh$' |
	tr '\n' '\0' | xargs -0 grep -I -n -E "$pattern" /dev/null)
if [ -n "$found" ]; then
	printf '%s\n' "$found"
	echo "standalone: the files above read ../shared: copy what they need into tests/fixtures/ with its source"
	exit 1
fi
echo "standalone: no file that runs reads ../shared (SONiC's YANG models aside: tests/sonic/models.sh)"
