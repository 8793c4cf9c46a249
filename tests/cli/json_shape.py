#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Check one qosgen --json output against docs/json.schema.json.

Usage: json_shape.py SCHEMA COMMAND OUTPUT EXIT [ran|invalid]
  ran      the command got past the intent: its array and summary are there
  invalid  the intent was refused: diagnostics hold an error, no array
The schema is a subset of JSON Schema (type, const, enum, required,
properties, additionalProperties, items, $ref, allOf; a property schema of
false forbids the property), so no library is needed.
"""
import json
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def check(schema, value, where, root, errors):
    if schema is False:
        errors.append(f"{where}: not allowed here")
        return
    if "$ref" in schema:
        ref = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            ref = ref[part]
        check(ref, value, where, root, errors)
    for sub in schema.get("allOf", []):
        check(sub, value, where, root, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            errors.append(f"{where}: {json.dumps(value)[:60]} is not {'/'.join(types)}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing '{key}'")
        for key, v in value.items():
            if key in props:
                check(props[key], v, f"{where}.{key}", root, errors)
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unknown key '{key}'")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            check(schema["items"], v, f"{where}[{i}]", root, errors)


def main():
    schema_path, command, output, exit_code, mode = sys.argv[1:6]
    root = json.load(open(schema_path))
    text = open(output).read()
    try:
        doc = json.loads(text)  # the whole of stdout is one JSON document
    except ValueError as e:
        print(f"stdout is not one JSON document: {e}: {text[:200]!r}")
        return 1
    errors = []
    check(root["commands"][command], doc, command, root, errors)
    if not isinstance(doc, dict):
        for e in errors:
            print(e)
        return 1
    if doc.get("exit") != int(exit_code):
        errors.append(f"exit says {doc.get('exit')}, the process exited {exit_code}")
    if doc.get("ok") != (int(exit_code) == 0):
        errors.append(f"ok is {doc.get('ok')} for exit {exit_code}")
    payload = root["payload"][command]
    if mode == "ran":
        for key in (payload, "summary"):
            if key not in doc:
                errors.append(f"{command}: missing '{key}' though the command ran")
        if doc.get("fabric") is None or doc.get("intent_sha256") is None:
            errors.append(f"{command}: no fabric or intent_sha256 for a valid intent")
    else:
        if payload in doc:
            errors.append(f"{command}: '{payload}' present for a refused intent")
        if not any(d.get("severity") == "error" for d in doc.get("diagnostics", [])):
            errors.append(f"{command}: a refused intent with no error in diagnostics")
    for e in errors:
        print(e)
    return 1 if errors else 0


sys.exit(main())
