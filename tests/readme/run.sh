#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's commands, run (issue 25): every command of its ```sh blocks, in
# README order, in one shell, in a scratch copy of the checkout with `qosgen`
# on the PATH pointing at the build. A command must end with the status its
# trailing `# exit N` comment gives (else 0); an ```output block right after
# an ```sh block is what that block prints (each command's standard output,
# then its standard error), where a line `...` stands for any lines and `...`
# inside a line for any text. A ```yaml FILE block is written to FILE there,
# so the commands after it read what the reader reads. Any other code block
# fails the test: no command in the README goes unrun.
#
# What the test cannot run as written, and what it does instead:
#  - `make demo`, `make test`: must be the first block, exactly those two
#    (CI runs them as written: tests/fresh/run.sh); not run here;
#  - `sudo make install`: `make install DESTDIR=<scratch>`, then the files
#    are checked;
#  - `make sim-start`, `make sim-stop` and the commands on sim-fabric/: run
#    for real, with scripts/simfabric.sh; without it they fail, naming it;
#  - `qosgen diff|push|verify fabric.yaml ...` (the README's commands for
#    real devices, on "your intent"): run against a simulated fabric of the
#    test's own (scripts/simfabric.sh start DIR), its intent in place of
#    fabric.yaml and its $SIM options added. The simulated hosts have no RDMA
#    device, so verify there must reach them and stop at the traffic: exit 3
#    and a FATAL bandwidth check with no result;
#  - anything else starting with sudo, and `make demo`/`make test` elsewhere:
#    refused, a failure.
# Prints a FAIL line per failed command and, last, "N README commands passed,
# N failed". Usage: run.sh BUILD
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-build}" && pwd) || exit 3
readme=$top/README.md
# SONiC's YANG models as the checkout finds them (exported): the scratch copy
# has nothing beside it.
# shellcheck source=tests/sonic/models.sh
. "$top/tests/sonic/models.sh"
[ -x "$build/qosgen" ] || {
	echo "FAIL readme: $build/qosgen not built"
	exit 1
}

qg_r_work=$(mktemp -d) || exit 3
qg_r_repo=$qg_r_work/repo
qg_r_dev=$qg_r_work/devices
qg_r_pass=0
qg_r_fail=0

qg_r_cleanup() {
	trap - EXIT INT TERM
	# Whatever the README left running (a failed run may stop before its
	# `make sim-stop`), and the test's own fabric: each stopped by the PIDs
	# simfabric.sh recorded.
	if [ -f "$qg_r_repo/scripts/simfabric.sh" ]; then
		for d in "$qg_r_repo/sim-fabric" "$qg_r_dev"; do
			[ -d "$d" ] && sh "$qg_r_repo/scripts/simfabric.sh" stop "$d" >/dev/null 2>&1
		done
	fi
	rm -rf "$qg_r_work"
}
trap qg_r_cleanup EXIT
trap 'exit 130' INT TERM

qg_r_ok() {
	qg_r_pass=$((qg_r_pass + 1))
}
qg_r_bad() { # WHERE WHAT [OUTPUT_FILE]: the output's first lines, indented
	qg_r_fail=$((qg_r_fail + 1))
	printf 'FAIL %s: %s\n' "$1" "$2"
	[ -n "${3:-}" ] && head -n 30 "$3" | cut -c1-300 | sed 's/^/    /'
	return 0
}

# The scratch copy: the checkout without its build outputs, with the same
# modification times, so that make finds the build (a link to the real one)
# up to date. Nothing beside it: SONiC's YANG models, where there are any,
# come from $SONIC_YANG_DIR as tests/run.sh found them.
mkdir -p "$qg_r_repo" "$qg_r_work/bin" "$qg_r_work/parsed"
tar -C "$top" --exclude=./.git --exclude=./build --exclude=./sim-fabric --exclude=./demo-out \
	--exclude=./out -cf - . | tar -C "$qg_r_repo" -xf - || exit 3
ln -s "$build" "$qg_r_repo/build"
ln -s "$build/qosgen" "$qg_r_work/bin/qosgen"

