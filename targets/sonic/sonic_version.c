/* SPDX-License-Identifier: MIT */
/* The SONiC release off `show version`: see sonic_version.h. */
#include "sonic_version.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define LABEL "SONiC Software Version:"

/* The digits at p (at most max + 1 counted, so that "too many" shows). */
static size_t digits(const char *p, const char *end, size_t max)
{
	size_t n = 0;
	while (p + n < end && n <= max && isdigit((unsigned char)p[n]))
		n++;
	return n;
}

/* A month of a release's name: YYYYMM with MM 01..12. */
static bool month_ok(const char *p)
{
	int mm = (p[4] - '0') * 10 + (p[5] - '0');
	return mm >= 1 && mm <= 12;
}

/*
 * The release of build version v (n bytes): YYYYMM then '.', '_', '-' or
 * its end (a release branch's build, a vendor's tail after it); or
 * YYYYMMDD.N with nothing after (a dated tag, the month its branch's).
 */
static bool release_of(const char *v, size_t n, char out[7])
{
	const char *end = v + n;
	size_t d = digits(v, end, 8);
	bool six = d == 6 && (v + 6 == end || strchr("._-", v[6]));
	bool eight = d == 8 && v + 8 < end && v[8] == '.' && digits(v + 9, end, n) > 0 &&
		     v + 9 + digits(v + 9, end, n) == end;
	if ((!six && !eight) || !month_ok(v))
		return false;
	memcpy(out, v, 6);
	out[6] = '\0';
	return true;
}

/* What the switch printed, safe to show: printable ASCII, cut at 60. */
static void shown(const char *v, size_t n, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n && i < 60 && k + 1 < cap; i++)
		out[k++] = isprint((unsigned char)v[i]) ? v[i] : '?';
	if (k < cap)
		out[k] = '\0';
}

int sonic_version_parse(const char *text, size_t len, char *out, size_t cap, char *err,
			size_t errlen)
{
	const char *p = text, *end = text + len;
	size_t ll = strlen(LABEL);
	out[0] = '\0';
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		p = eol < end ? eol + 1 : end;
		if ((size_t)(eol - s) < ll || memcmp(s, LABEL, ll))
			continue;
		s += ll;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		const char *v = s;
		while (s < eol && !isspace((unsigned char)*s))
			s++;
		size_t n = (size_t)(s - v);
		char said[64];
		shown(v, n, said, sizeof(said));
		char rel[7];
		if (n > SONIC_BUILD_VERSION_MAX) {
			snprintf(
			    err, errlen,
			    "'show version' names a build version of %zu characters ('%s...'), "
			    "longer than any SONiC's",
			    n, said);
			return -1;
		}
		if (n < 6 || memcmp(v, "SONiC.", 6) || !release_of(v + 6, n - 6, rel)) {
			snprintf(err, errlen,
				 "the switch runs '%s', a build of no SONiC release branch (a "
				 "release's builds are SONiC.<YYYYMM>.<build> or a dated tag "
				 "SONiC.<YYYYMMDD>.<n>, sonic-buildimage functions.sh): qosgen "
				 "cannot tell which release's config_db it takes",
				 said);
			return -1;
		}
		if (cap < sizeof(rel)) {
			snprintf(err, errlen, "no room for the version");
			return -1;
		}
		memcpy(out, rel, sizeof(rel));
		return 0;
	}
	snprintf(err, errlen,
		 "'show version' printed no '" LABEL "' line (sonic-utilities show/main.py "
		 "prints one): is this a SONiC switch?");
	return -1;
}
