# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Sourced by run.sh and update.sh. The error goldens do not pin the list of
# targets (issue 26: the registry, targets/registry.c, is the only list):
# where the platforms are listed, expected.stderr says @SWITCH_PLATFORMS@ or
# @HOST_PLATFORMS@, and the runner puts in the lists qosgen prints for an
# unknown platform. That they are the registry's targets of the kind, in
# registry order, is tests/unit/test_targets.c's (test_platform_list_is_registry).

# The platforms of LIST (switches or hosts), ", "-separated, as QOSGEN lists them.
golden_platforms() { # QOSGEN TMPDIR LIST
	printf '%s\n' 'version: 1' 'fabric: t' 'qos:' '  lossless:' '    priority: 3' \
		'    dscp: [26]' '    pool: {name: roce, memory_percent: 50}' 'switches:' \
		'  - {name: s, platform: zz-probe, address: s, ports: [p]}' 'hosts:' \
		'  - {name: h, platform: zz-probe, address: h}' >"$2/probe.yaml"
	"$1" check "$2/probe.yaml" 2>&1 >/dev/null |
		sed -n "s/.*: $3\[[a-z]*\]\.platform: 'zz-probe' is not one of: \(.*\)$/\1/p" | head -n 1
}
