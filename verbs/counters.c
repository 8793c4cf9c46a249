/* SPDX-License-Identifier: MIT */
#include "counters.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vc_counters_add(struct vc_counters *c, const char *name, uint64_t value)
{
	struct vc_counter *v = realloc(c->v, (c->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	c->v = v;
	snprintf(v[c->n].name, sizeof(v[c->n].name), "%s", name);
	v[c->n].value = value;
	c->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct vc_counter *)a)->name, ((const struct vc_counter *)b)->name);
}

void vc_counters_sort(struct vc_counters *c)
{
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(c->v[0]), by_name);
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (s[0] < '0' || s[0] > '9' || *end || errno)
		return false;
	*v = x;
	return true;
}

int vc_counters_read(const char *root, const char *dev, int port, struct vc_counters *out,
		     char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	static const char *const dirs[] = {"counters", "hw_counters"};
	bool any_dir = false;
	for (int k = 0; k < 2; k++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%d/%s", root, dev, port,
			 dirs[k]);
		DIR *d = opendir(path);
		if (!d)
			continue;
		any_dir = true;
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char file[4400], text[64];
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			FILE *f = fopen(file, "r");
			if (!f)
				continue;
			size_t n = fread(text, 1, sizeof(text) - 1, f);
			fclose(f);
			text[n] = '\0';
			uint64_t v;
			/* Some files are not counters (lifespan, writable knobs): skip them. */
			if (parse_u64(text, &v) && vc_counters_add(out, e->d_name, v) != 0) {
				closedir(d);
				vc_counters_free(out);
				snprintf(err, errlen, "out of memory");
				return -1;
			}
		}
		closedir(d);
	}
	if (!any_dir) {
		snprintf(err, errlen, "no counters for %s port %d under %s/class/infiniband", dev,
			 port, root);
		return -1;
	}
	vc_counters_sort(out);
	return 0;
}

int vc_counters_parse_rdma_statistic(const char *text, struct vc_counters *out)
{
	memset(out, 0, sizeof(*out));
	char *copy = strdup(text), *save = NULL;
	if (!copy)
		return -1;
	char *t = strtok_r(copy, " \t\n", &save);
	/* "link DEV/PORT" first, then name value pairs. */
	if (!t || strcmp(t, "link") || !strtok_r(NULL, " \t\n", &save)) {
		free(copy);
		return -1;
	}
	int rc = 0;
	while ((t = strtok_r(NULL, " \t\n", &save))) {
		char *value = strtok_r(NULL, " \t\n", &save);
		uint64_t v;
		if (!value || !parse_u64(value, &v) || vc_counters_add(out, t, v) != 0) {
			rc = -1;
			break;
		}
	}
	free(copy);
	if (rc)
		vc_counters_free(out);
	else
		vc_counters_sort(out);
	return rc;
}

const struct vc_counter *vc_counter_find(const struct vc_counters *c, const char *name)
{
	struct vc_counter key;
	snprintf(key.name, sizeof(key.name), "%s", name);
	return c->n ? bsearch(&key, c->v, c->n, sizeof(c->v[0]), by_name) : NULL;
}

int vc_counters_delta(const struct vc_counters *before, const struct vc_counters *after,
		      struct vc_counters *delta)
{
	memset(delta, 0, sizeof(*delta));
	for (size_t i = 0; i < after->n; i++) {
		const struct vc_counter *b = vc_counter_find(before, after->v[i].name);
		if (!b)
			continue;
		uint64_t d = after->v[i].value >= b->value ? after->v[i].value - b->value : 0;
		if (vc_counters_add(delta, after->v[i].name, d) != 0) {
			vc_counters_free(delta);
			return -1;
		}
	}
	return 0;
}

void vc_counters_free(struct vc_counters *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
