#!/bin/sh
# nvue_selftest.sh: checks tests/sim/nvue_sim.py, the NVUE REST API simulator.
#
# Makes a throwaway CA-less self-signed certificate for 127.0.0.1, starts the simulator
# on a free loopback port (one instance per scenario), and drives it with curl over
# verified TLS (--cacert): first the curl lines of NVIDIA's own documentation
# (nvue-doc-curl.txt, run unchanged apart from the substitutions listed there and in
# NVUE.md), then the revision life cycle, QoS validation and fault injection.
# One line per check ("ok - ..." / "FAIL - ..."), the last line a summary; exit 0 only
# when nothing failed.  The simulator is stopped by PID whatever happens.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SIM="$HERE/nvue_sim.py"
DOC="$HERE/nvue-doc-curl.txt"
REAL="$HERE/../nvue/real"
# The interpreter itself, resolved once: a version-manager shim costs ~0.5 s a call.
PY=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)') || exit 1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nvue-selftest.XXXXXX") || exit 1
SIM_PID=""

stop_sim() {
    if [ -n "$SIM_PID" ]; then
        kill "$SIM_PID" 2>/dev/null
        wait "$SIM_PID" 2>/dev/null
        SIM_PID=""
    fi
}
cleanup() {
    stop_sim
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() {
    FAIL=$((FAIL + 1)); echo "FAIL - $1"
    if [ -n "${2:-}" ]; then echo "#   $2"; fi
}

# --- helpers written to the temp dir: JSON checks and the doc-line substitutions ---
cat > "$TMP/jcheck.py" <<'EOF'
"""jcheck.py BODY 'CHECK | CHECK ...'  (exit 1 and a reason when a check fails)
   jcheck.py --key BODY    print the only key of a JSON object (a new revision's id)
   jcheck.py --state BODY  print a revision's state, unkeyed or keyed by its id"""
import json, os, sys

def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(text) if text.strip() else None

def ptr(doc, p):
    if p in ("", "$"):          # "$": the whole answer
        return doc
    for tok in p[1:].split("/"):
        tok = tok.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and tok in doc:
            doc = doc[tok]
        else:
            raise KeyError(p)
    return doc

def check(doc, spec):
    rev = os.environ.get("REV", "").replace("~", "~0").replace("/", "~1")
    spec = spec.strip().replace("{REV}", rev)
    for op in (" == ", " contains "):
        if op in spec:
            p, want = spec.split(op, 1)
            try:
                got = ptr(doc, p)
            except KeyError:
                return f"{p}: missing in {json.dumps(doc)[:300]}"
            if op == " == ":
                if got != json.loads(want):
                    return f"{p}: got {json.dumps(got)}, want {want}"
            elif want not in json.dumps(got):
                return f"{p}: {json.dumps(got)[:200]} does not contain {want}"
            return None
    p, word = spec.rsplit(" ", 1)
    try:
        ptr(doc, p)
        present = True
    except KeyError:
        present = False
    if word == "exists" and not present:
        return f"{p}: missing in {json.dumps(doc)[:300]}"
    if word == "absent" and present:
        return f"{p}: present, want absent"
    if word not in ("exists", "absent"):
        return f"bad check {spec!r}"
    return None

if sys.argv[1] == "--key":
    doc = load(sys.argv[2])
    print(next(iter(doc)) if isinstance(doc, dict) and len(doc) == 1 else "")
elif sys.argv[1] == "--state":
    doc = load(sys.argv[2]) or {}
    if "state" not in doc and len(doc) == 1:
        doc = next(iter(doc.values()))
    print(doc.get("state", "") if isinstance(doc, dict) else "")
else:
    try:
        doc = load(sys.argv[1])
    except ValueError as e:
        print(f"answer is not JSON: {e}")
        sys.exit(1)
    for spec in " | ".join(sys.argv[2:]).split(" | "):
        if spec.strip():
            why = check(doc, spec)
            if why:
                print(why)
                sys.exit(1)
EOF

cat > "$TMP/subst.py" <<'EOF'
"""subst.py LINE: print a label, then the doc line with only the documented
substitutions made (prompt, host:port, credentials, -k/--insecure, revision id)."""
import os, re, sys
from urllib.parse import quote, urlsplit

line = sys.argv[1]
env = os.environ
cmd = re.sub(r"^\S*\$ ", "", line, count=1)                 # the printed prompt
cmd = re.sub(r"https://(127\.0\.0\.1|localhost):8765", "https://127.0.0.1:" + env["PORT"], cmd)
cmd = re.sub(r"cumulus:(cumulus|CumulusLinux!)", env["SIM_USER"] + ":" + env["SIM_PASS"], cmd)
cmd = re.sub(r"(?<!\S)(-k|--insecure)(?!\S)", "--cacert " + env["CERT"], cmd)
rev = env.get("REV", "")
if rev:
    enc = quote(rev, safe="")
    cmd = re.sub(r"changeset%2F[A-Za-z0-9%._-]+", enc, cmd)
    cmd = re.sub(r"(?<=[?&]rev=)changeset/[A-Za-z0-9/._-]+", rev, cmd)
    cmd = re.sub(r"(?<=[?&]rev=)[0-9]+", enc, cmd)
    cmd = re.sub(r"(?<=/revision/)[0-9]+", enc, cmd)
m = re.search(r"(?:-X|--request)\s+(\w+)", cmd)
u = re.search(r"https://[^\s'\"]+", cmd)
path = urlsplit(u.group(0)) if u else None
print(f"{m.group(1) if m else 'GET'} {path.path + ('?' + path.query if path.query else '') if path else '?'}")
print(cmd)
EOF

cat > "$TMP/cmpyaml.py" <<'EOF'
"""cmpyaml.py FILE.yaml BODY: the set: map of an NVUE startup.yaml, read with YAML's
BaseLoader (every scalar a string, nothing resolved), equals the JSON read-back with
its scalars written as strings."""
import json, sys
import yaml

def flat(x):
    if isinstance(x, dict):
        return {str(k): flat(v) for k, v in x.items()}
    if isinstance(x, list):
        return [flat(v) for v in x]
    return x if isinstance(x, str) else json.dumps(x)

with open(sys.argv[1], encoding="utf-8") as f:
    doc = yaml.load(f, Loader=yaml.BaseLoader)
want = {}
for entry in doc:
    want.update(entry.get("set", {}))
with open(sys.argv[2], encoding="utf-8") as f:
    got = flat(json.load(f))
if flat(want) != got:
    for k in sorted(set(want) | set(got)):
        if flat(want.get(k)) != got.get(k):
            print(f"differs under {k}")
            break
    sys.exit(1)
EOF

# --- certificate, credentials ---------------------------------------------------
CERT="$TMP/cert.pem"
if ! openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$TMP/key.pem" -out "$CERT" \
        >"$TMP/openssl.log" 2>&1; then
    cat "$TMP/openssl.log" >&2
    echo "nvue selftest: 0 passed, 1 failed"
    exit 1
fi
SIM_USER=qgtest
SIM_PASS="sim$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export SIM_USER SIM_PASS CERT

# start_sim [sim options]: a fresh simulator; sets PORT and BASE
start_sim() {
    stop_sim
    rm -f "$TMP/port"
    NVUE_SIM_USER=$SIM_USER NVUE_SIM_PASSWORD=$SIM_PASS "$PY" "$SIM" --listen 127.0.0.1 \
        --port 0 --port-file "$TMP/port" --cert "$CERT" --key "$TMP/key.pem" "$@" \
        2>>"$TMP/sim.log" &
    SIM_PID=$!
    n=0
    while [ ! -s "$TMP/port" ]; do
        n=$((n + 1))
        if [ "$n" -gt 100 ] || ! kill -0 "$SIM_PID" 2>/dev/null; then
            echo "simulator did not start ($*):" >&2
            tail -n 5 "$TMP/sim.log" >&2
            SIM_PID=""
            return 1
        fi
        sleep 0.1
    done
    PORT=$(cat "$TMP/port")
    BASE="https://127.0.0.1:$PORT/nvue_v1"
    export PORT
}

# req METHOD PATH [BODY]: sets STATUS (000 when curl got no answer); body in $TMP/body
req() {
    if [ $# -ge 3 ]; then
        STATUS=$(curl -sS --cacert "$CERT" -u "$SIM_USER:$SIM_PASS" -X "$1" \
            -H 'Content-Type: application/json' --data-binary "$3" \
            -o "$TMP/body" -w '%{http_code}' "$BASE$2" 2>"$TMP/curl.err") || STATUS=000
    else
        STATUS=$(curl -sS --cacert "$CERT" -u "$SIM_USER:$SIM_PASS" -X "$1" \
            -o "$TMP/body" -w '%{http_code}' "$BASE$2" 2>"$TMP/curl.err") || STATUS=000
    fi
}

# expect NAME STATUS [CHECKS]: judge the last answer
expect() {
    name=$1; want=$2; shift 2
    if [ "$STATUS" != "$want" ]; then
        bad "$name" "status $STATUS, want $want: $(head -c 300 "$TMP/body" 2>/dev/null | tr '\n' ' ')"
        return 1
    fi
    if [ $# -gt 0 ] && ! why=$("$PY" "$TMP/jcheck.py" "$TMP/body" "$@" 2>&1); then
        bad "$name" "$why"
        return 1
    fi
    ok "$name"
}

enc() { printf '%s' "$1" | sed 's|/|%2F|g'; }

new_rev() {
    req POST /revision
    REV=$("$PY" "$TMP/jcheck.py" --key "$TMP/body")
    export REV
}

# rev_state ID [WANT]: the revision's state, polled up to 6 s until it is WANT
rev_state() {
    n=0
    while :; do
        req GET "/revision/$(enc "$1")"
        STATE=$("$PY" "$TMP/jcheck.py" --state "$TMP/body")
        if [ -z "${2:-}" ] || [ "$STATE" = "$2" ] || [ "$n" -ge 60 ]; then
            return 0
        fi
        n=$((n + 1))
        sleep 0.1
    done
}

apply_rev() {  # apply_rev ID [ays]
    if [ "${2:-}" = ays ]; then
        req PATCH "/revision/$(enc "$1")" '{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}'
    else
        req PATCH "/revision/$(enc "$1")" '{"state": "apply"}'
    fi
}

# --- 1. NVIDIA's doc command lines ------------------------------------------------
run_doc_line() {
    out=$("$PY" "$TMP/subst.py" "$1") || { bad "doc line: substitution failed"; return; }
    label=$(printf '%s\n' "$out" | sed -n 1p)
    cmd=$(printf '%s\n' "$out" | sed -n 2p)
    n=0
    while :; do
        STATUS=$(sh -c "$cmd -sS -o '$TMP/body' -w '%{http_code}'" 2>"$TMP/curl.err") || STATUS=000
        if [ "$capture" -eq 1 ]; then     # a new revision: its id is what {REV} means now
            REV=$("$PY" "$TMP/jcheck.py" --key "$TMP/body" 2>/dev/null)
            export REV
        fi
        if [ "$STATUS" = "${exp%% *}" ] && { [ "$exp" = "${exp%% *}" ] \
                || "$PY" "$TMP/jcheck.py" "$TMP/body" "${exp#* | }" >/dev/null 2>&1; }; then
            break
        fi
        n=$((n + 1))
        if [ "$eventually" -eq 0 ] || [ "$n" -ge 60 ]; then break; fi
        sleep 0.1
    done
    if [ "$exp" = "${exp%% *}" ]; then
        expect "doc[$section] $label" "$exp"
    else
        expect "doc[$section] $label" "${exp%% *}" "${exp#* | }"
    fi
}

run_doc_section() {
    # (expect() sets $name and $want: this loop keeps its own names)
    doc_section=$1; section=""; exp=""; capture=0; eventually=0
    REV=""; export REV
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
            '#@ section '*) section=${line#'#@ section '} ;;
            '#@ expect '*) exp=${line#'#@ expect '} ;;
            '#@ capture-rev') capture=1 ;;
            '#@ eventually') eventually=1 ;;
            '#'* | '') ;;
            *)
                if [ "$section" = "$doc_section" ]; then
                    if [ -z "$exp" ]; then bad "doc[$section]: a line without '#@ expect'"
                    else run_doc_line "$line"; fi
                fi
                exp=""; capture=0; eventually=0 ;;
        esac
    done < "$DOC"
}

