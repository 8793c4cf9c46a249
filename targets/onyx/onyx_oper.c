/* SPDX-License-Identifier: MIT */
/* Onyx's operational state off its json-print shows: see onyx_oper.h. */
#include "onyx_oper.h"

#include "../../lib/fixed.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The JSON document of a json-print reply: from the first line whose first
 * non-blank character is '{' or '[' (mellanox.onyx, module_utils/network/
 * onyx/onyx.py, _parse_json_output), parsed within len; what follows it is
 * not read. NULL with why in err.
 */
static cJSON *json_doc(const char *text, size_t len, char *err, size_t errlen)
{
	const char *end = text + len;
	for (const char *line = text; line < end;) {
		const char *p = line;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && (*p == '{' || *p == '[')) {
			const char *stop;
			cJSON *doc = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, false);
			if (!doc) {
				size_t no = 1;
				for (const char *c = text; c < line; c++)
					no += *c == '\n';
				snprintf(err, errlen, "its JSON from line %zu does not parse", no);
			}
			return doc;
		}
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		line = nl ? nl + 1 : end;
	}
	snprintf(err, errlen, "it printed no JSON");
	return NULL;
}

/* A printed value into out, at most ONYX_OPER_WORD - 1 bytes, unprintable bytes as '?'. */
static void word(const char *s, char out[ONYX_OPER_WORD])
{
	size_t n = 0;
	for (; s && s[n] && n < ONYX_OPER_WORD - 1; n++)
		out[n] = (s[n] >= 0x20 && s[n] < 0x7f) ? s[n] : '?';
	out[n] = '\0';
}

/* The string value of key in object o, or NULL (absent, or not a string). */
static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The first element of an array value, when it is an object: Onyx's [{...}] wrapping. */
static const cJSON *first_object(const cJSON *v)
{
	const cJSON *o = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, 0) : NULL;
	return cJSON_IsObject(o) ? o : NULL;
}

/*
 * Switch-priorities as Onyx lists them, "3" or "3 4" (the pool's "Switch
 * Priorities", PFC's "Priority Enabled List"), into *mask. False when a
 * word is not a priority.
 */
static bool priorities(const char *s, uint8_t *mask)
{
	*mask = 0;
	for (const char *p = s; *p;) {
		if (*p == ' ' || *p == ',' || *p == '\t') {
			p++;
			continue;
		}
		if (*p < '0' || *p > '7' || (p[1] && p[1] != ' ' && p[1] != ',' && p[1] != '\t'))
			return false;
		*mask |= (uint8_t)(1u << (*p - '0'));
		p++;
	}
	return true;
}

/* "5.9M", "512K", "0" into bytes; -1 when it does not read as a size. */
static int64_t size_bytes(const char *s)
{
	char num[24];
	size_t n = strspn(s, "0123456789.");
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	int64_t unit = 1;
	const char *u = s + n;
	while (*u == ' ')
		u++;
	if (*u == 'K' || *u == 'k')
		unit = (int64_t)1 << 10;
	else if (*u == 'M')
		unit = (int64_t)1 << 20;
	else if (*u == 'G')
		unit = (int64_t)1 << 30;
	else if (*u && *u != 'B')
		return -1;
	if (*u && *u != 'B')
		u++;
	if (*u == 'B')
		u++;
	int64_t milli;
	if (*u || !qg_fixed_parse(num, 3, &milli) || milli > INT64_MAX / unit)
		return -1;
	return milli * unit / 1000;
}

int onyx_oper_pool_parse(const char *text, size_t len, const char *name, struct onyx_oper_pool *out,
			 char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->percent_centi = -1;
	out->actual_bytes = -1;
	cJSON *doc = json_doc(text, len, err, errlen);
	if (!doc)
		return -1;
	const cJSON *pool =
	    first_object(cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, name) : NULL);
	int rc = -1;
	if (!pool) {
		snprintf(err, errlen, "it shows no traffic pool '%s'", name);
		goto out;
	}
	const char *s;
	if ((s = str_of(pool, "Type")))
		word(s, out->type);
	if ((s = str_of(pool, "Switch Priorities"))) {
		word(s, out->priorities);
		if (!priorities(s, &out->priority_mask)) {
			snprintf(err, errlen,
				 "its 'Switch Priorities' '%s' are not switch-priorities",
				 out->priorities);
			goto out;
		}
		out->priorities_shown = true;
	}
	if ((s = str_of(pool, "Memory [%]"))) {
		word(s, out->percent);
		if (!qg_fixed_parse(s, 2, &out->percent_centi)) {
			snprintf(err, errlen, "its 'Memory [%%]' '%s' is not a percent",
				 out->percent);
			goto out;
		}
	}
	if ((s = str_of(pool, "Memory actual"))) {
		word(s, out->actual);
		out->actual_bytes = strcasecmp(s, "N/A") ? size_bytes(s) : -1;
		if (out->actual_bytes < 0 && strcasecmp(s, "N/A")) {
			snprintf(err, errlen, "its 'Memory actual' '%s' is not a size",
				 out->actual);
			goto out;
		}
	}
	rc = 0;
out:
	cJSON_Delete(doc);
	return rc;
}

/* The object in an interface's list that holds key (Onyx prints them in order; found, not counted).
 */
