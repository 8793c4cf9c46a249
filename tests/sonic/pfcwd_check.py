#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The PFC_WD table of a config_db JSON, checked as SONiC's sonic-pfcwd.yang
would (that model is not among the SONiC models the tests use, docs/testing.md,
so yanglint cannot). Written from the model's facts, sonic-net/sonic-buildimage
src/sonic-yang-models/yang-models/sonic-pfcwd.yang (revision 2021-07-01):

  PFC_WD_LIST, key ifname: a PORT name (leafref) or "GLOBAL";
  action            enum drop | forward | alert        (not on GLOBAL)
  detection_time    uint32 100..5000, >= GLOBAL's POLL_INTERVAL   (not on GLOBAL)
  restoration_time  uint32 100..60000, >= GLOBAL's POLL_INTERVAL  (not on GLOBAL)
  pfc_stat_history  "enable" | "disable"                (not on GLOBAL)
  POLL_INTERVAL     uint32 100..1000                    (GLOBAL only)

The leaves SONiC's own GLOBAL row also carries (BIG_RED_SWITCH, which
pfcwd's CLI writes there) are not in the model: refused here as libyang
refuses an unknown leaf. Messages follow libyang's wording where it has one
("Value "X" does not satisfy the range constraint.") and the model's
error-message strings for its musts.

Used by validate.sh (qosgen's files) and by the SONiC simulator (a patch's
target). A test tool: shares no code with qosgen.

Usage: pfcwd_check.py CONFIG_DB.json > REST.json
  errors on stderr (exit 1); the config without PFC_WD on stdout, for
  configdb2yang.py.
"""
import json
import sys

ACTIONS = ("drop", "forward", "alert")
RANGES = {"detection_time": (100, 5000), "restoration_time": (100, 60000),
          "POLL_INTERVAL": (100, 1000)}
PORT_LEAVES = ("action", "detection_time", "restoration_time", "pfc_stat_history")
GLOBAL = "GLOBAL"


def where(ifname, leaf=None):
    p = f"/sonic-pfcwd:sonic-pfcwd/PFC_WD/PFC_WD_LIST[ifname='{ifname}']"
    return p + ("/" + leaf if leaf else "")


def uint32(value):
    """The value as YANG's uint32 reads it, or None."""
    s = value if isinstance(value, str) else str(value)
    if not s.isdigit() or int(s) > 0xFFFFFFFF:
        return None
    return int(s)


def check(config):
    """The first error in config's PFC_WD, as (message, data path), or None."""
    table = config.get("PFC_WD")
    if table is None:
        return None
    if not isinstance(table, dict):
        return ("PFC_WD is not a table of rows", "/sonic-pfcwd:sonic-pfcwd/PFC_WD")
    ports = config.get("PORT", {})
    poll = None
    g = table.get(GLOBAL)
    if isinstance(g, dict) and "POLL_INTERVAL" in g:
        poll = uint32(g["POLL_INTERVAL"])
    # GLOBAL first: its own leaves are judged before the times compared with it.
    for ifname in sorted(table, key=lambda k: (k != GLOBAL, k)):
        row = table[ifname]
        if ifname != GLOBAL and ifname not in ports:
            return (f'Invalid leafref value "{ifname}" - no target instance '
                    '"/sonic-port:sonic-port/PORT/PORT_LIST/name" with the same value.',
                    where(ifname, "ifname"))
        if not isinstance(row, dict):
            return ("a PFC_WD row is not an object of fields", where(ifname))
        for leaf, value in sorted(row.items()):
            known = leaf in PORT_LEAVES or leaf == "POLL_INTERVAL"
            if not known:
                return (f'Node "{leaf}" not found as a child of "PFC_WD_LIST" node.',
                        where(ifname))
            on_global = leaf == "POLL_INTERVAL"
            if on_global != (ifname == GLOBAL):
                op = "=" if on_global else "!="
                return (f"Must condition \"../ifname {op} 'GLOBAL'\" not satisfied.",
                        where(ifname, leaf))
            if leaf == "action" and value not in ACTIONS:
                return (f'Invalid enumeration value "{value}".', where(ifname, leaf))
            if leaf == "pfc_stat_history" and value not in ("enable", "disable"):
                return ("pfc_stat_history must be either enable or disable",
                        where(ifname, leaf))
            if leaf in RANGES:
                n = uint32(value)
                lo, hi = RANGES[leaf]
                if n is None:
                    return (f'Invalid type uint32 value "{value}".', where(ifname, leaf))
                if not lo <= n <= hi:
                    return (f'Value "{value}" does not satisfy the range constraint.',
                            where(ifname, leaf))
                if leaf != "POLL_INTERVAL" and poll is not None and n < poll:
                    return (f"{leaf} must be greater than or equal to POLL_INTERVAL",
                            where(ifname, leaf))
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: pfcwd_check.py CONFIG_DB.json > REST.json", file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    err = check(config)
    if err:
        print(f"pfcwd_check: {err[0]} (Data location \"{err[1]}\".)", file=sys.stderr)
        sys.exit(1)
    config.pop("PFC_WD", None)
    json.dump(config, sys.stdout, indent=4)
    print()


if __name__ == "__main__":
    main()