# The README, parsed into $P/plan: one record a line, in README order.
#   cmd N LINE      a command, its text in $P/cmd.N
#   end B LINE      the end of sh block B (its commands are the cmd lines
#                   since the block's start)
#   out B LINE      block B's expected output, in $P/out.B
#   file N LINE F   write $P/file.N to F
#   first LINE      the first sh block's commands, in $P/first
#   bad LINE TEXT   a block the test cannot run
P=$qg_r_work/parsed
awk -v P="$P" '
function flush_cmd() {
	if (cmd == "") return
	n++
	printf "%s\n", cmd > (P "/cmd." n); close(P "/cmd." n)
	print "cmd", n, cmdline > (P "/plan")
	if (blocks == 1) print cmd > (P "/first")
	cmd = ""
}
/^```/ && !infence {
	infence = 1; start = NR
	info = substr($0, 4); sub(/^[ \t]+/, "", info); sub(/[ \t]+$/, "", info)
	split(info, w, /[ \t]+/)
	kind = w[1]
	if (kind == "sh") {
		blocks++; cmd = ""
		if (blocks == 1) printf "" > (P "/first")
	} else if (kind == "output") {
		if (last_sh == 0 || prose_since)
			print "bad", NR, "an output block that does not follow an sh block" > (P "/plan")
		else
			print "out", last_sh, NR > (P "/plan")
		printf "" > (P "/out." last_sh)
	} else if (kind == "yaml" && w[2] != "") {
		files++
		printf "" > (P "/file." files)
		print "file", files, NR, w[2] > (P "/plan")
	} else {
		print "bad", NR, "a code block the test cannot run: \"```" info "\" (sh, output or yaml FILE)" > (P "/plan")
	}
	next
}
/^```[ \t]*$/ && infence {
	infence = 0
	if (kind == "sh") {
		flush_cmd()
		print "end", blocks, NR > (P "/plan")
		last_sh = blocks; prose_since = 0
	} else if (kind == "output") {
		close(P "/out." last_sh); last_sh = 0
	} else if (kind == "yaml") {
		close(P "/file." files)
	}
	next
}
infence && kind == "sh" {
	line = $0
	if (cmd == "") {
		if (line ~ /^[ \t]*$/) next
		cmdline = NR
	}
	if (line ~ /\\$/) {
		cmd = cmd substr(line, 1, length(line) - 1)
		next
	}
	cmd = cmd line
	flush_cmd()
	next
}
infence && kind == "output" { print > (P "/out." last_sh); next }
infence && kind == "yaml" { print > (P "/file." files); next }
infence { next }
/[^ \t]/ { if (last_sh) prose_since = 1 }
END {
	if (infence) print "bad", start, "a code block that is never closed" > (P "/plan")
	if (blocks == 0) print "bad", NR, "no sh block at all" > (P "/plan")
}
' "$readme"

# The README opens with the two set-up commands (CI runs them as written).
first=$(sed 's/[[:space:]]*#.*//' "$P/first" 2>/dev/null)
if [ "$first" = "$(printf 'make demo\nmake test')" ]; then
	qg_r_ok
else
	qg_r_bad "README.md: first sh block" "must be 'make demo' and 'make test', got: $(tr '\n' ';' <"$P/first" 2>/dev/null)"
fi

# A simulated fabric for the README's commands on real devices, started on
# first use; its verify intent has a pair of Linux hosts (the fabric's own
# verify.pairs, else its first Linux host twice under two names: the same
# simulated host, reached twice).
qg_r_dev_state=
qg_r_dev_start() {
	[ -n "$qg_r_dev_state" ] && return "$qg_r_dev_state"
	qg_r_dev_state=1
	if [ ! -f "$qg_r_repo/scripts/simfabric.sh" ]; then
		qg_r_why="scripts/simfabric.sh is missing (the simulated fabric of 'make sim-start')"
		return 1
	fi
	if ! (cd "$qg_r_repo" && sh scripts/simfabric.sh start "$qg_r_dev") >"$qg_r_work/devices.log" 2>&1; then
		qg_r_why="scripts/simfabric.sh start failed: $(tail -n 5 "$qg_r_work/devices.log" | tr '\n' ' ')"
		return 1
	fi
	if ! python3 - "$qg_r_dev/fabric.yaml" "$qg_r_dev/verify.yaml" >"$qg_r_work/verify.log" 2>&1 <<'PY'; then
import sys, yaml
intent = yaml.safe_load(open(sys.argv[1]))
if "verify" not in intent:
    linux = [h for h in intent.get("hosts", []) if h.get("platform") == "linux"]
    if len(linux) < 2:
        twin = dict(linux[0])
        twin["name"] = linux[0]["name"] + "-twin"
        intent["hosts"].append(twin)
        linux.append(twin)
    intent["verify"] = {"pairs": [{"client": linux[0]["name"], "server": linux[1]["name"],
                                   "min_gbps": 1}], "duration_s": 1}
yaml.safe_dump(intent, open(sys.argv[2], "w"), sort_keys=False)
PY
		qg_r_why="no verify intent from $qg_r_dev/fabric.yaml: $(cat "$qg_r_work/verify.log")"
		return 1
	fi
	qg_r_dev_state=0
}

# The README's sim-fabric commands need scripts/simfabric.sh; without it
# they fail with that reason, and are not run.
qg_r_needs_sim() { # TEXT
	case $1 in
	*sim-fabric* | *'$SIM'* | 'make sim-start'* | 'make sim-stop'*) return 0 ;;
	esac
	return 1
}

# run N LINE: the command in $P/cmd.N, as the README writes it or as the
# header says; its output in $P/got.N (stdout, then stderr).
qg_r_run() {
	qg_r_n=$1
	qg_r_at="README.md:$2"
	qg_r_text=$(cat "$P/cmd.$qg_r_n")
	qg_r_cmd=$(printf '%s\n' "$qg_r_text" | sed 's/[[:space:]]#.*//; s/[[:space:]]*$//; s/^[[:space:]]*//')
	qg_r_want=$(printf '%s\n' "$qg_r_text" | sed -n 's/.*[[:space:]]#[[:space:]]*exit[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p')
	qg_r_want=${qg_r_want:-0}
	: >"$P/got.$qg_r_n"
	case $qg_r_cmd in
	'make demo' | 'make test' | 'make demo '* | 'make test '*)
		# The first block's, checked above; anywhere else, not runnable here.
		[ "$qg_r_first_done" = 1 ] && qg_r_bad "$qg_r_at" "'$qg_r_cmd': only the first block may hold make demo and make test"
		return
		;;
	'sudo make install')
		qg_r_dest=$qg_r_work/destdir
		if (cd "$qg_r_repo" && make --no-print-directory install DESTDIR="$qg_r_dest") \
			>"$P/got.$qg_r_n" 2>&1 </dev/null &&
			[ -x "$qg_r_dest/usr/local/bin/qosgen" ] &&
			[ -f "$qg_r_dest/usr/local/share/man/man1/qosgen.1" ] &&
			"$qg_r_dest/usr/local/bin/qosgen" --version >/dev/null; then
			qg_r_ok
		else
			qg_r_bad "$qg_r_at" "$qg_r_cmd (as make install DESTDIR=...) failed, or installed no qosgen and man page:" "$P/got.$qg_r_n"
		fi
		return
		;;
	sudo* | *' sudo '*)
		qg_r_bad "$qg_r_at" "'$qg_r_cmd': the test does not run sudo; write it so that it can be run"
		return
		;;
	esac
	if printf '%s\n' "$qg_r_cmd" | grep -Eq '^qosgen (diff|push|verify) fabric\.yaml( |$)' &&
		! printf '%s\n' "$qg_r_cmd" | grep -q -- '--running-config'; then
		qg_r_device "$qg_r_cmd"
		return
	fi
	if qg_r_needs_sim "$qg_r_cmd" && [ ! -f "$qg_r_repo/scripts/simfabric.sh" ]; then
		qg_r_bad "$qg_r_at" "'$qg_r_cmd' not run: scripts/simfabric.sh is missing (the simulated fabric of 'make sim-start')"
		return
	fi
	# A `. FILE` that is not there would end this shell: a failure instead.
	case $qg_r_cmd in
	'. '*)
		if [ ! -f "${qg_r_cmd#. }" ]; then
			qg_r_bad "$qg_r_at" "'$qg_r_cmd': no file ${qg_r_cmd#. }"
			return
		fi
		;;
	esac
	# The README's own command, in this shell (a `. file` it sources stays
	# sourced for the commands after it).
	# shellcheck disable=SC1090
	{ . "$P/cmd.$qg_r_n"; } >"$P/stdout" 2>"$P/stderr" </dev/null
	qg_r_st=$?
	cat "$P/stdout" "$P/stderr" >"$P/got.$qg_r_n"
	if [ "$qg_r_st" -eq "$qg_r_want" ]; then
		qg_r_ok
	else
		qg_r_bad "$qg_r_at" "'$qg_r_cmd' exited $qg_r_st, the README says $qg_r_want:" "$P/got.$qg_r_n"
	fi
}

# device CMD: a README command for real devices, against the test's fabric.
qg_r_device() {
	if ! qg_r_dev_start; then
		qg_r_bad "$qg_r_at" "'$1' not run: $qg_r_why"
		return
	fi
	qg_r_verb=$(printf '%s\n' "$1" | cut -d' ' -f2)
	qg_r_args=$(printf '%s\n' "$1" | cut -d' ' -f4-)
	qg_r_intent=$qg_r_dev/fabric.yaml
	[ "$qg_r_verb" = verify ] && qg_r_intent=$qg_r_dev/verify.yaml
	# verify talks SSH to hosts only: $SIM's HTTPS options (NVUE's CA) are
	# not among its options, as the README says.
	# shellcheck disable=SC1091,SC2086
	(
		. "$qg_r_dev/env" || exit 3
		if [ "$qg_r_verb" = verify ]; then
			qg_r_ssh=
			qg_r_skip=0
			for w in $SIM; do
				if [ "$qg_r_skip" = 1 ]; then
					qg_r_skip=0
					continue
				fi
				case $w in
				--ca-file) qg_r_skip=1 ;;
				--insecure | --allow-http) ;;
				*) qg_r_ssh="$qg_r_ssh $w" ;;
				esac
			done
			SIM=$qg_r_ssh
		fi
		qosgen "$qg_r_verb" "$qg_r_intent" $qg_r_args $SIM
	) >"$P/stdout" 2>"$P/stderr" </dev/null
	qg_r_st=$?
	cat "$P/stdout" "$P/stderr" >"$P/got.$qg_r_n"
	if [ "$qg_r_verb" = verify ]; then
		if [ "$qg_r_st" -eq 3 ] && grep -q '^\[FATAL\] Check bandwidth: no result' "$P/stdout" &&
			! grep -q '^\[FATAL\] Check reach' "$P/stdout"; then
			qg_r_ok
		else
			qg_r_bad "$qg_r_at" "'$1' on the simulated fabric: exit $qg_r_st (want 3: the hosts reached, no RDMA traffic):" "$P/got.$qg_r_n"
		fi
	elif [ "$qg_r_st" -eq "$qg_r_want" ]; then
		qg_r_ok
	else
		qg_r_bad "$qg_r_at" "'$1' on the simulated fabric exited $qg_r_st, the README says $qg_r_want:" "$P/got.$qg_r_n"
	fi
}

# match EXPECTED ACTUAL: exit 0 when ACTUAL is what EXPECTED shows.
qg_r_match() {
	awk '
	function piecewise(e, a,    k, np, p, pos, at) {
		if (index(e, "...") == 0) return e == a
		np = split(e, p, /\.\.\./)
		if (substr(a, 1, length(p[1])) != p[1]) return 0
		at = length(p[1]) + 1
		for (k = 2; k < np; k++) {
			pos = index(substr(a, at), p[k])
			if (pos == 0) return 0
			at += pos - 1 + length(p[k])
		}
		return length(a) - at + 1 >= length(p[np]) &&
			substr(a, length(a) - length(p[np]) + 1) == p[np]
	}
	function m(i, j,    key, r) {
		key = i SUBSEP j
		if (key in memo) return memo[key]
		if (i > ne) r = (j > na)
		else if (e[i] == "...") r = m(i + 1, j) || (j <= na && m(i, j + 1))
		else if (j > na) r = 0
		else r = piecewise(e[i], a[j]) && m(i + 1, j + 1)
		memo[key] = r
		return r
	}
	FNR == NR { e[++ne] = $0; next }
	{ a[++na] = $0 }
	END { exit !m(1, 1) }
	' "$1" "$2"
}

qg_r_first_done=0
qg_r_block_cmds=
unset SIM QOSGEN_NVUE_PASSWORD QOSGEN_NVUE_USER QOSGEN_SSH_PASSWORD GOVC_URL GOVC_USERNAME \
	GOVC_PASSWORD MAKEFLAGS MAKELEVEL MFLAGS 2>/dev/null
PATH=$qg_r_work/bin:$PATH
export PATH
cd "$qg_r_repo" || exit 3
while read -r qg_r_kind qg_r_a qg_r_b qg_r_c; do
	case $qg_r_kind in
	cmd)
		qg_r_run "$qg_r_a" "$qg_r_b"
		qg_r_block_cmds="$qg_r_block_cmds $qg_r_a"
		;;
	end)
		qg_r_first_done=1
		# Kept for the output block that may follow.
		eval "qg_r_cmds_$qg_r_a=\"\$qg_r_block_cmds\""
		qg_r_block_cmds=
		;;
	out)
		qg_r_list=
		eval "qg_r_list=\$qg_r_cmds_$qg_r_a"
		: >"$P/actual.$qg_r_a"
		for qg_r_i in $qg_r_list; do
			cat "$P/got.$qg_r_i" >>"$P/actual.$qg_r_a"
		done
		if qg_r_match "$P/out.$qg_r_a" "$P/actual.$qg_r_a"; then
			qg_r_ok
		else
			diff -u "$P/out.$qg_r_a" "$P/actual.$qg_r_a" | tail -n +3 >"$P/diff.$qg_r_a"
			qg_r_bad "README.md:$qg_r_b" "the output block is not what its commands print (- the README, + the commands; '...' lines show as differing):" "$P/diff.$qg_r_a"
		fi
		;;
	file)
		if cp "$P/file.$qg_r_a" "$qg_r_c"; then qg_r_ok; else qg_r_bad "README.md:$qg_r_b" "cannot write $qg_r_c"; fi
		;;
	bad)
		qg_r_bad "README.md:$qg_r_a" "$qg_r_b${qg_r_c:+ $qg_r_c}"
		;;
	esac
done <"$P/plan"

echo "$qg_r_pass README commands passed, $qg_r_fail failed"
[ "$qg_r_fail" -eq 0 ]
