#!/bin/sh
# SPDX-License-Identifier: MIT
# sonic_selftest.sh: checks tests/sim/sonic_sim.py, the SONiC switch CLI simulator.
#
# Starts a throwaway sshd on 127.0.0.1 (tests/e2e/sshd.sh) with the simulator as its
# ForceCommand, and drives it with the real OpenSSH client (BatchMode, the generated key,
# StrictHostKeyChecking against a known_hosts made from the server's host key). Patches
# are made by a tool no one here wrote either: python3-jsonpatch's jsondiff, comparing two
# config_db JSON files. Checks read-back, apply-patch (good, dry run, refused by
# SONiC's YANG models through yanglint, the empty-table and no-YANG-model rules),
# checkpoint, rollback, save, delete-checkpoint, every fault, two sessions at once,
# the multi-ASIC shape and commands a switch does not know.
# One line per check ("ok - ..." / "FAIL - ..."), the last line a summary; exit 0 only
# when nothing failed. The sshd is stopped by PID whatever happens, the temp dir removed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
SIM="$HERE/sonic_sim.py"
INITIAL="$HERE/sonic-msn2700.config_db.json"
# The interpreter itself, resolved once: a version-manager shim costs ~0.5 s a call.
PY=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)') || exit 1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/sonic-selftest.XXXXXX") || exit 1
ST="$TMP/state"
SSHD_DIR="$TMP/sshd"

