#!/bin/sh
# SPDX-License-Identifier: MIT
# History independence on NVUE (issue 23): for each policy change of the
# matrix, intents pushed one after the other (A, then B, ...) leave the state
# qosgen owns exactly as the last one pushed on a factory switch, read from
# the NVUE simulator's applied configuration (GET /nvue_v1/?rev=applied&
# filled=false: what is configured), and a second diff is empty. What is
# compared: the whole qos tree (qos.pfc-watchdog while the last intent manages
# the watchdog, on or off: off, its timers are back at NVUE's defaults, issue
# 35), and the last intent's ports; a port an intent drops is no longer owned.
# The same for the filled read-back (NVUE's defaults laid under, as the
# simulator's factory state holds them: ECN on traffic class 0 where no
# default-global ECN profile is configured, the watchdog's 100 ms x 3). Port roles
# (issue 28) are in both: their qosgen-<role> profiles in the qos tree, their
# bindings on the ports, so a role gone must leave neither behind. After each
# history, the lossless priority must egress on the traffic class whose
# buffer NVUE's RoCE mode reserves (the simulator's `nv show qos roce
# pool-map`, tests/sim/NVUE.md), however far it moved. Each NVUE
# dialect (issue 34): the matrix on a Cumulus Linux 5.15 switch (qos roce
# state, the intents built for the default release), then a few cases on a 5.9
# one (qos roce enable, the intents given os_version 5.9).
# Usage: nvue_history.sh BUILD  (NVUE_HISTORY_ONLY=TEXT: the cases named with TEXT)
set -u
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start "$1"
E2E_CLEANUP='nv_stop'
nv_cert "$(basename "$0" .sh)"
export QOSGEN_NVUE_PASSWORD=e2e-pw

# intent FILE "VAR=VALUE ...": the matrix's base policy with the changes given.
intent() {
	f=$1
	P=3 D=26 CP=6 CD=48 EMIN=150 EMAX=1500 ETS='{mode: wrr, weight: 50}' WD=true SMTU=9216
	POOL=50 CABLE='{default: 5, swp49s0-3: 50}' PORTS='[swp1-4, swp49s0-3]' ROLES='' ECN=on
	eval "$2"
	# ECN=off: no qos.lossless.ecn (and so no ECN marking qosgen owns).
	ecn="ecn: {min_kb: $EMIN, max_kb: $EMAX}, "
	[ "$ECN" = off ] && ecn=""
	# ROLES: the switch's port roles (issue 28), as NVUE port groups; a port
	# takes its cable length from its role or from CABLE, never both.
	extra="cable_length_m: $CABLE"
	[ -n "$ROLES" ] && extra="$extra, roles: $ROLES"
	[ -n "$NV_OSV" ] && extra="$extra, os_version: \"$NV_OSV\""
	cat >"$f" <<YAML
version: 1
fabric: e2e
qos:
  switch_mtu: $SMTU
  lossless: {priority: $P, dscp: [$D], pool: {name: roce, memory_percent: $POOL},
             ${ecn}ets: $ETS}
  cnp: {priority: $CP, dscp: $CD, ets: strict}
  pfc_watchdog: $WD
switches:
  - {name: leaf1, platform: cumulus, address: 127.0.0.1, port: $nvport, user: cumulus, ports: $PORTS,
     $extra}
YAML
}

qg() { # VERB INTENT ARGS...
	verb=$1
	file=$2
	shift 2
	"$Q" "$verb" "$file" --switch leaf1 --ca-file "$dir/cert.pem" --timeout 10 "$@" >"$dir/out" 2>"$dir/err"
}

# applied FILE [filled]: the simulator's configuration, as configured (or, with
# filled, with NVUE's defaults laid under it).
applied() {
	filled=false
	[ "${2:-}" = filled ] && filled=true
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw \
		"https://127.0.0.1:$nvport/nvue_v1/?rev=applied&filled=$filled" >"$1"
}

# owned HISTORY_JSON FACTORY_JSON PORTS WATCHDOG: equal owned state, or the difference.
owned_same() {
	python3 - "$@" <<'PY'
import json, sys
hist, fact, ports, wd = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4]
def owned(path):
    tree = json.load(open(path))
    qos = dict(tree.get("qos") or {})
    if wd != "true":
        qos.pop("pfc-watchdog", None)
    ifs = tree.get("interface") or {}
    return {"qos": qos, "interface": {p: ifs.get(p) for p in ports}}
a, b = owned(hist), owned(fact)
if a == b:
    sys.exit(0)
def walk(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            walk(x.get(k), y.get(k), path + [k])
    elif x != y:
        print(f"  {'.'.join(path)}: after the history {json.dumps(x)}, on a factory switch {json.dumps(y)}")
walk(a, b, [])
sys.exit(1)
PY
}

