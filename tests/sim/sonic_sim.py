#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SONiC switch CLI simulator for OpenSSH's ForceCommand: a test tool, shares no code with qosgen.

Answers the commands a config-management client sends to a single-ASIC SONiC switch over
SSH: `show runningconfiguration all`, `config apply-patch`, `config checkpoint`,
`config rollback`, `config list-checkpoints`, `config delete-checkpoint`, `config save`,
with the output lines, errors and exit codes of sonic-utilities (click 8.1) and its
Generic Config Updater. A patch is applied with python3-jsonpatch (RFC 6902), the result
validated with yanglint against SONiC's own YANG models ($SONIC_YANG_DIR, converted by
tests/sonic/configdb2yang.py; without them, nothing is). What is modelled, from which
source file and commit, and what is not: tests/sim/SONIC.md.

    sonic_sim.py --state DIR init CONFIG_DB.json [--multi-asic N]   a new device
    sonic_sim.py --state DIR fault [--refuse-path P]... [--drop-apply N]
                 [--slow-apply S] [--show-unlocked] [--fail-save] [--fail-rollback]
                                                    set (or clear) faults
    sonic_sim.py --state DIR [--multi-asic N]       serve $SSH_ORIGINAL_COMMAND (ForceCommand)

The state directory may also come from $SONIC_SIM_STATE. Python 3.11 standard library,
plus Debian's python3-jsonpatch (and the python3-json-pointer it depends on).
"""

import argparse
import copy
import datetime
import fcntl
import glob
import json
import os
import posixpath
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

import jsonpatch
import jsonpointer

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def models_dir():
    """SONiC's YANG models, as tests/sonic/yang-dir.sh finds them: $SONIC_YANG_DIR, else
    the copy in ../shared beside the checkout where there is one, else None (the models
    are SONiC's code, not the project's: docs/testing.md)."""
    if os.environ.get("SONIC_YANG_DIR"):
        return os.environ["SONIC_YANG_DIR"]
    default = os.path.join(TOP, "..", "shared", "fixtures", "sonic-yang")
    return default if os.path.isfile(os.path.join(default, "sonic-port.yang")) else None


sys.path.insert(0, os.path.join(TOP, "tests", "sonic"))
sys.dont_write_bytecode = True  # no __pycache__ left in the checkout by the import
import configdb2yang as c2y  # noqa: E402  (test tooling beside this one)
import pfcwd_check  # noqa: E402  (PFC_WD from sonic-pfcwd.yang's facts: not in sonic-yang)

# configdb2yang.py covers the tables qosgen writes. A switch's running config also holds
# the other tables the models in sonic-yang define (buffers, the other maps); they are
# added to its tables here, in its own terms, rather than in that file,
# which validate.sh keeps strict for qosgen's output. Leaf types from the .yang files.
c2y.ROWS.update({
    "BUFFER_POOL": ("sonic-buffer-pool", ["name"]),
    "BUFFER_PROFILE": ("sonic-buffer-profile", ["name"]),
    "BUFFER_QUEUE": ("sonic-buffer-queue", ["port", "qindex"]),
})
c2y.MAPS.update({
    "DOT1P_TO_TC_MAP": ("sonic-dot1p-tc-map", "dot1p", "tc"),
    "TC_TO_DSCP_MAP": ("sonic-tc-dscp-map", "tc", "dscp"),
})
c2y.NUMBERS |= {("BUFFER_POOL", "percentage"), ("BUFFER_PROFILE", "dynamic_th"),
                ("DOT1P_TO_TC_MAP", "tc"), ("TC_TO_DSCP_MAP", "tc")}
_c2y_typed = c2y.typed


def _typed_or_raw(table, leaf, value):
    # A value a client sent as a JSON number, or a number that is not one, goes to
    # yanglint as it is, to be refused there: never a traceback here.
    try:
        return _c2y_typed(table, leaf, value if isinstance(value, str) else str(value))
    except ValueError:
        return value


c2y.typed = _typed_or_raw

# DEVICE_METADATA is a container table (no list), which configdb2yang does not translate;
# its typed leaves, from sonic-device_metadata.yang:
META_NUMBERS = {"bgp_asn", "deployment_id", "switch_id", "max_cores"}
META_BOOLEANS = {"frr_mgmt_framework_config", "storage_device", "bgp_adv_lo_prefix_as_128",
                 "create_only_config_db_buffers", "ring_thread_enabled",
                 "orch_northbond_dash_zmq_enabled", "syslog_with_osversion", "syslog_counter",
                 "use_template_render_for_restore"}

# Tables with a YANG model here: what the validation can translate. Anything else is what
# sonic-yang-mgmt calls a table without a YANG model (cropped, never validated).
# PFC_WD's model (sonic-pfcwd.yang) is not among the shared ones: tests/sonic/pfcwd_check.py
# judges it from that model's facts, the rest goes to yanglint.
YANG_TABLES = set(c2y.ROWS) | set(c2y.MAPS) | {"DEVICE_METADATA", "PFC_WD"}

# GCU's ChangeApplier leaves these out of its final "is ConfigDB what we wrote" check.
BACKEND_TABLES = ("BUFFER_PG", "BUFFER_PROFILE", "FLEX_COUNTER_TABLE")
# ConfigWrapper.validate_field_operation: removes GCU refuses whatever the models say.
ILLEGAL_REMOVES = ("/PFC_WD/GLOBAL/POLL_INTERVAL", "/PFC_WD/GLOBAL", "/LOOPBACK_INTERFACE/Loopback0")

SCOPE = "localhost"  # GCU's name for the host namespace (gu_common.HOST_NAMESPACE)
CHECKPOINTS_DIR = "/etc/sonic/checkpoints"
CHECKPOINT_EXT = ".cp.json"
CONFIG_DB_FILE = "/etc/sonic/config_db.json"
HOME = "/home/admin"
SONIC_CFGGEN = "/usr/local/bin/sonic-cfggen"

# What vtysh's `show running-config` adds as "bgpraw" on a single-ASIC switch. Made up
# in FRR's format: the simulator has no routing; a client has to ignore the key.
BGPRAW = ("Building configuration...\n\nCurrent configuration:\n!\nfrr version 8.5.4\n"
          "frr defaults traditional\nhostname sonic\nno service integrated-vtysh-config\n"
          "!\nrouter bgp 65100\n bgp router-id 10.1.0.32\n exit\n!\nend\n")


class Usage(Exception):
    """A click usage error: usage line, hint, 'Error: message', exit 2."""

    def __init__(self, usage, message, hint=True):
        super().__init__(message)
        self.usage, self.hint = usage, hint


class Fail(Exception):
    """An exception of GCU (GenericConfigUpdaterError, ValueError, ...): its str()."""


class Help(Exception):
    """-h, --help, -? (or a group without its command): click prints the help, exit 0.
    Only the usage line is printed here."""

    def __init__(self, usage):
        super().__init__(usage)
        self.usage = usage


def natural_key(s):
    # natsort's default order, which `config save` sorts the file by (sort_dict):
    # digits compare as numbers, so Ethernet4 comes before Ethernet12.
    parts = re.split(r"(\d+)", s)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts))


def plural(n):
    return "s" if n != 1 else ""


def atomic_write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


class Device:
    """The switch: its state directory and one session's answer (buffered, so that a
    dropped connection answers nothing at all)."""

    def __init__(self, state, multi_asic=None):
        self.state = state
        self.out_buf = []
        self.err_buf = []
        meta = self.read_json("device.json", {})
        self.multi_asic = multi_asic if multi_asic is not None else meta.get("multi_asic", 0)
        # Chosen at init: a session under sshd's ForceCommand has none of the tester's env.
        self.yang_dir = meta["yang"] if "yang" in meta else models_dir()
        self.faults = self.read_json("faults.json", {})
        self.checked = {}

    # --- files ---------------------------------------------------------------------
    def path(self, name):
        return os.path.join(self.state, name)

    def read_json(self, name, default):
        try:
            with open(self.path(name), encoding="utf-8") as f:
                return json.load(f)
        except FileNotFoundError:
            return default

    def device_path(self, path):
        """A path on the switch -> the file under STATE/fs that stands for it."""
        p = posixpath.normpath(posixpath.join(HOME, path))
        return os.path.join(self.state, "fs", p.lstrip("/"))

    def running(self):
        return self.read_json("running.json", {})

    def set_running(self, config):
        atomic_write(self.path("running.json"), json.dumps(config, indent=4) + "\n")

    def save_faults(self):
        atomic_write(self.path("faults.json"), json.dumps(self.faults, indent=4) + "\n")

    # --- output ----------------------------------------------------------------------
    def out(self, text, end="\n"):
        self.out_buf.append(text + end)

    def err(self, text):
        self.err_buf.append(text + "\n")

    def log(self, title, msg):
        # GCU's TitledLogger prints every NOTICE line to the console too (print_all_to_console).
        self.out(f"{title}: {msg}")

    def flush(self):
        sys.stdout.write("".join(self.out_buf))
        sys.stdout.flush()
        sys.stderr.write("".join(self.err_buf))
        sys.stderr.flush()

    # --- validation ------------------------------------------------------------------
    def to_yang(self, config):
        rows = {t: v for t, v in config.items() if t != "DEVICE_METADATA"}
        doc = c2y.convert(rows)
        if "DEVICE_METADATA" in config:
            meta = {}
            for key, fields in config["DEVICE_METADATA"].items():
                entry = {}
                for leaf, value in fields.items():
                    if leaf in META_NUMBERS and isinstance(value, str) and value.isdigit():
                        value = int(value)
                    elif leaf in META_BOOLEANS and value in ("true", "false"):
                        value = value == "true"
                    entry[leaf] = value
                meta[key] = entry
            doc["sonic-device_metadata:sonic-device_metadata"] = {
                "sonic-device_metadata:DEVICE_METADATA": meta}
        return doc

    def yang_check(self, config):
        """None when SONiC's models accept the tables they cover, else the error as
        sonic_yang's loadData words it after libyang-python ("failed to parse data
        tree: <libyang message>: Data path: <path> (line N)"), from yanglint's line."""
        data = copy.deepcopy({t: v for t, v in config.items() if t in YANG_TABLES and v})
        # GCU validates the same target twice (main.validate_patch, then the sorter);
        # one yanglint run answers both, as ConfigWrapper's own cache would.
        key = json.dumps(data, sort_keys=True)
        if key not in self.checked:
            self.checked[key] = self.yanglint(data)
        return self.checked[key]

    def yanglint(self, data):
        err = pfcwd_check.check(data)
        if err:
            return f"failed to parse data tree: {err[0]}: Data path: {err[1]}"
        data = {t: v for t, v in data.items() if t != "PFC_WD"}
        try:
            doc = self.to_yang(data)
        except SystemExit as e:  # configdb2yang's own refusal (a key with too many parts)
            return f"failed to parse data tree: {e.code}"
        except (AttributeError, TypeError, ValueError) as e:
            return f"failed to parse data tree: {e}"
        ydir = self.yang_dir
        if ydir is None:
            # No models here (scripts/simfabric.sh says so when it starts; tests/run.sh
            # reports the checks that need them as skipped).
            return None
        fd, tmp = tempfile.mkstemp(dir=self.state, prefix=".yang.", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
        try:
            r = subprocess.run(["yanglint", "-i", "-t", "config", "-p", ydir]
                               + sorted(glob.glob(os.path.join(ydir, "*.yang"))) + [tmp],
                               capture_output=True, text=True, check=False)
        finally:
            os.unlink(tmp)
        if r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip():
            return None
        for line in (r.stderr + r.stdout).splitlines():
            m = re.match(r'libyang err : (.*?)(?: \((Data|Schema) location "(.*?)"'
                         r'(?:, line number (\d+))?\.\))?$', line)
            if m:
                msg = "failed to parse data tree: " + m.group(1)
                if m.group(2):
                    msg += f": {m.group(2)} path: {m.group(3)}"
                if m.group(4):
                    msg += f" (line {m.group(4)})"
                return msg
        return "failed to parse data tree: " + " ".join((r.stderr + r.stdout).split())

    def tables_without_yang(self, config):
        return [t for t in config if t not in YANG_TABLES]


# --- option parsing, as click does it for these commands --------------------------------

def parse_options(argv, usage, spec, nargs_max):
    """spec: {'-d': ('dry_run', False), '-f': ('format', True), ...} with long names as
    keys too; True = takes a value. Returns (options, positional)."""
    opts, pos = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help", "-?"):
            raise Help(usage)
        if a == "--":
            pos.extend(argv[i + 1:])
            break
        if a.startswith("--"):
            name, eq, val = a.partition("=")
            if name not in spec:
                raise Usage(usage, f"No such option: {name}")
            key, takes = spec[name]
            if takes:
                if not eq:
                    i += 1
                    if i >= len(argv):
                        raise Usage(usage, f"Option '{name}' requires an argument.", hint=False)
                    val = argv[i]
                opts.setdefault(key, []).append(val)
            else:
                opts[key] = True
        elif a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                name = "-" + a[j]
                if name not in spec:
                    raise Usage(usage, f"No such option: {name}")
                key, takes = spec[name]
                if takes:
                    val = a[j + 1:]
                    if not val:
                        i += 1
                        if i >= len(argv):
                            raise Usage(usage, f"Option '{name}' requires an argument.", hint=False)
                        val = argv[i]
                    opts.setdefault(key, []).append(val)
                    break
                opts[key] = True
                j += 1
        else:
            pos.append(a)
        i += 1
    if len(pos) > nargs_max:
        extra = pos[nargs_max:]
        raise Usage(usage, "Got unexpected extra argument%s (%s)"
                    % (plural(len(extra)), " ".join(extra)))
    return opts, pos


def one_arg(usage, pos, name):
    if not pos:
        raise Usage(usage, f"Missing argument '{name}'.")
    return pos[0]


# --- GCU: the pieces of generic_config_updater that decide what a client sees ----------

def append_empty_tables(ops, config):
    """main.append_emptytables_if_required: an `add /TABLE {}` before the first op of a
    table the running config lacks."""
    ops = copy.deepcopy(ops)
    missing = set()
    for op in ops:
        parts = op["path"].strip("/").split("/")
        if parts[0].startswith("asic") or parts[0] == SCOPE:
            if len(parts) < 2:
                continue
            table = f"/{parts[0]}/{parts[1]}"
        else:
            table = f"/{parts[0]}"
        try:
            jsonpointer.resolve_pointer(config, table)
        except jsonpointer.JsonPointerException:
            missing.add(table)
    for table in sorted(missing):
        at = next((i for i, op in enumerate(ops) if op["path"].startswith(table)), len(ops))
        ops.insert(at, {"op": "add", "path": table, "value": {}})
    return ops


def patch_format_ok(patch):
    return isinstance(patch, list) and all(
        isinstance(c, dict) and "op" in c and "path" in c
        and c["op"] in ("add", "remove", "replace", "move", "copy", "test") for c in patch)


def patch_tables(ops):
    """PatchWrapper.validate_config_db_patch_has_yang_models: the tables a patch touches."""
    tables = []
    for op in ops:
        tokens = [jsonpointer.unescape(t) for t in op["path"].split("/")[1:]] if op["path"] else []
        if not tokens:
            tables.extend(op.get("value") or {})
        elif not tokens[0]:
            raise Fail("Table name in patch cannot be empty")
        else:
            tables.append(tokens[0])
    return tables


def as_redis(config):
    """What CONFIG_DB holds after a write: every field a string (ConfigDBConnector's
    typed_to_raw), lists as lists of strings, tables without rows gone."""
    out = {}
    for table, rows in config.items():
        if not isinstance(rows, dict) or not rows:
            continue
        out[table] = {}
        for key, fields in rows.items():
            if isinstance(fields, dict):
                out[table][key] = {f: [str(x) for x in v] if isinstance(v, list) else str(v)
                                   for f, v in fields.items()}
            else:
                out[table][key] = str(fields)
    return out


def path_matches(pattern, path):
    """--refuse-path: pattern and path are JSON pointers, '*' matches one segment; the
    change matches when one is a prefix of the other (segment-wise)."""
    p = pattern.strip("/").split("/")
    q = path.strip("/").split("/")
    n = min(len(p), len(q))
    return all(a == "*" or a == b for a, b in zip(p[:n], q[:n]))


class PatchApplier:
    """generic_updater.PatchApplier with its sorter: the NOTICE lines it prints, its
    checks in its order, and the write."""

    def __init__(self, dev, dry_run=False, non_yang=False, ignore_paths=()):
        self.dev, self.dry_run = dev, dry_run
        # -n or -i: GCU's NonStrictPatchSorter; neither: StrictPatchSorter.
        self.non_yang, self.ignore_paths = non_yang, list(ignore_paths)

    def log(self, msg):
        self.dev.log("Patch Applier", msg)

    def apply(self, ops, old, fail_sorting=False):
        s = SCOPE
        self.log(f"{s}: Patch application starting.")
        self.log(f"{s}: Patch: {jsonpatch.JsonPatch(ops)}")
        self.log(f"{s} getting current config db.")
        self.log(f"{s}: simulating the target full config after applying the patch.")
        try:
            target = jsonpatch.JsonPatch(ops).apply(old)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as e:
            raise Fail(str(e)) from e
        self.log(f"{s}: validating all JsonPatch operations are permitted on the specified fields")
        self.check_field_operations(old, target)
        self.log(f"{s}: validating target config does not have empty tables,\n"
                 + " " * 28 + "since they do not show up in ConfigDb.")
        empty = [t for t in target if not target[t]]
        if empty:
            pad = " " * 32
            raise Fail(f"{s}: given patch is not valid because it will result in empty tables "
                       f"{pad}which is not allowed in ConfigDb. {pad}"
                       f"Table{plural(len(empty))}: {', '.join(empty)}")
        self.log(f"{s}: sorting patch updates.")
        self.sort_checks(ops, old, target)
        if fail_sorting:
            raise Fail("There is no possible sorting")
        # GCU's sorter turns the patch into an order of smaller changes it proves valid
        # one by one; here each operation is one change.
        changes = [jsonpatch.JsonPatch([op]) for op in ops]
        n = len(changes)
        self.log(f"The {s} patch was converted into {n} change{plural(n)}{':' if n else '.'}")
        self.log(f"{s}: applying {n} change{plural(n)} in order{':' if n else '.'}")
        for c in changes:
            self.log(f"  * {c}")
            if self.dry_run:
                self.dev.log("** DryRun", f"Would apply {c}")
        written = target if self.dry_run else as_redis(target)
        self.log(f"{s}: verifying patch updates are reflected on ConfigDB.")
        expect = {t: v for t, v in target.items() if t not in BACKEND_TABLES}
        got = {t: v for t, v in written.items() if t not in BACKEND_TABLES}
        if jsonpatch.make_patch(expect, got).patch:
            # CONFIG_DB keeps strings: a value sent as a JSON number is written, then
            # reads back different, and GCU says so after the write.
            raise Fail(f"{s}: after applying patch to config, there are still some parts not updated",
                       written)
        self.log(f"{s} patch application completed.")
        return written

    def check_field_operations(self, old, target):
        diff = jsonpatch.make_patch(old, target).patch
        for field in ILLEGAL_REMOVES:
            if any(op["op"] == "remove" and op["path"] == field for op in diff):
                raise Fail("Given patch operation is invalid. Operation: remove is illegal "
                           f"on field: {field}")
        for pattern in self.dev.faults.get("refuse_path", []):
            for op in diff:
                if path_matches(pattern, op["path"]):
                    raise Fail("Given patch operation is invalid. Operation: "
                               f"{op['op']} is illegal on field: {op['path']}")

    def sort_checks(self, ops, old, target):
        dev = self.dev
        if not self.non_yang and not self.ignore_paths:
            # StrictPatchSorter
            if any(t not in YANG_TABLES for t in patch_tables(ops)):
                raise Fail("Given patch is not valid because it has changes to tables without YANG models")
            err = dev.yang_check(target)
            if err:
                raise Fail(f"Given patch will produce invalid config. Error: Data Loading Failed\n{err}")
            return
        # NonStrictPatchSorter: the ConfigSplitter takes out the tables without a model
        # (-n) and the -i paths; what is left must validate, and its patch may touch
        # only tables with a model.
        for cfg in (old, target):
            empty = [t for t in cfg if not cfg[t]]
            if empty:
                raise Fail(f"Given config has empty tables. Table{plural(len(empty))}: {', '.join(empty)}")
        current_yang, target_yang = self.yang_part(old), self.yang_part(target)
        err = dev.yang_check(target_yang)
        if err:
            raise Fail(f"Given patch will produce invalid config. Error: Data Loading Failed\n{err}")
        yang_patch = jsonpatch.make_patch(current_yang, target_yang).patch
        if any(t not in YANG_TABLES for t in patch_tables(yang_patch)):
            raise Fail("Given YANG covered config patch is not valid because it has changes "
                       "to tables without YANG models")

    def yang_part(self, config):
        part = copy.deepcopy({t: v for t, v in config.items()
                              if not self.non_yang or t in YANG_TABLES})
        for p in self.ignore_paths:
            if p == "":
                return {}
            try:
                parent, last = jsonpointer.JsonPointer(p).to_last(part)
                if isinstance(parent, dict) and last in parent:
                    del parent[last]
            except (jsonpointer.JsonPointerException, KeyError, IndexError, TypeError):
                pass
        return {t: v for t, v in part.items() if v}


# --- the commands --------------------------------------------------------------------------

CONFIG_USAGE = "Usage: config [OPTIONS] COMMAND [ARGS]..."
SHOW_USAGE = "Usage: show [OPTIONS] COMMAND [ARGS]..."


def cmd_show(dev, argv, sudo):
    if not argv or argv[0] in ("-h", "--help", "-?"):
        raise Help(SHOW_USAGE)
    if argv[0] != "runningconfiguration":
        raise Usage(SHOW_USAGE, f"No such command '{argv[0]}'.")
    usage = "Usage: show runningconfiguration [OPTIONS] COMMAND [ARGS]..."
    if len(argv) < 2 or argv[1] in ("-h", "--help", "-?"):
        raise Help(usage)
    if argv[1] != "all":
        raise Usage(usage, f"No such command '{argv[1]}'.")
    parse_options(argv[2:], "Usage: show runningconfiguration all [OPTIONS]",
                  {"--verbose": ("verbose", False)}, 0)
    running = dev.running()
    if dev.multi_asic:
        # show/main.py: {"localhost": ..., "asic0": ...}; each namespace is its own
        # CONFIG_DB on a real switch, the same one here.
        doc = {SCOPE: running}
        for n in range(dev.multi_asic):
            doc[f"asic{n}"] = copy.deepcopy(running)
    else:
        doc = dict(running)
        doc["bgpraw"] = BGPRAW
    dev.out(json.dumps(doc, indent=4))
    return 0


def read_patch_file(dev, path, stdin):
    if path == "/dev/stdin":
        return stdin.read()
    try:
        with open(dev.device_path(path), encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError as e:
        raise Fail(f"[Errno 2] No such file or directory: '{path}'") from e
    except IsADirectoryError as e:
        raise Fail(f"[Errno 21] Is a directory: '{path}'") from e


def cmd_apply_patch(dev, argv, stdin):
    usage = "Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH"
    opts, pos = parse_options(argv, usage, {
        "-f": ("format", True), "--format": ("format", True),
        "-d": ("dry_run", False), "--dry-run": ("dry_run", False),
        "-p": ("parallel", False), "--parallel": ("parallel", False),
        "-n": ("non_yang", False), "--ignore-non-yang-tables": ("non_yang", False),
        "-i": ("ignore", True), "--ignore-path": ("ignore", True),
        "-v": ("verbose", False), "--verbose": ("verbose", False),
        "-t": ("trace", True), "--path-trace": ("trace", True)}, 1)
    fmt = (opts.get("format") or ["CONFIGDB"])[-1]
    if fmt not in ("CONFIGDB", "SONICYANG"):
        raise Usage(usage, "Invalid value for '-f' / '--format': "
                    f"'{fmt}' is not one of 'CONFIGDB', 'SONICYANG'.")
    path = one_arg(usage, pos, "PATCH_FILE_PATH")
    if fmt == "SONICYANG" or opts.get("trace"):
        dev.err("sonic_sim: -f SONICYANG and -t/--path-trace are not modelled (see tests/sim/SONIC.md)")
        return 2
    dry_run = bool(opts.get("dry_run"))
    ignore = opts.get("ignore", [])
    if dry_run:
        dev.out("** DRY RUN EXECUTION **")
    try:
        text = read_patch_file(dev, path, stdin)
        try:
            patch = json.loads(text)
        except json.JSONDecodeError as e:
            raise Fail(str(e)) from e
        if not patch_format_ok(patch):
            raise Fail(f"Invalid patch format in file: {path}")
        running = dev.running()
        if dev.multi_asic:
            all_running = {SCOPE: running, **{f"asic{n}": running for n in range(dev.multi_asic)}}
            for op in append_empty_tables(patch, all_running):
                first = op["path"].strip("/").split("/")[0]
                if not (first == SCOPE or (first.startswith("asic") and first[4:].isnumeric())):
                    raise Fail(f"Multi ASIC must have namespace prefix in path: '{op['path']}'.")
            dev.err("sonic_sim: apply-patch on a multi-ASIC device is not modelled")
            return 2
        ops = append_empty_tables(patch, running)
        # main.validate_patch: the whole target config through sonic_yang, whose
        # loadData prints its notes (print_log_enabled) before GCU proper starts.
        try:
            target = jsonpatch.JsonPatch(copy.deepcopy(ops)).apply(running)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as e:
            raise Fail(f"Validate json patch: {ops} failed due to: {e}") from e
        target.pop("bgpraw", None)
        no_yang = dev.tables_without_yang(target)
        if no_yang:
            dev.out(f"sonic_yang(6):Note: Below table(s) have no YANG models: {', '.join(no_yang)}")
        err = dev.yang_check(target)
        if err:
            dev.out(f"sonic_yang(3):Data Loading Failed:{err}")
            raise Fail(f"Validate json patch: {ops} failed due to: Data Loading Failed\n{err}")
        try:
            applier = PatchApplier(dev, dry_run, bool(opts.get("non_yang")), ignore)
            written = applier.apply(ops, running)
        except Fail as e:
            if len(e.args) > 1 and not dry_run:
                dev.set_running(e.args[1])  # written, then found different
            raise Fail(f"Failed to apply patch on the following scopes:\n- {SCOPE}: {e.args[0]}") from e
        slow = float(dev.faults.get("slow_apply", 0) or 0)
        if slow > 0:
            time.sleep(slow)
        if not dry_run:
            dev.set_running(written)
            drop = int(dev.faults.get("drop_apply", 0) or 0)
            if drop:
                dev.faults["applies"] = dev.faults.get("applies", 0) + 1
                dev.save_faults()
                if dev.faults["applies"] == drop:
                    raise Dropped()
    except Fail as e:
        dev.err(f"Failed to apply patch due to: {e.args[0]}")
        raise Usage(usage, e.args[0]) from e
    dev.out("Patch applied successfully.")
    return 0


class Dropped(Exception):
    """--drop-apply: the change is made, the connection goes without an answer."""


def checkpoint_file(dev, name):
    return dev.device_path(posixpath.join(CHECKPOINTS_DIR, name + CHECKPOINT_EXT))


def checkpoint_exists(dev, name):
    return "/" not in name and os.path.isfile(checkpoint_file(dev, name))


def cmd_checkpoint(dev, argv):
    usage = "Usage: config checkpoint [OPTIONS] CHECKPOINT_NAME"
    opts, pos = parse_options(argv, usage, {"-v": ("verbose", False), "--verbose": ("verbose", False)}, 1)
    name = one_arg(usage, pos, "CHECKPOINT_NAME")
    log = lambda m: dev.log("Config Rollbacker", m)  # noqa: E731
    try:
        log("Config checkpoint starting.")
        log(f"Checkpoint name: {name}.")
        log("Getting current config db.")
        running = dev.running()
        if dev.multi_asic:
            running = {SCOPE: running, **{f"asic{n}": running for n in range(dev.multi_asic)}}
        log("Getting checkpoint full-path.")
        full = posixpath.join(CHECKPOINTS_DIR, f"{name}{CHECKPOINT_EXT}")
        log("Ensuring checkpoint directory exist.")
        log(f"Saving config db content to {full}.")
        if "/" in name:
            raise Fail(f"[Errno 2] No such file or directory: '{full}'")
        # Util.save_json_file: json.dumps without indent, one line.
        atomic_write(checkpoint_file(dev, name), json.dumps(running))
        log("Config checkpoint completed.")
    except Fail as e:
        dev.err("Failed to create a config checkpoint")
        raise Usage(usage, e.args[0]) from e
    dev.out("Checkpoint created successfully.")
    return 0


def cmd_delete_checkpoint(dev, argv):
    usage = "Usage: config delete-checkpoint [OPTIONS] CHECKPOINT_NAME"
    opts, pos = parse_options(argv, usage, {"-v": ("verbose", False), "--verbose": ("verbose", False)}, 1)
    name = one_arg(usage, pos, "CHECKPOINT_NAME")
    log = lambda m: dev.log("Config Rollbacker", m)  # noqa: E731
    try:
        log("Deleting checkpoint starting.")
        log(f"Checkpoint name: {name}.")
        log("Checking checkpoint exists.")
        if not checkpoint_exists(dev, name):
            raise Fail(f"Checkpoint '{name}' does not exist")
        log("Deleting checkpoint.")
        os.unlink(checkpoint_file(dev, name))
        log("Deleting checkpoint completed.")
    except Fail as e:
        dev.err("Failed to delete config checkpoint")
        raise Usage(usage, e.args[0]) from e
    dev.out("Checkpoint deleted successfully.")
    return 0


def cmd_list_checkpoints(dev, argv):
    usage = "Usage: config list-checkpoints [OPTIONS]"
    opts, _ = parse_options(argv, usage, {"-t": ("time", False), "--time": ("time", False),
                                          "-v": ("verbose", False), "--verbose": ("verbose", False)}, 0)
    d = dev.device_path(CHECKPOINTS_DIR)
    names = sorted(f[:-len(CHECKPOINT_EXT)] for f in os.listdir(d)
                   if f.endswith(CHECKPOINT_EXT)) if os.path.isdir(d) else []
    if opts.get("time"):
        items = []
        for n in names:
            t = os.path.getmtime(os.path.join(d, n + CHECKPOINT_EXT))
            items.append({"name": n, "time": datetime.datetime.fromtimestamp(
                t, tz=datetime.timezone.utc).isoformat()})
        items.sort(key=lambda x: x["time"], reverse=True)
        dev.out(json.dumps(items, indent=4))
    else:
        dev.out(json.dumps(names, indent=4))
    return 0


def cmd_rollback(dev, argv):
    usage = "Usage: config rollback [OPTIONS] CHECKPOINT_NAME"
    opts, pos = parse_options(argv, usage, {
        "-d": ("dry_run", False), "--dry-run": ("dry_run", False),
        "-n": ("non_yang", False), "--ignore-non-yang-tables": ("non_yang", False),
        "-i": ("ignore", True), "--ignore-path": ("ignore", True),
        "-v": ("verbose", False), "--verbose": ("verbose", False)}, 1)
    name = one_arg(usage, pos, "CHECKPOINT_NAME")
    dry_run = bool(opts.get("dry_run"))
    ignore = opts.get("ignore", [])
    if dry_run:
        dev.out("** DRY RUN EXECUTION **")
    rlog = lambda m: dev.log("Config Rollbacker", m)  # noqa: E731
    clog = lambda m: dev.log("Config Replacer", m)  # noqa: E731
    try:
        if dev.multi_asic:
            raise Fail("sonic_sim: rollback on a multi-ASIC device is not modelled")
        rlog("Config rollbacking starting.")
        rlog(f"Checkpoint name: {name}.")
        rlog(f"Verifying '{name}' exists.")
        if not checkpoint_exists(dev, name):
            raise Fail(f"Checkpoint '{name}' does not exist")
        rlog("Loading checkpoint into memory.")
        with open(checkpoint_file(dev, name), encoding="utf-8") as f:
            target = json.load(f)
        rlog("Replacing config using 'Config Replacer'.")
        clog("Config replacement starting.")
        clog(f"Target config length: {len(json.dumps(target))}.")
        clog("Getting current config db.")
        running = dev.running()
        clog("Generating patch between target config and current config db.")
        ops = jsonpatch.make_patch(running, target).patch
        clog("Applying patch using 'Patch Applier'.")
        applier = PatchApplier(dev, dry_run, bool(opts.get("non_yang")), ignore)
        written = applier.apply(ops, running, fail_sorting=bool(dev.faults.get("fail_rollback")))
        clog("Verifying config replacement is reflected on ConfigDB.")
        if jsonpatch.make_patch({t: v for t, v in target.items() if t not in BACKEND_TABLES},
                                {t: v for t, v in written.items() if t not in BACKEND_TABLES}).patch:
            if not dry_run:
                dev.set_running(written)
            raise Fail("After replacing config, there is still some parts not updated")
        clog("Config replacement completed.")
        if not dry_run:
            dev.set_running(written)
        rlog("Config rollbacking completed.")
    except Fail as e:
        if len(e.args) > 1 and not dry_run:
            dev.set_running(e.args[1])
        dev.err("Failed to rollback config")
        raise Usage(usage, e.args[0]) from e
    dev.out("Config rolled back successfully.")
    return 0


def cmd_save(dev, argv, stdin):
    usage = "Usage: config save [OPTIONS] [FILENAME]"
    opts, pos = parse_options(argv, usage, {"-y": ("yes", False), "--yes": ("yes", False)}, 1)
    if not opts.get("yes"):
        # click's confirmation prompt (_abort_if_false): anything but y/yes aborts.
        dev.out("Existing files will be overwritten, continue? [y/N]: ", end="")
        answer = stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            dev.err("Aborted!")
            return 1
    if dev.multi_asic:
        dev.err("sonic_sim: config save on a multi-ASIC device is not modelled")
        return 2
    file = pos[0] if pos else CONFIG_DB_FILE
    dev.out(f"Running command: {SONIC_CFGGEN} -d --print-data > {file}")
    if dev.faults.get("fail_save"):
        # What the shell redirection says when /etc/sonic cannot be written.
        dev.err(f"/bin/sh: 1: cannot create {file}: Read-only file system")
        return 2
    running = dev.running()
    # config save: natsorted tables and keys (sort_dict), indent 4.
    doc = {t: ({k: rows[k] for k in sorted(rows, key=natural_key)} if isinstance(rows, dict) else rows)
           for t, rows in sorted(running.items(), key=lambda kv: natural_key(kv[0]))}
    try:
        atomic_write(dev.device_path(file), json.dumps(doc, indent=4))
    except OSError as e:
        dev.err(f"/bin/sh: 1: cannot create {file}: {e.strerror}")
        return 2
    return 0


CONFIG_COMMANDS = {
    "apply-patch": lambda dev, argv, stdin: cmd_apply_patch(dev, argv, stdin),
    "checkpoint": lambda dev, argv, stdin: cmd_checkpoint(dev, argv),
    "delete-checkpoint": lambda dev, argv, stdin: cmd_delete_checkpoint(dev, argv),
    "list-checkpoints": lambda dev, argv, stdin: cmd_list_checkpoints(dev, argv),
    "rollback": lambda dev, argv, stdin: cmd_rollback(dev, argv),
    "save": lambda dev, argv, stdin: cmd_save(dev, argv, stdin),
}


def cmd_config(dev, argv, sudo, stdin):
    if not argv or argv[0] in ("-h", "--help", "-?"):
        raise Help(CONFIG_USAGE)
    fn = CONFIG_COMMANDS.get(argv[0])
    if fn is None:
        # Other `config` subcommands exist on a switch; this one does not have them.
        raise Usage(CONFIG_USAGE, f"No such command '{argv[0]}'.")
    if not sudo:
        # config/main.py's group callback, after click has found the subcommand.
        dev.err("Root privileges are required for this operation")
        return 1
    return fn(dev, argv[1:], stdin)


# --- one SSH command ------------------------------------------------------------------------

def run_command(dev, line, stdin):
    """The switch's answer to one SSH command line: exit code (output buffered in dev)."""
    try:
        lex = shlex.shlex(line, posix=True, punctuation_chars=";&|<>()")
        lex.whitespace_split = True
        argv = list(lex)
    except ValueError:
        dev.err("bash: -c: line 1: unexpected EOF while looking for matching quote")
        return 2
    if any(t and all(ch in ";&|<>()" for ch in t) for t in argv) or "`" in line or "$(" in line:
        dev.err("sonic_sim: shell syntax (; & | < > ` $()) is not modelled: send one command")
        return 2
    if not argv:
        return 0
    sudo = False
    if argv[0] == "sudo":
        sudo = True
        argv = argv[1:]
        if argv and argv[0] == "-n":
            argv = argv[1:]
        if not argv:
            dev.err("usage: sudo -h | -K | -k | -V")
            return 1
        if argv[0].startswith("-"):
            dev.err(f"sonic_sim: sudo option '{argv[0]}' is not modelled (only -n)")
            return 1
    prog = argv[0]
    if prog in ("/usr/local/bin/show", "/usr/local/bin/config"):
        prog = posixpath.basename(prog)
    if prog == "show":
        return cmd_show(dev, argv[1:], sudo)
    if prog == "config":
        return cmd_config(dev, argv[1:], sudo, stdin)
    if sudo:
        dev.err(f"sudo: {prog}: command not found")
        return 1
    dev.err(f"bash: line 1: {prog}: command not found")
    return 127


def drop_connection():
    """End the SSH session without an answer: kill the sshd process serving it (the
    nearest ancestor named sshd*); if there is none, close our output and exit 255."""
    pid = os.getppid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
                comm = f.read().strip()
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
        if comm.startswith("sshd"):
            os.kill(pid, signal.SIGKILL)
            break
        pid = ppid
    os.close(1)
    os.close(2)
    os._exit(255)


def serve(args):
    line = os.environ.get("SSH_ORIGINAL_COMMAND")
    state = args.state
    dev = Device(state, args.multi_asic)
    if line is None:
        sys.stderr.write("sonic_sim: no command: interactive shells are not modelled\n")
        return 1
    lock = open(os.path.join(state, "lock"), "a+")  # noqa: SIM115 (held until exit)
    words = line.split()
    # Two sessions at once: one writer at a time; `show` may share with other readers.
    shared = "show" in words[:3] and "config" not in words[:3]
    # --show-unlocked: `show` reads CONFIG_DB as a switch's does, straight from the
    # database, not behind a running apply-patch (running.json is written atomically).
    if not (shared and dev.faults.get("show_unlocked")):
        fcntl.flock(lock, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
    dev.faults = dev.read_json("faults.json", {})
    rc = 0
    try:
        rc = run_command(dev, line, sys.stdin)
    except Help as e:
        dev.out(e.usage)
        rc = 0
    except Usage as e:
        if e.hint:
            words = e.usage.split()[1:]
            cmd = " ".join(words[:next(i for i, w in enumerate(words + ["["])
                                       if w.startswith("[") or w.isupper())])
            dev.err(f"{e.usage}\nTry '{cmd} -h' for help.\n")
        dev.err(f"Error: {e}")
        rc = 2
    except Dropped:
        log_line(state, "dropped (drop-apply)", line)
        drop_connection()
    log_line(state, f"rc={rc}", line)
    dev.flush()
    return rc


def log_line(state, what, line):
    """Command lines only: a patch arrives on stdin and is never logged."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    with open(os.path.join(state, "sim.log"), "a", encoding="utf-8") as f:
        f.write(f"{stamp} pid={os.getpid()} {what} {line}\n")


def init(args):
    with open(args.config, encoding="utf-8") as f:
        config = json.load(f)
    os.makedirs(args.state, exist_ok=True)
    dev = Device(args.state, args.multi_asic or 0)
    dev.yang_dir = models_dir()
    err = dev.yang_check(config)
    if err:
        print(f"sonic_sim: {args.config}: refused by the YANG models: {err}", file=sys.stderr)
        return 1
    with open(os.path.join(args.state, "lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        dev.set_running(config)
        atomic_write(dev.path("device.json"), json.dumps({"multi_asic": args.multi_asic or 0,
                                                              "yang": dev.yang_dir}) + "\n")
        dev.faults = {}
        dev.save_faults()
        os.makedirs(dev.device_path(HOME), exist_ok=True)
        # The saved file, as `config save` would have written it.
        saved = Device(args.state)
        saved.faults = {}
        cmd_save(saved, ["-y"], sys.stdin)
    return 0


def fault(args):
    faults = {}
    if args.refuse_path:
        faults["refuse_path"] = args.refuse_path
    if args.drop_apply:
        faults["drop_apply"] = args.drop_apply
        faults["applies"] = 0
    if args.slow_apply:
        faults["slow_apply"] = args.slow_apply
    if args.show_unlocked:
        faults["show_unlocked"] = True
    if args.fail_save:
        faults["fail_save"] = True
    if args.fail_rollback:
        faults["fail_rollback"] = True
    with open(os.path.join(args.state, "lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        atomic_write(os.path.join(args.state, "faults.json"), json.dumps(faults, indent=4) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", default=os.environ.get("SONIC_SIM_STATE"),
                    help="state directory (or $SONIC_SIM_STATE)")
    ap.add_argument("--multi-asic", type=int, metavar="N", default=None,
                    help="answer as a multi-ASIC switch with N ASICs")
    sub = ap.add_subparsers(dest="action")
    p = sub.add_parser("init", help="a new device from a config_db JSON file")
    p.add_argument("config")
    p.add_argument("--multi-asic", type=int, metavar="N", default=None)
    p = sub.add_parser("fault", help="set the faults (none given: clear them)")
    p.add_argument("--refuse-path", action="append", metavar="JSON_POINTER")
    p.add_argument("--drop-apply", type=int, metavar="N")
    p.add_argument("--slow-apply", type=float, metavar="SECONDS")
    p.add_argument("--show-unlocked", action="store_true")
    p.add_argument("--fail-save", action="store_true")
    p.add_argument("--fail-rollback", action="store_true")
    args = ap.parse_args()
    if not args.state:
        ap.error("no state directory: --state DIR or $SONIC_SIM_STATE")
    if args.action == "init":
        return init(args)
    if args.action == "fault":
        return fault(args)
    if not os.path.isfile(os.path.join(args.state, "running.json")):
        print(f"sonic_sim: {args.state}: no device here (sonic_sim.py --state DIR init FILE)",
              file=sys.stderr)
        return 3
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
