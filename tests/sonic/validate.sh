#!/bin/sh
# SPDX-License-Identifier: MIT
# Every sonic/<switch>.json qosgen builds for the golden cases, validated by
# yanglint (Debian's libyang2-tools) against SONiC's own YANG models in
# $SONIC_YANG_DIR (tests/sonic/models.sh), as sonic-yang/VALIDATE.md says: converted to
# YANG instance data (configdb2yang.py), merged with the device's own PORT
# rows and egress buffer profiles (-m; sonic-port makes lanes and speed
# mandatory, and BUFFER_QUEUE names the switch's profiles, which qosgen does not
# own), exit 0 and no output. Then broken copies of one of them (a DSCP 64, an
# MTU 9217, pfc_enable 8, a queue on a port the device lacks, a WRED max below
# its min, an unknown scheduler type, a BUFFER_QUEUE profile the device lacks
# or a queue 16) must each be refused, naming the place:
# the suite can fail. PFC_WD, whose model (sonic-pfcwd.yang) is not among
# shared's, is checked first by pfcwd_check.py, written from that model's
# ranges, enumeration and musts, then left out of what yanglint reads; its
# broken copies (a detection_time 50, a restoration_time below POLL_INTERVAL,
# an action 'shutdown', POLL_INTERVAL on a port's row, a port the device
# lacks) must each be refused by it. A port role's profile (issue 28) missing
# while its ports' queues name it, and one named past 32 characters, are
# refused too.
# Without the models it checks nothing: one line "SKIP why", exit 77.
# Usage: validate.sh QOSGEN
set -u
Q=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sonic/models.sh
. "$top/tests/sonic/models.sh"
Y=$SONIC_YANG_DIR
here=$top/tests/sonic
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1: $2"; }

if ! command -v yanglint >/dev/null 2>&1; then
	echo "FAIL yanglint not found: apt-get install libyang2-tools (scripts/setup.sh test installs it)"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ -z "$Y" ]; then
	echo "SKIP $qg_yang_why"
	exit 77
fi
if [ -n "$qg_yang_why" ]; then
	echo "FAIL $qg_yang_why"
	echo "0 passed, 1 failed"
	exit 1
fi

# The device: a switch with every port name Ethernet0..Ethernet511, which
# covers the golden cases' ports (the largest is a 64 x 8-lane spine's
# Ethernet504) and not Ethernet1000.
python3 "$here/configdb2yang.py" --ports 0 511 >"$tmp/device-ports.json" || exit 3

