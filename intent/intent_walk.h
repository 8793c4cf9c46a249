/* SPDX-License-Identifier: MIT */
/*
 * The walk's shared state and its helpers for the intent loader (intent/intent.c and
 * intent/intent_*.c): mappings and their keys (unknown, misplaced, duplicate),
 * scalars read with their range, unit and quoting rules, platform names, and
 * the bookkeeping of issue 25 (causes and consequences, refused hosts).
 */
#ifndef QG_INTENT_WALK_H
#define QG_INTENT_WALK_H

#include "../model/diag.h"
#include "../model/keys.h"
#include "../model/model.h"
#include "../lib/strmap.h"
#include "../model/target.h"
#include "yamlast.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A device name's first use: where and in which list, for "first used here". */
struct name_use {
	struct qg_pos pos;
	const char *list;
};

struct walk {
	struct qg_diags *d;
	struct qg_model *m;
	const struct qg_target *const *targets; /* the registry: platforms by name */
	unsigned bad;				/* BAD_*: the qos values that could not be read */
	/*
	 * Device names across switches, hosts and dvs (one namespace: an
	 * inventory built from the intent cannot hold two devices of one name),
	 * and host names to their index for references: hash lookups, so that a
	 * fabric's validation is linear in its devices.
	 */
	struct qg_strmap names; /* name -> index + 1 into uses */
	struct name_use *uses;
	size_t n_uses;
	struct qg_strmap hosts; /* host name -> index + 1 into m->hosts */
	bool hosts_indexed;
	/*
	 * Causes and their consequences (issue 25, item 4). A key given at the
	 * wrong level is refused there, with where it belongs (misplaced); a
	 * diagnostic that its absence from there caused (a consequence: a
	 * "missing key", a warning that ECN is off) is removed once the walk
	 * is over, since the first error says it already.
	 */
	struct misplaced {
		const char *key;
		char *home; /* key_home()'s, owned */
	} * misplaced;
	size_t n_misplaced;
	struct consequence {
		const char *key;
		char *path;   /* where the key was missed */
		size_t index; /* the diagnostic's, in w->d */
	} * conseq;
	size_t n_conseq;
	/*
	 * Host entries that were refused (poisoned): a reference to one of
	 * their names says nothing more; hosts_refused: the whole list was.
	 */
	struct qg_strmap poisoned; /* refused names -> (void *)1 */
	const char **patterns;	   /* refused host lists, at most POISONED_PATTERNS */
	size_t n_patterns;
	bool hosts_refused;
	/* Switch SSH endpoints (qg_address_key) -> index + 1 into m->switches. */
	struct qg_strmap endpoints;
	char (*endpoint_keys)[QG_ADDR_LEN + 16];
	struct qg_pos *address_pos;	   /* each switch's address, for the note */
	bool qos_read;			   /* qos was a mapping: settle_switch_mtu runs */
	const struct qg_ynode *switch_mtu; /* qos.switch_mtu, read after the switches */
	/* qos.lossless without a pool: whether it needs one is known once the devices are read. */
	const struct qg_ynode *lossless_without_pool;
};

/*
 * The qos values a rule between values reads. A value that could not be read
 * turns off only the rules that need it, so every other problem still shows
 * in the same run. Per class: lossless at shift 0, cnp at shift 4.
 */
enum {
	BAD_PRIO = 1u << 0,
	BAD_DSCP = 1u << 1,
	BAD_TC = 1u << 2,
	BAD_ETS = 1u << 3,
	BAD_CLASS = BAD_PRIO | BAD_DSCP | BAD_TC | BAD_ETS,
	BAD_CNP_SHIFT = 4,
	BAD_MTU = 1u << 8,
	BAD_SWITCH_MTU = 1u << 9,
	BAD_ECN = 1u << 10,
	BAD_TRUST = 1u << 11,
	BAD_CNP_MAP = 1u << 12,
};

/* The most keys one mapping of the key table has. */
#define TABLE_KEYS 16

/* The most platforms of one kind a message lists. */
#define MAX_PLATFORMS 16

/* Room for a device path with an 80-character name and a key or two after it. */
#define PATH_LEN 192

/* "switches[leaf1]" + "name" -> "switches[leaf1].name"; a long path is cut. */
void walk_join(char sub[PATH_LEN], const char *path, const char *key);
/* "a scalar", "a list", "a mapping": for "expected X, got Y". */
const char *walk_kind_name(const struct qg_ynode *n);
/* Causes and consequences (issue 25): see struct walk. */
bool walk_grow(struct walk *w, void **v, size_t n, size_t size);
void walk_consequence(struct walk *w, const char *key, const char *path);
void walk_settle_consequences(struct walk *w);
/* Refused host entries: references to them say nothing more. */
bool walk_poisoned_host(const struct walk *w, const char *name);
void walk_poison_host(struct walk *w, const char *name);
/* Mappings and their keys: unknown, misplaced (the key table's homed rows), duplicate, missing. */
bool walk_key_allowed(const char *key, const char *const *allowed);
void walk_list_allowed(char *out, size_t len, const char *const *allowed);
void walk_check_keys(struct walk *w, const struct qg_ynode *map, const char *path,
		     const char *const *allowed);
