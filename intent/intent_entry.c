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

/* The port's default is the target's (t NULL: its platform could not be read). */
void entry_ssh_target(struct walk *w, const struct qg_ynode *item, const char *path,
		      const struct qg_target *t, void *base)
{
	char sub[PATH_LEN];
	walk_join(sub, path, "port");
	const struct qg_key *port = walk_key_row(sub);
	int def = t && t->default_port ? t->default_port : QG_DEFAULT_SSH_PORT;
	if (port)
		memcpy((char *)base + port->offset, &def, sizeof(def));
	walk_load_key(w, item, path, "port", base);
	walk_load_key(w, item, path, "user", base);
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
const struct qg_ynode *entry_start(struct walk *w, const struct qg_ynode *list, size_t i,
				   const struct entry_kind *k, char path[PATH_LEN], void *base)
{
	const struct qg_ynode *item = list->kids[i];
	entry_path(path, k->what, item, i, k->name_list, k->name->ok);
	if (!walk_expect_kind(w, item, QG_Y_MAP, path))
		return NULL;
	walk_check_keys(w, item, path, k->keys);
	const struct qg_ynode *v = walk_require(w, item, "name", path);
	char sub[PATH_LEN];
	walk_join(sub, path, "name");
	if (k->name_list && v && v->kind == QG_Y_SCALAR && qg_hostlist_is_pattern(v->value))
		return item;
	if (v && walk_store_row(w, v, sub, k->name, base) == WALK_STORED)
		entry_check_unique(w, v->value, v->pos, k->what);
	else if (k->name_list && v && v->kind == QG_Y_SCALAR)
		walk_poison_host(w, v->value);
	return item;
}
