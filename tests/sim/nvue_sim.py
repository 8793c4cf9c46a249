#!/usr/bin/env python3
"""NVUE (Cumulus Linux 5.x) REST API simulator: a test tool, shares no code with qosgen.

Models the revision life cycle of the NVUE REST API (POST /nvue_v1/revision, PATCH/DELETE
?rev=<id>, PATCH /nvue_v1/revision/<id> to apply, save through /revision/applied) and the
QoS and interface objects qosgen writes, validated with the ranges and enums of NVIDIA's
documentation.  What is modelled, from which page, and what is not: tests/sim/NVUE.md.

Standard library only, except PyYAML for --config (Debian python3-yaml).
Credentials come from the environment (NVUE_SIM_USER, NVUE_SIM_PASSWORD), never argv.
"""

import argparse
import base64
import copy
import datetime
import hmac
import ipaddress
import json
import os
import random
import re
import socket
import socketserver
import ssl
import string
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

API_BASE = "/nvue_v1"


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class ApiError(Exception):
    """An HTTP error answered as a problem body (status, title, detail, type)."""

    def __init__(self, status, detail):
        super().__init__(detail)
        self.status = status
        self.detail = detail


class FrontEndError(Exception):
    """Fault injection: nginx in front of NVUE answers status with its own error page.

    NVUE's API is reached through nginx (the API page's "Access the API": the
    nvue.conf site of /etc/nginx); nginx answers 502 or 504 itself when its
    backend closes the connection or is slow, whatever the backend goes on to do."""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


# nginx's error pages (nginx/nginx src/http/ngx_http_special_response.c @ 05b1a8f1e359:
# "<html>" / "<head><title>502 Bad Gateway</title></head>" / "<body bgcolor=\"white\">" /
# "<center><h1>502 Bad Gateway</h1></center>" / "<hr><center>nginx</center>" / "</body>" /
# "</html>", CRLF line ends, text/html). That commit has no 429 page: its title here is
# the status's reason phrase (RFC 6585), in the same form.
NGINX_TITLES = {408: "408 Request Time-out", 429: "429 Too Many Requests",
                500: "500 Internal Server Error", 502: "502 Bad Gateway",
                503: "503 Service Temporarily Unavailable", 504: "504 Gateway Time-out"}


def nginx_page(status):
    title = NGINX_TITLES[status]
    return ("<html>\r\n<head><title>%s</title></head>\r\n<body bgcolor=\"white\">\r\n"
            "<center><h1>%s</h1></center>\r\n"
            "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n" % (title, title)).encode()


# ---------------------------------------------------------------------------
# Object model (schema).  Only qos and the interface link/qos subtrees are
# modelled strictly; the other documented top-level objects are accepted as
# they come ("opaque"), because qosgen does not write them but NVIDIA's own
# doc examples (system, bridge, router, ...) must still go through.
# ---------------------------------------------------------------------------

class Opaque:
    """Any JSON value; not validated."""


class Leaf:
    """A scalar with a check(value) -> error text or None."""

    def __init__(self, check):
        self.check = check


class Obj:
    """A fixed-key object.  strict=False lets unknown keys through as Opaque."""

    def __init__(self, children, strict=True):
        self.children = children
        self.strict = strict

    def child(self, key):
        if key in self.children:
            return self.children[key]
        return None if self.strict else OPAQUE


class Coll:
    """A collection keyed by an id (interface name, profile, traffic class)."""

    def __init__(self, key_check, child):
        self.key_check = key_check
        self.child = child


OPAQUE = Opaque()


def int_range(lo, hi=None):
    def check(v):
        # bool is an int in Python; JSON true is not an integer for NVUE.
        if not isinstance(v, int) or isinstance(v, bool):
            return f"{json.dumps(v)} is not of type 'integer'"
        if v < lo:
            return f"{v} is less than the minimum of {lo}"
        if hi is not None and v > hi:
            return f"{v} is greater than the maximum of {hi}"
        return None
    return Leaf(check)


def enum(*values):
    def check(v):
        if v not in values:
            return f"{json.dumps(v)} is not one of {list(values)}"
        return None
    return Leaf(check)


def name_leaf():
    def check(v):
        if not isinstance(v, str) or not NAME_RE.fullmatch(v):
            return f"{json.dumps(v)} is not a valid profile name"
        return None
    return Leaf(check)


# Profile names: the schema says "generic-name"; its exact pattern is not in the
# docs, so this is an approximation (letters, digits, _ . : - ; at most 63).
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}")
IFNAME_RE = re.compile(r"[^/\s]{1,64}")
SWP_RE = re.compile(r"swp\d+(s\d+)?")


def key_int_range(lo, hi):
    def check(k):
        if not re.fullmatch(r"\d+", k) or not lo <= int(k) <= hi:
            return f"'{k}' is not an integer id in {lo}-{hi}"
        return None
    return check


def key_enum(*values):
    def check(k):
        return None if k in values else f"'{k}' is not one of {list(values)}"
    return check


def key_name(k):
    return None if NAME_RE.fullmatch(k) else f"'{k}' is not a valid profile name"


def key_ifname(k):
    return None if IFNAME_RE.fullmatch(k) else f"'{k}' is not a valid interface name"


# Traffic pools: the fixed name set of the docs' Traffic Pools table and the
# OpenAPI enum schema-qos-traffic-pool-traffic-pool-name-def.
POOLS = ("default-lossy", "default-lossless", "roce-lossy", "roce-lossless", "mc-lossy")
LOSSLESS_POOLS = ("default-lossless", "roce-lossless")
ENABLE_DISABLE = ("enable", "disable")

SWITCH_PRIORITY_SET = Coll(key_int_range(0, 7), Obj({}))

