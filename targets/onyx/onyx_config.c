/* SPDX-License-Identifier: MIT */
/*
 * Read-back and diff for Onyx. The line forms parsed are the ones qosgen
 * writes (onyx.c) as Onyx prints them in `show running-config`: the reference
 * configuration in shared/seeds/000, and the range and indentation shapes of
 * shared/fixtures/onyx/onyx_config_config.cfg. Congestion control is also read
 * in its red / both / relative forms (onyx_traffic_class.py writes them), so a
 * switch configured by other means diffs correctly.
 */
#include "onyx_config.h"

#include "../../gen/fixed.h"
#include "../../gen/ports.h"
#include "onyx.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void onyx_config_free(struct onyx_config *c)
{
	free(c->pools);
	free(c->ports);
	memset(c, 0, sizeof(*c));
}

/* ---- ports by id: a direct index, since Onyx port ids are small ---- */

#define PORT_SLOTS (QG_PORT_MODULE_MAX * (QG_PORT_NUMBER_MAX + 1) * (QG_PORT_SPLIT_MAX + 1))

static size_t port_slot(const struct qg_port *p)
{
	return ((size_t)(p->module - 1) * (QG_PORT_NUMBER_MAX + 1) + p->port) *
		   (QG_PORT_SPLIT_MAX + 1) +
	       p->split;
}

static void port_defaults(struct onyx_port_cfg *p, const struct qg_port *id)
{
	memset(p, 0, sizeof(*p));
	p->id = *id;
	p->mtu = ONYX_DEFAULT_MTU;
	strcpy(p->trust, ONYX_DEFAULT_TRUST);
}

struct port_index {
	int32_t *slot; /* PORT_SLOTS entries: index into ports + 1, 0 = none */
	size_t cap;
};

static struct onyx_port_cfg *port_get(struct onyx_config *c, struct port_index *ix,
				      const struct qg_port *id)
{
	size_t s = port_slot(id);
	if (ix->slot[s])
		return &c->ports[ix->slot[s] - 1];
	if (c->n_ports == ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 64;
		struct onyx_port_cfg *v = realloc(c->ports, cap * sizeof(*v));
		if (!v)
			return NULL;
		c->ports = v;
		ix->cap = cap;
	}
	struct onyx_port_cfg *p = &c->ports[c->n_ports++];
	port_defaults(p, id);
	ix->slot[s] = (int32_t)c->n_ports;
	return p;
}

static int port_cfg_cmp(const void *a, const void *b)
{
	return qg_port_cmp(&((const struct onyx_port_cfg *)a)->id,
			   &((const struct onyx_port_cfg *)b)->id);
}

static const struct onyx_port_cfg *port_find(const struct onyx_config *c, const struct qg_port *id)
{
	struct onyx_port_cfg key = {.id = *id};
	if (c->n_ports == 0)
		return NULL; /* bsearch must not see a NULL array */
	return bsearch(&key, c->ports, c->n_ports, sizeof(*c->ports), port_cfg_cmp);
}

static const struct onyx_pool_cfg *pool_find(const struct onyx_config *c, const char *name)
{
	for (size_t i = 0; i < c->n_pools; i++)
		if (!strcmp(c->pools[i].name, name))
			return &c->pools[i];
	return NULL;
}

static struct onyx_pool_cfg *pool_get(struct onyx_config *c, const char *name, bool create)
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

int onyx_config_from_model(const struct qg_model *m, size_t i, struct onyx_config *out)
{
	const struct qg_switch *s = &m->switches[i];
	const struct qg_qos *q = &m->qos;
	memset(out, 0, sizeof(*out));
	struct onyx_pool_cfg *pool = pool_get(out, q->pool_name, true);
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
		if (q->ecn) {
			struct onyx_tc_cfg *t = &p->tc[q->lossless.traffic_class];
			t->cc = ONYX_CC_ECN;
			t->cc_min = q->ecn_min_kb;
			t->cc_max = q->ecn_max_kb;
		}
		const struct qg_class *cls[2] = {&q->lossless, q->cnp ? &q->cnpc : NULL};
		for (int c = 0; c < 2; c++) {
			if (!cls[c] || cls[c]->ets.mode == QG_ETS_UNSET)
				continue;
			p->tc[cls[c]->traffic_class].ets = cls[c]->ets.mode;
			p->tc[cls[c]->traffic_class].weight = cls[c]->ets.weight;
		}
	}
	return 0;
}

