/* SPDX-License-Identifier: MIT */
#include "hostlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool qg_hostlist_is_pattern(const char *s)
{
	return strchr(s, '[') || strchr(s, ']');
}

void qg_hostlist_free(struct qg_hostlist *hl)
{
	for (size_t i = 0; i < hl->n_parts; i++)
		free(hl->parts[i].ranges);
	free(hl->parts);
	memset(hl, 0, sizeof(*hl));
}

/* One decimal number of 1..9 digits at *p; advances *p. */
static bool number(const char **p, unsigned long *v, int *digits)
{
	const char *s = *p;
	size_t n = strspn(s, "0123456789");
	if (n == 0 || n > 9)
		return false;
	*v = strtoul(s, NULL, 10);
	*digits = (int)n;
	*p = s + n;
	return true;
}

/* "001-512,600" up to the closing ']' into part. 0 or -1 with err. */
static int parse_ranges(const char **p, struct qg_hostlist_part *part, char *err, size_t errlen)
{
	const char *s = *p;
	for (;;) {
		struct qg_hostlist_range r;
		int dl, dh = 0;
		const char *start = s;
		if (!number(&s, &r.lo, &dl)) {
			snprintf(err, errlen, "expected a number of 1..9 digits at '%.20s'", s);
			return -1;
		}
		r.hi = r.lo;
		if (*s == '-') {
			s++;
			if (!number(&s, &r.hi, &dh)) {
				snprintf(err, errlen, "expected a number after '-' at '%.20s'", s);
				return -1;
			}
		}
		if (r.hi < r.lo) {
			snprintf(err, errlen, "range %lu-%lu goes down", r.lo, r.hi);
			return -1;
		}
		/* Slurm: a lower bound written with a leading zero fixes the width. */
		r.width = dl > 1 && *start == '0' ? dl : 0;
		struct qg_hostlist_range *v =
		    realloc(part->ranges, (part->n_ranges + 1) * sizeof(*v));
		if (!v) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		part->ranges = v;
		part->ranges[part->n_ranges++] = r;
		part->count += r.hi - r.lo + 1;
		if (part->count > QG_HOSTLIST_MAX) {
			snprintf(err, errlen, "more than %u names", QG_HOSTLIST_MAX);
			return -1;
		}
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s != ']') {
			snprintf(err, errlen, "expected ',', '-' or ']' at '%.20s'", s);
			return -1;
		}
		*p = s + 1;
		return 0;
	}
}

int qg_hostlist_parse(const char *pattern, struct qg_hostlist *hl, char *err, size_t errlen)
{
	memset(hl, 0, sizeof(*hl));
	hl->count = 1;
	const char *s = pattern;
	for (;;) {
		struct qg_hostlist_part *v = realloc(hl->parts, (hl->n_parts + 1) * sizeof(*v));
		if (!v) {
			snprintf(err, errlen, "out of memory");
			qg_hostlist_free(hl);
			return -1;
		}
		hl->parts = v;
		struct qg_hostlist_part *part = &hl->parts[hl->n_parts++];
		memset(part, 0, sizeof(*part));
		part->lit = s;
		part->lit_len = strcspn(s, "[]");
		s += part->lit_len;
		if (*s == ']') {
			snprintf(err, errlen, "']' without '['");
			qg_hostlist_free(hl);
			return -1;
		}
		if (!*s)
			return 0;
		s++; /* '[' */
		if (parse_ranges(&s, part, err, errlen) != 0) {
			qg_hostlist_free(hl);
			return -1;
		}
		if (hl->count > QG_HOSTLIST_MAX / part->count) {
			snprintf(err, errlen, "more than %u names", QG_HOSTLIST_MAX);
			qg_hostlist_free(hl);
			return -1;
		}
		hl->count *= part->count;
	}
}

bool qg_hostlist_name(const struct qg_hostlist *hl, size_t k, char *out, size_t cap)
{
	/* Mixed radix, the last bracket fastest: the digit of part i is k / (product after i). */
	size_t after = hl->count, o = 0;
	for (size_t i = 0; i < hl->n_parts; i++) {
		const struct qg_hostlist_part *part = &hl->parts[i];
		if (o + part->lit_len >= cap)
			return false;
		memcpy(out + o, part->lit, part->lit_len);
		o += part->lit_len;
		if (!part->n_ranges)
			continue;
		after /= part->count;
		size_t idx = (k / after) % part->count;
		const struct qg_hostlist_range *r = part->ranges;
		while (idx > r->hi - r->lo) {
			idx -= r->hi - r->lo + 1;
			r++;
		}
		int n = snprintf(out + o, cap - o, "%0*lu", r->width, r->lo + idx);
		if (n < 0 || (size_t)n >= cap - o)
			return false;
		o += (size_t)n;
	}
	out[o] = '\0';
	return true;
}
