#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's two commands, exactly as it writes them, in a fresh Debian 12
# root: `mmdebstrap --variant=minbase bookworm` plus `make` (the only package
# added by hand), a clean clone of this checkout's HEAD in /src/qosgen with
# nothing beside it (as anyone who clones the project has it), /proc, /sys,
# /dev and /dev/pts mounted for the suites and unmounted whatever happens.
# SONiC's YANG models (SONiC's code, not the project's) are copied to
# /opt/sonic-yang, away from the clone, from where tests/sonic/models.sh finds
# them on this machine.
# In the root, each timed:
#  1. `make demo`, as a new user types it (no models: the SONiC simulator
#     takes patches unvalidated, and says so);
#  2. `SONIC_YANG_DIR=/opt/sonic-yang make test`: every suite, sonic/yang
#     included; it must end "N passed, 0 failed, 0 skipped";
#  3. without SONIC_YANG_DIR, the suites that use SONiC's models
#     (QG_ONLY='sonic sonic-sim'): exactly one SKIP line, sonic/yang's, and
#     "N passed, 0 failed, 1 skipped" with exit 0 (a skip, not a failure);
# then /etc/apt is checked for any file the suite added.
# Nothing is cached between runs: every package is downloaded and installed by
# the project's own files, as on a new machine. The bootstrap takes about 30 s.
# Usage: run.sh [WORKDIR]   (default: a new directory under /var/tmp)
#   QG_FRESH_KEEP=1 keeps the root afterwards for a look inside.
# Needs root (mount, chroot); installs mmdebstrap on this machine if missing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() {
	echo "FAIL fresh: $*"
	exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (mmdebstrap, mount and chroot): run it as root or with sudo"
# shellcheck source=tests/sonic/models.sh
. "$top/tests/sonic/models.sh"
[ -n "$SONIC_YANG_DIR" ] && [ -z "$qg_yang_why" ] ||
	fail "${qg_yang_why:-no SONiC YANG models}: the root's make test runs the checks that need them"
command -v git >/dev/null || fail "git is missing: the root gets a clean clone of HEAD"
if ! command -v mmdebstrap >/dev/null; then
	apt-get update -qq || fail "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null ||
		fail "cannot install mmdebstrap"
fi

work=${1:-}
made_work=
if [ -z "$work" ]; then
	work=$(mktemp -d /var/tmp/qosgen-fresh.XXXXXX) || fail "mktemp failed"
	made_work=1
fi
mkdir -p "$work" || fail "cannot make $work"
work=$(cd "$work" && pwd)
root=$work/root
[ ! -e "$root" ] || fail "$root exists: give an empty WORKDIR"

# Every process still running inside the root is stopped by its PID, then the
# mounts go, innermost first, and the root is removed: on success, failure or
# a signal alike.
mounted=
cleanup() {
	trap - EXIT INT TERM HUP
	if [ -d "$root" ]; then
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
		done
	fi
	if [ -n "$mounted" ]; then
		for m in $(awk -v r="$root" '$2 == r || index($2, r "/") == 1 {print $2}' /proc/self/mounts | sort -r); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || echo "fresh: warning: cannot unmount $m"
		done
		if awk -v r="$root" '$2 == r || index($2, r "/") == 1 {found = 1} END {exit !found}' /proc/self/mounts; then
			echo "fresh: warning: mounts left under $root; not removing it"
			return
		fi
	fi
	if [ "${QG_FRESH_KEEP:-0}" = 1 ]; then
		echo "fresh: kept $root"
	elif [ -n "$made_work" ]; then
		rm -rf "$work"
	else
		rm -rf "$root"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The archive this machine's apt already uses (never a host written here).
sh "$top/scripts/debian-sources.sh" >"$work/sources.list"
[ -s "$work/sources.list" ] || fail "no Debian bookworm entry in this machine's apt sources"
# The settings this machine's apt needs to reach that archive (a snapshot's
# expired Release file, a proxy), carried into the root's apt as they are.
apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy) ' >"$work/apt.conf" || :
echo "fresh: archive:"
sed 's/^/fresh:   /' "$work/sources.list"

t0=$(date +%s)
# shellcheck disable=SC2046
if ! mmdebstrap --quiet --variant=minbase --include=make \
	$([ -s "$work/apt.conf" ] && echo "--aptopt=$work/apt.conf") \
	bookworm "$root" "$work/sources.list" >"$work/mmdebstrap.log" 2>&1; then
	tail -n 20 "$work/mmdebstrap.log" | sed 's/^/    /'
	fail "mmdebstrap failed"
