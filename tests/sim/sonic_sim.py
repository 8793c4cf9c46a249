#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SONiC switch CLI simulator for OpenSSH's ForceCommand: a test tool, shares no code with qosgen.

Answers the commands a config-management client sends to a single-ASIC SONiC switch over
SSH: `show runningconfiguration all`, `config apply-patch`, `config checkpoint`,
`config rollback`, `config list-checkpoints`, `config delete-checkpoint`, `config save`,
with the output lines, errors and exit codes of sonic-utilities (click 8.1) and its
Generic Config Updater; `show version`; and `sonic-db-dump` of APPL_DB and STATE_DB as the
dynamic buffer model's buffermgrd leaves them after each write (each lossless PG's headroom
computed, refused over the port's max_headroom_size). A patch is applied with python3-jsonpatch (RFC 6902), the result
validated with yanglint against SONiC's own YANG models ($SONIC_YANG_DIR, converted by
tests/sonic/configdb2yang.py; without them, nothing is). What is modelled, from which
source file and commit, and what is not: tests/sim/SONIC.md.

    sonic_sim.py --state DIR init CONFIG_DB.json [--multi-asic N] [--build-version V]
                 [--max-headroom-size BYTES]        a new device
    sonic_sim.py --state DIR fault [--refuse-path P]... [--drop-apply N]
                 [--slow-apply S] [--show-unlocked] [--fail-save] [--fail-rollback]
                 [--buffer-delay S]                 set (or clear) faults
    sonic_sim.py --state DIR [--multi-asic N] [--build-version V]
                                                    serve $SSH_ORIGINAL_COMMAND (ForceCommand)

The state directory may also come from $SONIC_SIM_STATE. Python 3.11 standard library,
plus Debian's python3-jsonpatch (and the python3-json-pointer it depends on).
"""

import argparse
import copy
import datetime
import fcntl
import fnmatch
import glob
import json
import math
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
    """SONiC's YANG models, as tests/sonic/models.sh finds them: $SONIC_YANG_DIR, else
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
# PFC_WD's model (sonic-pfcwd.yang) is not among the models the tests use: tests/sonic/pfcwd_check.py
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
        self.build_version = None  # --build-version on the ForceCommand line

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
        old = self.running()
        atomic_write(self.path("running.json"), json.dumps(config, indent=4) + "\n")
        buffermgrd_sync(self, old, config)

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


# --- buffermgrd: the dynamic buffer model's headroom (sonic-swss cfgmgr/buffermgrdyn.cpp) ---
#
# After every write of CONFIG_DB the simulator does what buffermgrd does on a Mellanox
# switch with DEVICE_METADATA buffer_model dynamic: each lossless PG (BUFFER_PG profile
# "NULL") gets a profile computed from its port's speed, cable length and MTU
# (buffer_headroom_mellanox.lua), checked against the port's max_headroom_size in STATE_DB
# (buffer_check_headroom_mellanox.lua), and only then written to APPL_DB; a PG over the
# limit is refused in the log only. Sources and what is not modelled: SONIC.md, "The buffer
# manager".

