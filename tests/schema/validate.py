#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates intents against docs/intent.schema.json with python3-jsonschema
(draft-07) and the error goldens by cases.txt's kinds. Prints one line per
finding and, last, "schema: N checked, N failed"; exit 1 on a finding.

usage: validate.py SCHEMA CASES ERRORS_DIR VALID_INTENT...
"""
import json
import os
import sys

import jsonschema
import yaml


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def main():
    schema_path, cases_path, errors_dir = sys.argv[1:4]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    checked = failed = 0

    def finding(msg):
        nonlocal failed
        failed += 1
        print("FAIL " + msg)

    for path in sys.argv[4:]:
        checked += 1
        errs = list(validator.iter_errors(load(path)))
        for e in errs[:3]:
            finding("%s: %s: %s" % (path, "/".join(map(str, e.absolute_path)), e.message))

    kinds = {}
    with open(cases_path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, kind = line.split()[:2]
            if kind not in ("schema", "semantic", "yaml", "cli"):
                finding("%s: unknown kind %s" % (name, kind))
            if kind != "schema" and len(line.split()) < 3:
                finding("%s: a %s case says why the schema does not refuse it" % (name, kind))
            if name in kinds:
                finding("%s: listed twice in %s" % (name, cases_path))
            kinds[name] = kind
    cases = sorted(d for d in os.listdir(errors_dir)
                   if os.path.isdir(os.path.join(errors_dir, d)))
    for name in cases:
        if name not in kinds:
            finding("%s: error golden not in %s (schema, semantic, yaml or cli?)"
                    % (name, cases_path))
    for name, kind in sorted(kinds.items()):
        if name not in cases:
            finding("%s: in %s but not in %s" % (name, cases_path, errors_dir))
            continue
        if kind not in ("schema", "semantic"):
            continue
        checked += 1
        path = os.path.join(errors_dir, name, "intent.yaml")
        errs = list(validator.iter_errors(load(path)))
        if kind == "schema" and not errs:
            finding("%s: a schema error the schema accepts" % path)
        if kind == "semantic" and errs:
            finding("%s: listed as semantic but the schema refuses it: %s"
                    % (path, errs[0].message))
    print("schema: %d checked, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