lint() { # DATA.json: yanglint's exit status; its output in $tmp/lint
	yanglint -i -m -t config -p "$Y" "$Y"/*.yang "$tmp/device-ports.json" "$1" >"$tmp/lint" 2>&1
}

echo "yanglint $(yanglint -v | sed 's/^yanglint //') -i -m -t config -p \$Y \$Y/*.yang device-ports.json <file>"
n=0
for intent in "$top"/tests/golden/*/intent.yaml; do
	case=$(basename "$(dirname "$intent")")
	rm -rf "$tmp/out"
	"$Q" build "$intent" -o "$tmp/out" >/dev/null 2>&1 || {
		bad "$case" "qosgen build failed"
		continue
	}
	for f in "$tmp"/out/sonic/*.json; do
		[ -f "$f" ] || continue
		name=$case/sonic/$(basename "$f")
		n=$((n + 1))
		if ! python3 "$here/pfcwd_check.py" "$f" >"$tmp/rest.json" 2>"$tmp/conv"; then
			bad "$name" "PFC_WD refused: $(cat "$tmp/conv")"
			continue
		fi
		if ! python3 "$here/configdb2yang.py" "$tmp/rest.json" >"$tmp/yang.json" 2>"$tmp/conv"; then
			bad "$name" "not converted: $(cat "$tmp/conv")"
			continue
		fi
		lint "$tmp/yang.json"
		rc=$?
		if [ "$rc" -ne 0 ] || [ -s "$tmp/lint" ]; then
			bad "$name" "yanglint exit $rc: $(head -n 3 "$tmp/lint")"
			continue
		fi
		echo "ok $name: exit 0, no output"
		ok
		# The first file with a PFC_WD table is the one the broken copies start from.
		[ -f "$tmp/good.json" ] || ! grep -q '"PFC_WD"' "$f" || cp "$f" "$tmp/good.json"
		# The first with a port role's WRED profile (issue 28): the roles' broken copies.
		[ -f "$tmp/roles.json" ] || ! grep -q '"qosgen_ecn_' "$f" || cp "$f" "$tmp/roles.json"
	done
done
[ "$n" -gt 0 ] || bad "golden" "no golden case writes a sonic/*.json"
[ -f "$tmp/good.json" ] || bad "golden" "no golden case's sonic/*.json has a PFC_WD table"
[ -f "$tmp/roles.json" ] || bad "golden" "no golden case's sonic/*.json has a port role's WRED profile"

# break NAME PYTHON EXPECT: a copy of good.json changed by PYTHON (on db)
# must be refused by yanglint with EXPECT in its message.
# From $base, good.json unless set.
break_copy() {
	python3 - "${base:-$tmp/good.json}" "$2" >"$tmp/broken.json" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
port = sorted(db["PORT"])[0]
exec(sys.argv[2])
json.dump(db, sys.stdout, indent=4)
PY
	# shellcheck disable=SC2181 # the status of the here-document's python3
	if [ $? -ne 0 ]; then
		bad "broken/$1" "the copy could not be made"
		return 1
	fi
	if ! python3 "$here/pfcwd_check.py" "$tmp/broken.json" >"$tmp/rest.json" 2>"$tmp/lint"; then
		rc=1
	else
		python3 "$here/configdb2yang.py" "$tmp/rest.json" >"$tmp/yang.json" || return 1
		lint "$tmp/yang.json"
		rc=$?
	fi
	if [ "$rc" -eq 0 ]; then
		bad "broken/$1" "yanglint accepted it"
	elif ! grep -q "$3" "$tmp/lint"; then
		bad "broken/$1" "refused (exit $rc), but not for '$3': $(head -n 1 "$tmp/lint")"
	else
		echo "ok broken/$1: refused, exit $rc: $(head -n 1 "$tmp/lint")"
		ok
	fi
}
if [ -f "$tmp/good.json" ]; then
	break_copy dscp-64 'db["DSCP_TO_TC_MAP"]["QOSGEN"]["64"] = "0"' "Invalid DSCP"
	break_copy mtu-9217 'db["PORT"][port]["mtu"] = "9217"' "out of the allowed range"
	break_copy pfc-enable-8 'db["PORT_QOS_MAP"][port]["pfc_enable"] = "3,8"' "pfc_enable"
	break_copy unknown-port 'db["QUEUE"]["Ethernet1000|3"] = {"scheduler": "qosgen_cnp"}' \
		"Ethernet1000"
	break_copy wred-max-below-min \
		'db["WRED_PROFILE"]["qosgen_ecn"]["green_max_threshold"] = "1"' \
		"Green max threshold"
	break_copy scheduler-type 'db["SCHEDULER"]["qosgen_cnp"]["type"] = "PRIORITY"' \
		"PRIORITY"
	break_copy missing-map 'del db["TC_TO_QUEUE_MAP"]' "Invalid leafref"
	break_copy queue-profile-unknown \
		'db["BUFFER_QUEUE"][port + "|3"]["profile"] = "egress_lossles_profile"' \
		"Invalid leafref"
	break_copy queue-index-16 'db["BUFFER_QUEUE"][port + "|16"] = {"profile": "q_lossy_profile"}' \
		"Invalid Q-index"
	break_copy pfcwd-detection-50 'db["PFC_WD"][port]["detection_time"] = "50"' \
		"range constraint"
	break_copy pfcwd-restoration-below-poll \
		'db["PFC_WD"][port]["restoration_time"] = "100"; db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = "300"' \
		"restoration_time must be greater than or equal to POLL_INTERVAL"
	break_copy pfcwd-poll-2000 'db["PFC_WD"]["GLOBAL"]["POLL_INTERVAL"] = "2000"' \
		"range constraint"
	break_copy pfcwd-action 'db["PFC_WD"][port]["action"] = "shutdown"' \
		"Invalid enumeration value"
	break_copy pfcwd-poll-on-port 'db["PFC_WD"][port]["POLL_INTERVAL"] = "200"' \
		"Must condition"
	break_copy pfcwd-unknown-port 'db["PFC_WD"]["Ethernet1000"] = {"action": "drop"}' \
		"Ethernet1000"
fi

# A role's profile (qosgen_ecn_<role>) is a WRED profile like any: the queues
# of its ports name it, and its name is sonic-wred-profile.yang's 1..32
# characters (sonic_check() refuses a role name past 21).
if [ -f "$tmp/roles.json" ]; then
	base=$tmp/roles.json
	break_copy role-profile-missing \
		'del db["WRED_PROFILE"][[k for k in db["WRED_PROFILE"] if k.startswith("qosgen_ecn_")][0]]' \
		"Invalid leafref"
	break_copy role-profile-name-33 \
		'db["WRED_PROFILE"]["qosgen_ecn_" + "r" * 22] = db["WRED_PROFILE"]["qosgen_ecn"]' \
		"Invalid length for wred profile name"
	base=
fi

echo "$n sonic files validated; $pass passed, $fail failed"
[ "$fail" -eq 0 ]
