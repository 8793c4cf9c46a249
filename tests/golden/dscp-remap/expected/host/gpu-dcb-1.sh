# qosgen 0.1.0: Linux host gpu-dcb-1, fabric dscp-remap: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/gpu-dcb-1.sh host/groups/linux-pf-dcb.sh | ssh 198.51.100.12 sh -s
# Generated: edit the intent, not this file.
qg_host='gpu-dcb-1'
qg_group='linux-pf-dcb'
qg_netdev='enp65s0f0'
qg_rdma_device='mlx5_0'
