#!/bin/sh
# SPDX-License-Identifier: MIT
# History independence of the SONiC target (issue 23), against the SONiC
# simulator (tests/sim/sonic_sim.py, every patch validated by yanglint) behind
# a real sshd, from the real MSN2700 config_db (SONiC's AZURE QoS, lossless
# 3-4 as range rows). A chain of intents, each one policy change from the one
# before: the lossless priority and DSCP moved (3 -> 4 -> 5), the CNP class
# moved, ECN thresholds changed and ECN removed, ETS strict and a WRR weight,
# the watchdog off and on again, the MTU, the cable lengths, a port added and
# removed; then port roles (issue 28): roles added with their own ECN
# thresholds and cable lengths, a role's thresholds changed and another's
# removed, roles renamed and their ports moved, roles removed. Each is
# pushed over the one before (A then B), and then:
#   - the second diff is empty;
#   - the state qosgen owns on B's ports (PORT_QOS_MAP, PORT, QUEUE,
#     BUFFER_QUEUE and BUFFER_PG per index, however keyed; PFC_WD,
#     CABLE_LENGTH of those ports; qosgen's named rows; PFC_WD|GLOBAL with the
#     watchdog on, the switch's own when off) equals B applied to
#     the factory switch (qosgen diff --running-config of the factory file,
#     applied with python3-jsonpatch);
#   - lossless exactly where B says: pfc_enable and pfcwd_sw_enable, the one
#     lossless PG, the one lossless egress queue (egress_lossless_profile,
#     the rest q_lossy_profile), ECN only on that queue.
#
# Two ways (issue 38): with --direct, the whole chain without SSH: a push is
# qosgen diff of the simulator's `show runningconfiguration all` and the patch
# it proposes given to the simulator's `config apply-patch` (its own GCU and
# yanglint validation), the simulator run as its ForceCommand is, with the
# command in $SSH_ORIGINAL_COMMAND; push plans its patch with the same
# functions (sonic_config_judge, sonic_config_patch, on the configuration it
# reads), so each step judges what push would leave. Without it, a shorter
# chain over SSH with qosgen push: the lossless class moved, roles added,
# changed and removed (intents 0 1 14 15 17; every step of the whole chain is
# judged with --direct).
# Usage: sonic_history.sh BUILD [--direct]
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
here=$(cd "$(dirname "$0")/../.." && pwd)
SONIC_SIM="$here/tests/sim/sonic_sim.py"
DEVICE="$here/tests/sim/sonic-msn2700.config_db.json"
PY=$(python3 -c 'import sys; print(sys.executable)')
state="$dir/switch"

direct=${2:-}
user=${USER:-$(id -un)}
port=22
if [ "$direct" != --direct ]; then
	cat >"$dir/wrap.sh" <<WRAP
#!/bin/sh
exec "$PY" "$SONIC_SIM" --state "$state"
WRAP
	chmod +x "$dir/wrap.sh"
	sshd_start "$dir/sshd" "$dir/wrap.sh"
	kh="$dir/known_hosts"
	printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$kh"
fi
"$PY" "$SONIC_SIM" --state "$state" init "$DEVICE" >/dev/null ||
	{ echo "FAIL sonic-history: the simulator refuses its device"; exit 1; }

# intent N QOS PORTS CABLE [ROLES]: $dir/i.N.yaml; CABLE - for none (the roles give it)
intent() {
	extra=
	[ "$4" = - ] || extra=", cable_length_m: $4"
	[ -z "${5:-}" ] || extra="$extra, roles: $5"
	cat >"$dir/i.$1.yaml" <<YAML
version: 1
fabric: history
qos:
$2
switches:
  - {name: sonic, platform: sonic, address: 127.0.0.1, port: $port, user: $user, ports: [$3]$extra}
YAML
}
L3='  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}'
CNP='  cnp: {priority: 6, dscp: 48, ets: strict}'
WD='  pfc_watchdog: true'
intent 0 "$L3
$CNP
$WD" Ethernet0-8/4 5
intent 1 '  lossless: {priority: 4, dscp: [34], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}'"
$CNP
$WD" Ethernet0-8/4 5
intent 2 '  lossless: {priority: 5, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}'"
$CNP
$WD" Ethernet0-8/4 5
intent 3 "$L3
  cnp: {priority: 7, dscp: 46, ets: {mode: wrr, weight: 10}}
