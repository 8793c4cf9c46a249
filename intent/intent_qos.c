/* SPDX-License-Identifier: MIT */
/*
 * The intent's qos mapping: the two classes, the MTUs, the PFC watchdog, and
 * the rules between them (docs/intent.md, "qos").
 */
#include "intent_qos.h"

#include "../model/derive.h"
#include "../lib/fixed.h"
#include "../model/names.h"
#include "../model/target.h"
#include "../model/warnings.h"

#include <stdio.h>
#include <string.h>

static void load_ets(struct walk *w, const struct qg_ynode *n, const char *path, struct qg_ets *ets)
{
	ets->pos = n->pos;
	if (n->kind == QG_Y_SCALAR) {
		if (strcmp(n->value, "strict") == 0) {
			ets->mode = QG_ETS_STRICT;
			return;
		}
		qg_error(w->d, n->pos,
			 "%s: '%s' is not allowed; expected strict or {mode: wrr, weight: 1..100}",
			 path, n->value);
		return;
	}
	if (!walk_expect_kind(w, n, QG_Y_MAP, path))
		return;
	walk_check_table_keys(w, n, path);
	char sub[PATH_LEN];
	const struct qg_ynode *mode = walk_require(w, n, "mode", path);
	const struct qg_ynode *weight = walk_get(n, "weight");
	if (!mode)
		return;
	walk_join(sub, path, "mode");
	int m = walk_read_enum(w, mode, sub, walk_key_values(walk_key_row(sub)));
	if (m < 0)
		return;
	walk_join(sub, path, "weight");
	if (m == 0) {
		ets->mode = QG_ETS_STRICT;
		if (weight)
			qg_error(w->d, weight->pos,
				 "%s: a strict class takes no weight; remove it or use mode wrr",
				 sub);
		return;
	}
	if (!weight) {
		qg_error(w->d, n->pos, "missing key 'weight' in %s; mode wrr needs a weight 1..100",
			 path);
		walk_consequence(w, "weight", path);
		return;
	}
	if (walk_read_key_int(w, weight, sub, &ets->weight))
		ets->mode = QG_ETS_WRR;
}

static void load_dscp_list(struct walk *w, const struct qg_ynode *n, const char *path,
			   struct qg_class *c, bool single)
{
	c->dscp_pos = n->pos;
	if (n->kind == QG_Y_SCALAR) {
		int v;
		if (walk_read_key_int(w, n, path, &v))
			c->dscp[c->n_dscp++] = v;
		return;
	}
	if (single) {
		qg_error(w->d, n->pos,
			 "%s: expected one integer 0..63, got %s; CNPs carry one DSCP", path,
			 walk_kind_name(n));
		return;
	}
	if (!walk_expect_kind(w, n, QG_Y_SEQ, path))
		return;
	if (n->n_kids == 0) {
		qg_error(w->d, n->pos, "%s: the list is empty; give at least one DSCP 0..63", path);
		return;
	}
	const struct qg_ynode *seen[64] = {0};
	for (size_t i = 0; i < n->n_kids; i++) {
		int v;
		char sub[PATH_LEN];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (!walk_read_key_int(w, n->kids[i], sub, &v))
			continue;
		if (seen[v]) {
			qg_error(w->d, n->kids[i]->pos, "%s: DSCP %d is listed twice", path, v);
			qg_note(w->d, seen[v]->pos, "DSCP %d first listed here", v);
			continue;
		}
		seen[v] = n->kids[i];
		c->dscp[c->n_dscp++] = v;
	}
}

/*
 * Each value read, or its BAD_* bit (shifted to the class) set in w->bad;
 * cnp: the CNP class (one DSCP, strict by default), else the lossless one.
 */
