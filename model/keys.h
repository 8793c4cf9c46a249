/* SPDX-License-Identifier: MIT */
/*
 * The one table of intent keys (issue 26, part 3): each key's path, the kinds
 * of value it takes, its range or allowed values, its default and a line of
 * documentation. The loader (intent/intent*.c) takes each mapping's allowed keys
 * and the integer ranges from it, emit/keys_schema.c turns it into the JSON
 * Schema of the intent (docs/intent.schema.json) and the man page's key list.
 * A host platform's own keys are its target's rows (struct qg_target's
 * key_rows), not the core's: the table's hosts[] rows are the keys every host
 * takes.
 */
#ifndef QG_KEYS_H
#define QG_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* acknowledge's because: text for people, printed by explain as it is. */
#define QG_BECAUSE_RULE "1..200 bytes of text without control characters"

/* The kinds of value a key takes: one bit each; a key may take two (ets: strict or a mapping). */
enum {
	QG_KEY_INT = 1u << 0,	 /* a plain integer in lo..hi */
	QG_KEY_NUMBER = 1u << 1, /* a plain number in (lo, hi] hundredths, at most two decimals */
	QG_KEY_BOOL = 1u << 2,	 /* true or false, unquoted */
	QG_KEY_STRING = 1u << 3, /* text; rule says which */
	QG_KEY_ENUM = 1u << 4,	 /* one of values (or of the registry's, values_from) */
	QG_KEY_MAP = 1u << 5,	 /* a mapping of the rows under path + "." */
	QG_KEY_LIST = 1u << 6,	 /* a list of the row path + "[]" */
};

/* Where an enumeration's values come from when they are not the row's own. */
enum qg_key_values {
	QG_KV_ROW,		/* values */
	QG_KV_SWITCH_PLATFORMS, /* the registry's switch targets */
	QG_KV_HOST_PLATFORMS,	/* the registry's host targets */
	QG_KV_WARNINGS,		/* the warnings an intent may acknowledge (model/warnings.h) */
};

/*
 * The struct of the model (model/model.h) a key's value lands in, at the row's
 * offset: an int (INT; ENUM as its index; NUMBER in hundredths), a bool
 * (BOOL) or a char array (STRING). NONE: a key the loader and the model's JSON treat on their
 * own (a mapping, a list, a value that is more than one field).
 */
enum qg_key_base {
	QG_KB_NONE,
	QG_KB_MODEL,  /* struct qg_model: the top level's version and fabric */
	QG_KB_QOS,    /* struct qg_qos */
	QG_KB_CLASS,  /* struct qg_class: either class, the row under its path */
	QG_KB_VERIFY, /* struct qg_verify */
	QG_KB_SWITCH, /* struct qg_switch */
	QG_KB_HOST,   /* struct qg_host */
	QG_KB_NIC,    /* struct qg_nic: a host's NIC (its nics[0] for the one-NIC shorthand) */
	QG_KB_DVS,    /* struct qg_dvs */
};

/*
 * One key. path: dotted from the top ("qos.lossless.ecn.min_kb"); a list's
 * items are "<list>[]" ("switches[]", "switches[].name"), a mapping whose keys
 * are free (cable_length_m's ports) has one row "<map>.*". A host target's
 * rows are relative to its hosts entry ("netdev").
 */
