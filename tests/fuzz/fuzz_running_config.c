/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a switch's `show running-config`, parsed,
 * judged and diffed against the reference intent. Read-back comes from
 * devices, so it is untrusted input like the intent itself.
 *
 * Convergence oracle: when the read-back is judged, the commands the diff
 * proposes, read after it as the switch would then print its state, must
 * give exactly the intent on everything qosgen owns. That is checked here
 * field by field, not with the diff itself (which would agree with its own
 * mistakes): a priority left in the pool or another pool, a port missed, a
 * threshold unchanged, another traffic class's ECN or scheduler left aborts.
 *
 * History oracle (issue 23), over a pair of intents the input's bytes pick:
 * A's commands applied to the read-back, then B's, must give on everything
 * B owns exactly what B's commands applied to the read-back directly give,
 * field by field; and B may refuse one only if it refuses the other.
 */
#include "../../intent/intent.h"
#include "../../targets/registry.h"
#include "../../targets/onyx/onyx_diff.h"
#include "../../targets/onyx/onyx_judge.h"
#include "../../targets/onyx/onyx_parse.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The reference intent first, then policy changes of it (issue 23): the
 * lossless class moved 3 -> 4 with its DSCP, CNP moved, ECN thresholds
 * changed and removed, the lossless scheduler strict, a port fewer, the pool
 * smaller, the MTU lower.
 */
#define INTENT_HEAD "version: 1\nfabric: f\nqos:\n"
#define INTENT_SW(ports)                                                                           \
	"switches:\n  - {name: s, platform: onyx, address: s, ports: [" ports "]}\n"
#define ALL_PORTS "1/1-1/32, 1/33/1-1/33/4"
static const char *const intents[] = {
    INTENT_HEAD "  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, "
		"ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
		"  cnp: {priority: 6, dscp: 48, ets: strict}\n" INTENT_SW(ALL_PORTS),
    INTENT_HEAD "  lossless: {priority: 4, dscp: [34], pool: {name: roce, memory_percent: 50}, "
		"ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
		"  cnp: {priority: 6, dscp: 48, ets: strict}\n" INTENT_SW(ALL_PORTS),
    INTENT_HEAD "  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, "
		"ecn: {min_kb: 300, max_kb: 3000}, ets: strict}\n"
		"  cnp: {priority: 5, dscp: 40, ets: strict}\n" INTENT_SW(ALL_PORTS),
    INTENT_HEAD "  switch_mtu: 9100\n"
		"  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 40}}\n"
		"  cnp: {priority: 6, dscp: 48}\n" INTENT_SW("1/1-1/31, 1/33/1-1/33/4"),
};
#define N_INTENTS (sizeof(intents) / sizeof(intents[0]))
static struct onyx_config wants[N_INTENTS];

static const struct onyx_port_cfg *port_in(const struct onyx_config *c, const struct qg_port *id)
{
	for (size_t i = 0; i < c->n_ports; i++)
		if (!memcmp(&c->ports[i].id, id, sizeof(*id)))
			return &c->ports[i];
	return NULL;
}

/* One owned traffic class the same in both? (Off is off, whatever thresholds.) */
static bool tc_equal(const struct onyx_tc_cfg *x, const struct onyx_tc_cfg *y)
{
	if (x->cc != y->cc || x->ets != y->ets)
		return false;
	if (x->cc != ONYX_CC_NONE &&
	    (x->relative != y->relative || x->cc_min != y->cc_min || x->cc_max != y->cc_max))
		return false;
	return x->ets != QG_ETS_WRR || x->weight == y->weight;
}

/*
 * Is `after` exactly `want` on what want owns: its pool (and no other pool
 * holding its priority), and on each of its ports the MTU, trust, and every
 * traffic class's congestion control and scheduler (zero fields are not
 * owned when want does not own all the TCs)?
 */
