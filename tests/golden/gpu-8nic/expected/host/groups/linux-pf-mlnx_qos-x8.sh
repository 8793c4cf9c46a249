# qosgen 0.1.0: RoCE QoS of the Linux hosts of group linux-pf-mlnx_qos-x8, fabric gpu-pod:
# 8 NICs, each a PF, QoS through mlnx_qos.
# The intent's sha256 is in plan.json, with each host's group and this group's
# settings: this file changes only with them. Generated: edit the intent, not this file.
# It runs after host/lib/linux.sh and the host's line of host/hosts/linux.sh, which names the host
# and the devices of its NIC K: $qg_host, $qg_netdev_K, $qg_rdma_device_K.
# Given a netdev (the installed copy, run by that NIC's udev rule or unit), it
# configures that NIC alone, so that a NIC that comes back alone is set again.
if [ "${qg_group:-}" != 'linux-pf-mlnx_qos-x8' ]; then
	qg_report failed group "host ${qg_host:-?} is of group ${qg_group:-none}, not linux-pf-mlnx_qos-x8: run its own group's file"
	exit 1
fi

# qg_nic K FUNCTION NETDEV RDMA_DEVICE: NIC K's calls, on $qg_netdev and
# $qg_rdma_device. A NIC whose netdev is absent is reported missing alone
# (exit status 2); the other NICs are still set. Its lines are keyed
# nics[K].KEY, as its settings are in plan.json: the prelude's qg_report
# prefixes each key with $qg_key.
qg_only=${1:-}
qg_seen=
qg_nic() {
	[ -n "$qg_only" ] && [ "$qg_only" != "$3" ] && return 0
	qg_seen=1
	qg_key="nics[$1]."
	qg_netdev=$3
	qg_rdma_device=$4
	if [ ! -d "/sys/class/net/$3" ]; then
		qg_report missing netdev "no network device $3 on this host"
	else
		"$2"
	fi
	qg_key=
}

# PF, QoS through mlnx_qos.
qg_nic_pf_mlnx_qos() {
	qg_mtu "$qg_netdev" '9000'
	qg_mlnx_qos_trust "$qg_netdev" 'dscp'
	qg_mlnx_qos_dscp2prio "$qg_netdev" '26' '3'
	qg_mlnx_qos_dscp2prio "$qg_netdev" '48' '6'
	qg_mlnx_qos_dscp_others "$qg_netdev" '26 48'
	qg_mlnx_qos_pfc "$qg_netdev" '0,0,0,1,0,0,0,0'
	qg_roce_tos "$qg_rdma_device" '1' '106'
	qg_tclass "$qg_rdma_device" '106'
	qg_file_default 'ecn.roce_np.enable.0' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/0" '0'
	qg_file_default 'ecn.roce_np.enable.1' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/1" '0'
	qg_file_default 'ecn.roce_np.enable.2' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/2" '0'
	qg_file 'ecn.roce_np.enable.3' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/3" '1'
	qg_file_default 'ecn.roce_np.enable.4' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/4" '0'
	qg_file_default 'ecn.roce_np.enable.5' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/5" '0'
	qg_file_default 'ecn.roce_np.enable.6' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/6" '0'
	qg_file_default 'ecn.roce_np.enable.7' "/sys/class/net/$qg_netdev/ecn/roce_np/enable/7" '0'
	qg_file_default 'ecn.roce_rp.enable.0' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/0" '0'
	qg_file_default 'ecn.roce_rp.enable.1' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/1" '0'
	qg_file_default 'ecn.roce_rp.enable.2' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/2" '0'
	qg_file 'ecn.roce_rp.enable.3' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/3" '1'
	qg_file_default 'ecn.roce_rp.enable.4' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/4" '0'
	qg_file_default 'ecn.roce_rp.enable.5' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/5" '0'
	qg_file_default 'ecn.roce_rp.enable.6' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/6" '0'
	qg_file_default 'ecn.roce_rp.enable.7' "/sys/class/net/$qg_netdev/ecn/roce_rp/enable/7" '0'
	qg_file 'ecn.roce_np.cnp_dscp' "/sys/class/net/$qg_netdev/ecn/roce_np/cnp_dscp" '48'
	qg_file 'ecn.roce_np.cnp_802p_prio' "/sys/class/net/$qg_netdev/ecn/roce_np/cnp_802p_prio" '6'
}
qg_nic 0 qg_nic_pf_mlnx_qos "$qg_netdev_0" "$qg_rdma_device_0"
qg_nic 1 qg_nic_pf_mlnx_qos "$qg_netdev_1" "$qg_rdma_device_1"
qg_nic 2 qg_nic_pf_mlnx_qos "$qg_netdev_2" "$qg_rdma_device_2"
qg_nic 3 qg_nic_pf_mlnx_qos "$qg_netdev_3" "$qg_rdma_device_3"
qg_nic 4 qg_nic_pf_mlnx_qos "$qg_netdev_4" "$qg_rdma_device_4"
qg_nic 5 qg_nic_pf_mlnx_qos "$qg_netdev_5" "$qg_rdma_device_5"
qg_nic 6 qg_nic_pf_mlnx_qos "$qg_netdev_6" "$qg_rdma_device_6"
qg_nic 7 qg_nic_pf_mlnx_qos "$qg_netdev_7" "$qg_rdma_device_7"
if [ -z "$qg_only" ]; then
	qg_conf_var 'nccl.NCCL_IB_TC' '/etc/nccl.conf' 'NCCL_IB_TC' '106'
	qg_conf_var 'ucx.UCX_IB_TRAFFIC_CLASS' '/etc/ucx/ucx.conf' 'UCX_IB_TRAFFIC_CLASS' '106'
fi
if [ -n "$qg_only" ] && [ -z "$qg_seen" ]; then
	qg_report failed nic "host ${qg_host:-?} has no NIC $qg_only in the intent"
fi
if [ "$qg_failed" -ne 0 ]; then
	exit 1
fi
if [ "$qg_missing" -ne 0 ]; then
	exit 2
fi
exit 0
