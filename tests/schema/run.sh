#!/bin/sh
# SPDX-License-Identifier: MIT
# The intent's JSON Schema (issue 26, part 3): docs/intent.schema.json and the
# man page's key list are what the key table gives (build/tools/intent-schema),
# every example and golden intent validates against the schema with a real
# validator (python3-jsonschema, draft-07), and the error goldens that are
# schema errors (tests/schema/cases.txt) are refused by it, the semantic ones
# accepted. Prints one line per finding and, last, a summary; exit 1 on one.
set -u
BUILD=${1:-build}
cd "$(dirname "$0")/../.." || exit 3
tool=$BUILD/tools/intent-schema
[ -x "$tool" ] || { echo "schema: $tool not built ('make all')"; exit 1; }
rc=0
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
"$tool" >"$tmp/schema.json" || rc=1
if ! cmp -s "$tmp/schema.json" docs/intent.schema.json; then
	echo "FAIL docs/intent.schema.json is not what the key table gives: $tool >docs/intent.schema.json"
	diff -u docs/intent.schema.json "$tmp/schema.json" | head -20 | sed 's/^/    /'
	rc=1
fi
"$tool" --man >"$tmp/keys.man" || rc=1
sed -n '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/p' docs/qosgen.1 | sed '1d;$d' >"$tmp/keys.doc"
if ! cmp -s "$tmp/keys.man" "$tmp/keys.doc"; then
	echo "FAIL docs/qosgen.1's key list (between BEGIN KEYS and END KEYS) is not $tool --man's"
	diff -u "$tmp/keys.doc" "$tmp/keys.man" | head -20 | sed 's/^/    /'
	rc=1
fi
python3 tests/schema/validate.py docs/intent.schema.json tests/schema/cases.txt \
	tests/golden/errors examples/*.yaml tests/golden/*/intent.yaml || rc=1
exit $rc
