#!/bin/sh
# qosgen 0.1.0: vSphere Distributed Switch rdma-dvs, fabric k8s-pvrdma
# The intent's sha256 is in plan.json: this file changes only with its device's settings.
# Generated: edit the intent, not this file.
#
# The settings of dvs/rdma-dvs.xml as govc commands, for people who use govc.
# Credentials come from the environment as govc takes them (GOVC_USERNAME,
# GOVC_PASSWORD; GOVC_INSECURE=1 only for a lab), never from this file.
# govc cannot change the uplink count of an existing switch; qosgen push can.
set -eu
: "${GOVC_URL:=https://sc2vc03.example.net/sdk}"
GOVC_DATACENTER='SC2-DC'
export GOVC_URL GOVC_DATACENTER
dvs='rdma-dvs'

qg_exists() {
	[ -n "$(govc ls "/$GOVC_DATACENTER/network/$1")" ]
}

if qg_exists "$dvs"; then
	govc dvs.change -mtu 9000 "$dvs"
	echo "[ok] dvs: $dvs exists; maxMtu set to 9000"
else
	govc dvs.create -mtu 9000 -num-uplinks 1 "$dvs"
	echo "[changed] dvs: created $dvs"
fi
pg='pvrdma-pg'
if qg_exists "$pg"; then
	echo "[ok] portgroup: $pg exists"
else
	govc dvs.portgroup.add -dvs "$dvs" "$pg"
	echo "[changed] portgroup: created $pg"
fi
host=$(govc find / -type h -name 'sc2esx24.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.sc2esx24: no host sc2esx24.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic2' "$host"
echo "[ok] host.sc2esx24: vmnic2 on $dvs"
host=$(govc find / -type h -name 'sc2esx25.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.sc2esx25: no host sc2esx25.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic2' "$host"
echo "[ok] host.sc2esx25: vmnic2 on $dvs"
host=$(govc find / -type h -name 'sc2esx26.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.sc2esx26: no host sc2esx26.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic2' "$host"
echo "[ok] host.sc2esx26: vmnic2 on $dvs"
host=$(govc find / -type h -name 'sc2esx27.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.sc2esx27: no host sc2esx27.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic2' "$host"
echo "[ok] host.sc2esx27: vmnic2 on $dvs"

