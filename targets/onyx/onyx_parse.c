/* SPDX-License-Identifier: MIT */
/*
 * Read-back for Onyx: `show running-config` text into a struct onyx_config.
 * The line forms parsed are the ones qosgen writes (onyx.c) as Onyx prints
 * them in `show running-config`: the reference configuration in
 * shared/seeds/000, and the range and indentation shapes of
 * shared/fixtures/onyx/onyx_config_config.cfg. Congestion control is also read
 * in its red / both / relative forms (onyx_traffic_class.py writes them), so a
 * switch configured by other means diffs correctly.
 */
#include "onyx_parse.h"

#include "../../lib/fixed.h"
#include "onyx_ports.h"
#include "onyx_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	onyx_port_defaults(p, id);
	ix->slot[s] = (int32_t)c->n_ports;
	return p;
}
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
	struct onyx_pool_cfg *p = onyx_pool_get(c, w[2], true);
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
	struct onyx_pool_cfg *p = onyx_pool_get(c, w[3], false);
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
			if (!strcmp(w[3], onyx_cc_modes[k]))
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

/* One line of the read-back: its words w[0..n), its number and its text. */
struct read_line {
	char **w;
	size_t n;
	int no;
	const char *raw;
};

/*
 * "interface ethernet RANGE ..." (n >= 4), read at line lineno: a split, or a
 * port setting applied to every port of the range. 0 or -ENOMEM; a line it
 * cannot read is a warning in d.
 */
static int parse_interface(struct onyx_config *out, struct port_index *ix,
			   const struct read_line *l, struct qg_diags *d)
{
	char **w = l->w;
	size_t n = l->n;
	int lineno = l->no;
	const char *raw = l->raw;
	struct qg_pos pos = {lineno, 1};
	struct qg_port *ports;
	size_t np;
	char err[200];
	int rc = 0, ways = split_ways(w, n);
	if (ways != 0) {
		if (ways < 0 || onyx_port_parse(w[2], &ports, &np, err, sizeof(err)) != 0) {
			qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
				   "cannot read the split of '%s'; line skipped", raw);
			return 0;
		}
		for (size_t k = 0; k < np && rc == 0; k++)
			rc = add_split(out, &ports[k], ways, lineno, raw);
		free(ports);
		return rc;
	}
	/* Classify on a scratch port first: unmanaged lines touch no port. */
	struct onyx_port_cfg probe;
	onyx_port_defaults(&probe, &(struct qg_port){1, 1, 0});
	int kind = apply_port(&probe, w + 3, n - 3);
	if (kind == 0)
		return 0;
	if (kind < 0) {
		qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED, "cannot read '%s'; line skipped",
			   raw);
		return 0;
	}
	if (onyx_port_parse(w[2], &ports, &np, err, sizeof(err)) != 0) {
		qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
			   "cannot read the ports of '%s' (%s); line skipped", raw, err);
		return 0;
	}
	for (size_t k = 0; k < np && rc == 0; k++) {
		struct onyx_port_cfg *p = port_get(out, ix, &ports[k]);
		if (!p)
			rc = -ENOMEM;
		else if (kind == 2 && !p->foreign.no)
			line_keep(&p->foreign, lineno, raw);
		else if (kind == 1)
			apply_port(p, w + 3, n - 3);
	}
	free(ports);
	return rc;
}

/* Line l of the read-back. 0 or -ENOMEM; a managed line it cannot read is a warning in d. */
static int parse_line(struct onyx_config *out, struct port_index *ix, const struct read_line *l,
		      struct qg_diags *d)
{
	char **w = l->w;
	size_t n = l->n;
	int lineno = l->no;
	const char *raw = l->raw;
	struct qg_pos pos = {lineno, 1};
	if (n == 2 && !strcmp(w[0], "hostname")) {
		snprintf(out->hostname, sizeof(out->hostname), "%s", w[1]);
		out->hostname_line = lineno;
		return 0;
	}
	if (n >= 2 && !strcmp(w[0], "traffic") && !strcmp(w[1], "pool")) {
		if (!parse_pool(out, w, n, lineno))
			qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
				   "cannot read '%s'; line skipped", raw);
		return 0;
	}
	if (n >= 3 && !strcmp(w[0], "no") && !strcmp(w[1], "traffic") && !strcmp(w[2], "pool")) {
		if (!parse_no_pool(out, w, n))
			qg_warning(d, pos, QG_W_READBACK_LINE_SKIPPED,
				   "cannot read '%s'; line skipped", raw);
		return 0;
	}
	const char *why = switch_blocker(w, n);
	if (why)
		return add_blocker(out, lineno, raw, why);
	int prio;
	if (n == 5 && !strcmp(w[0], "dcb") && !strcmp(w[1], "priority-flow-control") &&
	    !strcmp(w[2], "priority") && !strcmp(w[4], "enable") && parse_int(w[3], 0, 7, &prio)) {
		line_keep(&out->pfc[prio], lineno, raw);
		return 0;
	}
	if (n < 4 || strcmp(w[0], "interface") || strcmp(w[1], "ethernet"))
		return 0;
	return parse_interface(out, ix, l, d);
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
		rc = parse_line(out, &ix,
				&(struct read_line){.w = w, .n = n, .no = lineno, .raw = raw}, d);
	}
	free(copy);
	free(ix.slot);
	if (rc)
		onyx_config_free(out);
	else if (out->n_ports > 1)
		qsort(out->ports, out->n_ports, sizeof(*out->ports), onyx_port_cfg_cmp);
	return rc;
}