QOS = Obj({
    "roce": Obj({
        "enable": enum("on", "off"),
        "mode": enum("lossy", "lossless", "lossless-single-ipool", "lossy-multi-tc"),
        "cable-length": int_range(1, 100000),
    }),
    "mapping": Coll(key_name, Obj({
        "trust": enum("l2", "l3", "port", "both"),
        "port-default-sp": int_range(0, 7),
        "dscp": Coll(key_int_range(0, 63), Obj({"switch-priority": int_range(0, 7)})),
        "pcp": Coll(key_int_range(0, 7), Obj({"switch-priority": int_range(0, 7)})),
    })),
    "pfc": Coll(key_name, Obj({
        "switch-priority": SWITCH_PRIORITY_SET,
        "tx": enum(*ENABLE_DISABLE),
        "rx": enum(*ENABLE_DISABLE),
        "cable-length": int_range(1, 100000),
        "xoff-threshold": int_range(1),
        "xon-threshold": int_range(1),
        "port-buffer": int_range(1),
    })),
    "traffic-pool": Coll(key_enum(*POOLS), Obj({
        "memory-percent": int_range(1, 100),
        "switch-priority": SWITCH_PRIORITY_SET,
    })),
    "congestion-control": Coll(key_name, Obj({
        "traffic-class": Coll(key_int_range(0, 7), Obj({
            "min-threshold": int_range(1),
            "max-threshold": int_range(1),
            "probability": int_range(0, 100),
            "red": enum(*ENABLE_DISABLE),
            "ecn": enum(*ENABLE_DISABLE),
        })),
    })),
    "egress-scheduler": Coll(key_name, Obj({
        "traffic-class": Coll(key_int_range(0, 7), Obj({
            "mode": enum("dwrr", "strict"),
            "bw-percent": int_range(0, 100),
        })),
    })),
    "egress-queue-mapping": Coll(key_enum("default-global"), Obj({
        "switch-priority": Coll(key_int_range(0, 7), Obj({"traffic-class": int_range(0, 7)})),
    })),
    # NVUE reference, Cumulus Linux 5.6: nv set qos pfc-watchdog polling-interval 100-5000,
    # robustness 1-1000.
    "pfc-watchdog": Obj({
        "polling-interval": int_range(100, 5000),
        "robustness": int_range(1, 1000),
    }),
    # Documented objects qosgen does not write: accepted, not validated.
    "remark": OPAQUE,
    "link-pause": OPAQUE,
    "egress-shaper": OPAQUE,
    "advance-buffer-config": OPAQUE,
})

PROFILE_REF = Obj({"profile": name_leaf()})
# Interface qos profiles: one per QoS feature (nvue-reference QoS page).
IF_PROFILE_KINDS = ("pfc", "mapping", "congestion-control", "egress-scheduler",
                    "remark", "link-pause", "egress-shaper")
IF_QOS = Obj(dict({k: PROFILE_REF for k in IF_PROFILE_KINDS}, **{
    # nv set interface <id> qos pfc-watchdog state (enable|disable) (5.6; default disable).
    "pfc-watchdog": Obj({"state": enum(*ENABLE_DISABLE)}), "roce": OPAQUE, "headroom": OPAQUE,
    "shared-headroom-pool": OPAQUE, "buffer": OPAQUE, "counters": OPAQUE,
}))
# link and the interface itself carry many other documented keys (state, speed,
# ip, bond, bridge, ...): only mtu and qos are checked.
IF_LINK = Obj({"mtu": int_range(552, 9216)}, strict=False)
INTERFACE = Obj({"link": IF_LINK, "qos": IF_QOS}, strict=False)

# Top-level objects: the docs' "Supported Objects" table.
TOP_LEVEL_OPAQUE = ("acl", "bridge", "evpn", "mlag", "nve", "platform", "router",
                    "service", "system", "vrf")
ROOT = Obj(dict({k: OPAQUE for k in TOP_LEVEL_OPAQUE},
                qos=QOS, interface=Coll(key_ifname, INTERFACE)))

# What a switch answers for qos when nothing is configured: the qos subtree of a
# real GET /nvue_v1/?rev=applied on Cumulus Linux 5.5.1 (NVIDIA's Air automation
# workshop), advance-buffer-config left out.  Served when filled is not false.
QOS_DEFAULTS = {
    "congestion-control": {"default-global": {"traffic-class": {"0": {
        "ecn": "enable", "max-threshold": 1500000, "min-threshold": 150000,
        "probability": 100, "red": "disable"}}}},
    "egress-queue-mapping": {"default-global": {"switch-priority": {
        str(i): {"traffic-class": i} for i in range(8)}}},
    "egress-scheduler": {"default-global": {"traffic-class": {
        str(i): {"bw-percent": 12 if i % 2 == 0 else 13, "mode": "dwrr"} for i in range(8)}}},
    "egress-shaper": {},
    "link-pause": {},
    "mapping": {"default-global": {"pcp": {str(i): {"switch-priority": i} for i in range(8)},
                                   "port-default-sp": 0, "trust": "l2"}},
    "pfc": {},
    "remark": {"default-global": {}},
    "roce": {"enable": "off"},
    "traffic-pool": {"default-lossy": {"memory-percent": 100,
                                       "switch-priority": {str(i): {} for i in range(8)}}},
    # Not in the 5.5.1 read-back (the watchdog came with 5.6): the QoS page's PFC
    # Watchdog, "The default polling interval is 100 milliseconds. The default
    # number of polling intervals is 3."
    "pfc-watchdog": {"polling-interval": 100, "robustness": 3},
}
# Defaults of the OpenAPI schema (CL 5.3 schema-qos-ecn-qos-ecn-config) used by
# the min < max check when a traffic class sets only one threshold.
ECN_MIN_DEFAULT = 150000
ECN_MAX_DEFAULT = 1500000


# ---------------------------------------------------------------------------
# Releases (--version): the dialect of the qos roce switch, the system build,
# and the operational view of RoCE (nv show qos roce, nv show interface <if>
# qos roce status).  Sources in NVUE.md, "Versions and dialects" and "The
# operational view".
# ---------------------------------------------------------------------------

VERSION_RE = re.compile(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{1,2}))?")


def parse_version(text):
    """'5.9', '5.15.0' -> (5, 15, 0); None for anything else (5.x only)."""
    m = VERSION_RE.fullmatch(text)
    if not m or m.group(1) != "5":
        return None
    return (5, int(m.group(2)), int(m.group(3) or 0))


def dialect_of(version):
    """Cumulus Linux 5.15 renamed `nv set qos roce enable on|off` to `nv set qos roce
    state enabled|disabled` (its New and Changed NVUE Commands, On/Off; the NVUE
    reference: "In Cumulus Linux 5.14 and earlier, you specify enable on or enable off")."""
    return "roce-state" if version[:2] >= (5, 15) else "roce-enable"


def roce_switch(version):
    """(key, on, off) of the RoCE switch in the release's dialect."""
    if dialect_of(version) == "roce-state":
        return "state", "enabled", "disabled"
    return "enable", "on", "off"


def use_version(version):
    """The schema and the factory state in the release's words: a release refuses the
    other dialect's key as it refuses any unknown key (400), as its schema would."""
    key, on, off = roce_switch(version)
    roce = {k: v for k, v in QOS.children["roce"].children.items() if k not in ("enable", "state")}
    roce[key] = enum(on, off)
    QOS.children["roce"] = Obj(roce)
    QOS_DEFAULTS["roce"] = {key: off}


def roce_running(qos, version):
    key, on, _ = roce_switch(version)
    return (qos.get("roce") or {}).get(key) == on