cleanup() {
    # KEEP=1 keeps the temp dir (state, answers) for a look after a failure.
    [ -f "$SSHD_DIR/sshd.pid.harness" ] && sh "$TOP/tests/e2e/sshd.sh" stop "$SSHD_DIR"
    [ -n "${KEEP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
bad() {
    FAIL=$((FAIL + 1)); echo "FAIL - $1"
    if [ -n "${2:-}" ]; then printf '%s\n' "$2" | head -n 6 | sed 's/^/#   /'; fi
}
# verdict $? LABEL [WHY]: ok when the status (of the command just before) is 0.
verdict() {
    if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2" "${3:-}"; fi
}
# shellcheck source=tests/sonic/models.sh
top=$TOP . "$TOP/tests/sonic/models.sh"
NOYANG=0 # checks left out: they need SONiC's YANG models, which are not here
summary() {
    noyang=
    [ "$NOYANG" -eq 0 ] || noyang="; $NOYANG checks not run ($qg_yang_why)"
    echo "sonic selftest: $PASS passed, $FAIL failed$noyang"
    [ "$FAIL" -eq 0 ]
    exit
}

# --- what the test needs, said plainly when it is missing ------------------------------
missing=""
"$PY" -c 'import jsonpatch' 2>/dev/null || missing="$missing python3-jsonpatch"
command -v yanglint >/dev/null 2>&1 || missing="$missing libyang2-tools"
command -v ssh >/dev/null 2>&1 || missing="$missing openssh-client"
# Debian names python3-jsonpatch's jsondiff json-patch-jsondiff (jsondiff is an alternative).
JSONDIFF=$(command -v json-patch-jsondiff || command -v jsondiff) || missing="$missing python3-jsonpatch(jsondiff)"
if [ -n "$missing" ]; then
    bad "tools present" "missing:$missing (scripts/setup.sh test installs them)"
    summary
fi

# --- helpers written to the temp dir ----------------------------------------------------
cat > "$TMP/j.py" <<'EOF'
"""j.py same A B            exit 0 when two config_db JSON files are equal (bgpraw ignored)
   j.py edit IN OUT PYTHON   OUT = IN changed by PYTHON (on db)
   j.py keys FILE            the top-level keys, sorted, one line
   j.py natsorted FILE       exit 0 when tables and rows are in natural order, indent 4"""
import json, re, sys

def load(p):
    with open(p, encoding="utf-8") as f:
        d = json.load(f)
    if isinstance(d, dict):
        d.pop("bgpraw", None)
    return d

def nat(s):
    return tuple(int(x) if i % 2 else x for i, x in enumerate(re.split(r"(\d+)", s)))

cmd = sys.argv[1]
if cmd == "same":
    a, b = load(sys.argv[2]), load(sys.argv[3])
    if a != b:
        import jsonpatch
        print(str(jsonpatch.make_patch(a, b))[:400])
        sys.exit(1)
elif cmd == "edit":
    db = load(sys.argv[2])
    exec(sys.argv[4])
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        json.dump(db, f, indent=4)
elif cmd == "keys":
    print(" ".join(sorted(load(sys.argv[2]))))
elif cmd == "natsorted":
    text = open(sys.argv[2], encoding="utf-8").read()
    d = json.loads(text)
    ok = list(d) == sorted(d, key=nat) and all(
        list(v) == sorted(v, key=nat) for v in d.values() if isinstance(v, dict))
    sys.exit(0 if ok and text.startswith('{\n    "') else 1)
EOF
J() { "$PY" "$TMP/j.py" "$@"; }

# --- the device and the sshd --------------------------------------------------------------
if ! why=$("$PY" "$SIM" --state "$ST" init "$INITIAL" 2>&1); then
    bad "init: the initial config_db passes SONiC's YANG models" "$why"
    summary
fi
if [ -n "$SONIC_YANG_DIR" ]; then
    ok "init: $(basename "$INITIAL") passes SONiC's YANG models"
else
    NOYANG=$((NOYANG + 1))
fi

if ! why=$(sh "$TOP/tests/e2e/sshd.sh" start "$SSHD_DIR" "$PY $SIM --state $ST" 2>&1); then
    bad "sshd started with the simulator as ForceCommand" "$why"
    summary
fi
PORT=$(cat "$SSHD_DIR/port")
printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$SSHD_DIR/host_key.pub")" > "$TMP/known_hosts"

# sw COMMAND [STDIN_FILE]: one SSH command; its exit code in RC, output in out/err.
sw() {
    ssh -F /dev/null -p "$PORT" -i "$SSHD_DIR/client_key" -o BatchMode=yes \
        -o IdentitiesOnly=yes -o StrictHostKeyChecking=yes \
        -o UserKnownHostsFile="$TMP/known_hosts" -o LogLevel=ERROR \
        "$(id -un)@127.0.0.1" "$1" < "${2:-/dev/null}" > "$TMP/out" 2> "$TMP/err"
    RC=$?
}
# expect LABEL RC [GREP_OUT] [GREP_ERR]: exit code, and fixed strings in stdout/stderr.
expect() {
    why=""
    [ "$RC" = "$2" ] || why="exit $RC, want $2"
    if [ -z "$why" ] && [ -n "${3:-}" ] && ! grep -qF -- "$3" "$TMP/out"; then why="stdout lacks '$3'"; fi
    if [ -z "$why" ] && [ -n "${4:-}" ] && ! grep -qF -- "$4" "$TMP/err"; then why="stderr lacks '$4'"; fi
    if [ -z "$why" ]; then ok "$1"; else bad "$1" "$why
stdout: $(head -c 300 "$TMP/out")
stderr: $(head -c 300 "$TMP/err")"; fi
}
readback() { # FILE: the running config as a client reads it
    sw "show runningconfiguration all"
    cp "$TMP/out" "$1"
}
# unchanged LABEL FILE: the running config still equals FILE
unchanged() {
    readback "$TMP/now.json"
    if why=$(J same "$2" "$TMP/now.json"); then ok "$1"; else bad "$1" "$why"; fi
}

# --- 1. read back ---------------------------------------------------------------------------
readback "$TMP/r0.json"
if [ "$RC" = 0 ] && J same "$INITIAL" "$TMP/r0.json" >/dev/null && grep -q '^    "bgpraw": ' "$TMP/r0.json"; then
    ok "show runningconfiguration all: the config_db, indent 4, plus bgpraw"
else
    bad "show runningconfiguration all: the config_db, indent 4, plus bgpraw" "exit $RC: $(head -c 200 "$TMP/err")"
fi
sw "sudo -n show runningconfiguration all"
expect "sudo -n show ...: the same" 0 '"DEVICE_METADATA": {'

# --- 2. checkpoint --------------------------------------------------------------------------
sw "sudo config checkpoint before"
expect "config checkpoint: created" 0 "Checkpoint created successfully." ""
grep -q "Config Rollbacker: Saving config db content to /etc/sonic/checkpoints/before.cp.json." "$TMP/out"
verdict $? "checkpoint: GCU's log lines, the path it saves to" "$(cat "$TMP/out")"
sw "sudo config list-checkpoints"
expect "list-checkpoints: the checkpoint, as JSON" 0 '"before"'

# --- 3. a good patch, made by jsondiff ---------------------------------------------------------
J edit "$TMP/r0.json" "$TMP/want.json" '
db["DSCP_TO_TC_MAP"]["ROCE"] = {str(d): ("3" if d == 26 else "6" if d == 48 else "0") for d in range(64)}
db["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"] = "ROCE"
db["PORT"]["Ethernet0"]["mtu"] = "9216"
db["WRED_PROFILE"]["AZURE_LOSSLESS"]["green_min_threshold"] = "153600"
db["PFC_WD"] = {"GLOBAL": {"POLL_INTERVAL": "200"},
                "Ethernet0": {"action": "drop", "detection_time": "400", "restoration_time": "400"}}'
J edit "$TMP/r0.json" "$TMP/cur.json" 'pass'
"$JSONDIFF" --indent 2 "$TMP/cur.json" "$TMP/want.json" > "$TMP/good.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/good.patch"
expect "apply-patch /dev/stdin (jsondiff's patch): applied" 0 "Patch applied successfully." ""
grep -q "^Patch Applier: localhost: Patch application starting.$" "$TMP/out"
verdict $? "apply-patch: GCU's Patch Applier lines on stdout" "$(head -n 3 "$TMP/out")"
readback "$TMP/r1.json"
if why=$(J same "$TMP/want.json" "$TMP/r1.json"); then ok "read back: the patched config, exactly"; else bad "read back: the patched config" "$why"; fi
J edit "$TMP/r1.json" "$TMP/r1c.json" 'pass'
# jsondiff prints nothing and exits 0 when the two are equal (1 and a patch otherwise).
if "$JSONDIFF" "$TMP/r1c.json" "$TMP/want.json" > "$TMP/d0" && [ ! -s "$TMP/d0" ]; then
    ok "converged: jsondiff of read-back and wanted state is empty"
else
    bad "converged: jsondiff of read-back and wanted state is empty" "$(cat "$TMP/d0")"
fi
echo "[]" > "$TMP/empty.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/empty.patch"
expect "an empty patch: applied, 0 changes" 0 "The localhost patch was converted into 0 changes."

# --- 4. dry run ---------------------------------------------------------------------------------
J edit "$TMP/r1.json" "$TMP/dry.json" 'db["PORT"]["Ethernet4"]["mtu"] = "4200"'
"$JSONDIFF" "$TMP/r1c.json" "$TMP/dry.json" > "$TMP/dry.patch"
sw "sudo config apply-patch --dry-run /dev/stdin" "$TMP/dry.patch"
expect "--dry-run: says so first, would apply, exit 0" 0 "** DryRun: Would apply"
[ "$(head -n 1 "$TMP/out")" = "** DRY RUN EXECUTION **" ]
verdict $? "--dry-run: first line '** DRY RUN EXECUTION **'" "$(head -n 1 "$TMP/out")"
unchanged "--dry-run: nothing changed" "$TMP/r1.json"

# --- 5. what SONiC's YANG models refuse: nothing changes ------------------------------------------
refused() { # LABEL PYTHON EXPECT
    case $1 in PFC_WD*) ;; *) [ -n "$SONIC_YANG_DIR" ] || { NOYANG=$((NOYANG + 1)); return 1; } ;; esac
    J edit "$TMP/r1.json" "$TMP/bad.json" "$2"
    "$JSONDIFF" "$TMP/r1c.json" "$TMP/bad.json" > "$TMP/bad.patch"
    sw "sudo config apply-patch /dev/stdin" "$TMP/bad.patch"
    expect "refused by yanglint: $1" 2 "" "$3"
}
if refused "DSCP 64" 'db["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "3"' "Invalid DSCP"; then
    grep -qF "Failed to apply patch due to: Validate json patch: [{'op': 'add', 'path': '/DSCP_TO_TC_MAP/ROCE/64'" "$TMP/err" \
        && grep -q "^Try 'config apply-patch -h' for help.$" "$TMP/err"
    verdict $? "refusal: GCU's 'Failed to apply patch due to:' and click's usage error" "$(cat "$TMP/err")"
