/* SPDX-License-Identifier: MIT */
/*
 * A switch's hardware (issue 34): its model and the speed its ports run at,
 * for the lossless headroom (model/headroom.h); a role's speed is read by
 * the same rule (intent/intent_roles.c).
 */
#include "intent_hw.h"

#include <stdio.h>
#include <string.h>

/*
 * model and speed_gbps (issue 34): the hardware, and the speed its ports
 * run at (when not given, each port's kind's native speed; s->speed_gbps
 * holds the first kind's), for their headroom. A speed is one of the
 * model's ports' (of some kind: which ports take it is checked once the
 * roles are read, model/port_kind.h), or without a model one the formula
 * knows (model/switch_hw.h).
 */
void intent_hw_load(struct walk *w, const struct qg_ynode *item, const char *path,
		    struct qg_switch *s)
{
	const struct qg_ynode *v;
	char sub[PATH_LEN];
	/* The model lands where its row says; its line is for the headroom's diagnostics. */
	if ((v = walk_get(item, "model")))
		s->model_pos = v->pos;
	s->model_given = walk_load_key(w, item, path, "model", s) == WALK_STORED;
	const struct qg_switch_hw *hw = s->model_given ? qg_switch_hw(s->model) : NULL;
	if ((v = walk_get(item, "speed_gbps"))) {
		walk_join(sub, path, "speed_gbps");
		s->speed_pos = v->pos;
		if (intent_speed_read(w, v, sub, hw, &s->speed_gbps))
			s->speed_given = true;
	}
	if (!s->speed_given && hw)
		s->speed_gbps = hw->kinds[0].native_gbps;
}

bool intent_speed_read(struct walk *w, const struct qg_ynode *n, const char *path,
		       const struct qg_switch_hw *hw, int *out)
{
	const struct qg_key *row = qg_key_find("switches[].speed_gbps");
	int v;
	if (!walk_read_int(w, n, path, row->lo, row->hi, &v))
		return false;
	char speeds[96];
	qg_switch_hw_speeds(hw, NULL, speeds, sizeof(speeds));
	if (hw && !qg_switch_hw_speed_ok(hw, v)) {
		/* Its platform's folder: the SKU's parent, where platform.json is. */
		const char *slash = strrchr(hw->sku, '/');
		qg_error(w->d, n->pos,
			 "%s: %d is not a speed of %s's ports: %s (sonic-buildimage "
			 "%.*s/platform.json)",
			 path, v, hw->model, speeds, (int)(slash - hw->sku), hw->sku);
		return false;
	}
	if (!qg_speed_known(v)) {
		qg_error(w->d, n->pos, "%s: %d is not an Ethernet speed qosgen knows: %s", path, v,
			 speeds);
		return false;
	}
	*out = v;
	return true;
}
