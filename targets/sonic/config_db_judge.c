/* SPDX-License-Identifier: MIT */
/*
 * What qosgen can judge of a read-back against the model (config_db_judge.h):
 * what the patch cannot make exact, each an error.
 */
#include "config_db_judge.h"

#include "config_db.h"
#include "config_db_rows.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int judge_indices(const struct qg_strmap *ports, const cJSON *wt, const cJSON *ht,
			 struct qg_diags *d, bool *oom)
{
	int errors = 0;
	/* Keys of the intent's ports that say no index: which queues they mean is unknown. */
	for (const cJSON *r = ht ? ht->child : NULL; r; r = r->next) {
		size_t pl, n;
		int lo, hi;
		if (cdb_row_port(wt->string, r->string, &n) &&
		    cdb_intent_port(ports, r->string, n, oom) &&
		    !cdb_index_key(r->string, &pl, &lo, &hi)) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back's %s|%s names no index or range (expected '%.*s|3' "
				 "or '%.*s|3-4'); is this config_db?",
				 wt->string, r->string, (int)n, r->string, (int)n, r->string);
			errors++;
		}
	}
	struct cdb_by_port ix;
	if (!cdb_ix_build(&ix, wt->string, ht))
		*oom = true;
	for (const cJSON *w = wt->child; w && !*oom; w = w->next) {
		size_t len;
		int idx, hi, count;
		if (!cdb_index_key(w->string, &len, &idx, &hi))
			continue;
		cdb_covering(&ix, w->string, len, idx, &count);
		if (count > 1) {
			qg_error(d, (struct qg_pos){0},
				 "the read-back has %d %s rows covering %s: which one the switch "
				 "uses is not defined; keep one",
				 count, wt->string, w->string);
			errors++;
		}
	}
	*oom |= ix.oom;
	cdb_ix_free(&ix);
	return errors;
}

/* The rows of ref_table outside the intent that use `name`: each an error. */
static int judge_refs(const struct cdb_named *n, const char *name, const struct qg_strmap *ports,
		      const cJSON *have, struct qg_diags *d, bool *oom)
{
	int errors = 0;
	const cJSON *refs = cdb_get(have, n->ref_table);
	for (const cJSON *r = refs ? refs->child : NULL; r; r = r->next) {
		const cJSON *f = cdb_get(r, n->ref_field);
		size_t len;
		if (!cJSON_IsString(f) || strcmp(f->valuestring, name) ||
		    !cdb_row_port(n->ref_table, r->string, &len) ||
		    cdb_intent_port(ports, r->string, len, oom))
			continue;
		qg_error(d, (struct qg_pos){0},
			 "the intent no longer has %s|%s, but %s|%s, a port the intent "
			 "does not list, uses it (%s): add %.*s to the intent, or change "
			 "that row first",
			 n->table, name, n->ref_table, r->string, n->ref_field, (int)len,
			 r->string);
		errors++;
	}
	return errors;
}

/*
 * A row qosgen would remove that a port outside the intent still uses: one
 * of qosgen's names, or a row of a family (a role's WRED profile) that the
 * intent no longer has.
 */
static int judge_removals(const cJSON *want, const struct qg_strmap *ports, const cJSON *have,
			  struct qg_diags *d, bool *oom)
{
	int errors = 0;
	for (size_t i = 0; i < cdb_n_named; i++) {
		const struct cdb_named *n = &cdb_named[i];
		const cJSON *t = cdb_get(have, n->table);
		for (const cJSON *row = t ? t->child : NULL; row; row = row->next)
			if (cdb_named_match(n, row->string) &&
			    !cdb_get2(want, n->table, row->string))
				errors += judge_refs(n, row->string, ports, have, d, oom);
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
	const cJSON *poll = cdb_get2(cdb_get(want, "PFC_WD"), SONIC_PFCWD_GLOBAL, "POLL_INTERVAL");
	if (!cJSON_IsString(poll))
		return 0;
	long p = strtol(poll->valuestring, NULL, 10);
	int errors = 0;
	static const char *const times[] = {"detection_time", "restoration_time"};
	for (const cJSON *r = cdb_get(have, "PFC_WD") ? cdb_get(have, "PFC_WD")->child : NULL; r;
	     r = r->next) {
		if (!strcmp(r->string, SONIC_PFCWD_GLOBAL) ||
		    cdb_intent_port(ports, r->string, strlen(r->string), oom))
			continue;
		for (size_t k = 0; k < 2; k++) {
			const cJSON *v = cdb_get(r, times[k]);
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
static long *port_numbers(const cJSON *table, struct cdb_by_port *only_missing_in, size_t *n)
{
	size_t cap = (size_t)cJSON_GetArraySize(table) + 1, k = 0;
	long *v = malloc(cap * sizeof(*v));
	if (!v)
		return NULL;
	for (const cJSON *p = table ? table->child : NULL; p; p = p->next) {
		long x = ethernet_number(p->string);
		if (x < 0 || (only_missing_in && cdb_ix_get(only_missing_in, p->string)))
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
	const cJSON *wp = cdb_get(want, "PORT"), *hp = cdb_get(have, "PORT");
	size_t n_want = 0, n_missing = 0, n_have = 0;
	struct cdb_by_port have_ports; /* by name: a lookup per port, not a walk of the table */
	if (!cdb_ix_build(&have_ports, "PORT", hp))
		*oom = true;
	for (const cJSON *p = wp ? wp->child : NULL; p && !*oom; p = p->next) {
		n_want++;
		n_missing += !cdb_ix_get(&have_ports, p->string);
	}
	*oom |= have_ports.oom;
	if (n_missing == 0 || *oom) {
		cdb_ix_free(&have_ports);
		return 0;
	}
	long *missing = port_numbers(wp, &have_ports, &n_missing);
	cdb_ix_free(&have_ports);
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
		const cJSON *ht = cdb_get(have, wt->string);
		for (const cJSON *r = ht ? ht->child : NULL; r; r = r->next)
			if (!cJSON_IsObject(r)) {
				qg_error(d, (struct qg_pos){0},
					 "the read-back's %s|%s is not a row of fields; is this "
					 "config_db?",
					 wt->string, r->string);
				return errors + 1;
			}
		if (cdb_kind_of(wt->string) == CDB_PORT_INDEX)
			errors += judge_indices(ports, wt, ht, d, oom);
	}
	errors += judge_missing_ports(want, have, at, d, oom);
	const cJSON *md = cdb_get2(have, "DEVICE_METADATA", "localhost");
	const cJSON *model = cdb_get(md, "buffer_model"), *type = cdb_get(md, "switch_type");
	if (cdb_get(want, "BUFFER_PG") &&
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
	for (size_t k = 0; cdb_get(want, "BUFFER_QUEUE") && k < 2; k++)
		if (!cdb_get2(have, "BUFFER_PROFILE", profiles[k])) {
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
	bool oom = !cdb_port_set(want, &ports);
	int errors = oom ? 0 : judge(want, &ports, have, at, d, &oom);
	qg_strmap_free(&ports);
	if (oom) {
		/* Judged in part, not at all: no patch may go. */
		qg_error(d, (struct qg_pos){0}, "out of memory judging the read-back");
		errors++;
	}
	return errors;
}