$WD" Ethernet0-8/4 5
intent 4 '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 100, max_kb: 1000}, ets: {mode: wrr, weight: 50}}'"
$CNP
$WD" Ethernet0-8/4 5
intent 5 '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ets: {mode: wrr, weight: 50}}'"
$CNP
$WD" Ethernet0-8/4 5
intent 6 '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: strict}'"
$CNP
$WD" Ethernet0-8/4 5
intent 7 '  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 60}}'"
$CNP
$WD" Ethernet0-8/4 5
intent 8 "$L3
$CNP
  pfc_watchdog: false" Ethernet0-8/4 5
intent 9 "$L3
$CNP
  pfc_watchdog: {detection_ms: 400, restoration_ms: 400}" Ethernet0-8/4 5
intent 10 "  switch_mtu: 9100
$L3
$CNP
$WD" Ethernet0-8/4 5
intent 11 "$L3
$CNP
$WD" Ethernet0-8/4 "{default: 5, Ethernet4: 40}"
intent 12 "$L3
$CNP
$WD" Ethernet0-12/4 5
intent 13 "$L3
$CNP
$WD" Ethernet0-8/4 5
# Port roles: added, each with its ECN thresholds (WRED_PROFILE qosgen_ecn_<role>) and cable length
intent 14 "$L3
$CNP
$WD" Ethernet0-8/4 - '{hosts: {ports: [Ethernet0-4/4], cable_length_m: 3, ecn: {min_kb: 100, max_kb: 1000}},
       spines: {ports: [Ethernet8], cable_length_m: 40, ecn: {min_kb: 300, max_kb: 3000}}}'
# a role's thresholds changed, another's removed (its port back on qosgen_ecn)
intent 15 "$L3
$CNP
$WD" Ethernet0-8/4 - '{hosts: {ports: [Ethernet0-4/4], cable_length_m: 3, ecn: {min_kb: 200, max_kb: 2000}},
       spines: {ports: [Ethernet8], cable_length_m: 40}}'
# roles renamed, their ports moved
intent 16 "$L3
$CNP
$WD" Ethernet0-8/4 - '{hosts: {ports: [Ethernet0], cable_length_m: 3},
       leafs: {ports: [Ethernet4-8/4], cable_length_m: 5, ecn: {min_kb: 120, max_kb: 1200}}}'
# roles removed
intent 17 "$L3
$CNP
$WD" Ethernet0-8/4 5
last=17

run() { # VERB N ARGS...: qosgen VERB on intent N; output in $dir/out, $dir/err; status in $st
	verb=$1
	n=$2
	shift 2
	if [ "$direct" = --direct ]; then
		run_direct "$verb" "$n"
		return
	fi
	"$Q" "$verb" "$dir/i.$n.yaml" --known-hosts "$kh" --identity "$dir/sshd/client_key" \
		--ssh-config /dev/null "$@" >"$dir/out" 2>"$dir/err"
	st=$?
}
# sim COMMAND [< STDIN]: the simulator as its ForceCommand runs it, without sshd.
sim() { SSH_ORIGINAL_COMMAND=$1 "$PY" "$SONIC_SIM" --state "$state"; }
# run_direct push|diff N: without SSH, qosgen diff of the simulator's
# configuration; push gives its patch to the simulator's apply-patch. As run.
run_direct() {
	sim 'show runningconfiguration all' </dev/null >"$dir/running.cfg" 2>"$dir/err" &&
		"$Q" diff "$dir/i.$2.yaml" --switch sonic --running-config "$dir/running.cfg" >"$dir/out" 2>"$dir/err"
	st=$?
	# In sync: push sends nothing.
	[ "$1" = push ] && [ $st -eq 0 ] && [ -s "$dir/out" ] || return 0
	# What the simulator says of the patch: in $dir/applied, which the check prints.
	sim 'sudo -n config apply-patch /dev/stdin' <"$dir/out" >"$dir/applied" 2>&1
	st=$?
	[ $st -eq 0 ] || cat "$dir/out" >>"$dir/applied"
	: >"$dir/out"
}

