/* SPDX-License-Identifier: MIT */
/*
 * The Onyx config as data (onyx_config.h): the lookups every side of the
 * read-back and diff shares, and the desired state built from the model. The
 * running-config parser is onyx_parse.c, the judge onyx_judge.c, the command
 * texts and the diff onyx_diff.c, the rollback onyx_restore.c.
 */
#include "onyx_config.h"

#include "../../model/derive.h"
#include "../../model/ports.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void onyx_config_free(struct onyx_config *c)
{
	free(c->pools);
	free(c->ports);
	free(c->splits);
	free(c->blockers);
	memset(c, 0, sizeof(*c));
}

/* Congestion-control modes as the CLI spells them, by enum onyx_cc. */
const char *const onyx_cc_modes[4] = {"", "ecn", "red", "both"};

void onyx_port_defaults(struct onyx_port_cfg *p, const struct qg_port *id)
{
	memset(p, 0, sizeof(*p));
	p->id = *id;
	p->mtu = ONYX_DEFAULT_MTU;
	strcpy(p->trust, ONYX_DEFAULT_TRUST);
}

int onyx_port_cfg_cmp(const void *a, const void *b)
{
	return qg_port_cmp(&((const struct onyx_port_cfg *)a)->id,
			   &((const struct onyx_port_cfg *)b)->id);
}

const struct onyx_port_cfg *onyx_port_find(const struct onyx_config *c, const struct qg_port *id)
{
	struct onyx_port_cfg key = {.id = *id};
	if (c->n_ports == 0)
		return NULL; /* bsearch must not see a NULL array */
	return bsearch(&key, c->ports, c->n_ports, sizeof(*c->ports), onyx_port_cfg_cmp);
}

const struct onyx_pool_cfg *onyx_pool_find(const struct onyx_config *c, const char *name)
{
	for (size_t i = 0; i < c->n_pools; i++)
		if (!strcmp(c->pools[i].name, name))
			return &c->pools[i];
	return NULL;
}

struct onyx_pool_cfg *onyx_pool_get(struct onyx_config *c, const char *name, bool create)
{
	for (size_t i = 0; i < c->n_pools; i++)
		if (!strcmp(c->pools[i].name, name))
			return &c->pools[i];
	if (!create)
		return NULL;
	struct onyx_pool_cfg *v = realloc(c->pools, (c->n_pools + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->pools = v;
	struct onyx_pool_cfg *p = &c->pools[c->n_pools++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->percent_centi = -1;
	return p;
}

/* ---- the desired state ---- */

const struct qg_port_role *onyx_port_role(const struct qg_switch *s, size_t k)
{
	return s->port_role && s->port_role[k] ? &s->roles[s->port_role[k] - 1] : NULL;
}

int onyx_config_from_model(const struct qg_model *m, size_t i, struct onyx_config *out)
{
	const struct qg_switch *s = &m->switches[i];
	const struct qg_qos *q = &m->qos;
	memset(out, 0, sizeof(*out));
	struct onyx_pool_cfg *pool = onyx_pool_get(out, q->pool_name, true);
	out->ports = calloc(s->n_ports ? s->n_ports : 1, sizeof(*out->ports));
	if (!pool || !out->ports) {
		onyx_config_free(out);
		return -ENOMEM;
	}
	snprintf(out->hostname, sizeof(out->hostname), "%s", s->name);
	strcpy(pool->type, "lossless");
	pool->percent_centi = q->pool_percent_centi;
	pool->priority_mask = (uint8_t)(1u << q->lossless.priority);
	/* Fields left zero are not managed: the diff leaves them as they are. */
	for (size_t k = 0; k < s->n_ports; k++) {
		struct onyx_port_cfg *p = &out->ports[out->n_ports++];
		p->id = s->ports[k];
		p->mtu = q->switch_mtu;
		strcpy(p->trust, q->trust == QG_TRUST_DSCP ? "L3" : "L2");
		/*
		 * Every traffic class is owned: ECN on the lossless TC only (any
		 * other TC's congestion control is removed), and the scheduler of
		 * all eight (onyx_ets_plan).
		 */
		p->own_tcs = true;
		onyx_ets_plan(q, p->tc);
		if (q->ecn) {
			/*
			 * Onyx sets ECN per interface and traffic class
			 * (`interface ethernet X traffic-class T
			 * congestion-control ecn minimum-absolute ...`), so a
			 * port role's thresholds (issue 28) are its ports' own
			 * lines; the diff groups equal ports into ranges.
			 */
			const struct qg_port_role *role = onyx_port_role(s, k);
			struct onyx_tc_cfg *t = &p->tc[q->lossless.traffic_class];
			t->cc = ONYX_CC_ECN;
			t->cc_min = role && role->ecn_given ? role->ecn_min_kb : q->ecn_min_kb;
			t->cc_max = role && role->ecn_given ? role->ecn_max_kb : q->ecn_max_kb;
		}
	}
	return 0;
}

int onyx_ets_plan(const struct qg_qos *q, struct onyx_tc_cfg tc[8])
{
	for (int t = 0; t < 8; t++) {
		tc[t].ets = QG_ETS_UNSET;
		tc[t].weight = 0;
	}
	const struct qg_class *cls[2] = {&q->lossless, q->cnp ? &q->cnpc : NULL};
	for (int c = 0; c < 2; c++) {
		if (!cls[c] || cls[c]->ets.mode == QG_ETS_UNSET)
			continue;
		tc[cls[c]->traffic_class].ets = cls[c]->ets.mode;
		tc[cls[c]->traffic_class].weight =
		    cls[c]->ets.mode == QG_ETS_WRR ? cls[c]->ets.weight : 0;
	}
	/*
	 * Onyx weighs a WRR traffic class against the other WRR classes of the
	 * port, not against 100: `show dcb ets interface` prints each class's
	 * weight W and its share W(%) = W / (sum of the port's WRR weights);
	 * shared/fixtures/onyx/onyx_show_dcb_ets_interface.cfg (mellanox.onyx's
	 * test fixture) has six WRR classes of weight 12 or 13 at 16 or 17 %.
	 * So a lossless weight of 50 alone is not 50 % of the port: the classes
	 * the intent does not name get the rest of 100 as explicit weights
	 * (split as evenly as integers allow, the lower TCs taking the odd
	 * units), and the lossless share is then exactly its weight in percent.
	 * Without a WRR lossless class there is no share to keep, and those
	 * classes stay at Onyx's default (no line; "no traffic-class T dcb ets").
	 */
	if (q->lossless.ets.mode != QG_ETS_WRR)
		return 0;
	int rest = 100, n = 0;
	for (int t = 0; t < 8; t++) {
		if (tc[t].ets == QG_ETS_WRR)
			rest -= tc[t].weight;
		else if (tc[t].ets == QG_ETS_UNSET)
			n++;
	}
	if (n == 0)
		return 0;
	if (rest < n)
		return n;
	for (int t = 0, k = 0; t < 8; t++)
		if (tc[t].ets == QG_ETS_UNSET) {
			tc[t].ets = QG_ETS_WRR;
			tc[t].weight = qg_even_share(rest, n, k++);
		}
	return 0;
}
