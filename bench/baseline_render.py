#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# bench/build's baseline: what a team writes instead of qosgen, in the fewest
# lines. PyYAML reads the intent, Jinja2 renders the files (an Onyx CLI file
# per switch, a whole host script per Linux host from the text of qosgen's
# helper library, as a team without qosgen's groups would), with no
# validation at all, and one plain write per file.
# Usage: baseline_render.py INTENT OUTDIR TEMPLATES_DIR
import os
import sys

import jinja2
import yaml

intent_path, out, tdir = sys.argv[1:4]
with open(intent_path) as f:
    intent = yaml.safe_load(f)
q = intent["qos"]
ll, cnp = q["lossless"], q.get("cnp", {})
prio = ll["priority"]
tos = ll["dscp"][0] << 2 | 2
env = jinja2.Environment(keep_trailing_newline=True, autoescape=False)
onyx = env.from_string(
    "## {{ generator }}: Onyx configuration for switch {{ sw.name }}\n"
    "interface ethernet {{ sw.ports | join(',') }} mtu {{ mtu }} force\n"
    "traffic pool {{ ll.pool.name }} type lossless\n"
    "traffic pool {{ ll.pool.name }} memory percent {{ '%.2f' % ll.pool.memory_percent }}\n"
    "traffic pool {{ ll.pool.name }} map switch-priority {{ ll.priority }}\n"
    "interface ethernet {{ sw.ports | join(',') }} qos trust L3\n"
    "interface ethernet {{ sw.ports | join(',') }} traffic-class {{ ll.priority }} "
    "congestion-control ecn minimum-absolute {{ ll.ecn.min_kb }} maximum-absolute {{ ll.ecn.max_kb }}\n"
    "interface ethernet {{ sw.ports | join(',') }} traffic-class {{ cnp.priority }} dcb ets strict\n")
with open(os.path.join(tdir, "linux-lib.sh.in")) as f:
    host = env.from_string(f.read() + "{{ body }}")
body = env.from_string(
    "qg_need_netdev {{ h.netdev }}\nqg_set_mtu {{ h.netdev }} {{ mtu }}\n"
    "qg_set_trust {{ h.netdev }} dscp\nqg_set_pfc {{ h.netdev }} {{ pfc }}\n"
    "qg_set_tos {{ h.rdma_device }} {{ tos }}\n")
pfc = ",".join("1" if p == prio else "0" for p in range(8))
for d in ("onyx", "host"):
    os.makedirs(os.path.join(out, d), exist_ok=True)
for sw in intent.get("switches") or []:
    with open(os.path.join(out, "onyx", sw["name"] + ".cli"), "w") as f:
        f.write(onyx.render(generator="baseline", sw=sw, mtu=q.get("switch_mtu", 9216), ll=ll, cnp=cnp))
for h in intent.get("hosts") or []:
    if h.get("platform") != "linux":
        continue
    text = host.render(generator="baseline", intent_hash="-", fabric=intent["fabric"], host=h["name"],
                       flavour="mlnx_qos", body=body.render(h=h, mtu=q.get("mtu", 9000), pfc=pfc, tos=tos))
    with open(os.path.join(out, "host", h["name"] + ".sh"), "w") as f:
        f.write(text)
