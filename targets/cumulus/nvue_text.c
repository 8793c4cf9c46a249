/* SPDX-License-Identifier: MIT */
/*
 * The text forms of an NVUE tree: the startup.yaml `- set:` fragment, `nv
 * set`/`nv unset` commands, and settings; interfaces with equal settings
 * under one range key, as NVUE writes them. Pure.
 */
#include "nvue_text.h"

#include "../../model/ports.h"
#include "cumulus_ports.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text forms ---- */

struct if_entry {
	struct qg_port p;
	const cJSON *v;
};

static int entry_cmp(const void *a, const void *b)
{
	return qg_port_cmp(&((const struct if_entry *)a)->p, &((const struct if_entry *)b)->p);
}

/*
 * Interfaces as NVUE groups them: consecutive ports with equal settings
 * under one range key ("swp1-32"). Calls fn with each group's key and its
 * (first member's) subtree, in port order; keys that are not switch ports
 * stand alone.
 */
static void each_interface_group(const cJSON *ifs, void (*fn)(void *, const char *, const cJSON *),
				 void *arg)
{
	size_t n = (size_t)cJSON_GetArraySize(ifs), k = 0;
	struct if_entry *e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return;
	const cJSON *c;
	cJSON_ArrayForEach(c, ifs)
	{
		struct qg_port *v = NULL;
		size_t nv = 0;
		char err[160];
		if (cumulus_port_parse(c->string, &v, &nv, err, sizeof(err)) == 0 && nv == 1) {
			e[k++] = (struct if_entry){v[0], c};
		} else {
			fn(arg, c->string, c);
		}
		free(v);
	}
	qsort(e, k, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < k;) {
		struct qg_port_run run = {e[i].p, e[i].p};
		size_t j = i + 1;
		for (; j < k && cJSON_Compare(e[j].v, e[i].v, true); j++) {
			struct qg_port pair[2] = {run.last, e[j].p};
			struct qg_port_run r[2];
			if (qg_port_runs(pair, 2, r) != 1)
				break;
			run.last = e[j].p;
		}
		char key[QG_PORT_TEXT_LEN];
		cumulus_port_run_format(&run, key);
		fn(arg, key, e[i].v);
		i = j;
	}
	free(e);
}

/* A key as YAML needs it: quoted when YAML would read it as a number or it holds a comma. */
static void yaml_key(struct qg_buf *out, const char *k)
{
	bool quote = isdigit((unsigned char)k[0]) || strchr(k, ',') || strchr(k, ':');
	qg_buf_printf(out, quote ? "'%s':" : "%s:", k);
}

struct yaml_walk {
	struct qg_buf *out;
	int depth;
};

static void yaml_node(struct yaml_walk *w, const char *key, const cJSON *v);

static void yaml_group(void *arg, const char *key, const cJSON *v)
{
	yaml_node(arg, key, v);
}

/*
 * Does v set anything: a value, or an object (a set member, {}) not made of
 * nulls only? The `- set:` part cannot say "unset"; what the tree unsets is
 * listed after it as comments (nvue_emit_yaml).
 */
static bool sets_something(const cJSON *v)
{
	if (cJSON_IsNull(v))
		return false;
	if (!cJSON_IsObject(v) || !v->child)
		return true;
	for (const cJSON *c = v->child; c; c = c->next)
		if (sets_something(c))
			return true;
	return false;
}

static void yaml_node(struct yaml_walk *w, const char *key, const cJSON *v)
{
	if (!sets_something(v))
		return;
	qg_buf_printf(w->out, "%*s", 2 * w->depth, "");
	yaml_key(w->out, key);
	if (cJSON_IsNumber(v)) {
		qg_buf_printf(w->out, " %ld\n", (long)v->valuedouble);
	} else if (cJSON_IsString(v)) {
		qg_buf_printf(w->out, " %s\n", v->valuestring);
	} else if (cJSON_IsNull(v)) {
		qg_buf_puts(w->out, " null\n");
	} else if (!v->child) {
		qg_buf_puts(w->out, " {}\n");
	} else {
		qg_buf_puts(w->out, "\n");
		w->depth++;
		if (w->depth == 3 && !strcmp(key, "interface"))
			each_interface_group(v, yaml_group, w);
		else
			for (const cJSON *c = v->child; c; c = c->next)
				yaml_node(w, c->string, c);
		w->depth--;
	}
}


