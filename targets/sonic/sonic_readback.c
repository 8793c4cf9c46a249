/* SPDX-License-Identifier: MIT */
/*
 * `show runningconfiguration all`: SONiC prints config_db as one JSON
 * object, table names at the top (sonic-cfggen -d --print-data), and
 * "bgpraw", FRR's running-config as one string (sonic-utilities
 * show/main.py). Pure.
 */
#include "config_db_patch.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "asic0", "asic12": a multi-ASIC switch's namespaces, as its read-back keys them. */
static bool asic_namespace(const char *k)
{
	if (strncmp(k, "asic", 4) || !k[4])
		return false;
	for (k += 4; *k; k++)
		if (!isdigit((unsigned char)*k))
			return false;
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * A key o holds twice, or NULL (*oom on failure). JSON leaves duplicates
 * to the reader (RFC 8259: "unpredictable"), and SONiC never prints one:
 * which of the two the switch holds cannot be told.
 */
static const char *duplicate_key(const cJSON *o, bool *oom)
{
	size_t n = (size_t)cJSON_GetArraySize(o), i = 0;
	if (n < 2)
		return NULL;
	const char **k = malloc(n * sizeof(*k));
	if (!k) {
		*oom = true;
		return NULL;
	}
	for (const cJSON *c = o->child; c; c = c->next)
		k[i++] = c->string;
	qsort(k, n, sizeof(*k), by_name);
	const char *dup = NULL;
	for (i = 1; i < n && !dup; i++)
		if (!strcmp(k[i - 1], k[i]))
			dup = k[i];
	free(k);
	return dup;
}

/* Tables, their rows and the rows' fields each named once. */
static int duplicates(const cJSON *doc, struct qg_diags *d, bool *oom)
{
	const char *dup = duplicate_key(doc, oom);
	if (dup) {
		qg_error(d, (struct qg_pos){1, 1}, "the read-back has table %s twice", dup);
		return 1;
	}
	for (const cJSON *t = doc->child; t && !*oom; t = t->next) {
		if ((dup = duplicate_key(t, oom))) {
			qg_error(d, (struct qg_pos){1, 1}, "the read-back has %s|%s twice",
				 t->string, dup);
			return 1;
		}
		for (const cJSON *r = t->child; r && !*oom; r = r->next)
			if (cJSON_IsObject(r) && (dup = duplicate_key(r, oom))) {
				qg_error(d, (struct qg_pos){1, 1},
					 "the read-back has field %s of %s|%s twice", dup,
					 t->string, r->string);
				return 1;
			}
	}
	return 0;
}

int sonic_readback_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d)
{
	*out = NULL;
	long i = qg_readback_start(
	    text, len, "config_db as JSON, as `show runningconfiguration all` prints it", d);
	if (i < 0)
		return -EINVAL;
	const char *end = NULL;
	cJSON *doc = text[i] == '{' ? cJSON_ParseWithLengthOpts(text, len, &end, false) : NULL;
	if (!doc) {
		qg_error(d, qg_text_pos(text, end ? end : text + i),
			 "the read-back is not a JSON object here; expected config_db as `show "
			 "runningconfiguration all` prints it");
		return -EINVAL;
	}
	int errors = 0;
	for (const cJSON *t = doc->child; t && !errors; t = t->next) {
		if ((!strcmp(t->string, "localhost") || asic_namespace(t->string)) &&
		    cJSON_IsObject(t) && cJSON_GetObjectItemCaseSensitive(t, "DEVICE_METADATA")) {
			qg_error(d, (struct qg_pos){1, 1},
				 "the read-back is a multi-ASIC switch's (namespace '%s'); qosgen "
				 "configures single-ASIC SONiC switches only",
				 t->string);
			errors++;
		} else if (!cJSON_IsObject(t) &&
			   !(cJSON_IsString(t) && !strcmp(t->string, "bgpraw"))) {
			qg_error(d, (struct qg_pos){1, 1},
				 "the read-back's table %s is not an object of rows; is this "
				 "config_db?",
				 t->string);
			errors++;
		}
	}
	if (!errors && !doc->child) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back holds no config_db table; is it the output of another "
			 "command?");
		errors++;
	}
	bool oom = false;
	if (!errors)
		errors = duplicates(doc, d, &oom);
	if (errors || oom) {
		cJSON_Delete(doc);
		return oom ? -ENOMEM : -EINVAL;
	}
	*out = doc;
	return 0;
}

const char *sonic_readback_hostname(const cJSON *have)
{
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(have, "DEVICE_METADATA");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(md, "localhost"), "hostname");
	return cJSON_IsString(h) ? h->valuestring : "";
}