def pfc_status(pfc, yes, no):
    """The pfc rows of a RoCE status: pfc-priority, rx-enabled, tx-enabled."""
    out = {"rx-enabled": yes if pfc.get("rx") == "enable" else no,
           "tx-enabled": yes if pfc.get("tx") == "enable" else no}
    prios = sorted(int(k) for k in (pfc.get("switch-priority") or {}))
    if prios:
        out["pfc-priority"] = ",".join(str(p) for p in prios)
    return out


def roce_status(config, version):
    """`nv show qos roce`'s operational column: mode, pfc, congestion-control; empty while
    RoCE is off.  What the applied configuration sets: the simulator derives nothing."""
    qos = filled_qos(config)
    if not roce_running(qos, version):
        return {}
    pfc = (qos.get("pfc") or {}).get("default-global")
    tcs = ((qos.get("congestion-control") or {}).get("default-global") or {}).get("traffic-class") or {}
    marked = sorted(int(tc) for tc, t in tcs.items() if (t or {}).get("ecn") == "enable")
    out = {"mode": qos["roce"].get("mode", "lossless"),
           "congestion-control": {"congestion-mode": "ECN",
                                  "enabled-tc": ",".join(str(t) for t in marked)}}
    if pfc:
        out["pfc"] = pfc_status(pfc, "enabled", "disabled")
    return out


def port_status(config, name, version, not_operational):
    """`nv show interface <if> qos roce status`: its pfc rows (the port's PFC profile, or
    default-global) and mode.  A port of --pfc-not-operational has its PFC applied but not
    running: no pfc-priority, rx and tx no."""
    qos = filled_qos(config)
    if name in not_operational:
        return {"pfc": {"rx-enabled": "no", "tx-enabled": "no"}, "mode": qos["roce"].get("mode", "lossless")}
    intf = (config.get("interface") or {}).get(name) or {}
    ref = ((intf.get("qos") or {}).get("pfc") or {}).get("profile", "default-global")
    pfc = (qos.get("pfc") or {}).get(ref)
    return {"pfc": pfc_status(pfc, "yes", "no") if pfc else {},
            "mode": qos["roce"].get("mode", "lossless")}


def operational_state(tree, config, opts, uptime):
    """What the switch reports beside its configuration in the operational revision: the
    system's build (GET /nvue_v1/system: "build": "Cumulus Linux 5.4.0", the 5.6 API page)
    and RoCE's status, switch-wide and on each configured port."""
    system = tree.setdefault("system", {})
    system.setdefault("hostname", "cumulus")
    system.setdefault("timezone", "Etc/UTC")
    system["build"] = f"Cumulus Linux {opts.version_text}"
    system["uptime"] = int(uptime)
    qos = tree.setdefault("qos", {})
    qos["roce"] = roce_status(config, opts.version)
    if not qos["roce"]:
        return tree
    for name, intf in (tree.get("interface") or {}).items():
        if SWP_RE.fullmatch(name) and name in opts.port_set and isinstance(intf, dict):
            iq = intf.setdefault("qos", {})
            iq["roce"] = {"status": port_status(config, name, opts.version, opts.pfc_not_operational)}
    return tree


# ---------------------------------------------------------------------------
# Range keys ("swp1-4", "swp1,51-54", "vlan10,20", "4,5,7") as NVUE writes them
# in startup.yaml; expanded wherever the model knows the key is a collection id.
# ---------------------------------------------------------------------------

RANGE_PART = re.compile(r"(?P<pre>.*?)(?P<lo>\d+)(?:-(?P<hi>\d+))?")


def expand_key(key):
    if "," not in key and not re.search(r"\d-\d+$", key):
        return [key]
    names = []
    prev_prefix = None
    for part in key.split(","):
        m = RANGE_PART.fullmatch(part)
        if not m:
            names.append(part)
            prev_prefix = None
            continue
        prefix = m["pre"]
        if prefix == "" and prev_prefix is not None:
            prefix = prev_prefix      # "swp1,51-54": 51-54 keeps "swp"
        lo, hi = int(m["lo"]), int(m["hi"] or m["lo"])
        if hi < lo or hi - lo > 4096:
            raise ApiError(400, f"'{key}' is not a valid range")
        names.extend(f"{prefix}{n}" for n in range(lo, hi + 1))
        prev_prefix = prefix
    return names


# ---------------------------------------------------------------------------
# Plain JSON tree helpers
# ---------------------------------------------------------------------------

def is_member_set(tree):
    """An NVUE set as the API writes it: members with empty objects ({"3": {}})."""
    return isinstance(tree, dict) and tree and all(v == {} for v in tree.values())


def deep_merge(base, over):
    """over wins; both dicts merged recursively; returns a new tree.

    A set the configuration gives replaces the default set whole: the RoCE
    page's "nv set qos traffic-pool default-lossy switch-priority 0-3,5-7"
    (moving priority 4 to another pool) would mean nothing if the filled
    view still added the default 0-7.
    """
    if not isinstance(base, dict) or not isinstance(over, dict) or is_member_set(over):
        return copy.deepcopy(over)
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = deep_merge(out.get(k), v)
    return out


