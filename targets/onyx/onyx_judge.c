/* SPDX-License-Identifier: MIT */
/*
 * What the diff cannot decide: the read-back lines that make the difference
 * from a switch to the intent impossible to compute exactly, each an error at
 * its line (onyx_judge.h).
 */
#include "onyx_judge.h"

#include "../../lib/fixed.h"
#include "../../model/names.h"
#include "../../model/ports.h"
#include "onyx_ports.h"

#include <stdlib.h>
#include <string.h>

bool onyx_config_hostname_matches(const struct onyx_config *have, const char *name,
				  const char *address)
{
	return qg_hostname_matches(have->hostname, name, address);
}

static const struct onyx_split *split_of(const struct onyx_config *c, int module, int port)
{
	for (size_t i = 0; i < c->n_splits; i++)
		if (c->splits[i].module == module && c->splits[i].port == port)
			return &c->splits[i];
	return NULL;
}

/* The first subport line of the read-back under 1/N, if any (a split in effect). */
static const struct onyx_port_cfg *subport_of(const struct onyx_config *c, int module, int port)
{
	for (size_t i = 0; i < c->n_ports; i++)
		if (c->ports[i].id.module == module && c->ports[i].id.port == port &&
		    c->ports[i].id.split)
			return &c->ports[i];
	return NULL;
}

/*
 * A QoS line qosgen does not model, once per line: on every port of want it
 * covers (a range line covers many), named as runs.
 */
static void judge_foreign(const struct onyx_config *want, const struct onyx_config *have,
			  struct qg_diags *d)
{
	struct qg_port *ids = calloc(want->n_ports ? want->n_ports : 1, sizeof(*ids));
	struct qg_port_run *runs = calloc(want->n_ports ? want->n_ports : 1, sizeof(*runs));
	if (!ids || !runs) {
		d->oom = true;
		goto out;
	}
	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *p = onyx_port_find(have, &want->ports[i].id);
		if (!p || !p->foreign.no)
			continue;
		bool seen = false; /* reported with an earlier port of the same line */
		for (size_t k = 0; k < i && !seen; k++) {
			const struct onyx_port_cfg *q = onyx_port_find(have, &want->ports[k].id);
			seen = q && q->foreign.no == p->foreign.no;
		}
		if (seen)
			continue;
		size_t n = 0;
		for (size_t k = i; k < want->n_ports; k++) {
			const struct onyx_port_cfg *q = onyx_port_find(have, &want->ports[k].id);
			if (q && q->foreign.no == p->foreign.no)
				ids[n++] = want->ports[k].id;
		}
		struct qg_buf names = {0};
		size_t nr = qg_port_runs(ids, n, runs);
		for (size_t r = 0; r < nr; r++) {
			char text[QG_PORT_TEXT_LEN];
			onyx_port_run_format(&runs[r], text);
			qg_buf_printf(&names, "%s%s", r ? "," : "", text);
		}
		qg_error(
		    d, (struct qg_pos){p->foreign.no, 1},
		    "'%s': a QoS setting on the intent's port%s %s that qosgen does not model, "
		    "so it cannot say what the port does with RoCE traffic: remove it on the "
		    "switch (its 'no' form), or leave the port out of the intent",
		    p->foreign.text, n == 1 ? "" : "s", names.data ? names.data : "?");
		qg_buf_free(&names);
	}
out:
	free(ids);
	free(runs);
}

/*
 * The intent's subports id[0..n) of one whole port that the switch does
 * not have: "1/17/1-1/17/4" written as one run, so that a port reads as
 * one error, not one per subport (issue 25, item 6).
 */
static void subports_text(const struct qg_port *id, size_t n, char out[QG_PORT_TEXT_LEN])
{
	struct qg_port_run r = {id[0], id[n - 1]};
	if (n == (size_t)(id[n - 1].split - id[0].split) + 1) {
		onyx_port_run_format(&r, out);
		return;
	}
	char first[QG_PORT_TEXT_LEN];
	onyx_port_format(&id[0], first);
	snprintf(out, QG_PORT_TEXT_LEN, "%s and %zu more", first, n - 1);
}

/*
 * The intent's ports of one whole port, id[0..n) (all the port itself, or
 * all its subports), against the switch's split of it: one error at most.
 */
static void judge_port(const struct qg_port *id, size_t n, const struct onyx_config *have,
		       struct qg_diags *d)
{
	char whole[QG_PORT_TEXT_LEN], names[QG_PORT_TEXT_LEN];
	onyx_port_format(&(struct qg_port){id->module, id->port, 0}, whole);
	const struct onyx_split *sp = split_of(have, id->module, id->port);
	if (!id->split && sp) {
		qg_error(d, (struct qg_pos){sp->at.no, 1},
			 "'%s': port %s is split into %d on the switch, and the intent names the "
			 "whole port: name its subports (%s/1-%s/%d) in the switch's ports, or "
			 "unsplit the port first",
			 sp->at.text, whole, sp->ways, whole, whole, sp->ways);
		return;
	}
	if (!id->split)
		return;
	/* The subports past the split's ways (sorted: they are the last ones). */
	size_t from = 0;
	while (sp && from < n && id[from].split <= sp->ways)
		from++;
	if (sp && from == n)
		return;
	if (sp) {
		subports_text(id + from, n - from, names);
		qg_error(d, (struct qg_pos){sp->at.no, 1},
			 "'%s': port %s is split into %d, so %s do%s not exist: correct the "
			 "switch's ports in the intent",
			 sp->at.text, whole, sp->ways, names, n - from == 1 ? "es" : "");
		return;
	}
	if (subport_of(have, id->module, id->port))
		return;
	subports_text(id, n, names);
	qg_error(d, (struct qg_pos){1, 1},
		 "the intent names subport%s %s, but port %s is not split on the switch (no "
		 "'module-type qsfp-split' line for it): split it first ('interface ethernet %s "
		 "module-type qsfp-split-4 force'), or name %s in the intent",
		 n == 1 ? "" : "s", names, whole, whole, whole);
}

