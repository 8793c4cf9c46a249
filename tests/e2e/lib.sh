# SPDX-License-Identifier: MIT
# Its variables are for the scripts that source it:
# shellcheck shell=sh disable=SC2034
# Sourced by the e2e tests and bench/push.sh.

pass=0
fail=0

# The qos section of every e2e and bench intent: the spec's reference values
# (DSCP 26 lossless on priority 3, CNPs on 6). Each test writes the rest.
E2E_QOS='qos:
  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}
  cnp: {priority: 6, dscp: 48, ets: strict}'

# e2e_start BUILD: Q and SIM, the build's qosgen and Onyx simulator by absolute
# path, and a new temporary $dir. At exit $E2E_CLEANUP (if set) runs, the test
# sshd in $dir/sshd is stopped by its PID, and $dir is removed.
e2e_start() {
	Q=$(cd "$1" && pwd)/qosgen
	SIM=$(cd "$1" && pwd)/tests/onyx-sim
	dir=$(mktemp -d)
	trap e2e_stop EXIT INT TERM
}
e2e_stop() {
	eval "${E2E_CLEANUP:-:}"
	sh "$(dirname "$0")/sshd.sh" stop "$dir/sshd"
	rm -rf "$dir"
}

# check NAME STATUS DETAIL: count a check; print the detail when it failed.
check() {
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1: $3"
	fi
}

# ansible_collection DIR: a private copy of Debian's mellanox.onyx 1.0.0 under
# DIR/collections with the upstream fix of onyx_config's one stale import
# (ansible.plugins.action.network is gone from ansible-core 2.14). The
# installed package is not touched.
ansible_collection() {
	src=/usr/lib/python3/dist-packages/ansible_collections/mellanox/onyx
	[ -d "$src" ] || return 1
	mkdir -p "$1/collections/ansible_collections/mellanox"
	cp -r "$src" "$1/collections/ansible_collections/mellanox/onyx"
	sed -i 's/^from ansible.plugins.action.network import/from ansible_collections.ansible.netcommon.plugins.action.network import/' \
		"$1/collections/ansible_collections/mellanox/onyx/plugins/action/onyx_config.py"
}

# kill_ansible HOME: stop the persistent ansible-connection processes that
# were started with HOME, by PID.
kill_ansible() {
	for pid in $(pgrep -f ansible-connection 2>/dev/null); do
		if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "HOME=$1"; then
			kill "$pid" 2>/dev/null
		fi
	done
}

# sim_hostname SIM STATE_DIR PORTS NAME: the simulated switch calls itself NAME
# (qosgen refuses a switch whose running-config names another host), and its
# trace starts empty.
sim_hostname() {
	printf 'enable\nconfigure terminal\nhostname %s\nexit\n' "$4" | "$1" --state "$2" --ports "$3" >/dev/null
	rm -f "$2/trace"
}

# sshd_start DIR [FORCE_COMMAND]: a test sshd (sshd.sh), loud when it cannot start.
# Sets $port. The caller's cleanup stops it with: sh "$e2e/sshd.sh" stop DIR
sshd_start() {
	if ! why=$(sh "$(dirname "$0")/sshd.sh" start "$@" 2>&1); then
		echo "FAIL $(basename "$0" .sh): cannot start a test sshd: $why"
		exit 1
	fi
	port=$(cat "$1/port")
}

# ansible_cfg DIR FORKS CONNECT_S COMMAND_S: DIR/ansible.cfg for the Onyx
# collection in DIR/collections and DIR/inventory.ini, host keys checked.
ansible_cfg() {
	cat >"$1/ansible.cfg" <<CFG
[defaults]
collections_path = $1/collections:/usr/lib/python3/dist-packages
inventory = $1/inventory.ini
host_key_checking = True
interpreter_python = /usr/bin/python3
retry_files_enabled = False
nocows = True
forks = $2
[persistent_connection]
connect_timeout = $3
command_timeout = $4
CFG
}

# nv_cert TEST: $dir/cert.pem and $dir/key.pem, a test certificate for IP
# 127.0.0.1, which the clients verify (qosgen --ca-file, curl --cacert).
nv_cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
		-days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 || {
		echo "FAIL $1: cannot make a test certificate (needs openssl)"
		exit 1
	}
}

# nv_start ARGS...: a fresh NVUE simulator (tests/sim/nvue_sim.py, its state
# only in memory) over HTTPS on 127.0.0.1 with nv_cert's certificate, user
# cumulus, password e2e-pw, ports swp1-32 and swp49s0-3; sets $nvport.
# nv_stop stops it by its PID.
nv_start() {
	nv_stop
	rm -f "$dir/nvport"
	NVUE_SIM_USER=cumulus NVUE_SIM_PASSWORD=e2e-pw python3 "$(dirname "$0")/../sim/nvue_sim.py" \
		--port 0 --port-file "$dir/nvport" --cert "$dir/cert.pem" --key "$dir/key.pem" \
		--ports swp1-32,swp49s0-3 --apply-delay 0.2 "$@" >>"$dir/nvsim.log" 2>&1 &
	echo $! >"$dir/nvpid"
	# Up to 20 s: Python's start on a loaded 2-core machine took more than 5.
	for _ in $(seq 1 200); do
		[ -s "$dir/nvport" ] && break
		sleep 0.1
	done
	nvport=$(cat "$dir/nvport" 2>/dev/null)
	[ -n "$nvport" ] || {
		echo "FAIL $(basename "$0" .sh): the NVUE simulator did not start: $(tail -3 "$dir/nvsim.log")"
		exit 1
	}
}
nv_stop() {
	if [ -s "$dir/nvpid" ]; then
		kill "$(cat "$dir/nvpid")" 2>/dev/null
		wait "$(cat "$dir/nvpid")" 2>/dev/null
		rm -f "$dir/nvpid"
	fi
}
