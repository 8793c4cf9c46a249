/* SPDX-License-Identifier: MIT */
/*
 * The walk's shared state and its helpers for the intent loader (intent/intent.c and
 * intent/intent_*.c): mappings and their keys (unknown, misplaced, duplicate),
 * scalars read with their range, unit and quoting rules, platform names, and
 * the bookkeeping of issue 25 (causes and consequences, refused hosts).
 */
#include "intent_walk.h"

#include "../lib/fixed.h"
#include "../lib/hostlist.h"
#include "../model/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "switches[leaf1]" + "name" -> "switches[leaf1].name"; a long path is cut. */
void walk_join(char sub[PATH_LEN], const char *path, const char *key)
{
	size_t a = strnlen(path, PATH_LEN - 48), b = strnlen(key, 46);
	memcpy(sub, path, a);
	sub[a] = '.';
	memcpy(sub + a + 1, key, b);
	sub[a + 1 + b] = '\0';
}

const char *walk_kind_name(const struct qg_ynode *n)
{
	switch (n->kind) {
	case QG_Y_SCALAR:
		return "a scalar";
	case QG_Y_SEQ:
		return "a list";
	default:
		return "a mapping";
	}
}

/* ---- causes and consequences (issue 25, item 4) ---- */

/* Grow an array of *n elements of size to hold one more; false on OOM (reported). */
bool walk_grow(struct walk *w, void **v, size_t n, size_t size)
{
	if (n % 16)
		return true;
	void *g = realloc(*v, (n + 16) * size);
	if (!g) {
		w->d->oom = true;
		return false;
	}
	*v = g;
	return true;
}

/* A key refused where it is, which belongs in home: once per key (the homed rows bound them). */
static void note_misplaced(struct walk *w, const char *key, const char *home)
{
	for (size_t i = 0; i < w->n_misplaced; i++)
		if (!strcmp(w->misplaced[i].key, key))
			return;
	char *h = strdup(home);
	if (!h)
		w->d->oom = true;
	else if (walk_grow(w, (void **)&w->misplaced, w->n_misplaced, sizeof(*w->misplaced)))
		w->misplaced[w->n_misplaced++] = (struct misplaced){key, h};
	else
		free(h);
}

/* The diagnostic added last follows from `key` missing at path: dropped if it was misplaced. */
void walk_consequence(struct walk *w, const char *key, const char *path)
{
	if (w->d->n == 0 || !walk_grow(w, (void **)&w->conseq, w->n_conseq, sizeof(*w->conseq)))
		return;
	char *p = strdup(path);
	if (!p) {
		w->d->oom = true;
		return;
	}
	w->conseq[w->n_conseq++] = (struct consequence){key, p, w->d->n - 1};
}

/* Is path one of the places a key's home (key_home()) names? */
static bool home_has(const char *home, const char *path)
{
	static const struct {
		const char *home, *prefix;
	} lists[] = {{"a switch of switches", "switches["},
		     {"a host of hosts", "hosts["},
		     {"the top level", "the intent file"}};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(home, lists[i].home))
			return !strncmp(path, lists[i].prefix, strlen(lists[i].prefix));
	if (!strcmp(home, "an ets mapping")) {
		size_t n = strlen(path);
		return n >= 4 && !strcmp(path + n - 4, ".ets");
	}
	size_t len = strlen(path);
	for (const char *h = home; *h;) {
		size_t l = strcspn(h, " ");
		if (l == len && !strncmp(h, path, l))
			return true;
		h += l;
		if (!strncmp(h, " or ", 4))
			h += 4;
		else
			break;
	}
	return false;
}

/* Remove the consequences of keys that were given, at the wrong level: their error says it. */
void walk_settle_consequences(struct walk *w)
{
	size_t *drop = w->n_conseq ? malloc(w->n_conseq * sizeof(*drop)) : NULL, n = 0;
	if (w->n_conseq && !drop)
		w->d->oom = true;
	/* Recorded as added: the indices ascend. */
	for (size_t i = 0; drop && i < w->n_conseq; i++) {
		const struct consequence *c = &w->conseq[i];
		bool said = false;
		for (size_t k = 0; k < w->n_misplaced && !said; k++)
			said = !strcmp(w->misplaced[k].key, c->key) &&
			       home_has(w->misplaced[k].home, c->path);
		if (said && (n == 0 || drop[n - 1] != c->index))
			drop[n++] = c->index;
	}
	if (n && !w->d->oom)
		qg_diags_remove(w->d, drop, n);
	free(drop);
	for (size_t i = 0; i < w->n_conseq; i++)
		free(w->conseq[i].path);
	free(w->conseq);
	for (size_t i = 0; i < w->n_misplaced; i++)
		free(w->misplaced[i].home);
	free(w->misplaced);
}