def merge_patch(target, patch):
    """RFC 7396 JSON merge patch: null deletes, objects merge, the rest replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if not isinstance(target, dict):
        target = {}
    for k, v in patch.items():
        if v is None:
            target.pop(k, None)
        else:
            target[k] = merge_patch(target.get(k), v)
    return target


def wrap(path, body):
    for seg in reversed(path):
        body = {seg: body}
    return body


def walk(tree, path):
    node = tree
    for seg in path:
        if not isinstance(node, dict) or seg not in node:
            raise KeyError(seg)
        node = node[seg]
    return node


def dotted(path):
    return ".".join(path)


# ---------------------------------------------------------------------------
# Schema walk: request validation (what the OpenAPI schema refuses with 400)
# ---------------------------------------------------------------------------

def spec_at(path):
    """Schema node for a URL path; ApiError 404/400 when the path is no endpoint."""
    spec = ROOT
    for i, seg in enumerate(path):
        where = "/" + "/".join(path[:i + 1])
        if isinstance(spec, Opaque):
            return spec
        if isinstance(spec, Obj):
            nxt = spec.child(seg)
            if nxt is None:
                raise ApiError(404, f"The requested URL {API_BASE}{where} was not found")
            spec = nxt
        elif isinstance(spec, Coll):
            err = spec.key_check(seg)
            if err:
                raise ApiError(400, f"{err} - 'path' {where}")
            spec = spec.child
        else:
            raise ApiError(404, f"The requested URL {API_BASE}{where} was not found")
    if isinstance(spec, Leaf):
        # The OpenAPI document has endpoints for objects and collections only.
        raise ApiError(404, f"The requested URL {API_BASE}/{'/'.join(path)} was not found")
    return spec


def normalize(spec, value, path):
    """Validate a (patch) value against spec; return it with range keys expanded.

    null is allowed anywhere (merge-patch delete).  Raises ApiError(400)."""
    if value is None or isinstance(spec, Opaque):
        return value
    if isinstance(spec, Leaf):
        err = spec.check(value)
        if err:
            raise ApiError(400, f"{err} - at {dotted(path) or 'root'}")
        return value
    if not isinstance(value, dict):
        raise ApiError(400, f"{json.dumps(value)} is not of type 'object' - at {dotted(path) or 'root'}")
    out = {}
    if isinstance(spec, Obj):
        for k, v in value.items():
            child = spec.child(k)
            if child is None:
                raise ApiError(400, f"Additional properties are not allowed ('{k}' was unexpected)"
                                    f" - at {dotted(path) or 'root'}")
            out[k] = normalize(child, v, path + [k])
        return out
    for k, v in value.items():            # Coll
        names = expand_key(k)
        norm = normalize(spec.child, v, path + [k])
        for name in names:
            err = spec.key_check(name)
            if err:
                raise ApiError(400, f"{err} - at {dotted(path + [name])}")
            # Range keys and their members merge in file order (bond1-3 then bond1).
            if name in out and isinstance(out[name], dict) and isinstance(norm, dict):
                out[name] = deep_merge(out[name], norm)
            else:
                out[name] = copy.deepcopy(norm)
    return out


# ---------------------------------------------------------------------------
# Apply-time validation (a revision that fails becomes "invalid")
# ---------------------------------------------------------------------------

def filled_qos(config):
    qos = config.get("qos") or {}
    filled = deep_merge(QOS_DEFAULTS, qos)
    # A configured default-global ECN profile replaces the default one, whose
    # traffic class 0 is then no longer marked: the QoS page's "Congestion
    # Control (ECN)" sets traffic classes 4,5,7 and shows those three alone,
    # its Linux tab the same as default_ecn_red_conf.egress_queue_list =
    # [4,5,7] in place of the default [0]. Configured but empty (every class
    # unset), it marks nothing: the docs do not say; this is the stricter
    # reading for a client, which must unset the profile to get the default back.
    cc = qos.get("congestion-control")
    if isinstance(cc, dict) and isinstance(cc.get("default-global"), dict):
        filled["congestion-control"]["default-global"] = copy.deepcopy(cc["default-global"])
    return filled


def semantic_issues(config, ports, refuse):
    """List of (location, reason) for a full candidate config."""
    issues = []
    qos = filled_qos(config)
    interfaces = config.get("interface") or {}

    for name, intf in sorted(interfaces.items()):
        if SWP_RE.fullmatch(name) and name not in ports:
            issues.append((f"interface.{name}", f"Interface {name} does not exist on this switch."))
        iq = intf.get("qos") if isinstance(intf, dict) else None
        iq = iq if isinstance(iq, dict) else {}
        for kind in IF_PROFILE_KINDS:
            ref = iq.get(kind)
            prof = ref.get("profile") if isinstance(ref, dict) else None
            if prof is not None and prof not in (qos.get(kind) or {}):
                issues.append((f"interface.{name}.qos.{kind}.profile",
                               f"QoS {kind} profile '{prof}' is not configured."))
        if isinstance(iq.get("pfc"), dict) and isinstance(iq.get("link-pause"), dict):
            issues.append((f"interface.{name}.qos",
                           "You can not configure link pause and PFC on the same port."))

    pools = qos.get("traffic-pool") or {}
    lossless = [p for p in LOSSLESS_POOLS if p in pools]
    if len(lossless) > 1:
        issues.append(("qos.traffic-pool",
                       "You can only have a single lossless pool configured on the switch at a time."))
    total = sum((p or {}).get("memory-percent", 0) for p in pools.values())
    if total > 100:
        issues.append(("qos.traffic-pool",
                       f"The total memory allocation across pools must not exceed 100% (is {total}%)."))

    for prof, body in sorted((qos.get("congestion-control") or {}).items()):
        for tc, ecn in sorted(((body or {}).get("traffic-class") or {}).items()):
            ecn = ecn or {}
            lo = ecn.get("min-threshold", ECN_MIN_DEFAULT)
            hi = ecn.get("max-threshold", ECN_MAX_DEFAULT)
            if lo >= hi:
                issues.append((f"qos.congestion-control.{prof}.traffic-class.{tc}",
                               f"min-threshold ({lo}) must be less than max-threshold ({hi})."))

    # bw-percent: "The combined total of values you assign to bw_percent must
    # be less than or equal to 100" (QoS page, Egress Scheduling), over the
    # classes in dwrr mode. In default-global the classes nobody configured
    # keep NVUE's default scheduler ("egress queues 0,2,4,6 is 12 percent and
    # ... 1,3,5,7 is 13 percent", the same page, and the filled read-back
    # shows them): they count, so one class set to 70 on a factory switch is
    # 70 + 87. Other profiles have no defaults: their configured classes only.
    configured = (config.get("qos") or {}).get("egress-scheduler") or {}
    for prof in sorted(set(configured) | {"default-global"}):
        body = (qos.get("egress-scheduler") or {}).get(prof) if prof == "default-global" \
            else configured.get(prof)
        if prof == "default-global" and prof not in configured:
            continue
        tcs = (body or {}).get("traffic-class") or {}
        total = sum((t or {}).get("bw-percent", 0) for t in tcs.values()
                    if (t or {}).get("mode", "dwrr") == "dwrr")
        if total > 100:
            issues.append((f"qos.egress-scheduler.{prof}",
                           f"The combined total of bw-percent must be less than or equal to 100 (is {total})."))

    issues.extend(refused_values(config, refuse))
    return issues


# ---------------------------------------------------------------------------
# RoCE mode's buffer reservation, the operational `nv show qos roce pool-map`
# ---------------------------------------------------------------------------

# RoCE page (cumulus-linux-515 RDMA-over-Converged-Ethernet-RoCE.md), every
# "RoCE pool config" table of `nv show qos roce` in a lossless mode and the
# NVUE reference's `nv show qos roce pool-map` example: roce-reserved-egress
# holds traffic class 3, whatever else is configured; its "Change RoCE
# Configuration" moves the RoCE switch-priority from 3 to 2 by mapping 2 to
# traffic class 3 (and 3 to 0), so the reserved egress buffer stays with
# traffic class 3, not with a priority. roce-reserved-ingress holds the RoCE
# switch-priorities (3 in every example: "Switch priority 3 allocated to RoCE
# lossless traffic pool", "Default RoCE Configuration"; here the
# roce-lossless traffic pool's, 3 where none is configured). The lossy modes
# reserve nothing (the lossy-multi-tc example has lossy-default pools only).
ROCE_RESERVED_TC = 3
ROCE_LOSSLESS_MODES = ("lossless", "lossless-single-ipool")


def roce_pool_map(config, version):
    """The pools' members as NVUE sets ({"3": {}}); {} when RoCE mode reserves nothing."""
    qos = filled_qos(config)
    roce = qos.get("roce") or {}
    if not roce_running(qos, version) or roce.get("mode", "lossless") not in ROCE_LOSSLESS_MODES:
        return {}
    pool = (qos.get("traffic-pool") or {}).get("roce-lossless") or {}
    roce_sp = {int(p) for p in (pool.get("switch-priority") or {"3": {}})}
    eqm = ((qos.get("egress-queue-mapping") or {}).get("default-global") or {}).get(
        "switch-priority") or {}
    tcs = {int((eqm.get(str(p)) or {}).get("traffic-class", p)) for p in range(8)}
    def members(ids):
        return {str(i): {} for i in sorted(ids)}
    return {
        "lossy-default-ingress": {"switch-priority": members(set(range(8)) - roce_sp)},
        "roce-reserved-ingress": {"switch-priority": members(roce_sp)},
        "lossy-default-egress": {"traffic-class": members(tcs - {ROCE_RESERVED_TC})},
        "roce-reserved-egress": {"traffic-class": members({ROCE_RESERVED_TC})},
    }


