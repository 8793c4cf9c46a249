/* SPDX-License-Identifier: MIT */
/*
 * The command texts of an Onyx switch and the diff that writes them: what
 * takes a read-back to the desired state, and the generated file (the diff
 * against a switch where nothing matches). The rollback (onyx_restore.c)
 * writes its commands with the same formatters and groups.
 */
#include "onyx_diff.h"

#include "../../lib/fixed.h"
#include "../../model/ports.h"
#include "onyx_ports.h"

#include <stdlib.h>
#include <string.h>

void onyx_groups_add(struct onyx_groups *g, const char *what, const struct qg_port *id)
{
	struct onyx_group *x = NULL;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].what, what))
			x = &g->v[i];
	if (!x) {
		if (g->n == g->cap) {
			size_t cap = g->cap ? g->cap * 2 : 8;
			struct onyx_group *v = realloc(g->v, cap * sizeof(*v));
			if (!v) {
				g->oom = true;
				return;
			}
			g->v = v;
			g->cap = cap;
		}
		x = &g->v[g->n++];
		memset(x, 0, sizeof(*x));
		snprintf(x->what, sizeof(x->what), "%s", what);
	}
	struct qg_port *v = realloc(x->ports, (x->n + 1) * sizeof(*v));
	if (!v) {
		g->oom = true;
		return;
	}
	x->ports = v;
	x->ports[x->n++] = *id;
}

/* Print and empty the groups: one line per run of ports, as onyx.c prints them. */
void onyx_groups_flush(struct onyx_groups *g, int section, struct qg_buf *out)
{
	if (g->oom)
		out->failed = true;
	for (size_t i = 0; i < g->n; i++) {
		struct onyx_group *x = &g->v[i];
		struct qg_port_run *runs = calloc(x->n ? x->n : 1, sizeof(*runs));
		if (!runs) {
			out->failed = true;
		} else {
			size_t nr = qg_port_runs(x->ports, x->n, runs);
			for (size_t r = 0; r < nr; r++) {
				char text[QG_PORT_TEXT_LEN];
				onyx_port_run_format(&runs[r], text);
				qg_buf_printf(out, "%d\tinterface ethernet %s %s\n", section, text,
					      x->what);
			}
		}
		free(runs);
		free(x->ports);
	}
	g->n = 0;
	g->oom = false;
}

void onyx_groups_free(struct onyx_groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i].ports);
	free(g->v);
	memset(g, 0, sizeof(*g));
}

bool onyx_tc_cc_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	/* Off is off, whatever thresholds a struct carries. */
	if (want->cc == ONYX_CC_NONE || have->cc == ONYX_CC_NONE)
		return want->cc != have->cc;
	return have->cc != want->cc || have->relative != want->relative ||
	       have->cc_min != want->cc_min || have->cc_max != want->cc_max;
}

bool onyx_tc_ets_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	return have->ets != want->ets || (want->ets == QG_ETS_WRR && have->weight != want->weight);
}

/* "traffic pool NAME [no ]map switch-priority P ...", in Onyx's documented flat form. */
void onyx_pool_map_line(struct qg_buf *out, const char *name, bool no, uint8_t mask)
{
	if (!mask)
		return;
	qg_buf_printf(out, "%d\t%straffic pool %s map switch-priority", ONYX_SEC_BUFFER,
		      no ? "no " : "", name);
	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			qg_buf_printf(out, " %d", p);
	qg_buf_puts(out, "\n");
}

/*
 * The pool, exactly: another pool gives up want's priorities first (a
 * priority belongs to one pool), then the pool drops priorities beyond
 * want's, then type, memory and the missing mappings. onyx_config_judge()
 * has refused the cases where giving a priority up is not enough.
 */
static void pool_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *out)
{
	for (size_t i = 0; i < want->n_pools; i++) {
		const struct onyx_pool_cfg *w = &want->pools[i];
		const struct onyx_pool_cfg *h = onyx_pool_find(have, w->name);
		for (size_t k = 0; k < have->n_pools; k++)
			if (strcmp(have->pools[k].name, w->name))
				onyx_pool_map_line(out, have->pools[k].name, true,
						   have->pools[k].priority_mask & w->priority_mask);
		if (h)
			onyx_pool_map_line(out, w->name, true,
					   (uint8_t)(h->priority_mask & ~w->priority_mask));
		if (w->type[0] && (!h || strcmp(h->type, w->type)))
			qg_buf_printf(out, "%d\ttraffic pool %s type %s\n", ONYX_SEC_BUFFER,
				      w->name, w->type);
		if (w->percent_centi >= 0 && (!h || h->percent_centi != w->percent_centi)) {
			char pct[24];
			qg_centi_format(w->percent_centi, pct);
			qg_buf_printf(out, "%d\ttraffic pool %s memory percent %s\n",
				      ONYX_SEC_BUFFER, w->name, pct);
		}
		onyx_pool_map_line(out, w->name, false,
				   (uint8_t)(w->priority_mask & ~(h ? h->priority_mask : 0)));
	}
}

/*
 * The per-port command texts, one formatter each, shared by the diff (and so
 * the generated file) and the rollback: Onyx User Manual 3.10, Interface,
 * QoS and ETS commands. A value at its default gives the "no" form.
 */
void onyx_mtu_text(char *what, size_t len, int mtu)
{
	snprintf(what, len, "mtu %d force", mtu);
}

