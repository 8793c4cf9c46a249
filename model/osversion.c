/* SPDX-License-Identifier: MIT */
#include "osversion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool qg_version_ok(const char *s)
{
	int numbers = 0;
	for (const char *p = s;; p++) {
		size_t digits = strspn(p, "0123456789");
		if (digits == 0 || digits > 9 || ++numbers > 4)
			return false;
		p += digits;
		if (*p == '\0')
			return true;
		if (*p != '.')
			return false;
	}
}

/* The next number of a version at *p, 0 when it has no more. */
static unsigned long next_number(const char **p)
{
	if (!**p)
		return 0;
	char *end;
	unsigned long n = strtoul(*p, &end, 10);
	*p = *end == '.' ? end + 1 : end;
	return n;
}

int qg_version_cmp(const char *v, const char *bound)
{
	const char *a = v, *b = bound;
	while (*b) {
		unsigned long x = next_number(&a), y = next_number(&b);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

bool qg_os_version_supported(const struct qg_os_versions *vs, const char *v)
{
	return qg_version_cmp(v, vs->oldest) >= 0 && qg_version_cmp(v, vs->newest) <= 0;
}

const struct qg_dialect *qg_os_dialect(const struct qg_os_versions *vs, const char *v)
{
	const struct qg_dialect *found = NULL;
	for (const struct qg_dialect *d = vs->dialects; d && d->since; d++)
		if (qg_version_cmp(v, d->since) >= 0)
			found = d;
	return found;
}

int qg_os_version_match(const struct qg_os_versions *vs, const char *built, const char *running,
			char *msg, size_t cap)
{
	if (!qg_version_ok(running)) {
		snprintf(msg, cap, "the switch reports no version qosgen can read ('%.40s')",
			 running);
		return -1;
	}
	if (!qg_os_version_supported(vs, running)) {
		snprintf(
		    msg, cap,
		    "the switch runs %s %s, outside the versions qosgen writes (%s to %s, %s): "
		    "upgrade it to one of them",
		    vs->os, running, vs->oldest, vs->newest, vs->source);
		return -1;
	}
	const struct qg_dialect *want = qg_os_dialect(vs, built),
				*have = qg_os_dialect(vs, running);
	if (want != have) {
		snprintf(
		    msg, cap,
		    "the switch runs %s %s, which speaks the %s dialect (%s), but the build is "
		    "for %s, the %s dialect: set its os_version to %s in the intent and build "
		    "again, or upgrade the switch",
		    vs->os, running, have ? have->name : "?", have ? have->source : "?", built,
		    want ? want->name : "?", running);
		return -1;
	}
	return 0;
}
