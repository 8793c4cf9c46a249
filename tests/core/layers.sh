#!/bin/sh
# SPDX-License-Identifier: MIT
# The compiler core knows targets only through the table it is handed
# (issue 13): nothing in gen/ includes a header from outside gen/, and no
# platform's name appears there as a string. test_core_only.c proves the
# link; this proves the source. And no target includes another's header
# (issue 26): what two targets share lives in targets/common/. Prints one
# line; exit 1 on a finding.
set -u
cd "$(dirname "$0")/../.." || exit 3
found=$(grep -n '#include "\.\./' gen/*.c gen/*.h;
	grep -n -E '"(onyx|cumulus|nvue|sonic|linux|esxi)"' gen/*.c gen/*.h;
	grep -n '#include "\.\./[a-z_]*/' targets/*/*.c targets/*/*.h | grep -v '"\.\./common/')
if [ -n "$found" ]; then
	printf '%s\n' "$found"
	echo "layers: gen/ names a target, or a target includes another's header (above)"
	exit 1
fi
echo "layers: gen/ includes no target header and names no platform; no target includes another's"
