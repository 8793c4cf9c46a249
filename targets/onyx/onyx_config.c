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
#include "../../gen/names.h"
#include "../../gen/ports.h"
#include "onyx.h"
#include "onyx_ports.h"
#include "onyx_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void onyx_config_free(struct onyx_config *c)
{
	free(c->pools);
	free(c->ports);
	free(c->splits);
	free(c->blockers);
	memset(c, 0, sizeof(*c));
}

/* Congestion-control modes as the CLI spells them, by enum onyx_cc. */
static const char *const cc_modes[] = {"", "ecn", "red", "both"};

static void line_keep(struct onyx_line *l, int no, const char *text)
{
	l->no = no;
	snprintf(l->text, sizeof(l->text), "%s", text);
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
		/*
		 * Every traffic class is owned: ECN on the lossless TC only (any
		 * other TC's congestion control is removed), and the scheduler of
		 * all eight (onyx_ets_plan).
		 */
		p->own_tcs = true;
		onyx_ets_plan(q, p->tc);
		if (q->ecn) {
			struct onyx_tc_cfg *t = &p->tc[q->lossless.traffic_class];
			t->cc = ONYX_CC_ECN;
			t->cc_min = q->ecn_min_kb;
			t->cc_max = q->ecn_max_kb;
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
			tc[t].weight = rest / n + (k++ < rest % n ? 1 : 0);
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

/* Apply "traffic pool NAME ..." (w[0..1] = traffic pool) read at line lineno. */
static bool parse_pool(struct onyx_config *c, char **w, size_t n, int lineno)
{
	if (n < 5 || strlen(w[2]) >= QG_POOL_LEN)
		return false;
	struct onyx_pool_cfg *p = pool_get(c, w[2], true);
	if (!p)
		return false;
	if (!p->line)
		p->line = lineno;
	/*
	 * Only the types Onyx documents (Shared Buffer Commands): a read-back value
	 * goes back into the switch in a rollback, so nothing else is kept.
	 */
	if (!strcmp(w[3], "type") && n == 5 &&
	    (!strcmp(w[4], "lossless") || !strcmp(w[4], "lossy") || !strcmp(w[4], "lossy-mc"))) {
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
 * "no traffic pool NAME" and "no traffic pool NAME map switch-priority P..."
 * (w[0..2] = no traffic pool): a running-config never prints them, but a
 * read-back followed by the commands qosgen sent must read as the switch's
 * new state (the fuzz target's convergence oracle does exactly that).
 */
static bool parse_no_pool(struct onyx_config *c, char **w, size_t n)
{
	if (n < 4)
		return false;
	struct onyx_pool_cfg *p = pool_get(c, w[3], false);
	if (n == 4) {
		if (p)
			*p = c->pools[--c->n_pools];
		return true;
	}
	if (n < 7 || strcmp(w[4], "map") || strcmp(w[5], "switch-priority"))
		return false;
	for (size_t k = 6; k < n; k++) {
		int prio;
		if (!parse_int(w[k], 0, 7, &prio))
			return false;
		if (p)
			p->priority_mask &= (uint8_t) ~(1u << prio);
	}
	return true;
}

/*
 * A QoS setting on a port that qosgen does not model, so that it cannot say
 * what the port does with its traffic: a switch-priority to traffic-class
 * binding, a rewrite or default priority, an advanced-mode buffer binding.
 * Per-port PFC mode is not one: PFC follows the lossless pool's priorities
 * (onyx.c), and the global priority list is judged on its own.
 */
static bool foreign_qos(char **w, size_t n)
{
	if (!strcmp(w[0], "qos"))
		return n < 2 || strcmp(w[1], "trust");
	if (!strcmp(w[0], "traffic-class"))
		return n < 3 || (strcmp(w[2], "congestion-control") && strcmp(w[2], "dcb"));
	return !strcmp(w[0], "ingress-buffer") || !strcmp(w[0], "egress-buffer");
}

/*
 * Apply the part after "interface ethernet RANGE" to one port. Returns 1 when
 * applied, 0 when the line is not one qosgen manages, 2 when it is a QoS line
 * qosgen does not model (foreign_qos), -1 when it is managed but its values
 * cannot be read.
 */
static int apply_port(struct onyx_port_cfg *p, char **w, size_t n)
{
	int tc;
	if (foreign_qos(w, n))
		return 2;
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
	/*
	 * The "no" forms qosgen sends (a running-config never prints them): read
	 * after a read-back they give the switch's new state, as in the fuzz
	 * target's convergence oracle. mellanox.onyx's onyx_traffic_class sends
	 * "interface ethernet X no traffic-class T congestion-control".
	 */
	if (n >= 3 && !strcmp(w[0], "no") && !strcmp(w[1], "traffic-class")) {
		if (!parse_int(w[2], 0, 7, &tc))
			return -1;
		if (n == 4 && !strcmp(w[3], "congestion-control")) {
			p->tc[tc].cc = ONYX_CC_NONE;
			p->tc[tc].relative = false;
			p->tc[tc].cc_min = p->tc[tc].cc_max = 0;
			return 1;
		}
		if (n == 5 && !strcmp(w[3], "dcb") && !strcmp(w[4], "ets")) {
			p->tc[tc].ets = QG_ETS_UNSET;
			p->tc[tc].weight = 0;
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
		if (n != 8)
			return -1;
		int mode = 0;
		for (int k = 1; k < 4; k++)
			if (!strcmp(w[3], cc_modes[k]))
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

static int add_split(struct onyx_config *c, const struct qg_port *id, int ways, int lineno,
		     const char *raw)
{
	struct onyx_split *v = realloc(c->splits, (c->n_splits + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->splits = v;
	struct onyx_split *x = &c->splits[c->n_splits++];
	x->module = id->module;
	x->port = id->port;
	x->ways = ways;
	line_keep(&x->at, lineno, raw);
	return 0;
}

static int add_blocker(struct onyx_config *c, int lineno, const char *raw, const char *why)
{
	struct onyx_blocker *v = realloc(c->blockers, (c->n_blockers + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->blockers = v;
	struct onyx_blocker *x = &c->blockers[c->n_blockers++];
	line_keep(&x->at, lineno, raw);
	x->why = why;
	return 0;
}

/*
 * Switch-wide lines that make the QoS of every port impossible to judge.
 * Returns the reason, or NULL.
 */
static const char *switch_blocker(char **w, size_t n)
{
	/* Onyx User Manual, Shared Buffer: "advanced buffer management" replaces the
	 * basic-mode traffic pools with pools, ingress and egress buffers per port. */
	if (n >= 2 && !strcmp(w[0], "advanced") && !strcmp(w[1], "buffer"))
		return "the switch is in advanced buffer mode, where basic-mode traffic pools are "
		       "not used; qosgen writes basic-mode pools and cannot judge these buffers: "
		       "configure this switch's buffers by hand, or return it to basic mode first";
	/* The `roce` command (Onyx 3.8.2000+) configures trust, pools, ECN and ETS itself. */
	if (n >= 1 && !strcmp(w[0], "roce"))
		return "Onyx's RoCE auto-configuration ('roce') owns trust, the RoCE pools, ECN "
		       "and ETS on this switch; qosgen cannot judge settings it derives: use 'no "
		       "roce' before managing the switch with qosgen, or keep 'roce' alone";
	return NULL;
}

/* "interface ethernet 1/N module-type qsfp-split-K force": K, or 0 when not a split. */
static int split_ways(char **w, size_t n)
{
	int ways;
	if (n < 5 || strcmp(w[3], "module-type") || strncmp(w[4], "qsfp-split-", 11))
		return 0;
	return parse_int(w[4] + 11, 2, QG_PORT_SPLIT_MAX, &ways) ? ways : -1;
}

int onyx_config_parse(const char *text, size_t len, struct onyx_config *out, struct qg_diags *d)
{
	memset(out, 0, sizeof(*out));
	size_t skip;
	if (onyx_text_check(text, len, &skip, d) != 0)
		return -EINVAL;
	struct port_index ix = {.slot = calloc(PORT_SLOTS, sizeof(int32_t))};
	char *copy = strndup(text + skip, len - skip);
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
		raw[strcspn(raw, "\r")] = '\0';
		char *w[MAX_WORDS];
		size_t n = split_words(line, w);
		struct qg_pos pos = {lineno, 1};
		if (n == 2 && !strcmp(w[0], "hostname")) {
			snprintf(out->hostname, sizeof(out->hostname), "%s", w[1]);
			out->hostname_line = lineno;
			continue;
		}
		if (n >= 2 && !strcmp(w[0], "traffic") && !strcmp(w[1], "pool")) {
			if (!parse_pool(out, w, n, lineno))
				qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
					   "cannot read '%s'; line skipped", raw);
			continue;
		}
		if (n >= 3 && !strcmp(w[0], "no") && !strcmp(w[1], "traffic") &&
		    !strcmp(w[2], "pool")) {
			if (!parse_no_pool(out, w, n))
				qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
					   "cannot read '%s'; line skipped", raw);
			continue;
		}
		const char *why = switch_blocker(w, n);
		if (why) {
			rc = add_blocker(out, lineno, raw, why);
			continue;
		}
		int prio;
		if (n == 5 && !strcmp(w[0], "dcb") && !strcmp(w[1], "priority-flow-control") &&
		    !strcmp(w[2], "priority") && !strcmp(w[4], "enable") &&
		    parse_int(w[3], 0, 7, &prio)) {
			line_keep(&out->pfc[prio], lineno, raw);
			continue;
		}
		if (n < 4 || strcmp(w[0], "interface") || strcmp(w[1], "ethernet"))
			continue;
		struct qg_port *ports;
		size_t np;
		char err[200];
		int ways = split_ways(w, n);
		if (ways != 0) {
			if (ways < 0 || onyx_port_parse(w[2], &ports, &np, err, sizeof(err)) != 0) {
				qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
					   "cannot read the split of '%s'; line skipped", raw);
				continue;
			}
			for (size_t k = 0; k < np && rc == 0; k++)
				rc = add_split(out, &ports[k], ways, lineno, raw);
			free(ports);
			continue;
		}
		/* Classify on a scratch port first: unmanaged lines touch no port. */
		struct onyx_port_cfg probe;
		port_defaults(&probe, &(struct qg_port){1, 1, 0});
		int kind = apply_port(&probe, w + 3, n - 3);
		if (kind == 0)
			continue;
		if (kind < 0) {
			qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
				   "cannot read '%s'; line skipped", raw);
			continue;
		}
		if (onyx_port_parse(w[2], &ports, &np, err, sizeof(err)) != 0) {
			qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
				   "cannot read the ports of '%s' (%s); line skipped", raw, err);
			continue;
		}
		for (size_t k = 0; k < np && rc == 0; k++) {
			struct onyx_port_cfg *p = port_get(out, &ix, &ports[k]);
			if (!p)
				rc = -ENOMEM;
			else if (kind == 2 && !p->foreign.no)
				line_keep(&p->foreign, lineno, raw);
			else if (kind == 1)
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

bool onyx_config_hostname_matches(const struct onyx_config *have, const char *name,
				  const char *address)
{
	return qg_hostname_matches(have->hostname, name, address);
}

/* ---- judge: what the diff cannot decide ---- */

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
		const struct onyx_port_cfg *p = port_find(have, &want->ports[i].id);
		if (!p || !p->foreign.no)
			continue;
		bool seen = false; /* reported with an earlier port of the same line */
		for (size_t k = 0; k < i && !seen; k++) {
			const struct onyx_port_cfg *q = port_find(have, &want->ports[k].id);
			seen = q && q->foreign.no == p->foreign.no;
		}
		if (seen)
			continue;
		size_t n = 0;
		for (size_t k = i; k < want->n_ports; k++) {
			const struct onyx_port_cfg *q = port_find(have, &want->ports[k].id);
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

/* ---- diff ---- */

/* Ports that need the same command, in port order. */
struct group {
	char what[128];
	struct qg_port *ports;
	size_t n;
};

/*
 * As many groups as distinct commands: a rollback may need one per port (20
 * ports, 20 earlier MTUs), so there is no fixed cap to fall off.
 */
struct groups {
	struct group *v;
	size_t n, cap;
	bool oom;
};

static void group_add(struct groups *g, const char *what, const struct qg_port *id)
{
	struct group *x = NULL;
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->v[i].what, what))
			x = &g->v[i];
	if (!x) {
		if (g->n == g->cap) {
			size_t cap = g->cap ? g->cap * 2 : 8;
			struct group *v = realloc(g->v, cap * sizeof(*v));
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

static void groups_free(struct groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i].ports);
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static bool tc_cc_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	/* Off is off, whatever thresholds a struct carries. */
	if (want->cc == ONYX_CC_NONE || have->cc == ONYX_CC_NONE)
		return want->cc != have->cc;
	return have->cc != want->cc || have->relative != want->relative ||
	       have->cc_min != want->cc_min || have->cc_max != want->cc_max;
}

static bool tc_ets_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have)
{
	return have->ets != want->ets || (want->ets == QG_ETS_WRR && have->weight != want->weight);
}

/* "traffic pool NAME [no ]map switch-priority P ...", in Onyx's documented flat form. */
static void pool_map_line(struct qg_buf *out, const char *name, bool no, uint8_t mask)
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
		const struct onyx_pool_cfg *h = pool_find(have, w->name);
		for (size_t k = 0; k < have->n_pools; k++)
			if (strcmp(have->pools[k].name, w->name))
				pool_map_line(out, have->pools[k].name, true,
					      have->pools[k].priority_mask & w->priority_mask);
		if (h)
			pool_map_line(out, w->name, true,
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
		pool_map_line(out, w->name, false,
			      (uint8_t)(w->priority_mask & ~(h ? h->priority_mask : 0)));
	}
}

/*
 * The per-port command texts, one formatter each, shared by the diff (and so
 * the generated file) and the rollback: Onyx User Manual 3.10, Interface,
 * QoS and ETS commands. A value at its default gives the "no" form.
 */
static void mtu_line(char *what, size_t len, int mtu)
{
	snprintf(what, len, "mtu %d force", mtu);
}

static void trust_line(char *what, size_t len, const char *trust)
{
	snprintf(what, len, "qos trust %s", trust);
}

/*
 * Congestion control off is Onyx's default for a traffic class (`show
 * interfaces ethernet X congestion-control`: "Mode": "none",
 * shared/fixtures/onyx/onyx_show_interface_congestion_control.cfg); the "no"
 * form is the one mellanox.onyx's onyx_traffic_class.py sends to disable it.
 */
static void cc_line(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
{
	if (t->cc == ONYX_CC_NONE)
		snprintf(what, len, "no traffic-class %d congestion-control", tc);
	else
		snprintf(what, len,
			 "traffic-class %d congestion-control %s minimum-%s %d maximum-%s %d", tc,
			 cc_modes[t->cc], t->relative ? "relative" : "absolute", t->cc_min,
			 t->relative ? "relative" : "absolute", t->cc_max);
}

/*
 * QG_ETS_UNSET is Onyx's default scheduler for the class, whose values the
 * sources we hold do not document (the running-config prints no line for
 * it): qosgen writes the "no" form rather than a guessed weight. That form is
 * not shown verbatim in those sources either; it follows "no traffic-class T
 * congestion-control" (docs/architecture.md, "Push (switches)").
 */
static void ets_line(char *what, size_t len, int tc, const struct onyx_tc_cfg *t)
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
			mtu_line(what, sizeof(what), w->mtu);
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
			trust_line(what, sizeof(what), w->trust);
			group_add(&g, what, &w->id);
		}
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &w->tc[tc], *ht = &h->tc[tc];
			if ((wt->cc == ONYX_CC_NONE && !w->own_tcs) || !tc_cc_differs(wt, ht))
				continue;
			cc_line(what, sizeof(what), tc, wt);
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
			if ((wt->ets == QG_ETS_UNSET && !w->own_tcs) || !tc_ets_differs(wt, ht))
				continue;
			ets_line(what, sizeof(what), tc, wt);
			group_add(&g, what, &w->id);
		}
	}
	groups_flush(&g, ONYX_SEC_ETS, cmds);
	groups_free(&g);
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
		qsort(none.ports, none.n_ports, sizeof(*none.ports), port_cfg_cmp);
	onyx_config_diff(want, &none, cmds);
	free(none.ports);
}

/* ---- restore ---- */

/* Is pool `name` one a push of scope may have changed? */
static bool pool_in_scope(const struct onyx_config *scope, const struct onyx_config *before,
			  const struct onyx_config *now, const char *name)
{
	if (pool_find(scope, name))
		return true;
	if (!qg_pool_name_ok(name))
		return false; /* never sent back; the check after the rollback sees it */
	uint8_t mine = 0;
	for (size_t i = 0; i < scope->n_pools; i++)
		mine |= scope->pools[i].priority_mask;
	const struct onyx_pool_cfg *b = pool_find(before, name), *n = pool_find(now, name);
	return ((b ? b->priority_mask : 0) | (n ? n->priority_mask : 0)) & mine;
}

/*
 * Every pool in scope back to `before`: pools the push created are removed
 * and extra mappings dropped first (a priority belongs to one pool, so it
 * must be free before it goes back), then type and memory, then mappings.
 */
static void pool_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *out)
{
	const struct onyx_config *sides[2] = {before, now};
	for (int step = 0; step < 3; step++)
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < sides[s]->n_pools; i++) {
				const char *name = sides[s]->pools[i].name;
				/* Each name once: from before, or from now if before lacks it. */
				if ((s == 1 && pool_find(before, name)) ||
				    !pool_in_scope(scope, before, now, name))
					continue;
				const struct onyx_pool_cfg *b = pool_find(before, name);
				const struct onyx_pool_cfg *n = pool_find(now, name);
				uint8_t have = n ? n->priority_mask : 0;
				if (!b) {
					if (step == 0 && n)
						qg_buf_printf(out, "%d\tno traffic pool %s\n",
							      ONYX_SEC_BUFFER, name);
					continue;
				}
				if (step == 0)
					pool_map_line(out, name, true,
						      (uint8_t)(have & ~b->priority_mask));
				if (step == 1 && b->type[0] && (!n || strcmp(b->type, n->type)))
					qg_buf_printf(out, "%d\ttraffic pool %s type %s\n",
						      ONYX_SEC_BUFFER, name, b->type);
				if (step == 1 && b->percent_centi >= 0 &&
				    (!n || n->percent_centi != b->percent_centi)) {
					char pct[24];
					qg_centi_format(b->percent_centi, pct);
					qg_buf_printf(out,
						      "%d\ttraffic pool %s memory percent %s\n",
						      ONYX_SEC_BUFFER, name, pct);
				}
				if (step == 2)
					pool_map_line(out, name, false,
						      (uint8_t)(b->priority_mask & ~have));
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
				mtu_line(what, sizeof(what), b->mtu);
				group_add(&g, what, &w->id);
			}
			if (pass == 1 && w->trust[0] && strcmp(b->trust, n->trust)) {
				trust_line(what, sizeof(what), b->trust);
				group_add(&g, what, &w->id);
			}
			for (int tc = 0; tc < 8; tc++) {
				if (pass == 1 && (w->own_tcs || w->tc[tc].cc != ONYX_CC_NONE) &&
				    tc_cc_differs(&b->tc[tc], &n->tc[tc])) {
					cc_line(what, sizeof(what), tc, &b->tc[tc]);
					group_add(&g, what, &w->id);
				}
				if (pass == 2 && (w->own_tcs || w->tc[tc].ets != QG_ETS_UNSET) &&
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
	groups_free(&g);
}