else
    NOYANG=$((NOYANG + 1))
fi
refused "MTU 9217" 'db["PORT"]["Ethernet0"]["mtu"] = "9217"' "out of the allowed range"
refused "a queue on a port the switch lacks" 'db["QUEUE"]["Ethernet1000|3"] = {"scheduler": "scheduler.1"}' "Ethernet1000"
# PFC_WD: sonic-pfcwd.yang is not among the shared models; tests/sonic/pfcwd_check.py
# judges it from the model's facts (ranges, actions, the musts against POLL_INTERVAL).
refused "PFC_WD detection_time 50" 'db["PFC_WD"]["Ethernet0"]["detection_time"] = "50"' \
    'Value "50" does not satisfy the range constraint.'
refused "PFC_WD restoration_time below POLL_INTERVAL" \
    'db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = "500"' \
    "detection_time must be greater than or equal to POLL_INTERVAL"
refused "PFC_WD action shutdown" 'db["PFC_WD"]["Ethernet0"]["action"] = "shutdown"' \
    'Invalid enumeration value "shutdown".'
refused "PFC_WD of a port the switch lacks" \
    'db["PFC_WD"]["Ethernet1000"] = {"action": "drop", "detection_time": "400"}' "Ethernet1000"
unchanged "refusals: nothing changed" "$TMP/r1.json"

