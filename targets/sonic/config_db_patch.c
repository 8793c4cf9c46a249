/* SPDX-License-Identifier: MIT */
/*
 * A read-back against the model, and the JSON Patch between them
 * (config_db_patch.h). The patch is computed as the difference between the
 * read-back and the configuration the switch should end with (the
 * read-back with what qosgen owns made as the intent says): a table, row
 * or field at a time, in natural key order, so the same read-back gives the
 * same patch.
 */
#include "config_db_patch.h"

#include "../../gen/jsonsort.h"
#include "../../gen/strmap.h"
#include "config_db.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a table's rows are keyed, and so what of a row qosgen owns. */
enum kind {
	NAMED,	    /* qosgen's own name: the whole row */
	PORT_ROW,   /* "Ethernet0": the fields qosgen writes */
	PORT_INDEX, /* "Ethernet0|3" or "Ethernet0|3-4": the same, per index */
	PORT_FIELD, /* a field named by the port, in whichever row has it (CABLE_LENGTH) */
};

static enum kind kind_of(const char *table)
{
	static const struct {
		const char *name;
		enum kind kind;
	} tables[] = {
	    {"BUFFER_PG", PORT_INDEX}, {"BUFFER_QUEUE", PORT_INDEX}, {"CABLE_LENGTH", PORT_FIELD},
	    {"PFC_WD", PORT_ROW},      {"PORT", PORT_ROW},	     {"PORT_QOS_MAP", PORT_ROW},
	    {"QUEUE", PORT_INDEX},
	};
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].name, table))
			return tables[i].kind;
	return NAMED;
}