/*
 * Could a refused host list have given name: the text before its first
 * bracket, then something, then the text after its last? Linear in the
 * name: a list that does not expand has no names to compare with, and a
 * closer look would cost more than the extra message it saves.
 */
static bool pattern_fits(const char *p, const char *name)
{
	size_t pre = strcspn(p, "["), len = strlen(name);
	const char *close = strrchr(p, ']');
	const char *post = close ? close + 1 : "";
	size_t post_len = strlen(post);
	return len > pre + post_len && !strncmp(name, p, pre) &&
	       !strcmp(name + len - post_len, post);
}

/* Host lists checked at most: refused lists past these are rare enough to report again. */
#define POISONED_PATTERNS 64

/* A reference to a host that was refused where it is defined: reported there, once. */
bool walk_poisoned_host(const struct walk *w, const char *name)
{
	if (w->hosts_refused || qg_strmap_get(&w->poisoned, name))
		return true;
	for (size_t i = 0; i < w->n_patterns; i++)
		if (pattern_fits(w->patterns[i], name))
			return true;
	return false;
}

/* name (a node's value: it outlives the walk) names a refused host, or a host list. */
void walk_poison_host(struct walk *w, const char *name)
{
	if (!qg_hostlist_is_pattern(name)) {
		if (qg_strmap_put(&w->poisoned, name, (void *)1, NULL) < 0)
			w->d->oom = true;
	} else if (w->n_patterns < POISONED_PATTERNS &&
		   walk_grow(w, (void **)&w->patterns, w->n_patterns, sizeof(*w->patterns))) {
		w->patterns[w->n_patterns++] = name;
	}
}

/* ---- mappings and keys ---- */

bool walk_key_allowed(const char *key, const char *const *allowed)
{
	for (size_t i = 0; allowed[i]; i++)
		if (strcmp(key, allowed[i]) == 0)
			return true;
	return false;
}

void walk_list_allowed(char *out, size_t len, const char *const *allowed)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; allowed[i] && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", allowed[i]);
}

/* Where row path's key lives: its mapping's path, or what a list's item or an ets mapping is. */
static void home_of(const char *path, char *out, size_t len)
{
	const char *dot = strrchr(path, '.');
	size_t n = dot ? (size_t)(dot - path) : 0;
	if (!dot)
		snprintf(out, len, "%s", "the top level");
	else if (n == 10 && !strncmp(path, "switches[]", n))
		snprintf(out, len, "%s", "a switch of switches");
	else if (n == 7 && !strncmp(path, "hosts[]", n))
		snprintf(out, len, "%s", "a host of hosts");
	else if (n >= 4 && !strncmp(dot - 4, ".ets", 4))
		snprintf(out, len, "%s", "an ets mapping");
	else
		snprintf(out, len, "%.*s", (int)n, path);
}

/* Add home to the " or "-joined list in out, unless it is there. */
static void home_add(char *out, size_t len, const char *home)
{
	size_t l = strlen(home), used = strlen(out);
	for (const char *h = out; *h;) {
		const char *next = strstr(h, " or ");
		size_t hl = next ? (size_t)(next - h) : strlen(h);
		if (hl == l && !strncmp(h, home, l))
			return;
		h = next ? next + 4 : h + hl;
	}
	snprintf(out + used, len - used, "%s%s", used ? " or " : "", home);
}

/*
 * Where key lives, for a key given at the wrong level ("'ecn' belongs in
 * qos.lossless" says more than the nearest spelling at the level where it
 * was found): the homes of the key table's rows of that name that are homed
 * (model/keys.h), then of the host targets' rows, into out. NULL: none.
 */
