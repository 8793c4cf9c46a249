# qosgen 0.1.0: RoCE QoS of the ESXi hosts of group esxi, fabric rdg-vsphere:
# nmlx5 module options.
# The intent's sha256 is in plan.json, with each host's group and this group's
# settings: this file changes only with them. Generated: edit the intent, not this file.
# It runs after host/lib/esxi.sh and the host's line of host/hosts/esxi.sh, which names the host
# and its uplink: $qg_host, $qg_uplink.
if [ "${qg_group:-}" != 'esxi' ]; then
	qg_report failed group "host ${qg_host:-?} is of group ${qg_group:-none}, not esxi: run its own group's file"
	exit 1
fi
qg_need_uplink "$qg_uplink"
qg_module_opts 'nmlx5_core' 'pfctx=0x08' 'pfcrx=0x08' 'trust_state=2' 'ecn=1'
qg_module_opts 'nmlx5_rdma' 'dscp_force=26' 'pcp_force=unset'
if [ "$qg_reboot" -ne 0 ] && [ "$qg_dry" = 1 ]; then
	echo "[reboot] module options would change: applying them needs $qg_host in maintenance mode and a reboot"
elif [ "$qg_reboot" -ne 0 ]; then
	echo "[reboot] module options changed: put $qg_host in maintenance mode and reboot it to apply them"
fi
if [ "$qg_failed" -ne 0 ]; then
	exit 1
fi
if [ "$qg_missing" -ne 0 ]; then
	exit 2
fi
exit 0
