# qosgen 0.1.0: RoCE QoS of the Linux hosts of group linux-pf-dcb, fabric bitfusion-pvrdma:
# PF, QoS through dcb (iproute2).
# The intent's sha256 is in plan.json, with each host's group and this group's
# settings: this file changes only with them. Generated: edit the intent, not this file.
# It runs after host/lib/linux.sh and the host's line of host/hosts/linux.sh, which names the host
# and its devices: $qg_host, $qg_netdev, $qg_rdma_device.
if [ "${qg_group:-}" != 'linux-pf-dcb' ]; then
	qg_report failed group "host ${qg_host:-?} is of group ${qg_group:-none}, not linux-pf-dcb: run its own group's file"
	exit 1
fi
qg_need_netdev "$qg_netdev"
qg_mtu "$qg_netdev" '9000'
qg_dcb_trust "$qg_netdev" 'dscp'
qg_dcb_dscp2prio "$qg_netdev" '26' '3'
qg_dcb_dscp2prio "$qg_netdev" '48' '6'
qg_dcb_dscp_others "$qg_netdev" '26 48'
qg_dcb_pfc "$qg_netdev" 'prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' '0,0,0,1,0,0,0,0' '3'
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