static const char *key_home(const struct walk *w, const char *key, char *out, size_t len)
{
	size_t n;
	const struct qg_key *keys = qg_keys(&n);
	char home[96];
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *dot = strrchr(keys[i].path, '.');
		if (keys[i].homed && !strcmp(dot ? dot + 1 : keys[i].path, key)) {
			home_of(keys[i].path, home, sizeof(home));
			home_add(out, len, home);
		}
	}
	for (size_t t = 0; w->targets && w->targets[t]; t++)
		for (const struct qg_key *k = w->targets[t]->key_rows; k && k->path; k++)
			if (k->homed && !strcmp(k->path, key))
				home_add(out, len, "a host of hosts");
	return out[0] ? out : NULL;
}

/* The allowed key nearest to `key` (edit distance 1 or 2), or NULL. */
static const char *nearest_key(const char *key, const char *const *allowed)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t j = 0; allowed[j]; j++) {
		size_t dd = qg_edit_distance(key, allowed[j]);
		if (dd < best_d) {
			best_d = dd;
			best = allowed[j];
		}
	}
	return best;
}

/*
 * Check a mapping's keys: unknown keys and duplicate keys are errors (a typo
 * must not silently become a default, and YAML parsers disagree on which
 * duplicate wins).
 */
void walk_check_keys(struct walk *w, const struct qg_ynode *map, const char *path,
		     const char *const *allowed)
{
	static const char *const none[] = {NULL};
	walk_check_keys_but(w, map, path, allowed, none);
}

void walk_check_keys_but(struct walk *w, const struct qg_ynode *map, const char *path,
			 const char *const *allowed, const char *const *refused)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++) {
		const struct qg_ynode *k = map->kids[2 * i];
		if (!walk_key_allowed(k->value, allowed) && !walk_key_allowed(k->value, refused)) {
			char list[256];
			walk_list_allowed(list, sizeof(list), allowed);
			const char *best = nearest_key(k->value, allowed);
			char where[160];
			const char *home = key_home(w, k->value, where, sizeof(where));
			if (home)
				note_misplaced(w, k->value, home);
			if (home)
				qg_error(w->d, k->pos,
					 "'%s' is not a key of %s: it belongs in %s (check its "
					 "indentation); allowed here: %s",
					 k->value, path, home, list);
			else if (best)
				qg_error(w->d, k->pos,
					 "unknown key '%s' in %s (did you mean '%s'?); allowed: %s",
					 k->value, path, best, list);
			else
				qg_error(w->d, k->pos, "unknown key '%s' in %s; allowed: %s",
					 k->value, path, list);
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			const struct qg_ynode *first = map->kids[2 * j];
			if (strcmp(first->value, k->value) == 0) {
				qg_error(w->d, k->pos, "duplicate key '%s' in %s", k->value, path);
				qg_note(w->d, first->pos, "'%s' first given here", k->value);
				break;
			}
		}
	}
}

const struct qg_ynode *walk_get(const struct qg_ynode *map, const char *key)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++)
		if (strcmp(map->kids[2 * i]->value, key) == 0)
			return map->kids[2 * i + 1];
	return NULL;
}

const struct qg_ynode *walk_get_key_node(const struct qg_ynode *map, const char *key)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++)
		if (strcmp(map->kids[2 * i]->value, key) == 0)
			return map->kids[2 * i];
	return NULL;
}

const struct qg_ynode *walk_require(struct walk *w, const struct qg_ynode *map, const char *key,
				    const char *path)
{
	const struct qg_ynode *v = walk_get(map, key);
	if (v)
		return v;
	/*
	 * A misspelling of it is reported at its own line, with the right
	 * name; a key of the table near it is no misspelling (an ecn with
	 * min_kb and no max_kb).
	 */
	const char *const one[] = {key, NULL};
	for (size_t i = 0; i < qg_ymap_len(map); i++) {
		const char *given = map->kids[2 * i]->value;
		char sub[PATH_LEN];
		if (!strcmp(path, "the intent file"))
			snprintf(sub, sizeof(sub), "%s", given);
		else
			walk_join(sub, path, given);
		if (nearest_key(given, one) && !walk_key_row(sub))
			return NULL;
	}
	qg_error(w->d, map->pos, "missing key '%s' in %s", key, path);
	walk_consequence(w, key, path);
	return NULL;
}

