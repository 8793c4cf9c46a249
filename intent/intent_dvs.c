/* SPDX-License-Identifier: MIT */
/*
 * The intent's dvs list: vSphere distributed switches and their member hosts.
 */
#include "intent_dvs.h"

#include "intent_entry.h"
#include "intent_hosts.h"
#include "../model/names.h"

#include <stdlib.h>
#include <string.h>

void intent_dvs_load(struct walk *w, const struct qg_ynode *n)
{
	const char *keys[TABLE_KEYS + 1];
	qg_key_children("dvs[]", keys, TABLE_KEYS);
	struct qg_model *m = w->m;
	const struct qg_target *target = NULL;
	for (size_t t = 0; w->targets[t] && !target; t++)
		if (w->targets[t]->kind == QG_DEVICE_DVS)
			target = w->targets[t];
	if (!target) {
		qg_error(w->d, n->pos, "dvs: this qosgen has no target for distributed switches");
		return;
	}
	if (!(m->dvs = entry_alloc_list(w, n, "dvs", sizeof(*m->dvs), &m->n_dvs)))
		return;
	/* Which DVS (and which list entry) claimed each host's uplink. */
	const struct qg_ynode **claimed = calloc(m->n_hosts + 1, sizeof(*claimed));
	if (!claimed) {
		w->d->oom = true;
		return;
	}
	const struct entry_kind kind = {"dvs", keys, qg_key_find("dvs[].name"), false};
	for (size_t i = 0; i < n->n_kids; i++) {
		struct qg_dvs *s = &m->dvs[i];
		char path[PATH_LEN], sub[PATH_LEN];
		s->pos = n->kids[i]->pos;
		s->target = target;
		const struct qg_ynode *item = entry_start(w, n, i, &kind, path, s);
		if (!item)
			continue;
		const struct qg_ynode *v;
		/* The plain values land where their rows say (model/keys.c, with their ranges). */
		walk_load_key(w, item, path, "vcenter", s);
		walk_load_key(w, item, path, "datacenter", s);
		walk_load_key(w, item, path, "portgroup", s);
		s->uplinks = QG_DEFAULT_DVS_UPLINKS;
		walk_load_key(w, item, path, "uplinks", s);
		/* Every hop carries the host MTU: at least qos.mtu, which is its default. */
		s->mtu = m->qos.mtu;
		if (walk_load_key(w, item, path, "mtu", s) == WALK_STORED && s->mtu < m->qos.mtu) {
			walk_join(sub, path, "mtu");
			qg_error(w->d, walk_get(item, "mtu")->pos,
				 "%s: %d is below qos.mtu %d; every hop must carry the host MTU",
				 sub, s->mtu, m->qos.mtu);
		} else if (!walk_get(item, "mtu") && m->qos.mtu > 9000) {
			qg_error(w->d, item->pos,
				 "%s: takes its mtu from qos.mtu %d, above vSphere's maximum of "
				 "9000; set mtu here or lower qos.mtu",
				 path, m->qos.mtu);
		}
		if ((v = walk_get(item, "hosts"))) {
			walk_join(sub, path, "hosts");
			if (!walk_expect_kind(w, v, QG_Y_SEQ, sub))
				continue;
			s->hosts = calloc(v->n_kids + 1, sizeof(*s->hosts));
			if (!s->hosts) {
				w->d->oom = true;
				break;
			}
			for (size_t k = 0; k < v->n_kids; k++) {
				long h = intent_host_ref(w, v->kids[k], sub, QG_CAN_DVS_MEMBER,
							 "a DVS takes");
				if (h < 0)
					continue;
				if (claimed[h]) {
					qg_error(
					    w->d, v->kids[k]->pos,
					    "%s: host '%s' is already on a DVS; its RoCE uplink "
					    "can join only one",
					    sub, m->hosts[h].name);
					qg_note(w->d, claimed[h]->pos, "'%s' first listed here",
						m->hosts[h].name);
					continue;
				}
				claimed[h] = v->kids[k];
				s->hosts[s->n_hosts++] = (size_t)h;
			}
		}
	}
	free(claimed);
}