static void load_class_common(struct walk *w, const struct qg_ynode *n, const char *path,
			      struct qg_class *c, bool cnp, unsigned shift)
{
	char sub[PATH_LEN];
	c->pos = n->pos;
	const struct qg_ynode *v;
	size_t e;
	if (!(v = walk_require(w, n, "priority", path)))
		w->bad |= BAD_PRIO << shift;
	else {
		walk_join(sub, path, "priority");
		c->priority_pos = v->pos;
		if (!walk_read_key_int(w, v, sub, &c->priority))
			w->bad |= BAD_PRIO << shift;
	}
	if (!(v = walk_require(w, n, "dscp", path)))
		w->bad |= BAD_DSCP << shift;
	else {
		walk_join(sub, path, "dscp");
		e = w->d->errors;
		load_dscp_list(w, v, sub, c, cnp);
		if (w->d->errors != e || c->n_dscp == 0)
			w->bad |= BAD_DSCP << shift;
	}
	c->traffic_class = c->priority;
	if ((v = walk_get(n, "traffic_class"))) {
		walk_join(sub, path, "traffic_class");
		c->tc_pos = v->pos;
		c->tc_given = walk_read_key_int(w, v, sub, &c->traffic_class);
		if (!c->tc_given)
			w->bad |= BAD_TC << shift;
	} else if (w->bad & (BAD_PRIO << shift)) {
		w->bad |= BAD_TC << shift; /* it follows the priority */
	}
	if ((v = walk_get(n, "ets"))) {
		walk_join(sub, path, "ets");
		e = w->d->errors;
		load_ets(w, v, sub, &c->ets);
		c->ets.given = true;
		if (w->d->errors != e)
			w->bad |= BAD_ETS << shift;
	} else {
		/*
		 * Not given: the one default of every switch OS (model.h), at the
		 * class's line for the diagnostics that weigh it: CNPs strict, the
		 * lossless class WRR 50 %.
		 */
		c->ets.pos = c->pos;
		c->ets.mode = cnp ? QG_ETS_STRICT : QG_ETS_WRR;
		c->ets.weight = cnp ? 0 : QG_LOSSLESS_ETS_DEFAULT_WEIGHT;
	}
}

static void load_lossless(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	const char *path = "qos.lossless";
	if (!walk_expect_kind(w, n, QG_Y_MAP, path)) {
		w->bad |= BAD_CLASS | BAD_ECN;
		return;
	}
	walk_check_table_keys(w, n, path);
	load_class_common(w, n, path, &q->lossless, false, 0);

	/* Whether a pool is required: known once the devices are read (intent_qos_settle_pool). */
	const struct qg_ynode *pool = walk_get(n, "pool");
	if (!pool)
		w->lossless_without_pool = n;
	if (pool && walk_expect_kind(w, pool, QG_Y_MAP, "qos.lossless.pool")) {
		walk_check_table_keys(w, pool, "qos.lossless.pool");
		const struct qg_ynode *v;
		walk_load_key(w, pool, "qos.lossless.pool", "name", q);
		if ((v = walk_require(w, pool, "memory_percent", "qos.lossless.pool"))) {
			int64_t centi;
			if (!walk_scalar_fixed(v, 2, &centi) &&
			    walk_unit_given(w, v, "qos.lossless.pool.memory_percent"))
				;
			else if (!walk_scalar_fixed(v, 2, &centi) && walk_quoted_number(v))
				qg_error(
				    w->d, v->pos,
				    "qos.lossless.pool.memory_percent: got the quoted string '%s'; "
				    "quotes make a YAML value text: write %s without them",
				    v->value, v->value);
			else if (!walk_scalar_fixed(v, 2, &centi))
				qg_error(w->d, v->pos,
					 "qos.lossless.pool.memory_percent: expected a number in "
					 "(0, 100] with at most two decimals, got %s%s%s",
					 v->kind == QG_Y_SCALAR ? "'" : "",
					 v->kind == QG_Y_SCALAR ? v->value : walk_kind_name(v),
					 v->kind == QG_Y_SCALAR ? "'" : "");
			else if (centi <= 0 || centi > 10000)
				qg_error(
				    w->d, v->pos,
				    "qos.lossless.pool.memory_percent: %s is out of range (0, 100]",
				    v->value);
			else
				q->pool_percent_centi = (int)centi;
			q->pool_percent_pos = v->pos;
		}
	}

	const struct qg_ynode *ecn = walk_get(n, "ecn");
	if (ecn)
		q->ecn_pos = ecn->pos;
	if (ecn && ecn->kind != QG_Y_MAP)
		w->bad |= BAD_ECN;
	if (ecn && walk_expect_kind(w, ecn, QG_Y_MAP, "qos.lossless.ecn")) {
		walk_check_table_keys(w, ecn, "qos.lossless.ecn");
		const struct qg_ynode *lo = walk_require(w, ecn, "min_kb", "qos.lossless.ecn");
		const struct qg_ynode *hi = walk_require(w, ecn, "max_kb", "qos.lossless.ecn");
		bool ok = lo && walk_read_key_int(w, lo, "qos.lossless.ecn.min_kb", &q->ecn_min_kb);
		ok = (hi && walk_read_key_int(w, hi, "qos.lossless.ecn.max_kb", &q->ecn_max_kb)) &&
		     ok;
		if (!ok)
			w->bad |= BAD_ECN;
		if (ok && q->ecn_min_kb > q->ecn_max_kb) {
			qg_error(w->d, lo->pos,
				 "qos.lossless.ecn: min_kb %d is above max_kb %d; need min_kb <= "
				 "max_kb",
				 q->ecn_min_kb, q->ecn_max_kb);
			qg_note(w->d, hi->pos, "max_kb given here");
		}
		q->ecn = ok;
	}
}

