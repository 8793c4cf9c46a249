/* SPDX-License-Identifier: MIT */
#include "ets_check.h"

#include "devices.h"
#include "target_ops.h"

#include <stdio.h>
#include <string.h>

#define MAX_USED 16

/* Whether every target of used[] takes q's weights. */
static bool all_fit(const struct qg_target *const *used, size_t n, const struct qg_qos *q)
{
	char why[QG_ETS_WHY_LEN];
	for (size_t i = 0; i < n; i++)
		if (!used[i]->ets_fits(q, why))
			return false;
	return true;
}

/* The weight the search moves: the lossless class's when WRR, else the CNP class's. */
static struct qg_ets *moved(struct qg_qos *q)
{
	return q->lossless.ets.mode == QG_ETS_WRR ? &q->lossless.ets : &q->cnpc.ets;
}

/* The nearest weight below (step -1) or above (+1) w that every used target takes; 0: none. */
static int nearest(const struct qg_target *const *used, size_t n, const struct qg_qos *q, int w,
		   int step)
{
	struct qg_qos t = *q;
	for (int v = w + step; v >= 1 && v <= 100; v += step) {
		moved(&t)->weight = v;
		if (all_fit(used, n, &t))
			return v;
	}
	return 0;
}

/*
 * Which OSes set the limit, into who ("onyx and cumulus"), and the first
 * one's reason into why: those that refuse probe, the weight next to the
 * nearest one all take (the given weight when none is), and the given one.
 */
static size_t setters(const struct qg_target *const *used, size_t n, const struct qg_qos *q,
		      int probe, char who[160], char why[QG_ETS_WHY_LEN])
{
	struct qg_qos t = *q;
	int given = moved(&t)->weight;
	size_t n_who = 0, len = 0;
	why[0] = who[0] = '\0';
	const struct qg_target *set[MAX_USED];
	for (size_t i = 0; i < n; i++) {
		char w[QG_ETS_WHY_LEN];
		moved(&t)->weight = probe;
		bool fits = used[i]->ets_fits(&t, w);
		moved(&t)->weight = given;
		if (fits || used[i]->ets_fits(&t, w))
			continue;
		set[n_who++] = used[i];
		if (!why[0])
			snprintf(why, QG_ETS_WHY_LEN, "%s", w);
	}
	for (size_t i = 0; i < n_who && len < 160; i++)
		len += (size_t)snprintf(who + len, 160 - len, "%s%s",
					i == 0		 ? ""
					: i + 1 == n_who ? " and "
							 : ", ",
					set[i]->name);
	return n_who;
}

bool qg_ets_check(const struct qg_model *m, struct qg_diags *d)
{
	const struct qg_qos *q = &m->qos;
	const struct qg_target *used[MAX_USED];
	size_t n = 0;
	for (size_t t = 0; m->targets && m->targets[t] && n < MAX_USED; t++)
		if (m->targets[t]->ets_fits && qg_target_used(m, m->targets[t]))
			used[n++] = m->targets[t];
	if (n == 0 || all_fit(used, n, q))
		return false;
	struct qg_qos t = *q;
	const struct qg_ets *e = moved(&t);
	const char *which = e == &t.lossless.ets ? "lossless" : "cnp";
	int below = nearest(used, n, q, e->weight, -1), above = nearest(used, n, q, e->weight, 1);
	char who[160], why[QG_ETS_WHY_LEN];
	size_t n_who = setters(used, n, q, below ? below + 1 : e->weight, who, why);
	const struct qg_class *l = &q->lossless, *c = &q->cnpc;
	bool both = l->ets.mode == QG_ETS_WRR && q->cnp && c->ets.mode == QG_ETS_WRR;
	char what[160], limit[96];
	if (both)
		snprintf(what, sizeof(what),
			 "qos.lossless.ets.weight %d%s with qos.cnp.ets.weight %d (%d in all)",
			 l->ets.weight, l->ets.given ? "" : " (the default)", c->ets.weight,
			 l->ets.weight + c->ets.weight);
	else
		snprintf(what, sizeof(what), "qos.%s.ets.weight %d", which, e->weight);
	if (below && !above)
		snprintf(limit, sizeof(limit), "the %s weight is %d at most", which, below);
	else if (above && !below)
		snprintf(limit, sizeof(limit), "the %s weight is %d at least", which, above);
	else if (below)
		snprintf(limit, sizeof(limit), "the nearest %s weights they take are %d and %d",
			 which, below, above);
	else
		snprintf(limit, sizeof(limit), "no %s weight fits", which);
	qg_error(d, l->ets.mode == QG_ETS_WRR && (l->ets.given || !both) ? l->ets.pos : c->ets.pos,
		 "%s does not fit every switch OS of this fabric: %s, a limit the %s target%s "
		 "set%s (%s)",
		 what, limit, who, n_who == 1 ? "" : "s", n_who == 1 ? "s" : "", why);
	/* The weights' sum over 100 is this same cause: said once, here. */
	for (size_t i = d->n; i-- > 0;)
		if (d->v[i].warning == QG_W_ETS_WEIGHTS_OVER_100)
			qg_diags_remove(d, &i, 1);
	return true;
}
