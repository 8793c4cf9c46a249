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
/* address, port and user; address NULL: the caller reads it (a host list's). */
void entry_ssh_target(struct walk *w, const struct qg_ynode *item, const char *path,
		      const struct qg_target *t, char *address, int *port, bool *port_given,
		      char *user);
/* One zeroed element per list item; NULL when absent, empty or not a list. */
void *entry_alloc_list(struct walk *w, const struct qg_ynode *n, const char *what, size_t size,
		       size_t *count);
/* "hosts[db1]" when the entry has a usable name, else "hosts[2]" (qg_device_path). */
void entry_path(char path[PATH_LEN], const char *what, const struct qg_ynode *item, size_t i,
		bool name_list, bool (*name_ok)(const char *));
/*
 * The start of a device entry: its path, mapping and key checks, and its
 * required name, unique; NULL when it is not a mapping. name_list: the name
 * may be a host list, whose hosts the caller names.
 */
const struct qg_ynode *entry_start(struct walk *w, const struct qg_ynode *list, size_t i,
				   bool name_list, const char *what, const char *const *keys,
				   char path[PATH_LEN], bool (*name_ok)(const char *),
				   const char *rule, char *name, size_t name_cap);

#endif
