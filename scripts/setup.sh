#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what qosgen needs on Debian 12, and nothing else; the one place
# anything is installed.
#   setup.sh build   the compiler and the libraries: what `make` needs
#   setup.sh demo    that, and what the simulated fabric of `make demo` and
#                    `make sim-start` runs (scripts/simfabric.sh): openssh-server
#                    and openssh-client (a throwaway sshd per simulated device,
#                    on 127.0.0.1), openssl (the NVUE simulator's certificate),
#                    python3 (the NVUE and SONiC simulators), python3-yaml
#                    (the NVUE simulator's --config), python3-jsonpatch (the
#                    SONiC simulator's apply-patch), libyang2-tools (yanglint: the SONiC simulator
#                    validates every patch), iproute2 (ss: a free port), procps
#                    and mount (util-linux's unshare and mount: the simulated
#                    Linux host's own sysfs, tests/sim/host_sim.sh)
#   setup.sh test    that, and every tool the tests and benchmarks use (the default)
# The test tools: openssh-server (the tests start their own sshd on 127.0.0.1;
# no service is enabled or started by this install), ansible and
# python3-paramiko (the interop test: Ansible's mellanox.onyx modules drive the
# Onyx simulator), qemu-system-x86 and the RDMA userland (the soft-RoCE VM
# test: the kernel itself is fetched there with apt-get download, unpacked,
# never installed), clang (the fuzzers), golang-go, the govmomi library and
# dpkg-dev (tests/vcsim/build.sh builds vcsim and govc from Debian's govmomi
# source package, fetched with a private apt configuration under build/, never
# written to /etc/apt), python3 and procps (pgrep), used by the test scripts;
# the shellcheck package (every repository and generated script is checked at warning
# level); python3-yaml, python3-jinja2 and time for bench/build.sh's baseline;
# libyang2-tools (yanglint: the SONiC files against SONiC's own YANG models);
# python3-jsonpatch (RFC 6902: tests/sim/sonic_sim.py applies `config apply-patch`
# patches with it, as SONiC's own config updater does, and its jsondiff makes the
# patches the SONiC simulator's self-test sends); python3-jsonschema
# (tests/schema/: every intent against docs/intent.schema.json, draft-07).
# Idempotent: packages already installed are not touched, so `make demo` and
# `make test` can call it every time at the cost of one dpkg query.
set -eu

BUILD_PKGS="gcc make pkg-config diffutils
libyaml-dev libssh-dev libcjson-dev libxml2-dev libibverbs-dev librdmacm-dev libssl-dev
libcurl4-openssl-dev"

DEMO_PKGS="openssh-server openssh-client openssl python3 python3-yaml python3-jsonpatch
libyang2-tools iproute2 procps mount"

TEST_PKGS="libcmocka-dev
clang libclang-rt-14-dev
openssh-server openssh-client
ansible ansible-lint python3-paramiko
qemu-system-x86 busybox-static rdma-core ibverbs-providers ibverbs-utils perftest tcpdump
rdmacm-utils cpio kmod iproute2 openssl jq curl
golang-go golang-github-vmware-govmomi-dev golang-github-kr-pretty-dev dpkg-dev
python3 procps python3-yaml python3-jinja2 time shellcheck
libyang2-tools python3-jsonpatch python3-jsonschema
systemd udev"

case ${1:-test} in
build) PKGS=$BUILD_PKGS ;;
demo) PKGS="$BUILD_PKGS $DEMO_PKGS" ;;
test) PKGS="$BUILD_PKGS $DEMO_PKGS $TEST_PKGS" ;;
*)
	echo "usage: setup.sh [build|demo|test]" >&2
	exit 2
	;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

echo "setup: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "setup: need root to run: apt-get install$missing" >&2
	exit 3
fi
# apt-get update first: on a fresh machine the package lists are empty.
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