# platform/mellanox/asic_table.j2 (sonic-buildimage 086b03bd70f9, blob f9abe170bd68): the
# ASIC of a platform, and each ASIC's figures (KB where the Lua multiplies by 1024).
PLATFORM_ASIC = {
    "x86_64-mlnx_msn2010-r0": "MELLANOX-SPECTRUM", "x86_64-mlnx_msn2100-r0": "MELLANOX-SPECTRUM",
    "x86_64-mlnx_msn2410-r0": "MELLANOX-SPECTRUM", "x86_64-mlnx_msn2700-r0": "MELLANOX-SPECTRUM",
    "x86_64-mlnx_msn2700a1-r0": "MELLANOX-SPECTRUM", "x86_64-mlnx_msn2740-r0": "MELLANOX-SPECTRUM",
    "x86_64-mlnx_msn3700-r0": "MELLANOX-SPECTRUM-2", "x86_64-mlnx_msn3700c-r0": "MELLANOX-SPECTRUM-2",
    "x86_64-mlnx_msn3800-r0": "MELLANOX-SPECTRUM-2", "x86_64-mlnx_msn4600c-r0": "MELLANOX-SPECTRUM-3",
    "x86_64-mlnx_msn4700-r0": "MELLANOX-SPECTRUM-3", "x86_64-nvidia_sn5600-r0": "MELLANOX-SPECTRUM-4",
}
ASIC_TABLE = {
    "MELLANOX-SPECTRUM": {"cell_size": 96, "pipeline_latency": 19, "mac_phy_delay": 0.8,
                          "peer_response_time": 3.8, "port_reserved_shp": 20, "port_max_shp": 8192},
    "MELLANOX-SPECTRUM-2": {"cell_size": 144, "pipeline_latency": 19, "mac_phy_delay": 0.8,
                            "peer_response_time": 3.8, "port_reserved_shp": 20, "port_max_shp": 8192},
    "MELLANOX-SPECTRUM-3": {"cell_size": 144, "pipeline_latency": 19, "mac_phy_delay": 0.8,
                            "peer_response_time": 3.8, "port_reserved_shp": 20, "port_max_shp": 8192},
    "MELLANOX-SPECTRUM-4": {"cell_size": 192, "pipeline_latency": 19, "mac_phy_delay": 0.8,
                            "peer_response_time": 3.8, "port_reserved_shp": 20, "port_max_shp": 8192},
}
# buffer_headroom_mellanox.lua: IEEE 802.3 31B.3.7's pause quanta per speed (Mb/s).
PAUSE_QUANTA = {800000: 905, 400000: 905, 200000: 453, 100000: 394, 50000: 147, 40000: 118,
                25000: 80, 10000: 67, 1000: 2, 100: 1}
DEFAULT_MTU = "9100"  # buffermgrdyn.h DEFAULT_MTU_STR
LOSSLESS_POOL = "ingress_lossless_pool"  # buffermgrdyn.h INGRESS_LOSSLESS_PG_POOL_NAME


def bm_field(config, table, key, field):
    row = config.get(table, {}).get(key)
    return row.get(field) if isinstance(row, dict) else None


