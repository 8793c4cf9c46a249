/* SPDX-License-Identifier: MIT */
/*
 * The intent's verify mapping: the host pairs qosgen verify runs traffic
 * between, the rails of each pair, the message size and duration.
 */
#include "intent_verify.h"

#include "intent_hosts.h"
#include "../model/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A host's NICs for a message: "'gpu-001' has 2 NICs". */
static const char *nics_word(size_t n)
{
	return n == 1 ? "NIC" : "NICs";
}

/* Every rail both hosts c and s have, into p: those of the host with fewer NICs. */
static bool rails_all(struct walk *w, const struct qg_host *c, const struct qg_host *s,
		      struct qg_pair *p)
{
	size_t fewer = c->n_nics < s->n_nics ? c->n_nics : s->n_nics;
	if (!(p->rails = calloc(fewer, sizeof(*p->rails)))) {
		w->d->oom = true;
		return false;
	}
	for (size_t k = 0; k < fewer; k++)
		p->rails[k] = k;
	p->n_rails = fewer;
	return true;
}

/* Whether n, a pair's rails at sub, is a list of at least one item; said where it is not. */
static bool rails_listed(struct walk *w, const struct qg_ynode *n, const char *sub)
{
	long one;
	if (n->kind == QG_Y_SCALAR && walk_scalar_int(n, &one)) {
		qg_error(w->d, n->pos,
			 "%s: expected 'all' or a list of rail indices, got the number %s; write "
			 "[%s] for that one rail",
			 sub, n->value, n->value);
		return false;
	}
	if (n->kind != QG_Y_SEQ) {
		qg_error(w->d, n->pos,
			 "%s: expected 'all' or a list of rail indices (rail K is each host's "
			 "nics[K]), got %s%s%s",
			 sub, n->kind == QG_Y_SCALAR ? "'" : "",
			 n->kind == QG_Y_SCALAR ? n->value : walk_kind_name(n),
			 n->kind == QG_Y_SCALAR ? "'" : "");
		return false;
	}
	if (n->n_kids == 0) {
		qg_error(w->d, n->pos,
			 "%s: the list is empty; name at least one rail (0 is each host's first "
			 "NIC), or write 'all'",
			 sub);
		return false;
	}
	return true;
}

/* A rail read, with the item that named it: a repeat's note points there. */
struct rail_seen {
	int rail;
	const struct qg_ynode *at;
};

/*
 * Rail item r (at item) against those seen before it and the NICs of the
 * pair's hosts c and s (NULL: the reference failed); appended to seen when
 * read. False when refused (said).
 */
static bool rail_read(struct walk *w, const struct qg_ynode *r, const char *item,
		      const struct qg_host *const hosts[2], struct rail_seen *seen, size_t *n_seen)
{
	const struct qg_host *c = hosts[0], *s = hosts[1];
	int k;
	if (!walk_read_key_int(w, r, item, &k))
		return false;
	size_t j = 0;
	while (j < *n_seen && seen[j].rail != k)
		j++;
	if (j < *n_seen) {
		qg_error(w->d, r->pos, "%s: rail %d is named twice", item, k);
		qg_note(w->d, seen[j].at->pos, "rail %d is first named here", k);
		return false;
	}
	seen[*n_seen].rail = k;
	seen[(*n_seen)++].at = r;
	size_t fewer = c && s ? (c->n_nics < s->n_nics ? c->n_nics : s->n_nics) : 0;
	if (!c || !s || !c->n_nics || !s->n_nics || c->nics_refused || s->nics_refused ||
	    (size_t)k < fewer)
		return true;
	char have[32];
	if (fewer == 1)
		snprintf(have, sizeof(have), "rail 0 alone");
	else
		snprintf(have, sizeof(have), "rails 0..%zu", fewer - 1);
	qg_error(w->d, r->pos,
		 "%s: rail %d is beyond the hosts' NICs: client '%s' has %zu %s, "
		 "server '%s' has %zu %s (%s)",
		 item, k, c->name, c->n_nics, nics_word(c->n_nics), s->name, s->n_nics,
		 nics_word(s->n_nics), have);
	return false;
}

/* The n rails seen into p, ascending: the order verify runs and reports them in. */
static bool rails_sorted(struct walk *w, const struct rail_seen *seen, size_t n, struct qg_pair *p)
{
	if (!(p->rails = calloc(n, sizeof(*p->rails)))) {
		w->d->oom = true;
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = p->n_rails++;
		while (at > 0 && p->rails[at - 1] > (size_t)seen[i].rail) {
			p->rails[at] = p->rails[at - 1];
			at--;
		}
		p->rails[at] = (size_t)seen[i].rail;
	}
	return true;
}

/*
 * A pair's rails (issue 28): `all`, or a list of NIC indices; rail K is the
 * client's nics[K] with the server's nics[K]. c and s are the pair's hosts,
 * NULL where the reference failed (said there): then only the list itself is
 * checked. The rails land in p ascending; false when anything was refused.
 */
static bool read_rails(struct walk *w, const struct qg_ynode *n, const char *path,
		       const struct qg_host *c, const struct qg_host *s, struct qg_pair *p)
{
	char sub[PATH_LEN];
	walk_join(sub, path, "rails");
	p->rails_pos = n->pos;
	p->rails_given = true;
	/* A host without NICs has no rails to name (a platform that verifies through none). */
	const struct qg_host *const both[2] = {c, s};
	bool ok = true;
	for (int i = 0; i < 2; i++)
		if (both[i] && !both[i]->n_nics) {
			qg_error(w->d, n->pos, "%s: host '%s' has no NICs to name rails of", sub,
				 both[i]->name);
			ok = false;
		}
	if (n->kind == QG_Y_SCALAR && !strcmp(n->value, "all")) {
		p->rails_all = true;
		return ok && c && s && rails_all(w, c, s, p);
	}
	if (!rails_listed(w, n, sub))
		return false;
	struct rail_seen *seen = calloc(n->n_kids, sizeof(*seen));
	if (!seen) {
		w->d->oom = true;
		return false;
	}
	size_t n_seen = 0;
	for (size_t i = 0; i < n->n_kids; i++) {
		char item[PATH_LEN];
		snprintf(item, sizeof(item), "%s[%zu]", sub, i);
		ok &= rail_read(w, n->kids[i], item, both, seen, &n_seen);
	}
	if (ok && c && s)
		ok = rails_sorted(w, seen, n_seen, p);
	free(seen);
	return ok && c && s;
}

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
	/* They land where their rows say, with their ranges (model/keys.c, with their sources). */
	walk_load_key(w, n, "verify", "message_size", vf);
	walk_load_key(w, n, "verify", "duration_s", vf);
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
		struct qg_pair pair = {.client = (size_t)(ci >= 0 ? ci : 0),
				       .server = (size_t)(si >= 0 ? si : 0),
				       .min_gbps_centi = gbps,
				       .pos = p->pos};
		const struct qg_ynode *rails = walk_get(p, "rails");
		bool rails_ok =
		    !rails || read_rails(w, rails, path, ci >= 0 ? &w->m->hosts[ci] : NULL,
					 si >= 0 && si != ci ? &w->m->hosts[si] : NULL, &pair);
		if (ci >= 0 && si >= 0 && ci != si && gbps > 0 && rails_ok)
			vf->pairs[vf->n_pairs++] = pair;
		else
			free(pair.rails);
	}
}
