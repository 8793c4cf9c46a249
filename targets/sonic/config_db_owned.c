/* SPDX-License-Identifier: MIT */
/*
 * The owned state of a config_db (config_db_owned.h): what two switches must
 * agree on to be the same for the intent.
 */
#include "config_db_owned.h"

#include "../../lib/buf.h"
#include "config_db_rows.h"

#include <stdio.h>
#include <string.h>

static bool owned_put(cJSON *o, const char *key, const cJSON *v)
{
	cJSON *c = v ? cJSON_Duplicate(v, true) : cJSON_CreateNull();
	return c && cJSON_AddItemToObject(o, key, c);
}

static bool owned_row(cJSON *out, const cJSON *w, const cJSON *row)
{
	if (cJSON_IsNull(w))
		return owned_put(out, w->string, row);
	cJSON *r = cJSON_AddObjectToObject(out, w->string);
	if (!r)
		return false;
	for (const cJSON *f = w->child; f; f = f->next)
		if (!owned_put(r, f->string, cdb_get(row, f->string)))
			return false;
	return true;
}

/* Each of w's fields as the array of its values in the rows of t that have it. */
static bool owned_fields(cJSON *ot, const cJSON *t, const cJSON *w)
{
	struct cdb_field_rows fr;
	cJSON *r = cJSON_AddObjectToObject(ot, w->string);
	bool ok = r && cdb_field_rows(t, w, &fr);
	if (!ok)
		return false;
	size_t k = 0;
	for (const cJSON *f = w->child; f && ok; f = f->next, k++) {
		cJSON *vals = cJSON_AddArrayToObject(r, f->string);
		ok = vals != NULL;
		for (size_t i = fr.at[k]; ok && i < fr.at[k + 1]; i++)
			ok = cJSON_AddItemToArray(vals, cJSON_Duplicate(fr.hits[i].item, true));
	}
	cdb_field_rows_free(&fr);
	return ok;
}

/* "TABLE|name": row (NULL: absent), in gone. Sized: a switch's names are its own. */
static bool owned_gone(cJSON *gone, const char *table, const char *name, const cJSON *row)
{
	struct qg_buf key = {0};
	qg_buf_printf(&key, "%s|%s", table, name);
	bool ok = !key.failed && owned_put(gone, key.data, row);
	qg_buf_free(&key);
	return ok;
}

cJSON *sonic_config_owned(const cJSON *want, const cJSON *doc)
{
	cJSON *out = cJSON_CreateObject();
	bool ok = out != NULL;
	for (const cJSON *wt = want ? want->child : NULL; wt && ok; wt = wt->next) {
		enum cdb_kind k = cdb_kind_of(wt->string);
		const cJSON *t = cdb_get(doc, wt->string);
		cJSON *ot = cJSON_AddObjectToObject(out, wt->string);
		struct cdb_by_port ix;
		ok = cdb_ix_build(&ix, wt->string,
				  k == CDB_PORT_ROW || k == CDB_PORT_INDEX ? t : NULL) &&
		     ot != NULL;
		for (const cJSON *w = wt->child; w && ok; w = w->next) {
			size_t len;
			int idx, hi, count;
			if (k == CDB_NAMED) {
				ok = owned_put(ot, w->string, cdb_get(t, w->string));
			} else if (k == CDB_PORT_FIELD) {
				ok = owned_fields(ot, t, w);
			} else {
				const cJSON *row = cdb_ix_get(&ix, w->string);
				if (k == CDB_PORT_INDEX &&
				    cdb_index_key(w->string, &len, &idx, &hi))
					row = cdb_covering(&ix, w->string, len, idx, &count);
				ok = !ix.oom && owned_row(ot, w, row);
			}
		}
		cdb_ix_free(&ix);
	}
	/*
	 * The rows qosgen names that want does not have: absent after a push. A
	 * family's (a role's WRED profile) only where doc has one: which roles
	 * an earlier intent had is not known.
	 */
	cJSON *gone = ok ? cJSON_AddObjectToObject(out, "(qosgen's rows not in the intent)") : NULL;
	for (size_t i = 0; gone && i < cdb_n_named; i++) {
		const struct cdb_named *n = &cdb_named[i];
		const cJSON *t = cdb_get(doc, n->table);
		if (!n->prefix) {
			if (!cdb_get2(want, n->table, n->name) &&
			    !owned_gone(gone, n->table, n->name, cdb_get(t, n->name)))
				gone = NULL;
			continue;
		}
		for (const cJSON *row = t ? t->child : NULL; gone && row; row = row->next)
			if (cdb_named_match(n, row->string) &&
			    !cdb_get2(want, n->table, row->string) &&
			    !owned_gone(gone, n->table, row->string, row))
				gone = NULL;
	}
	if (!gone) {
		cJSON_Delete(out);
		return NULL;
	}
	return out;
}
