#!/bin/sh
# SPDX-License-Identifier: MIT
# A simulated fabric on 127.0.0.1 for qosgen's own commands: `make demo`
# drives one, `make sim-start` / `make sim-stop` keep one for the user.
#   simfabric.sh start [DIR]   (DIR: sim-fabric in the checkout)
#   simfabric.sh stop [DIR]
# start runs the bundled simulators (tests/sim/, test tools that share no
# code with qosgen), each on 127.0.0.1 only: the Onyx switch leaf-onyx and
# the SONiC switch leaf-sonic, each the ForceCommand of its own throwaway
# sshd (tests/e2e/sshd.sh); the Cumulus switch leaf-nvue, the NVUE simulator
# over HTTPS; the Linux host gpu-01 and the ESXi host esx-01, each behind
# its own sshd (tests/sim/host_sim.sh). It writes into DIR the intent
# fabric.yaml (examples/sim-fabric.yaml with each device's port and user),
# ssh_config, known_hosts (the sshds' host keys: strict checking stays on),
# client_key, ca.pem (the NVUE simulator's certificate) and env, to source:
# it exports QOSGEN_NVUE_PASSWORD (made here) and sets SIM, the options to
# give qosgen. Every process started is recorded in DIR/run/pids; stop
# kills exactly those, by PID, and removes what start wrote.
# QG_BUILD: the build directory with tests/onyx-sim (default: build).
# QG_SIM_ONYX_FAULTS (tests only): a file whose lines become the Onyx
# simulator's faults (tests/sim/onyx_sim.c), so that a switch refuses.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}
dir=${2:-$top/sim-fabric}
build=${QG_BUILD:-$top/build}
# Absolute paths: they go into the files written and into $SIM.
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
dir=${dir%/}
case $build in /*) ;; *) build=$PWD/$build ;; esac

usage() {
	echo "usage: simfabric.sh start|stop [DIR]" >&2
	exit 2
}
[ $# -le 2 ] || usage

# alive PID: PID runs and is ours: its command line names this DIR (a PID
# the kernel gave to another process since is left alone).
alive() {
	{ tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null | grep -qF "$dir/run/"
}

# running: a pid of DIR/run/pids still alive.
running() {
	[ -f "$dir/run/pids" ] || return 1
	while read -r _ pid; do
		alive "$pid" && return 0
	done <"$dir/run/pids"
	return 1
}

stop() {
	stopped=""
	if [ -f "$dir/run/pids" ]; then
		while read -r name pid; do
			if alive "$pid"; then
				kill "$pid" 2>/dev/null || true
				stopped="$stopped $name($pid)"
			fi
		done <"$dir/run/pids"
		# Wait for them, up to 5 s; then the sessions they left, by PID: a
		# session's ForceCommand names DIR too (a session lasts as long as
		# its client, not as its sshd's listener).
		for _ in $(seq 1 50); do
			running || break
			sleep 0.1
		done
	fi
	# Only what an sshd session of ours runs: a user's own 'less DIR/run/...'
	# names DIR too, and is left alone.
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		case $(cat "$p/comm" 2>/dev/null) in
		sh | dash | python3* | onyx-sim | unshare | sshd) ;;
		*) continue ;;
		esac
		[ "$pid" != $$ ] && alive "$pid" && kill "$pid" 2>/dev/null && stopped="$stopped session($pid)"
	done
	rm -rf "$dir/run"
	rm -f "$dir/fabric.yaml" "$dir/ssh_config" "$dir/known_hosts" "$dir/client_key" \
		"$dir/client_key.pub" "$dir/ca.pem" "$dir/env"
	rmdir "$dir" 2>/dev/null || true
	if [ -n "$stopped" ]; then
		echo "simfabric: stopped$stopped; removed $dir"
	else
		echo "simfabric: nothing running in $dir"
	fi
}

# fail WHY: say it, stop what this start began, exit 1.
fail() {
	echo "simfabric: $*" >&2
	stop >/dev/null
	exit 1
}

# sshd_for NAME FORCE_COMMAND WHAT: a throwaway sshd for NAME; sets $port.
sshd_for() {
	sh "$top/tests/e2e/sshd.sh" start "$dir/run/sshd-$1" "$2" >/dev/null 2>"$dir/run/sshd-$1.err" ||
		fail "the sshd of $1 did not start: $(cat "$dir/run/sshd-$1.err")"
	echo "$1 $(cat "$dir/run/sshd-$1/sshd.pid.harness")" >>"$dir/run/pids"
	port=$(cat "$dir/run/sshd-$1/port")
	cat "$dir/client_key.pub" >"$dir/run/sshd-$1/authorized_keys"
	printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/run/sshd-$1/host_key.pub")" \
		>>"$dir/known_hosts"
	printf 'Host %s\n  HostName 127.0.0.1\n  Port %s\n' "$1" "$port" >>"$dir/run/ssh_hosts"
	printf '  %-11s %-15s ssh 127.0.0.1:%s\n' "$1" "$3" "$port" >>"$dir/run/devices"
}

# intent NAME PORT USER: that device's line of the example, filled in.
intent() {
	sed -i "s/^\(  - {name: $1, .*\), port: [0-9]*, user: [^,]*,/\1, port: $2, user: $3,/" "$dir/fabric.yaml"
	grep -q "name: $1, .* port: $2, user: $3," "$dir/fabric.yaml" || fail "examples/sim-fabric.yaml has no line for $1"
}

start() {
	case $dir in
	*[[:space:]]*) echo "simfabric: '$dir' has a blank in it: \$SIM could not carry its paths" >&2; exit 2 ;;
	esac
	if running; then
		echo "simfabric: a simulated fabric is already running in $dir; stop it first: sh scripts/simfabric.sh stop $dir" >&2
		exit 1
	fi
	[ -x "$build/tests/onyx-sim" ] || {
		echo "simfabric: no $build/tests/onyx-sim: run 'make sim-start' (it builds it)" >&2
		exit 3
	}
	# The SONiC simulator validates every patch with yanglint against SONiC's
	# own YANG models, which are SONiC's code, not the project's: where
	# tests/sonic/models.sh finds them. Without them the demo still works:
	# the simulator takes patches without the YANG check. That is said where
	# it helps, to whoever runs the tests (the suite's SKIP line,
	# docs/testing.md), not to a user trying the tool, whose clone never has
	# the models (issue 37).
	# shellcheck source=tests/sonic/models.sh
	. "$top/tests/sonic/models.sh"
	[ -z "$SONIC_YANG_DIR" ] || [ -z "$qg_yang_why" ] || fail "$qg_yang_why"
	# What a stale start left (processes gone: a reboot), then a fresh DIR/run.
	rm -rf "$dir/run"
	mkdir -p "$dir/run"
	user=$(id -un)
	PY=$(command -v python3) || fail "no python3: run 'make sim-start' (it installs it)"
	cp "$top/examples/sim-fabric.yaml" "$dir/fabric.yaml"
	: >"$dir/known_hosts"
	: >"$dir/run/ssh_hosts"
	rm -f "$dir/client_key" "$dir/client_key.pub"
	ssh-keygen -q -t ed25519 -N '' -C qosgen-sim-fabric -f "$dir/client_key"

	# leaf-onyx: the Onyx simulator, its hostname set as a switch's would be.
	onyx="$build/tests/onyx-sim --state $dir/run/leaf-onyx --ports 32"
	printf 'enable\nconfigure terminal\nhostname leaf-onyx\nexit\n' | $onyx >/dev/null ||
		fail "the Onyx simulator refused its setup"
	rm -f "$dir/run/leaf-onyx/trace"
	if [ -n "${QG_SIM_ONYX_FAULTS:-}" ]; then
		cp "$QG_SIM_ONYX_FAULTS" "$dir/run/leaf-onyx/faults"
	fi
	sshd_for leaf-onyx "$onyx" Onyx
	intent leaf-onyx "$port" "$user"

	# leaf-sonic: the SONiC simulator from a real MSN2700's config_db, renamed.
	"$PY" -c '
import json, sys
db = json.load(open(sys.argv[1]))
db["DEVICE_METADATA"]["localhost"]["hostname"] = "leaf-sonic"
json.dump(db, open(sys.argv[2], "w"), indent=4)
' "$top/tests/sim/sonic-msn2700.config_db.json" "$dir/run/leaf-sonic.config_db.json" ||
		fail "cannot make the SONiC switch's config_db"
	"$PY" "$top/tests/sim/sonic_sim.py" --state "$dir/run/leaf-sonic" init \
		"$dir/run/leaf-sonic.config_db.json" >/dev/null || fail "the SONiC simulator refused its device"
	sshd_for leaf-sonic "$PY $top/tests/sim/sonic_sim.py --state $dir/run/leaf-sonic" SONiC
	intent leaf-sonic "$port" "$user"

	# gpu-01 and esx-01: simulated hosts.
	sh "$top/tests/sim/host_sim.sh" init linux "$dir/run/gpu-01" ens1f0np0 mlx5_0
	why=$(sh "$top/tests/sim/host_sim.sh" check "$dir/run/gpu-01" 2>&1) || fail "gpu-01: $why"
	sshd_for gpu-01 "sh $top/tests/sim/host_sim.sh serve $dir/run/gpu-01" Linux
	intent gpu-01 "$port" "$user"
	sh "$top/tests/sim/host_sim.sh" init esxi "$dir/run/esx-01"
	sshd_for esx-01 "sh $top/tests/sim/host_sim.sh serve $dir/run/esx-01" ESXi
	intent esx-01 "$port" "$user"

	# leaf-nvue: the NVUE simulator over HTTPS with a certificate for
	# 127.0.0.1 made here; its password is made here too, and reaches the
	# simulator and qosgen through the environment only. It runs Cumulus
	# Linux 5.16.0, the release examples/sim-fabric.yaml gives it (issue 34).
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/run/nvue-key.pem" -out "$dir/ca.pem" \
		-days 30 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 ||
		fail "cannot make the NVUE simulator's certificate (openssl)"
	password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	printf -- '- set:\n    system:\n      hostname: leaf-nvue\n' >"$dir/run/nvue-startup.yaml"
	NVUE_SIM_USER=cumulus NVUE_SIM_PASSWORD=$password "$PY" "$top/tests/sim/nvue_sim.py" \
		--port 0 --port-file "$dir/run/nvue-port" --cert "$dir/ca.pem" --key "$dir/run/nvue-key.pem" \
		--ports swp1-32 --apply-delay 0.2 --config "$dir/run/nvue-startup.yaml" --version 5.16.0 \
		>"$dir/run/nvue.log" 2>&1 &
	echo "leaf-nvue $!" >>"$dir/run/pids"
	# Up to 20 s: Python's start on a loaded 2-core machine took more than 5.
	for _ in $(seq 1 200); do
		[ -s "$dir/run/nvue-port" ] && break
		sleep 0.1
	done
	[ -s "$dir/run/nvue-port" ] || fail "the NVUE simulator did not start: $(tail -3 "$dir/run/nvue.log")"
	intent leaf-nvue "$(cat "$dir/run/nvue-port")" cumulus
	printf '  %-11s %-15s https 127.0.0.1:%s\n' leaf-nvue "Cumulus (NVUE)" "$(cat "$dir/run/nvue-port")" \
		>>"$dir/run/devices"

	{
		echo "# The simulated fabric's SSH devices (scripts/simfabric.sh): ssh -F $dir/ssh_config gpu-01"
		cat "$dir/run/ssh_hosts"
		echo "Host *"
		echo "  User $user"
		echo "  IdentityFile $dir/client_key"
		echo "  IdentitiesOnly yes"
		echo "  UserKnownHostsFile $dir/known_hosts"
		echo "  StrictHostKeyChecking yes"
	} >"$dir/ssh_config"
	(
		umask 077
		{
			echo "# . $dir/env: the simulated fabric's NVUE password, and \$SIM, qosgen's options for it"
			echo "QOSGEN_NVUE_PASSWORD=$password"
			echo "export QOSGEN_NVUE_PASSWORD"
			echo "SIM='--ssh-config $dir/ssh_config --known-hosts $dir/known_hosts --identity $dir/client_key --ca-file $dir/ca.pem'"
		} >"$dir/env"
	)
	rel=$dir
	case $dir in "$PWD"/*) rel=${dir#"$PWD"/} ;; esac
	echo "simfabric: a simulated fabric runs in $rel, on 127.0.0.1 only:"
	sort "$dir/run/devices"
	echo "Next:"
	echo "  . $rel/env"
	echo "  build/qosgen diff $rel/fabric.yaml --all \$SIM"
	echo "  build/qosgen push $rel/fabric.yaml --all \$SIM"
	echo "  ssh -F $rel/ssh_config leaf-onyx 'show running-config'"
	if [ "$dir" = "$top/sim-fabric" ]; then
		echo "  make sim-stop"
	else
		echo "  sh scripts/simfabric.sh stop $rel"
	fi
}

case $cmd in
start) start ;;
stop) stop ;;
*) usage ;;
esac
