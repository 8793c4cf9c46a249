# SPDX-License-Identifier: MIT
"""explain's rows against what the build writes (issue 37, items 3 to 5): for
valid intents, `qosgen explain --json` beside `qosgen build`'s plan.json. The
derived rows must show plan.json's derived values; a priority row's reason
that speaks of PFC must name a priority PFC pauses (a 1 in plan.json's
pfc_vector), and one that says "no PFC" a priority it leaves alone; each of
verify's pairs has its min_gbps and rails rows, plan.json's (rail 0 when the
intent gives none, a default); and `explain --switch` shows, beside the
switch's rows, the fabric's that decide it, and no other device's. Usage:
explain_truth.py QOSGEN TOP; prints FAIL lines and a count, exit 1 on a failure.
"""
import json
import os
import subprocess
import sys
import tempfile

INTENTS = ["gpu-8nic", "gpu-8nic-rails", "sonic-priority5", "cumulus-priority-move", "rdg-vsphere",
           "mixed-onyx-cumulus", "cumulus-no-ecn"]


def main():
    qosgen, top = sys.argv[1], sys.argv[2]
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL explain-truth " + what)

    with tempfile.TemporaryDirectory() as tmp:
        for name in INTENTS:
            intent = os.path.join(top, "tests/golden", name, "intent.yaml")
            if name == "gpu-8nic-rails":
                # gpu-8nic's pair on rails 0 and 7: given rails, as plan.json has them.
                with open(os.path.join(top, "tests/golden/gpu-8nic/intent.yaml")) as f:
                    text = f.read().replace("min_gbps: 90}", "min_gbps: 90, rails: [7, 0]}")
                intent = os.path.join(tmp, "gpu-8nic-rails.yaml")
                with open(intent, "w") as f:
                    f.write(text)
            out = os.path.join(tmp, name)
            b = subprocess.run([qosgen, "build", intent, "-o", out], capture_output=True)
            e = subprocess.run([qosgen, "explain", intent, "--json"], capture_output=True,
                               text=True)
            if b.returncode or e.returncode:
                check(False, "%s: build exit %d, explain exit %d" % (name, b.returncode,
                                                                      e.returncode))
                continue
            with open(os.path.join(out, "plan.json")) as f:
                derived = json.load(f)["derived"]
            rows = {r["key"]: r for r in json.loads(e.stdout)["rows"]}
            # A derived value without a row of its own is said in another's reason
            # (roce_tos_without_ecn in roce_tos's: "without ECN it would be 104").
            said = " ".join(r["reason"] for k, r in rows.items() if k.startswith("derived."))
            for key, value in derived.items():
                row = rows.get("derived." + key)
                check(str(row["value"]) == str(value) if row else " %s " % value in said,
                      "%s: derived.%s is %r in explain, %r in plan.json"
                      % (name, key, row and row["value"], value))
            # verify's pairs and their rails (issue 37, item 4), the default rail 0 shown.
            with open(os.path.join(out, "plan.json")) as f:
                pairs = (json.load(f)["intent"].get("verify") or {}).get("pairs", [])
            for p in pairs:
                key = "verify.pairs[%s,%s]" % (p["client"], p["server"])
                rails = ",".join(str(r) for r in p.get("rails", [0]))
                row = rows.get(key + ".rails")
                check(row is not None and row["value"] == rails and
                      row["source"] == ("given" if "rails" in p else "default"),
                      "%s: %s.rails is %r in explain, rails %s in plan.json"
                      % (name, key, row and row["value"], rails))
                row = rows.get(key + ".min_gbps")
                check(row is not None and row["value"] == p["min_gbps"],
                      "%s: %s.min_gbps is %r in explain, %r in plan.json"
                      % (name, key, row and row["value"], p["min_gbps"]))
            # explain --switch (issue 37, item 5): the switch's rows and the fabric's
            # that decide it (its lossless DSCPs, priorities, ETS, MTU, PFC, its
            # target's own), as the whole explain has them; no other device's.
            with open(os.path.join(out, "plan.json")) as f:
                devices = json.load(f)["devices"]
            targets = {d["target"] for d in devices}
            for d in (d for d in devices if d["kind"] == "switch"):
                e1 = subprocess.run([qosgen, "explain", intent, "--json", "--switch", d["name"]],
                                    capture_output=True, text=True)
                one = {r["key"]: r for r in json.loads(e1.stdout)["rows"]}
                need = ["qos.lossless.priority", "qos.lossless.dscp", "qos.lossless.ets",
                        "qos.switch_mtu", "derived.dscp_map", "derived.pfc_vector"]
                check(all(k in one and one[k] == rows[k] for k in need),
                      "%s: explain --switch %s lacks a fabric row of %s"
                      % (name, d["name"], [k for k in need if one.get(k) != rows.get(k)]))
                bad = [k for k, r in one.items()
                       if r.get("device", d["name"]) != d["name"] or k == "derived.host_dscp"
                       or any(k.startswith(t + ".") for t in targets if t != d["target"])]
                check(not bad, "%s: explain --switch %s shows %s" % (name, d["name"], bad[:3]))
            vector = derived["pfc_vector"].split(",")
            for key in ("qos.lossless.priority", "qos.cnp.priority"):
                row = rows.get(key)
                if row is None or row["value"] in (None, "-"):
                    continue
                p = int(row["value"])
                reason = row["reason"]
                paused = vector[p] == "1"
                if "no PFC" in reason:
                    check(not paused, "%s: %s %d says no PFC, but pfc_vector is %s"
                          % (name, key, p, derived["pfc_vector"]))
                elif "PFC" in reason:
                    check(paused, "%s: %s %d speaks of PFC, but pfc_vector is %s"
                          % (name, key, p, derived["pfc_vector"]))
    print("%d explain-truth checks passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