void onyx_trust_text(char *what, size_t len, const char *trust)
{
	snprintf(what, len, "qos trust %s", trust);
}

/*
 * Congestion control off is Onyx's default for a traffic class (`show
 * interfaces ethernet X congestion-control`: "Mode": "none",
 * shared/fixtures/onyx/onyx_show_interface_congestion_control.cfg); the "no"
 * form is the one mellanox.onyx's onyx_traffic_class.py sends to disable it.
 */
void onyx_cc_text(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
{
	if (t->cc == ONYX_CC_NONE)
		snprintf(what, len, "no traffic-class %d congestion-control", tc);
	else
		snprintf(what, len,
			 "traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d", tc,
			 onyx_cc_modes[t->cc], t->relative ? "relative" : "absolute", t->cc_min,
			 t->relative ? "relative" : "absolute", t->cc_max);
}

/*
 * QG_ETS_UNSET is Onyx's default scheduler for the class, whose values the
 * sources we hold do not document (the running-config prints no line for
 * it): qosgen writes the "no" form rather than a guessed weight. That form is
 * not shown verbatim in those sources either; it follows "no traffic-class T
 * congestion-control" (docs/internals.md, "Push (switches)").
 */
void onyx_ets_text(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
{
	if (t->ets == QG_ETS_UNSET)
		snprintf(what, len, "no traffic-class %d dcb ets", tc);
	else if (t->ets == QG_ETS_STRICT)
		snprintf(what, len, "traffic-class %d dcb ets strict", tc);
	else
		snprintf(what, len, "traffic-class %d dcb ets wrr %d", tc, t->weight);
}

void onyx_config_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *cmds)
{
	struct onyx_groups g = {0};
	char what[128];
	struct onyx_port_cfg dflt;

	/* Section by section, in the order onyx_commands() writes them. */
	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = onyx_port_find(have, &w->id);
		if (!h) {
			onyx_port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		if (w->mtu && w->mtu != h->mtu) {
			onyx_mtu_text(what, sizeof(what), w->mtu);
			onyx_groups_add(&g, what, &w->id);
		}
	}
	onyx_groups_flush(&g, ONYX_SEC_INTERFACE, cmds);

	pool_diff(want, have, cmds);

	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = onyx_port_find(have, &w->id);
		if (!h) {
			onyx_port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		if (w->trust[0] && strcmp(w->trust, h->trust)) {
			onyx_trust_text(what, sizeof(what), w->trust);
			onyx_groups_add(&g, what, &w->id);
		}
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &w->tc[tc], *ht = &h->tc[tc];
			if ((wt->cc == ONYX_CC_NONE && !w->own_tcs) || !onyx_tc_cc_differs(wt, ht))
				continue;
			onyx_cc_text(what, sizeof(what), tc, wt);
			onyx_groups_add(&g, what, &w->id);
		}
	}
	onyx_groups_flush(&g, ONYX_SEC_QOS, cmds);

	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = onyx_port_find(have, &w->id);
		if (!h) {
			onyx_port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &w->tc[tc], *ht = &h->tc[tc];
			if ((wt->ets == QG_ETS_UNSET && !w->own_tcs) ||
			    !onyx_tc_ets_differs(wt, ht))
				continue;
			onyx_ets_text(what, sizeof(what), tc, wt);
			onyx_groups_add(&g, what, &w->id);
		}
	}
	onyx_groups_flush(&g, ONYX_SEC_ETS, cmds);
	onyx_groups_free(&g);
}

bool onyx_cmds_next(const char **cursor, int *section, const char **line, size_t *len)
{
	const char *c = *cursor;
	if (!c || !*c)
		return false;
	const char *tab = strchr(c, '\t'), *end = strchr(c, '\n');
	if (!tab || !end || tab > end)
		return false; /* not a command list: nothing from it is sent */
	*section = atoi(c);
	*line = tab + 1;
	*len = (size_t)(end - tab - 1);
	*cursor = end + 1;
	return true;
}

void onyx_config_emit(const struct onyx_config *want, struct qg_buf *cmds)
{
	/* A switch on which no managed value matches: the same ports, every field off. */
	struct onyx_config none = {0};
	none.ports = calloc(want->n_ports ? want->n_ports : 1, sizeof(*none.ports));
	if (!none.ports) {
		cmds->failed = true;
		return;
	}
	for (size_t i = 0; i < want->n_ports; i++) {
		struct onyx_port_cfg *p = &none.ports[none.n_ports++];
		p->id = want->ports[i].id;
		for (int tc = 0; tc < 8; tc++) {
			/* An owned TC without ECN shows its removal (the "no" form). */
			p->tc[tc].cc =
			    want->ports[i].tc[tc].cc == ONYX_CC_NONE ? ONYX_CC_RED : ONYX_CC_NONE;
			p->tc[tc].cc_min = -1;
			p->tc[tc].ets =
			    want->ports[i].tc[tc].ets == QG_ETS_STRICT ? QG_ETS_WRR : QG_ETS_STRICT;
			p->tc[tc].weight = -1;
		}
	}
	if (none.n_ports > 1)
		qsort(none.ports, none.n_ports, sizeof(*none.ports), onyx_port_cfg_cmp);
	onyx_config_diff(want, &none, cmds);
	free(none.ports);
}
