# qosgen 0.1.0: Linux host gpu02, fabric sonic-pod: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/gpu02.sh host/groups/linux-pf-dcb.sh | ssh 10.30.1.2 sh -s
# Generated: edit the intent, not this file.
qg_host='gpu02'
qg_group='linux-pf-dcb'
qg_netdev='ens1f0np0'
qg_rdma_device='mlx5_0'