static void mask_text(uint8_t mask, char out[24])
{
	size_t o = 0;
	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			o += (size_t)snprintf(out + o, 24 - o, "%s%d", o ? " " : "", p);
	out[o] = '\0';
}

static void judge_pools(const struct onyx_config *want, const struct onyx_config *have,
			struct qg_diags *d)
{
	if (want->n_pools == 0)
		return;
	const struct onyx_pool_cfg *w = &want->pools[0];
	int total = w->percent_centi > 0 ? w->percent_centi : 0, first = 0;
	char mine[24], theirs[24], pct[24];
	mask_text(w->priority_mask, mine);
	for (size_t i = 0; i < have->n_pools; i++) {
		const struct onyx_pool_cfg *h = &have->pools[i];
		if (!strcmp(h->name, w->name))
			continue;
		uint8_t shared = h->priority_mask & w->priority_mask;
		uint8_t other = h->priority_mask & (uint8_t)~w->priority_mask;
		mask_text(shared ? shared : other, theirs);
		/* A read-back's name goes into a command only when it is a name qosgen would write.
		 */
		if (shared && !qg_pool_name_ok(h->name)) {
			qg_error(
			    d, (struct qg_pos){h->line, 1},
			    "traffic pool '%s' owns switch-priority %s, and qosgen sends no pool "
			    "name outside %s: free the priority on the switch",
			    h->name, theirs, QG_POOL_RULE);
			continue;
		}
		if (shared && !other) {
			qg_error(
			    d, (struct qg_pos){h->line, 1},
			    "traffic pool '%s' owns switch-priority %s, which the intent gives "
			    "to its pool '%s'; taking it away would leave '%s' with no "
			    "priority and its buffer still reserved: set "
			    "qos.lossless.pool.name to '%s' to adopt that pool, or remove it on "
			    "the switch ('no traffic pool %s')",
			    h->name, theirs, w->name, h->name, h->name, h->name);
			continue;
		}
		if (other && !strcmp(h->type, "lossless"))
			qg_error(
			    d, (struct qg_pos){h->line, 1},
			    "traffic pool '%s' is lossless on switch-priority %s, besides the "
			    "intent's lossless priority %s: PFC would pause that priority too; "
			    "qosgen does not remove another pool: remove it ('no traffic pool "
			    "%s') or make it lossy ('traffic pool %s type lossy') on the switch",
			    h->name, theirs, mine, h->name, h->name);
		if (h->percent_centi > 0) {
			total += h->percent_centi;
			first = first ? first : h->line;
		}
	}
	if (total > 10000) {
		qg_centi_format(total, pct);
		qg_error(
		    d, (struct qg_pos){first ? first : 1, 1},
		    "the traffic pools would take %s %% of the buffer with the intent's pool "
		    "'%s': lower qos.lossless.pool.memory_percent, or shrink or remove another "
		    "pool on the switch",
		    pct, w->name);
		for (size_t i = 0; i < have->n_pools; i++) {
			const struct onyx_pool_cfg *h = &have->pools[i];
			if (strcmp(h->name, w->name) && h->percent_centi > 0) {
				qg_centi_format(h->percent_centi, pct);
				qg_note(d, (struct qg_pos){h->line, 1},
					"traffic pool '%s' has %s %%", h->name, pct);
			}
		}
	}
}

int onyx_config_judge(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_diags *d)
{
	size_t before = d->errors;
	for (size_t i = 0; i < have->n_blockers; i++)
		qg_error(d, (struct qg_pos){have->blockers[i].at.no, 1}, "'%s': %s",
			 have->blockers[i].at.text, have->blockers[i].why);
	uint8_t lossless = want->n_pools ? want->pools[0].priority_mask : 0;
	for (int p = 0; p < 8; p++)
		if (have->pfc[p].no && !(lossless & (1u << p)))
			qg_error(
			    d, (struct qg_pos){have->pfc[p].no, 1},
			    "'%s': PFC is enabled on switch-priority %d, which the intent does "
			    "not make lossless; qosgen does not turn off PFC it did not set: "
			    "'no dcb priority-flow-control priority %d enable' on the switch, or "
			    "make it the intent's lossless priority",
			    have->pfc[p].text, p, p);
	/* A whole port at a time: its subports are next to each other (sorted). */
	struct qg_port *ids = want->n_ports ? malloc(want->n_ports * sizeof(*ids)) : NULL;
	if (want->n_ports && !ids)
		d->oom = true;
	for (size_t i = 0, j; ids && i < want->n_ports; i = j) {
		const struct qg_port *a = &want->ports[i].id;
		for (j = i;
		     j < want->n_ports && want->ports[j].id.module == a->module &&
		     want->ports[j].id.port == a->port && !want->ports[j].id.split == !a->split;
		     j++)
			ids[j - i] = want->ports[j].id;
		judge_port(ids, j - i, have, d);
	}
	free(ids);
	judge_foreign(want, have, d);
	judge_pools(want, have, d);
	return (int)(d->errors - before);
}
