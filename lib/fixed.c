/* SPDX-License-Identifier: MIT */
#include "fixed.h"

#include <stdio.h>

bool qg_fixed_parse(const char *s, int decimals, int64_t *out)
{
	int64_t v = 0;
	int digits = 0, frac = -1;
	for (; *s; s++) {
		if (*s == '.') {
			if (frac >= 0 || digits == 0)
				return false;
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || digits >= 12)
			return false;
		if (frac >= 0 && ++frac > decimals)
			return false;
		v = v * 10 + (*s - '0');
		digits++;
	}
	if (digits == 0 || frac == 0)
		return false;
	for (int i = frac < 0 ? 0 : frac; i < decimals; i++)
		v *= 10;
	*out = v;
	return true;
}

void qg_centi_format(int64_t centi, char out[24])
{
	snprintf(out, 24, "%lld.%02lld", (long long)(centi / 100), (long long)(centi % 100));
}
