/* SPDX-License-Identifier: MIT */
/*
 * The configuration a SONiC switch should end with (config_db_end.h): the
 * read-back with what qosgen owns made as the intent says.
 */
#include "config_db_end.h"

#include "../../lib/buf.h"
#include "config_db.h"
#include "config_db_rows.h"

#include <stdlib.h>
#include <string.h>

/* A null in want (config_db.h) is a field qosgen removes. */
static void set_field(cJSON *row, const char *field, const cJSON *v, bool *oom)
{
	if (cJSON_IsNull(v)) {
		cJSON_DeleteItemFromObjectCaseSensitive(row, field);
		return;
	}
	cJSON *c = cJSON_Duplicate(v, true);
	if (!c || !row) {
		cJSON_Delete(c);
		*oom = true;
	} else if (cdb_get(row, field)) {
		cJSON_ReplaceItemInObjectCaseSensitive(row, field, c);
	} else {
		cJSON_AddItemToObject(row, field, c);
	}
}

/* Every field of want's row set in row: what qosgen owns of it. */
static void own_fields(cJSON *row, const cJSON *w, bool *oom)
{
	for (const cJSON *f = w->child; f; f = f->next)
		set_field(row, f->string, f, oom);
}

static bool owned_equal(const cJSON *row, const cJSON *w)
{
	for (const cJSON *f = w->child; f; f = f->next)
		if (cJSON_IsNull(f) ? cdb_get(row, f->string) != NULL
				    : !cJSON_Compare(cdb_get(row, f->string), f, true))
			return false;
	return true;
}

/* A table brought to its end state: its rows, their index by port, where out of memory is said. */
struct table_edit {
	cJSON *t;
	struct cdb_by_port *ix;
	bool *oom;
};

/* Row port|lo-hi (port|lo where lo == hi) with from's fields; none where lo > hi. */
static void add_range(const struct table_edit *e, const char *port, size_t len, int lo, int hi,
		      const cJSON *from)
{
	cJSON *t = e->t;
	bool *oom = e->oom;
	if (lo > hi)
		return;
	/* Sized, not fixed: no port name is cut short into another's. */
	struct qg_buf key = {0};
	if (lo == hi)
		qg_buf_printf(&key, "%.*s|%d", (int)len, port, lo);
	else
		qg_buf_printf(&key, "%.*s|%d-%d", (int)len, port, lo, hi);
	cJSON *c = key.failed ? NULL : cJSON_Duplicate(from, true);
	if (!c || !cJSON_AddItemToObject(t, key.data, c)) {
		cJSON_Delete(c);
		*oom = true;
	} else
		cdb_ix_add(e->ix, c);
	qg_buf_free(&key);
}

/* Split a range row around idx: its other indices keep their fields. The row for idx. */
static cJSON *split(const struct table_edit *e, cJSON *cover, const char *key, size_t len, int idx)
{
	cJSON *t = e->t;
	struct cdb_by_port *ix = e->ix;
	size_t pl;
	int lo, hi;
	cdb_ix_remove(ix, cover);
	cJSON *old = cJSON_DetachItemViaPointer(t, cover);
	cdb_index_key(old->string, &pl, &lo, &hi);
	add_range(e, key, len, lo, idx - 1, old);
	add_range(e, key, len, idx + 1, hi, old);
	add_range(e, key, len, idx, idx, old);
	cJSON_Delete(old);
	return *e->oom || ix->oom ? NULL : cdb_ix_get(ix, key);
}

/*
 * Field item of row set as v (set_field(), the item known): the row has a
 * field per port (CABLE_LENGTH|AZURE), and finding it by name walks them.
 */
static void set_item(cJSON *row, cJSON *item, const cJSON *v, bool *oom)
{
	if (cJSON_IsNull(v)) {
		cJSON_Delete(cJSON_DetachItemViaPointer(row, item));
		return;
	}
	cJSON *c = cJSON_Duplicate(v, true);
	if (!c) {
		*oom = true;
		return;
	}
	/* The replacement takes the item's name (cJSON_ReplaceItemViaPointer keeps c's). */
	if (!(c->type & cJSON_StringIsConst))
		cJSON_free(c->string);
	c->string = item->string;
	c->type = (c->type & ~cJSON_StringIsConst) | (item->type & cJSON_StringIsConst);
	item->string = NULL;
	cJSON_ReplaceItemViaPointer(row, item, c);
}

/* A port's field set in every row that has it, else in want's row: no port ends with two. */
static void converge_port_fields(cJSON *t, const cJSON *w, bool *oom)
{
	struct cdb_field_rows fr;
	if (!cdb_field_rows(t, w, &fr)) {
		*oom = true;
		return;
	}
	cJSON *row = NULL;
	size_t k = 0;
	for (const cJSON *f = w->child; f && !*oom; f = f->next, k++) {
		for (size_t i = fr.at[k]; i < fr.at[k + 1]; i++)
			set_item(fr.hits[i].row, fr.hits[i].item, f, oom);
		if (fr.at[k] < fr.at[k + 1] || cJSON_IsNull(f))
			continue;
		/* No row has it: want's row, which then lacks it too. */
		if (!row && !(row = cdb_get(t, w->string)) &&
		    !(row = cJSON_AddObjectToObject(t, w->string))) {
			*oom = true;
			break;
		}
		cJSON *c = cJSON_Duplicate(f, true);
		if (!c || !cJSON_AddItemToObject(row, f->string, c)) {
			cJSON_Delete(c);
			*oom = true;
		}
	}
	cdb_field_rows_free(&fr);
}