/* ---- parsing show running-config ---- */

#define MAX_WORDS 24

static size_t split_words(char *line, char *w[MAX_WORDS])
{
	size_t n = 0;
	for (char *t = strtok(line, " \t\r"); t && n < MAX_WORDS; t = strtok(NULL, " \t\r"))
		w[n++] = t;
	return n;
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

/* Apply "traffic pool NAME ..." (w[0..1] = traffic pool). */
static bool parse_pool(struct onyx_config *c, char **w, size_t n)
{
	if (n < 5 || strlen(w[2]) >= QG_POOL_LEN)
		return false;
	struct onyx_pool_cfg *p = pool_get(c, w[2], true);
	if (!p)
		return false;
	if (!strcmp(w[3], "type") && n == 5 && strlen(w[4]) < sizeof(p->type)) {
		strcpy(p->type, w[4]);
		return true;
	}
	int64_t centi;
	if (!strcmp(w[3], "memory") && n == 6 && !strcmp(w[4], "percent") &&
	    qg_fixed_parse(w[5], 2, &centi) && centi <= 10000) {
		p->percent_centi = (int)centi;
		return true;
	}
	if (!strcmp(w[3], "map") && n >= 6 && !strcmp(w[4], "switch-priority")) {
		for (size_t k = 5; k < n; k++) {
			int prio;
			if (!parse_int(w[k], 0, 7, &prio))
				return false;
			p->priority_mask |= (uint8_t)(1u << prio);
		}
		return true;
	}
	return false;
}

/*
 * Apply the part after "interface ethernet RANGE" to one port. Returns 1 when
 * applied, 0 when the line is not one qosgen manages, -1 when it is but its
 * values cannot be read.
 */
static int apply_port(struct onyx_port_cfg *p, char **w, size_t n)
{
	int tc;
	if (n >= 2 && !strcmp(w[0], "mtu")) {
		if ((n == 2 || (n == 3 && !strcmp(w[2], "force"))) &&
		    parse_int(w[1], 68, 16000, &p->mtu))
			return 1;
		return -1;
	}
	if (n >= 2 && !strcmp(w[0], "qos") && !strcmp(w[1], "trust")) {
		if (n == 3 && (!strcmp(w[2], "L2") || !strcmp(w[2], "L3") ||
			       !strcmp(w[2], "both") || !strcmp(w[2], "port"))) {
			strcpy(p->trust, w[2]);
			return 1;
		}
		return -1;
	}
	if (n < 3 || strcmp(w[0], "traffic-class"))
		return 0;
	if (!parse_int(w[1], 0, 7, &tc))
		return -1;
	struct onyx_tc_cfg *t = &p->tc[tc];
	if (!strcmp(w[2], "congestion-control")) {
		static const char *const modes[] = {"", "ecn", "red", "both"};
		if (n != 8)
			return -1;
		int mode = 0;
		for (int k = 1; k < 4; k++)
			if (!strcmp(w[3], modes[k]))
				mode = k;
		bool rel = !strcmp(w[4], "minimum-relative") && !strcmp(w[6], "maximum-relative");
		bool abs = !strcmp(w[4], "minimum-absolute") && !strcmp(w[6], "maximum-absolute");
		if (!mode || !(rel || abs) || !parse_int(w[5], 0, 1000000, &t->cc_min) ||
		    !parse_int(w[7], 0, 1000000, &t->cc_max))
			return -1;
		t->cc = (enum onyx_cc)mode;
		t->relative = rel;
		return 1;
	}
	if (!strcmp(w[2], "dcb") && n >= 5 && !strcmp(w[3], "ets")) {
		if (n == 5 && !strcmp(w[4], "strict")) {
			t->ets = QG_ETS_STRICT;
			return 1;
		}
		if (n == 6 && !strcmp(w[4], "wrr") && parse_int(w[5], 1, 100, &t->weight)) {
			t->ets = QG_ETS_WRR;
			return 1;
		}
		return -1;
	}
	return 0;
}

int onyx_config_parse(const char *text, struct onyx_config *out, struct qg_diags *d)
{
	memset(out, 0, sizeof(*out));
	struct port_index ix = {.slot = calloc(PORT_SLOTS, sizeof(int32_t))};
	char *copy = strdup(text);
	if (!ix.slot || !copy) {
		free(ix.slot);
		free(copy);
		return -ENOMEM;
	}
	int rc = 0, lineno = 0;
	for (char *line = copy, *next; line && rc == 0; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '#' || *line == '\0' || *line == '\r')
			continue;
		char raw[512];
		snprintf(raw, sizeof(raw), "%s", line);
		char *w[MAX_WORDS];
		size_t n = split_words(line, w);
		struct qg_pos pos = {lineno, 1};
		if (n == 2 && !strcmp(w[0], "hostname")) {
			snprintf(out->hostname, sizeof(out->hostname), "%s", w[1]);
			continue;
		}
		if (n >= 2 && !strcmp(w[0], "traffic") && !strcmp(w[1], "pool")) {
			if (!parse_pool(out, w, n))
				qg_warning(d, pos, "cannot read '%s'; line skipped", raw);
			continue;
		}
		if (n < 4 || strcmp(w[0], "interface") || strcmp(w[1], "ethernet"))
			continue;
		/* Classify on a scratch port first: unmanaged lines touch no port. */
		struct onyx_port_cfg probe;
		port_defaults(&probe, &(struct qg_port){1, 1, 0});
		int kind = apply_port(&probe, w + 3, n - 3);
		if (kind == 0)
			continue;
		if (kind < 0) {
			qg_warning(d, pos, "cannot read '%s'; line skipped", raw);
			continue;
		}
		struct qg_port *ports;
		size_t np;
		char err[200];
		if (qg_port_parse(w[2], &ports, &np, err, sizeof(err)) != 0) {
			qg_warning(d, pos, "cannot read the ports of '%s' (%s); line skipped", raw,
				   err);
			continue;
		}
		for (size_t k = 0; k < np && rc == 0; k++) {
			struct onyx_port_cfg *p = port_get(out, &ix, &ports[k]);
			if (!p)
				rc = -ENOMEM;
			else
				apply_port(p, w + 3, n - 3);
		}
		free(ports);
	}
	free(copy);
	free(ix.slot);
	if (rc)
		onyx_config_free(out);
	else if (out->n_ports > 1)
		qsort(out->ports, out->n_ports, sizeof(*out->ports), port_cfg_cmp);
	return rc;
}