static void load_cnp(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	if (!walk_expect_kind(w, n, QG_Y_MAP, "qos.cnp")) {
		w->bad |= BAD_CNP_MAP;
		return;
	}
	walk_check_table_keys(w, n, "qos.cnp");
	load_class_common(w, n, "qos.cnp", &q->cnpc, true, BAD_CNP_SHIFT);
	q->cnp = true;
}

/*
 * One switch MTU per fabric (issue 23). Every switch target declares the
 * largest port MTU its OS takes (struct qg_target's switch_mtu_max, cited
 * there); qos.switch_mtu defaults to the smallest of them among the switch
 * targets this intent's switches use, never above QG_DEFAULT_SWITCH_MTU, so
 * that the ports of every OS in the fabric get the same MTU; a given one
 * above a used target's maximum is refused at the key, once per OS it
 * exceeds, naming it. Run after the switches are read: the default depends
 * on their platforms. Then the rule between the two MTUs.
 */
void intent_qos_settle_switch_mtu(struct walk *w, struct qg_qos *q)
{
	const struct qg_model *m = w->m;
	char oses[256];
	int max = qg_fabric_switch_mtu_max(m, oses, sizeof(oses));
	const struct qg_ynode *v = w->switch_mtu;
	long x;
	q->switch_mtu = max;
	if (v && oses[0] && walk_scalar_int(v, &x) && x > max) {
		for (size_t t = 0; m->targets && m->targets[t]; t++) {
			const struct qg_target *tg = m->targets[t];
			int tmax = qg_target_switch_mtu_max(tg);
			if (tg->kind == QG_DEVICE_SWITCH && x > tmax && qg_target_used(m, tg))
				qg_error(
				    w->d, v->pos,
				    "qos.switch_mtu: %ld is above %d, the largest port MTU the "
				    "%s switches take; allowed with this fabric's switch OSes "
				    "(%s): 1500..%d",
				    x, tmax, tg->name, oses, max);
		}
		w->bad |= BAD_SWITCH_MTU;
	} else if (v) {
		q->switch_mtu_given =
		    walk_read_int(w, v, "qos.switch_mtu", 1500, max, &q->switch_mtu);
		if (!q->switch_mtu_given)
			w->bad |= BAD_SWITCH_MTU;
	}
	if ((w->bad & (BAD_MTU | BAD_SWITCH_MTU)) ||
	    q->switch_mtu >= q->mtu + QG_SWITCH_MTU_OVERHEAD)
		return;
	struct qg_pos at = q->switch_mtu_given ? q->switch_mtu_pos : q->mtu_pos;
	qg_error(w->d, at,
		 "qos.switch_mtu %d is below mtu %d + %d; a switch port must carry the "
		 "host MTU plus the Ethernet header and FCS",
		 q->switch_mtu, q->mtu, QG_SWITCH_MTU_OVERHEAD);
	/* The fix that works: no switch MTU above the fabric's largest exists to raise it to. */
	if (q->mtu + QG_SWITCH_MTU_OVERHEAD > max && oses[0])
		qg_note(w->d, q->mtu_given ? q->mtu_pos : at,
			"the largest port MTU of this fabric's switch OSes (%s) is %d, so lower "
			"qos.mtu to at most %d",
			oses, max, max - QG_SWITCH_MTU_OVERHEAD);
	else if (q->mtu + QG_SWITCH_MTU_OVERHEAD > max)
		qg_note(w->d, q->mtu_given ? q->mtu_pos : at,
			"the largest switch MTU is %d, so lower qos.mtu to at most %d", max,
			max - QG_SWITCH_MTU_OVERHEAD);
	else if (!q->switch_mtu_given)
		qg_note(w->d, at, "switch_mtu defaults to %d; set it to at least %d", max,
			q->mtu + QG_SWITCH_MTU_OVERHEAD);
	else
		qg_note(w->d, at, "set qos.switch_mtu to at least %d, or lower qos.mtu",
			q->mtu + QG_SWITCH_MTU_OVERHEAD);
}

