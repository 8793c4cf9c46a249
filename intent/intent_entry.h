/* SPDX-License-Identifier: MIT */
/*
 * What every device entry (switches, hosts, dvs) starts with: its path for
 * messages, its mapping and keys, its name unique across the three lists,
 * and its SSH endpoint.
 */
#ifndef QG_INTENT_ENTRY_H
#define QG_INTENT_ENTRY_H

#include "intent_walk.h"

/* name (a node's value or a model's field: it outlives the walk) is unused so far in any list. */
void entry_check_unique(struct walk *w, const char *name, struct qg_pos pos, const char *what);
/*
 * A kind of device entry: its list ("switches", "hosts", "dvs"), the keys
 * an entry may hold, and the row its name is read by (check, rule and
 * landing); name_list: the name may be a host list, whose hosts the caller
 * names.
 */
struct entry_kind {
	const char *what;
	const char *const *keys;
	const struct qg_key *name;
	bool name_list;
};

/*
 * port and user of the entry at path into base (its device's struct, where
 * their rows land); the port's default is target t's (NULL: its platform
 * could not be read). The address is the caller's (a host list's is more).
 */
void entry_ssh_target(struct walk *w, const struct qg_ynode *item, const char *path,
		      const struct qg_target *t, void *base);
/* One zeroed element per list item; NULL when absent, empty or not a list. */
void *entry_alloc_list(struct walk *w, const struct qg_ynode *n, const char *what, size_t size,
		       size_t *count);
/* "hosts[db1]" when the entry has a usable name, else "hosts[2]" (qg_device_path). */
void entry_path(char path[PATH_LEN], const char *what, const struct qg_ynode *item, size_t i,
		bool name_list, bool (*name_ok)(const char *));
/*
 * The start of item i of list, an entry of kind k: its path, mapping and
 * key checks, and its required name, unique, into base (k->name's landing);
 * NULL when it is not a mapping.
 */
const struct qg_ynode *entry_start(struct walk *w, const struct qg_ynode *list, size_t i,
				   const struct entry_kind *k, char path[PATH_LEN], void *base);

#endif