/* ---- diff ---- */

/* Ports that need the same command, in port order. */
struct group {
	char what[128];
	struct qg_port *ports;
	size_t n;
};

struct groups {
	struct group v[16];
	size_t n;
	bool oom;
};

static void group_add(struct groups *g, const char *what, const struct qg_port *id)
{
	struct group *x = NULL;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].what, what))
			x = &g->v[i];
	if (!x) {
		if (g->n == sizeof(g->v) / sizeof(g->v[0])) {
			g->oom = true;
			return;
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
static void groups_flush(struct groups *g, int section, struct qg_buf *out)
{
	if (g->oom)
		out->failed = true;
	for (size_t i = 0; i < g->n; i++) {
		struct group *x = &g->v[i];
		struct qg_port_run *runs = calloc(x->n ? x->n : 1, sizeof(*runs));
		if (!runs) {
			out->failed = true;
		} else {
			size_t nr = qg_port_runs(x->ports, x->n, runs);
			for (size_t r = 0; r < nr; r++) {
				char text[2 * QG_PORT_TEXT_LEN];
				qg_port_run_format(&runs[r], text);
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

static bool tc_cc_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	return have->cc != want->cc || have->relative != want->relative ||
	       have->cc_min != want->cc_min || have->cc_max != want->cc_max;
}

static bool tc_ets_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	return have->ets != want->ets || (want->ets == QG_ETS_WRR && have->weight != want->weight);
}

static void pool_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *out)
{
	for (size_t i = 0; i < want->n_pools; i++) {
		const struct onyx_pool_cfg *w = &want->pools[i];
		const struct onyx_pool_cfg *h = pool_find(have, w->name);
		if (w->type[0] && (!h || strcmp(h->type, w->type)))
			qg_buf_printf(out, "%d\ttraffic pool %s type %s\n", ONYX_SEC_BUFFER,
				      w->name, w->type);
		if (w->percent_centi >= 0 && (!h || h->percent_centi != w->percent_centi)) {
			char pct[24];
			qg_centi_format(w->percent_centi, pct);
			qg_buf_printf(out, "%d\ttraffic pool %s memory percent %s\n",
				      ONYX_SEC_BUFFER, w->name, pct);
		}
		uint8_t missing = (uint8_t)(w->priority_mask & ~(h ? h->priority_mask : 0));
		if (missing) {
			qg_buf_printf(out, "%d\ttraffic pool %s map switch-priority",
				      ONYX_SEC_BUFFER, w->name);
			for (int p = 0; p < 8; p++)
				if (missing & (1u << p))
					qg_buf_printf(out, " %d", p);
			qg_buf_puts(out, "\n");
		}
	}
}

void onyx_config_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *cmds)
{
	struct groups g = {0};
	char what[128];
	struct onyx_port_cfg dflt;

	/* Section by section, in the order onyx_commands() writes them. */
	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = port_find(have, &w->id);
		if (!h) {
			port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		if (w->mtu && w->mtu != h->mtu) {
			snprintf(what, sizeof(what), "mtu %d force", w->mtu);
			group_add(&g, what, &w->id);
		}
	}
	groups_flush(&g, ONYX_SEC_INTERFACE, cmds);

	pool_diff(want, have, cmds);

	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = port_find(have, &w->id);
		if (!h) {
			port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		if (w->trust[0] && strcmp(w->trust, h->trust)) {
			snprintf(what, sizeof(what), "qos trust %s", w->trust);
			group_add(&g, what, &w->id);
		}
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &w->tc[tc], *ht = &h->tc[tc];
			if (wt->cc == ONYX_CC_NONE || !tc_cc_differs(wt, ht))
				continue;
			static const char *const modes[] = {"", "ecn", "red", "both"};
			snprintf(
			    what, sizeof(what),
			    "traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d",
			    tc, modes[wt->cc], wt->relative ? "relative" : "absolute", wt->cc_min,
			    wt->relative ? "relative" : "absolute", wt->cc_max);
			group_add(&g, what, &w->id);
		}
	}
	groups_flush(&g, ONYX_SEC_QOS, cmds);

	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *w = &want->ports[i], *h = port_find(have, &w->id);
		if (!h) {
			port_defaults(&dflt, &w->id);
			h = &dflt;
		}
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &w->tc[tc], *ht = &h->tc[tc];
			if (wt->ets == QG_ETS_UNSET || !tc_ets_differs(wt, ht))
				continue;
			if (wt->ets == QG_ETS_STRICT)
				snprintf(what, sizeof(what), "traffic-class %d dcb ets strict", tc);
			else
				snprintf(what, sizeof(what), "traffic-class %d dcb ets wrr %d", tc,
					 wt->weight);
			group_add(&g, what, &w->id);
		}
	}
	groups_flush(&g, ONYX_SEC_ETS, cmds);
}

