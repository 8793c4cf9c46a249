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
 * The NICs before out[n] whose field (at offset) is out[n]'s: the first is
 * reported, with a note at where it was given.
 */
static bool name_twice(struct walk *w, const struct qg_nic *out, size_t n, size_t offset,
		       const struct qg_pos *at, const char *sub, const char *what)
{
	const char *name = (const char *)&out[n] + offset;
	for (size_t j = 0; j < n; j++) {
		if (strcmp((const char *)&out[j] + offset, name))
			continue;
		qg_error(w->d, at[n],
			 "%s: '%s' is already another NIC's %s; each NIC of a host has its own",
			 sub, name, what);
		qg_note(w->d, at[j], "'%s' first given here", name);
		return true;
	}
	return false;
}

/* One item of nics at sub: its NICs appended to out from *n; false after reporting. */
static bool item_read(struct walk *w, const struct qg_ynode *item, const char *sub,
		      const struct qg_key *rows, const struct qg_nic *def, struct qg_nic *out,
		      size_t *n, struct qg_pos at[][2], size_t *over)
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
	/* The names (netdev, rdma_device: the item's required text rows), each one or a range. */
	struct nic_names f[2] = {{0}};
	size_t n_names = 0;
	for (const struct qg_key *r = rows; r->path; r++) {
		char fsub[PATH_LEN];
		walk_join(fsub, sub, r->path);
		if ((r->type & QG_KEY_ENUM) && r->base == QG_KB_NIC)
			enum_read(w, item, sub, r, &proto);
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
	if (tool && proto.qos_tool_given && proto.function == QG_FN_VF) {
		char tsub[PATH_LEN];
		walk_join(tsub, sub, "qos_tool");
		qg_warning(w->d, tool->pos, QG_W_QOS_TOOL_IGNORED_FOR_VF,
			   "%s: ignored for function vf; trust and PFC belong to the hypervisor",
			   tsub);
	}
	size_t count = 0;
	if (n_names == 2 && f[0].v && f[1].v) {
		count = f[0].count;
		if (f[1].count != count) {
			char fsub[PATH_LEN];
			walk_join(fsub, sub, f[1].row->path);
			qg_error(w->d, f[1].v->pos,
				 "%s: '%s' gives %zu name%s for the %zu of %s '%s'; the two "
				 "expand pairwise, the k-th %s with the k-th %s",
				 fsub, f[1].v->value, f[1].count, f[1].count == 1 ? "" : "s",
				 f[0].count, f[0].row->path, f[0].v->value, f[0].row->path,
				 f[1].row->path);
			count = 0;
		}
	}
	if (count && *n + count > QG_NICS_MAX && *over == 0) {
		*over = *n + count;
		qg_error(w->d, item->pos,
			 "%s: brings the host's NICs to %zu, ranges expanded; a host has at most "
			 "%u NICs (docs/intent.md, \"Bounds\")",
			 sub, *n + count, QG_NICS_MAX);
	}
	if (*n + count > QG_NICS_MAX)
		count = 0;
	for (size_t i = 0; i < count; i++) {
		struct qg_nic *nic = &out[*n];
		*nic = proto;
		bool ok = true;
		for (size_t j = 0; j < 2; j++) {
			char fsub[PATH_LEN];
			walk_join(fsub, sub, f[j].row->path);
			at[*n][j] = f[j].v->pos;
			ok &= name_store(w, &f[j], i, fsub, nic);
		}
		if (!ok)
			break;
		/* One diagnostic per name given twice, at the later one. */
		struct qg_pos where[QG_NICS_MAX];
		bool twice = false;
		for (size_t j = 0; j < 2 && !twice; j++) {
			char fsub[PATH_LEN];
			walk_join(fsub, sub, f[j].row->path);
			for (size_t x = 0; x <= *n; x++)
				where[x] = at[x][j];
			twice =
			    name_twice(w, out, *n, f[j].row->offset, where, fsub, f[j].row->path);
		}
		if (twice)
			break;
		(*n)++;
	}
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
	size_t count = 0, over = 0;
	bool ok = true;
	for (size_t i = 0; i < n->n_kids; i++) {
		char sub[PATH_LEN];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		ok &= item_read(w, n->kids[i], sub, row->items, def, out, &count, at, &over);
	}
	return ok && !over ? count : 0;
}
