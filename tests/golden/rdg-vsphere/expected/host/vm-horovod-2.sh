# qosgen 0.1.0: Linux host vm-horovod-2, fabric rdg-vsphere: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/vm-horovod-2.sh host/groups/linux-vf.sh | ssh root@vm-horovod-2.example.net sh -s
# Generated: edit the intent, not this file.
qg_host='vm-horovod-2'
qg_group='linux-vf'
qg_netdev='enp1f0'
qg_rdma_device='mlx5_0'
