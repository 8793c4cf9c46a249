/* SPDX-License-Identifier: MIT */
/*
 * What every device entry (switches, hosts, dvs) starts with: its path for
 * messages, its mapping and keys, its name unique across the three lists,
 * and its SSH endpoint.
 */
#include "intent_entry.h"

#include "../lib/hostlist.h"
#include "../model/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Report a second use of a name within one list. */
/* name (which must outlive the walk: a node's value or a model's field) is unused so far. */
void entry_check_unique(struct walk *w, const char *name, struct qg_pos pos, const char *what)
{
	if (w->n_uses % 256 == 0) {
		struct name_use *v = realloc(w->uses, (w->n_uses + 256) * sizeof(*v));
		if (!v) {
			w->d->oom = true;
			return;
		}
		w->uses = v;
	}
	void *old;
	int rc = qg_strmap_put(&w->names, name, (void *)(uintptr_t)(w->n_uses + 1), &old);
	if (rc < 0) {
		w->d->oom = true;
		return;
	}
	if (rc == 0) {
		w->uses[w->n_uses++] = (struct name_use){pos, what};
		return;
	}
	const struct name_use *first = &w->uses[(uintptr_t)old - 1];
	qg_error(w->d, pos,
		 "%s: name '%s' is used twice; device names are unique across switches, hosts and "
		 "dvs",
		 what, name);
	qg_note(w->d, first->pos, "first used here, in %s", first->list);
}

/*
 * address NULL: the caller reads it (a host list's addresses). The port's
 * default is the target's (t NULL: its platform could not be read).
 */
void entry_ssh_target(struct walk *w, const struct qg_ynode *item, const char *path,
		      const struct qg_target *t, char *address, int *port, bool *port_given,
		      char *user)
{
	char sub[PATH_LEN];
	const struct qg_ynode *v;
	if (address && (v = walk_require(w, item, "address", path))) {
		walk_join(sub, path, "address");
		walk_read_str(w, v, sub, qg_address_ok, QG_ADDRESS_RULE, address, QG_ADDR_LEN);
	}
	*port = t && t->default_port ? t->default_port : QG_DEFAULT_SSH_PORT;
	if ((v = walk_get(item, "port"))) {
		walk_join(sub, path, "port");
		*port_given = walk_read_key_int(w, v, sub, port);
	}
	if ((v = walk_get(item, "user"))) {
		walk_join(sub, path, "user");
		walk_read_str(w, v, sub, qg_user_ok, QG_USER_RULE, user, QG_USER_LEN);
	}
}

/* One element per list item, zeroed; NULL when the list is absent, empty or not a list. */
void *entry_alloc_list(struct walk *w, const struct qg_ynode *n, const char *what, size_t size,
		       size_t *count)
{
	if (!walk_expect_kind(w, n, QG_Y_SEQ, what) || n->n_kids == 0)
		return NULL;
	void *v = calloc(n->n_kids, size);
	if (!v) {
		w->d->oom = true;
		return NULL;
	}
	*count = n->n_kids;
	return v;
}

/* A host list that parses, so that its entry may be named by it. */
static bool hostlist_ok(const char *pattern)
{
	struct qg_hostlist hl;
	char err[160];
	if (qg_hostlist_parse(pattern, &hl, err, sizeof(err)) != 0)
		return false;
	qg_hostlist_free(&hl);
	return true;
}

/*
 * A device entry's path for messages: by its name when it has a usable one
 * (issue 25: "switches[leaf1]", the text the reader searches the file for;
 * an index is counted by hand), or by its index (qg_device_path).
 */
void entry_path(char path[PATH_LEN], const char *what, const struct qg_ynode *item, size_t i,
		bool name_list, bool (*name_ok)(const char *))
{
	const struct qg_ynode *v = item->kind == QG_Y_MAP ? walk_get(item, "name") : NULL;
	bool usable = v && v->kind == QG_Y_SCALAR &&
		      (name_list && qg_hostlist_is_pattern(v->value) ? hostlist_ok(v->value)
								     : name_ok(v->value));
	qg_device_path(path, PATH_LEN, what, usable ? v->value : NULL, i);
}

/*
 * The start of every device entry: its path ("hosts[db1]", "hosts[2]"
 * when it has no usable name; qg_device_path), the mapping and
 * key checks, and its required name, unique within the list. Returns the
 * entry, or NULL when it is not a mapping.
 */
/* name_list: the name may be a host list, which the caller names each host of. */
const struct qg_ynode *entry_start(struct walk *w, const struct qg_ynode *list, size_t i,
				   bool name_list, const char *what, const char *const *keys,
				   char path[PATH_LEN], bool (*name_ok)(const char *),
				   const char *rule, char *name, size_t name_cap)
{
	const struct qg_ynode *item = list->kids[i];
	entry_path(path, what, item, i, name_list, name_ok);
	if (!walk_expect_kind(w, item, QG_Y_MAP, path))
		return NULL;
	walk_check_keys(w, item, path, keys);
	const struct qg_ynode *v = walk_require(w, item, "name", path);
	char sub[PATH_LEN];
	walk_join(sub, path, "name");
	if (name_list && v && v->kind == QG_Y_SCALAR && qg_hostlist_is_pattern(v->value))
		return item;
	if (v && walk_read_str(w, v, sub, name_ok, rule, name, name_cap))
		entry_check_unique(w, v->value, v->pos, what);
	else if (name_list && v && v->kind == QG_Y_SCALAR)
		walk_poison_host(w, v->value);
	return item;
}