def bm_number(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def bm_port(config, port):
    """A port as buffermgrd knows it: speed, cable length (from any CABLE_LENGTH row, as
    handleCableLenTable reads them all), MTU (9100 when none), lanes, admin state."""
    row = config.get("PORT", {}).get(port) or {}
    cable = None
    for fields in config.get("CABLE_LENGTH", {}).values():
        if isinstance(fields, dict) and port in fields:
            cable = fields[port]
            break
    lanes = row.get("lanes")
    return {"speed": row.get("speed"), "cable": cable, "mtu": row.get("mtu") or DEFAULT_MTU,
            "lanes": len(lanes.split(",")) if isinstance(lanes, str) and lanes else 0,
            # handlePortTable: a port is admin down until its admin_status says "up".
            "up": row.get("admin_status") == "up"}


def bm_asic(config):
    platform = bm_field(config, "DEVICE_METADATA", "localhost", "platform")
    name = PLATFORM_ASIC.get(platform)
    return (name, ASIC_TABLE[name]) if name else (None, None)


def bm_shp(config):
    """Whether the shared headroom pool is on: BUFFER_POOL|ingress_lossless_pool xoff or
    DEFAULT_LOSSLESS_BUFFER_PARAMETER over_subscribe_ratio non-zero (the Lua's test)."""
    size = bm_number(bm_field(config, "BUFFER_POOL", LOSSLESS_POOL, "xoff"))
    ratio = None
    for fields in config.get("DEFAULT_LOSSLESS_BUFFER_PARAMETER", {}).values():
        ratio = bm_number(fields.get("over_subscribe_ratio")) if isinstance(fields, dict) else None
        break
    return bool(size) or bool(ratio)


def bm_headroom(config, info, asic_name, asic):
    """buffer_headroom_mellanox.lua (sonic-swss e6b0c5b5d2ab, blob 561cfddb58): xon, xoff,
    size of a lossless PG. Lua numbers are doubles; so are Python's floats."""
    port_speed = float(info["speed"])
    cable_length = float(info["cable"][:-1])
    port_mtu = float(info["mtu"])
    pattern = next(iter(config.get("LOSSLESS_TRAFFIC_PATTERN", {}).values()), {})
    lossless_mtu = float(pattern.get("mtu", 1024))
    small_packet_percentage = float(pattern.get("small_packet_percentage", 100))
    cell_size = asic["cell_size"]
    pipeline_latency = asic["pipeline_latency"] * 1024
    mac_phy_delay = asic["mac_phy_delay"] * 1024
    pause_quanta = PAUSE_QUANTA.get(int(port_speed))
    peer_response_time = asic["peer_response_time"] * 1024
    kb_on_tile = port_speed / 1000 * 120 / 8 if asic_name[-1] in "45" else 0
    shp = bm_shp(config)
    speed_overhead = 0
    if info["lanes"] == 8:
        pipeline_latency = pipeline_latency * 2
        speed_overhead = port_mtu
    worst = cell_size / 64 if cell_size > 128 else (2 * cell_size) / (1 + cell_size)
    worst = math.ceil(worst)
    by_byte = 100 * 64 / ((small_packet_percentage * 64
                           + (100 - small_packet_percentage) * lossless_mtu) / 100)
    occupancy = (100 - by_byte + by_byte * worst) / 100
    if pause_quanta is not None:
        peer_response_time = pause_quanta * 512 / 8
    bytes_on_cable = 2 * cable_length * port_speed * 1000000000 / 198000000 / (8 * 1000)
    propagation = port_mtu + bytes_on_cable + mac_phy_delay + peer_response_time + kb_on_tile
    xoff = math.ceil((lossless_mtu + propagation * occupancy) / 1024) * 1024
    if asic_name[-1] == "6":
        xoff += 18 * 1024
    if not shp and small_packet_percentage != 100:
        full = math.ceil((lossless_mtu + propagation * worst) / 1024) * 1024
        if xoff + 2 * 1024 < full:
            xoff += 2 * 1024
    xon = math.ceil(pipeline_latency / 1024) * 1024
    size = xon if shp else xoff + xon + speed_overhead
    size = math.ceil(size / 1024) * 1024
    return int(xon), int(xoff), int(size)


def bm_default_threshold(config):
    for fields in config.get("DEFAULT_LOSSLESS_BUFFER_PARAMETER", {}).values():
        if isinstance(fields, dict):
            return fields.get("default_dynamic_th", "0")
    return "0"


def bm_profile_name(info):
    """getDynamicProfileName: the MTU only when not 9100; the default threshold, no gearbox
    and no 8-lane suffix on the Spectrum-1..3 platforms modelled."""
    name = f"pg_lossless_{info['speed']}_{info['cable']}"
    if info["mtu"] != DEFAULT_MTU:
        name += f"_mtu{info['mtu']}"
    return name + "_profile"


def bm_pg_count(pgs):
    lo, _, hi = pgs.partition("-")
    try:
        return int(hi or lo) - int(lo) + 1
    except ValueError:
        return 0


def bm_check(config, appl, limits, port, key, profile, figures, asic):
    """buffer_check_headroom_mellanox.lua: (fits, accumulative, max_headroom_size)."""
    max_size = bm_number((limits.get(f"BUFFER_MAX_PARAM_TABLE|{port}") or {}).get("max_headroom_size"))
    if max_size is None:
        return True, None, None
    info = bm_port(config, port)
    pipeline_latency = asic["pipeline_latency"]
    mirror = 20 * 1024
    reserved_shp = asic["port_reserved_shp"]
    if info["lanes"] == 8:
        pipeline_latency = pipeline_latency * 2 - 1
        mirror *= 2
        reserved_shp *= 2
    lossy = pipeline_latency * 1024
    total = 4096 + lossy + mirror
    shp = bool(bm_number(bm_field(config, "BUFFER_POOL", LOSSLESS_POOL, "xoff")))
    shared = 0
    pgs = {k: v.get("profile") for k, v in appl.items()
           if k.startswith(f"BUFFER_PG_TABLE:{port}:")}
    pgs[f"BUFFER_PG_TABLE:{key}"] = profile
    for pg_key, name in sorted(pgs.items()):
        if name == profile:
            xon, xoff, size = figures
        else:
            prof = appl.get(f"BUFFER_PROFILE_TABLE:{name}") or {}
            size, xon, xoff = (bm_number(prof.get(f)) for f in ("size", "xon", "xoff"))
        if size is None:
            continue
        size = size or lossy
        n = bm_pg_count(pg_key.rsplit(":", 1)[1])
        total += size * n
        if shp and xon is not None and xoff is not None and size < xon + xoff:
            shared += (xon + xoff - size) * n
    if max_size > total:
        if shp:
            return shared <= (asic["port_max_shp"] + reserved_shp) * asic["cell_size"], total, max_size
        return True, total, max_size
    return False, total, max_size


def bm_log(dev, function, message):
    """A line of the switch's syslog as swss's buffermgrd writes it (the shape of
    sonic-mgmt pull request 8041's capture)."""
    stamp = datetime.datetime.now().strftime("%b %d %H:%M:%S.%f")
    host = bm_field(dev.running(), "DEVICE_METADATA", "localhost", "hostname") or "sonic"
    path = dev.device_path("/var/log/syslog")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{stamp} {host} ERR swss#buffermgrd: :- {function}: {message}\n")


def bm_refresh_pg(dev, config, appl, state, limits, key, asic_name, asic):
    """refreshPgsForPort for one lossless PG (port:pgs): True when applied or nothing to
    do, False when refused (APPL_DB left as it was)."""
    port = key.split(":", 1)[0]
    info = bm_port(config, port)
    appl_key = f"BUFFER_PG_TABLE:{key}"
    if not info["up"]:
        # An admin-down port's buffers are reclaimed: no lossless PG in APPL_DB.
        appl.pop(appl_key, None)
        return True
    if not info["speed"] or not info["cable"]:
        return True  # "port's info isn't ready for dynamic calculation": nothing written
    if info["cable"] == "0m":
        appl.pop(appl_key, None)
        return True
    name = bm_profile_name(info)
    figures = bm_headroom(config, info, asic_name, asic)
    fits, total, max_size = bm_check(config, appl, limits, port, key, name, figures, asic)
    if not fits:
        bm_log(dev, "isHeadroomResourceValid",
               f"Unable to update profile for port {port}. Accumulative headroom size exceeds limit")
        bm_log(dev, "refreshPgsForPort",
               f"Update speed ({info['speed']}) and cable length ({info['cable']}) for port "
               f"{port} failed, accumulative headroom size exceeds the limit")
        return False
    xon, xoff, size = figures
    profile = {"xon": str(xon), "xoff": str(xoff), "size": str(size), "pool": LOSSLESS_POOL,
               "dynamic_th": bm_default_threshold(config)}
    appl[f"BUFFER_PROFILE_TABLE:{name}"] = profile
    state[f"BUFFER_PROFILE_TABLE|{name}"] = dict(profile)
    appl[appl_key] = {"profile": name}
    return True


def bm_release_profiles(config, appl, state):
    """releaseProfile: a dynamic profile no PG references any more leaves APPL_DB and
    STATE_DB; the static ones (config_db's BUFFER_PROFILE) stay."""
    used = {v.get("profile") for k, v in appl.items() if k.startswith("BUFFER_PG_TABLE:")}
    for k in [k for k in appl if k.startswith("BUFFER_PROFILE_TABLE:pg_lossless_")]:
        name = k.split(":", 1)[1]
        if name not in used and name not in config.get("BUFFER_PROFILE", {}):
            del appl[k]
            state.pop(f"BUFFER_PROFILE_TABLE|{name}", None)


def buffermgrd_sync(dev, old, new):
    """What buffermgrd does with the change of CONFIG_DB from old to new (old {} at boot)."""
    if bm_field(new, "DEVICE_METADATA", "localhost", "buffer_model") != "dynamic":
        return
    asic_name, asic = bm_asic(new)
    if not asic:
        return  # a platform the table above does not name: not modelled
    db = dev.read_json("appl_db.json", {"current": {}, "shown": {}, "at": 0})
    before = bm_shown(db)  # what a reader sees until the change shows
    appl, state = copy.deepcopy(db["current"]), dev.read_json("state_db.json", {})
    limits = {k: v for k, v in state.items() if k.startswith("BUFFER_MAX_PARAM_TABLE|")}
    # handleBufferProfileTable: a static profile goes to APPL_DB directly.
    for name, fields in new.get("BUFFER_PROFILE", {}).items():
        appl[f"BUFFER_PROFILE_TABLE:{name}"] = dict(fields)
    old_pgs, new_pgs = old.get("BUFFER_PG", {}), new.get("BUFFER_PG", {})
    # A PG row removed: doRemovePgTask, or a static one removed directly.
    for key in old_pgs:
        if key not in new_pgs:
            appl.pop("BUFFER_PG_TABLE:" + key.replace("|", ":"), None)
    changed = {p for p in set(new.get("PORT", {})) | set(old.get("PORT", {}))
               if bm_port(old, p) != bm_port(new, p)}
    for port in sorted(changed, key=natural_key):
        # refreshPgsForPort over the port's lossless PGs it had: the first refused ends it.
        for key in sorted((k for k in new_pgs if k.split("|")[0] == port and k in old_pgs),
                          key=natural_key):
            if new_pgs[key].get("profile") == "NULL" and not bm_refresh_pg(
                    dev, new, appl, state, limits, key.replace("|", ":"), asic_name, asic):
                bm_log(dev, "doTask", "Failed to process table update")
                break
    for key in sorted(new_pgs, key=natural_key):
        if old_pgs.get(key) == new_pgs[key]:
            continue
        profile = new_pgs[key].get("profile")
        if profile == "NULL":
            if not bm_refresh_pg(dev, new, appl, state, limits, key.replace("|", ":"),
                                 asic_name, asic):
                bm_log(dev, "doTask", "Failed to process table update")
        else:
            # A static profile on the PG: into APPL_DB directly (the lossy PG 0 here).
            appl["BUFFER_PG_TABLE:" + key.replace("|", ":")] = {"profile": profile}
    bm_release_profiles(new, appl, state)
    delay = float(dev.faults.get("buffer_delay", 0) or 0)
    if delay > 0:
        # APPL_DB shows the change only after the delay (buffermgrd works asynchronously).
        db["shown"] = before
        db["at"] = time.time() + delay
    else:
        db["shown"], db["at"] = appl, 0
    db["current"] = appl
    atomic_write(dev.path("appl_db.json"), json.dumps(db, indent=1) + "\n")
    atomic_write(dev.path("state_db.json"), json.dumps(state, indent=1) + "\n")


def boot_buffer_state(dev, config, max_headroom_size):
    """A switch that starts: APPL_DB empty, STATE_DB holding each port's max_headroom_size
    as orchagent writes it from the vendor's SAI (portsorch.cpp
    initializePortBufferMaximumParameters); then buffermgrd computes every PG afresh."""
    for name in ("running.json", "appl_db.json", "state_db.json"):
        if os.path.exists(dev.path(name)):
            os.unlink(dev.path(name))
    state = {}
    if max_headroom_size is not None:
        for port in config.get("PORT", {}):
            state[f"BUFFER_MAX_PARAM_TABLE|{port}"] = {"max_headroom_size": str(max_headroom_size)}
    atomic_write(dev.path("state_db.json"), json.dumps(state, indent=1) + "\n")


def bm_shown(db):
    """APPL_DB as a reader sees it now: the buffer manager's latest once its delay is over."""
    return db["current"] if time.time() >= db.get("at", 0) else db.get("shown", {})


# --- show version, sonic-db-dump ---------------------------------------------------------------

# The build version `show version` prints when init gives none: a 202605 release build as
# sonic-buildimage functions.sh sonic_get_version() names one (branch.BUILD_NUMBER-commit,
# the commit that of the YANG models in use).
DEFAULT_BUILD_VERSION = "202605.0-086b03bd7"


def cmd_show_version(dev, argv):
    """show/main.py version(): the version file's fields and the platform's. The software
    and hardware facts a simulator does not have are fixed, made-up values."""
    opts, _ = parse_options(argv, "Usage: show version [OPTIONS]", {"--brief": ("brief", False)}, 0)
    meta = dev.read_json("device.json", {})
    build = dev.build_version or meta.get("build_version") or DEFAULT_BUILD_VERSION
    md = dev.running().get("DEVICE_METADATA", {}).get("localhost", {})
    now = datetime.datetime.now()
    dev.out("")
    dev.out(f"SONiC Software Version: SONiC.{build}")
    dev.out("SONiC OS Version: 12")
    dev.out("Distribution: Debian 12.11")
    dev.out("Kernel: 6.1.0-29-2-amd64")
    dev.out(f"Build commit: {build.rsplit('-', 1)[-1]}")
    dev.out("Build date: Sat Aug 22 06:15:21 UTC 2026")
    dev.out("Built by: sonic_sim@localhost")
    dev.out("")
    dev.out(f"Platform: {md.get('platform', 'N/A')}")
    dev.out(f"HwSKU: {md.get('hwsku', 'N/A')}")
    dev.out("ASIC: mellanox")
    dev.out("ASIC Count: 1")
    dev.out("Serial Number: N/A")
    dev.out("Model Number: N/A")
    dev.out("Hardware Revision: N/A")
    dev.out("Uptime: " + now.strftime("%H:%M:%S") + " up 1 day,  1:00,  1 user,  load average: 0.10, 0.10, 0.10")
    dev.out("Date: " + now.strftime("%a %d %b %Y %X"))
    if not opts.get("brief"):
        dev.out("")
        dev.out("Docker images:")
        dev.out("REPOSITORY                    TAG                 IMAGE ID       SIZE")
    return 0


def redis_keys(dev, dbname):
    """A database as Redis holds it: key -> hash. CONFIG_DB's keys are TABLE|key."""
    if dbname == "APPL_DB":
        return bm_shown(dev.read_json("appl_db.json", {"current": {}, "shown": {}, "at": 0}))
    if dbname == "STATE_DB":
        return dev.read_json("state_db.json", {})
    if dbname == "CONFIG_DB":
        return {f"{t}|{k}": v for t, rows in dev.running().items() if isinstance(rows, dict)
                for k, v in rows.items() if isinstance(v, dict)}
    return None


def cmd_db_dump(dev, argv):
    """sonic-py-swsssdk sonic_db_dump_load.py (optparse) over redisdl.dump: -n DB, -k glob,
    -y pretty (indent 2, keys sorted), each key {type, value} and, as SONiC's redis-py gives
    it, ttl -0.001 and expireat; the output ends without a newline."""
    usage = "Usage: sonic-db-dump [options]"
    opts, pos = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            dev.out(usage)
            return 0
        if a in ("-y", "--pretty"):
            opts["pretty"] = True
        elif a in ("-n", "--dbname", "-k", "--keys", "-t", "--conntype", "-E", "--encoding",
                   "-w", "--password", "-o", "--output"):
            if i + 1 >= len(argv):
                dev.err(f"{usage}\n\nsonic-db-dump: error: {a} option requires 1 argument")
                return 2
            opts[a.lstrip("-")[0]] = argv[i + 1]
            i += 1
        else:
            pos.append(a)
        i += 1
    if pos:
        dev.out(usage)
        return 4
    if "o" in opts or "w" in opts:
        dev.err("sonic_sim: sonic-db-dump -o and -w are not modelled")
        return 2
    keys = redis_keys(dev, opts.get("n", "APPL_DB"))
    if keys is None:
        dev.err(f"sonic_sim: database {opts.get('n')} is not modelled (APPL_DB, STATE_DB, CONFIG_DB)")
        return 1
    pattern = opts.get("k", "*")
    now = time.time()
    table = {k: {"expireat": now - 0.001, "ttl": -0.001, "type": "hash", "value": v}
             for k, v in keys.items() if fnmatch.fnmatchcase(k, pattern)}
    if opts.get("pretty"):
        dev.out(json.dumps(table, indent=2, sort_keys=True), end="")
    else:
        # redisdl.dump's streaming form: type, value, then ttl and expireat.
        dev.out(json.dumps({k: {"type": v["type"], "value": v["value"], "ttl": v["ttl"],
                                "expireat": v["expireat"]} for k, v in table.items()},
                           separators=(",", ":")), end="")
    return 0


# --- the commands --------------------------------------------------------------------------

CONFIG_USAGE = "Usage: config [OPTIONS] COMMAND [ARGS]..."
SHOW_USAGE = "Usage: show [OPTIONS] COMMAND [ARGS]..."


def cmd_show(dev, argv, sudo):
    if not argv or argv[0] in ("-h", "--help", "-?"):
        raise Help(SHOW_USAGE)
    if argv[0] == "version":
        return cmd_show_version(dev, argv[1:])
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
    if prog in ("sonic-db-dump", "/usr/local/bin/sonic-db-dump"):
        return cmd_db_dump(dev, argv[1:])
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
    dev.build_version = args.build_version
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
        dev.faults = {}
        dev.save_faults()
        boot_buffer_state(dev, config, args.max_headroom_size)
        dev.set_running(config)
        atomic_write(dev.path("device.json"), json.dumps(
            {"multi_asic": args.multi_asic or 0, "build_version": args.build_version,
             "yang": dev.yang_dir}) + "\n")
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
    if args.buffer_delay:
        faults["buffer_delay"] = args.buffer_delay
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
    ap.add_argument("--build-version", metavar="V", default=None,
                    help="answer `show version` with this build version instead of the device's")
    sub = ap.add_subparsers(dest="action")
    p = sub.add_parser("init", help="a new device from a config_db JSON file")
    p.add_argument("config")
    p.add_argument("--multi-asic", type=int, metavar="N", default=None)
    p.add_argument("--build-version", metavar="V", default=DEFAULT_BUILD_VERSION,
                   help="what `show version` names after 'SONiC.'")
    p.add_argument("--max-headroom-size", type=int, metavar="BYTES", default=None,
                   help="STATE_DB max_headroom_size of every port (none: no limit)")
    p = sub.add_parser("fault", help="set the faults (none given: clear them)")
    p.add_argument("--refuse-path", action="append", metavar="JSON_POINTER")
    p.add_argument("--drop-apply", type=int, metavar="N")
    p.add_argument("--slow-apply", type=float, metavar="SECONDS")
    p.add_argument("--show-unlocked", action="store_true")
    p.add_argument("--fail-save", action="store_true")
    p.add_argument("--fail-rollback", action="store_true")
    p.add_argument("--buffer-delay", type=float, metavar="SECONDS")
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