def refused_values(config, refuse):
    """--refuse-path fault injection: matching leaves present in the config."""
    found = []
    for pattern, value in refuse:
        for path, leaf in matches(config, pattern):
            if value is None or str(leaf) == value:
                found.append((dotted(path),
                              f"Value {json.dumps(leaf)} refused by the simulator (--refuse-path)."))
    return found


def matches(tree, pattern, prefix=()):
    if not pattern:
        yield list(prefix), tree
        return
    if not isinstance(tree, dict):
        return
    head, rest = pattern[0], pattern[1:]
    keys = sorted(tree) if head == "*" else ([head] if head in tree else [])
    for k in keys:
        yield from matches(tree[k], rest, prefix + (k,))


# ---------------------------------------------------------------------------
# Revisions and the switch state
# ---------------------------------------------------------------------------

class Revision:
    def __init__(self, rid):
        self.id = rid
        self.state = "pending"
        self.issues = {}
        self.progress = ""
        self.ops = []          # ("patch", wrapped-body) or ("delete", path)
        self.word = "apply"    # the state shown while it applies (--apply-state)
        self.pad = 0           # KiB of progress text while it applies (--progress-kb)

    def body(self):
        state = self.word if self.state == "apply" else self.state
        progress = self.progress
        if self.state == "apply" and self.pad:
            progress += "." * (1024 * self.pad)
        obj = {"state": state, "transition": {"issue": self.issues, "progress": progress}}
        # The docs print the ays_fail answer keyed by the revision id (both in
        # the 5.0 and 5.14 pages), the other states unkeyed; kept as printed.
        return {self.id: obj} if self.state == "ays_fail" else obj


