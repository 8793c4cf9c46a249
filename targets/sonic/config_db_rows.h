/* SPDX-License-Identifier: MIT */
/*
 * What the pieces of a SONiC read-back's comparison share (config_db_rows.c):
 * the judge (config_db_judge.h), the end state (config_db_end.h), the owned
 * state (config_db_owned.h) and the patch (config_db_patch.h). Internal to
 * targets/sonic/.
 */
#ifndef QG_SONIC_CONFIG_DB_ROWS_H
#define QG_SONIC_CONFIG_DB_ROWS_H

#include "../../lib/strmap.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* How a table's rows are keyed, and so what of a row qosgen owns. */
enum cdb_kind {
	CDB_NAMED,	/* qosgen's own name: the whole row */
	CDB_PORT_ROW,	/* "Ethernet0": the fields qosgen writes */
	CDB_PORT_INDEX, /* "Ethernet0|3" or "Ethernet0|3-4": the same, per index */
	CDB_PORT_FIELD, /* a field named by the port, in whichever row has it (CABLE_LENGTH) */
};

enum cdb_kind cdb_kind_of(const char *table);

/*
 * The rows qosgen names, and the field that refers to each from a port's
 * row. prefix: name is a family's prefix, every row whose name starts with
 * it qosgen's (a port role's WRED profile, config_db.h), so that a row of a
 * role the intent no longer has is found and removed.
 */
struct cdb_named {
	const char *table, *name, *ref_table, *ref_field;
	bool prefix;
};
extern const struct cdb_named cdb_named[];
extern const size_t cdb_n_named;

/* Whether a row of n's table called name is n's (its name, or one of its family). */
bool cdb_named_match(const struct cdb_named *n, const char *name);

/* o's member key (o an object), or NULL; cdb_get2: o[a][b]. */
cJSON *cdb_get(const cJSON *o, const char *key);
cJSON *cdb_get2(const cJSON *o, const char *a, const char *b);

/* "Ethernet0|3" or "Ethernet0|3-4": the port name's length and the index range. */
bool cdb_index_key(const char *key, size_t *port_len, int *lo, int *hi);

/* The port a row of table belongs to: the first *len bytes of key; false when none. */
bool cdb_row_port(const char *table, const char *key, size_t *len);

/* The intent's ports: want's PORT keys. false when out of memory. */
bool cdb_port_set(const cJSON *want, struct qg_strmap *ports);

/* Whether the first len bytes of port name one of the intent's ports. */
bool cdb_intent_port(const struct qg_strmap *ports, const char *port, size_t len, bool *oom);

/* One port's rows of a table, in the table's order (a port has few). */
struct cdb_group {
	cJSON **rows;
	size_t n, cap;
	char name[]; /* the port: the map's key */
};

/* A per-port table's rows by the port they belong to (cdb_row_port()). */
struct cdb_by_port {
	const char *table;
	struct qg_strmap ports; /* name -> struct cdb_group */
	bool oom;
};

/* Index r under its port (out of memory: ix->oom). */
void cdb_ix_add(struct cdb_by_port *ix, cJSON *r);
void cdb_ix_remove(struct cdb_by_port *ix, const cJSON *r);
/* t's rows by port, t the table `table` or NULL. false when out of memory. */
bool cdb_ix_build(struct cdb_by_port *ix, const char *table, const cJSON *t);
void cdb_ix_free(struct cdb_by_port *ix);
/* The table's first row keyed key, as cdb_get(t, key). */
cJSON *cdb_ix_get(struct cdb_by_port *ix, const char *key);
/* The row covering port|idx, and how many do (a judged read-back has one). */
cJSON *cdb_covering(struct cdb_by_port *ix, const char *port, size_t len, int idx, int *count);

/*
 * A CDB_PORT_FIELD table's fields named as those of want's row w
 * (cdb_field_rows() in config_db_rows.c says how hits and at are laid out).
 */
struct cdb_hit {
	cJSON *row, *item;
};

struct cdb_field_rows {
	struct cdb_hit *hits;
	size_t *at;
};

bool cdb_field_rows(const cJSON *t, const cJSON *w, struct cdb_field_rows *fr);
void cdb_field_rows_free(struct cdb_field_rows *fr);

#endif
