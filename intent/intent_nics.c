/* SPDX-License-Identifier: MIT */
/*
 * A host's `nics:` read into its NICs (issue 28). A GPU server carries one
 * RoCE NIC per rail, and their names run in step: the netdevs
 * ens1f0np0 ... ens8f0np0 are the RDMA devices mlx5_0 ... mlx5_7, so one
 * item with a bracket range in each name (lib/hostlist.h, the syntax host
 * lists use) gives them all, paired in order.
 */
#include "intent_nics.h"

#include "../lib/hostlist.h"
#include "../model/warnings.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The item rows a NIC mapping may hold. */
#define NIC_KEYS 8

/* What one item's name field gives: its node and its names (one, or a range). */
struct nic_names {
	const struct qg_ynode *v;
	const struct qg_key *row;
	struct qg_hostlist list; /* parsed when v is a range */
	bool range;
	size_t count;
};

const struct qg_key *intent_nics_row(const struct qg_target *t)
{
	for (const struct qg_key *r = t ? t->key_rows : NULL; r && r->path; r++)
		if ((r->type & QG_KEY_LIST) && r->items)
			return r;
	return NULL;
}

/* A name field of an item at sub: its count, or 0 after reporting. */
static size_t names_read(struct walk *w, struct nic_names *f, const char *sub)
{
	char err[160];
	if (!walk_expect_kind(w, f->v, QG_Y_SCALAR, sub))
		return 0;
	if (!qg_hostlist_is_pattern(f->v->value))
		return f->count = 1;
	if (qg_hostlist_parse(f->v->value, &f->list, err, sizeof(err)) != 0) {
		qg_error(w->d, f->v->pos,
			 "%s: '%s' is not a range of names: %s; write it as prefix[1-8]suffix", sub,
			 f->v->value, err);
		return 0;
	}
	f->range = true;
	return f->count = f->list.count;
}

/* The k-th name of field f into the NIC's field (its row's landing), checked by its row. */
static bool name_store(struct walk *w, const struct nic_names *f, size_t k, const char *sub,
		       struct qg_nic *nic)
{
	const struct qg_key *r = f->row;
	char *out = (char *)nic + r->offset;
	if (!f->range)
		return walk_read_str(w, f->v, sub, r, out);
	if (qg_hostlist_name(&f->list, k, out, r->size) && r->ok(out))
		return true;
	qg_error(w->d, f->v->pos, "%s: '%s' gives '%s', which is not allowed; expected %s", sub,
		 f->v->value, qg_hostlist_name(&f->list, k, out, r->size) ? out : "(too long)",
		 r->rule);
	out[0] = '\0';
	return false;
}

/* An item's function or qos_tool (an enumeration row r) over the host's default. */
static void enum_read(struct walk *w, const struct qg_ynode *item, const char *path,
		      const struct qg_key *r, struct qg_nic *nic)
{
	char sub[PATH_LEN];
	const struct qg_ynode *v = walk_get(item, r->path);
	if (!v)
		return;
	walk_join(sub, path, r->path);
	int e = walk_read_enum(w, v, sub, walk_key_values(r));
	if (e < 0)
		return;
	memcpy((char *)nic + r->offset, &e, sizeof(e));
	bool given = true;
	if (r->given)
		memcpy((char *)nic + r->given - 1, &given, sizeof(given));
}

/*
 * The NICs of one host read so far, across its items: out[0..n), each
 * name's position (at[k][0] netdev's, at[k][1] rdma_device's, for the
 * notes), and over: the count that passed QG_NICS_MAX (0: none), said once.
 */
struct nics_read {
	struct qg_nic *out;
	size_t n;
	struct qg_pos (*at)[2];
	size_t over;
};

/*
 * Whether a NIC before out[n] has out[n]'s name field j (row r's, at sub):
 * the first is reported at the later name, with a note at where it was given.
 */
