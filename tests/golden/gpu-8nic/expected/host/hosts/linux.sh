# qosgen 0.1.0: who each Linux host of fabric gpu-pod is, one line per host:
# its name, its group and its netdev and RDMA device, as shell variables.
# A host's script is three parts run as one, as qosgen push sends it:
# host/lib/linux.sh, the host's line here, then host/groups/GROUP.sh of the group
# the line names. By hand, for host NAME of group GROUP (QG_DRY_RUN=1: a dry run;
# awk's index() matches the name as it is, at the line's start: a grep pattern
# would let a '.' in gpu.1 match gpu-1's line too):
#   { cat host/lib/linux.sh; awk -v h="qg_host='NAME' " 'index($0, h) == 1' host/hosts/linux.sh; cat host/groups/GROUP.sh; } | ssh NAME sh -s
# Generated: edit the intent, not this file.
qg_host='gpu-001' qg_group='linux-pf-mlnx_qos' qg_netdev='ens1f0np0' qg_rdma_device='mlx5_0'
qg_host='gpu-002' qg_group='linux-pf-mlnx_qos' qg_netdev='ens1f0np0' qg_rdma_device='mlx5_0'
qg_host='gpu-003' qg_group='linux-pf-mlnx_qos' qg_netdev='ens1f0np0' qg_rdma_device='mlx5_0'
qg_host='gpu-004' qg_group='linux-pf-mlnx_qos' qg_netdev='ens1f0np0' qg_rdma_device='mlx5_0'
qg_host='gpu-005' qg_group='linux-pf-dcb' qg_netdev='ens1f0np0' qg_rdma_device='mlx5_0'
