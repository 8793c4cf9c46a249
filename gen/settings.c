/* SPDX-License-Identifier: MIT */
#include "settings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qg_settings_add(struct qg_settings *s, const char *key, const char *fmt, ...)
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
	char value[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	struct qg_kv kv = {strdup(key), strdup(value)};
	if (!kv.key || !kv.value) {
		free(kv.key);
		free(kv.value);
		s->oom = true;
		return;
	}
	s->v[s->n++] = kv;
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
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].value);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}
