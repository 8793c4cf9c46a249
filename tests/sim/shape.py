# SPDX-License-Identifier: MIT
"""Compare the shape of two JSON documents: keys, nesting, list lengths and
value types, not values. Used to hold the Onyx simulator's json-print output
to the real captures in shared/fixtures/onyx. Usage: shape.py FIXTURE ACTUAL"""
import json
import sys


def shape(v):
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(x) for x in v]
    return type(v).__name__


def main():
    want = shape(json.load(open(sys.argv[1])))
    # The simulator's reply may carry the prompt of the line before it.
    text = open(sys.argv[2]).read()
    start = min(i for i in (text.find("{"), text.find("[")) if i >= 0)
    got = shape(json.loads(text[start:]))
    if want != got:
        print("shape differs:\n  fixture: %s\n  sim:     %s" % (json.dumps(want)[:400], json.dumps(got)[:400]))
        return 1
    return 0


sys.exit(main())
