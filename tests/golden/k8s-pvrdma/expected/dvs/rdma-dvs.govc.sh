#!/bin/sh
# qosgen 0.1.0: vSphere Distributed Switch rdma-dvs, fabric k8s-pvrdma
# The intent's sha256 is in plan.json: this file changes only with its device's settings.
# Generated: edit the intent, not this file.
#
# The settings of dvs/rdma-dvs.xml as govc commands, for people who use govc.
# Credentials come from the environment as govc takes them (GOVC_USERNAME,
# GOVC_PASSWORD; GOVC_INSECURE=1 only for a lab), never from this file.
# Each setting is read first and changed only if it differs, then read again;
# one line per setting, as the host scripts print them: [ok], [changed] with
# the old and new value, [differs] under QG_DRY_RUN=1 (nothing is changed),
# [failed]. Exit 0 when all is set, 1 when a setting failed. govc cannot
# change the uplink count of an existing switch, nor add a NIC to a host
# already on it; qosgen push --dvs can, and this script says so.
set -eu
: "${GOVC_URL:=https://sc2vc03.example.net/sdk}"
GOVC_DATACENTER='SC2-DC'
export GOVC_URL GOVC_DATACENTER
dvs='rdma-dvs'
dry=${QG_DRY_RUN:-0}
rc=0

qg_exists() {
	[ -n "$(govc ls "/$GOVC_DATACENTER/network/$1")" ]
}

qg_get() { # PROPERTY: the switch's property as govc prints it
	govc object.collect -s "/$GOVC_DATACENTER/network/$dvs" "$1"
}

# qg_nics ID: the NICs host ID (host-NN) has on the switch, comma-separated,
# "none" when it is a member with none, "absent" when it is not a member;
# read from config.host as govc prints it in JSON (keys in any case).
qg_nics() {
	govc object.collect -json "/$GOVC_DATACENTER/network/$dvs" config.host | awk -v id="$1" '
		{ l = tolower($0) }
		l ~ /"value": *"/ { split($0, f, "\""); cur = f[4]; if (cur == id) found = 1 }
		l ~ /"pnicdevice": *"/ && cur == id { split($0, f, "\""); nics = nics (nics ? "," : "") f[4] }
		END { print found ? (nics ? nics : "none") : "absent" }'
}

if ! qg_exists "$dvs"; then
	if [ "$dry" = 1 ]; then
		echo "[differs] dvs: absent -> $dvs"
	elif govc dvs.create -mtu 9000 "$dvs" >&2; then
		echo "[changed] dvs: absent -> $dvs"
	else
		echo "[failed] dvs: absent: govc dvs.create refused"
		rc=1
	fi
fi
if qg_exists "$dvs"; then
	mtu=$(qg_get config.maxMtu)
	if [ "$mtu" = 9000 ]; then
		echo "[ok] maxMtu: 9000"
	elif [ "$dry" = 1 ]; then
		echo "[differs] maxMtu: $mtu -> 9000"
	else
		govc dvs.change -mtu 9000 "$dvs" >&2 || true
		now=$(qg_get config.maxMtu)
		if [ "$now" = 9000 ]; then
			echo "[changed] maxMtu: $mtu -> 9000"
		else
			echo "[failed] maxMtu: $mtu -> 9000 asked, reads $now"
			rc=1
		fi
	fi
	n=$(qg_get config.uplinkPortPolicy | tr ',' '\n' | grep -c .) || true
	if [ "$n" -ge 1 ]; then
		echo "[ok] uplinks: $n"
	else
		echo "[failed] uplinks: $n -> 1: govc cannot add uplinks to a switch; qosgen push --dvs can"
		rc=1
	fi
fi
pg='pvrdma-pg'
if qg_exists "$pg"; then
	echo "[ok] portgroup: $pg"
elif [ "$dry" = 1 ]; then
	echo "[differs] portgroup: absent -> $pg"
elif govc dvs.portgroup.add -dvs "$dvs" "$pg" >&2 && qg_exists "$pg"; then
	echo "[changed] portgroup: absent -> $pg"
else
	echo "[failed] portgroup: absent -> $pg: not made"
	rc=1
fi
addr='sc2esx24.example.net'
nic='vmnic2'
host=$(govc find / -type h -name "$addr")
ref=$(govc find -i / -type h -name "$addr")
if [ -z "$host" ] || [ -z "$ref" ]; then
	echo "[failed] host.sc2esx24: no host $addr in the inventory"
	rc=1