# owned N DOC FACTORY: compare DOC's owned state on intent N's ports with N on FACTORY.
cat >"$dir/owned.py" <<'PY'
import json, re, sys
intent, doc, ref, ports = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4].split()
prio = int(re.search(r"lossless: \{priority: (\d)", open(intent).read()).group(1))
ecn = "ecn:" in open(intent).read().split("cnp:")[0]
NAMED = {"DSCP_TO_TC_MAP": "QOSGEN", "TC_TO_QUEUE_MAP": "QOSGEN", "TC_TO_PRIORITY_GROUP_MAP": "QOSGEN",
         "MAP_PFC_PRIORITY_TO_QUEUE": "QOSGEN", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP": "QOSGEN"}
def at(db, table, port, i):
    for k, v in db.get(table, {}).items():
        p, _, r = k.rpartition("|")
        lo, _, hi = r.partition("-")
        if p == port and lo.isdigit() and int(lo) <= i <= int(hi or lo):
            return v
    return None
def owned(db):
    o = {}
    for t, name in NAMED.items():
        o[t] = db.get(t, {}).get(name)
    for t in ("WRED_PROFILE", "SCHEDULER"):
        o[t] = {k: v for k, v in db.get(t, {}).items() if k.startswith("qosgen_")}
    for p in ports:
        o[p] = {"PORT_QOS_MAP": db.get("PORT_QOS_MAP", {}).get(p), "mtu": db["PORT"][p].get("mtu"),
                "PFC_WD": db.get("PFC_WD", {}).get(p),
                "cable": sorted(r[p] for r in db.get("CABLE_LENGTH", {}).values() if p in r),
                "queues": [[at(db, t, p, i) for i in range(8)] for t in ("QUEUE", "BUFFER_QUEUE", "BUFFER_PG")]}
    # The poll interval is the switch's, written with the watchdog on; off,
    # GLOBAL stays as it was (GCU refuses its removal): not owned then.
    if "pfc_watchdog: false" not in open(intent).read():
        o["PFC_WD|GLOBAL"] = db.get("PFC_WD", {}).get("GLOBAL")
    return o
a, b = owned(doc), owned(ref)
bad = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
for k in bad[:3]:
    print("owned %s: after the chain %s, B on the factory switch %s" % (k, json.dumps(a.get(k)), json.dumps(b.get(k))))
for p in ports:
    m = doc["PORT_QOS_MAP"][p]
    if m.get("pfc_enable") != str(prio) or m.get("pfcwd_sw_enable", str(prio)) != str(prio):
        bad.append(p); print("%s: pfc_enable %s pfcwd_sw_enable %s, the intent %d" % (p, m.get("pfc_enable"), m.get("pfcwd_sw_enable"), prio))
    for i in range(8):
        q, bq, pg = at(doc, "QUEUE", p, i), at(doc, "BUFFER_QUEUE", p, i), at(doc, "BUFFER_PG", p, i)
        want_q = "egress_lossless_profile" if i == prio else "q_lossy_profile"
        if (bq or {}).get("profile") != want_q or ("wred_profile" in (q or {})) != (i == prio and ecn) \
                or (i > 0 and (pg is not None) != (i == prio)):
            bad.append(p); print("%s queue/PG %d: QUEUE %s BUFFER_QUEUE %s BUFFER_PG %s, lossless is %d" % (p, i, q, bq, pg, prio))
sys.exit(1 if bad else 0)
PY

cp "$DEVICE" "$dir/factory.json"
prev=factory
steps=$(seq 0 $last)
[ "$direct" = --direct ] || steps="0 1 14 15 17"
for n in $steps; do
	ports=$("$PY" -c 'import json,sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["PORT"], key=lambda p: int(p[8:]))))' \
		"$("$Q" build "$dir/i.$n.yaml" -o "$dir/b$n" >/dev/null 2>&1; echo "$dir/b$n/sonic/sonic.json")")
	# B on the factory switch: the patch qosgen proposes for the factory file, applied.
	"$Q" diff "$dir/i.$n.yaml" --switch sonic --running-config "$dir/factory.json" >"$dir/patch.$n" 2>/dev/null
	"$PY" -c 'import json,jsonpatch,sys; d=json.load(open(sys.argv[1])); p=json.load(open(sys.argv[2])); json.dump(jsonpatch.apply_patch(d,p),open(sys.argv[3],"w"))' \
		"$dir/factory.json" "$dir/patch.$n" "$dir/ref.$n.json"
	rm -f "$dir/applied"
	run push "$n" --switch sonic
	pst=$st
	run diff "$n" --switch sonic --exit-code
	[ $pst -eq 0 ] && [ $st -eq 0 ] && [ ! -s "$dir/out" ]
	check "$prev -> intent $n: pushed, second diff empty" $? "push exit $pst, diff exit $st: $(cat "$dir/applied" "$dir/err" "$dir/out" 2>/dev/null | head -c 1500)"
	"$PY" "$dir/owned.py" "$dir/i.$n.yaml" "$state/running.json" "$dir/ref.$n.json" "$ports" >"$dir/why" 2>&1
	check "$prev -> intent $n: owned state as intent $n on the factory switch, lossless exactly where it says" $? "$(head -c 1500 "$dir/why")"
	prev="intent $n"
done

echo "$pass ${direct:+direct }sonic history checks passed, $fail failed"
[ "$fail" -eq 0 ]
