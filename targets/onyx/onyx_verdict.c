/* SPDX-License-Identifier: MIT */
/* Onyx's own verdict on its operational state: see onyx_verdict.h. */
#include "onyx_verdict.h"

#include "../../lib/fixed.h"
#include "onyx_ports.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The disagreements found: the first one's words, and how many. */
struct tally {
	char first[600];
	int n;
};

static void disagree(struct tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void disagree(struct tally *t, const char *fmt, ...)
{
	if (t->n++ > 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->first, sizeof(t->first), fmt, ap);
	va_end(ap);
}

/* Switch-priorities of a mask as Onyx lists them: "3", "3 4". */
static void mask_text(uint8_t mask, char out[24])
{
	size_t n = 0;
	out[0] = '\0';
	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			n += (size_t)snprintf(out + n, 24 - n, "%s%d", n ? " " : "", p);
}

static void judge_pool(const struct onyx_pool_cfg *w, const struct onyx_oper_pool *o,
		       const struct onyx_expect *expect, struct tally *t, struct qg_buf *warn)
{
	char want_pct[24], prios[24];
	qg_centi_format(w->percent_centi, want_pct);
	mask_text(w->priority_mask, prios);
	if (strcasecmp(o->type, w->type))
		disagree(t, "traffic pool %s: 'Type' is %s, configured %s", w->name,
			 o->type[0] ? o->type : "not shown", w->type);
	if (!o->priorities_shown || o->priority_mask != w->priority_mask)
		disagree(t, "traffic pool %s: 'Switch Priorities' is '%s', configured %s", w->name,
			 o->priorities_shown ? o->priorities : "not shown", prios);
	if (o->percent_centi != w->percent_centi)
		disagree(t, "traffic pool %s: 'Memory [%%]' is %s, configured %s", w->name,
			 o->percent_centi >= 0 ? o->percent : "not shown", want_pct);
	/*
	 * The size the switch gave the pool: 0 of a percent above 0 is a pool
	 * the ASIC could not size, which holds nothing, whatever its
	 * configuration reads.
	 */
	if (o->actual_bytes == 0 && w->percent_centi > 0)
		disagree(t,
			 "traffic pool %s: 'Memory actual' is %s with 'Memory [%%]' %s: the "
			 "switch gave the lossless pool no buffer",
			 w->name, o->actual, want_pct);
	char what[80];
	snprintf(what, sizeof(what), "traffic pool %s 'Memory actual'", w->name);
	onyx_verdict_figure(what, expect ? expect->pool_bytes : 0, o->actual_bytes,
			    expect && expect->tolerance_pct > 0 ? expect->tolerance_pct
								: ONYX_FIGURE_TOLERANCE_PCT,
			    warn);
}

static void judge_pfc(const struct onyx_config *want, const struct onyx_oper_pfc *o,
		      struct tally *t)
{
	const struct onyx_pool_cfg *w = &want->pools[0];
	char prios[24];
	mask_text(w->priority_mask, prios);
	if (o->enabled_shown && (o->enabled_mask & w->priority_mask) != w->priority_mask)
		disagree(t, "PFC: switch-priority %s is not in its 'Priority Enabled List' ('%s')",
			 prios, o->enabled);
	for (size_t k = 0; k < want->n_ports; k++) {
		char port[QG_PORT_TEXT_LEN], name[QG_PORT_TEXT_LEN + 4];
		onyx_port_format(&want->ports[k].id, port);
		snprintf(name, sizeof(name), "Eth%s", port);
		const struct onyx_oper_pfc_port *p = onyx_oper_pfc_port(o, name);
		if (!p)
			disagree(t,
				 "%s: 'show dcb priority-flow-control' lists no PFC state for it",
				 name);
		else if (strcasecmp(p->oper, "Enabled"))
			disagree(t,
				 "%s: 'PFC oper' is %s ('PFC admin' %s), so switch-priority %s is "
				 "not lossless there",
				 name, p->oper[0] ? p->oper : "not shown",
				 p->admin[0] ? p->admin : "not shown", prios);
	}
}

static void judge_ets(const struct onyx_port_cfg *w, const struct onyx_oper_ets *o, struct tally *t)
{
	char port[QG_PORT_TEXT_LEN];
	onyx_port_format(&w->id, port);
	for (int tc = 0; tc < 8; tc++) {
		const struct onyx_tc_cfg *wt = &w->tc[tc];
		const struct onyx_oper_tc *ot = &o->tc[tc];
		/* A class at Onyx's default: no value documented to hold it to. */
		if (wt->ets == QG_ETS_UNSET)
			continue;
		char want_text[24];
		if (wt->ets == QG_ETS_STRICT)
			snprintf(want_text, sizeof(want_text), "strict");
		else
			snprintf(want_text, sizeof(want_text), "wrr %d", wt->weight);
		if (!ot->shown)
			disagree(t, "Eth%s TC %d: not in its 'ETS per TC', configured %s", port, tc,
				 want_text);
		else if (ot->mode != wt->ets)
			disagree(t, "Eth%s TC %d: 'S.Mode' is %s ('W' %d), configured %s", port, tc,
				 ot->mode_text, ot->weight, want_text);
		else if (wt->ets == QG_ETS_WRR && ot->weight != wt->weight)
			disagree(t, "Eth%s TC %d: 'W' is %d, configured %s", port, tc, ot->weight,
				 want_text);
	}
}

int onyx_verdict_judge(const struct onyx_config *want, const struct onyx_oper *o,
		       const struct onyx_expect *expect, char *why, size_t cap, struct qg_buf *warn)
{
	struct tally t = {.n = 0};
	if (want->n_pools)
		judge_pool(&want->pools[0], &o->pool, expect, &t, warn);
	if (want->n_pools)
		judge_pfc(want, &o->pfc, &t);
	for (size_t k = 0; o->ets && k < want->n_ports; k++)
		judge_ets(&want->ports[k], &o->ets[k], &t);
	if (t.n == 1)
		snprintf(why, cap, "%s", t.first);
	else if (t.n > 1)
		snprintf(why, cap, "%s (and %d more)", t.first, t.n - 1);
	return t.n;
}

bool onyx_verdict_figure(const char *what, int64_t expected, int64_t shown, int tolerance_pct,
			 struct qg_buf *warn)
{
	if (expected <= 0 || shown < 0)
		return false;
	int64_t diff = shown > expected ? shown - expected : expected - shown;
	if (tolerance_pct < 0 || tolerance_pct > 100)
		tolerance_pct = tolerance_pct < 0 ? 0 : 100;
	/* diff / expected > tol / 100 in integers; a size past 2^63 / 100 is beyond any. */
	if (diff <= INT64_MAX / 100 && expected <= INT64_MAX / 100 &&
	    diff * 100 <= expected * tolerance_pct)
		return false;
	/* How far apart, in percent, without overflow for sizes no switch has. */
	int64_t pct = diff <= INT64_MAX / 100 && expected <= INT64_MAX / 100 ? diff * 100 / expected
		      : diff / expected <= INT64_MAX / 100		     ? diff / expected * 100
									     : INT64_MAX;
	qg_buf_printf(warn,
		      "%s: Onyx shows %lld bytes, qosgen computes %lld (%lld %% apart, beyond the "
		      "%d %% tolerance)\n",
		      what, (long long)shown, (long long)expected, (long long)pct, tolerance_pct);
	return true;
}
