#!/bin/sh
# SPDX-License-Identifier: MIT
# The house in layers (issue 38; docs/architecture.md): every folder of the
# code has a floor, and a file includes headers of its own folder or of
# folders below it, never above nor beside it:
#   lib 0 < model 1 < intent 2 < emit 3 < transport 4 < vsphere, verbs 5
#   < targets 6 < push 7 < cli, tools 8
# No circle of files anywhere (a file's .c and .h are one unit). The
# compiler core (lib, model, intent, emit) knows targets only through the
# table it is handed (issue 13) and names no platform as a string; no target
# includes another's header (issue 26): what targets share is in
# targets/common/. The core keeps no mutable static object (issue 38). And
# the house's measures (issue 38): no folder over 20 .c files, cli/ at most
# 1,600 lines, no file over 800 lines, no function over 100, the host
# scripts' qg_report and qg_apply defined once in templates/. Prints the
# findings and one line; exit 1 on a finding.
set -u
cd "$(dirname "$0")/../.." || exit 3
exec python3 - <<'PY'
import os, re, subprocess, sys

FLOOR = {"lib": 0, "model": 1, "intent": 2, "emit": 3, "transport": 4, "vsphere": 5,
         "verbs": 5, "targets": 6, "push": 7, "cli": 8, "tools": 8}
CORE = ("lib", "model", "intent", "emit")
PLATFORMS = re.compile(r'"(onyx|cumulus|nvue|sonic|linux|esxi)"')
files = [f for f in subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                                    "*.c", "*.h"], capture_output=True, text=True).stdout.split()
         if f.split("/")[0] in FLOOR and os.path.exists(f)]
found = []
graph = {}

def unit(path):
    return os.path.splitext(path)[0]

for f in sorted(files):
    top = f.split("/")[0]
    if top not in FLOOR:
        continue
    text = open(f, encoding="utf-8", errors="replace").read()
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            to = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            t_top = to.split("/")[0]
            if t_top not in FLOOR:
                found.append(f"{f}:{n}: includes {to}, outside every layer")
                continue
            if t_top != top and FLOOR[t_top] >= FLOOR[top]:
                where = "above" if FLOOR[t_top] > FLOOR[top] else "beside"
                found.append(f"{f}:{n}: {top}/ includes {to}, a floor {where} it")
            if top == "targets" and t_top == "targets":
                a, b = f.split("/"), to.split("/")
                if len(a) > 2 and len(b) > 2 and a[1] != b[1] and b[1] != "common":
                    found.append(f"{f}:{n}: a target includes another's header {to}")
            if unit(to) != unit(f):
                graph.setdefault(unit(f), set()).add(unit(to))
        if top in CORE and PLATFORMS.search(line) and not line.lstrip().startswith(("*", "/*")):
            found.append(f"{f}:{n}: the core names a platform: {line.strip()}")

# Circles of files: Tarjan's strongly connected components over the units.
index, low, stack, on, comps = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in sorted(graph.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
for v in sorted(graph):
    if v not in index:
        visit(v)
for c in comps:
    found.append("a circle of files: " + " ".join(c))

# No mutable state of the process in the core (issue 38): a `static` object
# there is const (the pointer too, for a pointer), so that two models in one
# process, a fuzzer's many, share nothing. The one exception: a signal
# handler may set nothing but a static volatile sig_atomic_t (C11 7.14.1.1),
# emit/outdir.c's flags for a build stopped by a signal.
STATIC_OK = {("emit/outdir.c", "stop"), ("emit/outdir.c", "busy")}
for f in sorted(files):
    if f.split("/")[0] not in CORE:
        continue
    text = open(f, encoding="utf-8", errors="replace").read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if not re.match(r"static\b", s):
            continue
        head = re.split(r"[=;{]", s)[0]
        paren = head.find("(")
        if paren >= 0 and not head[paren + 1:].lstrip().startswith("*"):
            continue  # a function (a pointer to one is an object)
        names = re.findall(r"(\w+)\s*(?:\[[^]]*\])*\s*(?:,|$)", head)
        last_star = head.rfind("*")
        const = re.search(r"\bconst\b", head[last_star + 1:] if last_star >= 0 else head)
        if const or (names and all((f, x) in STATIC_OK for x in names)):
            continue
        found.append(f"{f}:{n}: mutable static state in the core: {s}")

# The house's measures (issue 38, "Done when"): no folder of code holds more
# than 20 .c files, cli/ at most 1,600 lines, no file over 800 lines, no
# function over 100 lines (from a column-0 "{" to its column-0 "}", the
# house's brace style), and the host scripts' qg_report and qg_apply defined
# once, in templates/.
by_folder = {}
for f in files:
    by_folder.setdefault(os.path.dirname(f), []).append(f)
for d, fs in sorted(by_folder.items()):
    n_c = sum(1 for f in fs if f.endswith(".c"))
    if n_c > 20:
        found.append(f"{d}/: {n_c} .c files, more than 20")
cli_lines = sum(open(f).read().count("\n") for f in files if f.startswith("cli/"))
if cli_lines > 1600:
    found.append(f"cli/: {cli_lines} lines, more than 1,600")
longest = 0
for f in files:
    text = open(f, encoding="utf-8", errors="replace").read().split("\n")
    if len(text) - 1 > 800:
        found.append(f"{f}: {len(text) - 1} lines, more than 800")
    start = None
    for n, line in enumerate(text, 1):
        if line.startswith("{"):
            start = n
        elif line.startswith("}") and start is not None:
            longest = max(longest, n - start - 1)
            if n - start - 1 > 100:
                found.append(f"{f}:{start}: a function of {n - start - 1} lines, more than 100")
            start = None
for fn in ("qg_report", "qg_apply"):
    defs = subprocess.run(["grep", "-rlE", rf"^\s*{fn}\s*\(\)", "templates"],
                          capture_output=True, text=True).stdout.split()
    count = sum(int(subprocess.run(["grep", "-cE", rf"^\s*{fn}\s*\(\)", t], capture_output=True,
                                   text=True).stdout or 0) for t in defs)
    if count != 1:
        found.append(f"templates/: {fn}() defined {count} times, not once")

for line in found:
    print(line)
if found:
    print(f"layers: {len(found)} findings (above)")
    sys.exit(1)
print(f"layers: {len(files)} files on {len(set(f.split('/')[0] for f in files))} floors, "
      "each including only its own folder or those below it; no circle of files; "
      "the core names no platform and keeps no mutable static; no target includes another's header; "
      f"no folder over 20 .c files, cli/ {cli_lines} lines (at most 1,600), no file over 800 lines, "
      f"the longest function {longest} lines (at most 100), qg_report and qg_apply once in templates/")
PY