struct qg_key {
	const char *path;
	unsigned type;		   /* QG_KEY_* */
	long lo, hi;		   /* INT: the range; NUMBER: in hundredths, lo excluded */
	const char *const *values; /* ENUM, NULL-terminated; index i is the model's enum value i */
	enum qg_key_values values_from;
	bool required;
	bool nonempty;	  /* LIST: at least one item */
	bool unique;	  /* LIST: no item twice */
	const char *def;  /* the default, as text; NULL: none (absent means absent) */
	const char *rule; /* STRING: what is allowed (model/names.h's rules) */
	const char *doc;  /* one line */
	enum qg_key_base base;
	size_t offset;		   /* where in base the value lands */
	size_t size;		   /* STRING: the size of the char array it lands in */
	bool (*ok)(const char *s); /* STRING: whether a value keeps rule (model/names.h) */
	/*
	 * STRING: rule as a regular expression that accepts exactly what ok
	 * does (tests/unit/test_keys.c compares them), for the JSON Schema; in
	 * the syntax ECMA 262 and POSIX ERE share. NULL: no such expression.
	 * A mapping's free-key row ("<map>.*") of MAP type: its keys' (names').
	 */
	const char *pattern;
	/*
	 * Where in base the bool lands that says the key was given, plus one
	 * (QG_KEY_GIVEN); 0: a key that lands is given (required, or with no
	 * default to fall back to), optional text when it is not empty.
	 * explain says "given" or "default" by it.
	 */
	size_t given;
	/*
	 * INT, NUMBER: the unit a value is in ("metres") and, lower case and
	 * space-separated, the spellings of it a value may carry ("m"): "40m"
	 * is told to be written 40 (intent/intent_walk.c). NULL: none.
	 */
	const char *unit, *unit_spellings;
	/*
	 * Named in the "belongs in" hint when the key is given at another
	 * level: its home is the row's own path's mapping (intent/intent_walk.c).
	 */
	bool homed;
	/*
	 * Required unless the key `unless` of the same mapping is given, which
	 * then refuses this one (a host's netdev: unless nics). NULL: none.
	 */
	const char *unless;
	/*
	 * LIST of mappings whose keys are not the core table's (a host
	 * target's own list: linux's nics): its items' rows, paths relative to
	 * the item, ending in a row whose path is NULL. NULL: none.
	 */
	const struct qg_key *items;
};

/* The patterns of model/names.h's rules (their checks: model/names.c). */
#define QG_NAME_PATTERN "^[a-z0-9][a-z0-9._-]{0,62}$"
#define QG_DVS_NAME_PATTERN "^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$"
#define QG_LABEL_PATTERN "^[A-Za-z0-9]([A-Za-z0-9._ -]{0,78}[A-Za-z0-9._-])?$"
#define QG_USER_PATTERN "^[_a-z][a-z0-9_.-]{0,31}$"
#define QG_NETDEV_PATTERN "^[A-Za-z0-9][A-Za-z0-9_.-]{0,14}$"
#define QG_RDMA_DEVICE_PATTERN "^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
#define QG_VMNIC_PATTERN "^vmnic[0-9]{1,4}$"
#define QG_VMKNIC_PATTERN "^vmk[0-9]{1,4}$"
#define QG_POOL_PATTERN "^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$"

/* A row's landing: an int field, or a char array (its size too), of the model's struct type. */
#define QG_KEY_AT(kb, type, field) .base = kb, .offset = offsetof(type, field)
/* The bool that says the row's key was given: a field of the same struct. */
#define QG_KEY_GIVEN(type, field) .given = offsetof(type, field) + 1
#define QG_KEY_AT_TEXT(kb, type, field)                                                            \
	QG_KEY_AT(kb, type, field), .size = sizeof(((type *)0)->field)

/* The intent's keys, in the order the loader lists them; n_out gets their number. */
const struct qg_key *qg_keys(size_t *n_out);

/* Whether row k's key was given, in base (its landing's struct): see qg_key's given. */
bool qg_key_given(const struct qg_key *k, const void *base);

/* The row of path, or NULL. */
const struct qg_key *qg_key_find(const char *path);

/*
 * The names of the keys of the mapping at path ("qos", "switches[]", "" for
 * the top level), in table order, NULL-terminated, into names (room for cap
 * names and the NULL). Returns how many.
 */
size_t qg_key_children(const char *path, const char **names, size_t cap);

/*
 * The table path of a diagnostic path: list indices and names become "[]"
 * ("switches[leaf1].port" -> "switches[].port"; "qos.lossless.dscp[2]" ->
 * "qos.lossless.dscp[]"), into out.
 */
void qg_key_path(const char *path, char *out, size_t len);

#endif