# --- 6. GCU's own rules ---------------------------------------------------------------------------
printf '[{"op": "add", "path": "/TC_TO_DSCP_MAP", "value": {}}]\n' > "$TMP/p.json"
sw "sudo config apply-patch /dev/stdin" "$TMP/p.json"
expect "empty table: refused" 2 "" "given patch is not valid because it will result in empty tables"
J edit "$TMP/r1.json" "$TMP/v.json" 'db["VERSIONS"]["DATABASE"]["VERSION"] = "version_4_0_1"'
"$JSONDIFF" "$TMP/r1c.json" "$TMP/v.json" > "$TMP/v.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/v.patch"
expect "a table without a YANG model: refused" 2 "" "Given patch is not valid because it has changes to tables without YANG models"
unchanged "GCU rules: nothing changed" "$TMP/r1.json"
sw "sudo config apply-patch -n /dev/stdin" "$TMP/v.patch"
expect "... accepted with -n (--ignore-non-yang-tables)" 0 "Patch applied successfully."

# --- 7. rollback, save, delete-checkpoint ---------------------------------------------------------
sw "sudo config rollback before"
expect "rollback over a table without a model: refused without -n" 2 "" "Failed to rollback config"
sw "sudo config rollback -n before"
expect "rollback -n: rolled back" 0 "Config rolled back successfully."
unchanged "rollback restores the checkpoint exactly" "$TMP/r0.json"
cp "$ST/fs/etc/sonic/config_db.json" "$TMP/saved0.json"
sw "sudo config apply-patch /dev/stdin" "$TMP/good.patch"
sw "sudo config save"
expect "config save without -y and no answer: aborted" 1 "" "Aborted!"
J same "$TMP/saved0.json" "$ST/fs/etc/sonic/config_db.json" >/dev/null
verdict $? "... the saved file untouched"
sw "sudo config save -y"
expect "config save -y: sonic-cfggen's command line" 0 "Running command: /usr/local/bin/sonic-cfggen -d --print-data > /etc/sonic/config_db.json"
if J same "$TMP/want.json" "$ST/fs/etc/sonic/config_db.json" >/dev/null && J natsorted "$ST/fs/etc/sonic/config_db.json"; then
    ok "save wrote /etc/sonic/config_db.json: the running config, natsorted, indent 4"
else
    bad "save wrote /etc/sonic/config_db.json" "$(J same "$TMP/want.json" "$ST/fs/etc/sonic/config_db.json")"