static bool owned_equal(const struct onyx_config *want, const struct onyx_config *after)
{
	const struct onyx_pool_cfg *w = &want->pools[0];
	bool found = false;
	for (size_t i = 0; i < after->n_pools; i++) {
		const struct onyx_pool_cfg *a = &after->pools[i];
		if (strcmp(a->name, w->name)) {
			if (a->priority_mask & w->priority_mask)
				return false;
			continue;
		}
		found = true;
		if (a->priority_mask != w->priority_mask || strcmp(a->type, w->type) ||
		    a->percent_centi != w->percent_centi)
			return false;
	}
	if (!found)
		return false;
	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *wp = &want->ports[i], *a = port_in(after, &wp->id);
		if (!a || a->mtu != wp->mtu || strcmp(a->trust, wp->trust))
			return false;
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &wp->tc[tc], *at = &a->tc[tc];
			if (wp->own_tcs) {
				if (!tc_equal(wt, at))
					return false;
				continue;
			}
			if (wt->cc && (at->cc != wt->cc || at->relative != wt->relative ||
				       at->cc_min != wt->cc_min || at->cc_max != wt->cc_max))
				return false;
			if (wt->ets && (at->ets != wt->ets ||
					(wt->ets == QG_ETS_WRR && at->weight != wt->weight)))
				return false;
		}
	}
	return true;
}

/* Does `x` equal `y` on everything `want` owns, field by field? */
static bool same_owned(const struct onyx_config *want, const struct onyx_config *x,
		       const struct onyx_config *y)
{
	const struct onyx_pool_cfg *w = &want->pools[0];
	for (int side = 0; side < 2; side++) {
		const struct onyx_config *c = side ? y : x, *o = side ? x : y;
		for (size_t i = 0; i < c->n_pools; i++) {
			const struct onyx_pool_cfg *p = &c->pools[i], *q = NULL;
			for (size_t k = 0; k < o->n_pools; k++)
				if (!strcmp(o->pools[k].name, p->name))
					q = &o->pools[k];
			/* Pools beyond want's are owned only for want's priority. */
			uint8_t mask = !strcmp(p->name, w->name) ? 0xff : w->priority_mask;
			if ((p->priority_mask & mask) != ((q ? q->priority_mask : 0) & mask))
				return false;
			if (!strcmp(p->name, w->name) && (!q || strcmp(p->type, q->type) ||
							  p->percent_centi != q->percent_centi))
				return false;
		}
	}
	for (size_t i = 0; i < want->n_ports; i++) {
		const struct onyx_port_cfg *a = port_in(x, &want->ports[i].id);
		const struct onyx_port_cfg *b = port_in(y, &want->ports[i].id);
		if (!a || !b || a->mtu != b->mtu || strcmp(a->trust, b->trust))
			return false;
		for (int tc = 0; tc < 8; tc++)
			if (!tc_equal(&a->tc[tc], &b->tc[tc]))
				return false;
	}
	return true;
}

/* `text`, a newline, then the commands without their section numbers. */
static void append_cmds(struct qg_buf *next, const struct qg_buf *cmds)
{
	if (cmds->failed)
		abort();
	qg_buf_puts(next, "\n");
	const char *cursor = cmds->data, *line;
	int sec;
	size_t len;
	while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
		qg_buf_append(next, line, len);
		qg_buf_puts(next, "\n");
	}
}

/*
 * Push `want` onto the switch whose running-config is text: judge, diff, and
 * the read-back followed by the commands parsed as the switch's new state
 * into *after, its text in *next. False when the judge refuses it.
 */
/*
 * Whether every error in d is the judge's refusal to take a switch-priority
 * from another pool that would then hold none: that pool is the switch's,
 * not qosgen's (docs/intent.md, onyx ownership), so which of its priorities
 * an earlier intent took may decide whether a later one can be pushed; the
 * refusal sends nothing and names the pool.
 */
static bool only_foreign_pool_refusals(const struct qg_diags *d)
{
	size_t errors = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].sev != QG_SEV_ERROR)
			continue;
		errors++;
		if (!strstr(d->v[i].msg, "owns switch-priority"))
			return false;
	}
	return errors > 0;
}

static bool push_why(const struct onyx_config *want, const char *text, size_t size,
		     struct qg_buf *next, struct onyx_config *after, bool *foreign_pool)
{
	struct qg_diags d;
	qg_diags_init(&d, "push");
	struct onyx_config have;
	bool ok = false;
	if (foreign_pool)
		*foreign_pool = false;
	if (onyx_config_parse(text, size, &have, &d) != 0)
		abort(); /* a text that parsed once, and what qosgen appended to it */
	if (onyx_config_judge(want, &have, &d) != 0) {
		if (foreign_pool)
			*foreign_pool = only_foreign_pool_refusals(&d);
	} else {
		struct qg_buf cmds = {0};
		onyx_config_diff(want, &have, &cmds);
		qg_buf_append(next, text, size);
		append_cmds(next, &cmds);
		qg_buf_free(&cmds);
		if (next->failed || onyx_config_parse(next->data, next->len, after, &d) != 0)
			abort();
		ok = true;
	}
	onyx_config_free(&have);
	qg_diags_free(&d);
	return ok;
}

