#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""config_db JSON (what qosgen writes in sonic/<switch>.json) to SONiC YANG
instance data, for yanglint. The structure follows SONiC's own translation
(sonic-yang-mgmt's _xlateConfigDB, as tests/sonic/VALIDATE.md section 2
describes it): each table under its module's container, rows as
T_LIST entries with the key split on '|', the map tables as inner lists. The
values are typed from the schema as RFC 7951 and Debian's yanglint 2.x want
them (VALIDATE.md section 3), not as SONiC's laxer loader does.

Strict on purpose: a table this converter does not know is an error (exit 2),
never dropped, and every field passes through, so that yanglint judges it.
A wrong type here can only make yanglint refuse, never pass, the data.

Also: `configdb2yang.py --ports FIRST LAST` prints a device's own PORT rows
(lanes and speed are mandatory in sonic-port) for every number FIRST..LAST,
and the egress buffer pools and profiles BUFFER_QUEUE names (the MSN2700's,
tests/sim/sonic-msn2700.config_db.json, from SONiC's buffer templates), the
rows `yanglint -m` merges under the fragment.

Usage: configdb2yang.py CONFIG_DB.json > YANG.json
"""
import json
import sys

# table: (module, key leaves in the YANG key statement's order)
ROWS = {
    "PORT": ("sonic-port", ["name"]),
    "PORT_QOS_MAP": ("sonic-port-qos-map", ["ifname"]),
    "QUEUE": ("sonic-queue", ["ifname", "qindex"]),
    "BUFFER_PG": ("sonic-buffer-pg", ["port", "pg_num"]),
    "BUFFER_QUEUE": ("sonic-buffer-queue", ["port", "qindex"]),
    "WRED_PROFILE": ("sonic-wred-profile", ["name"]),
    "SCHEDULER": ("sonic-scheduler", ["name"]),
}
# map table: (module, inner key leaf, inner value leaf)
MAPS = {
    "DSCP_TO_TC_MAP": ("sonic-dscp-tc-map", "dscp", "tc"),
    "TC_TO_PRIORITY_GROUP_MAP": ("sonic-tc-priority-group-map", "tc", "pg"),
    "TC_TO_QUEUE_MAP": ("sonic-tc-queue-map", "tc", "qindex"),
    "MAP_PFC_PRIORITY_TO_QUEUE": ("sonic-pfc-priority-queue-map", "pfc_priority", "qindex"),
    "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": ("sonic-pfc-priority-priority-group-map",
                                           "pfc_priority", "pg"),
    "CABLE_LENGTH": ("sonic-cable-length", "port", "length"),
}
# Leaves of an (unsigned) integer type of 32 bits or fewer: JSON numbers.
# uint64 (WRED thresholds, probabilities) stays a string, as RFC 7951 says.
NUMBERS = {("PORT", "mtu"), ("PORT", "speed"), ("SCHEDULER", "weight"),
           ("SCHEDULER", "priority"), ("DSCP_TO_TC_MAP", "tc"),
           ("TC_TO_PRIORITY_GROUP_MAP", "tc"), ("TC_TO_QUEUE_MAP", "tc")}
BOOLEANS = {("WRED_PROFILE", "wred_green_enable"), ("WRED_PROFILE", "wred_yellow_enable"),
            ("WRED_PROFILE", "wred_red_enable")}


def typed(table, leaf, value):
    if (table, leaf) in NUMBERS:
        return int(value, 10)
    if (table, leaf) in BOOLEANS:
        if value not in ("true", "false"):
            return value  # left for yanglint to refuse
        return value == "true"
    return value


def container(out, module, table):
    return out.setdefault(module + ":" + module, {}).setdefault(module + ":" + table, {})


def convert(db):
    out = {}
    for table, rows in db.items():
        if table in MAPS:
            module, kleaf, vleaf = MAPS[table]
            lst = container(out, module, table).setdefault(table + "_LIST", [])
            for name, pairs in rows.items():
                lst.append({"name": name,
                            table: [{kleaf: typed(table, kleaf, k), vleaf: typed(table, vleaf, v)}
                                    for k, v in pairs.items()]})
        elif table in ROWS:
            module, keys = ROWS[table]
            lst = container(out, module, table).setdefault(table + "_LIST", [])
            for key, fields in rows.items():
                parts = [p.strip() for p in key.split("|")]
                if len(parts) != len(keys):
                    sys.exit("configdb2yang: %s key '%s' has %d parts, the model %d"
                             % (table, key, len(parts), len(keys)))
                entry = dict(zip(keys, parts))
                for leaf, value in fields.items():
                    entry[leaf] = typed(table, leaf, value)
                lst.append(entry)
        else:
            print("configdb2yang: no model for table %s" % table, file=sys.stderr)
            sys.exit(2)
    return out


def device_ports(first, last):
    rows = [{"name": "Ethernet%d" % n, "lanes": str(n), "speed": 100000, "admin_status": "up"}
            for n in range(first, last + 1)]
    pools = [{"name": "egress_lossless_pool", "type": "egress", "mode": "dynamic",
              "size": "13945824"},
             {"name": "egress_lossy_pool", "type": "egress", "mode": "dynamic"}]
    profiles = [{"name": "egress_lossless_profile", "pool": "egress_lossless_pool",
                 "size": "0", "dynamic_th": 7},
                {"name": "q_lossy_profile", "pool": "egress_lossy_pool", "size": "0",
                 "dynamic_th": 3}]
    return {"sonic-port:sonic-port": {"sonic-port:PORT": {"PORT_LIST": rows}},
            "sonic-buffer-pool:sonic-buffer-pool": {
                "sonic-buffer-pool:BUFFER_POOL": {"BUFFER_POOL_LIST": pools}},
            "sonic-buffer-profile:sonic-buffer-profile": {
                "sonic-buffer-profile:BUFFER_PROFILE": {"BUFFER_PROFILE_LIST": profiles}}}


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--ports":
        doc = device_ports(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 2:
        with open(sys.argv[1], encoding="utf-8") as f:
            doc = convert(json.load(f))
    else:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    json.dump(doc, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
