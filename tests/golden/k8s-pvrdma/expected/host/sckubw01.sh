# qosgen 0.1.0: Linux host sckubw01, fabric k8s-pvrdma: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/linux.sh host/sckubw01.sh host/groups/linux-vf.sh | ssh 192.168.0.51 sh -s
# Generated: edit the intent, not this file.
qg_host='sckubw01'
qg_group='linux-vf'
qg_netdev='ens224'
qg_rdma_device='vmw_pvrdma0'
