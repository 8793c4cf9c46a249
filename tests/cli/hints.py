#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""List the options qosgen's messages name as advice, and the commands that can print them.

Usage: hints.py TOP
Prints "FILE COMMAND --OPTION" per hint: "..., or --ask-password", "or pass
--accept-new", "give its CA with --ca-file", "(--timeout)" in a C string of
the device side (transport/, targets/, vsphere/), adjacent literals joined as
the compiler joins them, comments left out; "qosgen diff --running-config"
names its command. A message of transport/ssh.c can reach diff, push and
verify; every other file's, diff and push (verify reaches hosts over SSH
only). tests/cli/run.sh tries each option on each command (issue 25, item 1:
diff's "set QOSGEN_NVUE_PASSWORD, or --ask-password" named an option diff
did not take).
"""
import pathlib
import re
import sys

HINT = re.compile(r"(?:\bqosgen (diff|push|verify) |(?:\bor|\bpass|\bwith) |\()(--[a-z][a-z-]*)")


def literals(text):
    """The string literals of C source text, adjacent ones joined."""
    out, i, n = [], 0, len(text)
    joining = False  # only blanks and comments since the last literal ended
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif c == "'":
            i += 1
            while i < n and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
            i += 1
            joining = False
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            s = text[i + 1 : j]
            if joining:
                out[-1] += s
            else:
                out.append(s)
            joining = True
            i = j + 1
        else:
            if not c.isspace():
                joining = False
            i += 1
    return out


def main():
    top = pathlib.Path(sys.argv[1])
    files = sorted(top.glob("transport/*.c")) + sorted(top.glob("targets/**/*.c"))
    files += sorted(top.glob("vsphere/*.c"))
    for f in files:
        cmds = ["diff", "push", "verify"] if f.name == "ssh.c" else ["diff", "push"]
        for s in literals(f.read_text()):
            for m in HINT.finditer(s):
                for c in [m.group(1)] if m.group(1) else cmds:
                    print(f.relative_to(top), c, m.group(2))


main()
