/* SPDX-License-Identifier: MIT */
/*
 * The rollback of an Onyx push (onyx_restore.h): the commands that put back
 * what the switch had before, written with the diff's formatters.
 */
#include "onyx_restore.h"

#include "../../lib/fixed.h"
#include "../../model/names.h"
#include "onyx.h"
#include "onyx_diff.h"

#include <string.h>

/* Is pool `name` one a push of scope may have changed? */
static bool pool_in_scope(const struct onyx_config *scope, const struct onyx_config *before,
			  const struct onyx_config *now, const char *name)
{
	if (onyx_pool_find(scope, name))
		return true;
	if (!qg_pool_name_ok(name))
		return false; /* never sent back; the check after the rollback sees it */
	uint8_t mine = 0;
	for (size_t i = 0; i < scope->n_pools; i++)
		mine |= scope->pools[i].priority_mask;
	const struct onyx_pool_cfg *b = onyx_pool_find(before, name),
				   *n = onyx_pool_find(now, name);
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
				if ((s == 1 && onyx_pool_find(before, name)) ||
				    !pool_in_scope(scope, before, now, name))
					continue;
				const struct onyx_pool_cfg *b = onyx_pool_find(before, name);
				const struct onyx_pool_cfg *n = onyx_pool_find(now, name);
				uint8_t have = n ? n->priority_mask : 0;
				if (!b) {
					if (step == 0 && n)
						qg_buf_printf(out, "%d\tno traffic pool %s\n",
							      ONYX_SEC_BUFFER, name);
					continue;
				}
				if (step == 0)
					onyx_pool_map_line(out, name, true,
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
					onyx_pool_map_line(out, name, false,
							   (uint8_t)(b->priority_mask & ~have));
			}
}

void onyx_config_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *cmds)
{
	struct onyx_groups g = {0};
	char what[128];
	struct onyx_port_cfg bd, nd;
	for (int pass = 0; pass < 3; pass++) {
		if (pass == 1)
			pool_restore(scope, before, now, cmds);
		for (size_t i = 0; i < scope->n_ports; i++) {
			const struct onyx_port_cfg *w = &scope->ports[i];
			const struct onyx_port_cfg *b = onyx_port_find(before, &w->id);
			const struct onyx_port_cfg *n = onyx_port_find(now, &w->id);
			if (!b) {
				onyx_port_defaults(&bd, &w->id);
				b = &bd;
			}
			if (!n) {
				onyx_port_defaults(&nd, &w->id);
				n = &nd;
			}
			if (pass == 0 && w->mtu && b->mtu != n->mtu) {
				onyx_mtu_text(what, sizeof(what), b->mtu);
				onyx_groups_add(&g, what, &w->id);
			}
			if (pass == 1 && w->trust[0] && strcmp(b->trust, n->trust)) {
				onyx_trust_text(what, sizeof(what), b->trust);
				onyx_groups_add(&g, what, &w->id);
			}
			for (int tc = 0; tc < 8; tc++) {
				if (pass == 1 && (w->own_tcs || w->tc[tc].cc != ONYX_CC_NONE) &&
				    onyx_tc_cc_differs(&b->tc[tc], &n->tc[tc])) {
					onyx_cc_text(what, sizeof(what), tc, &b->tc[tc]);
					onyx_groups_add(&g, what, &w->id);
				}
				if (pass == 2 && (w->own_tcs || w->tc[tc].ets != QG_ETS_UNSET) &&
				    onyx_tc_ets_differs(&b->tc[tc], &n->tc[tc])) {
					onyx_ets_text(what, sizeof(what), tc, &b->tc[tc]);
					onyx_groups_add(&g, what, &w->id);
				}
			}
		}
		onyx_groups_flush(&g,
				  pass == 0   ? ONYX_SEC_INTERFACE
				  : pass == 1 ? ONYX_SEC_QOS
					      : ONYX_SEC_ETS,
				  cmds);
	}
	onyx_groups_free(&g);
}