/* A JSON string: quotes, backslashes and controls escaped (RFC 8259, section 7). */
static void json_text(struct qg_buf *out, const char *s)
{
	qg_buf_puts(out, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			qg_buf_printf(out, "\\%c", *p);
		else if (*p < 0x20)
			qg_buf_printf(out, "\\u%04x", *p);
		else
			qg_buf_append(out, (const char *)p, 1);
	}
	qg_buf_puts(out, "\"");
}

static void json_value(struct qg_buf *out, const cJSON *v, int depth)
{
	if (cJSON_IsNumber(v)) {
		qg_buf_printf(out, "%ld", (long)v->valuedouble);
	} else if (cJSON_IsString(v)) {
		json_text(out, v->valuestring);
	} else if (cJSON_IsNull(v)) {
		qg_buf_puts(out, "null");
	} else if (!v->child) {
		qg_buf_puts(out, "{}");
	} else {
		qg_buf_puts(out, "{\n");
		for (const cJSON *c = v->child; c; c = c->next) {
			qg_buf_printf(out, "%*s", 2 * (depth + 1), "");
			json_text(out, c->string);
			qg_buf_puts(out, ": ");
			json_value(out, c, depth + 1);
			qg_buf_puts(out, c->next ? ",\n" : "\n");
		}
		qg_buf_printf(out, "%*s}", 2 * depth, "");
	}
}

void nvue_emit_json(const cJSON *tree, struct qg_buf *out)
{
	json_value(out, tree, 0);
	qg_buf_puts(out, "\n");
}

/* A set, or a patch of one: members only, each {} (in it) or null (out of it). */
static bool set_or_set_patch(const cJSON *o)
{
	if (!cJSON_IsObject(o) || !o->child)
		return false;
	for (const cJSON *c = o->child; c; c = c->next)
		if (!cJSON_IsNull(c) && !(cJSON_IsObject(c) && !c->child))
			return false;
	return true;
}

/* The next member of set that is (in) or is not (out) null. */
static const cJSON *next_member(const cJSON *c, bool removed)
{
	while (c && cJSON_IsNull(c) != removed)
		c = c->next;
	return c;
}

/*
 * A member that is a number (a switch priority, a traffic class): its value,
 * or -1. Past INT_MAX it is written as itself: a read-back's 40-digit member
 * must not saturate strtol and overflow the run below (a fuzz finding).
 */
static long member_number(const cJSON *c)
{
	char *e;
	long v = isdigit((unsigned char)c->string[0]) ? strtol(c->string, &e, 10) : -1;
	return v >= 0 && v < INT_MAX && !*e ? v : -1;
}

/*
 * The members added (or removed) as NVUE writes a list: runs of numbers as
 * ranges ("0-2,4-7"), anything else as itself, joined by commas.
 */
static void member_list(const cJSON *set, bool removed, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	for (const cJSON *c = next_member(set->child, removed); c && n < cap;) {
		long first = member_number(c), last = first;
		const cJSON *next = next_member(c->next, removed);
		while (first >= 0 && next && member_number(next) == last + 1) {
			last++;
			next = next_member(next->next, removed);
		}
		const char *sep = n ? "," : "";
		if (first < 0)
			n += (size_t)snprintf(out + n, cap - n, "%s%s", sep, c->string);
		else if (first == last)
			n += (size_t)snprintf(out + n, cap - n, "%s%ld", sep, first);
		else
			n += (size_t)snprintf(out + n, cap - n, "%s%ld-%ld", sep, first, last);
		c = next;
	}
}

/* What a leaf of the walk is: a value, a deletion, members in or out of a set, an empty object. */
enum leaf { LEAF_VALUE, LEAF_UNSET, LEAF_MEMBERS_IN, LEAF_MEMBERS_OUT, LEAF_EMPTY };

struct leaf_walk {
	char sep; /* between path segments: ' ' for commands, '.' for settings */
	char path[256];
	void (*fn)(void *arg, const char *path, enum leaf kind, const char *value);
	void *arg;
};

static void leaf_node(struct leaf_walk *w, const char *key, const cJSON *v, int depth);

