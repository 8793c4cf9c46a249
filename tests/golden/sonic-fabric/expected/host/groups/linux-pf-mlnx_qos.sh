# qosgen 0.1.0: RoCE QoS of the Linux hosts of group linux-pf-mlnx_qos, fabric sonic-pod:
# PF, QoS through mlnx_qos.
# The intent's sha256 is in plan.json, with each host's group and this group's
# settings: this file changes only with them. Generated: edit the intent, not this file.
# It runs after host/lib/linux.sh and the host's line of host/hosts/linux.sh, which names the host
# and its devices: $qg_host, $qg_netdev, $qg_rdma_device.
if [ "${qg_group:-}" != 'linux-pf-mlnx_qos' ]; then
	qg_report failed group "host ${qg_host:-?} is of group ${qg_group:-none}, not linux-pf-mlnx_qos: run its own group's file"
	exit 1
fi
qg_need_netdev "$qg_netdev"
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
qg_conf_var 'nccl.NCCL_IB_TC' '/etc/nccl.conf' 'NCCL_IB_TC' '106'
qg_conf_var 'ucx.UCX_IB_TRAFFIC_CLASS' '/etc/ucx/ucx.conf' 'UCX_IB_TRAFFIC_CLASS' '106'
if [ "$qg_failed" -ne 0 ]; then
	exit 1
fi
if [ "$qg_missing" -ne 0 ]; then
	exit 2
fi
exit 0