/* ---- restore ---- */

static void cc_line(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
{
	static const char *const modes[] = {"", "ecn", "red", "both"};
	if (t->cc == ONYX_CC_NONE)
		snprintf(what, len, "no traffic-class %d congestion-control", tc);
	else
		snprintf(what, len,
			 "traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d", tc,
			 modes[t->cc], t->relative ? "relative" : "absolute", t->cc_min,
			 t->relative ? "relative" : "absolute", t->cc_max);
}

static void ets_line(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
{
	if (t->ets == QG_ETS_UNSET)
		snprintf(what, len, "no traffic-class %d dcb ets", tc);
	else if (t->ets == QG_ETS_STRICT)
		snprintf(what, len, "traffic-class %d dcb ets strict", tc);
	else
		snprintf(what, len, "traffic-class %d dcb ets wrr %d", tc, t->weight);
}

static void pool_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *out)
{
	for (size_t i = 0; i < scope->n_pools; i++) {
		const char *name = scope->pools[i].name;
		const struct onyx_pool_cfg *b = pool_find(before, name), *n = pool_find(now, name);
		if (!b && !n)
			continue;
		if (!b) {
			qg_buf_printf(out, "%d\tno traffic pool %s\n", ONYX_SEC_BUFFER, name);
			continue;
		}
		if (b->type[0] && (!n || strcmp(b->type, n->type)))
			qg_buf_printf(out, "%d\ttraffic pool %s type %s\n", ONYX_SEC_BUFFER, name,
				      b->type);
		if (b->percent_centi >= 0 && (!n || n->percent_centi != b->percent_centi)) {
			char pct[24];
			qg_centi_format(b->percent_centi, pct);
			qg_buf_printf(out, "%d\ttraffic pool %s memory percent %s\n",
				      ONYX_SEC_BUFFER, name, pct);
		}
		uint8_t have = n ? n->priority_mask : 0;
		uint8_t extra = (uint8_t)(have & ~b->priority_mask);
		uint8_t missing = (uint8_t)(b->priority_mask & ~have);
		for (int k = 0; k < 2; k++) {
			uint8_t m = k == 0 ? extra : missing;
			if (!m)
				continue;
			qg_buf_printf(out, "%d\ttraffic pool %s %smap switch-priority",
				      ONYX_SEC_BUFFER, name, k == 0 ? "no " : "");
			for (int p = 0; p < 8; p++)
				if (m & (1u << p))
					qg_buf_printf(out, " %d", p);
			qg_buf_puts(out, "\n");
		}
	}
}

void onyx_config_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *cmds)
{
	struct groups g = {0};
	char what[128];
	struct onyx_port_cfg bd, nd;
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 1)
			pool_restore(scope, before, now, cmds);
		for (size_t i = 0; i < scope->n_ports; i++) {
			const struct onyx_port_cfg *w = &scope->ports[i];
			const struct onyx_port_cfg *b = port_find(before, &w->id);
			const struct onyx_port_cfg *n = port_find(now, &w->id);
			if (!b) {
				port_defaults(&bd, &w->id);
				b = &bd;
			}
			if (!n) {
				port_defaults(&nd, &w->id);
				n = &nd;
			}
			if (pass == 0 && w->mtu && b->mtu != n->mtu) {
				snprintf(what, sizeof(what), "mtu %d force", b->mtu);
				group_add(&g, what, &w->id);
			}
			if (pass == 1 && w->trust[0] && strcmp(b->trust, n->trust)) {
				snprintf(what, sizeof(what), "qos trust %s", b->trust);
				group_add(&g, what, &w->id);
			}
			for (int tc = 0; tc < 8; tc++) {
				if (pass == 1 && w->tc[tc].cc != ONYX_CC_NONE &&
				    tc_cc_differs(&b->tc[tc], &n->tc[tc])) {
					cc_line(what, sizeof(what), tc, &b->tc[tc]);
					group_add(&g, what, &w->id);
				}
				if (pass == 2 && w->tc[tc].ets != QG_ETS_UNSET &&
				    tc_ets_differs(&b->tc[tc], &n->tc[tc])) {
					ets_line(what, sizeof(what), tc, &b->tc[tc]);
					group_add(&g, what, &w->id);
				}
			}
		}
		groups_flush(&g,
			     pass == 0	 ? ONYX_SEC_INTERFACE
			     : pass == 1 ? ONYX_SEC_QOS
					 : ONYX_SEC_ETS,
			     cmds);
	}
}
