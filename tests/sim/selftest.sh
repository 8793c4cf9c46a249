#!/bin/sh
# SPDX-License-Identifier: MIT
# Self-test of the Onyx simulator's split ports, traffic pools and buffer
# modes, and of its release and operational state (issue 34). It drives the simulator through pipes, as the other tests do, and
# checks what it answers and what its running-config then prints.
# Usage: sh tests/sim/selftest.sh path/to/onyx-sim
# Prints "PASS name" or "FAIL name (detail)" per check, then
# "N passed, N failed"; exits non-zero if any check failed.
set -u

sim=${1:-}
if [ ! -x "$sim" ]; then
	echo "usage: sh tests/sim/selftest.sh path/to/onyx-sim" >&2
	exit 2
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
pass=0
fail=0

check() { # NAME STATUS DETAIL
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
		echo "PASS $1"
	else
		fail=$((fail + 1))
		echo "FAIL $1 ($3)"
	fi
}

# session STATE LINE...: one session in config mode with the state in
# $tmp/STATE. The replies, prompts taken off, go to $tmp/out; the
# running-config read at its end goes to $tmp/rc.
session() {
	state=$tmp/$1
	shift
	{
		echo enable
		echo configure terminal
		for line in "$@"; do
			printf '%s\n' "$line"
		done
		echo exit
		echo show running-config
	} | "$sim" --state "$state" >"$tmp/raw" 2>&1
	sed 's/^.*\[standalone: master\][^#>]*[#>] //' "$tmp/raw" >"$tmp/out"
	sed -n '/^## Running database/,$p' "$tmp/out" >"$tmp/rc"
}

has() { grep -qxF -- "$1" "$tmp/rc"; }          # a running-config line, exactly
lacks() { ! grep -qF -- "$1" "$tmp/rc"; }       # no running-config line with this
errs() { grep '^%' "$tmp/out" | tr '\n' ' '; }  # the error lines, for details
no_error() { ! grep -q '^%' "$tmp/out"; }
error_naming() { grep '^%' "$tmp/out" | grep -qF -- "$1"; }

# ---- split ports ----

session s 'interface ethernet 1/16 mtu 9216 force' \
	'interface ethernet 1/16 module-type qsfp-split-4 force'
no_error && has 'interface ethernet 1/16 module-type qsfp-split-4 force'
check split-accepted-and-printed $? "$(errs)"
lacks 'interface ethernet 1/16 mtu'
check split-resets-port-settings $? "$(grep 'ethernet 1/16' "$tmp/rc" | tr '\n' ' ')"

session s 'interface ethernet 1/16 mtu 9216 force'
error_naming 1/16 && lacks 'interface ethernet 1/16 mtu'
check split-whole-port-refused $? "errors: $(errs)"

session s 'interface ethernet 1/15-1/17 qos trust L3'
error_naming 1/16 && lacks 'qos trust L3'
check split-range-covering-it-refused $? "errors: $(errs)"

session s 'interface ethernet 1/16'
error_naming 1/16 && ! grep -q 'interface ethernet 1/16) #' "$tmp/raw"
check split-interface-context-refused $? "errors: $(errs)"

session s 'interface ethernet 1/16/1-1/16/4 mtu 9216 force' \
	'interface ethernet 1/16/2 qos trust L3'
no_error && has 'interface ethernet 1/16/1-1/16/4 mtu 9216 force' &&
	has 'interface ethernet 1/16/2 qos trust L3'
check subport-accepted-printed-as-range $? "$(errs) $(grep '1/16/' "$tmp/rc" | tr '\n' ' ')"

session s 'interface ethernet 1/17/1 mtu 9216 force'
error_naming 1/17/1 && lacks '1/17/1'
check subport-of-unsplit-port-refused $? "errors: $(errs)"

session s 'interface ethernet 1/20 module-type qsfp-split-2 force' \
	'interface ethernet 1/20/3 mtu 9216 force' \
	'interface ethernet 1/20/1-1/20/2 mtu 9216 force'