bool walk_expect_kind(struct walk *w, const struct qg_ynode *n, enum qg_ykind kind,
		      const char *path)
{
	if (n->kind == kind)
		return true;
	qg_error(w->d, n->pos, "%s: expected %s, got %s", path,
		 kind == QG_Y_MAP   ? "a mapping"
		 : kind == QG_Y_SEQ ? "a list"
				    : "a scalar",
		 walk_kind_name(n));
	return false;
}

const struct qg_ynode *const *walk_port_items(struct walk *w, const struct qg_ynode *n,
					      const char *path, const struct qg_ynode **single,
					      size_t *count)
{
	if (n->kind == QG_Y_SEQ) {
		*count = n->n_kids;
		if (*count == 0) {
			qg_error(w->d, n->pos, "%s: the list is empty; give at least one port", path);
			return NULL;
		}
		return (const struct qg_ynode *const *)n->kids;
	}
	if (!walk_expect_kind(w, n, QG_Y_SCALAR, path))
		return NULL;
	*single = n;
	*count = 1;
	return single;
}

/* ---- scalars ---- */

/* "3" or '50.5': a number in quotes, which YAML reads as a string. */
bool walk_quoted_number(const struct qg_ynode *n)
{
	int64_t v;
	return n->kind == QG_Y_SCALAR && !n->plain && n->value[0] &&
	       qg_fixed_parse(n->value[0] == '-' ? n->value + 1 : n->value, 2, &v);
}

/* A plain decimal integer, optionally negative; quoted numbers are strings in YAML. */
bool walk_scalar_int(const struct qg_ynode *n, long *out)
{
	if (n->kind != QG_Y_SCALAR || !n->plain)
		return false;
	const char *s = n->value;
	bool neg = *s == '-';
	if (neg)
		s++;
	size_t len = strlen(s);
	if (len == 0 || len > 9 || strspn(s, "0123456789") != len)
		return false;
	long v = strtol(s, NULL, 10);
	*out = neg ? -v : v;
	return true;
}

/*
 * The row (model/keys.h) whose unit a path's field is in, by the field's key:
 * the last part of a path that names it, or one it passes through
 * ("switches[a].cable_length_m.default"); NULL: none. A key's unit is its
 * rows' (dvs[].mtu is in qos.mtu's bytes), so "40m" for cable_length_m is
 * told to be 40, written without its unit.
 */
static const struct qg_key *unit_of(const char *path)
{
	size_t n;
	const struct qg_key *keys = qg_keys(&n), *found = NULL;
	const char *c = path;
	while (*c) {
		size_t len = strcspn(c, ".");
		for (size_t k = 0; k < n; k++) {
			const char *dot = strrchr(keys[k].path, '.'),
				   *name = dot ? dot + 1 : keys[k].path;
			if (keys[k].unit && strlen(name) == len && !strncmp(c, name, len))
				found = &keys[k];
		}
		c += len + (c[len] == '.');
	}
	return found;
}

/*
 * A number followed by a unit ("40m", "150 kB", "9216B", "50%") given to a
 * field with a unit: say which unit the field is in, and the value to write
 * (its number, when the unit given is the field's own). True when reported.
 */
