#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: compile the bundled reference intent and show what was written.
set -eu
Q=${1:-build/qosgen}
intent=examples/rdg-vsphere.yaml
out=demo-out
echo "\$ $Q build $intent -o $out"
"$Q" build "$intent" -o "$out"
echo
echo "\$ find $out -type f | sort"
find "$out" -type f | sort
echo
echo "\$ cat $out/onyx/swx-mld-1-2.cli"
cat "$out/onyx/swx-mld-1-2.cli"
echo
echo "\$ cat $out/host/hosts/linux.sh   # who each Linux host is, and how a host's script runs"
cat "$out/host/hosts/linux.sh"
echo
echo "\$ sed -n '/^qg_need/,\$p' $out/host/groups/linux-vf.sh   # what its group gets"
sed -n '/^qg_need_netdev /,$p' "$out/host/groups/linux-vf.sh"
echo
echo "\$ $Q explain $intent | sed -n '3p;/^derived/p'   # the header, then the derived rows"
"$Q" explain "$intent" | sed -n '3p;/^derived/p'
echo
echo "\$ $Q build $intent --check -o $out && echo in sync"
"$Q" build "$intent" --check -o "$out" && echo "in sync"
echo
echo "Next, with this build (or 'sudo make install' for qosgen on the PATH):"
next() { printf '  %-64s # %s\n' "$1" "$2"; }
next "$Q check $intent" "validate: every problem in one run"
next "$Q explain $intent" "every default and derived value, and why"
next "cp $intent my.yaml" "then edit a value, say qos.lossless.ecn.min_kb"
next "$Q build my.yaml --check -o $out" "what the edit changes, as a diff"
next "$Q diff my.yaml --switch swx-mld-1-2 --running-config F" "against a saved 'show running-config'"
next "$Q push my.yaml --all --dry-run" "read every device over SSH, send nothing"
echo "'make test' installs the test tools (sshd, QEMU, Ansible, Go for vcsim) and runs every test."