class Switch:
    """All state behind one lock; the HTTP handlers call in, the apply timer too."""

    def __init__(self, opts, config, header):
        self.opts = opts
        self.lock = threading.Lock()
        self.applied = config
        self.startup = copy.deepcopy(config)
        self.header = header
        self.started = time.monotonic()
        self.saved = False
        self.revisions = {}
        self.counter = 0
        self.applies_done = 0
        self.drops_left = opts.drop_apply
        self.apply_errors = list(opts.apply_error)   # --apply-error, one per apply, in order
        self.busy_until = 0.0                         # --busy-after-apply: monotonic seconds

    # --- ids --------------------------------------------------------------
    def new_id(self):
        self.counter += 1
        if self.opts.rev_id:
            return self.opts.rev_id.pop(0)   # fault: a hostile server's ids (--rev-id)
        if self.opts.rev_ids == "number":
            return str(self.counter)
        # Older releases name revisions like changeset/cumulus/2021-11-02_16.09.18_5Z1K.
        stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H.%M.%S")
        tag = "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(4))
        return f"changeset/{self.opts.user}/{stamp}_{tag}"

    # --- views --------------------------------------------------------------
    def candidate(self, rev):
        """The revision's ops replayed on the applied config of now (a changeset)."""
        tree = copy.deepcopy(self.applied)
        for kind, arg in rev.ops:
            if kind == "patch":
                tree = merge_patch(tree, copy.deepcopy(arg))
            elif not arg:
                tree = {}
            else:
                try:
                    parent = walk(tree, arg[:-1])
                except KeyError:
                    continue          # already gone: deleting it again changes nothing
                if isinstance(parent, dict):
                    parent.pop(arg[-1], None)
        return tree

    def view(self, rev, filled):
        if rev in ("applied", None, "operational"):
            tree = copy.deepcopy(self.applied)
            if rev != "applied":
                tree = self.operational(tree)
        elif rev == "startup":
            tree = copy.deepcopy(self.startup)
        elif rev == "empty":
            tree = {}
        elif rev == "pending":
            pend = [r for r in self.revisions.values() if r.state == "pending"]
            tree = self.candidate(pend[-1]) if pend else copy.deepcopy(self.applied)
        else:
            tree = self.candidate(self.revision(rev))
        if filled:
            tree["qos"] = filled_qos(tree)
            if self.header:
                tree["header"] = copy.deepcopy(self.header)
        if rev in (None, "operational"):
            tree = operational_state(tree, self.applied, self.opts, time.monotonic() - self.started)
        return tree

    @staticmethod
    def operational(tree):
        # The docs' read-back of interface lo without ?rev shows the kernel's
        # 127.0.0.1/8 and ::1/128 beside the configured address.
        lo = tree.setdefault("interface", {}).setdefault("lo", {})
        addrs = lo.setdefault("ip", {}).setdefault("address", {})
        addrs.setdefault("127.0.0.1/8", {})
        addrs.setdefault("::1/128", {})
        return tree

    def revision(self, rid):
        if rid not in self.revisions:
            raise ApiError(404, f"Revision {rid} not found")
        return self.revisions[rid]

    def editable(self, rid):
        if rid in ("applied", "startup", "operational", "empty", "pending"):
            raise ApiError(400, f"Revision {rid} can not be changed; create one with POST {API_BASE}/revision")
        rev = self.revision(rid)
        if rev.state in ("apply", "applied"):
            raise ApiError(409, f"Revision {rid} is in state {rev.state} and can not be changed")
        return rev

    # --- config edits ---------------------------------------------------------
    def patch(self, rid, path, body):
        spec_at(path)
        rev = self.editable(rid)
        wrapped = normalize(ROOT, wrap(path, body), [])
        self.auto_type(rev, wrapped)
        rev.ops.append(("patch", wrapped))
        rev.state, rev.issues, rev.progress = "pending", {}, ""
        if self.opts.legacy_59:
            return self.candidate(rev)   # 5.9 and earlier: the full state
        try:
            return walk(wrapped, path)   # 5.10 and later: the change itself
        except KeyError:
            return None

    def auto_type(self, rev, wrapped):
        """5.10+ note: a well-named interface such as swp1 gets type swp by itself."""
        intfs = wrapped.get("interface") if isinstance(wrapped, dict) else None
        if not isinstance(intfs, dict):
            return
        existing = (self.candidate(rev).get("interface") or {})
        for name, body in intfs.items():
            if (SWP_RE.fullmatch(name) and isinstance(body, dict) and "type" not in body
                    and name not in existing):
                body["type"] = "swp"

    def delete(self, rid, path):
        spec_at(path)
        rev = self.editable(rid)
        if path:
            try:
                walk(self.candidate(rev), path)
            except KeyError:
                raise ApiError(404, f"{API_BASE}/{'/'.join(path)} is not configured in revision {rid}")
        rev.ops.append(("delete", list(path)))
        rev.state, rev.issues, rev.progress = "pending", {}, ""

    # --- apply / save ---------------------------------------------------------
    def start_apply(self, rid, body):
        rev = self.revision(rid)
        if rev.state not in ("pending", "invalid", "ays_fail"):
            raise ApiError(409, f"Revision {rid} is in state {rev.state} and can not be applied")
        prompt = body.get("auto-prompt") or {}
        ays_yes = prompt.get("ays") == "ays_yes"
        rev.state, rev.issues, rev.progress = "apply", {}, ""
        rev.word = self.opts.apply_state
        rev.pad = self.opts.progress_kb
        if self.opts.busy_after_apply:
            self.busy_until = time.monotonic() + self.opts.busy_after_apply
        if not self.opts.hang_apply:
            timer = threading.Timer(self.opts.apply_delay, self.finish_apply, (rev, ays_yes))
            timer.daemon = True
            timer.start()
        return {"state": "apply", "transition": {"issue": {}, "progress": ""}}

    def needs_prompt(self):
        if self.opts.prompt == "always":
            return True
        return self.opts.prompt == "first" and self.applies_done == 0

    def finish_apply(self, rev, ays_yes):
        with self.lock:
            cand = self.candidate(rev)
            issues = semantic_issues(cand, self.opts.port_set, self.opts.refuse)
            if issues:
                rev.state, rev.progress = "invalid", "Invalid config"
                rev.issues = {str(i): {
                    "code": "config_invalid",
                    "data": {"location": loc, "reason": reason + "\n"},
                    "message": f"Config invalid at {loc}: {reason}\n",
                    "severity": "error"} for i, (loc, reason) in enumerate(issues)}
                return                                  # all or nothing: applied untouched
            if self.needs_prompt() and not ays_yes:
                rev.state, rev.progress = "ays_fail", "Aborted apply after warnings"
                rev.issues = {"0": {"code": "client_timeout", "data": {},
                                    "message": "Timeout while waiting for client response",
                                    "severity": "error"}}
                return
            self.applied = cand
            self.applies_done += 1
            if self.opts.auto_save:
                self.startup = copy.deepcopy(cand)
                self.saved = True
            rev.state, rev.issues, rev.progress = "applied", {}, ""

    def save(self, body):
        if body.get("state") != "save":
            raise ApiError(400, "Only the state save can be set on revision applied")
        self.startup = copy.deepcopy(self.applied)
        self.saved = True
        return {"state": "save", "transition": {"issue": {}, "progress": ""}}

    def special_revision(self, rid):
        if rid == "applied":
            return {"state": "saved" if self.saved and self.startup == self.applied else "applied",
                    "transition": {"issue": {}, "progress": ""}}
        return {"state": "inactive", "transition": {"issue": {}, "progress": ""}}

    def revision_list(self):
        out = {rid: r.body() if r.state != "ays_fail" else r.body()[rid]
               for rid, r in self.revisions.items()}
        if self.saved:
            out["applied"] = self.special_revision("applied")
        out["empty"] = self.special_revision("empty")
        out["startup"] = self.special_revision("startup")
        return out


# ---------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------

