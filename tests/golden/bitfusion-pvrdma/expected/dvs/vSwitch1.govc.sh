#!/bin/sh
# qosgen 0.1.0: vSphere Distributed Switch vSwitch1, fabric bitfusion-pvrdma
# The intent's sha256 is in plan.json: this file changes only with its device's settings.
# Generated: edit the intent, not this file.
#
# The settings of dvs/vSwitch1.xml as govc commands, for people who use govc.
# Credentials come from the environment as govc takes them (GOVC_USERNAME,
# GOVC_PASSWORD; GOVC_INSECURE=1 only for a lab), never from this file.
# govc cannot change the uplink count of an existing switch; qosgen push can.
set -eu
: "${GOVC_URL:=https://vcenter.example.net/sdk}"
GOVC_DATACENTER='SC2-DC'
export GOVC_URL GOVC_DATACENTER
dvs='vSwitch1'

qg_exists() {
	[ -n "$(govc ls "/$GOVC_DATACENTER/network/$1")" ]
}

if qg_exists "$dvs"; then
	govc dvs.change -mtu 9000 "$dvs"
	echo "[ok] dvs: $dvs exists; maxMtu set to 9000"
else
	govc dvs.create -mtu 9000 -num-uplinks 4 "$dvs"
	echo "[changed] dvs: created $dvs"
fi
pg='BF-PVRDMA-DPORTGROUP'
if qg_exists "$pg"; then
	echo "[ok] portgroup: $pg exists"
else
	govc dvs.portgroup.add -dvs "$dvs" "$pg"
	echo "[changed] portgroup: created $pg"
fi
host=$(govc find / -type h -name 'esx-a.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.esx-a: no host esx-a.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic5' "$host"
echo "[ok] host.esx-a: vmnic5 on $dvs"
host=$(govc find / -type h -name 'esx-b.example.net')
if [ -z "$host" ]; then
	echo "[failed] host.esx-b: no host esx-b.example.net in the inventory" >&2
	exit 1
fi
govc dvs.add -dvs "$dvs" -pnic 'vmnic5' "$host"
echo "[ok] host.esx-b: vmnic5 on $dvs"

