/* SPDX-License-Identifier: MIT */
/* The config_db tree as text: the JSON file and the settings (config_db.h). */
#include "config_db_text.h"

#include "sonic_ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the JSON file ---- */

static void json_string(struct qg_buf *out, const char *s)
{
	qg_buf_puts(out, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			qg_buf_printf(out, "\\%c", c);
		else if (c < 0x20)
			qg_buf_printf(out, "\\u%04x", c);
		else
			qg_buf_append(out, s, 1);
	}
	qg_buf_puts(out, "\"");
}

/* A table all of whose rows are absent (nulls): nothing of it goes in the file. */
static bool all_absent(const cJSON *v)
{
	if (!cJSON_IsObject(v) || !v->child)
		return false;
	for (const cJSON *c = v->child; c; c = c->next)
		if (!cJSON_IsNull(c))
			return false;
	return true;
}

static bool shown(const cJSON *c)
{
	return !cJSON_IsNull(c) && !all_absent(c);
}

/* config_db JSON has no "absent": a null (config_db.h) is left out of the file. */
static void json_node(const cJSON *v, int depth, struct qg_buf *out)
{
	if (!cJSON_IsObject(v)) {
		json_string(out, cJSON_IsString(v) ? v->valuestring : "");
		return;
	}
	const cJSON *c = v->child;
	while (c && !shown(c))
		c = c->next;
	if (!c) {
		qg_buf_puts(out, "{}");
		return;
	}
	qg_buf_puts(out, "{\n");
	while (c) {
		const cJSON *next = c->next;
		while (next && !shown(next))
			next = next->next;
		qg_buf_printf(out, "%*s", 4 * (depth + 1), "");
		json_string(out, c->string);
		qg_buf_puts(out, ": ");
		json_node(c, depth + 1, out);
		qg_buf_puts(out, next ? ",\n" : "\n");
		c = next;
	}
	qg_buf_printf(out, "%*s}", 4 * depth, "");
}

/* The indentation of SONiC's own config_db.json (Python's json.dump, indent 4). */
void sonic_emit_json(const cJSON *tree, struct qg_buf *out)
{
	json_node(tree, 0, out);
	qg_buf_puts(out, "\n");
}

/* ---- settings ---- */

/* A per-port row key "Ethernet4" or "Ethernet4|3": the port's number and the rest ("", "3"). */
static bool split_port_key(const char *key, unsigned *n, const char **rest)
{
	struct qg_port *p;
	size_t count;
	char name[QG_PORT_TEXT_LEN], err[160];
	size_t len = strcspn(key, "|");
	if (strncmp(key, "Ethernet", 8) || len >= sizeof(name))
		return false;
	memcpy(name, key, len);
	name[len] = '\0';
	if (sonic_port_parse(name, &p, &count, err, sizeof(err)) != 0)
		return false;
	*n = sonic_port_number(&p[0]);
	free(p);
	*rest = key[len] ? key + len + 1 : "";
	return true;
}

/* Ascending port numbers as the intent writes them: "Ethernet0-124/4,Ethernet200". */
static void port_list(const unsigned *v, size_t n, struct qg_buf *out)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		unsigned step = j < n ? v[j] - v[i] : 0;
		while (step >= 1 && step <= SONIC_STEP_MAX && j < n && v[j] - v[j - 1] == step)
			j++;
		if (j - i < 2) {
			qg_buf_printf(out, "%sEthernet%u", i ? "," : "", v[i]);
			i++;
		} else {
			qg_buf_printf(out, "%sEthernet%u-%u/%u", i ? "," : "", v[i], v[j - 1],
				      step);
			i = j;
		}
	}
}

/* One setting a field: "<prefix>.<field>" = value. */
static void row_settings(const char *prefix, const cJSON *row, struct qg_settings *out)
{
	struct qg_buf key = {0};
	for (const cJSON *f = row->child; f; f = f->next) {
		key.len = 0;
		qg_buf_printf(&key, "%s.%s", prefix, f->string);
		if (key.failed) {
			out->oom = true;
			break;
		}
		qg_settings_add(out, key.data, "%s",
				cJSON_IsString(f) ? f->valuestring : SONIC_ABSENT);
	}
	qg_buf_free(&key);
}

/*
 * A table's rows: per-port rows that are equal but for the port, under one
 * key that lists the ports; other rows (the maps, profiles) one by one.
 */
static void table_settings(const cJSON *table, struct qg_settings *out)
{
	size_t n = (size_t)cJSON_GetArraySize(table), k = 0;
	const cJSON **rows = calloc(n ? n : 1, sizeof(*rows));
	char **sig = calloc(n ? n : 1, sizeof(*sig));
	unsigned *num = calloc(n ? n : 1, sizeof(*num)), *ports = calloc(n ? n : 1, sizeof(*ports));
	const char **rest = calloc(n ? n : 1, sizeof(*rest));
	bool *port = calloc(n ? n : 1, sizeof(*port));
	struct qg_buf prefix = {0};
	if (!rows || !sig || !num || !ports || !rest || !port) {
		out->oom = true;
		goto done;
	}
	for (const cJSON *r = table->child; r; r = r->next, k++) {
		rows[k] = r;
		port[k] = split_port_key(r->string, &num[k], &rest[k]);
		if (port[k] && !(sig[k] = cJSON_PrintUnformatted(r))) {
			out->oom = true;
			goto done;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!rows[i])
			continue; /* already listed with an equal row */
		prefix.len = 0;
		if (!port[i]) {
			qg_buf_printf(&prefix, "%s|%s", table->string, rows[i]->string);
		} else {
			size_t np = 0;
			for (size_t j = i; j < n; j++)
				if (rows[j] && port[j] && !strcmp(rest[j], rest[i]) &&
				    !strcmp(sig[j], sig[i])) {
					ports[np++] = num[j];
					if (j != i)
						rows[j] = NULL;
				}
			qg_buf_printf(&prefix, "%s|", table->string);
			port_list(ports, np, &prefix);
			if (rest[i][0])
				qg_buf_printf(&prefix, "|%s", rest[i]);
		}
		if (prefix.failed) {
			out->oom = true;
			break;
		}
		if (cJSON_IsNull(rows[i]))
			qg_settings_add(out, prefix.data, "%s", SONIC_ABSENT);
		else
			row_settings(prefix.data, rows[i], out);
	}
done:
	for (size_t i = 0; sig && i < n; i++)
		cJSON_free(sig[i]);
	free(rows);
	free(sig);
	free(num);
	free(ports);
	free(rest);
	free(port);
	qg_buf_free(&prefix);
}

void sonic_settings(const cJSON *tree, struct qg_settings *out)
{
	for (const cJSON *t = tree ? tree->child : NULL; t; t = t->next)
		table_settings(t, out);
}