# reserved PRIORITY: the switch's lossless priority in RoCE mode's reserved
# ingress pool, and its traffic class (the configuration's egress-queue-mapping,
# $dir/history.json) in the reserved egress pool; or what is not.
reserved() {
	curl -s --cacert "$dir/cert.pem" -u cumulus:e2e-pw \
		"https://127.0.0.1:$nvport/nvue_v1/qos/roce/pool-map" >"$dir/pool-map.json"
	python3 - "$dir/pool-map.json" "$dir/history.json" "$1" <<'PY'
import json, sys
pm, cfg, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
tc = str(cfg["qos"]["egress-queue-mapping"]["default-global"]["switch-priority"][p]["traffic-class"])
ingress = (pm.get("roce-reserved-ingress") or {}).get("switch-priority") or {}
egress = (pm.get("roce-reserved-egress") or {}).get("traffic-class") or {}
if p in ingress and tc in egress:
    sys.exit(0)
print(f"  priority {p} on traffic class {tc}; RoCE mode reserves ingress {sorted(ingress)}, egress {sorted(egress)}")
sys.exit(1)
PY
}

# The simulated switch's release, and the os_version the intents give ("": the default).
NV_RELEASE=5.15.0
NV_OSV=""

# case NAME PORTS WATCHDOG "CHANGES A" "CHANGES B" ...: push each in turn on
# one switch, the last alone on a factory switch; compare, then diff again.
case_run() {
	name=$1 ports=$2 wd=$3
	shift 3
	# NVUE_HISTORY_ONLY=TEXT: only the cases whose name holds TEXT.
	case "$name" in *"${NVUE_HISTORY_ONLY:-}"*) ;; *) return ;; esac
	nv_start --version "$NV_RELEASE"
	k=0
	why=""
	for changes in "$@"; do
		k=$((k + 1))
		intent "$dir/i$k.yaml" "$changes"
		qg push "$dir/i$k.yaml" || why="$why push $k: exit $? $(tail -2 "$dir/err");"
	done
	applied "$dir/history.json"
	applied "$dir/history-filled.json" filled
	# The switch holds RoCE on in its own release's words.
	key=state
	[ "$NV_RELEASE" = 5.9.1 ] && key=enable
	roce=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["qos"]["roce"], sort_keys=True))' "$dir/history.json")
	case $roce in *"\"$key\": \"on\""* | *"\"$key\": \"enabled\""*) ;; *) why="$why qos roce $key not on: $roce;" ;; esac
	qg diff "$dir/i$k.yaml" --exit-code || why="$why second diff not empty: $(head -5 "$dir/out");"
	# P: the last intent's lossless priority (intent() sets it).
	if ! res=$(reserved "$P"); then
		why="$why not on RoCE mode's reserved buffer:
$res"
	fi
	nv_start --version "$NV_RELEASE"
	intent "$dir/last.yaml" "$changes"
	qg push "$dir/last.yaml" || why="$why factory push: exit $? $(tail -2 "$dir/err");"
	applied "$dir/factory.json"
	applied "$dir/factory-filled.json" filled
	if ! cmp=$(owned_same "$dir/history.json" "$dir/factory.json" "$ports" "$wd"); then
		why="$why owned state differs:
$cmp"
	elif ! cmp=$(owned_same "$dir/history-filled.json" "$dir/factory-filled.json" "$ports" "$wd"); then
		why="$why owned state differs, NVUE's defaults laid under:
$cmp"
	fi
	[ -z "$why" ]
	check "$name" $? "$why"
}

p8=swp1,swp2,swp3,swp4,swp49s0,swp49s1,swp49s2,swp49s3
case_run "lossless priority and DSCP moved (3/26 -> 4/34)" $p8 true "" "P=4 D=34"
case_run "CNP moved (6/48 -> 5/40)" $p8 true "" "CP=5 CD=40"
# NVUE's RoCE reservation (traffic class 3): the lossless class stays there and
# CNPs on priority 3 take the traffic class the lossless priority leaves.
case_run "lossless 3 -> 5 and CNP 6 -> 3 (the classes trade traffic classes)" $p8 true "" \
	"P=5 D=40 CP=3 CD=24"
