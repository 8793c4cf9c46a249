#!/bin/sh
# SPDX-License-Identifier: MIT
# vcsim and govc (govmomi 0.24.2) from Debian's own packages, offline, plus
# qosgen-vcsim: the stock simulator with what qosgen's tests need and it lacks (see its main.go).
# Debian's golang-github-vmware-govmomi-dev ships the simulator library but
# leaves govc/ and vcsim/ out (debian/rules excludes them); the source package
# has both, so it is fetched with `apt-get source` (a deb-src entry for the
# same archive is added if there is none). GOPATH mode, no module proxy.
# Usage: build.sh OUT   (binaries in OUT/bin; a second run reuses them)
set -eu
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bin=$OUT/bin
mkdir -p "$bin" "$OUT/src" "$OUT/gopath/src/github.com/vmware" "$OUT/gopath/src/qosgen"
stamp=$(sha256sum "$here/qosgen-vcsim/main.go" | cut -c1-16)
if [ -x "$bin/vcsim" ] && [ -x "$bin/govc" ] && [ -x "$bin/qosgen-vcsim" ] &&
	[ "$(cat "$bin/.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
need=
for p in golang-go golang-github-vmware-govmomi-dev golang-github-kr-pretty-dev dpkg-dev; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
src=$OUT/src/golang-github-vmware-govmomi-0.24.2
if [ -n "$need" ] || [ ! -d "$src" ]; then
	if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
		[ -f /etc/apt/sources.list.d/debian.sources ] || { echo "vcsim: no deb-src entry and no debian.sources to copy" >&2; exit 3; }
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
			$SUDO tee /etc/apt/sources.list.d/qosgen-deb-src.sources >/dev/null
	fi
	$SUDO apt-get update -qq
	[ -z "$need" ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
	(cd "$OUT/src" && apt-get source -qq golang-github-vmware-govmomi >/dev/null 2>&1) ||
		{ echo "vcsim: apt-get source golang-github-vmware-govmomi failed" >&2; exit 3; }
fi
[ -d "$src" ] || { echo "vcsim: $src missing after apt-get source (not 0.24.2?)" >&2; exit 3; }
ln -sfn "$src" "$OUT/gopath/src/github.com/vmware/govmomi"
rm -rf "$OUT/gopath/src/qosgen/qosgen-vcsim"
cp -r "$here/qosgen-vcsim" "$OUT/gopath/src/qosgen/"
export GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$OUT/gopath:/usr/share/gocode" GOCACHE="$OUT/gocache"
go build -o "$bin/vcsim" github.com/vmware/govmomi/vcsim
go build -o "$bin/govc" github.com/vmware/govmomi/govc
go build -o "$bin/qosgen-vcsim" qosgen/qosgen-vcsim
echo "$stamp" >"$bin/.stamp"
