/* SPDX-License-Identifier: MIT */
/*
 * SONiC switches: sonic/<switch>.json, the config_db tables qosgen owns
 * (config_db.h says which and why), read off one tree for the file and the
 * settings. What SONiC cannot take from an intent, check() refuses first.
 * diff() reads `show runningconfiguration all` and prints the JSON Patch
 * `config apply-patch` takes (config_db_patch.h).
 */
#include "sonic.h"

#include "../../gen/fixed.h"
#include "../../gen/names.h"
#include "config_db.h"
#include "config_db_patch.h"
#include "sonic_ports.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void sonic_check(const struct qg_model *m, struct qg_diags *d)
{
	const struct qg_qos *q = &m->qos;
	/*
	 * With trust pcp SONiC classifies by DOT1P_TO_TC_MAP, which this target
	 * does not write yet: the switch would keep classifying by its own map.
	 */
	if (q->trust != QG_TRUST_DSCP)
		qg_error(d, q->trust_pos,
			 "qos.trust pcp: the sonic target writes DSCP_TO_TC_MAP only (no "
			 "DOT1P_TO_TC_MAP yet), so its switches need trust dscp");
	/* SONiC's buffer templates give priority group 0 the lossy profile, every port. */
	if (q->lossless.priority == SONIC_LOSSY_PG)
		qg_error(d, q->lossless.priority_pos,
			 "qos.lossless.priority 0: the sonic target numbers the lossless priority "
			 "group as its priority, and priority group %d holds the lossy traffic "
			 "classes; use a priority of 1..7 (3 is RoCE's usual)",
			 SONIC_LOSSY_PG);
}

static int sonic_settings_of(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	cJSON *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	sonic_settings(want, out);
	cJSON_Delete(want);
	return out->oom ? -ENOMEM : 0;
}

/*
 * config_db JSON has no comment to carry a header: the file is only the
 * tables (as `config load` and `config apply-patch` take them), and
 * plan.json holds its hash beside the intent's.
 */
static int sonic_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      struct qg_outset *out)
{
	(void)ctx;
	cJSON *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	struct qg_buf text = {0};
	sonic_emit_json(want, &text);
	cJSON_Delete(want);
	if (text.failed) {
		qg_buf_free(&text);
		return -ENOMEM;
	}
	char path[QG_NAME_LEN + 16];
	snprintf(path, sizeof(path), "sonic/%s.json", m->switches[i].name);
	size_t len;
	char *data = qg_buf_steal(&text, &len);
	return qg_outset_add(out, path, data, len, 0644);
}

static int sonic_diff(const struct qg_model *m, size_t i, const char *readback, size_t len,
		      struct qg_buf *out, struct qg_diags *d)
{
	cJSON *have = NULL, *want = sonic_config_from_model(m, i);
	if (!want)
		return -ENOMEM;
	int rc = sonic_readback_parse(readback, len, &have, d);
	const struct qg_switch *sw = &m->switches[i];
	if (rc == 0)
		qg_warn_other_host(d, sonic_readback_hostname(have), sw->name, sw->address,
				   "configuration");
	if (rc == 0 && sonic_config_judge(want, have, d) > 0)
		rc = -EINVAL;
	if (rc == 0) {
		bool oom;
		cJSON *patch = sonic_config_patch(want, have, &oom);
		if (oom)
			rc = -ENOMEM;
		sonic_patch_text(patch, out);
		cJSON_Delete(patch);
	}
	cJSON_Delete(want);
	cJSON_Delete(have);
	return rc == 0 && out->failed ? -ENOMEM : rc;
}