/* Rules that relate the two classes and the MTUs; run once both are read. */
static void check_qos_rules(struct walk *w, const struct qg_ynode *qn, struct qg_qos *q)
{
	struct qg_class *l = &q->lossless, *c = &q->cnpc;
	/* Which values could be read: a rule runs only on those (see BAD_*). */
	unsigned lb = w->bad, cb = w->bad >> BAD_CNP_SHIFT;

	if (!(w->bad & BAD_MTU) && q->mtu < QG_MTU_FOR_ROCE_4096)
		qg_warning(w->d, q->mtu_given ? q->mtu_pos : qn->pos, QG_W_MTU_BELOW_ROCE_4096,
			   "qos.mtu %d allows a RoCE path MTU of %d only; 4096 needs an MTU of %d "
			   "or more",
			   q->mtu, qg_roce_path_mtu(q->mtu), QG_MTU_FOR_ROCE_4096);

	if (q->cnp) {
		if (!(lb & BAD_PRIO) && !(cb & BAD_PRIO) && c->priority == l->priority) {
			qg_error(w->d, c->priority_pos,
				 "qos.cnp.priority %d is the lossless priority; CNPs need a "
				 "priority of their own",
				 c->priority);
			qg_note(w->d, l->priority_pos, "lossless priority given here");
		} else if (!(lb & BAD_TC) && !(cb & BAD_TC) &&
			   c->traffic_class == l->traffic_class) {
			qg_error(
			    w->d, c->tc_given ? c->tc_pos : c->priority_pos,
			    "qos.cnp.traffic_class %d is the lossless traffic class; CNPs need "
			    "an egress queue of their own",
			    c->traffic_class);
		}
		for (int i = 0; !(lb & BAD_DSCP) && !(cb & BAD_DSCP) && i < l->n_dscp; i++)
			if (c->n_dscp && c->dscp[0] == l->dscp[i]) {
				qg_error(w->d, c->dscp_pos,
					 "qos.cnp.dscp %d is also a lossless DSCP; the classes "
					 "share no DSCP value",
					 c->dscp[0]);
				qg_note(w->d, l->dscp_pos, "lossless DSCPs given here");
			}
	}

	if (w->bad & BAD_TRUST) {
		/* trust could not be read: no rule depends on a guess of it */
	} else if (q->trust == QG_TRUST_DSCP) {
		/*
		 * The map every target is judged by: the classes' DSCPs to their
		 * priorities, the rest as Onyx and mlx5 have it. A target that
		 * cannot program it refuses other maps in its own check().
		 */
		for (int v = 0; v < 64; v++)
			q->dscp_prio[v] = (uint8_t)qg_default_dscp_priority(v);
		for (int k = 0; k < 2; k++) {
			const struct qg_class *cl = k == 0 ? l : c;
			unsigned kb = k == 0 ? lb : cb;
			if ((k == 1 && !q->cnp) || (kb & (BAD_PRIO | BAD_DSCP)))
				continue;
			for (int i = 0; i < cl->n_dscp; i++)
				q->dscp_prio[cl->dscp[i]] = (uint8_t)cl->priority;
		}
	} else if (l->n_dscp && !(lb & BAD_DSCP)) {
		qg_warning(w->d, l->dscp_pos, QG_W_PCP_TRUST_DSCP_UNUSED,
			   "trust is pcp: switches classify by 802.1p priority, so the DSCP values "
			   "only set what hosts mark");
	}

	int wrr = 0;
	struct qg_pos wrr_pos = {0};
	for (int k = 0; k < 2; k++) {
		const struct qg_class *cl = k == 0 ? l : c;
		if ((k == 0 || q->cnp) && cl->ets.mode == QG_ETS_WRR) {
			wrr += cl->ets.weight;
			if (cl->ets.given)
				wrr_pos = cl->ets.pos;
		}
	}
	if (wrr > 100 && !(lb & BAD_ETS) && !(q->cnp && (cb & BAD_ETS)))
		qg_warning(w->d, wrr_pos, QG_W_ETS_WEIGHTS_OVER_100,
			   "ETS weights add up to %d%%%s; the WRR classes share 100%% of the "
			   "bandwidth",
			   wrr,
			   l->ets.given ? "" : " (qos.lossless without ets: WRR 50, the default)");

	if (w->bad & BAD_ECN)
		return; /* ecn could not be read: the warnings below would guess */
	/* Each a consequence of a key missing: none when that key was given at the wrong level. */
	if (!q->ecn) {
		qg_warning(w->d, l->pos, QG_W_NO_ECN,
			   "qos.lossless has no ecn: DCQCN stays off and PFC alone holds the "
			   "fabric, which spreads congestion");
		walk_consequence(w, "ecn", "qos.lossless");
	} else if (!q->cnp && !(w->bad & BAD_CNP_MAP)) {
		qg_warning(w->d, qn->pos, QG_W_ECN_WITHOUT_CNP,
			   "ecn is on but qos has no cnp class: CNPs share the default class and "
			   "DCQCN reacts late");
		walk_consequence(w, "cnp", "qos");
	}
	if (q->cnp && !q->ecn) {
		qg_warning(w->d, c->pos, QG_W_CNP_WITHOUT_ECN,
			   "qos.cnp is set but qos.lossless.ecn is not: nothing marks ECN, so no "
			   "CNP is ever sent");
		walk_consequence(w, "ecn", "qos.lossless");
	}
}

