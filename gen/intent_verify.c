/* SPDX-License-Identifier: MIT */
/*
 * The intent's verify mapping: the host pairs qosgen verify runs traffic
 * between, the message size and duration.
 */
#include "intent_verify.h"

#include "intent_hosts.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>

void intent_verify_load(struct walk *w, const struct qg_ynode *n)
{
	struct qg_verify *vf = &w->m->verify;
	vf->message_size = QG_DEFAULT_MESSAGE_SIZE;
	vf->duration_s = QG_DEFAULT_DURATION_S;
	if (!n)
		return;
	if (!walk_expect_kind(w, n, QG_Y_MAP, "verify"))
		return;
	walk_check_table_keys(w, n, "verify");
	const struct qg_ynode *v;
	/* The ranges are the key table's (gen/keys.c, with their sources). */
	if ((v = walk_get(n, "message_size")))
		vf->message_size_given =
		    walk_read_key_int(w, v, "verify.message_size", &vf->message_size);
	if ((v = walk_get(n, "duration_s")))
		vf->duration_given = walk_read_key_int(w, v, "verify.duration_s", &vf->duration_s);
	const struct qg_ynode *pairs = walk_require(w, n, "pairs", "verify");
	if (!pairs || !walk_expect_kind(w, pairs, QG_Y_SEQ, "verify.pairs"))
		return;
	if (pairs->n_kids == 0) {
		qg_error(w->d, pairs->pos,
			 "verify.pairs: the list is empty; give at least one "
			 "{client, server, min_gbps}");
		return;
	}
	vf->pairs = calloc(pairs->n_kids, sizeof(*vf->pairs));
	if (!vf->pairs) {
		w->d->oom = true;
		return;
	}
	for (size_t i = 0; i < pairs->n_kids; i++) {
		const struct qg_ynode *p = pairs->kids[i];
		char path[PATH_LEN], sub[PATH_LEN];
		snprintf(path, sizeof(path), "verify.pairs[%zu]", i);
		if (!walk_expect_kind(w, p, QG_Y_MAP, path))
			continue;
		/* A pair is named by its hosts, "verify.pairs[a,b]", when both are names. */
		const struct qg_ynode *cn = walk_get(p, "client"), *sn = walk_get(p, "server");
		if (cn && sn && cn->kind == QG_Y_SCALAR && sn->kind == QG_Y_SCALAR &&
		    qg_name_ok(cn->value) && qg_name_ok(sn->value))
			snprintf(path, sizeof(path), "verify.pairs[%s,%s]", cn->value, sn->value);
		walk_check_table_keys(w, p, path);
		const struct qg_ynode *c = walk_require(w, p, "client", path);
		const struct qg_ynode *s = walk_require(w, p, "server", path);
		const struct qg_ynode *g = walk_require(w, p, "min_gbps", path);
		long ci = -1, si = -1;
		static const char why[] = "verify runs verbs traffic between";
		if (c) {
			walk_join(sub, path, "client");
			ci = intent_host_ref(w, c, sub, QG_CAN_VERIFY, why);
		}
		if (s) {
			walk_join(sub, path, "server");
			si = intent_host_ref(w, s, sub, QG_CAN_VERIFY, why);
		}
		if (ci >= 0 && ci == si)
			qg_error(w->d, s->pos,
				 "%s: client and server are both '%s'; a pair needs "
				 "two hosts",
				 path, s->value);
		int64_t gbps = 0;
		if (g) {
			walk_join(sub, path, "min_gbps");
			if (!walk_scalar_fixed(g, 2, &gbps) || gbps <= 0 || gbps > 320000) {
				qg_error(w->d, g->pos,
					 "%s: expected a number in (0, 3200] with at most two "
					 "decimals, got %s%s%s",
					 sub, g->kind == QG_Y_SCALAR ? "'" : "",
					 g->kind == QG_Y_SCALAR ? g->value : walk_kind_name(g),
					 g->kind == QG_Y_SCALAR ? "'" : "");
				gbps = 0;
			}
		}
		if (ci >= 0 && si >= 0 && ci != si && gbps > 0)
			vf->pairs[vf->n_pairs++] = (struct qg_pair){.client = (size_t)ci,
								    .server = (size_t)si,
								    .min_gbps_centi = gbps,
								    .pos = p->pos};
	}
}
