#!/bin/sh
# SPDX-License-Identifier: MIT
# A throwaway OpenSSH sshd for the tests: 127.0.0.1 only, a free port, keys
# generated in DIR, logins as the current user with DIR's client key. Nothing
# outside DIR is touched, except that sshd started as root needs its
# privilege-separation directory /run/sshd (tmpfs; what the Debian package's
# unit creates too).
#   sshd.sh start DIR [FORCE_COMMAND]  -> writes DIR/port, DIR/sshd.pid
#   sshd.sh stop DIR                   -> kills that PID
set -eu
cmd=$1
dir=$2
# write_config PORT FORCE_COMMAND: DIR/sshd_config for a sshd on 127.0.0.1:PORT.
write_config() {
	{
		echo "Port $1"
		echo "ListenAddress 127.0.0.1"
		echo "HostKey $dir/host_key"
		echo "PidFile $dir/sshd.pid"
		echo "AuthorizedKeysFile $dir/authorized_keys"
		echo "StrictModes no"
		echo "PasswordAuthentication no"
		echo "KbdInteractiveAuthentication no"
		echo "UsePAM no"
		echo "PermitRootLogin prohibit-password"
		echo "LogLevel ERROR"
		# sshd runs every command through the user's shell, and Debian's bash
		# then sources ~/.bashrc (it checks for SSH_CLIENT at shell level 1):
		# a developer's rc file (pyenv init: 0.4 s here) would be timed too.
		# A session with SHLVL=1 starts bash at level 2, which skips it.
		echo "SetEnv SHLVL=1"
		if [ -n "$2" ]; then echo "ForceCommand $2"; fi
		# Extra sshd_config lines from the caller (the benchmark raises MaxStartups).
		if [ -n "${QG_SSHD_EXTRA:-}" ]; then printf '%s\n' "$QG_SSHD_EXTRA"; fi
	} >"$dir/sshd_config"
}

case $cmd in
start)
	SSHD=$(command -v sshd || echo /usr/sbin/sshd)
	[ -x "$SSHD" ] || { echo "sshd.sh: no sshd; install openssh-server (make setup)" >&2; exit 3; }
	mkdir -p "$dir"
	ssh-keygen -q -t ed25519 -N '' -C qosgen-test-host -f "$dir/host_key"
	ssh-keygen -q -t ed25519 -N '' -C qosgen-test-client -f "$dir/client_key"
	cp "$dir/client_key.pub" "$dir/authorized_keys"
	[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
	# A free port: ask the kernel through a bound-then-closed listener is racy
	# in sh, so try candidates against every socket (in any state: a port an
	# outgoing connection holds cannot be listened on either). If sshd still
	# cannot bind (a connection took the port meanwhile), it exits: try the
	# next candidate, up to three times.
	for attempt in 1 2 3; do
		port=""
		for try in $(seq 1 50); do
			p=$((20000 + ($$ * 7 + (try + attempt * 50) * 131) % 30000))
			if ! ss -Hatn "sport = :$p" | grep -q .; then
				port=$p
				break
			fi
		done
		[ -n "$port" ] || { echo "sshd.sh: no free port" >&2; exit 3; }
		write_config "$port" "${3:-}"
		# Its stdout is not ours: a caller that reads ours (why=$(sshd.sh start ...))
		# would wait for sshd to exit.
		"$SSHD" -D -e -f "$dir/sshd_config" >/dev/null 2>"$dir/sshd.log" &
		pid=$!
		echo $pid >"$dir/sshd.pid.harness"
		echo "$port" >"$dir/port"
		for _ in $(seq 1 50); do
			ss -Hltn "sport = :$port" | grep -q . && exit 0
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill "$pid" 2>/dev/null
	done
	echo "sshd.sh: sshd did not start: $(cat "$dir/sshd.log")" >&2
	exit 3
	;;
stop)
	[ -f "$dir/sshd.pid.harness" ] && kill "$(cat "$dir/sshd.pid.harness")" 2>/dev/null || true
	;;
esac