/* The rows qosgen names, and the field that refers to each from a port's row. */
static const struct named {
	const char *table, *name, *ref_table, *ref_field;
} named[] = {
    {"DSCP_TO_TC_MAP", SONIC_MAP, "PORT_QOS_MAP", "dscp_to_tc_map"},
    {"TC_TO_QUEUE_MAP", SONIC_MAP, "PORT_QOS_MAP", "tc_to_queue_map"},
    {"TC_TO_PRIORITY_GROUP_MAP", SONIC_MAP, "PORT_QOS_MAP", "tc_to_pg_map"},
    {"MAP_PFC_PRIORITY_TO_QUEUE", SONIC_MAP, "PORT_QOS_MAP", "pfc_to_queue_map"},
    {"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONIC_MAP, "PORT_QOS_MAP", "pfc_to_pg_map"},
    {"WRED_PROFILE", SONIC_WRED, "QUEUE", "wred_profile"},
    /* An earlier qosgen's WRED profile (config_db.h): removed where it is. */
    {"WRED_PROFILE", SONIC_WRED_OLD, "QUEUE", "wred_profile"},
    {"SCHEDULER", SONIC_SCHED_LOSSLESS, "QUEUE", "scheduler"},
    {"SCHEDULER", SONIC_SCHED_CNP, "QUEUE", "scheduler"},
    {"SCHEDULER", SONIC_SCHED_LOSSY, "QUEUE", "scheduler"},
};
#define N_NAMED (sizeof(named) / sizeof(named[0]))

static cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static cJSON *get2(const cJSON *o, const char *a, const char *b)
{
	return get(get(o, a), b);
}

/*
 * "Ethernet0|3" or "Ethernet0|3-4": the port name's length and the index
 * range. The indices are queues and priority groups (0-7 on ports, up to
 * 0-48 on the CPU port): anything past 1023 is not one.
 */
static bool index_key(const char *key, size_t *port_len, int *lo, int *hi)
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
static bool row_port(const char *table, const char *key, size_t *len)
{
	enum kind k = kind_of(table);
	/* A PORT_INDEX key without its "|index" still names its port: a row to refuse. */
	size_t n = strlen(key);
	if (k == NAMED || k == PORT_FIELD)
		n = 0;
	else if (k == PORT_INDEX && strchr(key, '|'))
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
static void *get_n(const struct qg_strmap *m, const char *s, size_t len, bool *oom)
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
static bool port_set(const cJSON *want, struct qg_strmap *ports)
{
	*ports = (struct qg_strmap){0};
	const cJSON *t = get(want, "PORT");
	for (const cJSON *p = t ? t->child : NULL; p; p = p->next)
		if (qg_strmap_put(ports, p->string, (void *)p, NULL) < 0) {
			qg_strmap_free(ports);
			return false;
		}
	return true;
}

/* Whether the first len bytes of port name one of the intent's ports (port_set()). */
static bool intent_port(const struct qg_strmap *ports, const char *port, size_t len, bool *oom)
{
	return get_n(ports, port, len, oom) != NULL;
}

/* One port's rows of a table, in the table's order (a port has few). */
struct group {
	cJSON **rows;
	size_t n, cap;
	char name[]; /* the port: the map's key */
};

/* A per-port table's rows by the port they belong to (row_port()). */
struct by_port {
	const char *table;
	struct qg_strmap ports; /* name -> struct group */
	bool oom;
};

static void ix_add(struct by_port *ix, cJSON *r)
{
	size_t len;
	if (!r || !row_port(ix->table, r->string, &len))
		return;
	struct group *g = get_n(&ix->ports, r->string, len, &ix->oom);
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

static struct group *ix_group(struct by_port *ix, const char *key)
{
	size_t len;
	return row_port(ix->table, key, &len) ? get_n(&ix->ports, key, len, &ix->oom) : NULL;
}

static void ix_remove(struct by_port *ix, const cJSON *r)
{
	struct group *g = ix_group(ix, r->string);
	for (size_t i = 0; g && i < g->n; i++)
		if (g->rows[i] == r) {
			memmove(g->rows + i, g->rows + i + 1, (g->n - i - 1) * sizeof(*g->rows));
			g->n--;
			break;
		}
}

/* t's rows by port, t the table `table` or NULL. false when out of memory. */
static bool ix_build(struct by_port *ix, const char *table, const cJSON *t)
{
	*ix = (struct by_port){.table = table};
	for (cJSON *r = cJSON_IsObject(t) ? t->child : NULL; r && !ix->oom; r = r->next)
		ix_add(ix, r);
	return !ix->oom;
}

static void ix_free(struct by_port *ix)
{
	for (size_t i = 0; i < ix->ports.cap; i++)
		if (ix->ports.keys[i]) {
			struct group *g = ix->ports.vals[i];
			free(g->rows);
			free(g);
		}
	qg_strmap_free(&ix->ports);
}

/* The table's first row keyed key, as get(t, key). */
static cJSON *ix_get(struct by_port *ix, const char *key)
{
	struct group *g = ix_group(ix, key);
	for (size_t i = 0; g && i < g->n; i++)
		if (!strcmp(g->rows[i]->string, key))
			return g->rows[i];
	return NULL;
}

static bool of_port(const char *key, const char *port, size_t len)
{
	return !strncmp(key, port, len) && key[len] == '|';
}

/* The row covering port|idx, and how many do (a judged read-back has one). */
static cJSON *covering(struct by_port *ix, const char *port, size_t len, int idx, int *count)
{
	cJSON *found = NULL;
	*count = 0;
	struct group *g = get_n(&ix->ports, port, len, &ix->oom);
	for (size_t i = 0; g && i < g->n; i++) {
		cJSON *r = g->rows[i];
		size_t pl;
		int lo, hi;
		if (of_port(r->string, port, len) && index_key(r->string, &pl, &lo, &hi) &&
		    pl == len && lo <= idx && idx <= hi) {
			found = found ? found : r;
			(*count)++;
		}
	}
	return found;
}

/*
 * A PORT_FIELD table's fields named as those of want's row w (CABLE_LENGTH:
 * one per port, in one row): for each of w's fields in order, hits[at[k]] to
 * hits[at[k + 1]] are the rows of t that have it, in t's order, with the
 * field (a row's first of that name, as get()).
 */
struct hit {
	cJSON *row, *item;
};

struct field_rows {
	struct hit *hits;
	size_t *at;
};

static bool field_rows(const cJSON *t, const cJSON *w, struct field_rows *fr)
{
	struct qg_strmap names = {0};
	size_t n = 0, total = 0;
	for (const cJSON *f = w->child; f; f = f->next)
		n++;
	size_t *k_of_hit = NULL;
	const cJSON **last = calloc(n ? n : 1, sizeof(*last));
	*fr = (struct field_rows){.at = calloc(n + 2, sizeof(size_t))};
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
					fr->hits[fr->at[kk] + k_of_hit[kk]++] = (struct hit){r, f};
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
		*fr = (struct field_rows){0};
	}
	return ok;
}

static void field_rows_free(struct field_rows *fr)
{
	free(fr->hits);
	free(fr->at);
}

/* ---- what qosgen can judge ---- */

static int judge_indices(const struct qg_strmap *ports, const cJSON *wt, const cJSON *ht,
			 struct qg_diags *d, bool *oom)
{
	int errors = 0;
	/* Keys of the intent's ports that say no index: which queues they mean is unknown. */
	for (const cJSON *r = ht ? ht->child : NULL; r; r = r->next) {
		size_t pl, n;
		int lo, hi;
		if (row_port(wt->string, r->string, &n) && intent_port(ports, r->string, n, oom) &&
		    !index_key(r->string, &pl, &lo, &hi)) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back's %s|%s names no index or range (expected '%.*s|3' "
				 "or '%.*s|3-4'); is this config_db?",
				 wt->string, r->string, (int)n, r->string, (int)n, r->string);
			errors++;
		}
	}
	struct by_port ix;
	if (!ix_build(&ix, wt->string, ht))
		*oom = true;
	for (const cJSON *w = wt->child; w && !*oom; w = w->next) {
		size_t len;
		int idx, hi, count;
		if (!index_key(w->string, &len, &idx, &hi))
			continue;
		covering(&ix, w->string, len, idx, &count);
		if (count > 1) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back has %d %s rows covering %s: which one the switch "
				 "uses is not defined; keep one",
				 count, wt->string, w->string);
			errors++;
		}
	}
	*oom |= ix.oom;
	ix_free(&ix);
	return errors;
}

