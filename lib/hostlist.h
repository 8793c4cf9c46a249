/* SPDX-License-Identifier: MIT */
/*
 * Host lists as Slurm and Ansible write them: "gpu-[001-512]" names 512
 * hosts, gpu-001 to gpu-512 (zero-padded to the width of the lower bound
 * when it starts with 0); "rack[1-2]-n[01-16,20]" is the product, the last
 * bracket varying fastest, as Slurm expands it. Pure: text in, names out.
 */
#ifndef QG_HOSTLIST_H
#define QG_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Most names one pattern may give: the parser's own bound (counting costs
 * nothing). A fabric's hosts are bounded lower, QG_HOSTS_MAX (model/bounds.h),
 * which intent/intent.c names at the entry that passes it.
 */
#define QG_HOSTLIST_MAX 1000000u

struct qg_hostlist_range {
	unsigned long lo, hi;
	int width; /* zero-padded to this many digits; 0: no padding */
};

struct qg_hostlist_part {
	const char *lit; /* literal text before the bracket (not NUL-terminated) */
	size_t lit_len;
	struct qg_hostlist_range *ranges; /* none: the last part, literal only */
	size_t n_ranges;
	size_t count; /* names this bracket gives */
};

struct qg_hostlist {
	struct qg_hostlist_part *parts;
	size_t n_parts;
	size_t count; /* names in all */
};

/* Does s contain a bracket, so that it is meant as a pattern? */
bool qg_hostlist_is_pattern(const char *s);

/*
 * Parse pattern (kept: the list points into it). 0, or -1 with err saying
 * what is wrong ("unclosed '['", "range 9-1 goes down", more than
 * QG_HOSTLIST_MAX names, ...). -ENOMEM is reported as -1 with "out of memory".
 */
int qg_hostlist_parse(const char *pattern, struct qg_hostlist *hl, char *err, size_t errlen);

/* The k-th name (0 <= k < count) into out; false when it does not fit in cap. */
bool qg_hostlist_name(const struct qg_hostlist *hl, size_t k, char *out, size_t cap);

void qg_hostlist_free(struct qg_hostlist *hl);

#endif