has 'interface ethernet 1/20 module-type qsfp-split-2 force' && error_naming 1/20/3 &&
	has 'interface ethernet 1/20/1-1/20/2 mtu 9216 force'
check split-2-has-two-subports $? "errors: $(errs)"

session s 'show dcb priority-flow-control | json-print'
grep -q '"Eth1/20/2"' "$tmp/out" && ! grep -q '"Eth1/20"' "$tmp/out"
check split-shows-subports-in-json $? "$(grep -o '"Eth1/20[^"]*"' "$tmp/out" | tr '\n' ' ')"

session s
has 'interface ethernet 1/16 module-type qsfp-split-4 force' &&
	has 'interface ethernet 1/16/1-1/16/4 mtu 9216 force'
check split-persists-in-state $? "$(grep 'ethernet 1/16' "$tmp/rc" | tr '\n' ' ')"

# A state file from before splits existed has no "split" lines: all unsplit.
mkdir "$tmp/old"
grep -v '^split ' "$tmp/s/state" >"$tmp/old/state"
session old 'interface ethernet 1/16 mtu 9216 force'
no_error && lacks 'module-type' && has 'interface ethernet 1/16 mtu 9216 force'
check old-state-file-means-unsplit $? "$(errs)"

session c 'interface ethernet 1/5' 'module-type qsfp-split-4' 'no'
grep -q "the following interfaces will be unmapped: 1/5" "$tmp/out" &&
	grep -q "Type 'yes' to confirm split:" "$tmp/out" && error_naming abort && lacks 'module-type'
check split-unconfirmed-not-applied $? "$(grep -i 'unmapped\|confirm\|^%' "$tmp/out" | tr '\n' ' ')"

# After the split the CLI is back in config mode: a flat command works.
session c 'interface ethernet 1/5' 'module-type qsfp-split-4' 'yes' \
	'interface ethernet 1/5/1 mtu 9216 force'
no_error && has 'interface ethernet 1/5 module-type qsfp-split-4 force' &&
	has 'interface ethernet 1/5/1 mtu 9216 force'
check split-confirmed-back-in-config-mode $? "$(errs)"

session s 'interface ethernet 1/16/2 module-type qsfp force'
error_naming 1/16/1 && has 'interface ethernet 1/16 module-type qsfp-split-4 force'
check unsplit-from-other-subport-refused $? "errors: $(errs)"

session s 'interface ethernet 1/16/1 module-type qsfp force'
no_error && lacks 'ethernet 1/16 module-type' && lacks 'ethernet 1/16/'
check unsplit-from-first-subport $? "$(errs) $(grep 'ethernet 1/16' "$tmp/rc" | tr '\n' ' ')"

session s 'interface ethernet 1/16 mtu 9216 force' 'interface ethernet 1/16/1 qos trust L3'
has 'interface ethernet 1/16 mtu 9216 force' && error_naming 1/16/1 && lacks 'qos trust L3'
check unsplit-port-whole-again $? "errors: $(errs)"

# ---- traffic pools ----

session p 'traffic pool roce type lossless' 'traffic pool roce memory percent 50' \
	'traffic pool roce map switch-priority 3'
no_error && has 'traffic pool roce map switch-priority 3'
check pool-maps-priority $? "$(errs)"

session p 'traffic pool bulk map switch-priority 3'
error_naming roce && lacks 'traffic pool bulk' && has 'traffic pool roce map switch-priority 3'
check pool-owned-priority-refused-naming-owner $? "errors: $(errs)"

session p 'traffic pool bulk map switch-priority 4 3'
error_naming roce && lacks 'traffic pool bulk'
check pool-map-list-all-or-nothing $? "errors: $(errs)"

session p 'traffic pool bulk map switch-priority 4' 'traffic pool bulk memory percent 50.01'
error_naming 100 && has 'traffic pool bulk map switch-priority 4' &&
	lacks 'traffic pool bulk memory'
check pool-memory-over-100-refused $? "errors: $(errs)"

session p 'traffic pool bulk memory percent 50' 'traffic pool roce memory percent 50.00' \
	'traffic pool roce memory percent 51'
has 'traffic pool bulk memory percent 50.00' && has 'traffic pool roce memory percent 50.00' &&
	[ "$(grep -c '^%' "$tmp/out")" -eq 1 ] && error_naming 100
check pool-memory-up-to-100-counted-once $? "errors: $(errs)"

session p 'no traffic pool roce map switch-priority 3'
no_error && lacks 'traffic pool roce map' && has 'traffic pool roce type lossless'
check no-map-unmaps $? "$(errs)"

session p 'no traffic pool bulk map switch-priority 5'
error_naming 5 && has 'traffic pool bulk map switch-priority 4'
check no-map-unmapped-priority-refused $? "errors: $(errs)"

session p 'no traffic pool ghost map switch-priority 3'
error_naming ghost && lacks 'ghost'
check no-map-missing-pool-refused-not-created $? "errors: $(errs)"

session p 'traffic pool bulk map switch-priority 3'
no_error && has 'traffic pool bulk map switch-priority 3 4'
check unmapped-priority-free-for-another-pool $? "$(errs)"

session p 'no traffic pool bulk' 'traffic pool roce map switch-priority 3 4'
no_error && lacks 'traffic pool bulk' && has 'traffic pool roce map switch-priority 3 4'
check no-pool-deletes-and-frees-priorities $? "$(errs)"

session p 'no traffic pool bulk'
error_naming bulk
check no-pool-missing-refused $? "errors: $(errs)"

# ---- buffer modes ----

session a 'traffic pool roce type lossless' 'advanced buffer management force'
no_error && has 'advanced buffer management force' && lacks 'traffic pool'
check advanced-mode-entered $? "$(errs)"

session a 'traffic pool roce type lossless'
grep -q '^%' "$tmp/out" && lacks 'traffic pool'
check advanced-refuses-traffic-pool $? "errors: $(errs)"

session a 'pool iPool1 size 5242880 type dynamic' 'pool ePool1 size 16777000 type dynamic' \
	'interface ethernet 1/13-1/16 ingress-buffer iPort.pg3 bind switch-priority 3' \
	'interface ethernet 1/13-1/16 ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved 67538 xoff 18432 xon 18432 shared alpha 2'
no_error && has 'pool iPool1 size 5242880 type dynamic' &&
	has 'pool ePool1 size 16777000 type dynamic' &&
	has 'interface ethernet 1/13-1/16 ingress-buffer iPort.pg3 bind switch-priority 3' &&
	has 'interface ethernet 1/13-1/16 ingress-buffer iPort.pg3 map pool iPool1 type lossless reserved 67538 xoff 18432 xon 18432 shared alpha 2'
check advanced-lines-printed-verbatim $? "$(errs)"

session a 'pool iPool1 size 4194304 type dynamic'
has 'pool iPool1 size 4194304 type dynamic' && lacks 'pool iPool1 size 5242880'
check advanced-pool-line-replaced $? "$(grep '^pool' "$tmp/rc" | tr '\n' ' ')"

session a
has 'advanced buffer management force' && has 'pool ePool1 size 16777000 type dynamic'
check advanced-mode-persists $? "$(grep -i 'advanced\|^pool' "$tmp/rc" | tr '\n' ' ')"

session a 'no advanced buffer management force' 'traffic pool roce type lossless'
no_error && lacks 'advanced buffer' && lacks 'iPool1' && lacks 'ingress-buffer' &&
	has 'traffic pool roce type lossless'
check back-to-basic-mode $? "$(errs)"

session a 'pool iPool1 size 5242880 type dynamic' \
	'interface ethernet 1/13 ingress-buffer iPort.pg3 bind switch-priority 3'
[ "$(grep -c '^%' "$tmp/out")" -eq 2 ] && lacks 'iPool1' && lacks 'ingress-buffer'
check basic-mode-refuses-advanced-lines $? "errors: $(errs)"

# ---- traffic classes: the "no" forms back to Onyx's defaults (issue 23) ----

session t 'interface ethernet 1/1-1/2 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500' \
	'interface ethernet 1/1-1/2 traffic-class 6 dcb ets strict' \
	'interface ethernet 1/1-1/2 traffic-class 3 dcb ets wrr 50'
has 'interface ethernet 1/1-1/2 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500' &&
	has 'interface ethernet 1/1-1/2 traffic-class 6 dcb ets strict' &&
	has 'interface ethernet 1/1-1/2 traffic-class 3 dcb ets wrr 50'
check tc-settings-printed $? "$(grep traffic-class "$tmp/rc" | tr '\n' ' ')"

session t 'interface ethernet 1/1 no traffic-class 3 congestion-control' \
	'interface ethernet 1/2 no traffic-class 6 dcb ets'
no_error && has 'interface ethernet 1/2 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500' &&
	lacks 'interface ethernet 1/1 traffic-class 3 congestion-control' &&
	has 'interface ethernet 1/1 traffic-class 6 dcb ets strict' &&
	lacks 'interface ethernet 1/2 traffic-class 6 dcb' &&
	has 'interface ethernet 1/1-1/2 traffic-class 3 dcb ets wrr 50'
check tc-no-forms-reset-one-port $? "$(errs) $(grep traffic-class "$tmp/rc" | tr '\n' ' ')"

# The thresholds go with the mode: the state is a factory port's again.
session t 'interface ethernet 1/2 no traffic-class 3 congestion-control' \
	'interface ethernet 1/1-1/2 no traffic-class 3 dcb ets' 'interface ethernet 1/1 no traffic-class 6 dcb ets'
p1=$(grep '^port 1 0 ' "$tmp/t/state" | cut -d' ' -f4-)
p9=$(grep '^port 9 0 ' "$tmp/t/state" | cut -d' ' -f4-)
no_error && lacks 'traffic-class' && [ "$p1" = "$p9" ]
check tc-no-forms-leave-factory-state $? "$(errs) port 1: $p1; port 9: $p9"

session t 'interface ethernet 1/1 no traffic-class 3 congestion-control ecn' \
	'interface ethernet 1/1 no traffic-class 3 dcb ets strict'
[ "$(grep -c '^%' "$tmp/out")" -eq 2 ]
check tc-no-forms-take-nothing-after $? "errors: $(errs)"

# ---- the release and the operational state (issue 34) ----

# shows STATE [OPTION...] -- LINE...: enable, then the shows; their replies,
# prompts taken off, in $tmp/out.
shows() {
	state=$tmp/$1
	shift
	opts=""
	while [ "$1" != "--" ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # the options, one word each
	{
		echo enable
		for line in "$@"; do
			printf '%s\n' "$line"
		done
	} | "$sim" --state "$state" $opts >"$tmp/raw" 2>&1
	sed 's/^.*\[standalone: master\][^#>]*[#>] //' "$tmp/raw" >"$tmp/out"
}
# json PY: the json-print reply in $tmp/out, loaded as cfg, makes the Python expression PY true.
json() {
	python3 -c 'import json, sys
cfg = json.loads(sys.stdin.read())
sys.exit(0 if eval(sys.argv[1]) else 1)' "$1" <"$tmp/out" 2>"$tmp/py"
}

shows v -- 'show version'
grep -qx 'Product release:   3.10.4606' "$tmp/out"
check version-default $? "$(cat "$tmp/out")"
shows v --version 3.9.3210 -- 'show version | json-print'
json 'cfg["Product release"] == "3.9.3210" and "3.9.3210" in cfg["Version summary"]'
check version-option-json $? "$(cat "$tmp/out" "$tmp/py")"
ONYX_SIM_VERSION=3.6.8130 shows v -- 'show version'
grep -qx 'Product release:   3.6.8130' "$tmp/out"
check version-from-environment $? "$(cat "$tmp/out")"
"$sim" --state "$tmp/v" --version '3.10;rm' </dev/null >/dev/null 2>&1
st=$?
[ $st -eq 2 ]
check version-not-a-release-refused $? "exit $st"

session o 'traffic pool roce type lossless' 'traffic pool roce memory percent 50' \
	'traffic pool roce map switch-priority 3' 'interface ethernet 1/1-1/2 traffic-class 6 dcb ets strict'
shows o -- 'show traffic pool roce | json-print'
json 'cfg["roce"][0]["Memory actual"] == "5.9M" and cfg["roce"][0]["Type"] == "lossless" and cfg["roce"][0]["Switch Priorities"] == "3"'
check pool-memory-actual-as-captured $? "$(cat "$tmp/out" "$tmp/py")"

shows o -- 'show dcb priority-flow-control | json-print'
json 'cfg[1]["Priority Enabled List"] == "3" and cfg[2]["Eth1/1"][0] == {"PFC admin": "Auto", "PFC oper": "Enabled"}'
check pfc-follows-lossless-pool $? "$(head -20 "$tmp/out") $(cat "$tmp/py")"
shows o -- 'show dcb priority-flow-control'
grep -qx 'Priority Enabled List: 3' "$tmp/out" && grep -qx 'Priority Disabled List: 0 1 2 4 5 6 7' "$tmp/out" &&
	grep -Eqx 'Eth1/1 +Auto +Enabled' "$tmp/out"
check pfc-text-as-captured $? "$(head -9 "$tmp/out")"
shows e -- 'show dcb priority-flow-control | json-print'
json 'cfg[1]["Priority Enabled List"] == "" and cfg[2]["Eth1/1"][0]["PFC oper"] == "Disabled"'
check pfc-off-without-lossless-pool $? "$(head -12 "$tmp/out") $(cat "$tmp/py")"

shows o -- 'show dcb ets interface ethernet 1/2 | json-print'
json 'cfg[0]["Eth1/2"][2]["ETS per TC"][0]["6"][0]["S.Mode"] == "Strict" and cfg[0]["Eth1/2"][2]["ETS per TC"][0]["3"][0]["S.Mode"] == "WRR"'
check ets-as-configured $? "$(cat "$tmp/py")"

printf 'pool_unsized\npfc_oper_disabled 1/2\nets_default\n' >"$tmp/o/faults"
shows o -- 'show traffic pool roce | json-print'
json 'cfg["roce"][0]["Memory actual"] == "0" and cfg["roce"][0]["Memory [%]"] == "50.00"'
check fault-pool-unsized $? "$(cat "$tmp/out" "$tmp/py")"
shows o -- 'show dcb priority-flow-control | json-print'
json 'cfg[2]["Eth1/2"][0]["PFC oper"] == "Disabled" and cfg[2]["Eth1/1"][0]["PFC oper"] == "Enabled"'
check fault-pfc-oper-disabled $? "$(cat "$tmp/py")"
shows o -- 'show dcb ets interface ethernet 1/2 | json-print'
json 'cfg[0]["Eth1/2"][2]["ETS per TC"][0]["6"][0]["S.Mode"] == "WRR"'
check fault-ets-default $? "$(cat "$tmp/py")"
rm "$tmp/o/faults"
session o
has 'interface ethernet 1/1-1/2 traffic-class 6 dcb ets strict' && has 'traffic pool roce memory percent 50.00'
check faults-leave-config-alone $? "$(grep -E 'traffic' "$tmp/rc" | tr '\n' ' ')"

echo "$pass sim checks passed, $fail failed"
[ "$fail" -eq 0 ]
