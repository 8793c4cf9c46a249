#!/bin/sh
# SPDX-License-Identifier: MIT
# vcsim and govc (govmomi 0.24.2) from Debian's own packages, offline, plus
# qosgen-vcsim: the stock simulator with what qosgen's tests need and it lacks (see its main.go).
# Debian's golang-github-vmware-govmomi-dev ships the simulator library but
# leaves govc/ and vcsim/ out (debian/rules excludes them); the source package
# has both, so it is fetched with `apt-get source` through a private apt
# configuration in OUT/apt: its own sources list (deb-src lines for the
# archive this machine already uses), its own lists and cache. Nothing under
# /etc/apt or /var/lib/apt is written. The Go toolchain and the library are
# installed by scripts/setup.sh. GOPATH mode, no module proxy.
# Usage: build.sh OUT   (binaries in OUT/bin; a second run reuses them)
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$OUT/bin
mkdir -p "$bin" "$OUT/src" "$OUT/gopath/src/github.com/vmware" "$OUT/gopath/src/qosgen"
# One build at a time (tests/run.sh's two lanes both need it): a second
# caller waits here, then finds the first one's binaries.
exec 9>"$OUT/.lock"
flock 9
stamp=$(sha256sum "$here/qosgen-vcsim/main.go" | cut -c1-16)
if [ -x "$bin/vcsim" ] && [ -x "$bin/govc" ] && [ -x "$bin/qosgen-vcsim" ] &&
	[ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
need=
for p in golang-go golang-github-vmware-govmomi-dev golang-github-kr-pretty-dev dpkg-dev; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
[ -z "$need" ] || { echo "vcsim: missing packages:$need (make setup installs them)" >&2; exit 3; }
src=$OUT/src/golang-github-vmware-govmomi-0.24.2
if [ ! -d "$src" ]; then
	apt=$OUT/apt
	rm -rf "$apt"
	mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/archives/partial"
	sh "$here/../../scripts/debian-sources.sh" | sed 's/^deb /deb-src /' >"$apt/sources.list"
	[ -s "$apt/sources.list" ] || { echo "vcsim: no Debian bookworm entry in this machine's apt sources" >&2; exit 3; }
	# Root's apt would hand the download to the _apt user, who cannot write
	# under OUT; the private directories are this user's own.
	set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/sources.list.d" \
		-o Dir::State::lists="$apt/lists" -o Dir::Cache::archives="$apt/archives" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User="$(id -un)"
	apt-get "$@" update -qq || { echo "vcsim: apt-get update of the private deb-src list failed" >&2; exit 3; }
	(cd "$OUT/src" && apt-get "$@" source -qq golang-github-vmware-govmomi >/dev/null 2>&1) ||
		{ echo "vcsim: apt-get source golang-github-vmware-govmomi failed" >&2; exit 3; }
fi
[ -d "$src" ] || { echo "vcsim: $src missing after apt-get source (not 0.24.2?)" >&2; exit 3; }
ln -sfn "$src" "$OUT/gopath/src/github.com/vmware/govmomi"
rm -rf "$OUT/gopath/src/qosgen/qosgen-vcsim"
cp -r "$here/qosgen-vcsim" "$OUT/gopath/src/qosgen/"
export GO111MODULE=off GOFLAGS='' GOPROXY=off GOPATH="$OUT/gopath:/usr/share/gocode" GOCACHE="$OUT/gocache"
go build -o "$bin/vcsim" github.com/vmware/govmomi/vcsim
go build -o "$bin/govc" github.com/vmware/govmomi/govc
go build -o "$bin/qosgen-vcsim" qosgen/qosgen-vcsim
echo "$stamp" >"$bin/.stamp"