static bool push(const struct onyx_config *want, const char *text, size_t size, struct qg_buf *next,
		 struct onyx_config *after)
{
	return push_why(want, text, size, next, after, NULL);
}

/* After the push: exactly want on what it owns, and a second diff is empty. */
static void converged(const struct onyx_config *want, const struct onyx_config *after,
		      const struct qg_buf *next)
{
	struct qg_diags d;
	qg_diags_init(&d, "after");
	if (onyx_config_judge(want, after, &d) != 0 || !owned_equal(want, after)) {
		fprintf(stderr, "not converged after:\n%s", next->data);
		abort();
	}
	struct qg_buf left = {0};
	onyx_config_diff(want, after, &left);
	if (left.len) {
		fprintf(stderr, "a second diff is not empty:\n%s", left.data);
		abort();
	}
	qg_buf_free(&left);
	qg_diags_free(&d);
}

/*
 * History independence: intent a pushed, then b, leaves what b owns exactly
 * as b pushed straight onto the read-back, and b refuses the one switch only
 * if it refuses the other.
 */
static void pair(size_t a, size_t b, const char *text, size_t size)
{
	struct qg_buf na = {0}, nab = {0}, nb = {0};
	struct onyx_config aa, ab, bb;
	if (!push(&wants[a], text, size, &na, &aa))
		goto out_a;
	converged(&wants[a], &aa, &na);
	bool foreign = false;
	bool direct = push(&wants[b], text, size, &nb, &bb);
	bool after_a = push_why(&wants[b], na.data, na.len, &nab, &ab, &foreign);
	/*
	 * Found by this oracle: a foreign pool holding 3 and 4 gives 3 to A,
	 * then owns only 4, which B may not take from it: refused, nothing sent.
	 */
	if (direct && !after_a && foreign) {
		onyx_config_free(&bb);
		direct = false;
	}
	if (direct != after_a) {
		fprintf(stderr, "intent %zu %s the switch directly but %s after intent %zu:\n%s", b,
			direct ? "takes" : "refuses", after_a ? "takes it" : "refuses it", a,
			na.data);
		abort();
	}
	if (direct) {
		converged(&wants[b], &bb, &nb);
		converged(&wants[b], &ab, &nab);
		if (!same_owned(&wants[b], &ab, &bb)) {
			fprintf(stderr, "intent %zu after %zu differs from %zu directly:\n%s", b, a,
				b, nab.data);
			abort();
		}
		onyx_config_free(&bb);
		onyx_config_free(&ab);
	}
	onyx_config_free(&aa);
out_a:
	qg_buf_free(&na);
	qg_buf_free(&nab);
	qg_buf_free(&nb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qg_model m[N_INTENTS];
	static int ready;
	if (!ready) {
		for (size_t i = 0; i < N_INTENTS; i++) {
			struct qg_diags d;
			qg_diags_init(&d, "intent");
			if (qg_intent_load(intents[i], strlen(intents[i]), qg_targets, &d, &m[i]) !=
				0 ||
			    onyx_config_from_model(&m[i], 0, &wants[i]) != 0)
				abort();
			qg_diags_free(&d);
		}
		ready = 1;
	}
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct qg_diags d;
	qg_diags_init(&d, "running-config");
	struct onyx_config have;
	if (onyx_config_parse(text, size, &have, &d) == 0) {
		onyx_config_free(&have);
		/* The reference intent alone, then one pair picked by the input's bytes. */
		struct qg_buf next = {0};
		struct onyx_config after;
		if (push(&wants[0], text, size, &next, &after)) {
			converged(&wants[0], &after, &next);
			onyx_config_free(&after);
		}
		qg_buf_free(&next);
		unsigned h = 0;
		for (size_t i = 0; i < size; i++)
			h = h * 31u + data[i];
		size_t a = h % N_INTENTS,
		       b = (a + 1 + (h / N_INTENTS) % (N_INTENTS - 1)) % N_INTENTS;
		pair(a, b, text, size);
	}
	free(text);
	qg_diags_free(&d);
	return 0;
}