fi
t1=$(date +%s)

# What any Debian machine has beside its packages: a resolver and hosts file.
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/hosts "$root/etc/hosts"
src=/src/qosgen
mkdir -p "$root/src" "$root/opt/sonic-yang"
git clone --quiet "$top" "$root$src" || fail "git clone of $top failed"
cp -a "$SONIC_YANG_DIR/." "$root/opt/sonic-yang/" || fail "cannot copy $SONIC_YANG_DIR"
[ "$(ls -A "$root/src")" = qosgen ] || fail "the clone has something beside it: $(ls -A "$root/src")"
echo "fresh: root $root: minbase bookworm + make in $((t1 - t0)) s; clone of $(git -C "$top" rev-parse --short HEAD)"

mounted=1
mount -t proc proc "$root/proc" || fail "cannot mount /proc"
mount -t sysfs sysfs "$root/sys" || fail "cannot mount /sys"
mount --rbind /dev "$root/dev" || fail "cannot bind /dev"
mount --make-rslave "$root/dev"
[ -d "$root/dev/pts" ] && mountpoint -q "$root/dev/pts" || fail "no /dev/pts under the bound /dev"

# A login-like environment: nothing of this shell's but CI.
in_root() { # COMMAND
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin ${CI:+CI=$CI} \
		/bin/sh -c "cd $src && $1"
}
etc_apt() { in_root 'find /etc/apt \( -type f -o -type l \) | sort'; }
etc_apt >"$work/etc-apt.before"

# run_timed NAME COMMAND: runs it in the root, its output shown and kept in
# $work/out; sets rc and secs.
run_timed() {
	echo "fresh: \$ $2"
	s=$(date +%s)
	{
		in_root "$2" </dev/null 2>&1
		echo $? >"$work/rc"
	} | tee "$work/out"
	rc=$(cat "$work/rc")
	secs=$(($(date +%s) - s))
	echo "fresh: $1: exit $rc in $secs s"
}
# expect WHAT CONDITION-STATUS: a failed condition fails the check, said plainly.
expect() {
	[ "$2" -eq 0 ] && return
	echo "FAIL fresh: $1"
	st=1
}
st=0
run_timed 'make demo' 'make demo'
demo="make demo $secs s (exit $rc)"
[ "$rc" -eq 0 ] || st=1
run_timed 'make test' 'SONIC_YANG_DIR=/opt/sonic-yang make test'
test="make test $secs s (exit $rc)"
[ "$rc" -eq 0 ] || st=1
echo "fresh: make test: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/out" | tail -n 1)"
grep -q '^PASS sonic/yang ' "$work/out"
expect "make test with SONiC's YANG models did not pass sonic/yang" $?
tail -n 1 "$work/out" | grep -Eq '^[0-9]+ passed, 0 failed, 0 skipped$'
expect "make test with SONiC's YANG models skipped a suite: $(grep '^SKIP' "$work/out")" $?
run_timed 'without models' "QG_ONLY='sonic sonic-sim' sh tests/run.sh build"
nomodels="without models $secs s (exit $rc)"
[ "$rc" -eq 0 ] || st=1
[ "$(grep -c '^SKIP' "$work/out")" -eq 1 ] && grep -q '^SKIP sonic/yang (' "$work/out"
expect "without SONIC_YANG_DIR, not exactly one SKIP line, sonic/yang's" $?
tail -n 1 "$work/out" | grep -Eq '^[1-9][0-9]* passed, 0 failed, 1 skipped$'
expect "without SONIC_YANG_DIR, the closing line is not 'N passed, 0 failed, 1 skipped'" $?

# The suite may install packages (their files are the package database's),
# and nothing else under /etc/apt.
etc_apt >"$work/etc-apt.after"
added=$(comm -13 "$work/etc-apt.before" "$work/etc-apt.after" | while read -r f; do
	in_root "dpkg-query -S '$f' >/dev/null 2>&1" || echo "$f"
done)
if [ -n "$added" ]; then
	echo "FAIL fresh: files added under /etc/apt by no package: $added"
	st=1
fi
t2=$(date +%s)
echo "fresh: timings: bootstrap $((t1 - t0)) s, $demo, $test, $nomodels, total $((t2 - t0)) s"
exit $st