/* A row qosgen would remove that a port outside the intent still uses. */
static int judge_removals(const cJSON *want, const struct qg_strmap *ports, const cJSON *have,
			  struct qg_diags *d, bool *oom)
{
	int errors = 0;
	for (size_t i = 0; i < N_NAMED; i++) {
		const struct named *n = &named[i];
		if (!get2(have, n->table, n->name) || get2(want, n->table, n->name))
			continue;
		for (const cJSON *r = get(have, n->ref_table) ? get(have, n->ref_table)->child
							      : NULL;
		     r; r = r->next) {
			const cJSON *f = get(r, n->ref_field);
			size_t len;
			if (!cJSON_IsString(f) || strcmp(f->valuestring, n->name) ||
			    !row_port(n->ref_table, r->string, &len) ||
			    intent_port(ports, r->string, len, oom))
				continue;
			qg_error(d, (struct qg_pos){0},
				 "the intent no longer has %s|%s, but %s|%s, a port the intent "
				 "does not list, uses it (%s): add %.*s to the intent, or change "
				 "that row first",
				 n->table, n->name, n->ref_table, r->string, n->ref_field, (int)len,
				 r->string);
			errors++;
		}
	}
	return errors;
}

/*
 * PFC_WD's POLL_INTERVAL is the switch's, and SONiC's model wants every
 * port's detection_time and restoration_time at least that (sonic-pfcwd
 * musts): a port outside the intent whose times are below the intent's
 * poll_ms would make the patch invalid.
 */
static int judge_watchdog(const cJSON *want, const struct qg_strmap *ports, const cJSON *have,
			  struct qg_diags *d, bool *oom)
{
	const cJSON *poll = get2(get(want, "PFC_WD"), SONIC_PFCWD_GLOBAL, "POLL_INTERVAL");
	if (!cJSON_IsString(poll))
		return 0;
	long p = strtol(poll->valuestring, NULL, 10);
	int errors = 0;
	static const char *const times[] = {"detection_time", "restoration_time"};
	for (const cJSON *r = get(have, "PFC_WD") ? get(have, "PFC_WD")->child : NULL; r;
	     r = r->next) {
		if (!strcmp(r->string, SONIC_PFCWD_GLOBAL) ||
		    intent_port(ports, r->string, strlen(r->string), oom))
			continue;
		for (size_t k = 0; k < 2; k++) {
			const cJSON *v = get(r, times[k]);
			if (!cJSON_IsString(v) || strtol(v->valuestring, NULL, 10) >= p)
				continue;
			qg_error(d, (struct qg_pos){0},
				 "PFC_WD|%s, a port the intent does not list, has %s %s, below the "
				 "intent's poll_ms %ld (PFC_WD|GLOBAL POLL_INTERVAL is the "
				 "switch's): SONiC refuses a time below the poll interval; add %s "
				 "to the intent, or raise its %s first",
				 r->string, times[k], v->valuestring, p, r->string, times[k]);
			errors++;
		}
	}
	return errors;
}

/* "Ethernet128" -> 128; -1 for a name not of that form. */
static long ethernet_number(const char *name)
{
	if (strncmp(name, "Ethernet", 8) || !isdigit((unsigned char)name[8]))
		return -1;
	char *end;
	long v = strtol(name + 8, &end, 10);
	return *end ? -1 : v;
}

static int long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* How many runs a port list is written with at most; then "and N more". */
#define RUNS_SHOWN 8

/*
 * Sorted port numbers, compactly: a run of three or more with one step of
 * 1..8 (lanes) as "Ethernet128-252/4", the intent's own range syntax; at
 * most RUNS_SHOWN runs, then how many ports are left.
 */
static void port_runs_text(const long *v, size_t n, struct qg_buf *out)
{
	size_t runs = 0, i = 0;
	while (i < n) {
		size_t j = i + 1;
		long step = j < n ? v[j] - v[i] : 0;
		while (step >= 1 && step <= 8 && j + 1 < n && v[j + 1] - v[j] == step)
			j++;
		if (runs == RUNS_SHOWN) {
			qg_buf_printf(out, " and %zu more", n - i);
			return;
		}
		if (step >= 1 && step <= 8 && j - i >= 2) {
			qg_buf_printf(out, "%sEthernet%ld-%ld/%ld", runs ? ", " : "", v[i], v[j],
				      step);
			i = j + 1;
		} else {
			qg_buf_printf(out, "%sEthernet%ld", runs ? ", " : "", v[i]);
			i++;
		}
		runs++;
	}
}