case_run "ECN thresholds (150/1500 -> 200/2000)" $p8 true "" "EMIN=200 EMAX=2000"
case_run "ETS weight (50 -> 70)" $p8 true "" "ETS='{mode: wrr, weight: 70}'"
case_run "ETS mode (wrr 50 -> strict -> wrr 30)" $p8 true "" "ETS=strict" "ETS='{mode: wrr, weight: 30}'"
case_run "watchdog on -> off" $p8 true "" "WD=false"
case_run "watchdog on -> off -> on (detection 600)" $p8 true "" "WD=false" "WD='{detection_ms: 600}'"
# Issue 35: ECN removed and the watchdog off leave what a factory switch has,
# NVUE's own ECN on traffic class 0 and its 100 ms x 3 watchdog timers.
factory_case="ECN removed, watchdog on with its timers -> off"
case_run "$factory_case" $p8 true "WD='{detection_ms: 600}'" "ECN=off WD=false"
factory_defaults() {
	python3 - "$dir/history-filled.json" <<'PY'
import json, sys
qos = json.load(open(sys.argv[1]))["qos"]
tc0 = qos["congestion-control"]["default-global"]["traffic-class"].get("0") or {}
wd = qos.get("pfc-watchdog") or {}
want = {"ecn": "enable", "min-threshold": 150000, "max-threshold": 1500000, "red": "disable"}
bad = [k for k, v in want.items() if tc0.get(k) != v]
if wd.get("polling-interval") != 100 or wd.get("robustness") != 3:
    bad.append(f"pfc-watchdog {wd}")
if bad:
    print("  not NVUE's default: " + ", ".join(bad))
    sys.exit(1)
PY
}
case "$factory_case" in *"${NVUE_HISTORY_ONLY:-}"*)
	out=$(factory_defaults)
	check "after it, NVUE's default ECN on traffic class 0 and watchdog timers (filled read-back)" $? "$out"
	;;
esac
case_run "switch MTU (9216 -> 9100)" $p8 true "" "SMTU=9100"
case_run "pool size (50 -> 60)" $p8 true "" "POOL=60"
case_run "cable lengths (5/50 -> 3/100)" $p8 true "" "CABLE='{default: 3, swp49s0-3: 100}'"
case_run "a port added, then ports removed" swp1,swp2,swp3,swp4 true "" \
	"PORTS='[swp1-6, swp49s0-3]'" "PORTS='[swp1-4]' CABLE=7"
# Port roles (issue 28): hosts with their own ECN and cable, spines with their own cable.
R1="ROLES='{hosts: {ports: [swp1-2], cable_length_m: 3, ecn: {min_kb: 300, max_kb: 3000}}, spines: {ports: [swp49s0-3], cable_length_m: 40}}' CABLE='{swp3-4: 5}'"
R2="ROLES='{hosts: {ports: [swp1-3], cable_length_m: 7, ecn: {min_kb: 200, max_kb: 2000}}, spines: {ports: [swp49s0-3], cable_length_m: 100, ecn: {min_kb: 400, max_kb: 4000}}}' CABLE='{swp4: 5}'"
R3="ROLES='{gpus: {ports: [swp1], ecn: {min_kb: 100, max_kb: 1000}}}' CABLE='{default: 5, swp49s0-3: 50}'"
case_run "roles added" $p8 true "" "$R1"
case_run "a role's thresholds and cable changed, a port joins it, a role gains ecn" $p8 true "$R1" "$R2"
case_run "roles removed" $p8 true "$R1" ""
case_run "roles renamed, cable back to the switch's, ecn only" $p8 true "$R1" "$R3"
case_run "lossless class moved under roles (3 -> 4)" $p8 true "$R1" "$R1 P=4 D=34"
case_run "a role's port dropped from the switch" swp2,swp3,swp4,swp49s0,swp49s1,swp49s2,swp49s3 true \
	"$R1" "$R1 PORTS='[swp2-4, swp49s0-3]' ROLES='{hosts: {ports: [swp2], cable_length_m: 3, ecn: {min_kb: 300, max_kb: 3000}}, spines: {ports: [swp49s0-3], cable_length_m: 40}}'"
case_run "everything at once, and back" $p8 true "" \
	"P=4 D=34 CP=5 CD=40 EMIN=200 EMAX=2000 ETS=strict WD=false SMTU=9100 POOL=60" ""

# The roce-enable dialect: a 5.9 switch, the intents built for it (qos roce enable on).
NV_RELEASE=5.9.1
NV_OSV=5.9
case_run "5.9: lossless priority and DSCP moved (3/26 -> 4/34)" $p8 true "" "P=4 D=34"
case_run "5.9: roles added" $p8 true "" "$R1"
case_run "5.9: everything at once, and back" $p8 true "" \
	"P=4 D=34 CP=5 CD=40 EMIN=200 EMAX=2000 ETS=strict WD=false SMTU=9100 POOL=60" ""

echo "$pass nvue history checks passed, $fail failed"
[ "$fail" -eq 0 ]
