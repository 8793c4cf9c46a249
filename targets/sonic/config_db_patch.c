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
#include "config_db.h"

#include <ctype.h>
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

/* Whether the first len bytes of port name one of the intent's ports. */
static bool intent_port(const cJSON *want, const char *port, size_t len)
{
	const cJSON *ports = get(want, "PORT");
	for (const cJSON *p = ports ? ports->child : NULL; p; p = p->next)
		if (!strncmp(p->string, port, len) && !p->string[len])
			return true;
	return false;
}

static bool of_port(const char *key, const char *port, size_t len)
{
	return !strncmp(key, port, len) && key[len] == '|';
}

/* The row of table t covering port|idx, and how many do (a judged read-back has one). */
static cJSON *covering(const cJSON *t, const char *port, size_t len, int idx, int *count)
{
	cJSON *found = NULL;
	*count = 0;
	for (cJSON *r = t ? t->child : NULL; r; r = r->next) {
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

/* ---- what qosgen can judge ---- */

static int judge_indices(const cJSON *want, const cJSON *wt, const cJSON *ht, struct qg_diags *d)
{
	int errors = 0;
	/* Keys of the intent's ports that say no index: which queues they mean is unknown. */
	for (const cJSON *r = ht ? ht->child : NULL; r; r = r->next) {
		size_t pl, n;
		int lo, hi;
		if (row_port(wt->string, r->string, &n) && intent_port(want, r->string, n) &&
		    !index_key(r->string, &pl, &lo, &hi)) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back's %s|%s names no index or range (expected '%.*s|3' "
				 "or '%.*s|3-4'); is this config_db?",
				 wt->string, r->string, (int)n, r->string, (int)n, r->string);
			errors++;
		}
	}
	for (const cJSON *w = wt->child; w; w = w->next) {
		size_t len;
		int idx, hi, count;
		if (!index_key(w->string, &len, &idx, &hi))
			continue;
		covering(ht, w->string, len, idx, &count);
		if (count > 1) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back has %d %s rows covering %s: which one the switch "
				 "uses is not defined; keep one",
				 count, wt->string, w->string);
			errors++;
		}
	}
	return errors;
}

