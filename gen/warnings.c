/* SPDX-License-Identifier: MIT */
#include "warnings.h"

#include "model.h"
#include "names.h"

#include <stdio.h>
#include <string.h>

/* Indexed by enum qg_warning_id; docs/intent.md's table lists the same rows. */
static const struct qg_warning_info table[QG_W_COUNT] = {
    [QG_W_MTU_BELOW_ROCE_4096] = {"mtu-below-roce-4096", QG_WS_INTENT,
				  "qos.mtu is too small for a RoCE path MTU of 4096"},
    [QG_W_PCP_TRUST_DSCP_UNUSED] = {"pcp-trust-dscp-unused", QG_WS_INTENT,
				    "trust is pcp: the DSCP values only set what hosts mark"},
    [QG_W_ETS_WEIGHTS_OVER_100] = {"ets-weights-over-100", QG_WS_INTENT,
				   "the classes' WRR weights add up to more than 100%"},
    [QG_W_NO_ECN] = {"no-ecn", QG_WS_INTENT,
		     "qos.lossless has no ecn: DCQCN is off and PFC alone holds the fabric"},
    [QG_W_ECN_WITHOUT_CNP] = {"ecn-without-cnp", QG_WS_INTENT,
			      "ecn is on but there is no cnp class: CNPs share the default "
			      "class"},
    [QG_W_CNP_WITHOUT_ECN] = {"cnp-without-ecn", QG_WS_INTENT,
			      "a cnp class without ecn: nothing marks ECN, so no CNP is sent"},
    [QG_W_QOS_TOOL_IGNORED_FOR_VF] = {"qos-tool-ignored-for-vf", QG_WS_INTENT,
				      "a host's qos_tool is ignored for function vf"},
    [QG_W_ONYX_CABLE_LENGTH_NOT_WRITTEN] = {"onyx-cable-length-not-written", QG_WS_INTENT,
					    "the onyx target writes no cable length; an Onyx "
					    "switch's cable_length_m is ignored"},
    [QG_W_ONYX_PFC_WATCHDOG_NOT_WRITTEN] = {"onyx-pfc-watchdog-not-written", QG_WS_INTENT,
					    "the onyx target writes no PFC watchdog; Onyx "
					    "switches keep their own"},
    [QG_W_CUMULUS_RESTORATION_MS_IGNORED] =
	{"cumulus-restoration-ms-ignored", QG_WS_INTENT,
	 "NVUE has no PFC watchdog restoration time; restoration_ms is ignored for Cumulus"},
    [QG_W_STALE_ACKNOWLEDGEMENT] = {"stale-acknowledgement", QG_WS_ACKNOWLEDGE,
				    "the intent acknowledges a warning it does not trigger"},
    [QG_W_READBACK_OTHER_HOSTNAME] = {"readback-other-hostname", QG_WS_READBACK,
				      "a saved read-back names another switch than the one "
				      "diffed"},
    [QG_W_READBACK_LINE_SKIPPED] = {"readback-line-skipped", QG_WS_READBACK,
				    "a read-back line qosgen could not read was skipped"},
    [QG_W_VSPHERE_PLAIN_HTTP] = {"vsphere-plain-http", QG_WS_COMMAND_LINE,
				 "push --allow-http: the vSphere credentials cross the network "
				 "unencrypted"},
    [QG_W_VSPHERE_TLS_UNCHECKED] = {"vsphere-tls-unchecked", QG_WS_COMMAND_LINE,
				    "push --insecure: vCenter's certificate is not checked"},
};

const struct qg_warning_info *qg_warning_info(enum qg_warning_id id)
{
	if (id <= QG_W_NONE || id >= QG_W_COUNT)
		return NULL;
	return &table[id];
}

enum qg_warning_id qg_warning_lookup(const char *name)
{
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return (enum qg_warning_id)i;
	return QG_W_NONE;
}

const char *qg_warning_nearest(const char *name)
{
	const char *best = NULL;
	size_t best_d = 4; /* the names are long: three edits is still a typo */
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++) {
		size_t d = qg_edit_distance(name, table[i].name);
		if (table[i].scope == QG_WS_INTENT && d < best_d) {
			best_d = d;
			best = table[i].name;
		}
	}
	return best;
}

void qg_warning_acknowledgeable(char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT && o < len; i++)
		if (table[i].scope == QG_WS_INTENT)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? ", " : "",
					      table[i].name);
}

void qg_warnings_acknowledge(const struct qg_model *m, struct qg_diags *d, bool judge_stale)
{
	for (size_t i = 0; i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		size_t n = qg_diags_acknowledge(d, a->warning);
		if (n == 0 && judge_stale && d->errors == 0)
			qg_warning(d, a->pos, QG_W_STALE_ACKNOWLEDGEMENT,
				   "acknowledge: '%s' is acknowledged, but this intent does not "
				   "trigger it; remove it from the list",
				   table[a->warning].name);
	}
}