fi
sw "sudo config delete-checkpoint before"
expect "delete-checkpoint: deleted" 0 "Checkpoint deleted successfully."
sw "sudo config list-checkpoints"
[ "$RC" = 0 ] && [ "$(cat "$TMP/out")" = "[]" ]
verdict $? "list-checkpoints: []" "$(cat "$TMP/out")"
sw "sudo config delete-checkpoint before"
expect "delete-checkpoint of a missing one" 2 "" "Error: Checkpoint 'before' does not exist"
sw "sudo config rollback nosuch"
expect "rollback to a missing checkpoint" 2 "" "Error: Checkpoint 'nosuch' does not exist"

# --- 8. faults ----------------------------------------------------------------------------------------
readback "$TMP/r2.json"
J edit "$TMP/r2.json" "$TMP/cur.json" 'pass'
J edit "$TMP/r2.json" "$TMP/f.json" 'db["PORT"]["Ethernet8"]["mtu"] = "9000"'
"$JSONDIFF" "$TMP/cur.json" "$TMP/f.json" > "$TMP/f.patch"
"$PY" "$SIM" --state "$ST" fault --refuse-path '/PORT/*/mtu'
sw "sudo config apply-patch /dev/stdin" "$TMP/f.patch"
expect "fault refuse-path: refused as GCU refuses a field" 2 "" "Operation: replace is illegal on field: /PORT/Ethernet8/mtu"
unchanged "... nothing changed" "$TMP/r2.json"

"$PY" "$SIM" --state "$ST" fault --fail-save
sw "sudo config save -y"
expect "fault fail-save: the shell's error, non-zero" 2 "" "Read-only file system"
J same "$TMP/want.json" "$ST/fs/etc/sonic/config_db.json" >/dev/null
verdict $? "... the saved file untouched"

"$PY" "$SIM" --state "$ST" fault --fail-rollback
sw "sudo config checkpoint c2"
sw "sudo config rollback c2"
expect "fault fail-rollback: refused" 2 "" "There is no possible sorting"
unchanged "... nothing changed" "$TMP/r2.json"

"$PY" "$SIM" --state "$ST" fault --slow-apply 1.5
t0=$(date +%s.%N)
sw "sudo config apply-patch /dev/stdin" "$TMP/f.patch" &
slow=$!
sleep 0.5
# a second session during the slow apply: it waits for the lock, then reads the result
sw2_rc=0
ssh -F /dev/null -p "$PORT" -i "$SSHD_DIR/client_key" -o BatchMode=yes -o IdentitiesOnly=yes \
    -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$TMP/known_hosts" -o LogLevel=ERROR \
    "$(id -un)@127.0.0.1" "show runningconfiguration all" < /dev/null > "$TMP/concurrent.json" 2>&1 || sw2_rc=$?
wait "$slow"
t1=$(date +%s.%N)
if "$PY" -c 'import sys; sys.exit(0 if float(sys.argv[2]) - float(sys.argv[1]) >= 1.5 else 1)' "$t0" "$t1"; then
    ok "fault slow-apply 1.5: the apply takes 1.5 s or more"
else
    bad "fault slow-apply 1.5: the apply takes 1.5 s or more"
fi
if [ "$sw2_rc" = 0 ] && J same "$TMP/f.json" "$TMP/concurrent.json" >/dev/null; then
    ok "two sessions at once: the reader waited and read the whole applied config"
else
    bad "two sessions at once: the reader waited and read the applied config" "exit $sw2_rc"
fi

# --show-unlocked: a switch's show reads CONFIG_DB straight away, not behind the apply.
J edit "$TMP/f.json" "$TMP/u.json" 'db["PORT"]["Ethernet12"]["mtu"] = "1500"'
"$JSONDIFF" "$TMP/f.json" "$TMP/u.json" > "$TMP/u.patch"
"$JSONDIFF" "$TMP/u.json" "$TMP/f.json" > "$TMP/u-back.patch"
# (The apply sleeps 8 s: the show must read before it ends even on a loaded machine.)
"$PY" "$SIM" --state "$ST" fault --slow-apply 8 --show-unlocked
sw "sudo config apply-patch /dev/stdin" "$TMP/u.patch" &
slow=$!
sleep 0.5
ssh -F /dev/null -p "$PORT" -i "$SSHD_DIR/client_key" -o BatchMode=yes -o IdentitiesOnly=yes \
    -o StrictHostKeyChecking=yes -o UserKnownHostsFile="$TMP/known_hosts" -o LogLevel=ERROR \
    "$(id -un)@127.0.0.1" "show runningconfiguration all" < /dev/null > "$TMP/unlocked.json" 2>&1