/* A row qosgen would remove that a port outside the intent still uses. */
static int judge_removals(const cJSON *want, const cJSON *have, struct qg_diags *d)
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
			    intent_port(want, r->string, len))
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
static int judge_watchdog(const cJSON *want, const cJSON *have, struct qg_diags *d)
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
		    intent_port(want, r->string, strlen(r->string)))
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
static long *port_numbers(const cJSON *table, const cJSON *only_missing_in, size_t *n)
{
	size_t cap = (size_t)cJSON_GetArraySize(table) + 1, k = 0;
	long *v = malloc(cap * sizeof(*v));
	if (!v)
		return NULL;
	for (const cJSON *p = table ? table->child : NULL; p; p = p->next) {
		long x = ethernet_number(p->string);
		if (x < 0 || (only_missing_in && get(only_missing_in, p->string)))
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
			       const struct sonic_ports_at *at, struct qg_diags *d)
{
	const cJSON *wp = get(want, "PORT"), *hp = get(have, "PORT");
	size_t n_want = 0, n_missing = 0, n_have = 0;
	for (const cJSON *p = wp ? wp->child : NULL; p; p = p->next) {
		n_want++;
		n_missing += !get(hp, p->string);
	}
	if (n_missing == 0)
		return 0;
	long *missing = port_numbers(wp, hp, &n_missing);
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

int sonic_config_judge(const cJSON *want, const cJSON *have, const struct sonic_ports_at *at,
		       struct qg_diags *d)
{
	int errors = 0;
	for (const cJSON *wt = want->child; wt; wt = wt->next) {
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
			errors += judge_indices(want, wt, ht, d);
	}
	errors += judge_missing_ports(want, have, at, d);
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
	return errors + judge_removals(want, have, d) + judge_watchdog(want, have, d);
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

static void add_range(cJSON *t, const char *port, size_t len, int lo, int hi, const cJSON *from,
		      bool *oom)
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
	if (!c)
		*oom = true;
	else
		cJSON_AddItemToObject(t, key.data, c);
	qg_buf_free(&key);
}

/* Split a range row around idx: its other indices keep their fields. The row for idx. */
static cJSON *split(cJSON *t, cJSON *cover, const char *key, size_t len, int idx, bool *oom)
{
	size_t pl;
	int lo, hi;
	cJSON *old = cJSON_DetachItemViaPointer(t, cover);
	index_key(old->string, &pl, &lo, &hi);
	add_range(t, key, len, lo, idx - 1, old, oom);
	add_range(t, key, len, idx + 1, hi, old, oom);
	add_range(t, key, len, idx, idx, old, oom);
	cJSON_Delete(old);
	return *oom ? NULL : get(t, key);
}

/* A port's field set in every row that has it, else in want's row: no port ends with two. */
static void converge_port_fields(cJSON *t, const cJSON *w, bool *oom)
{
	for (const cJSON *f = w->child; f && !*oom; f = f->next) {
		bool found = false;
		for (cJSON *r = t->child; r; r = r->next)
			if (get(r, f->string)) {
				set_field(r, f->string, f, oom);
				found = true;
			}
		if (!found) {
			cJSON *row = get(t, w->string);
			if (!row && !(row = cJSON_AddObjectToObject(t, w->string)))
				*oom = true;
			else
				set_field(row, f->string, f, oom);
		}
	}
}

static void converge_table(cJSON *t, const cJSON *wt, bool *oom)
{
	enum kind k = kind_of(wt->string);
	for (const cJSON *w = wt->child; w && !*oom; w = w->next) {
		cJSON *row = get(t, w->string);
		if (k == PORT_FIELD) {
			converge_port_fields(t, w, oom);
			continue;
		}
		if (k == NAMED) {
			cJSON *c = cJSON_Duplicate(w, true);
			if (!c)
				*oom = true;
			else if (row)
				cJSON_ReplaceItemInObjectCaseSensitive(t, w->string, c);
			else
				cJSON_AddItemToObject(t, w->string, c);
			continue;
		}
		size_t len = 0;
		int idx = 0, hi, count;
		if (k == PORT_INDEX && index_key(w->string, &len, &idx, &hi))
			row = covering(t, w->string, len, idx, &count);
		if (cJSON_IsNull(w)) {
			/*
			 * A row qosgen removes (config_db.h): a PORT_ROW, or one index
			 * of a PORT_INDEX table, split out of its range first so that
			 * the range's other indices keep their rows.
			 */
			if (row && strcmp(row->string, w->string))
				row = split(t, row, w->string, len, idx, oom);
			if (row)
				cJSON_Delete(cJSON_DetachItemViaPointer(t, row));
			continue;
		}
		if (row && owned_equal(row, w))
			continue;
		if (row && strcmp(row->string, w->string))
			row = split(t, row, w->string, len, idx, oom);
		if (!row && !*oom)
			row = cJSON_AddObjectToObject(t, w->string);
		own_fields(row, w, oom);
	}
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

cJSON *sonic_config_owned(const cJSON *want, const cJSON *doc)
{
	cJSON *out = cJSON_CreateObject();
	bool ok = out != NULL;
	for (const cJSON *wt = want ? want->child : NULL; wt && ok; wt = wt->next) {
		enum kind k = kind_of(wt->string);
		const cJSON *t = get(doc, wt->string);
		cJSON *ot = cJSON_AddObjectToObject(out, wt->string);
		ok = ot != NULL;
		for (const cJSON *w = wt->child; w && ok; w = w->next) {
			const cJSON *row = get(t, w->string);
			size_t len;
			int idx, hi, count;
			if (k == NAMED) {
				ok = owned_put(ot, w->string, row);
			} else if (k == PORT_FIELD) {
				cJSON *r = cJSON_AddObjectToObject(ot, w->string);
				for (const cJSON *f = w->child; r && f && ok; f = f->next) {
					cJSON *vals = cJSON_AddArrayToObject(r, f->string);
					ok = vals != NULL;
					for (const cJSON *dr = t ? t->child : NULL; dr && ok;
					     dr = dr->next)
						if (get(dr, f->string))
							ok = cJSON_AddItemToArray(
							    vals, cJSON_Duplicate(
								      get(dr, f->string), true));
				}
				ok = ok && r;
			} else {
				if (k == PORT_INDEX && index_key(w->string, &len, &idx, &hi))
					row = covering(t, w->string, len, idx, &count);
				ok = owned_row(ot, w, row);
			}
		}
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

bool sonic_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, patch)
	{
		const cJSON *p = get(o, "path");
		if (!cJSON_IsString(p))
			return false;
		char *key = malloc(strlen(p->valuestring) + 1);
		bool oom = !key;
		const cJSON *x = key ? at_pointer(a, p->valuestring, key) : NULL;
		const cJSON *y = key ? at_pointer(b, p->valuestring, key) : NULL;
		bool same = !oom && (!(x || y) || same_json(x, y, &oom)) && !oom;
		free(key);
		/* Out of memory proves nothing: not the same. */
		if (!same)
			return false;
	}
	return true;
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