static const cJSON *part_with(const cJSON *list, const char *key)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, list)
	{
		if (cJSON_IsObject(o) && cJSON_GetObjectItemCaseSensitive(o, key))
			return o;
	}
	return NULL;
}

int onyx_oper_ets_parse(const char *text, size_t len, const char *ifname, struct onyx_oper_ets *out,
			char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	cJSON *doc = json_doc(text, len, err, errlen);
	if (!doc)
		return -1;
	/* mellanox.onyx's onyx_traffic_class: cfg[0][IF][2]["ETS per TC"][0][TC][0]. */
	const cJSON *top = cJSON_IsArray(doc) ? cJSON_GetArrayItem(doc, 0) : NULL;
	const cJSON *port =
	    cJSON_IsObject(top) ? cJSON_GetObjectItemCaseSensitive(top, ifname) : NULL;
	const cJSON *per = cJSON_IsArray(port) ? part_with(port, "ETS per TC") : NULL;
	const cJSON *tcs =
	    per ? first_object(cJSON_GetObjectItemCaseSensitive(per, "ETS per TC")) : NULL;
	if (!tcs) {
		snprintf(err, errlen, "it shows no 'ETS per TC' of %s", ifname);
		cJSON_Delete(doc);
		return -1;
	}
	for (int tc = 0; tc < 8; tc++) {
		char key[2] = {(char)('0' + tc), '\0'};
		const cJSON *t = first_object(cJSON_GetObjectItemCaseSensitive(tcs, key));
		const char *mode = str_of(t, "S.Mode"), *w = str_of(t, "W");
		struct onyx_oper_tc *o = &out->tc[tc];
		if (!mode)
			continue;
		o->shown = true;
		word(mode, o->mode_text);
		o->mode = !strcasecmp(mode, "Strict") ? QG_ETS_STRICT
			  : !strcasecmp(mode, "WRR")  ? QG_ETS_WRR
						      : QG_ETS_UNSET;
		char *end = NULL;
		long v = w ? strtol(w, &end, 10) : -1;
		o->weight = w && *w && !*end && v >= 0 && v <= 1000 ? (int)v : -1;
	}
	cJSON_Delete(doc);
	return 0;
}

void onyx_oper_pfc_free(struct onyx_oper_pfc *p)
{
	free(p->ports);
	memset(p, 0, sizeof(*p));
}

const struct onyx_oper_pfc_port *onyx_oper_pfc_port(const struct onyx_oper_pfc *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->ports[i].name, name))
			return &p->ports[i];
	return NULL;
}

/*
 * The members of one object of the document: an interface is a key whose
 * value is [{"PFC admin": ..., "PFC oper": ...}], "Priority Enabled List"
 * the priorities PFC is on for. -1 when there are too many interfaces.
 */
static int pfc_members(const cJSON *o, struct onyx_oper_pfc *out)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, o)
	{
		const cJSON *f = first_object(m);
		const char *oper = str_of(f, "PFC oper");
		if (m->string && !strcmp(m->string, "Priority Enabled List") && cJSON_IsString(m)) {
			word(m->valuestring, out->enabled);
			out->enabled_shown = priorities(m->valuestring, &out->enabled_mask);
			continue;
		}
		if (!oper || !m->string || strlen(m->string) >= ONYX_OPER_WORD)
			continue;
		if (out->n == ONYX_OPER_PFC_PORTS)
			return -1;
		if (out->n % 64 == 0) {
			struct onyx_oper_pfc_port *v =
			    realloc(out->ports, (out->n + 64) * sizeof(*out->ports));
			if (!v)
				return -1;
			out->ports = v;
		}
		struct onyx_oper_pfc_port *p = &out->ports[out->n++];
		word(m->string, p->name);
		word(oper, p->oper);
		word(str_of(f, "PFC admin"), p->admin);
	}
	return 0;
}

int onyx_oper_pfc_parse(const char *text, size_t len, struct onyx_oper_pfc *out, char *err,
			size_t errlen)
{
	memset(out, 0, sizeof(*out));
	cJSON *doc = json_doc(text, len, err, errlen);
	if (!doc)
		return -1;
	int rc = 0;
	const cJSON *o;
	if (cJSON_IsArray(doc)) {
		/* 3.6.6000 on: [{"PFC": ...}, {"Priority Enabled List": ...}, {interfaces}]. */
		cJSON_ArrayForEach(o, doc)
		{
			if (cJSON_IsObject(o) && rc == 0)
				rc = pfc_members(o, out);
		}
	} else if (cJSON_IsObject(doc)) {
		/* Before: the interfaces, at the top or under "Table 2". */
		const cJSON *t2 = cJSON_GetObjectItemCaseSensitive(doc, "Table 2");
		rc = pfc_members(doc, out);
		if (rc == 0 && cJSON_IsObject(t2))
			rc = pfc_members(t2, out);
	}
	cJSON_Delete(doc);
	if (rc != 0)
		snprintf(err, errlen, "it lists more than %d interfaces", ONYX_OPER_PFC_PORTS);
	else if (out->n == 0)
		snprintf(err, errlen, "it shows no interface's 'PFC oper'");
	return rc == 0 && out->n > 0 ? 0 : -1;
}