if start_sim --ports swp1-64 --prompt never --apply-delay 0.3; then
    run_doc_section numeric
fi
if start_sim --ports swp1-64 --prompt first --apply-delay 0.3 --rev-ids changeset; then
    run_doc_section changeset
    case $REV in changeset/"$SIM_USER"/*) ok "changeset ids look like changeset/<user>/<time>_<tag> ($REV)" ;;
        *) bad "changeset ids look like changeset/<user>/<time>_<tag>" "got '$REV'" ;; esac
fi

# --- 2. real startup.yaml files: loaded, read back unchanged ------------------------
for f in "$REAL"/*.yaml; do
    b=$(basename "$f")
    if start_sim --config "$f"; then
        req GET "/?rev=applied&filled=false"
        if [ "$STATUS" = 200 ] && why=$("$PY" "$TMP/cmpyaml.py" "$f" "$TMP/body" 2>&1); then
            ok "$b: GET ?rev=applied&filled=false equals its set: section"
        else
            bad "$b: GET ?rev=applied&filled=false equals its set: section" "status $STATUS $why"
        fi
        req GET "/?rev=startup&filled=false"
        if [ "$STATUS" = 200 ] && "$PY" "$TMP/cmpyaml.py" "$f" "$TMP/body" >/dev/null 2>&1; then
            ok "$b: startup equals it too"
        else
            bad "$b: startup equals it too" "status $STATUS"
        fi
        req GET "/evpn?rev=applied"
        expect "$b: unquoted 'enable: on' reads back as the string \"on\"" 200 '/enable == "on"'
    fi
done

# --- 3. QoS push: the revision life cycle on a switch loaded from a real file -------
for FIRST in "$REAL"/*.yaml; do break; done
if start_sim --config "$FIRST" --ports swp1-32,swp33s0-3 --prompt first --apply-delay 2; then
    STATUS=$(curl -sS --cacert "$CERT" -o "$TMP/body" -w '%{http_code}' "$BASE/revision" 2>/dev/null) || STATUS=000
    expect "no credentials: 401" 401 '/status == 401'
    STATUS=$(curl -sS --cacert "$CERT" -u "$SIM_USER:wrong" -o "$TMP/body" -w '%{http_code}' "$BASE/revision" 2>/dev/null) || STATUS=000
    expect "wrong password: 401" 401 '/title == "Unauthorized"'

    new_rev; R1=$REV
    expect "POST /revision: a pending revision keyed by its id" 200 '/{REV}/state == "pending" | /{REV}/transition/issue == {}'
    # The default release, 5.15.0, says `state enabled` (section 3c has both dialects).
    QOS='{"qos": {"roce": {"state": "enabled", "mode": "lossless"},
      "mapping": {"default-global": {"trust": "l3", "dscp": {"26": {"switch-priority": 3}, "48": {"switch-priority": 6}}}},
      "pfc": {"default-global": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable", "cable-length": 10}},
      "traffic-pool": {"default-lossy": {"memory-percent": 50}, "roce-lossless": {"memory-percent": 50, "switch-priority": {"3": {}}}},
      "congestion-control": {"default-global": {"traffic-class": {"3": {"min-threshold": 150000, "max-threshold": 1500000, "probability": 100, "ecn": "enable"}}}},
      "egress-scheduler": {"default-global": {"traffic-class": {"6": {"mode": "strict"}, "3": {"mode": "dwrr", "bw-percent": 50}, "0": {"mode": "dwrr", "bw-percent": 50},
        "1,2,4,5,7": {"mode": "strict"}}}},
      "egress-queue-mapping": {"default-global": {"switch-priority": {"3": {"traffic-class": 3}, "6": {"traffic-class": 6}}}}},
     "interface": {"swp1-2": {"link": {"mtu": 9216}, "qos": {"pfc": {"profile": "default-global"}}},
                   "swp33s0": {"link": {"mtu": 9216}}}}'
    req PATCH "/?rev=$(enc "$R1")" "$QOS"
    expect "root PATCH: the change answered, range key expanded, type swp added" 200 \
        '/interface/swp2/link/mtu == 9216 | /interface/swp1/type == "swp" | /interface/swp1-2 absent'
    req GET "/qos/traffic-pool/roce-lossless?rev=$(enc "$R1")"
    expect "GET ?rev=<id> reads the pending change" 200 '/memory-percent == 50'
    req GET "/qos/traffic-pool?rev=applied"
    expect "not applied yet: applied has only the default pool" 200 '/roce-lossless absent | /default-lossy/memory-percent == 100'
    req GET "/qos/roce/pool-map"
    expect "factory switch: RoCE mode off reserves nothing" 200 '/roce-reserved-egress absent | /roce-reserved-ingress absent'

    apply_rev "$R1"
    expect "apply without auto-prompt: accepted" 200 '/state == "apply"'
    rev_state "$R1" ays_fail
    expect "first apply without ays_yes ends ays_fail, answer keyed by id" 200 \
        '/{REV}/state == "ays_fail" | /{REV}/transition/issue/0/code == "client_timeout"'
    req GET "/qos/traffic-pool?rev=applied"
    expect "ays_fail leaves applied untouched" 200 '/roce-lossless absent'
    apply_rev "$R1" ays
    expect "apply with ays_yes: state apply" 200 '/state == "apply" | /transition/progress == ""'
    rev_state "$R1"
    if [ "$STATE" = apply ]; then ok "during --apply-delay the revision stays in state apply"
    else bad "during --apply-delay the revision stays in state apply" "state '$STATE'"; fi
    rev_state "$R1" applied
    if [ "$STATE" = applied ]; then ok "then it becomes applied"; else bad "then it becomes applied" "state '$STATE'"; fi
    req GET "/qos/congestion-control/default-global/traffic-class/3?rev=applied"
    expect "read-back: ECN thresholds of TC 3" 200 '/min-threshold == 150000 | /max-threshold == 1500000 | /ecn == "enable"'
    req GET "/qos/mapping/default-global?rev=applied"
    expect "read-back: trust l3, DSCP 26 -> SP 3, filled defaults kept" 200 \
        '/trust == "l3" | /dscp/26/switch-priority == 3 | /pcp/0/switch-priority == 0'
    req GET "/qos?rev=applied&filled=false"
    expect "filled=false: no defaults" 200 '/remark absent | /egress-scheduler/default-global/traffic-class/1/bw-percent absent'
    req GET "/interface/swp1?rev=applied"
    expect "read-back: swp1 mtu, pfc profile, type" 200 '/link/mtu == 9216 | /qos/pfc/profile == "default-global" | /type == "swp"'
    req GET "/interface/swp33s0/link?rev=applied"
    expect "breakout port swp33s0 exists and reads back" 200 '/mtu == 9216'
    req GET "/interface/lo?rev=applied"
    expect "the loaded file's config is still there" 200 '/ip/address/10.217.5.39~132 exists'
    req GET "/qos/traffic-pool?rev=startup"
    expect "auto-save off: startup not changed by apply" 200 '/roce-lossless absent'
    req PATCH /revision/applied '{"state": "save", "auto-prompt": {"ays": "ays_yes"}}'
    expect "save: PATCH /revision/applied state save" 200 '/state == "save"'
    req GET "/qos/traffic-pool?rev=startup"
    expect "save copies applied to startup" 200 '/roce-lossless/memory-percent == 50'
    req GET /revision
    expect "GET /revision lists the revision and startup" 200 "/$R1/state == \"applied\" | /startup/state == \"inactive\""

    # RoCE mode's reservation (RoCE page, nv show qos roce, "RoCE pool config"):
    # traffic class 3's egress buffer and the RoCE priority's ingress, which
    # stay with traffic class 3 when the priority moves as the page's "Change
    # RoCE Configuration" moves it (2 to traffic class 3, 3 to 0).
    req GET "/qos/roce/pool-map"
    expect "pool-map: RoCE mode reserves traffic class 3 and priority 3" 200 \
        '/roce-reserved-egress/traffic-class/3 exists | /roce-reserved-ingress/switch-priority/3 exists | /lossy-default-ingress/switch-priority/3 absent | /lossy-default-egress/traffic-class/3 absent | /lossy-default-egress/traffic-class/6 exists'
    req GET "/qos/roce/pool-map?rev=applied"
    expect "pool-map is operational only" 404
    new_rev; RM=$REV
    req PATCH "/qos?rev=$(enc "$RM")" '{"traffic-pool": {"roce-lossless": {"switch-priority": {"3": null, "2": {}}}},
      "pfc": {"default-global": {"switch-priority": {"3": null, "2": {}}}},
      "egress-queue-mapping": {"default-global": {"switch-priority": {"2": {"traffic-class": 3}, "3": {"traffic-class": 0}}}}}'
    apply_rev "$RM" ays
    rev_state "$RM" applied
    req GET "/qos/roce/pool-map"
    expect "RoCE priority moved to 2: traffic class 3 still the reserved egress" 200 \
        '/roce-reserved-ingress/switch-priority/2 exists | /roce-reserved-ingress/switch-priority/3 absent | /roce-reserved-egress/traffic-class/3 exists | /lossy-default-egress/traffic-class/2 absent'

    # schema refusals: 400 at PATCH time, problem body
    new_rev; R2=$REV
    req PATCH "/qos/roce?rev=$(enc "$R2")" '{"speed": 1}'
    expect "unknown key under qos/roce: 400" 400 '/status == 400 | /title == "Bad Request" | /detail contains speed'
    req PATCH "/interface/swp3/link?rev=$(enc "$R2")" '{"mtu": 9217}'
    expect "mtu 9217: 400" 400 '/detail contains 9216'
    req PATCH "/interface/swp3/link?rev=$(enc "$R2")" '{"mtu": 551}'
    expect "mtu 551: 400" 400
    req PATCH "/interface/swp3/link?rev=$(enc "$R2")" '{"mtu": "9000"}'
    expect "mtu as a string: 400" 400
    req PATCH "/qos/pfc-watchdog?rev=$(enc "$R2")" '{"polling-interval": 50}'
    expect "pfc-watchdog polling-interval 50: 400" 400
    req PATCH "/qos/pfc-watchdog?rev=$(enc "$R2")" '{"robustness": 1001}'
    expect "pfc-watchdog robustness 1001: 400" 400
    req PATCH "/interface/swp3/qos/pfc-watchdog?rev=$(enc "$R2")" '{"state": "on"}'
    expect "interface pfc-watchdog state on: 400" 400 '/detail contains on'
    req PATCH "/qos/mapping/default-global?rev=$(enc "$R2")" '{"dscp": {"64": {"switch-priority": 1}}}'
    expect "DSCP 64: 400" 400
    req PATCH "/qos/mapping/default-global?rev=$(enc "$R2")" '{"trust": "l4"}'
    expect "trust l4: 400" 400 '/detail contains l4'
    req PATCH "/qos/traffic-pool?rev=$(enc "$R2")" '{"bogus": {"memory-percent": 10}}'
    expect "traffic pool outside the fixed name set: 400" 400
    req PATCH "/qos/egress-scheduler/default-global/traffic-class/3?rev=$(enc "$R2")" '{"mode": "wrr"}'
    expect "scheduler mode wrr: 400" 400
    req PATCH "/qos/egress-queue-mapping/other?rev=$(enc "$R2")" '{}'
    expect "egress-queue-mapping profile other than default-global: 400" 400
    req PATCH "/?rev=$(enc "$R2")" '{"frobnicate": {}}'
    expect "unknown top-level object: 400" 400 '/detail contains frobnicate'
    req PATCH "/?rev=$(enc "$R2")" '{"qos": '
    expect "body that is not JSON: 400" 400
    req GET "/qos/congestion-control/default-global/traffic-class/8?rev=applied"
    expect "traffic class 8 in the URL: 400" 400
    req GET "/interface/swp1/link/mtu?rev=applied"
    expect "a leaf is no endpoint: 404" 404
    req PATCH /qos/roce '{"mode": "lossy"}'
    expect "PATCH without ?rev: 400" 400 '/detail contains rev'
    req PATCH "/qos/roce?rev=$(enc "$R1")" '{"mode": "lossy"}'
    expect "PATCH into an applied revision: 409" 409
    req GET /revision/999
    expect "unknown revision: 404" 404 '/status == 404'

    # apply-time validation: invalid, all or nothing
    new_rev; R3=$REV
    req PATCH "/?rev=$(enc "$R3")" '{"interface": {"swp2": {"link": {"mtu": 1500}}},
        "qos": {"congestion-control": {"default-global": {"traffic-class": {"3": {"min-threshold": 2000000}}}}}}'
    expect "min-threshold above max passes the schema" 200
    apply_rev "$R3" ays
    rev_state "$R3" invalid
    expect "min >= max: the revision ends invalid, issue as the docs print it" 200 \
        '/state == "invalid" | /transition/progress == "Invalid config" | /transition/issue/0/code == "config_invalid" | /transition/issue/0/severity == "error" | /transition/issue/0/data/location == "qos.congestion-control.default-global.traffic-class.3" | /transition/issue/0/message contains Config invalid at qos.congestion-control'
    req GET "/interface/swp2/link?rev=applied"
    expect "all or nothing: swp2 mtu of the invalid revision not applied" 200 '/mtu == 9216'
    req PATCH "/qos/congestion-control/default-global/traffic-class/3?rev=$(enc "$R3")" '{"min-threshold": null}'
    expect "merge-patch null deletes a key in the invalid revision" 200 '/min-threshold == null'
    apply_rev "$R3" ays
    rev_state "$R3" applied
    expect "the corrected revision applies" 200 '/state == "applied"'
    req GET "/interface/swp2/link?rev=applied"
    expect "its mtu change is applied" 200 '/mtu == 1500'
    req GET "/qos/congestion-control/default-global/traffic-class/3?rev=applied"
    expect "its min-threshold was removed" 200 '/min-threshold absent | /max-threshold == 1500000'

    # shares: a class not configured keeps NVUE's default 12/13 %, and counts
    new_rev; R6=$REV
    req PATCH "/qos/egress-scheduler/default-global/traffic-class?rev=$(enc "$R6")" '{"1": null}'
    expect "unset one class (back to NVUE's default share) passes the schema" 200
    apply_rev "$R6" ays
    rev_state "$R6" invalid
    expect "TC 1's default 13 % beside 50 + 50: invalid" 200 \
        '/state == "invalid" | /transition/issue/0/data/location == "qos.egress-scheduler.default-global" | /transition/issue/0/message contains must be less than or equal to 100 (is 113)'
    req PATCH "/qos/egress-scheduler/default-global/traffic-class?rev=$(enc "$R6")" \
        '{"0": {"bw-percent": 30}, "1": {"mode": "strict"}, "3": {"bw-percent": 57}}'
    apply_rev "$R6" ays
    rev_state "$R6" applied
    expect "every class explicit, 57 + 30: applied" 200 '/state == "applied"'

    new_rev; R4=$REV
    req PATCH "/?rev=$(enc "$R4")" '{"interface": {"swp40": {"link": {"mtu": 9000}}},
        "qos": {"traffic-pool": {"default-lossless": {"memory-percent": 10}}}}'
    apply_rev "$R4" ays
    rev_state "$R4" invalid
    expect "port not on the switch and a second lossless pool: two issues" 200 \
        '/state == "invalid" | /transition/issue/0/data/location == "interface.swp40" | /transition/issue/1/data/location == "qos.traffic-pool"'
    req GET "/interface/swp40?rev=applied"
    expect "nothing of it applied" 404

    new_rev; R5=$REV
    req DELETE "/interface/swp2/qos?rev=$(enc "$R5")"
    expect "DELETE in a revision: 204" 204
    req DELETE "/interface/swp9?rev=$(enc "$R5")"
    expect "DELETE of what is not configured: 404" 404
    req PATCH "/interface/swp1/qos/pfc?rev=$(enc "$R5")" '{"profile": "nosuch"}'
    apply_rev "$R5" ays
    rev_state "$R5" invalid
    expect "interface pfc profile that is not configured: invalid" 200 '/transition/issue/0/data/location == "interface.swp1.qos.pfc.profile"'
    req PATCH "/interface/swp1/qos/pfc?rev=$(enc "$R5")" '{"profile": "default-global"}'
    apply_rev "$R5" ays
    rev_state "$R5" applied
    req GET "/interface/swp2?rev=applied"
    expect "the DELETE is applied" 200 '/qos absent | /link/mtu == 1500'

    if grep -q '"PATCH /nvue_v1/revision/' "$TMP/sim.log" && ! grep -q "$SIM_PASS" "$TMP/sim.log"; then
        ok "stderr logs each request line, never the password"
    else
        bad "stderr logs each request line, never the password"
    fi
fi

# --- 3b. port groups: per-interface profiles (issue 28's roles) ------------------------
# The QoS page's Port Groups examples (CumulusNetworks/docs cumulus-linux-514 Quality of
# Service _index.md @ 0d142afe6080, "Port Groups", PFC and ECN), sent as the API's JSON:
# a profile other than default-global in qos pfc and congestion-control, bound to ports.
if start_sim --ports swp1-8 --prompt never --apply-delay 0.1; then
    new_rev; R=$REV
    req PATCH "/?rev=$(enc "$R")" '{"qos": {
        "pfc": {"my_pfc_ports": {"switch-priority": {"3,5": {}}}},
        "congestion-control": {"my-red-profile": {"traffic-class": {"1,2": {"min-threshold": 40000,
          "max-threshold": 200000, "probability": 10, "red": "enable"}}}}},
      "interface": {"swp1-4,swp6": {"qos": {"pfc": {"profile": "my_pfc_ports"}}},
                    "swp1,swp2": {"qos": {"congestion-control": {"profile": "my-red-profile"}}}}}'
    expect "port groups: profiles and bindings, range keys expanded" 200 \
        '/interface/swp6/qos/pfc/profile == "my_pfc_ports" | /interface/swp2/qos/congestion-control/profile == "my-red-profile"'
    apply_rev "$R"
    rev_state "$R" applied
    expect "port groups: applied" 200 '/state == "applied"'
    req GET "/interface/swp1/qos?rev=applied"
    expect "port groups: swp1 bound to both" 200 \
        '/pfc/profile == "my_pfc_ports" | /congestion-control/profile == "my-red-profile"'
    req GET "/qos/congestion-control/my-red-profile/traffic-class/2?rev=applied"
    expect "port groups: the ECN profile's class 2" 200 '/min-threshold == 40000 | /red == "enable"'

    new_rev; R=$REV
    req DELETE "/qos/pfc/my_pfc_ports?rev=$(enc "$R")"
    expect "port groups: DELETE of a bound profile in a revision" 204
    apply_rev "$R"
    rev_state "$R" invalid
    expect "port groups: a profile still bound cannot go" 200 \
        '/state == "invalid" | /transition/issue/0/data/location == "interface.swp1.qos.pfc.profile"'
    req PATCH "/?rev=$(enc "$R")" '{"interface": {"swp1": {"qos": {"pfc": null}}, "swp2": {"qos": {"pfc": null}},
        "swp3": {"qos": null}, "swp4": {"qos": null}, "swp6": {"qos": null}}}'
    apply_rev "$R"
    rev_state "$R" applied
    expect "port groups: the profile and its bindings go together" 200 '/state == "applied"'
    req GET "/qos/pfc/my_pfc_ports?rev=applied"
    expect "port groups: the profile is gone" 404
    req GET "/interface/swp2/qos?rev=applied"
    expect "port groups: swp2 keeps its ECN profile" 200 \
        '/congestion-control/profile == "my-red-profile" | /pfc absent'
fi

# --- 3c. releases and their dialects; the operational view (issue 34) ---------------------
# Cumulus Linux 5.15 renamed `nv set qos roce enable on|off` to `state enabled|disabled` (its
# New and Changed NVUE Commands, On/Off): a 5.9 switch refuses `state` and a 5.15 switch
# refuses `enable`, as each release's schema refuses an unknown key. GET /nvue_v1/system
# gives the release as `build` (the 5.6 API page: "build": "Cumulus Linux 5.4.0"). The
# operational view of RoCE: `nv show qos roce` and `nv show interface <if> qos roce status`
# (the RoCE page, "Verify RoCE Configuration").
ROCE_ON_59='{"qos": {"roce": {"enable": "on", "mode": "lossless"},
  "pfc": {"default-global": {"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}},
  "congestion-control": {"default-global": {"traffic-class": {"3": {"ecn": "enable"}}}}},
  "interface": {"swp1-2": {"link": {"mtu": 9216}}}}'
ROCE_ON_515=$(printf '%s' "$ROCE_ON_59" | sed 's/"enable": "on"/"state": "enabled"/')
for v in 5.9.1 5.15.0; do
    if [ "$v" = 5.9.1 ]; then mine=$ROCE_ON_59; theirs=$ROCE_ON_515; key=enable; off=off
    else mine=$ROCE_ON_515; theirs=$ROCE_ON_59; key=state; off=disabled; fi
    start_sim --ports swp1-4 --prompt never --apply-delay 0.1 --version "$v" || continue
    req GET /system
    expect "$v: GET /system gives the build" 200 "/build == \"Cumulus Linux $v\" | /hostname exists"
    req GET "/qos/roce?rev=applied"
    expect "$v: factory RoCE off, in its own words" 200 "/$key == \"$off\""
    new_rev; R=$REV
    req PATCH "/?rev=$(enc "$R")" "$theirs"
    expect "$v: the other dialect's roce key: 400" 400 '/detail contains was unexpected'
    req PATCH "/?rev=$(enc "$R")" "$mine"
    if [ "$v" = 5.9.1 ]; then
        expect "$v: its own dialect: taken (5.9 answers the full state)" 200 "/qos/roce/$key == \"on\""
    else
        expect "$v: its own dialect: taken (the change answered)" 200 "/qos/roce/$key == \"enabled\""
    fi
    req GET "/qos/roce?rev=operational"
    expect "$v: RoCE not running before the apply: no status" 200 '/mode absent | /pfc absent'
    apply_rev "$R"
    rev_state "$R" applied
    req GET "/qos/roce?rev=operational"
    # enabled-tc: the configured default-global ECN profile's classes, which replace
    # the default's traffic class 0 (3d below; the RoCE page's "0,3" is RoCE mode
    # alone, with no default-global profile configured).
    expect "$v: nv show qos roce: mode, PFC and ECN running" 200 \
        '/mode == "lossless" | /pfc/pfc-priority == "3" | /pfc/rx-enabled == "enabled" | /congestion-control/enabled-tc == "3"'
    req GET "/interface/swp2/qos/roce/status"
    expect "$v: a port's RoCE status (no rev: operational)" 200 \
        '/pfc/pfc-priority == "3" | /pfc/tx-enabled == "yes" | /mode == "lossless"'
    req GET "/interface/swp2?rev=applied&filled=false"
    expect "$v: the status is not configuration" 200 '/qos absent | /link/mtu == 9216'
done
if start_sim --ports swp1-4 --prompt never --apply-delay 0.1 --pfc-not-operational swp2; then
    new_rev; R=$REV
    req PATCH "/?rev=$(enc "$R")" "$ROCE_ON_515"
    apply_rev "$R"
    rev_state "$R" applied
    expect "--pfc-not-operational: the apply itself succeeds" 200 '/state == "applied"'
    req GET "/interface/swp2/qos/roce/status"
    expect "--pfc-not-operational: swp2's PFC not running" 200 \
        '/pfc/pfc-priority absent | /pfc/rx-enabled == "no" | /pfc/tx-enabled == "no"'
    req GET "/interface/swp1/qos/roce/status"
    expect "--pfc-not-operational: swp1 runs it" 200 '/pfc/pfc-priority == "3"'
    req GET "/interface/swp2?rev=applied"
    expect "--pfc-not-operational: swp2's configuration as applied" 200 '/qos absent | /link/mtu == 9216'
fi
for v in 4.4.0 5.15.x 5; do
    if NVUE_SIM_USER=$SIM_USER NVUE_SIM_PASSWORD=$SIM_PASS "$PY" "$SIM" --cert "$CERT" \
        --key "$TMP/key.pem" --version "$v" >/dev/null 2>"$TMP/version.err" ||
        ! grep -q -- "--version: a Cumulus Linux 5.x release" "$TMP/version.err"; then
        bad "--version $v: refused, a Cumulus Linux 5.x release asked for" "$(cat "$TMP/version.err")"
    else
        ok "--version $v: refused, a Cumulus Linux 5.x release asked for"
    fi
done

# --- 3d. NVUE's factory defaults: ECN on traffic class 0, the watchdog's timers ------
# The QoS page (CumulusNetworks/docs cumulus-linux-514 Quality of Service _index.md @
# 0d142afe6080): "Congestion Control (ECN)", "The default profile (default-global)
# enables ECN by default on egress queue 0" at 150000/1500000 bytes, RED off, and a
# configured default-global profile replacing it (traffic classes 4,5,7 shown alone);
# "PFC Watchdog", "The default polling interval is 100 milliseconds. The default
# number of polling intervals is 3." What a client must restore to end as a factory
# switch (issue 35), as the filled read-back shows it (tests/sim/NVUE.md).
if start_sim --ports swp1-8 --prompt never --apply-delay 0.1; then
    req GET "/qos/congestion-control/default-global/traffic-class?rev=applied"
    expect "factory: ECN on traffic class 0, 150000..1500000 bytes, RED off" 200 \
        '/0/ecn == "enable" | /0/min-threshold == 150000 | /0/max-threshold == 1500000 | /0/red == "disable" | /3 absent'
    req GET "/qos/pfc-watchdog?rev=applied"
    expect "factory: the watchdog polls every 100 ms, 3 polls" 200 '/polling-interval == 100 | /robustness == 3'
    req GET "/qos?rev=applied&filled=false"
    expect "factory: none of it configured" 404
    new_rev; R=$REV
    req PATCH "/qos?rev=$(enc "$R")" '{"congestion-control": {"default-global": {"traffic-class": {"3": {"ecn": "enable",
        "red": "disable", "min-threshold": 150000, "max-threshold": 1500000, "probability": 100}}}},
      "pfc-watchdog": {"polling-interval": 200, "robustness": 3}}'
    apply_rev "$R"
    rev_state "$R" applied
    req GET "/qos/congestion-control/default-global/traffic-class?rev=applied"
    expect "default-global configured: its traffic class 3 replaces the default's 0" 200 '/3/ecn == "enable" | /0 absent'
    req GET "/qos/pfc-watchdog?rev=applied"
    expect "the watchdog's timers configured" 200 '/polling-interval == 200 | /robustness == 3'
    new_rev; R=$REV
    req PATCH "/qos/congestion-control/default-global/traffic-class?rev=$(enc "$R")" '{"3": null}'
    apply_rev "$R"
    rev_state "$R" applied
    req GET "/qos/congestion-control/default-global?rev=applied"
    expect "every class unset, the profile still configured: nothing marked" 200 '/traffic-class/0 absent'
    new_rev; R=$REV
    req PATCH "/qos?rev=$(enc "$R")" '{"congestion-control": null, "pfc-watchdog": null}'
    apply_rev "$R"
    rev_state "$R" applied
    req GET "/qos/congestion-control/default-global/traffic-class/0?rev=applied"
    expect "the profile unset: the default's traffic class 0 marked again" 200 '/ecn == "enable" | /min-threshold == 150000'
    req GET "/qos/pfc-watchdog?rev=applied"
    expect "the timers unset: NVUE's 100 ms x 3 again" 200 '/polling-interval == 100 | /robustness == 3'
fi

# --- 4. fault injection -------------------------------------------------------------
if start_sim --prompt never --apply-delay 0.2 \
        --refuse-path 'qos/congestion-control/*/traffic-class/*/min-threshold=150000'; then
    new_rev; R=$REV
    req PATCH "/qos/congestion-control/default-global/traffic-class/3?rev=$(enc "$R")" '{"min-threshold": 150000}'
    apply_rev "$R"
    rev_state "$R" invalid
    expect "--refuse-path: the value is refused at apply" 200 \
        '/state == "invalid" | /transition/issue/0/data/location == "qos.congestion-control.default-global.traffic-class.3.min-threshold" | /transition/issue/0/message contains --refuse-path'
    req PATCH "/qos/congestion-control/default-global/traffic-class/3?rev=$(enc "$R")" '{"min-threshold": 140000}'
    apply_rev "$R"
    rev_state "$R" applied
    expect "--refuse-path: another value applies" 200 '/state == "applied"'
fi

if start_sim --prompt never --apply-delay 0.2 --drop-apply 1 --legacy-5.9; then
    new_rev; R=$REV
    req PATCH "/interface/swp5/link?rev=$(enc "$R")" '{"mtu": 9100}'
    expect "--legacy-5.9: PATCH answers the full state" 200 '/interface/swp5/link/mtu == 9100 | /interface/swp5/type == "swp"'
    apply_rev "$R" ays
    if [ "$STATUS" = 000 ] && grep -q 'Empty reply' "$TMP/curl.err"; then
        ok "--drop-apply: the connection closes with no answer"
    else
        bad "--drop-apply: the connection closes with no answer" "status $STATUS: $(cat "$TMP/curl.err")"
    fi
    rev_state "$R" applied
    expect "--drop-apply: the apply still completes" 200 '/state == "applied"'
    new_rev; R=$REV
    req DELETE "/interface/swp5?rev=$(enc "$R")"
    expect "--legacy-5.9: DELETE answers 200 {}" 200 '$ == {}'
    apply_rev "$R" ays
    expect "--drop-apply 1: the second apply is answered" 200 '/state == "apply"'
fi

if start_sim --prompt never --apply-delay 0.1 --hang-apply --delay 0.5; then
    new_rev; R=$REV
    req PATCH "/qos/roce?rev=$(enc "$R")" '{"mode": "lossy"}'
    apply_rev "$R" ays
    sleep 1
    rev_state "$R"
    if [ "$STATE" = apply ]; then ok "--hang-apply: the revision stays in state apply"
    else bad "--hang-apply: the revision stays in state apply" "state '$STATE'"; fi
    t=$(curl -sS --cacert "$CERT" -u "$SIM_USER:$SIM_PASS" -o /dev/null -w '%{time_total}' "$BASE/revision" 2>/dev/null)
    if "$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.5 else 1)" "${t:-0}"; then
        ok "--delay 0.5: the answer takes ${t}s"
    else
        bad "--delay 0.5: the answer takes at least 0.5 s" "took ${t:-?}s"
    fi
fi
# Issue 36: nginx's own answers while NVUE goes on, and a state word not documented as an end.
if start_sim --prompt never --apply-delay 0.5 --apply-error 502 --apply-error 429 --apply-state verifying; then
    new_rev; R=$REV
    req PATCH "/interface/swp6/link?rev=$(enc "$R")" '{"mtu": 9000}'
    apply_rev "$R" ays
    if [ "$STATUS" = 502 ] && grep -q '<center><h1>502 Bad Gateway</h1></center>' "$TMP/body" &&
            grep -q '<hr><center>nginx</center>' "$TMP/body"; then
        ok "--apply-error 502: nginx's error page answers the apply"
    else
        bad "--apply-error 502: nginx's error page answers the apply" "status $STATUS: $(head -c 200 "$TMP/body")"
    fi
    rev_state "$R"
    if [ "$STATE" = verifying ]; then ok "--apply-state verifying: shown while it applies"
    else bad "--apply-state verifying: shown while it applies" "state '$STATE'"; fi
    rev_state "$R" applied
    expect "--apply-error: the apply runs on to applied" 200 '/state == "applied"'
    req GET "/interface/swp6/link?rev=applied"
    expect "--apply-error: its change is applied" 200 '/mtu == 9000'
    new_rev; R=$REV
    req PATCH "/interface/swp7/link?rev=$(enc "$R")" '{"mtu": 9000}'
    apply_rev "$R" ays
    if [ "$STATUS" = 429 ] && grep -q '429 Too Many Requests' "$TMP/body"; then
        ok "--apply-error given twice: the second apply answered 429"
    else
        bad "--apply-error given twice: the second apply answered 429" "status $STATUS"
    fi
    rev_state "$R" applied
    new_rev; R=$REV
    req PATCH "/interface/swp8/link?rev=$(enc "$R")" '{"mtu": 9000}'
    apply_rev "$R" ays
    expect "--apply-error: the third apply is answered" 200 '/state == "apply"'
fi

if start_sim --prompt never --apply-delay 0.2 --busy-after-apply 0.8; then
    new_rev; R=$REV
    req PATCH "/interface/swp6/link?rev=$(enc "$R")" '{"mtu": 9000}'
    apply_rev "$R" ays
    expect "--busy-after-apply: the apply itself is answered" 200 '/state == "apply"'
    req GET "/revision/$(enc "$R")"
    if [ "$STATUS" = 502 ] && grep -q '502 Bad Gateway' "$TMP/body"; then
        ok "--busy-after-apply: nginx answers 502 meanwhile"
    else
        bad "--busy-after-apply: nginx answers 502 meanwhile" "status $STATUS"
    fi
    sleep 1
    rev_state "$R" applied
    expect "--busy-after-apply: answered again after it, applied" 200 '/state == "applied"'
fi

# Issue 36: large answers to a client's polls of an apply that never ends.
if start_sim --prompt never --hang-apply --progress-kb 64; then
    new_rev; R=$REV
    req PATCH "/interface/swp6/link?rev=$(enc "$R")" '{"mtu": 9000}'
    apply_rev "$R" ays
    req GET "/revision/$(enc "$R")"
    n=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["transition"]["progress"]))' "$TMP/body" 2>/dev/null)
    if [ "$STATUS" = 200 ] && [ "$n" = 65536 ]; then
        ok "--progress-kb 64: a poll's answer holds 64 KiB of progress text"
    else
        bad "--progress-kb 64: a poll's answer holds 64 KiB of progress text" "status $STATUS, ${n:-no} characters"
    fi
fi
stop_sim

echo "nvue selftest: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
