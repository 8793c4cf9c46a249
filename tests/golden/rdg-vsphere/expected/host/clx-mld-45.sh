# qosgen 0.1.0: ESXi host clx-mld-45, fabric rdg-vsphere: who it is. Its script is
# three files run as one, as qosgen push sends it (QG_DRY_RUN=1 sh -s: a dry run):
#   cat host/lib/esxi.sh host/clx-mld-45.sh host/groups/esxi.sh | ssh clx-mld-45.example.net sh -s
# Generated: edit the intent, not this file.
qg_host='clx-mld-45'
qg_group='esxi'
qg_uplink='vmnic4'