static void converge_table(cJSON *t, const cJSON *wt, bool *oom)
{
	enum cdb_kind k = cdb_kind_of(wt->string);
	struct cdb_by_port ix;
	if (!cdb_ix_build(&ix, wt->string, k == CDB_PORT_ROW || k == CDB_PORT_INDEX ? t : NULL))
		*oom = true;
	const struct table_edit edit = {t, &ix, oom};
	for (const cJSON *w = wt->child; w && !*oom && !ix.oom; w = w->next) {
		if (k == CDB_PORT_FIELD) {
			converge_port_fields(t, w, oom);
			continue;
		}
		if (k == CDB_NAMED) {
			cJSON *row = cdb_get(t, w->string);
			cJSON *c = cJSON_Duplicate(w, true);
			if (!c)
				*oom = true;
			else if (row)
				cJSON_ReplaceItemInObjectCaseSensitive(t, w->string, c);
			else
				cJSON_AddItemToObject(t, w->string, c);
			continue;
		}
		cJSON *row = cdb_ix_get(&ix, w->string);
		size_t len = 0;
		int idx = 0, hi, count;
		if (k == CDB_PORT_INDEX && cdb_index_key(w->string, &len, &idx, &hi))
			row = cdb_covering(&ix, w->string, len, idx, &count);
		if (cJSON_IsNull(w)) {
			/*
			 * A row qosgen removes (config_db.h): a CDB_PORT_ROW, or one index
			 * of a CDB_PORT_INDEX table, split out of its range first so that
			 * the range's other indices keep their rows.
			 */
			if (row && strcmp(row->string, w->string))
				row = split(&edit, row, w->string, len, idx);
			if (row) {
				cdb_ix_remove(&ix, row);
				cJSON_Delete(cJSON_DetachItemViaPointer(t, row));
			}
			continue;
		}
		if (row && owned_equal(row, w))
			continue;
		if (row && strcmp(row->string, w->string))
			row = split(&edit, row, w->string, len, idx);
		if (!row && !*oom)
			cdb_ix_add(&ix, row = cJSON_AddObjectToObject(t, w->string));
		own_fields(row, w, oom);
	}
	*oom |= ix.oom;
	cdb_ix_free(&ix);
}

/* Every use of the row `name` from ref_table's field ref_field goes; a row left empty too. */
static void remove_refs(cJSON *end, const struct cdb_named *n, const char *name)
{
	cJSON *refs = cdb_get(end, n->ref_table);
	for (cJSON *r = refs ? refs->child : NULL, *next; r; r = next) {
		next = r->next;
		const cJSON *f = cdb_get(r, n->ref_field);
		if (!cJSON_IsString(f) || strcmp(f->valuestring, name))
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(r, n->ref_field);
		if (!r->child)
			cJSON_Delete(cJSON_DetachItemViaPointer(refs, r));
	}
}

/*
 * A row the intent no longer has goes, and every use of it from the intent's
 * ports: each of qosgen's names, and each row of a family (a port role's
 * WRED profile) whatever roles the switch had.
 */
static void remove_dropped(cJSON *end, const cJSON *want)
{
	for (size_t i = 0; i < cdb_n_named; i++) {
		const struct cdb_named *n = &cdb_named[i];
		cJSON *t = cdb_get(end, n->table);
		for (cJSON *row = t ? t->child : NULL, *next; row; row = next) {
			next = row->next;
			if (!cdb_named_match(n, row->string) ||
			    cdb_get2(want, n->table, row->string))
				continue;
			cJSON *gone = cJSON_DetachItemViaPointer(t, row);
			remove_refs(end, n, gone->string);
			cJSON_Delete(gone);
		}
	}
}

cJSON *sonic_config_end_state(const cJSON *want, const cJSON *have, bool *oom)
{
	cJSON *end = cJSON_Duplicate(have, true);
	if (!end) {
		*oom = true;
		return NULL;
	}
	for (const cJSON *wt = want->child; wt && !*oom; wt = wt->next) {
		cJSON *t = cdb_get(end, wt->string);
		if (!t && !(t = cJSON_AddObjectToObject(end, wt->string)))
			*oom = true;
		else
			converge_table(t, wt, oom);
	}
	remove_dropped(end, want);
	/*
	 * config_db has no empty table (GCU refuses a patch leaving one): a table
	 * emptied goes. end began as a copy of have, in its order, with want's
	 * new tables after: walked side by side, not looked up (a switch decides
	 * how many tables it prints).
	 */
	const cJSON *h = have->child;
	for (cJSON *t = end->child, *next; t; t = next) {
		next = t->next;
		const cJSON *ht = h && !strcmp(h->string, t->string) ? h : NULL;
		h = h ? h->next : NULL;
		if (cJSON_IsObject(t) && !t->child && (!ht || ht->child))
			cJSON_Delete(cJSON_DetachItemViaPointer(end, t));
	}
	return end;
}
