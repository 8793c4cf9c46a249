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
	for (size_t i = 0; i < n->n_kids; i++) {
		struct qg_dvs *s = &m->dvs[i];
		char path[PATH_LEN], sub[PATH_LEN];
		s->pos = n->kids[i]->pos;
		s->target = target;
		const struct qg_ynode *item =
		    entry_start(w, n, i, false, "dvs", keys, path, qg_dvs_name_ok, QG_DVS_NAME_RULE,
				s->name, sizeof(s->name));
		if (!item)
			continue;
		const struct qg_ynode *v;
		if ((v = walk_require(w, item, "vcenter", path))) {
			walk_join(sub, path, "vcenter");
			walk_read_str(w, v, sub, qg_address_ok, QG_ADDRESS_RULE, s->vcenter,
				      sizeof(s->vcenter));
		}
		if ((v = walk_require(w, item, "datacenter", path))) {
			walk_join(sub, path, "datacenter");
			walk_read_str(w, v, sub, qg_label_ok, QG_LABEL_RULE, s->datacenter,
				      sizeof(s->datacenter));
		}
		if ((v = walk_get(item, "portgroup"))) {
			walk_join(sub, path, "portgroup");
			walk_read_str(w, v, sub, qg_label_ok, QG_LABEL_RULE, s->portgroup,
				      sizeof(s->portgroup));
		}
		s->uplinks = QG_DEFAULT_DVS_UPLINKS;
		if ((v = walk_get(item, "uplinks"))) {
			walk_join(sub, path, "uplinks");
			walk_read_key_int(w, v, sub, &s->uplinks);
		}
		/* vSphere accepts a DVS maxMtu of 1500..9000. */
		s->mtu = m->qos.mtu;
		if ((v = walk_get(item, "mtu"))) {
			walk_join(sub, path, "mtu");
			s->mtu_given = walk_read_key_int(w, v, sub, &s->mtu);
			if (s->mtu_given && s->mtu < m->qos.mtu)
				qg_error(
				    w->d, v->pos,
				    "%s: %d is below qos.mtu %d; every hop must carry the host "
				    "MTU",
				    sub, s->mtu, m->qos.mtu);
		} else if (m->qos.mtu > 9000) {
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