/*
 * qos.pfc_watchdog: true, false, or a mapping of the times in ms (each
 * optional). The times' ranges are the widest of the switch OSes (model.h):
 * a target with narrower limits checks them in its check() (SONiC's
 * sonic-pfcwd.yang). That the watchdog cannot detect or restore faster than
 * it polls is the watchdog's own rule, for every target.
 */
static void load_pfc_watchdog(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	static const char *const booleans[] = {"false", "true", NULL};
	const char *path = "qos.pfc_watchdog";
	struct qg_pfc_watchdog *wd = &q->pfcwd;
	wd->pos = n->pos;
	wd->detection_ms = QG_PFCWD_DETECTION_MS;
	wd->restoration_ms = QG_PFCWD_RESTORATION_MS;
	wd->poll_ms = QG_PFCWD_POLL_MS;
	if (n->kind == QG_Y_SCALAR) {
		int b = -1;
		for (int i = 0; booleans[i]; i++)
			if (!strcmp(n->value, booleans[i]))
				b = i;
		if (b >= 0 && !n->plain)
			qg_error(w->d, n->pos,
				 "%s: got the quoted string '%s'; write %s without quotes", path,
				 n->value, n->value);
		else if (b < 0)
			qg_error(w->d, n->pos,
				 "%s: '%s' is not allowed; expected true, false or a mapping of "
				 "detection_ms, restoration_ms and poll_ms",
				 path, n->value);
		else
			wd->state = b ? QG_PFCWD_ON : QG_PFCWD_OFF;
		return;
	}
	if (!walk_expect_kind(w, n, QG_Y_MAP, path))
		return;
	walk_check_table_keys(w, n, path);
	const struct {
		const char *key;
		int *v;
		bool *given;
		struct qg_pos *pos;
	} t[] = {
	    {"detection_ms", &wd->detection_ms, &wd->detection_given, &wd->detection_pos},
	    {"restoration_ms", &wd->restoration_ms, &wd->restoration_given, &wd->restoration_pos},
	    {"poll_ms", &wd->poll_ms, &wd->poll_given, &wd->poll_pos},
	};
	bool ok = true;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		const struct qg_ynode *v = walk_get(n, t[k].key);
		if (!v)
			continue;
		char sub[PATH_LEN];
		walk_join(sub, path, t[k].key);
		*t[k].pos = v->pos;
		*t[k].given = walk_read_key_int(w, v, sub, t[k].v);
		ok = *t[k].given && ok;
	}
	if (!ok)
		return;
	/* It checks every poll_ms (sonic-pfcwd.yang says it as musts: time >= POLL_INTERVAL). */
	for (size_t k = 0; k < 2; k++) {
		if (*t[k].v >= wd->poll_ms)
			continue;
		struct qg_pos at = *t[k].given ? *t[k].pos : n->pos;
		qg_error(w->d, at,
			 "%s: %s %d is below poll_ms %d; the watchdog checks the queues every "
			 "poll_ms, so detection_ms and restoration_ms must be at least poll_ms",
			 path, t[k].key, *t[k].v, wd->poll_ms);
		if (wd->poll_given)
			qg_note(w->d, wd->poll_pos, "poll_ms given here");
		else
			qg_note(w->d, at, "poll_ms defaults to %d", QG_PFCWD_POLL_MS);
		ok = false;
	}
	if (ok)
		wd->state = QG_PFCWD_ON;
}