UNMODELLED_QUERY = ("diff", "include", "omit", "view", "filter")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "nvue-sim"
    sys_version = ""

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    # --- plumbing -------------------------------------------------------------
    def log_message(self, fmt, *args):
        # The request line and status only: the Authorization header is never logged.
        sys.stderr.write("nvue_sim: %s %s\n" % (self.client_address[0], fmt % args))
        sys.stderr.flush()

    def send_body(self, status, obj, ctype="application/json"):
        data = b"" if obj is None else (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode()
        self.send_response(status)
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="nvue"')
        if status != 204:
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if status != 204:
            self.wfile.write(data)

    def send_nginx(self, status, fault):
        data = nginx_page(status)
        self.log_message('"%s" answered %d by the front end (%s)', self.requestline, status, fault)
        self.send_response_only(status)
        self.send_header("Server", "nginx")
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_problem(self, status, detail):
        phrase = HTTPStatus(status).phrase
        self.send_body(status, {"detail": detail, "status": status, "title": phrase,
                                "type": "about:blank"}, "application/problem+json")

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def authorized(self):
        sim = self.server.sim
        head = self.headers.get("Authorization", "")
        if not head.startswith("Basic "):
            return False
        try:
            user, _, pw = base64.b64decode(head[6:], validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return (hmac.compare_digest(user.encode(), sim.opts.user.encode())
                and hmac.compare_digest(pw.encode(), sim.opts.password.encode()))

    def dispatch(self, method):
        sim = self.server.sim
        try:
            raw = self.read_body()
        except (OSError, ValueError):
            self.close_connection = True
            return
        if sim.opts.delay:
            time.sleep(sim.opts.delay)
        if time.monotonic() < sim.busy_until:
            # Fault: nginx answers for a backend that restarts after an apply.
            self.send_nginx(502, "--busy-after-apply")
            return
        if not self.authorized():
            self.send_problem(401, "Authentication is required")
            return
        parts = urlsplit(self.path)
        if parts.path != API_BASE and not parts.path.startswith(API_BASE + "/"):
            self.send_problem(404, f"The requested URL {parts.path} was not found")
            return
        # Split before unquoting so that %2F inside a revision id stays in one segment.
        segs = [unquote(s) for s in parts.path[len(API_BASE):].split("/") if s]
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        if sim.opts.slow_poll and method == "GET" and segs[:1] == ["revision"] and len(segs) == 2:
            time.sleep(sim.opts.slow_poll)   # fault: a slow answer to a revision's state
        try:
            with sim.lock:
                if segs[:1] == ["revision"]:
                    status, obj, drop = self.revision_route(method, segs[1:], raw)
                else:
                    status, obj, drop = self.config_route(method, segs, query, raw)
        except ApiError as e:
            self.send_problem(e.status, e.detail)
            return
        except FrontEndError as e:
            self.send_nginx(e.status, "--apply-error")
            return
        if drop:
            # Fault injection: the apply was accepted and runs; the answer is lost.
            self.log_message('"%s" dropped (--drop-apply)', self.requestline)
            self.close_connection = True
            return
        self.send_body(status, obj)

    # --- routes ---------------------------------------------------------------
    @staticmethod
    def parse_json(raw, required=True):
        if not raw.strip():
            if required:
                raise ApiError(400, "Request body is required")
            return None
        try:
            return json.loads(raw)
        except ValueError as e:
            raise ApiError(400, f"Request body is not valid JSON: {e}")

    def revision_route(self, method, rest, raw):
        sim = self.server.sim
        if not rest:
            if method == "POST":
                rid = sim.new_id()
                sim.revisions[rid] = Revision(rid)
                return 200, {rid: sim.revisions[rid].body()}, False
            if method == "GET":
                return 200, sim.revision_list(), False
            raise ApiError(405, f"Method {method} is not allowed on {API_BASE}/revision")
        if len(rest) != 1:
            raise ApiError(404, f"The requested URL {API_BASE}/revision/{'/'.join(rest)} was not found")
        rid = rest[0]
        if method == "GET":
            if rid in ("applied", "startup", "empty"):
                return 200, sim.special_revision(rid), False
            return 200, sim.revision(rid).body(), False
        if method != "PATCH":
            raise ApiError(405, f"Method {method} is not allowed on a revision")
        # The 5.14 page prints an apply PATCH without a body answering "apply":
        # a missing body is taken as {"state": "apply"} with no prompt answer.
        body = self.parse_json(raw, required=False) or {"state": "apply"}
        check_revision_body(body)
        if rid == "applied":
            return 200, sim.save(body), False
        if body["state"] != "apply":
            raise ApiError(400, f"State {body['state']} can not be set on revision {rid}")
        answer = sim.start_apply(rid, body)
        drop = sim.drops_left > 0
        if drop:
            sim.drops_left -= 1
        if not drop and sim.apply_errors:
            # Fault: the apply runs on and ends as it would; its answer is nginx's.
            raise FrontEndError(sim.apply_errors.pop(0))
        return 200, answer, drop

    def config_route(self, method, path, query, raw):
        sim = self.server.sim
        for name in UNMODELLED_QUERY:
            if name in query:
                raise ApiError(400, f"Query parameter '{name}' is not modelled by the simulator")
        rev = query.get("rev")
        if method == "GET" and path == ["qos", "roce", "pool-map"]:
            # Operational only, as `nv show` is: RoCE mode's reservation (roce_pool_map).
            if rev not in (None, "operational"):
                raise ApiError(404, f"{API_BASE}/qos/roce/pool-map has no configuration (rev={rev})")
            return 200, roce_pool_map(sim.applied, sim.opts.version), False
        if method == "GET":
            spec_at(path)
            if rev not in (None, "applied", "startup", "operational", "pending", "empty"):
                sim.revision(rev)
            tree = sim.view(rev, query.get("filled", "true") != "false")
            try:
                return 200, walk(tree, path), False
            except KeyError:
                raise ApiError(404, f"{API_BASE}/{'/'.join(path)} is not configured")
        if method not in ("PATCH", "DELETE"):
            raise ApiError(405 if method != "POST" else 501,
                           f"{method} on {API_BASE}/{'/'.join(path)} is not modelled by the simulator")
        if not rev:
            raise ApiError(400, "Missing query parameter 'rev'")
        if method == "PATCH":
            body = self.parse_json(raw)
            return 200, sim.patch(rev, path, body), False
        sim.delete(rev, path)
        if sim.opts.legacy_59:
            return 200, {}, False      # 5.9 and earlier: 200 with {}
        return 204, None, False        # 5.10 and later: 204 No Content


def check_revision_body(body):
    if not isinstance(body, dict):
        raise ApiError(400, "Revision body must be an object")
    extra = set(body) - {"state", "auto-prompt"}
    if extra:
        raise ApiError(400, f"Additional properties are not allowed ({sorted(extra)} were unexpected)")
    if body.get("state") not in ("apply", "save"):
        raise ApiError(400, f"{json.dumps(body.get('state'))} is not one of ['apply', 'save']")
    prompt = body.get("auto-prompt", {})
    if not isinstance(prompt, dict) or set(prompt) - {"ays", "ignore_fail"}:
        raise ApiError(400, "auto-prompt takes ays and ignore_fail only")
    if prompt.get("ays", "ays_yes") not in ("ays_yes", "ays_no"):
        raise ApiError(400, "auto-prompt ays must be ays_yes or ays_no")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, sim, ctx, family):
        self.address_family = family
        self.sim = sim
        self.ctx = ctx
        super().__init__(addr, Handler)

    def server_bind(self):
        # HTTPServer.server_bind would look the name up (getfqdn); loopback needs none.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def finish_request(self, request, client_address):
        # TLS handshake in the worker thread, so one slow client cannot block accept().
        request.settimeout(30)
        # Headers and body go out in separate writes: without this, Nagle and the
        # client's delayed ACK add 40 ms to every answer.
        request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            tls = self.ctx.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as e:
            sys.stderr.write(f"nvue_sim: {client_address[0]} TLS handshake failed: {e}\n")
            return
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            tls.close()


# ---------------------------------------------------------------------------
# Start-up: options, the initial config file
# ---------------------------------------------------------------------------

def load_config(path):
    """An NVUE startup.yaml (a list of - header: / - set: maps) -> (set tree, header)."""
    import yaml   # only for --config; Debian python3-yaml

    class Loader(yaml.SafeLoader):
        """YAML 1.1 without the implicit bools and base-60 numbers: NVUE writes
        `enable: on` and MAC addresses like 00:00:00:00:00:10 unquoted."""

    Loader.yaml_implicit_resolvers = {
        ch: [(tag, rx) for tag, rx in rs
             if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
                            "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp")]
        for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(0|[1-9][0-9]*)$"),
                                 list("-+0123456789"))
    Loader.add_implicit_resolver("tag:yaml.org,2002:float",
                                 re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$"),
                                 list("-+0123456789."))
    with open(path, encoding="utf-8") as f:
        doc = yaml.load(f, Loader=Loader)
    entries = doc if isinstance(doc, list) else [doc]
    header, config = {}, {}
    for entry in entries:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise SystemExit(f"{path}: expected a list of single-key maps (- header: / - set:)")
        (kind, body), = entry.items()
        if kind == "header":
            header = stringify_keys(body or {})
        elif kind == "set":
            config = deep_merge(config, stringify_keys(body or {}))
        else:
            raise SystemExit(f"{path}: '{kind}' entries are not modelled (only header and set)")
    try:
        return normalize(ROOT, config, []), header
    except ApiError as e:
        raise SystemExit(f"{path}: {e.detail}")