/* The ports of a PORT table (by number; names of another form left out), sorted. */
static long *port_numbers(const cJSON *table, struct by_port *only_missing_in, size_t *n)
{
	size_t cap = (size_t)cJSON_GetArraySize(table) + 1, k = 0;
	long *v = malloc(cap * sizeof(*v));
	if (!v)
		return NULL;
	for (const cJSON *p = table ? table->child : NULL; p; p = p->next) {
		long x = ethernet_number(p->string);
		if (x < 0 || (only_missing_in && ix_get(only_missing_in, p->string)))
			continue;
		v[k++] = x;
	}
	qsort(v, k, sizeof(*v), long_cmp);
	*n = k;
	return v;
}

/*
 * The intent's ports the switch lacks: one error, at the intent's ports
 * (issue 25, item 6: one per port was 32 errors for a 64-port intent on a
 * 32-port switch), naming them and what the switch has, both compactly.
 */
static int judge_missing_ports(const cJSON *want, const cJSON *have,
			       const struct sonic_ports_at *at, struct qg_diags *d, bool *oom)
{
	const cJSON *wp = get(want, "PORT"), *hp = get(have, "PORT");
	size_t n_want = 0, n_missing = 0, n_have = 0;
	struct by_port have_ports; /* by name: a lookup per port, not a walk of the table */
	if (!ix_build(&have_ports, "PORT", hp))
		*oom = true;
	for (const cJSON *p = wp ? wp->child : NULL; p && !*oom; p = p->next) {
		n_want++;
		n_missing += !ix_get(&have_ports, p->string);
	}
	*oom |= have_ports.oom;
	if (n_missing == 0 || *oom) {
		ix_free(&have_ports);
		return 0;
	}
	long *missing = port_numbers(wp, &have_ports, &n_missing);
	ix_free(&have_ports);
	long *own = port_numbers(hp, NULL, &n_have);
	struct qg_buf lacks = {0}, has = {0};
	if (missing && own) {
		port_runs_text(missing, n_missing, &lacks);
		port_runs_text(own, n_have, &has);
	}
	const char *file = at ? at->file : NULL;
	struct qg_pos pos = at ? at->pos : (struct qg_pos){0};
#define MISSING_PORTS                                                                              \
	"the switch lacks %zu of the intent's %zu ports: %s (its PORT table has %s): is the "      \
	"intent's port list this switch's?"
	const char *l = lacks.data ? lacks.data : "?", *h = has.data ? has.data : "none";
	if (file)
		qg_error_in(d, file, pos, MISSING_PORTS, n_missing, n_want, l, h);
	else
		qg_error(d, pos, MISSING_PORTS, n_missing, n_want, l, h);
#undef MISSING_PORTS
	d->oom |= !missing || !own || lacks.failed || has.failed;
	qg_buf_free(&lacks);
	qg_buf_free(&has);
	free(missing);
	free(own);
	return 1;
}

static int judge(const cJSON *want, const struct qg_strmap *ports, const cJSON *have,
		 const struct sonic_ports_at *at, struct qg_diags *d, bool *oom)
{
	int errors = 0;
	for (const cJSON *wt = want->child; wt && !*oom; wt = wt->next) {
		const cJSON *ht = get(have, wt->string);
		for (const cJSON *r = ht ? ht->child : NULL; r; r = r->next)
			if (!cJSON_IsObject(r)) {
				qg_error(d, (struct qg_pos){0},
					 "the read-back's %s|%s is not a row of fields; is this "
					 "config_db?",
					 wt->string, r->string);
				return errors + 1;
			}
		if (kind_of(wt->string) == PORT_INDEX)
			errors += judge_indices(ports, wt, ht, d, oom);
	}
	errors += judge_missing_ports(want, have, at, d, oom);
	const cJSON *md = get2(have, "DEVICE_METADATA", "localhost");
	const cJSON *model = get(md, "buffer_model"), *type = get(md, "switch_type");
	if (get(want, "BUFFER_PG") &&
	    (!cJSON_IsString(model) || strcmp(model->valuestring, "dynamic"))) {
		qg_error(d, (struct qg_pos){0},
			 "the switch's buffer model is '%s' (DEVICE_METADATA|localhost "
			 "buffer_model; absent is traditional): qosgen leaves the lossless "
			 "headroom to SONiC's dynamic buffer model (BUFFER_PG profile NULL), "
			 "which needs buffer_model dynamic",
			 cJSON_IsString(model) ? model->valuestring : "traditional");
		errors++;
	}
	if (cJSON_IsString(type) && !strcmp(type->valuestring, "voq")) {
		qg_error(d, (struct qg_pos){0},
			 "the switch is a VOQ switch (DEVICE_METADATA|localhost switch_type voq), "
			 "whose queues are not the QUEUE table's: qosgen does not configure it");
		errors++;
	}
	/*
	 * The egress buffer profiles BUFFER_QUEUE names are the switch's, from
	 * its buffer templates (buffers_defaults_objects.j2): a switch without
	 * them has a buffer configuration qosgen does not know.
	 */
	static const char *const profiles[] = {SONIC_Q_LOSSLESS, SONIC_Q_LOSSY};
	for (size_t k = 0; get(want, "BUFFER_QUEUE") && k < 2; k++)
		if (!get2(have, "BUFFER_PROFILE", profiles[k])) {
			qg_error(d, (struct qg_pos){0},
				 "the switch has no BUFFER_PROFILE|%s, the egress profile SONiC's "
				 "buffer templates give every %s queue, and qosgen puts its ports' "
				 "queues on: create it (as buffers_defaults_objects.j2 does) first",
				 profiles[k], k == 0 ? "lossless" : "lossy");
			errors++;
		}
	errors += judge_removals(want, ports, have, d, oom);
	return errors + judge_watchdog(want, ports, have, d, oom);
}