else
	nics=$(qg_nics "${ref#*:}")
	case ",$nics," in
	*,"$nic",*) echo "[ok] host.sc2esx24: $nic" ;;
	,absent,)
		if [ "$dry" = 1 ]; then
			echo "[differs] host.sc2esx24: absent -> $nic"
		else
			govc dvs.add -dvs "$dvs" -pnic "$nic" "$host" >&2 || true
			case ",$(qg_nics "${ref#*:}")," in
			*,"$nic",*) echo "[changed] host.sc2esx24: absent -> $nic" ;;
			*)
				echo "[failed] host.sc2esx24: not on $dvs with $nic after dvs.add"
				rc=1
				;;
			esac
		fi
		;;
	*)
		echo "[failed] host.sc2esx24: $nics -> $nic: on $dvs without $nic; govc cannot add a NIC to a member, qosgen push --dvs can"
		rc=1
		;;
	esac
fi
addr='sc2esx25.example.net'
nic='vmnic2'
host=$(govc find / -type h -name "$addr")
ref=$(govc find -i / -type h -name "$addr")
if [ -z "$host" ] || [ -z "$ref" ]; then
	echo "[failed] host.sc2esx25: no host $addr in the inventory"
	rc=1
else
	nics=$(qg_nics "${ref#*:}")
	case ",$nics," in
	*,"$nic",*) echo "[ok] host.sc2esx25: $nic" ;;
	,absent,)
		if [ "$dry" = 1 ]; then
			echo "[differs] host.sc2esx25: absent -> $nic"
		else
			govc dvs.add -dvs "$dvs" -pnic "$nic" "$host" >&2 || true
			case ",$(qg_nics "${ref#*:}")," in
			*,"$nic",*) echo "[changed] host.sc2esx25: absent -> $nic" ;;
			*)
				echo "[failed] host.sc2esx25: not on $dvs with $nic after dvs.add"
				rc=1
				;;
			esac
		fi
		;;
	*)
		echo "[failed] host.sc2esx25: $nics -> $nic: on $dvs without $nic; govc cannot add a NIC to a member, qosgen push --dvs can"
		rc=1
		;;
	esac
fi
addr='sc2esx26.example.net'
nic='vmnic2'
host=$(govc find / -type h -name "$addr")
ref=$(govc find -i / -type h -name "$addr")
if [ -z "$host" ] || [ -z "$ref" ]; then
	echo "[failed] host.sc2esx26: no host $addr in the inventory"
	rc=1
else
	nics=$(qg_nics "${ref#*:}")
	case ",$nics," in
	*,"$nic",*) echo "[ok] host.sc2esx26: $nic" ;;
	,absent,)
		if [ "$dry" = 1 ]; then
			echo "[differs] host.sc2esx26: absent -> $nic"
		else
			govc dvs.add -dvs "$dvs" -pnic "$nic" "$host" >&2 || true
			case ",$(qg_nics "${ref#*:}")," in
			*,"$nic",*) echo "[changed] host.sc2esx26: absent -> $nic" ;;
			*)
				echo "[failed] host.sc2esx26: not on $dvs with $nic after dvs.add"
				rc=1
				;;
			esac
		fi
		;;
	*)
		echo "[failed] host.sc2esx26: $nics -> $nic: on $dvs without $nic; govc cannot add a NIC to a member, qosgen push --dvs can"
		rc=1
		;;
	esac
fi
addr='sc2esx27.example.net'
nic='vmnic2'
host=$(govc find / -type h -name "$addr")
ref=$(govc find -i / -type h -name "$addr")
if [ -z "$host" ] || [ -z "$ref" ]; then
	echo "[failed] host.sc2esx27: no host $addr in the inventory"
	rc=1
else
	nics=$(qg_nics "${ref#*:}")
	case ",$nics," in
	*,"$nic",*) echo "[ok] host.sc2esx27: $nic" ;;
	,absent,)
		if [ "$dry" = 1 ]; then
			echo "[differs] host.sc2esx27: absent -> $nic"
		else
			govc dvs.add -dvs "$dvs" -pnic "$nic" "$host" >&2 || true
			case ",$(qg_nics "${ref#*:}")," in
			*,"$nic",*) echo "[changed] host.sc2esx27: absent -> $nic" ;;
			*)
				echo "[failed] host.sc2esx27: not on $dvs with $nic after dvs.add"
				rc=1
				;;
			esac
		fi
		;;
	*)
		echo "[failed] host.sc2esx27: $nics -> $nic: on $dvs without $nic; govc cannot add a NIC to a member, qosgen push --dvs can"
		rc=1
		;;
	esac
fi

exit "$rc"
