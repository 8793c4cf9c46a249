/* SPDX-License-Identifier: MIT */
/*
 * Onyx's own verdict (issue 34): does the switch hold, in its operational
 * state, what the read-back shows configured? Pure: the push reads the
 * shows (onyx_push.c), onyx_oper.c parses them, this judges them against
 * the desired config.
 *
 * Refused, with the port, what and both values in Onyx's words:
 *   - the lossless pool (`show traffic pool NAME`): its "Type", "Switch
 *     Priorities" or "Memory [%]" not as configured, or "Memory actual" 0
 *     (the switch gave it no buffer);
 *   - PFC (`show dcb priority-flow-control`): the lossless priority not in
 *     its "Priority Enabled List" (where printed), or an intent port whose
 *     "PFC oper" is not Enabled. mellanox.onyx's onyx_pfc_interface takes
 *     "PFC oper" as an interface's PFC state, which mapping the priority to
 *     a lossless pool turns on ("PFC admin Auto, oper Enabled",
 *     tests/fixtures/onyx/show_dcb_priority_flow_control.txt);
 *   - ETS (`show dcb ets interface ethernet X`): an intent port's traffic
 *     class that qosgen sets strict or WRR W whose "S.Mode" or "W" differs
 *     (a class at Onyx's default is not judged: Onyx documents no value).
 * Warned, not refused: a figure Onyx computes that differs from qosgen's
 * own beyond the tolerance (onyx_verdict_figure).
 */
#ifndef QG_ONYX_VERDICT_H
#define QG_ONYX_VERDICT_H

#include "../../lib/buf.h"
#include "onyx_config.h"
#include "onyx_oper.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The tolerance, in percent, within which a figure the switch computes
 * agrees with qosgen's. model/headroom.h's QG_HEADROOM_TOLERANCE_PCT (issue
 * 34, being built beside this) replaces it when it lands.
 */
#define ONYX_FIGURE_TOLERANCE_PCT 10

/* What one verdict read: the lossless pool, PFC, and each want port's ETS in want's order. */
struct onyx_oper {
	struct onyx_oper_pool pool;
	struct onyx_oper_pfc pfc;
	const struct onyx_oper_ets *ets; /* want->n_ports of them */
};

/*
 * qosgen's own figures for what Onyx computes, 0 where qosgen has none.
 * pool_bytes: the lossless pool's size, its memory percent of the model's
 * buffer (model/headroom.h's model table; none on this branch yet).
 */
struct onyx_expect {
	int64_t pool_bytes;
	int tolerance_pct;
};

/*
 * Judge o against want (want->pools[0] the lossless pool). 0 when the
 * switch holds it; else the number of disagreements, the first in why
 * ("Eth1/3 TC 6: 'S.Mode' is WRR ('W' 12), configured strict (and 2 more)").
 * Figures beyond the tolerance go to warn as lines.
 */
int onyx_verdict_judge(const struct onyx_config *want, const struct onyx_oper *o,
		       const struct onyx_expect *expect, char *why, size_t cap,
		       struct qg_buf *warn);

/*
 * One figure Onyx shows against qosgen's, in bytes: beyond tolerance_pct of
 * expected, a line "WHAT: Onyx shows SHOWN bytes, qosgen computes EXPECTED
 * (D % apart, beyond the T % tolerance)" in warn, and true. A figure either
 * side lacks (<= 0 expected, < 0 shown) is not compared.
 */
bool onyx_verdict_figure(const char *what, int64_t expected, int64_t shown, int tolerance_pct,
			 struct qg_buf *warn);

#endif