static void sonic_explain(const struct qg_model *m, struct qg_explain_rows *x)
{
	const struct qg_qos *q = &m->qos;
	char v[96], reason[480];
	int tc[8];
	sonic_priority_tc(q, tc);
	int n = 0;
	for (int p = 0; p < 8; p++)
		n += snprintf(v + n, sizeof(v) - (size_t)n, "%s%d", p ? "," : "", tc[p]);
	qg_explain_row(x, "sonic.priority_tc", v,
		       "config_db classifies DSCP straight to a traffic class: each DSCP goes to "
		       "the TC of its switch-priority (derived.dscp_map); the classes' priorities "
		       "to their traffic_class, every other priority p to TC p, or, where a "
		       "class holds TC p, to the lowest TC no class holds; queue = TC");
	snprintf(v, sizeof(v), "%d", q->lossless.priority);
	snprintf(reason, sizeof(reason),
		 "the lossless priority group is numbered as the lossless priority (SONiC's "
		 "templates: PG 3 for priority 3); TC %d goes to it, every other TC to PG %d "
		 "(lossy); pfc_enable \"%d\"; BUFFER_PG <port>|%d with profile \"NULL\"",
		 q->lossless.traffic_class, SONIC_LOSSY_PG, q->lossless.priority,
		 q->lossless.priority);
	qg_explain_row(x, "sonic.lossless_pg", v, reason);
	qg_explain_row(x, "sonic.headroom", "dynamic",
		       "BUFFER_PG's profile \"NULL\" lets SONiC's dynamic buffer model compute "
		       "the lossless headroom from each port's speed, cable length (CABLE_LENGTH: "
		       "each port's cable_length_m as \"<m>m\", in the row that holds the port, "
		       "else " SONIC_CABLE_ROW "; a switch without cable_length_m keeps its own) "
		       "and MTU; the switch needs DEVICE_METADATA buffer_model dynamic");
	snprintf(reason, sizeof(reason),
		 "not written: the dynamic buffer model sizes the switch's own "
		 "ingress_lossless_pool, so the pool '%s' and its memory_percent apply to the "
		 "onyx and cumulus targets only",
		 q->pool_name);
	qg_explain_row(x, "sonic.pool", "-", reason);
	if (q->ecn) {
		snprintf(v, sizeof(v), "%ld..%ld bytes", sonic_ecn_bytes(q->ecn_min_kb),
			 sonic_ecn_bytes(q->ecn_max_kb));
		qg_explain_row(x, "sonic.ecn.threshold", v,
			       "WRED_PROFILE " SONIC_WRED " takes bytes: min_kb and max_kb x 1000, "
			       "as the cumulus target; ecn_all, every colour alike, drop "
			       "probability 100, on the lossless queue");
	}
	snprintf(v, sizeof(v), "%d", sonic_port_mtu(q));
	if (q->switch_mtu_given)
		snprintf(reason, sizeof(reason), "qos.switch_mtu, as given (SONiC takes 68..%d)",
			 SONIC_MTU_MAX);
	else
		snprintf(reason, sizeof(reason),
			 "qos.switch_mtu not given: SONiC's jumbo MTU %d when it carries qos.mtu "
			 "%d + 18, else SONiC's largest, %d",
			 SONIC_JUMBO_MTU, q->mtu, SONIC_MTU_MAX);
	qg_explain_row(x, "sonic.port.mtu", v, reason);
	qg_explain_row(x, "sonic.names", SONIC_MAP ", " SONIC_WRED ", " SONIC_SCHED_CNP,
		       "qosgen's own map, WRED and scheduler names, stable so that a diff and "
		       "a removal are exact; never SONiC's AZURE maps (its DSCP_TO_TC_MAP sends "
		       "DSCP 26 to a lossy TC)");
	const struct qg_pfc_watchdog *wd = &q->pfcwd;
	if (wd->state == QG_PFCWD_ON) {
		snprintf(v, sizeof(v), "%s %d/%d ms, poll %d ms", SONIC_PFCWD_ACTION,
			 wd->detection_ms, wd->restoration_ms, wd->poll_ms);
		snprintf(reason, sizeof(reason),
			 "PFC_WD|<port> action " SONIC_PFCWD_ACTION
			 " (pfcwd start's default), detection_time and restoration_time in ms, "
			 "on each intent port; PFC_WD|" SONIC_PFCWD_GLOBAL
			 " POLL_INTERVAL (the switch's, one for every port); PORT_QOS_MAP "
			 "pfcwd_sw_enable \"%d\", the lossless priority",
			 q->lossless.priority);
		qg_explain_row(x, "sonic.pfc_watchdog", v, reason);
	} else if (wd->state == QG_PFCWD_OFF) {
		qg_explain_row(x, "sonic.pfc_watchdog", "off",
			       "no PFC_WD row and no PORT_QOS_MAP pfcwd_sw_enable on the intent's "
			       "ports: diff and push remove them; PFC_WD|" SONIC_PFCWD_GLOBAL
			       " stays as the switch has it (GCU refuses its removal)");
	} else {
		qg_explain_row(x, "sonic.pfc_watchdog", "-",
			       "left as the switch has it (PFC_WD, pfcwd_sw_enable): the intent "
			       "gives no pfc_watchdog");
	}
}

const struct qg_target qg_target_sonic = {
    .name = "sonic",
    .summary = "SONiC config_db tables (sonic/<switch>.json), pushed as a JSON Patch over SSH",
    .kind = QG_DEVICE_SWITCH,
    .ports = &sonic_port_syntax,
    .switch_mtu_max = 9216, /* sonic-port.yang: PORT mtu, uint16 range 68..9216 */
    .access = "SSH",
    .default_port = 22,
    .check = sonic_check,
    .settings = sonic_settings_of,
    .emit = sonic_emit,
    .diff = sonic_diff,
    .explain = sonic_explain,
};