wait "$slow"
if J same "$TMP/f.json" "$TMP/unlocked.json" >/dev/null && J same "$TMP/u.json" "$ST/running.json" >/dev/null; then
    ok "fault show-unlocked: show during a slow apply reads the config before it, without waiting"
else
    bad "fault show-unlocked: show during a slow apply reads the config before it, without waiting"
fi
"$PY" "$SIM" --state "$ST" fault
sw "sudo config apply-patch /dev/stdin" "$TMP/u-back.patch"

J edit "$TMP/f.json" "$TMP/d.json" 'db["PORT"]["Ethernet12"]["mtu"] = "9000"'
J edit "$TMP/f.json" "$TMP/cur.json" 'pass'
"$JSONDIFF" "$TMP/cur.json" "$TMP/d.json" > "$TMP/d.patch"
"$PY" "$SIM" --state "$ST" fault --drop-apply 1
sw "sudo config apply-patch /dev/stdin" "$TMP/d.patch"
if [ "$RC" = 255 ] && [ ! -s "$TMP/out" ]; then
    ok "fault drop-apply 1: connection dropped, no answer (ssh exit 255: $(head -n 1 "$TMP/err"))"
else
    bad "fault drop-apply 1: connection dropped, no answer" "exit $RC: $(cat "$TMP/out" "$TMP/err" | head -c 300)"
fi
unchanged "... but the change was made" "$TMP/d.json"
grep -q "dropped (drop-apply) sudo config apply-patch /dev/stdin" "$ST/sim.log"
verdict $? "... and logged" "$(tail -n 2 "$ST/sim.log")"
sw "sudo config apply-patch /dev/stdin" "$TMP/empty.patch"
expect "drop-apply 1: the next apply is answered" 0 "Patch applied successfully."
"$PY" "$SIM" --state "$ST" fault

# --- 9. commands a switch does not know or refuses ---------------------------------------------------
sw "frobnicate --now"
expect "unknown command: bash's answer, exit 127" 127 "" "bash: line 1: frobnicate: command not found"
sw "sudo frobnicate"
expect "sudo unknown command: sudo's answer, exit 1" 1 "" "sudo: frobnicate: command not found"
sw "config apply-patch /dev/stdin" "$TMP/empty.patch"
expect "config without sudo: root privileges required" 1 "" "Root privileges are required for this operation"
sw "sudo config frobnicate"
expect "unknown config subcommand: click's error" 2 "" "Error: No such command 'frobnicate'."
sw "sudo config apply-patch -f XML /dev/stdin" "$TMP/empty.patch"
expect "apply-patch -f XML: click's choice error" 2 "" "'XML' is not one of 'CONFIGDB', 'SONICYANG'."
sw "sudo config apply-patch /home/admin/nosuch.json"
expect "apply-patch of a missing file" 2 "" "No such file or directory: '/home/admin/nosuch.json'"
cp "$TMP/empty.patch" "$ST/fs/home/admin/p.json"
sw "sudo config apply-patch p.json"
expect "apply-patch of a file on the switch (relative to the home directory)" 0 "Patch applied successfully."
if grep -q '"op"' "$ST/sim.log" || grep -q 'ROCE' "$ST/sim.log"; then
    bad "the log holds command lines only, never a patch"
else
    ok "the log holds command lines only, never a patch"
fi

# --- 10. show version, sonic-db-dump, the buffer manager ------------------------------------------------
sw "show version"
expect "show version: SONiC.<build_version> of the device" 0 "SONiC Software Version: SONiC.202605.0-086b03bd7"
grep -q "^HwSKU: ACS-MSN2700$" "$TMP/out" && grep -q "^Platform: x86_64-mlnx_msn2700-r0$" "$TMP/out" &&
    grep -q "^Docker images:$" "$TMP/out" && [ "$(head -n 1 "$TMP/out")" = "" ]
