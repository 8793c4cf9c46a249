#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/push_hosts: qosgen's own cost per host for `push --all` of a fleet of
# Linux hosts (issue 15): N hosts (1,000 by default), all 127.0.0.1 behind one
# test sshd whose ForceCommand runs each session's script against the fake
# device tools (tests/e2e/fakehost.sh, tests/scripts/fake) in a state
# directory of the session's own, seeded from a real mlnx_qos capture and
# removed after it: every push is a real change there, and nothing on this
# machine changes. The loopback has none of the RoCE knobs, so every host
# ends PARTIAL (exit 3): the session costs the same. QG_BENCH_DRY_RUN=1
# adds a --dry-run of the same fleet. /usr/bin/time measures the qosgen process alone: user + sys CPU
# and peak RSS; the sshd, the shells and the fake tools are other processes.
# Prints one line per run:
#   BENCH push 1000 hosts: qosgen X s wall, Y ms CPU per host, Z MB peak
# Usage: bench/push_hosts.sh BUILD [N_HOSTS [JOBS]]
set -u
BUILD=${1:-build}
N=${2:-1000}
J=${3:-32}
Q=$(cd "$BUILD" && pwd)/qosgen
top=$(cd "$(dirname "$0")/.." && pwd)
e2e=$top/tests/e2e
fake=$top/tests/scripts/fake
fixtures=$top/tests/fixtures
# shellcheck source=tests/e2e/lib.sh
. "$e2e/lib.sh"
[ -x /usr/bin/time ] || {
	echo "bench/push_hosts: /usr/bin/time is missing ('make setup' installs it)"
	exit 1
}
[ -f "$fixtures/host/mlnx_qos_pcp_default_2023.txt" ] || {
	echo "bench/push_hosts: $fixtures/host/mlnx_qos_pcp_default_2023.txt is missing"
	exit 1
}
dir=$(mktemp -d)
cleanup() {
	sh "$e2e/sshd.sh" stop "$dir/sshd"
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

mkdir -p "$dir/seed" "$dir/sessions"
grep -v '^\$' "$fixtures/host/mlnx_qos_pcp_default_2023.txt" >"$dir/seed/mlnx_qos"
# Each session: its own copy of the seed state (fakehost.sh puts the scripts'
# lock under it too, so sessions do not wait for each other), removed after.
cat >"$dir/session.sh" <<SESSION
#!/bin/sh
s=\$(mktemp -d "$dir/sessions/s.XXXXXX") || exit 3
cp "$dir/seed/mlnx_qos" "\$s/"
sh "$e2e/fakehost.sh" "\$s" "$fake"
rc=\$?
rm -rf "\$s"
exit \$rc
SESSION
# Every connection is a host: let -j of them log in at once.
QG_SSHD_EXTRA="MaxStartups 1024
MaxSessions 16" sh "$e2e/sshd.sh" start "$dir/sshd" "sh $dir/session.sh" || exit 1
port=$(cat "$dir/sshd/port")
user=${USER:-$(id -un)}
{
	echo "version: 1"
	echo "fabric: bench-hosts"
	echo "$E2E_QOS"
	echo "hosts:"
	for i in $(seq -w 1 "$N"); do
		echo "  - {name: h$i, platform: linux, address: 127.0.0.1, port: $port, user: $user, netdev: lo, rdma_device: qgbench0}"
	done
} >"$dir/intent.yaml"
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$dir/sshd/host_key.pub")" >"$dir/known_hosts"
opts="--known-hosts $dir/known_hosts --identity $dir/sshd/client_key --ssh-config /dev/null -j $J --timeout 120"

# bench LABEL ARGS...: one timed `qosgen push --all ARGS`; prints its line.
bench() {
	label=$1
	shift
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$Q" push "$dir/intent.yaml" --all $opts "$@" \
		>"$dir/push.out" 2>"$dir/push.err"
	st=$?
	# A host whose script ran says "h0001: 7 of 12 settings set ..."; any
	# other line of a host (unreachable, a dropped session) fails the bench.
	ran=$(grep -c '^h[0-9]*: [0-9]* of [0-9]* settings set' "$dir/push.err")
	[ "$ran" -eq "$N" ] || ok=1
	# time(1) writes "Command exited with non-zero status N" first when it did.
	read -r wall user_s sys_s rss_kb <<TIME
$(tail -n 1 "$dir/time")
TIME
	echo "$wall $user_s $sys_s $rss_kb $N" | awk -v label="$label" '{
		printf "BENCH push %d hosts%s: qosgen %.2f s wall, %.2f ms CPU per host, %.1f MB peak\n",
			$5, label, $1, ($2 + $3) * 1000 / $5, $4 / 1024 }'
	echo "  (exit $st, every host PARTIAL on the loopback's missing RoCE knobs; $ran/$N ran their script; user $user_s s + sys $sys_s s; -j $J)"
	[ "$ran" -eq "$N" ] || grep -v '^h[0-9]*: [0-9]* of [0-9]* settings set' "$dir/push.err" | head -5 | sed 's/^/    /'
}
ok=0
bench ""
if [ "${QG_BENCH_DRY_RUN:-0}" = 1 ]; then
	bench " (dry run)" --dry-run
fi
exit "$ok"