static void leaf_group(void *arg, const char *key, const cJSON *v)
{
	leaf_node(arg, key, v, 1);
}

/*
 * Every leaf of the tree with its path, one call each: a set as one list of
 * the members it adds and one of those it removes, interfaces with equal
 * settings under one range key.
 */
static void leaf_node(struct leaf_walk *w, const char *key, const cJSON *v, int depth)
{
	size_t len = strlen(w->path);
	snprintf(w->path + len, sizeof(w->path) - len, "%s%s", len ? (char[]){w->sep, 0} : "", key);
	char value[160];
	if (cJSON_IsNumber(v)) {
		snprintf(value, sizeof(value), "%ld", (long)v->valuedouble);
		w->fn(w->arg, w->path, LEAF_VALUE, value);
	} else if (cJSON_IsString(v)) {
		w->fn(w->arg, w->path, LEAF_VALUE, v->valuestring);
	} else if (cJSON_IsNull(v)) {
		w->fn(w->arg, w->path, LEAF_UNSET, NULL);
	} else if (set_or_set_patch(v)) {
		for (int removed = 0; removed < 2; removed++)
			if (next_member(v->child, removed)) {
				member_list(v, removed, value, sizeof(value));
				w->fn(w->arg, w->path, removed ? LEAF_MEMBERS_OUT : LEAF_MEMBERS_IN,
				      value);
			}
	} else if (!v->child) {
		w->fn(w->arg, w->path, LEAF_EMPTY, NULL);
	} else if (depth == 0 && !strcmp(key, "interface")) {
		each_interface_group(v, leaf_group, w);
	} else {
		for (const cJSON *c = v->child; c; c = c->next)
			leaf_node(w, c->string, c, depth + 1);
	}
	w->path[len] = '\0';
}

static void walk_leaves(const cJSON *tree, char sep,
			void (*fn)(void *, const char *, enum leaf, const char *), void *arg)
{
	struct leaf_walk w = {.sep = sep, .fn = fn, .arg = arg};
	for (const cJSON *c = tree ? tree->child : NULL; c; c = c->next)
		leaf_node(&w, c->string, c, 0);
}

static void command(void *arg, const char *path, enum leaf kind, const char *value)
{
	bool unset = kind == LEAF_UNSET || kind == LEAF_MEMBERS_OUT;
	qg_buf_printf(arg, "nv %s %s%s%s\n", unset ? "unset" : "set", path, value ? " " : "",
		      value ? value : "");
}

void nvue_emit_commands(const cJSON *tree, struct qg_buf *out)
{
	walk_leaves(tree, ' ', command, out);
}

static void setting(void *arg, const char *path, enum leaf kind, const char *value)
{
	if (kind == LEAF_VALUE || kind == LEAF_MEMBERS_IN)
		qg_settings_add(arg, path, "%s", value);
}

void nvue_settings(const cJSON *tree, struct qg_settings *out)
{
	walk_leaves(tree, '.', setting, out);
}

static void unset_comment(void *arg, const char *path, enum leaf kind, const char *value)
{
	if (kind == LEAF_UNSET)
		qg_buf_printf(arg, "#   nv unset %s\n", path);
	/* An object of nulls alone reads as a set patch: the same unsets (a profile's, say). */
	if (kind == LEAF_MEMBERS_OUT)
		qg_buf_printf(arg, "#   nv unset %s %s\n", path, value);
}

void nvue_emit_yaml(const cJSON *tree, struct qg_buf *out)
{
	struct yaml_walk w = {out, 2};
	qg_buf_puts(out, "- set:\n");
	for (const cJSON *c = tree->child; c; c = c->next)
		yaml_node(&w, c->string, c);
	/*
	 * What qosgen owns and unsets (back to NVUE's default): a `- set:`
	 * fragment cannot carry it, so it is listed here for the reviewer; the
	 * .nv commands and the .json body (nulls, RFC 7396) unset it, and push
	 * sends it.
	 */
	struct qg_buf unset = {0};
	walk_leaves(tree, ' ', unset_comment, &unset);
	if (unset.len)
		qg_buf_printf(out, "# owned and unset (NVUE's default), by push, the .nv and the .json:\n%s",
			      unset.data);
	if (unset.failed)
		out->failed = true;
	qg_buf_free(&unset);
}