verdict $? "show version: show/main.py's lines, platform and HwSKU from DEVICE_METADATA" "$(head -n 12 "$TMP/out")"
sw "show version --brief"
[ "$RC" = 0 ] && ! grep -q "Docker images" "$TMP/out"
verdict $? "show version --brief: no docker images"

# sonic-db-dump -y, read by Python's json module: one object, keys sorted, indent 2, no final newline.
cat > "$TMP/dump.py" <<'EOF2'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
assert not text.endswith("\n") and text.startswith('{\n  "'), "pretty form"
assert list(d) == sorted(d), "keys sorted"
for k, v in d.items():
    assert v["type"] == "hash" and v["ttl"] == -0.001 and isinstance(v["expireat"], float), k
for expr in sys.argv[2:]:
    assert eval(expr, {"d": {k: v["value"] for k, v in d.items()}}), expr
EOF2
D() { "$PY" "$TMP/dump.py" "$TMP/out" "$@"; }
"$PY" "$SIM" --state "$ST" init "$INITIAL" --max-headroom-size 400000 >/dev/null
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_P[GR]*' -y"
# 10G, 300 m, MTU 9100 on the SN2700 (Spectrum: cell 96, pipeline latency 19 KB): SONIC.md works
# these figures out from buffer_headroom_mellanox.lua.
why=$(D 'd["BUFFER_PG_TABLE:Ethernet0:3-4"] == {"profile": "pg_lossless_10000_300m_profile"}' \
    'd["BUFFER_PROFILE_TABLE:pg_lossless_10000_300m_profile"] == {"xon": "19456", "xoff": "37888", "size": "57344", "pool": "ingress_lossless_pool", "dynamic_th": "0"}' \
    'd["BUFFER_PG_TABLE:Ethernet0:0"] == {"profile": "ingress_lossy_profile"}' \
    'all(k.startswith(("BUFFER_PG_TABLE:", "BUFFER_PROFILE_TABLE:")) for k in d)' 2>&1)
verdict $? "sonic-db-dump APPL_DB: the lossless PGs on buffermgrd's profiles, its figures" "$why"
sw "sonic-db-dump -n STATE_DB -k 'BUFFER_MAX_PARAM_TABLE|*' -y"
why=$(D 'd["BUFFER_MAX_PARAM_TABLE|Ethernet12"] == {"max_headroom_size": "400000"}' 'len(d) == 32' 2>&1)
verdict $? "sonic-db-dump STATE_DB: each port's max_headroom_size (init --max-headroom-size)" "$why"
[ ! -e "$ST/fs/var/log/syslog" ]
verdict $? "the factory config fits 400000 bytes a port: buffermgrd refused nothing at boot" "$(cat "$ST/fs/var/log/syslog" 2>/dev/null | head -3)"
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_PG_TABLE:Ethernet12:*'"
[ "$RC" = 0 ] && grep -q '^{"BUFFER_PG_TABLE:Ethernet12:0":{"type":"hash","value":{"profile":"ingress_lossy_profile"},"ttl":-0.001,"expireat":' "$TMP/out"
verdict $? "sonic-db-dump without -y: redisdl's compact form" "$(head -c 200 "$TMP/out")"
sw "sonic-db-dump -n COUNTERS_DB"
expect "sonic-db-dump of a database not modelled: said so" 1 "" "is not modelled"

# A cable the port's headroom cannot take: GCU applies it, buffermgrd refuses it in its log
# only, APPL_DB keeps the PG on its old profile (sonic-mgmt test_exceeding_headroom).
readback "$TMP/b0.json"
J edit "$TMP/b0.json" "$TMP/bcur.json" 'pass'
J edit "$TMP/b0.json" "$TMP/b1.json" 'db["CABLE_LENGTH"]["AZURE"]["Ethernet12"] = "2500m"'
"$JSONDIFF" "$TMP/bcur.json" "$TMP/b1.json" > "$TMP/b1.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/b1.patch"
expect "a 2500 m cable on the 50G Ethernet12: apply-patch takes it" 0 "Patch applied successfully."
unchanged "... CONFIG_DB holds it" "$TMP/b1.json"
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_P[GR]*' -y"
why=$(D 'd["BUFFER_PG_TABLE:Ethernet12:3-4"] == {"profile": "pg_lossless_50000_300m_profile"}' \
    '"BUFFER_PROFILE_TABLE:pg_lossless_50000_2500m_profile" not in d' 2>&1)
