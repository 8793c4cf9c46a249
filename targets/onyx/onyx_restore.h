/* SPDX-License-Identifier: MIT */
/*
 * The rollback of an Onyx push.
 */
#ifndef QG_ONYX_RESTORE_H
#define QG_ONYX_RESTORE_H

#include "onyx_config.h"

/*
 * The rollback of a push: commands that put back, for what `scope` manages
 * (the desired config that was pushed), the values the switch had `before`,
 * given that it is `now`. Where `before` had the default, the "no" form is
 * used ("interface ethernet 1/1 no traffic-class 3 congestion-control", "no
 * traffic pool roce"). Pools: scope's pool and every pool that mapped one of
 * its priorities. Same line format as onyx_config_diff(); cmds->failed when
 * it could not all be computed (out of memory): never send a partial undo.
 */
void onyx_config_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *cmds);

#endif
