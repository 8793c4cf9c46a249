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
 * threshold unchanged aborts.
 */
#include "../../gen/intent.h"
#include "../../targets/registry.h"
#include "../../targets/onyx/onyx_config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char intent[] =
    "version: 1\nfabric: f\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
    "switches:\n  - {name: s, platform: onyx, address: s, ports: [1/1-1/32, 1/33/1-1/33/4]}\n";

static struct onyx_config want;

static const struct onyx_port_cfg *port_in(const struct onyx_config *c, const struct qg_port *id)
{
	for (size_t i = 0; i < c->n_ports; i++)
		if (!memcmp(&c->ports[i].id, id, sizeof(*id)))
			return &c->ports[i];
	return NULL;
}

/* Is `after` exactly `want` on what want manages? (Zero fields are not managed.) */
static bool owned_equal(const struct onyx_config *after)
{
	const struct onyx_pool_cfg *w = &want.pools[0];
	for (size_t i = 0; i < after->n_pools; i++) {
		const struct onyx_pool_cfg *a = &after->pools[i];
		if (strcmp(a->name, w->name))
			if (a->priority_mask & w->priority_mask)
				return false;
		if (!strcmp(a->name, w->name) &&
		    (a->priority_mask != w->priority_mask || strcmp(a->type, w->type) ||
		     a->percent_centi != w->percent_centi))
			return false;
	}
	bool found = false;
	for (size_t i = 0; i < after->n_pools; i++)
		found = found || !strcmp(after->pools[i].name, w->name);
	if (!found)
		return false;
	for (size_t i = 0; i < want.n_ports; i++) {
		const struct onyx_port_cfg *wp = &want.ports[i], *a = port_in(after, &wp->id);
		if (!a || a->mtu != wp->mtu || strcmp(a->trust, wp->trust))
			return false;
		for (int tc = 0; tc < 8; tc++) {
			const struct onyx_tc_cfg *wt = &wp->tc[tc], *at = &a->tc[tc];
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

/* The read-back, a newline, then the commands without their section numbers. */
static void converges(const char *text, size_t size, const struct qg_buf *cmds)
{
	if (cmds->failed)
		abort();
	struct qg_buf next = {0};
	qg_buf_append(&next, text, size);
	qg_buf_puts(&next, "\n");
	const char *cursor = cmds->data, *line;
	int sec;
	size_t len;
	while (onyx_cmds_next(&cursor, &sec, &line, &len)) {
		qg_buf_append(&next, line, len);
		qg_buf_puts(&next, "\n");
	}
	struct qg_diags d;
	qg_diags_init(&d, "after");
	struct onyx_config after;
	if (next.failed || onyx_config_parse(next.data, next.len, &after, &d) != 0)
		abort();
	struct qg_buf left = {0};
	if (onyx_config_judge(&want, &after, &d) != 0 || !owned_equal(&after)) {
		fprintf(stderr, "not converged after:\n%s", next.data);
		abort();
	}
	onyx_config_diff(&want, &after, &left);
	if (left.len) {
		fprintf(stderr, "a second diff is not empty:\n%s", left.data);
		abort();
	}
	qg_buf_free(&left);
	onyx_config_free(&after);
	qg_buf_free(&next);
	qg_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qg_model m;
	static int ready;
	struct qg_diags d;
	qg_diags_init(&d, "running-config");
	if (!ready) {
		if (qg_intent_load(intent, strlen(intent), qg_targets, &d, &m) != 0 ||
		    onyx_config_from_model(&m, 0, &want) != 0)
			abort();
		ready = 1;
	}
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct onyx_config have;
	if (onyx_config_parse(text, size, &have, &d) == 0) {
		struct qg_buf cmds = {0};
		if (onyx_config_judge(&want, &have, &d) == 0) {
			onyx_config_diff(&want, &have, &cmds);
			converges(text, size, &cmds);
		}
		qg_buf_free(&cmds);
		onyx_config_free(&have);
	}
	free(text);
	qg_diags_free(&d);
	return 0;
}
