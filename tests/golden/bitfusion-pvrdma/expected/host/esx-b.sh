# qosgen 0.1.0: ESXi host esx-b, fabric bitfusion-pvrdma: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/esxi.sh host/esx-b.sh host/groups/esxi-pvrdma-vmk0.sh | ssh esx-b.example.net sh -s
# Generated: edit the intent, not this file.
qg_host='esx-b'
qg_group='esxi-pvrdma-vmk0'
qg_uplink='vmnic5'
