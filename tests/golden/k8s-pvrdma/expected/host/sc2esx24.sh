# qosgen 0.1.0: ESXi host sc2esx24, fabric k8s-pvrdma: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/esxi.sh host/sc2esx24.sh host/groups/esxi-pvrdma-vmk3.sh | ssh sc2esx24.example.net sh -s
# Generated: edit the intent, not this file.
qg_host='sc2esx24'
qg_group='esxi-pvrdma-vmk3'
qg_uplink='vmnic2'