int sonic_config_judge(const cJSON *want, const cJSON *have, const struct sonic_ports_at *at,
		       struct qg_diags *d)
{
	struct qg_strmap ports;
	bool oom = !port_set(want, &ports);
	int errors = oom ? 0 : judge(want, &ports, have, at, d, &oom);
	qg_strmap_free(&ports);
	if (oom) {
		/* Judged in part, not at all: no patch may go. */
		qg_error(d, (struct qg_pos){0}, "out of memory judging the read-back");
		errors++;
	}
	return errors;
}

/* ---- the configuration the switch should end with ---- */

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
	} else if (get(row, field)) {
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
		if (cJSON_IsNull(f) ? get(row, f->string) != NULL
				    : !cJSON_Compare(get(row, f->string), f, true))
			return false;
	return true;
}

static void add_range(cJSON *t, struct by_port *ix, const char *port, size_t len, int lo, int hi,
		      const cJSON *from, bool *oom)
{
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
		ix_add(ix, c);
	qg_buf_free(&key);
}

/* Split a range row around idx: its other indices keep their fields. The row for idx. */
static cJSON *split(cJSON *t, struct by_port *ix, cJSON *cover, const char *key, size_t len,
		    int idx, bool *oom)
{
	size_t pl;
	int lo, hi;
	ix_remove(ix, cover);
	cJSON *old = cJSON_DetachItemViaPointer(t, cover);
	index_key(old->string, &pl, &lo, &hi);
	add_range(t, ix, key, len, lo, idx - 1, old, oom);
	add_range(t, ix, key, len, idx + 1, hi, old, oom);
	add_range(t, ix, key, len, idx, idx, old, oom);
	cJSON_Delete(old);
	return *oom || ix->oom ? NULL : ix_get(ix, key);
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
	struct field_rows fr;
	if (!field_rows(t, w, &fr)) {
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
		if (!row && !(row = get(t, w->string)) &&
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
	field_rows_free(&fr);
}

static void converge_table(cJSON *t, const cJSON *wt, bool *oom)
{
	enum kind k = kind_of(wt->string);
	struct by_port ix;
	if (!ix_build(&ix, wt->string, k == PORT_ROW || k == PORT_INDEX ? t : NULL))
		*oom = true;
	for (const cJSON *w = wt->child; w && !*oom && !ix.oom; w = w->next) {
		if (k == PORT_FIELD) {
			converge_port_fields(t, w, oom);
			continue;
		}
		if (k == NAMED) {
			cJSON *row = get(t, w->string);
			cJSON *c = cJSON_Duplicate(w, true);
			if (!c)
				*oom = true;
			else if (row)
				cJSON_ReplaceItemInObjectCaseSensitive(t, w->string, c);
			else
				cJSON_AddItemToObject(t, w->string, c);
			continue;
		}
		cJSON *row = ix_get(&ix, w->string);
		size_t len = 0;
		int idx = 0, hi, count;
		if (k == PORT_INDEX && index_key(w->string, &len, &idx, &hi))
			row = covering(&ix, w->string, len, idx, &count);
		if (cJSON_IsNull(w)) {
			/*
			 * A row qosgen removes (config_db.h): a PORT_ROW, or one index
			 * of a PORT_INDEX table, split out of its range first so that
			 * the range's other indices keep their rows.
			 */
			if (row && strcmp(row->string, w->string))
				row = split(t, &ix, row, w->string, len, idx, oom);
			if (row) {
				ix_remove(&ix, row);
				cJSON_Delete(cJSON_DetachItemViaPointer(t, row));
			}
			continue;
		}
		if (row && owned_equal(row, w))
			continue;
		if (row && strcmp(row->string, w->string))
			row = split(t, &ix, row, w->string, len, idx, oom);
		if (!row && !*oom)
			ix_add(&ix, row = cJSON_AddObjectToObject(t, w->string));
		own_fields(row, w, oom);
	}
	*oom |= ix.oom;
	ix_free(&ix);
}

/* A row the intent no longer has goes, and every use of it from the intent's ports. */
static void remove_dropped(cJSON *end, const cJSON *want)
{
	for (size_t i = 0; i < N_NAMED; i++) {
		const struct named *n = &named[i];
		if (!get2(end, n->table, n->name) || get2(want, n->table, n->name))
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(get(end, n->table), n->name);
		cJSON *refs = get(end, n->ref_table);
		for (cJSON *r = refs ? refs->child : NULL, *next; r; r = next) {
			next = r->next;
			const cJSON *f = get(r, n->ref_field);
			if (!cJSON_IsString(f) || strcmp(f->valuestring, n->name))
				continue;
			cJSON_DeleteItemFromObjectCaseSensitive(r, n->ref_field);
			if (!r->child)
				cJSON_Delete(cJSON_DetachItemViaPointer(refs, r));
		}
	}
}

static cJSON *end_state(const cJSON *want, const cJSON *have, bool *oom)
{
	cJSON *end = cJSON_Duplicate(have, true);
	if (!end) {
		*oom = true;
		return NULL;
	}
	for (const cJSON *wt = want->child; wt && !*oom; wt = wt->next) {
		cJSON *t = get(end, wt->string);
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

/* ---- the owned state (config_db_patch.h) ---- */

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
		if (!owned_put(r, f->string, get(row, f->string)))
			return false;
	return true;
}

/* Each of w's fields as the array of its values in the rows of t that have it. */
static bool owned_fields(cJSON *ot, const cJSON *t, const cJSON *w)
{
	struct field_rows fr;
	cJSON *r = cJSON_AddObjectToObject(ot, w->string);
	bool ok = r && field_rows(t, w, &fr);
	if (!ok)
		return false;
	size_t k = 0;
	for (const cJSON *f = w->child; f && ok; f = f->next, k++) {
		cJSON *vals = cJSON_AddArrayToObject(r, f->string);
		ok = vals != NULL;
		for (size_t i = fr.at[k]; ok && i < fr.at[k + 1]; i++)
			ok = cJSON_AddItemToArray(vals, cJSON_Duplicate(fr.hits[i].item, true));
	}
	field_rows_free(&fr);
	return ok;
}

cJSON *sonic_config_owned(const cJSON *want, const cJSON *doc)
{
	cJSON *out = cJSON_CreateObject();
	bool ok = out != NULL;
	for (const cJSON *wt = want ? want->child : NULL; wt && ok; wt = wt->next) {
		enum kind k = kind_of(wt->string);
		const cJSON *t = get(doc, wt->string);
		cJSON *ot = cJSON_AddObjectToObject(out, wt->string);
		struct by_port ix;
		ok = ix_build(&ix, wt->string, k == PORT_ROW || k == PORT_INDEX ? t : NULL) &&
		     ot != NULL;
		for (const cJSON *w = wt->child; w && ok; w = w->next) {
			size_t len;
			int idx, hi, count;
			if (k == NAMED) {
				ok = owned_put(ot, w->string, get(t, w->string));
			} else if (k == PORT_FIELD) {
				ok = owned_fields(ot, t, w);
			} else {
				const cJSON *row = ix_get(&ix, w->string);
				if (k == PORT_INDEX && index_key(w->string, &len, &idx, &hi))
					row = covering(&ix, w->string, len, idx, &count);
				ok = !ix.oom && owned_row(ot, w, row);
			}
		}
		ix_free(&ix);
	}
	/* The rows qosgen names that want does not have: absent after a push. */
	cJSON *gone = ok ? cJSON_AddObjectToObject(out, "(qosgen's rows not in the intent)") : NULL;
	for (size_t i = 0; gone && i < N_NAMED; i++) {
		char key[160];
		if (get2(want, named[i].table, named[i].name))
			continue;
		snprintf(key, sizeof(key), "%s|%s", named[i].table, named[i].name);
		if (!owned_put(gone, key, get2(doc, named[i].table, named[i].name)))
			gone = NULL;
	}
	if (!gone) {
		cJSON_Delete(out);
		return NULL;
	}
	return out;
}

/* ---- the patch ---- */

/*
 * The patch is linear in the read-back: a switch decides how many rows it
 * prints, and cJSON's lookups and cJSON_Compare scan an object for each key
 * (80,000 rows took 102 s: issue 24). Each object's members are sorted
 * once and walked side by side.
 */
struct member {
	const cJSON *v;
	size_t at; /* its place in the object: of two equal keys, the first counts */
};

/* Natural order (Ethernet4 before Ethernet12), then bytes: two keys tie only when equal. */
static int key_cmp(const char *a, const char *b)
{
	int c = qg_natural_cmp(a, b);
	return c ? c : strcmp(a, b);
}

static int by_natural(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = key_cmp(x->v->string, y->v->string);
	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* o's members in natural order; *n of them. NULL with *oom when out of memory. */
static struct member *members(const cJSON *o, size_t *n, bool *oom)
{
	*n = cJSON_IsObject(o) ? (size_t)cJSON_GetArraySize(o) : 0;
	struct member *m = *n ? malloc(*n * sizeof(*m)) : NULL;
	if (*n && !m) {
		*oom = true;
		return NULL;
	}
	size_t i = 0;
	for (const cJSON *c = *n ? o->child : NULL; c; c = c->next, i++)
		m[i] = (struct member){c, i};
	if (m)
		qsort(m, *n, sizeof(*m), by_natural);
	return m;
}

/* Past the members equal to m[i] (a judged read-back has none; the end state may). */
static size_t next_key(const struct member *m, size_t i, size_t n)
{
	size_t j = i + 1;
	while (j < n && !strcmp(m[j].v->string, m[i].v->string))
		j++;
	return j;
}

/* cJSON_Compare, without its scan of b for each key of a. */
static bool same_json(const cJSON *a, const cJSON *b, bool *oom)
{
	if (!cJSON_IsObject(a) || !cJSON_IsObject(b)) {
		if (!cJSON_IsArray(a) || !cJSON_IsArray(b))
			return cJSON_Compare(a, b, true);
		const cJSON *x = a->child, *y = b->child;
		for (; x && y; x = x->next, y = y->next)
			if (!same_json(x, y, oom))
				return false;
		return !x && !y;
	}
	size_t na, nb;
	struct member *ma = members(a, &na, oom), *mb = members(b, &nb, oom);
	bool same = na == nb && !*oom;
	for (size_t i = 0; same && i < na; i++)
		same =
		    !strcmp(ma[i].v->string, mb[i].v->string) && same_json(ma[i].v, mb[i].v, oom);
	free(ma);
	free(mb);
	return same && !*oom;
}

/*
 * RFC 6901: "~" as "~0", "/" as "~1". Sized, never cut: a path cut short
 * names another row or field (a 998-byte row name once made Ethernet12's
 * field Ethernet1's: issue 24).
 */
static void pointer_append(struct qg_buf *path, const char *key)
{
	qg_buf_append(path, "/", 1);
	for (const char *k = key; *k; k++) {
		size_t run = strcspn(k, "~/");
		qg_buf_append(path, k, run);
		k += run;
		if (!*k)
			break;
		qg_buf_append(path, *k == '~' ? "~0" : "~1", 2);
	}
}

static void op(cJSON *ops, const char *what, const char *path, const cJSON *value, bool *oom)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "op", what) ||
	    !cJSON_AddStringToObject(o, "path", path) ||
	    (value && !cJSON_AddItemToObject(o, "value", cJSON_Duplicate(value, true)))) {
		cJSON_Delete(o);
		*oom = true;
		return;
	}
	cJSON_AddItemToArray(ops, o);
}

/* Tables (depth 0), rows (1), fields (2): the fewest operations from h to e. */
static void diff(cJSON *ops, const cJSON *h, const cJSON *e, struct qg_buf *path, int depth,
		 bool *oom)
{
	size_t nh, ne, len = path->len;
	struct member *mh = members(h, &nh, oom), *me = members(e, &ne, oom);
	for (size_t i = 0, j = 0; (i < nh || j < ne) && !*oom && !path->failed;) {
		int c = i == nh ? 1 : j == ne ? -1 : key_cmp(mh[i].v->string, me[j].v->string);
		const cJSON *hv = c <= 0 ? mh[i].v : NULL, *ev = c >= 0 ? me[j].v : NULL;
		pointer_append(path, (hv ? hv : ev)->string);
		if (path->failed)
			break;
		if (!ev)
			op(ops, "remove", path->data, NULL, oom);
		else if (!hv)
			op(ops, "add", path->data, ev, oom);
		else if (depth < 2 && cJSON_IsObject(hv) && cJSON_IsObject(ev))
			diff(ops, hv, ev, path, depth + 1, oom);
		else if (!same_json(hv, ev, oom))
			op(ops, "replace", path->data, ev, oom);
		path->len = len;
		if (path->data)
			path->data[len] = '\0';
		if (hv)
			i = next_key(mh, i, nh);
		if (ev)
			j = next_key(me, j, ne);
	}
	if (path->failed)
		*oom = true;
	free(mh);
	free(me);
}

cJSON *sonic_config_patch(const cJSON *want, const cJSON *have, bool *oom)
{
	*oom = false;
	cJSON *end = end_state(want, have, oom);
	cJSON *ops = *oom ? NULL : cJSON_CreateArray();
	struct qg_buf path = {0};
	if (ops)
		diff(ops, have, end, &path, 0, oom);
	else
		*oom = true;
	qg_buf_free(&path);
	cJSON_Delete(end);
	if (*oom || !ops->child) {
		cJSON_Delete(ops);
		return NULL;
	}
	return ops;
}

/*
 * The value at an RFC 6901 pointer, or NULL; key holds a token and is at
 * least as long as the pointer. No fixed buffer: a 600-byte row name cut to
 * 511 named no row in either read-back, and a half-applied patch read as
 * "the same" (issue 24).
 */
static const cJSON *at_pointer(const cJSON *o, const char *path, char *key)
{
	while (o && *path == '/') {
		size_t n = 0;
		for (path++; *path && *path != '/'; path++) {
			if (*path == '~' && (path[1] == '0' || path[1] == '1'))
				key[n++] = *++path == '0' ? '~' : '/';
			else
				key[n++] = *path;
		}
		key[n] = '\0';
		o = get(o, key);
	}
	return o;
}

/*
 * Every node of a document down to a field (table, row, field: the depth of
 * the patch's paths) by its pointer: looking each of a patch's paths up in
 * cJSON walked a table per operation, and a patch has operations per port.
 * Of two equal keys the first counts, as get().
 */
struct paths {
	struct qg_strmap at; /* pointer -> node; the keys are owned */
	bool oom;
};

static void paths_add(struct paths *p, const cJSON *o, struct qg_buf *path, int depth)
{
	size_t len = path->len;
	for (const cJSON *c = cJSON_IsObject(o) ? o->child : NULL; c && !p->oom; c = c->next) {
		pointer_append(path, c->string);
		char *k = path->failed ? NULL : strdup(path->data);
		int put = k ? qg_strmap_put(&p->at, k, (void *)c, NULL) : -1;
		if (put != 0)
			free(k);
		p->oom = put < 0;
		if (depth < 2)
			paths_add(p, c, path, depth + 1);
		path->len = len;
		path->data[len] = '\0';
	}
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->at.cap; i++)
		free((char *)p->at.keys[i]);
	qg_strmap_free(&p->at);
}