static bool name_twice(struct walk *w, const struct nics_read *acc, size_t j,
		       const struct qg_key *r, const char *sub)
{
	const char *name = (const char *)&acc->out[acc->n] + r->offset;
	for (size_t k = 0; k < acc->n; k++) {
		if (strcmp((const char *)&acc->out[k] + r->offset, name))
			continue;
		qg_error(w->d, acc->at[acc->n][j],
			 "%s: '%s' is already another NIC's %s; each NIC of a host has its own",
			 sub, name, r->path);
		qg_note(w->d, acc->at[k][j], "'%s' first given here", name);
		return true;
	}
	return false;
}

/*
 * An item's name fields f (netdev, rdma_device: the item's text rows, each
 * one name or a range) and the rest of its rows into proto; returns how
 * many name fields it has.
 */
static size_t fields_read(struct walk *w, const struct qg_ynode *item, const char *sub,
			  const struct qg_key *rows, struct qg_nic *proto, struct nic_names f[2])
{
	size_t n_names = 0;
	for (const struct qg_key *r = rows; r->path; r++) {
		char fsub[PATH_LEN];
		walk_join(fsub, sub, r->path);
		if ((r->type & QG_KEY_ENUM) && r->base == QG_KB_NIC)
			enum_read(w, item, sub, r, proto);
		if (!(r->type & QG_KEY_STRING) || n_names == 2)
			continue;
		f[n_names].row = r;
		f[n_names].v = walk_require(w, item, r->path, sub);
		if (f[n_names].v && !names_read(w, &f[n_names], fsub))
			f[n_names].v = NULL;
		n_names++;
	}
	/* A qos_tool of its own on a vf NIC, as on a one-NIC host (intent/intent_hosts.c). */
	const struct qg_ynode *tool = walk_get(item, "qos_tool");
	if (tool && proto->qos_tool_given && proto->function == QG_FN_VF) {
		char tsub[PATH_LEN];
		walk_join(tsub, sub, "qos_tool");
		qg_warning(w->d, tool->pos, QG_W_QOS_TOOL_IGNORED_FOR_VF,
			   "%s: ignored for function vf; trust and PFC belong to the hypervisor",
			   tsub);
	}
	return n_names;
}

/* How many NICs the two name fields give, pairwise; 0 after reporting. */
static size_t pair_count(struct walk *w, const struct nic_names f[2], const char *sub)
{
	size_t count = f[0].count;
	if (f[1].count == count)
		return count;
	char fsub[PATH_LEN];
	walk_join(fsub, sub, f[1].row->path);
	qg_error(w->d, f[1].v->pos,
		 "%s: '%s' gives %zu name%s for the %zu of %s '%s'; the two "
		 "expand pairwise, the k-th %s with the k-th %s",
		 fsub, f[1].v->value, f[1].count, f[1].count == 1 ? "" : "s", f[0].count,
		 f[0].row->path, f[0].v->value, f[0].row->path, f[1].row->path);
	return 0;
}

/* The item's count NICs, each proto with its names, appended to acc; stops at a refused one. */
static void nics_append(struct walk *w, const struct nic_names f[2], size_t count, const char *sub,
			const struct qg_nic *proto, struct nics_read *acc)
{
	for (size_t i = 0; i < count; i++) {
		struct qg_nic *nic = &acc->out[acc->n];
		*nic = *proto;
		bool ok = true;
		for (size_t j = 0; j < 2; j++) {
			char fsub[PATH_LEN];
			walk_join(fsub, sub, f[j].row->path);
			acc->at[acc->n][j] = f[j].v->pos;
			ok &= name_store(w, &f[j], i, fsub, nic);
		}
		if (!ok)
			return;
		/* One diagnostic per name given twice, at the later one. */
		bool twice = false;
		for (size_t j = 0; j < 2 && !twice; j++) {
			char fsub[PATH_LEN];
			walk_join(fsub, sub, f[j].row->path);
			twice = name_twice(w, acc, j, f[j].row, fsub);
		}
		if (twice)
			return;
		acc->n++;
	}
}

