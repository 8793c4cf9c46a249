/* SPDX-License-Identifier: MIT */
/*
 * The vocabulary the judge, the end state, the owned state and the patch of
 * a SONiC read-back share (config_db_rows.h): how each table's rows are
 * keyed, the rows qosgen names, and a per-port index of a table's rows.
 */
#include "config_db_rows.h"

#include "config_db.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum cdb_kind cdb_kind_of(const char *table)
{
	static const struct {
		const char *name;
		enum cdb_kind kind;
	} tables[] = {
	    {"BUFFER_PG", CDB_PORT_INDEX},    {"BUFFER_QUEUE", CDB_PORT_INDEX},
	    {"CABLE_LENGTH", CDB_PORT_FIELD}, {"PFC_WD", CDB_PORT_ROW},
	    {"PORT", CDB_PORT_ROW},	      {"PORT_QOS_MAP", CDB_PORT_ROW},
	    {"QUEUE", CDB_PORT_INDEX},
	};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].name, table))
			return tables[i].kind;
	return CDB_NAMED;
}

/* The rows qosgen names, and the field that refers to each from a port's row. */
const struct cdb_named cdb_named[] = {
    {"DSCP_TO_TC_MAP", SONIC_MAP, "PORT_QOS_MAP", "dscp_to_tc_map", false},
    {"TC_TO_QUEUE_MAP", SONIC_MAP, "PORT_QOS_MAP", "tc_to_queue_map", false},
    {"TC_TO_PRIORITY_GROUP_MAP", SONIC_MAP, "PORT_QOS_MAP", "tc_to_pg_map", false},
    {"MAP_PFC_PRIORITY_TO_QUEUE", SONIC_MAP, "PORT_QOS_MAP", "pfc_to_queue_map", false},
    {"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONIC_MAP, "PORT_QOS_MAP", "pfc_to_pg_map", false},
    {"WRED_PROFILE", SONIC_WRED, "QUEUE", "wred_profile", false},
    /* An earlier qosgen's WRED profile (config_db.h): removed where it is. */
    {"WRED_PROFILE", SONIC_WRED_OLD, "QUEUE", "wred_profile", false},
    /* A port role's (issue 28): qosgen_ecn_<role>. */
    {"WRED_PROFILE", SONIC_WRED_ROLE_PREFIX, "QUEUE", "wred_profile", true},
    {"SCHEDULER", SONIC_SCHED_LOSSLESS, "QUEUE", "scheduler", false},
    {"SCHEDULER", SONIC_SCHED_CNP, "QUEUE", "scheduler", false},
    {"SCHEDULER", SONIC_SCHED_LOSSY, "QUEUE", "scheduler", false},
};
const size_t cdb_n_named = sizeof(cdb_named) / sizeof(cdb_named[0]);

bool cdb_named_match(const struct cdb_named *n, const char *name)
{
	if (!n->prefix)
		return !strcmp(name, n->name);
	size_t len = strlen(n->name);
	return !strncmp(name, n->name, len) && name[len];
}

cJSON *cdb_get(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

cJSON *cdb_get2(const cJSON *o, const char *a, const char *b)
{
	return cdb_get(cdb_get(o, a), b);
}

/*
 * "Ethernet0|3" or "Ethernet0|3-4": the port name's length and the index
 * range. The indices are queues and priority groups (0-7 on ports, up to
 * 0-48 on the CPU port): anything past 1023 is not one.
 */
bool cdb_index_key(const char *key, size_t *port_len, int *lo, int *hi)
{
	const char *bar = strrchr(key, '|');
	if (!bar || !isdigit((unsigned char)bar[1]))
		return false;
	char *e;
	long a = strtol(bar + 1, &e, 10), b = a;
	if (*e == '-') {
		if (!isdigit((unsigned char)e[1]))
			return false;
		b = strtol(e + 1, &e, 10);
	}
	if (*e || a > 1023 || b > 1023 || b < a)
		return false;
	*port_len = (size_t)(bar - key);
	*lo = (int)a;
	*hi = (int)b;
	return true;
}

/*
 * The port a row of table `t` belongs to: the first *len bytes of key; false
 * when it names none. Never copied: a switch's names are as long as the
 * switch makes them, and one cut short (this was a 128-byte copy) let a
 * port outside the intent slip past the removal guard (issue 24).
 */
bool cdb_row_port(const char *table, const char *key, size_t *len)
{
	enum cdb_kind k = cdb_kind_of(table);
	/* A CDB_PORT_INDEX key without its "|index" still names its port: a row to refuse. */
	size_t n = strlen(key);
	if (k == CDB_NAMED || k == CDB_PORT_FIELD)
		n = 0;
	else if (k == CDB_PORT_INDEX && strchr(key, '|'))
		n = (size_t)(strrchr(key, '|') - key);
	*len = n;
	return n > 0;
}

/*
 * ---- indexes ----
 * A per-port table has a row per port or port|index, and cJSON's lookups
 * walk an object's members: looking up each of the intent's rows, or each
 * of the read-back's ports among the intent's, was quadratic in ports
 * (bench/sonic_ports.sh). These maps look them up in constant time.
 */

/* The value of the first len bytes of s as a key; NULL with *oom when out of memory. */
static void *cdb_get_n(const struct qg_strmap *m, const char *s, size_t len, bool *oom)
{
	char small[64], *k = len < sizeof(small) ? small : malloc(len + 1);
	if (!k) {
		*oom = true;
		return NULL;
	}
	memcpy(k, s, len);
	k[len] = '\0';
	void *v = qg_strmap_get(m, k);
	if (k != small)
		free(k);
	return v;
}

/* The intent's ports: want's PORT keys, which outlive the map. */
bool cdb_port_set(const cJSON *want, struct qg_strmap *ports)
{
	*ports = (struct qg_strmap){0};
	const cJSON *t = cdb_get(want, "PORT");
	for (const cJSON *p = t ? t->child : NULL; p; p = p->next)
		if (qg_strmap_put(ports, p->string, (void *)p, NULL) < 0) {
			qg_strmap_free(ports);
			return false;
		}
	return true;
}

/* Whether the first len bytes of port name one of the intent's ports (cdb_port_set()). */
bool cdb_intent_port(const struct qg_strmap *ports, const char *port, size_t len, bool *oom)
{
	return cdb_get_n(ports, port, len, oom) != NULL;
}

void cdb_ix_add(struct cdb_by_port *ix, cJSON *r)
{
	size_t len;
	if (!r || !cdb_row_port(ix->table, r->string, &len))
		return;
	struct cdb_group *g = cdb_get_n(&ix->ports, r->string, len, &ix->oom);
	if (!g && !ix->oom) {
		g = calloc(1, sizeof(*g) + len + 1);
		if (g)
			memcpy(g->name, r->string, len);
		if (!g || qg_strmap_put(&ix->ports, g->name, g, NULL) < 0) {
			free(g);
			g = NULL;
			ix->oom = true;
		}
	}
	if (g && g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 4;
		cJSON **v = realloc(g->rows, cap * sizeof(*v));
		if (!v)
			g = NULL;
		else {
			g->rows = v;
			g->cap = cap;
		}
	}
	if (g)
		g->rows[g->n++] = r;
	else
		ix->oom = true;
}

static struct cdb_group *cdb_ix_group(struct cdb_by_port *ix, const char *key)
{
	size_t len;
	return cdb_row_port(ix->table, key, &len) ? cdb_get_n(&ix->ports, key, len, &ix->oom)
						  : NULL;
}

void cdb_ix_remove(struct cdb_by_port *ix, const cJSON *r)
{
	struct cdb_group *g = cdb_ix_group(ix, r->string);
	for (size_t i = 0; g && i < g->n; i++)
		if (g->rows[i] == r) {
			memmove(g->rows + i, g->rows + i + 1, (g->n - i - 1) * sizeof(*g->rows));
			g->n--;
			break;
		}
}

/* t's rows by port, t the table `table` or NULL. false when out of memory. */
bool cdb_ix_build(struct cdb_by_port *ix, const char *table, const cJSON *t)
{
	*ix = (struct cdb_by_port){.table = table};
	for (cJSON *r = cJSON_IsObject(t) ? t->child : NULL; r && !ix->oom; r = r->next)
		cdb_ix_add(ix, r);
	return !ix->oom;
}

void cdb_ix_free(struct cdb_by_port *ix)
{
	for (size_t i = 0; i < ix->ports.cap; i++)
		if (ix->ports.keys[i]) {
			struct cdb_group *g = ix->ports.vals[i];
			free(g->rows);
			free(g);
		}
	qg_strmap_free(&ix->ports);
}

/* The table's first row keyed key, as cdb_get(t, key). */
cJSON *cdb_ix_get(struct cdb_by_port *ix, const char *key)
{
	struct cdb_group *g = cdb_ix_group(ix, key);
	for (size_t i = 0; g && i < g->n; i++)
		if (!strcmp(g->rows[i]->string, key))
			return g->rows[i];
	return NULL;
}

static bool cdb_of_port(const char *key, const char *port, size_t len)
{
	return !strncmp(key, port, len) && key[len] == '|';
}

/* The row covering port|idx, and how many do (a judged read-back has one). */
cJSON *cdb_covering(struct cdb_by_port *ix, const char *port, size_t len, int idx, int *count)
{
	cJSON *found = NULL;
	*count = 0;
	struct cdb_group *g = cdb_get_n(&ix->ports, port, len, &ix->oom);
	for (size_t i = 0; g && i < g->n; i++) {
		cJSON *r = g->rows[i];
		size_t pl;
		int lo, hi;
		if (cdb_of_port(r->string, port, len) && cdb_index_key(r->string, &pl, &lo, &hi) &&
		    pl == len && lo <= idx && idx <= hi) {
			found = found ? found : r;
			(*count)++;
		}
	}
	return found;
}

/*
 * A CDB_PORT_FIELD table's fields named as those of want's row w (CABLE_LENGTH:
 * one per port, in one row): for each of w's fields in order, hits[at[k]] to
 * hits[at[k + 1]] are the rows of t that have it, in t's order, with the
 * field (a row's first of that name, as cdb_get()).
 */
bool cdb_field_rows(const cJSON *t, const cJSON *w, struct cdb_field_rows *fr)
{
	struct qg_strmap names = {0};
	size_t n = 0, total = 0;
	for (const cJSON *f = w->child; f; f = f->next)
		n++;
	size_t *k_of_hit = NULL;
	const cJSON **last = calloc(n ? n : 1, sizeof(*last));
	*fr = (struct cdb_field_rows){.at = calloc(n + 2, sizeof(size_t))};
	bool ok = last && fr->at;
	size_t k = 0;
	for (const cJSON *f = w->child; f && ok; f = f->next, k++)
		ok = qg_strmap_put(&names, f->string, (void *)(uintptr_t)(k + 1), NULL) >= 0;
	/* Twice over t: count each field's rows, then place them. */
	for (int pass = 0; pass < 2 && ok; pass++) {
		if (pass == 1) {
			for (size_t i = 1; i <= n + 1; i++)
				fr->at[i] += fr->at[i - 1];
			fr->hits = malloc((total ? total : 1) * sizeof(*fr->hits));
			k_of_hit = calloc(n + 1, sizeof(*k_of_hit));
			if (!(ok = fr->hits && k_of_hit))
				break;
			memset(last, 0, (n ? n : 1) * sizeof(*last));
		}
		for (cJSON *r = cJSON_IsObject(t) ? t->child : NULL; r; r = r->next)
			for (cJSON *f = cJSON_IsObject(r) ? r->child : NULL; f; f = f->next) {
				size_t kk = (uintptr_t)qg_strmap_get(&names, f->string);
				if (!kk || last[kk - 1] == r)
					continue;
				last[kk - 1] = r;
				if (pass == 0) {
					fr->at[kk + 1]++;
					total++;
				} else {
					fr->hits[fr->at[kk] + k_of_hit[kk]++] =
					    (struct cdb_hit){r, f};
				}
			}
	}
	/* at[kk] begins the hits of field kk, counted from 1: from 0, at[n] their end. */
	if (ok)
		memmove(fr->at, fr->at + 1, (n + 1) * sizeof(*fr->at));
	free(k_of_hit);
	free(last);
	qg_strmap_free(&names);
	if (!ok) {
		free(fr->hits);
		free(fr->at);
		*fr = (struct cdb_field_rows){0};
	}
	return ok;
}

void cdb_field_rows_free(struct cdb_field_rows *fr)
{
	free(fr->hits);
	free(fr->at);
}
