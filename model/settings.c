/* SPDX-License-Identifier: MIT */
#include "settings.h"

#include <cjson/cJSON.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * One allocation per pair: the key (prefix and key) and the value after its
 * NUL, freed by the key alone. A fleet's settings are a million pairs
 * (10,000 hosts of 8 NICs): half the mallocs is a tenth of its build.
 */
void qg_settings_put(struct qg_settings *s, const char *prefix, const char *key,
		     const char *value)
{
	if (s->oom)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct qg_kv *v = realloc(s->v, cap * sizeof(*v));
		if (!v) {
			s->oom = true;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	size_t pl = prefix ? strlen(prefix) : 0, kl = strlen(key), vl = strlen(value);
	char *block = malloc(pl + kl + vl + 2);
	if (!block) {
		s->oom = true;
		return;
	}
	if (pl) /* memcpy from NULL is undefined even for 0 bytes */
		memcpy(block, prefix, pl);
	memcpy(block + pl, key, kl + 1);
	memcpy(block + pl + kl + 1, value, vl + 1);
	s->v[s->n++] = (struct qg_kv){block, block + pl + kl + 1};
}

void qg_settings_add(struct qg_settings *s, const char *key, const char *fmt, ...)
{
	char value[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	qg_settings_put(s, NULL, key, value);
}

const char *qg_settings_get(const struct qg_settings *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].key, key) == 0)
			return s->v[i].value;
	return NULL;
}

void qg_settings_free(struct qg_settings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].key); /* the value is in the key's block (qg_settings_put) */
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?: JSON's number grammar without exponents. */
static bool plain_decimal(const char *v)
{
	const char *p = v + (*v == '-');
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return false; /* leading zeros: a bit vector such as 00010000 */
	size_t digits = strspn(p, "0123456789");
	if (digits == 0)
		return false;
	p += digits;
	if (*p == '.') {
		size_t frac = strspn(p + 1, "0123456789");
		if (frac == 0)
			return false;
		p += 1 + frac;
	}
	return *p == '\0' && digits <= 15;
}

struct cJSON *qg_setting_json(const char *value)
{
	if (!value)
		return cJSON_CreateNull();
	return plain_decimal(value) ? cJSON_CreateRaw(value) : cJSON_CreateString(value);
}