/* One item of nics at sub, by rows, each NIC starting as def: appended to acc; false after
 * reporting. */
static bool item_read(struct walk *w, const struct qg_ynode *item, const char *sub,
		      const struct qg_key *rows, const struct qg_nic *def, struct nics_read *acc)
{
	const char *allowed[NIC_KEYS + 1];
	size_t k = 0;
	for (const struct qg_key *r = rows; r->path && k < NIC_KEYS; r++)
		allowed[k++] = r->path;
	allowed[k] = NULL;
	if (!walk_expect_kind(w, item, QG_Y_MAP, sub))
		return false;
	size_t errors = w->d->errors;
	walk_check_keys(w, item, sub, allowed);
	struct qg_nic proto = *def;
	proto.pos = item->pos;
	struct nic_names f[2] = {{0}};
	size_t n_names = fields_read(w, item, sub, rows, &proto, f);
	size_t count = n_names == 2 && f[0].v && f[1].v ? pair_count(w, f, sub) : 0;
	if (count && acc->n + count > QG_NICS_MAX && acc->over == 0) {
		acc->over = acc->n + count;
		qg_error(w->d, item->pos,
			 "%s: brings the host's NICs to %zu, ranges expanded; a host has at most "
			 "%u NICs (docs/intent.md, \"Bounds\")",
			 sub, acc->n + count, QG_NICS_MAX);
	}
	if (acc->n + count > QG_NICS_MAX)
		count = 0;
	nics_append(w, f, count, sub, &proto, acc);
	for (size_t j = 0; j < 2; j++)
		if (f[j].range)
			qg_hostlist_free(&f[j].list);
	return w->d->errors == errors;
}

size_t intent_nics_count(const struct qg_ynode *n, const struct qg_key *row)
{
	if (!n || n->kind != QG_Y_SEQ || !row)
		return 1;
	size_t total = 0;
	for (size_t i = 0; i < n->n_kids; i++) {
		const struct qg_ynode *item = n->kids[i];
		size_t most = 1;
		for (const struct qg_key *r = row->items; item->kind == QG_Y_MAP && r->path; r++) {
			const struct qg_ynode *v = walk_get(item, r->path);
			struct qg_hostlist hl;
			char err[160];
			if (!(r->type & QG_KEY_STRING) || !v || v->kind != QG_Y_SCALAR ||
			    !qg_hostlist_is_pattern(v->value) ||
			    qg_hostlist_parse(v->value, &hl, err, sizeof(err)) != 0)
				continue;
			if (hl.count > most)
				most = hl.count;
			qg_hostlist_free(&hl);
		}
		total = most > SIZE_MAX - total ? SIZE_MAX : total + most;
	}
	return total;
}

size_t intent_nics_read(struct walk *w, const struct qg_ynode *n, const char *path,
			const struct qg_key *row, const struct qg_nic *def,
			struct qg_nic out[QG_NICS_MAX])
{
	if (!walk_expect_kind(w, n, QG_Y_SEQ, path))
		return 0;
	if (n->n_kids == 0) {
		qg_error(w->d, n->pos,
			 "%s: no NICs; give each RoCE NIC as {netdev: NAME, rdma_device: NAME}, "
			 "or a range of them, {netdev: \"ens[1-8]f0np0\", rdma_device: "
			 "\"mlx5_[0-7]\"}",
			 path);
		return 0;
	}
	struct qg_pos at[QG_NICS_MAX][2];
	struct nics_read acc = {.out = out, .at = at};
	bool ok = true;
	for (size_t i = 0; i < n->n_kids; i++) {
		char sub[PATH_LEN];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		ok &= item_read(w, n->kids[i], sub, row->items, def, &acc);
	}
	return ok && !acc.over ? acc.n : 0;
}
