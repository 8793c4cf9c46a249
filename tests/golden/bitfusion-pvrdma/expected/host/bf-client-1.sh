# qosgen 0.1.0: Linux host bf-client-1, fabric bitfusion-pvrdma: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/bf-client-1.sh host/groups/linux-vf.sh | ssh 203.0.113.31 sh -s
# Generated: edit the intent, not this file.
qg_host='bf-client-1'
qg_group='linux-vf'
qg_netdev='ens224f0'
qg_rdma_device='rocep19s0f1'