verdict $? "... APPL_DB keeps the PG on its 300 m profile, no 2500 m profile" "$why"
grep -q "ERR swss#buffermgrd: :- isHeadroomResourceValid: Unable to update profile for port Ethernet12. Accumulative headroom size exceeds limit$" "$ST/fs/var/log/syslog" &&
    grep -q "ERR swss#buffermgrd: :- refreshPgsForPort: Update speed (50000) and cable length (2500m) for port Ethernet12 failed, accumulative headroom size exceeds the limit$" "$ST/fs/var/log/syslog"
verdict $? "... buffermgrd's refusal in the switch's syslog" "$(tail -n 3 "$ST/fs/var/log/syslog" 2>&1)"
J edit "$TMP/b0.json" "$TMP/b2.json" 'db["CABLE_LENGTH"]["AZURE"]["Ethernet12"] = "40m"'
J edit "$TMP/b1.json" "$TMP/bcur.json" 'pass'
"$JSONDIFF" "$TMP/bcur.json" "$TMP/b2.json" > "$TMP/b2.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/b2.patch"
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_P[GR]*' -y"
why=$(D 'd["BUFFER_PG_TABLE:Ethernet12:3-4"] == {"profile": "pg_lossless_50000_40m_profile"}' \
    '"BUFFER_PROFILE_TABLE:pg_lossless_50000_300m_profile" not in d' 2>&1)
verdict $? "a 40 m cable fits: the PG on the 40 m profile, the 300 m one released" "$why"

# --buffer-delay: APPL_DB shows a change only after the delay (buffermgrd is asynchronous).
"$PY" "$SIM" --state "$ST" fault --buffer-delay 2
J edit "$TMP/b2.json" "$TMP/bcur.json" 'pass'
J edit "$TMP/b0.json" "$TMP/b3.json" 'pass'
"$JSONDIFF" "$TMP/bcur.json" "$TMP/b3.json" > "$TMP/b3.patch"
sw "sudo config apply-patch /dev/stdin" "$TMP/b3.patch"
expect "fault buffer-delay 2: the 300 m cable back, applied" 0 "Patch applied successfully."
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_PG_TABLE:Ethernet12:*' -y"
D 'd["BUFFER_PG_TABLE:Ethernet12:3-4"]["profile"] == "pg_lossless_50000_40m_profile"' >/dev/null 2>&1
verdict $? "fault buffer-delay 2: at once APPL_DB still shows the earlier profile"
sleep 2.2
sw "sonic-db-dump -n APPL_DB -k 'BUFFER_PG_TABLE:Ethernet12:*' -y"
D 'd["BUFFER_PG_TABLE:Ethernet12:3-4"]["profile"] == "pg_lossless_50000_300m_profile"' >/dev/null 2>&1
verdict $? "... 2 s later, the new one"
"$PY" "$SIM" --state "$ST" fault

# --build-version: what `show version` names.
"$PY" "$SIM" --state "$ST" init "$INITIAL" --build-version 202111.70581-f08866b66 >/dev/null
sw "show version"
expect "init --build-version: show version names it" 0 "SONiC Software Version: SONiC.202111.70581-f08866b66"

# --- 11. multi-ASIC shape --------------------------------------------------------------------------------
"$PY" "$SIM" --state "$ST" init "$INITIAL" --multi-asic 2 >/dev/null 2>&1
readback "$TMP/m.json"
if [ "$RC" = 0 ] && [ "$(J keys "$TMP/m.json")" = "asic0 asic1 localhost" ]; then
    ok "--multi-asic 2: read-back keyed by namespace (localhost, asic0, asic1)"
else
    bad "--multi-asic 2: read-back keyed by namespace" "exit $RC: $(J keys "$TMP/m.json" 2>&1)"
fi
sw "sudo config apply-patch /dev/stdin" "$TMP/good.patch"
expect "--multi-asic: a path without a namespace: GCU's refusal" 2 "" "Multi ASIC must have namespace prefix in path"

summary
