# qosgen 0.1.0: who each ESXi host of fabric rdg-vsphere is, one line per host:
# its name, its group and its uplink, as shell variables.
# A host's script is three parts run as one, as qosgen push sends it:
# host/lib/esxi.sh, the host's line here, then host/groups/GROUP.sh of the group
# the line names. By hand, for host NAME of group GROUP (QG_DRY_RUN=1: a dry run;
# awk's index() matches the name as it is, at the line's start: a grep pattern
# would let a '.' in gpu.1 match gpu-1's line too):
#   { cat host/lib/esxi.sh; awk -v h="qg_host='NAME' " 'index($0, h) == 1' host/hosts/esxi.sh; cat host/groups/GROUP.sh; } | ssh NAME sh -s
# Generated: edit the intent, not this file.
qg_host='clx-mld-41' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-42' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-43' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-44' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-45' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-46' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-47' qg_group='esxi' qg_uplink='vmnic4'
qg_host='clx-mld-48' qg_group='esxi' qg_uplink='vmnic4'