void intent_qos_settle_pool(struct walk *w)
{
	const struct qg_model *m = w->m;
	if (!w->lossless_without_pool)
		return;
	bool needed = !m->n_switches && !m->n_hosts && !m->n_dvs;
	for (size_t i = 0; i < m->n_switches && !needed; i++) {
		const struct qg_target *t = m->switches[i].target;
		needed = t && (t->features & QG_FEAT_BUFFER_POOL);
	}
	/* The same diagnostic as any other missing key (a misspelt pool is reported as that). */
	if (needed)
		walk_require(w, w->lossless_without_pool, "pool", "qos.lossless");
}

void intent_qos_load(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	q->trust = QG_TRUST_DSCP;
	q->mtu = QG_DEFAULT_MTU;
	q->switch_mtu = QG_DEFAULT_SWITCH_MTU;
	if (!walk_expect_kind(w, n, QG_Y_MAP, "qos"))
		return;
	w->qos_read = true;
	walk_check_table_keys(w, n, "qos");
	const struct qg_ynode *v;
	if ((v = walk_get(n, "trust"))) {
		q->trust_pos = v->pos;
		int t =
		    walk_read_enum(w, v, "qos.trust", walk_key_values(qg_key_find("qos.trust")));
		if (t >= 0) {
			q->trust = (enum qg_trust)t;
			q->trust_given = true;
		} else {
			w->bad |= BAD_TRUST;
		}
	}
	if ((v = walk_get(n, "mtu"))) {
		q->mtu_pos = v->pos;
		q->mtu_given = walk_read_key_int(w, v, "qos.mtu", &q->mtu);
		if (!q->mtu_given)
			w->bad |= BAD_MTU;
	}
	/* Read once the switches are: its range and default are theirs (settle_switch_mtu). */
	if ((v = walk_get(n, "switch_mtu"))) {
		q->switch_mtu_pos = v->pos;
		w->switch_mtu = v;
	}
	if ((v = walk_require(w, n, "lossless", "qos")))
		load_lossless(w, v, q);
	else
		w->bad |= BAD_CLASS | BAD_ECN;
	if ((v = walk_get(n, "cnp")))
		load_cnp(w, v, q);
	if ((v = walk_get(n, "pfc_watchdog")))
		load_pfc_watchdog(w, v, q);
	/*
	 * The rules between values run on every value that could be read, so a
	 * quoted priority does not hide a DSCP conflict until the next run.
	 */
	check_qos_rules(w, n, q);
}