def stringify_keys(node):
    if isinstance(node, dict):
        return {str(k): stringify_keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [stringify_keys(v) for v in node]
    return node


def parse_args(argv):
    p = argparse.ArgumentParser(description="NVUE REST API simulator (test tool); see tests/sim/NVUE.md")
    p.add_argument("--listen", default="127.0.0.1", help="loopback address to listen on")
    p.add_argument("--port", type=int, default=8765, help="TCP port (0: pick a free one)")
    p.add_argument("--port-file", help="write the port actually bound to this file")
    p.add_argument("--cert", required=True, help="PEM certificate for TLS")
    p.add_argument("--key", required=True, help="PEM private key for TLS")
    p.add_argument("--ports", default="swp1-32",
                   help="switch ports that exist, e.g. swp1-32,swp33s0-3 (default swp1-32)")
    p.add_argument("--config", help="NVUE startup.yaml: initial applied and startup config")
    p.add_argument("--apply-delay", type=float, default=0.5,
                   help="seconds a revision stays in state apply (default 0.5)")
    p.add_argument("--prompt", choices=("never", "first", "always"), default="first",
                   help="when an apply asks 'are you sure' (default: the first apply)")
    p.add_argument("--auto-save", choices=("on", "off"), default="off",
                   help="apply also copies applied to startup (CL 5.9+ default is on)")
    p.add_argument("--rev-ids", choices=("number", "changeset"), default="number",
                   help="revision ids as 1, 2, ... or changeset/<user>/<time>_<tag>")
    p.add_argument("--legacy-5.9", dest="legacy_59", action="store_true",
                   help="PATCH answers the full state and DELETE 200 {} (CL 5.9 and earlier)")
    p.add_argument("--version", default="5.15.0", metavar="5.X[.Y]",
                   help="the Cumulus Linux release: its build, its qos roce dialect "
                        "(enable on|off before 5.15, state enabled|disabled from 5.15), "
                        "and before 5.10 the 5.9 answers of --legacy-5.9 (default 5.15.0)")
    p.add_argument("--pfc-not-operational", default="", metavar="PORTS",
                   help="fault: these ports' PFC is applied but not operational (their RoCE status)")
    p.add_argument("--refuse-path", action="append", default=[], metavar="PATH[=VALUE]",
                   help="fault: applies containing this leaf (* matches one segment) end invalid")
    p.add_argument("--drop-apply", type=int, default=0, metavar="N",
                   help="fault: close the connection instead of answering the first N applies")
    p.add_argument("--hang-apply", action="store_true",
                   help="fault: revisions never leave state apply")
    p.add_argument("--delay", type=float, default=0.0, help="fault: seconds before every answer")
    p.add_argument("--rev-id", action="append", default=[], metavar="TEXT",
                   help="fault: the Nth new revision is named the Nth TEXT, whatever it is")
    p.add_argument("--slow-poll", type=float, default=0.0, metavar="SECONDS",
                   help="fault: GET /revision/<id> answers wait this long")
    p.add_argument("--apply-error", type=int, action="append", default=[], metavar="STATUS",
                   choices=sorted(NGINX_TITLES),
                   help="fault: the Nth apply is answered STATUS by nginx while it runs on; repeatable")
    p.add_argument("--apply-state", default="apply", metavar="WORD",
                   help="fault: the state a revision shows while it applies (default apply)")
    p.add_argument("--progress-kb", type=int, default=0, metavar="KB",
                   help="fault: while a revision applies, its progress text is KB KiB long")
    p.add_argument("--busy-after-apply", type=float, default=0.0, metavar="SECONDS",
                   help="fault: for SECONDS after an apply starts, nginx answers 502 to every request")
    opts = p.parse_args(argv)
    if not re.fullmatch(r"[a-z][a-z_]{0,31}", opts.apply_state):
        p.error("--apply-state: a word of lower-case letters and '_'")

    try:
        if not ipaddress.ip_address(opts.listen).is_loopback:
            p.error("--listen must be a loopback address")
    except ValueError:
        p.error("--listen must be a numeric loopback address")
    opts.user = os.environ.get("NVUE_SIM_USER", "")
    opts.password = os.environ.get("NVUE_SIM_PASSWORD", "")
    if not opts.user or not opts.password:
        p.error("set NVUE_SIM_USER and NVUE_SIM_PASSWORD in the environment")
    try:
        opts.port_set = set(expand_key(opts.ports))
    except ApiError as e:
        p.error(f"--ports: {e.detail}")
    opts.auto_save = opts.auto_save == "on"
    opts.version = parse_version(opts.version)
    if not opts.version:
        p.error("--version: a Cumulus Linux 5.x release, like 5.9 or 5.15.0")
    opts.version_text = "%d.%d.%d" % opts.version
    # The 5.10 notes of the API page: PATCH answers the change, DELETE 204; 5.9 and earlier not.
    opts.legacy_59 = opts.legacy_59 or opts.version[:2] < (5, 10)
    try:
        opts.pfc_not_operational = set(expand_key(opts.pfc_not_operational)) \
            if opts.pfc_not_operational else set()
    except ApiError as e:
        p.error(f"--pfc-not-operational: {e.detail}")
    opts.refuse = []
    for item in opts.refuse_path:
        path, eq, value = item.partition("=")
        opts.refuse.append(([s for s in path.strip("/").split("/") if s], value if eq else None))
    return opts


def main(argv):
    opts = parse_args(argv)
    use_version(opts.version)
    config, header = load_config(opts.config) if opts.config else ({}, {})
    issues = semantic_issues(config, opts.port_set, [])
    if issues:
        raise SystemExit("--config: " + "; ".join(f"{loc}: {why}" for loc, why in issues))
    sim = Switch(opts, config, header)

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(opts.cert, opts.key)
    family = socket.AF_INET6 if ":" in opts.listen else socket.AF_INET
    server = Server((opts.listen, opts.port), sim, ctx, family)
    port = server.server_address[1]
    if opts.port_file:
        tmp = opts.port_file + ".tmp"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(f"{port}\n")
        os.replace(tmp, opts.port_file)   # readers never see a half-written file
    sys.stderr.write(f"nvue_sim: listening on https://{opts.listen}:{port}{API_BASE}\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