bool walk_unit_given(struct walk *w, const struct qg_ynode *n, const char *path)
{
	const struct qg_key *k = n->kind == QG_Y_SCALAR ? unit_of(path) : NULL;
	if (!k)
		return false;
	const char *key = strrchr(k->path, '.') ? strrchr(k->path, '.') + 1 : k->path;
	const char *s = n->value;
	size_t num = strspn(s, "0123456789");
	if (num && s[num] == '.')
		num += 1 + strspn(s + num + 1, "0123456789");
	size_t sp = num + strspn(s + num, " ");
	char unit[16];
	size_t u = 0;
	for (const char *c = s + sp; *c && u + 1 < sizeof(unit); c++, u++)
		unit[u] = (char)((*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a' : *c);
	unit[u] = '\0';
	if (num == 0 || u == 0 || strlen(s + sp) != u ||
	    strspn(unit, "abcdefghijklmnopqrstuvwxyz%") != u)
		return false;
	/* Is it the field's own unit? Then its number is what to write. */
	bool own = false;
	for (const char *sv = k->unit_spellings; *sv;) {
		size_t l = strcspn(sv, " ");
		own |= l == u && !strncmp(sv, unit, l);
		sv += l + (sv[l] == ' ');
	}
	if (own)
		qg_error(w->d, n->pos, "%s: got '%s'; %s is in %s: write %.*s, without the unit",
			 path, s, key, k->unit, (int)num, s);
	else
		qg_error(w->d, n->pos,
			 "%s: got '%s'; %s is in %s: write the number of %s, without a unit", path,
			 s, key, k->unit, k->unit);
	return true;
}

bool walk_read_int(struct walk *w, const struct qg_ynode *n, const char *path, long lo, long hi,
		   int *out)
{
	long v;
	if (!walk_scalar_int(n, &v)) {
		if (walk_unit_given(w, n, path))
			return false;
		if (walk_quoted_number(n)) {
			qg_error(w->d, n->pos,
				 "%s: expected an integer %ld..%ld, got the quoted string '%s'; "
				 "quotes make a YAML value text: write %s without them",
				 path, lo, hi, n->value, n->value);
			return false;
		}
		qg_error(w->d, n->pos, "%s: expected an integer %ld..%ld, got %s%s%s", path, lo, hi,
			 n->kind == QG_Y_SCALAR ? "'" : "",
			 n->kind == QG_Y_SCALAR ? n->value : walk_kind_name(n),
			 n->kind == QG_Y_SCALAR ? "'" : "");
		return false;
	}
	if (v < lo || v > hi) {
		qg_error(w->d, n->pos, "%s: %ld is out of range %ld..%ld", path, v, lo, hi);
		return false;
	}
	*out = (int)v;
	return true;
}

/* A plain decimal number as fixed point (lib/fixed.c); quoted numbers are strings. */
bool walk_scalar_fixed(const struct qg_ynode *n, int decimals, int64_t *out)
{
	return n->kind == QG_Y_SCALAR && n->plain && qg_fixed_parse(n->value, decimals, out);
}

bool walk_read_str(struct walk *w, const struct qg_ynode *n, const char *path,
		   const struct qg_key *r, char *out)
{
	if (!walk_expect_kind(w, n, QG_Y_SCALAR, path))
		return false;
	if (strlen(n->value) >= r->size || !r->ok(n->value)) {
		qg_error(w->d, n->pos, "%s: '%s' is not allowed; expected %s", path, n->value,
			 r->rule);
		return false;
	}
	memcpy(out, n->value, strlen(n->value) + 1);
	return true;
}

/*
 * The allowed value a wrong one most likely meant: the same word in another
 * case, or one within edit distance 2 that is not a mere rewrite of a short
 * word (a platform's aliases are its target's: read_platform).
 */
static const char *nearest_value(const char *v, const char *const *allowed)
{
	for (size_t i = 0; allowed[i]; i++)
		if (!strcasecmp(v, allowed[i]))
			return allowed[i];
	const char *best = NULL;
	size_t best_d = 3;
	bool tie = false; /* two as near: no guess ('pv' is pf or vf) */
	for (size_t i = 0; allowed[i]; i++) {
		size_t dd = qg_edit_distance(v, allowed[i]);
		if (dd >= strlen(allowed[i]) || dd > best_d)
			continue;
		tie = dd == best_d && best;
		if (dd < best_d || !best) {
			best_d = dd;
			best = allowed[i];
		}
	}
	return tie ? NULL : best;
}

/* Returns the index of the matching name, or -1 after reporting. */
int walk_read_enum(struct walk *w, const struct qg_ynode *n, const char *path,
		   const char *const *names)
{
	if (!walk_expect_kind(w, n, QG_Y_SCALAR, path))
		return -1;
	for (int i = 0; names[i]; i++)
		if (strcmp(n->value, names[i]) == 0)
			return i;
	char list[128];
	walk_list_allowed(list, sizeof(list), names);
	const char *best = nearest_value(n->value, names);
	if (best)
		qg_error(w->d, n->pos, "%s: '%s' is not one of: %s (did you mean '%s'?)", path,
			 n->value, list, best);
	else
		qg_error(w->d, n->pos, "%s: '%s' is not one of: %s", path, n->value, list);
	return -1;
}

/* Is p a row's path, or the mapping or list one lies under? */
static bool row_under(const char *p)
{
	size_t n, len = strlen(p);
	const struct qg_key *keys = qg_keys(&n);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(keys[i].path, p, len) &&
		    (!keys[i].path[len] || keys[i].path[len] == '.' || keys[i].path[len] == '['))
			return true;
	return false;
}

/*
 * The key table's path of a diagnostic path: list items as "[]", and a
 * free key of a mapping as its "*" where the table has no row of that name
 * ("switches[a].cable_length_m.default" -> "switches[].cable_length_m.*",
 * "switches[a].roles.hosts.ecn" -> "switches[].roles.*.ecn").
 */
static void table_path(const char *path, char out[PATH_LEN])
{
	char p[PATH_LEN];
	out[0] = '\0';
	if (!strcmp(path, "the intent file"))
		return;
	qg_key_path(path, p, sizeof(p));
	size_t o = 0;
	for (const char *c = p; *c && o < PATH_LEN;) {
		size_t l = strcspn(c, ".");
		snprintf(out + o, PATH_LEN - o, "%s%.*s", o ? "." : "", (int)l, c);
		if (!row_under(out)) {
			snprintf(out + o, PATH_LEN - o, "%s*", o ? "." : "");
			if (!row_under(out))
				snprintf(out + o, PATH_LEN - o, "%s%.*s", o ? "." : "", (int)l, c);
		}
		o = strlen(out);
		c += l + (c[l] == '.');
	}
}

const struct qg_key *walk_key_row(const char *path)
{
	char p[PATH_LEN];
	table_path(path, p);
	return qg_key_find(p);
}

void walk_check_table_keys(struct walk *w, const struct qg_ynode *map, const char *path)
{
	const char *names[TABLE_KEYS + 1];
	char p[PATH_LEN];
	table_path(path, p);
	qg_key_children(p, names, TABLE_KEYS);
	walk_check_keys(w, map, path, names);
}

bool walk_read_key_int(struct walk *w, const struct qg_ynode *n, const char *path, int *out)
{
	const struct qg_key *k = walk_key_row(path);
	if (!k || !(k->type & QG_KEY_INT)) {
		qg_error(w->d, n->pos, "%s: not an integer key of qosgen's key table (a bug)",
			 path);
		return false;
	}
	return walk_read_int(w, n, path, k->lo, k->hi, out);
}

const char *const *walk_key_values(const struct qg_key *k)
{
	static const char *const none[] = {NULL};
	return k && k->values ? k->values : none;
}

const struct qg_key *walk_target_row(const struct qg_target *t, const char *key)
{
	for (const struct qg_key *r = t ? t->key_rows : NULL; r && r->path; r++)
		if (!strcmp(r->path, key))
			return r;
	return NULL;
}

size_t walk_target_keys(const struct qg_target *t, bool required, const char **keys, size_t cap)
{
	size_t n = 0;
	for (const struct qg_key *r = t ? t->key_rows : NULL; r && r->path && n < cap; r++)
		if (!required || r->required)
			keys[n++] = r->path;
	keys[n] = NULL;
	return n;
}

/* true or false, unplain: YAML's booleans, not the strings "true" and "false". */
static bool read_bool(struct walk *w, const struct qg_ynode *n, const char *path, bool *out)
{
	static const char *const booleans[] = {"false", "true", NULL};
	int b = walk_read_enum(w, n, path, booleans);
	if (b >= 0 && !n->plain) {
		qg_error(w->d, n->pos, "%s: got the quoted string '%s'; write %s without quotes",
			 path, n->value, n->value);
		return false;
	}
	if (b >= 0)
		*out = b == 1;
	return b >= 0;
}

enum walk_load walk_store_row(struct walk *w, const struct qg_ynode *n, const char *path,
			      const struct qg_key *r, void *base)
{
	char *at = (char *)base + r->offset;
	bool ok = false, b;
	int v;
	if (r->base == QG_KB_NONE) {
		/* below: a bug */
	} else if (r->type == QG_KEY_INT) {
		if ((ok = walk_read_int(w, n, path, r->lo, r->hi, &v)))
			memcpy(at, &v, sizeof(v));
	} else if (r->type == QG_KEY_ENUM && r->values) {
		if ((ok = (v = walk_read_enum(w, n, path, r->values)) >= 0))
			memcpy(at, &v, sizeof(v));
	} else if (r->type == QG_KEY_BOOL) {
		if ((ok = read_bool(w, n, path, &b)))
			memcpy(at, &b, sizeof(b));
	} else if (r->type == QG_KEY_STRING && r->ok) {
		ok = walk_read_str(w, n, path, r, at);
	} else {
		r = NULL;
	}
	if (!r || r->base == QG_KB_NONE) {
		qg_error(w->d, n->pos,
			 "%s: not a scalar key with a landing in qosgen's key table (a bug)", path);
		return WALK_REFUSED;
	}
	b = true;
	if (ok && r->given)
		memcpy((char *)base + r->given - 1, &b, sizeof(b));
	return ok ? WALK_STORED : WALK_REFUSED;
}

enum walk_load walk_load_row(struct walk *w, const struct qg_ynode *map, const char *path,
			     const struct qg_key *r, void *base)
{
	const char *dot = strrchr(r->path, '.'), *key = dot ? dot + 1 : r->path;
	const struct qg_ynode *v =
	    r->required ? walk_require(w, map, key, path) : walk_get(map, key);
	if (!v)
		return WALK_ABSENT;
	char sub[PATH_LEN];
	if (!strcmp(path, "the intent file"))
		snprintf(sub, sizeof(sub), "%s", key);
	else
		walk_join(sub, path, key);
	return walk_store_row(w, v, sub, r, base);
}

enum walk_load walk_load_key(struct walk *w, const struct qg_ynode *map, const char *path,
			     const char *key, void *base)
{
	char sub[PATH_LEN];
	if (!strcmp(path, "the intent file"))
		snprintf(sub, sizeof(sub), "%s", key);
	else
		walk_join(sub, path, key);
	const struct qg_key *r = walk_key_row(sub);
	if (r)
		return walk_load_row(w, map, path, r, base);
	qg_error(w->d, map->pos, "%s: no row in qosgen's key table (a bug)", sub);
	return WALK_REFUSED;
}

/* The names of the registry's targets of a kind (with a capability), NULL-terminated. */
void walk_platform_names(const struct walk *w, enum qg_device_kind kind, unsigned caps,
			 const char *names[MAX_PLATFORMS + 1])
{
	size_t n = 0;
	for (size_t t = 0; w->targets[t] && n < MAX_PLATFORMS; t++)
		if (w->targets[t]->kind == kind && (w->targets[t]->caps & caps) == caps)
			names[n++] = w->targets[t]->name;
	names[n] = NULL;
}

/* A device's `platform:`: the registry's target of that name and kind, or NULL (reported). */
const struct qg_target *walk_read_platform(struct walk *w, const struct qg_ynode *n,
					   const char *path, enum qg_device_kind kind)
{
	const char *names[MAX_PLATFORMS + 1];
	walk_platform_names(w, kind, 0, names);
	/* Another name of a platform of this kind (struct qg_target's aliases): say which. */
	for (size_t t = 0; n->kind == QG_Y_SCALAR && w->targets[t]; t++) {
		const struct qg_target *tg = w->targets[t];
		for (size_t a = 0; tg->kind == kind && tg->aliases && tg->aliases[a]; a++) {
			if (strcasecmp(n->value, tg->aliases[a]))
				continue;
			char list[128];
			walk_list_allowed(list, sizeof(list), names);
			qg_error(w->d, n->pos, "%s: '%s' is not one of: %s (did you mean '%s'?)",
				 path, n->value, list, tg->name);
			return NULL;
		}
	}
	int k = walk_read_enum(w, n, path, names);
	if (k < 0)
		return NULL;
	for (size_t t = 0; w->targets[t]; t++)
		if (w->targets[t]->kind == kind && !strcmp(w->targets[t]->name, names[k]))
			return w->targets[t];
	return NULL;
}
