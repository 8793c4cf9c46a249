#!/bin/sh
# SPDX-License-Identifier: MIT
# `make demo`: compile the bundled reference intent and show what was written.
set -eu
Q=${1:-build/qosgen}
intent=examples/rdg-vsphere.yaml
out=demo-out
echo "\$ qosgen build $intent -o $out"
"$Q" build "$intent" -o "$out"
echo
echo "\$ find $out -type f | sort"
find "$out" -type f | sort
echo
echo "\$ cat $out/onyx/swx-mld-1-2.cli"
cat "$out/onyx/swx-mld-1-2.cli"
echo
echo "\$ sed -n '/^qg_need/,\$p' $out/host/vm-horovod-1.sh   # the body of a Linux VF script"
sed -n '/^qg_need_netdev /,$p' "$out/host/vm-horovod-1.sh"
echo
echo "\$ qosgen explain $intent | grep derived"
"$Q" explain "$intent" | grep -E '^(KEY|derived)'
echo
echo "\$ qosgen build $intent --check -o $out && echo in sync"
"$Q" build "$intent" --check -o "$out" && echo "in sync"