/*
 * walk_check_keys, but the keys of refused (NULL-terminated) pass unlisted:
 * the caller refuses them with why, and an "allowed:" list names only what
 * is allowed in that place (issue 37: a role lists no mtu).
 */
void walk_check_keys_but(struct walk *w, const struct qg_ynode *map, const char *path,
			 const char *const *allowed, const char *const *refused);
const struct qg_ynode *walk_get(const struct qg_ynode *map, const char *key);
const struct qg_ynode *walk_get_key_node(const struct qg_ynode *map, const char *key);
const struct qg_ynode *walk_require(struct walk *w, const struct qg_ynode *map, const char *key,
				    const char *path);
bool walk_expect_kind(struct walk *w, const struct qg_ynode *n, enum qg_ykind kind,
		      const char *path);
/*
 * A list of ports given as one scalar or a non-empty sequence of items: the
 * items and their count (*single holds a lone scalar), or NULL with the
 * error said (an empty list, or neither form).
 */
const struct qg_ynode *const *walk_port_items(struct walk *w, const struct qg_ynode *n,
					      const char *path, const struct qg_ynode **single,
					      size_t *count);
/*
 * Scalars: each reports what is wrong at the node (a quoted number, a unit
 * given, a value out of range) and returns false or -1.
 */
bool walk_quoted_number(const struct qg_ynode *n);
bool walk_scalar_int(const struct qg_ynode *n, long *out);
bool walk_unit_given(struct walk *w, const struct qg_ynode *n, const char *path);
bool walk_read_int(struct walk *w, const struct qg_ynode *n, const char *path, long lo, long hi,
		   int *out);
bool walk_scalar_fixed(const struct qg_ynode *n, int decimals, int64_t *out);
/* Text by row r's check (ok) and rule into out, r->size bytes: a text key's one reading. */
bool walk_read_str(struct walk *w, const struct qg_ynode *n, const char *path,
		   const struct qg_key *r, char *out);
int walk_read_enum(struct walk *w, const struct qg_ynode *n, const char *path,
		   const char *const *names);
/* The registry's platforms of a kind (with caps), and a device's `platform:` read. */
/*
 * The key table (model/keys.h) at a diagnostic path: its row
 * ("switches[leaf1].port" is "switches[].port"; a free key of a mapping is
 * its "*" row), NULL when none; the keys of the mapping at path, checked
 * (walk_check_keys); an integer read with the row's range; an enumeration's
 * values. A path the table lacks is a bug, reported as one at the node.
 */
const struct qg_key *walk_key_row(const char *path);
void walk_check_table_keys(struct walk *w, const struct qg_ynode *map, const char *path);
bool walk_read_key_int(struct walk *w, const struct qg_ynode *n, const char *path, int *out);
const char *const *walk_key_values(const struct qg_key *k);
/* Target t's row of its device key `key`, or NULL. */
const struct qg_key *walk_target_row(const struct qg_target *t, const char *key);
/*
 * Target t's device keys (its rows' paths, in their order), NULL-terminated,
 * into keys (room for cap and the NULL); *required: only the required ones.
 * Returns how many.
 */
size_t walk_target_keys(const struct qg_target *t, bool required, const char **keys, size_t cap);

/*
 * The key rows drive the loader (issue 38): a scalar row with a landing
 * (model/keys.h's QG_KEY_AT) says where its value goes, and its kind,
 * range, rule or values how it is read. What walk_load_row found of a key.
 */
enum walk_load {
	WALK_ABSENT,  /* not given (a required row's: said) */
	WALK_REFUSED, /* given, and refused (said) */
	WALK_STORED,  /* read, checked and stored; its given flag set */
};
/*
 * Value n at path by row r into base (the struct r's landing is of: its
 * QG_KB_* base): an integer in r's range, an enumeration's index, a bool
 * unquoted, text by r's check. A row without a plain landing is a bug,
 * said at n.
 */
enum walk_load walk_store_row(struct walk *w, const struct qg_ynode *n, const char *path,
			      const struct qg_key *r, void *base);
/*
 * Row r's key (its path's last part) of mapping map at path, stored by
 * walk_store_row; a required row's key missing is said (walk_require).
 */
enum walk_load walk_load_row(struct walk *w, const struct qg_ynode *map, const char *path,
			     const struct qg_key *r, void *base);
/* walk_load_row of the key table's row of key in the mapping at path. */
enum walk_load walk_load_key(struct walk *w, const struct qg_ynode *map, const char *path,
			     const char *key, void *base);

void walk_platform_names(const struct walk *w, enum qg_device_kind kind, unsigned caps,
			 const char *names[MAX_PLATFORMS + 1]);
const struct qg_target *walk_read_platform(struct walk *w, const struct qg_ynode *n,
					   const char *path, enum qg_device_kind kind);

#endif
