# qosgen 0.1.0: Linux host vm-vf-1, fabric dscp-remap: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/vm-vf-1.sh host/groups/linux-vf.sh | ssh 198.51.100.21 sh -s
# Generated: edit the intent, not this file.
qg_host='vm-vf-1'
qg_group='linux-vf'
qg_netdev='ens224'
qg_rdma_device='mlx5_0'