static bool paths_of(const cJSON *doc, struct paths *p)
{
	struct qg_buf path = {0};
	*p = (struct paths){0};
	qg_buf_puts(&path, "");
	p->oom = path.failed;
	if (!p->oom)
		paths_add(p, doc, &path, 0);
	qg_buf_free(&path);
	if (p->oom)
		paths_free(p);
	return !p->oom;
}

/*
 * The node at path: the pointer decoded as at_pointer() does and written as
 * the index's are (pointer_append()); deeper than a field, walked from the
 * document. key is scratch as long as the path.
 */
static const cJSON *node_at(const struct paths *p, const cJSON *doc, const char *path, char *key,
			    struct qg_buf *canon)
{
	canon->len = 0;
	qg_buf_puts(canon, "");
	int tokens = 0;
	for (const char *s = path; *s == '/' && tokens <= 3; tokens++) {
		size_t n = 0;
		for (s++; *s && *s != '/'; s++) {
			if (*s == '~' && (s[1] == '0' || s[1] == '1'))
				key[n++] = *++s == '0' ? '~' : '/';
			else
				key[n++] = *s;
		}
		key[n] = '\0';
		pointer_append(canon, key);
	}
	if (tokens > 3 || canon->failed)
		return at_pointer(doc, path, key);
	return tokens ? qg_strmap_get(&p->at, canon->data) : doc;
}

