/* SPDX-License-Identifier: MIT */
/*
 * The generated files, in memory. Emitters add to it; nothing touches the
 * disk until every target has emitted without error (emit/outdir.c).
 */
#ifndef QG_OUTSET_H
#define QG_OUTSET_H

#include "../lib/strmap.h"

#include <stddef.h>

/*
 * Whose a file is (issue 15, fleet scale). A device's own file is written
 * and listed in plan.json under that device. The others are emitted alike by
 * every device that needs them, byte for byte: emit/build.c writes and lists
 * each once, and refuses two different texts at one path (a target's bug).
 */
enum qg_file_owner {
	QG_FILE_DEVICE = 0, /* this device's alone: onyx/sw1.cli, sonic/leaf1.json */
	QG_FILE_GROUP,	    /* its group's (struct qg_target's group()): a policy body */
	QG_FILE_SHARED,	    /* shared otherwise: a target's helper library, a unit */
	/*
	 * A line of a table every device of a target adds one to (the hosts'
	 * identities): data is the table's header (its first `head` bytes, the
	 * same from every device) then this device's row. emit/build.c writes
	 * the header once and the rows in device order.
	 */
	QG_FILE_ROW,
};

struct qg_outfile {
	char *path; /* relative to the output directory: "onyx/swx-1.cli" */
	char *data;
	size_t len;
	unsigned mode; /* 0644, or 0755 for scripts */
	enum qg_file_owner owner;
	size_t head; /* QG_FILE_ROW: the header's bytes, before the row */
	size_t cap;  /* bytes allocated at data when more than len + 1 (qg_outset_append) */
};

struct qg_outset {
	struct qg_outfile *v;
	size_t n, cap;
	/* path -> index + 1, so that adding and finding stay constant time at 100,000 files */
	struct qg_strmap index;
};

/* Takes ownership of data (even on failure). Returns 0, -EEXIST or -ENOMEM. */
int qg_outset_add(struct qg_outset *o, const char *path, char *data, size_t len, unsigned mode);
const struct qg_outfile *qg_outset_find(const struct qg_outset *o, const char *path);
/* Append n bytes to file k's data, growing it by doubling. 0 or -ENOMEM. */
int qg_outset_append(struct qg_outset *o, size_t k, const char *data, size_t n);
/* Mark the file at path as owner's; -ENOENT when there is none. */
int qg_outset_set_owner(struct qg_outset *o, const char *path, enum qg_file_owner owner);
/* Sort by path, so that every listing of the set is stable. */
void qg_outset_sort(struct qg_outset *o);
void qg_outset_free(struct qg_outset *o);

#endif
