/* SPDX-License-Identifier: MIT */
/*
 * Fixed-point decimals ("50.00", "33.3", "90"), parsed and printed by hand:
 * the C library's strtod and printf follow the locale and round through
 * binary floating point, and qosgen's output must be byte-identical anywhere.
 */
#ifndef QG_FIXED_H
#define QG_FIXED_H

#include <stdbool.h>
#include <stdint.h>

/*
 * "50.5" with decimals 2 -> 5050. Digits with at most one point, at most
 * `decimals` digits after it and 12 in all; no sign, no exponent.
 */
bool qg_fixed_parse(const char *s, int decimals, int64_t *out);
/* 5000 -> "50.00": two decimals, always. */
void qg_centi_format(int64_t centi, char out[24]);

#endif