bool sonic_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b)
{
	struct paths pa, pb;
	bool built = paths_of(a, &pa), oom = false;
	if (built && !(built = paths_of(b, &pb)))
		paths_free(&pa);
	struct qg_buf canon = {0};
	bool same = built;
	const cJSON *o;
	for (o = patch ? patch->child : NULL; o && same; o = o->next) {
		const cJSON *p = get(o, "path");
		char *key = cJSON_IsString(p) ? malloc(strlen(p->valuestring) + 1) : NULL;
		oom = cJSON_IsString(p) && !key;
		const cJSON *x = key ? node_at(&pa, a, p->valuestring, key, &canon) : NULL;
		const cJSON *y = key ? node_at(&pb, b, p->valuestring, key, &canon) : NULL;
		/* Out of memory proves nothing: not the same. */
		same = key && !canon.failed && (!(x || y) || same_json(x, y, &oom)) && !oom;
		free(key);
	}
	qg_buf_free(&canon);
	if (built) {
		paths_free(&pa);
		paths_free(&pb);
	}
	return same;
}

void sonic_patch_text(const cJSON *patch, struct qg_buf *out)
{
	if (!patch)
		return;
	qg_buf_puts(out, "[\n");
	const cJSON *o;
	cJSON_ArrayForEach(o, patch)
	{
		char *s = cJSON_PrintUnformatted(o);
		if (!s) {
			out->failed = true;
			return;
		}
		qg_buf_printf(out, "  %s%s\n", s, o->next ? "," : "");
		cJSON_free(s);
	}
	qg_buf_puts(out, "]\n");
}
