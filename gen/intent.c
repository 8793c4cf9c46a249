/* SPDX-License-Identifier: MIT */
/*
 * Schema walk over the YAML tree. The shape and every rule follow
 * docs/intent.md (grown from shared/spec/intent.md); where that page says a
 * rule exists, a test in tests/golden/errors/ pins its diagnostic.
 *
 * Style of the walk: each load_* function takes a node and a path for
 * messages, reports everything wrong with it, and fills what it can, so that
 * one run reports every problem. Cross-references (dvs.hosts, verify.pairs)
 * are resolved after all hosts are read, whatever the key order in the file.
 */
#include "intent.h"

#include "bounds.h"
#include "derive.h"
#include "fixed.h"
#include "hostlist.h"
#include "names.h"
#include "ports.h"
#include "readfile.h"
#include "strmap.h"
#include "target.h"
#include "yamlast.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A device name's first use: where and in which list, for "first used here". */
struct name_use {
	struct qg_pos pos;
	const char *list;
};

struct walk {
	struct qg_diags *d;
	struct qg_model *m;
	const struct qg_target *const *targets; /* the registry: platforms by name */
	unsigned bad;				/* BAD_*: the qos values that could not be read */
	/*
	 * Device names across switches, hosts and dvs (one namespace: an
	 * inventory built from the intent cannot hold two devices of one name),
	 * and host names to their index for references: hash lookups, so that a
	 * fabric's validation is linear in its devices.
	 */
	struct qg_strmap names; /* name -> index + 1 into uses */
	struct name_use *uses;
	size_t n_uses;
	struct qg_strmap hosts; /* host name -> index + 1 into m->hosts */
	bool hosts_indexed;
	/*
	 * Causes and their consequences (issue 25, item 4). A key given at the
	 * wrong level is refused there, with where it belongs (misplaced); a
	 * diagnostic that its absence from there caused (a consequence: a
	 * "missing key", a warning that ECN is off) is removed once the walk
	 * is over, since the first error says it already.
	 */
	struct misplaced {
		const char *key, *home;
	} *misplaced;
	size_t n_misplaced;
	struct consequence {
		const char *key;
		char *path; /* where the key was missed */
		size_t index; /* the diagnostic's, in w->d */
	} *conseq;
	size_t n_conseq;
	/*
	 * Host entries that were refused (poisoned): a reference to one of
	 * their names says nothing more; hosts_refused: the whole list was.
	 */
	struct qg_strmap poisoned; /* refused names -> (void *)1 */
	const char **patterns;	   /* refused host lists, at most POISONED_PATTERNS */
	size_t n_patterns;
	bool hosts_refused;
	/* Switch SSH endpoints (qg_address_key) -> index + 1 into m->switches. */
	struct qg_strmap endpoints;
	char (*endpoint_keys)[QG_ADDR_LEN + 16];
	struct qg_pos *address_pos; /* each switch's address, for the note */
	bool qos_read;			   /* qos was a mapping: settle_switch_mtu runs */
	const struct qg_ynode *switch_mtu; /* qos.switch_mtu, read after the switches */
};

/*
 * The qos values a rule between values reads. A value that could not be read
 * turns off only the rules that need it, so every other problem still shows
 * in the same run. Per class: lossless at shift 0, cnp at shift 4.
 */
enum {
	BAD_PRIO = 1u << 0,
	BAD_DSCP = 1u << 1,
	BAD_TC = 1u << 2,
	BAD_ETS = 1u << 3,
	BAD_CLASS = BAD_PRIO | BAD_DSCP | BAD_TC | BAD_ETS,
	BAD_CNP_SHIFT = 4,
	BAD_MTU = 1u << 8,
	BAD_SWITCH_MTU = 1u << 9,
	BAD_ECN = 1u << 10,
	BAD_TRUST = 1u << 11,
	BAD_CNP_MAP = 1u << 12,
};

/* Room for a device path with an 80-character name and a key or two after it. */
#define PATH_LEN 192

/* "switches[leaf1]" + "name" -> "switches[leaf1].name"; a long path is cut. */
static void join(char sub[PATH_LEN], const char *path, const char *key)
{
	size_t a = strnlen(path, PATH_LEN - 48), b = strnlen(key, 46);
	memcpy(sub, path, a);
	sub[a] = '.';
	memcpy(sub + a + 1, key, b);
	sub[a + 1 + b] = '\0';
}

static const char *kind_name(const struct qg_ynode *n)
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
static bool grow(struct walk *w, void **v, size_t n, size_t size)
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

/* A key refused where it is, which belongs in home: once per key (key_homes bounds them). */
static void note_misplaced(struct walk *w, const char *key, const char *home)
{
	for (size_t i = 0; i < w->n_misplaced; i++)
		if (!strcmp(w->misplaced[i].key, key))
			return;
	if (grow(w, (void **)&w->misplaced, w->n_misplaced, sizeof(*w->misplaced)))
		w->misplaced[w->n_misplaced++] = (struct misplaced){key, home};
}

/* The diagnostic added last follows from `key` missing at path: dropped if it was misplaced. */
static void consequence(struct walk *w, const char *key, const char *path)
{
	if (w->d->n == 0 || !grow(w, (void **)&w->conseq, w->n_conseq, sizeof(*w->conseq)))
		return;
	char *p = strdup(path);
	if (!p) {
		w->d->oom = true;
		return;
	}
	w->conseq[w->n_conseq++] = (struct consequence){key, p, w->d->n - 1};
}

/* Is path one of the places a key's home (key_homes) names? */
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
static void settle_consequences(struct walk *w)
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
static bool poisoned_host(const struct walk *w, const char *name)
{
	if (w->hosts_refused || qg_strmap_get(&w->poisoned, name))
		return true;
	for (size_t i = 0; i < w->n_patterns; i++)
		if (pattern_fits(w->patterns[i], name))
			return true;
	return false;
}

/* name (a node's value: it outlives the walk) names a refused host, or a host list. */
static void poison_host(struct walk *w, const char *name)
{
	if (!qg_hostlist_is_pattern(name)) {
		if (qg_strmap_put(&w->poisoned, name, (void *)1, NULL) < 0)
			w->d->oom = true;
	} else if (w->n_patterns < POISONED_PATTERNS &&
		   grow(w, (void **)&w->patterns, w->n_patterns, sizeof(*w->patterns))) {
		w->patterns[w->n_patterns++] = name;
	}
}

/* ---- mappings and keys ---- */

static bool key_allowed(const char *key, const char *const *allowed)
{
	for (size_t i = 0; allowed[i]; i++)
		if (strcmp(key, allowed[i]) == 0)
			return true;
	return false;
}

static void list_allowed(char *out, size_t len, const char *const *allowed)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; allowed[i] && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "", allowed[i]);
}

/*
 * Where each key of the schema lives, for a key given at the wrong level:
 * "'ecn' belongs in qos.lossless" says more than the nearest spelling at the
 * level where it was found.
 */
static const struct {
	const char *key, *where;
} key_homes[] = {
    {"trust", "qos"},
    {"mtu", "qos"},
    {"switch_mtu", "qos"},
    {"lossless", "qos"},
    {"cnp", "qos"},
    {"pool", "qos.lossless"},
    {"ecn", "qos.lossless"},
    {"priority", "qos.lossless or qos.cnp"},
    {"dscp", "qos.lossless or qos.cnp"},
    {"traffic_class", "qos.lossless or qos.cnp"},
    {"ets", "qos.lossless or qos.cnp"},
    {"memory_percent", "qos.lossless.pool"},
    {"min_kb", "qos.lossless.ecn"},
    {"max_kb", "qos.lossless.ecn"},
    {"pfc_watchdog", "qos"},
    {"detection_ms", "qos.pfc_watchdog"},
    {"restoration_ms", "qos.pfc_watchdog"},
    {"poll_ms", "qos.pfc_watchdog"},
    {"weight", "an ets mapping"},
    {"mode", "an ets mapping"},
    {"ports", "a switch of switches"},
    {"cable_length_m", "a switch of switches"},
    {"netdev", "a host of hosts"},
    {"rdma_device", "a host of hosts"},
    {"function", "a host of hosts"},
    {"pairs", "verify"},
    {"qos", "the top level"},
    {"switches", "the top level"},
    {"hosts", "the top level"},
    {"verify", "the top level"},
    {"acknowledge", "the top level"},
    {"fabric", "the top level"},
    {"version", "the top level"},
};

static const char *key_home(const char *key)
{
	for (size_t i = 0; i < sizeof(key_homes) / sizeof(key_homes[0]); i++)
		if (!strcmp(key, key_homes[i].key))
			return key_homes[i].where;
	return NULL;
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
static void check_keys(struct walk *w, const struct qg_ynode *map, const char *path,
		       const char *const *allowed)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++) {
		const struct qg_ynode *k = map->kids[2 * i];
		if (!key_allowed(k->value, allowed)) {
			char list[256];
			list_allowed(list, sizeof(list), allowed);
			const char *best = nearest_key(k->value, allowed);
			const char *home = key_home(k->value);
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

static const struct qg_ynode *get(const struct qg_ynode *map, const char *key)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++)
		if (strcmp(map->kids[2 * i]->value, key) == 0)
			return map->kids[2 * i + 1];
	return NULL;
}

static const struct qg_ynode *get_key_node(const struct qg_ynode *map, const char *key)
{
	for (size_t i = 0; i < qg_ymap_len(map); i++)
		if (strcmp(map->kids[2 * i]->value, key) == 0)
			return map->kids[2 * i];
	return NULL;
}

static const struct qg_ynode *require(struct walk *w, const struct qg_ynode *map, const char *key,
				      const char *path)
{
	const struct qg_ynode *v = get(map, key);
	if (v)
		return v;
	/* A misspelling of it is reported at its own line, with the right name. */
	const char *const one[] = {key, NULL};
	for (size_t i = 0; i < qg_ymap_len(map); i++)
		if (nearest_key(map->kids[2 * i]->value, one))
			return NULL;
	qg_error(w->d, map->pos, "missing key '%s' in %s", key, path);
	consequence(w, key, path);
	return NULL;
}

static bool expect_kind(struct walk *w, const struct qg_ynode *n, enum qg_ykind kind,
			const char *path)
{
	if (n->kind == kind)
		return true;
	qg_error(w->d, n->pos, "%s: expected %s, got %s", path,
		 kind == QG_Y_MAP   ? "a mapping"
		 : kind == QG_Y_SEQ ? "a list"
				    : "a scalar",
		 kind_name(n));
	return false;
}

/* ---- scalars ---- */

/* "3" or '50.5': a number in quotes, which YAML reads as a string. */
static bool quoted_number(const struct qg_ynode *n)
{
	int64_t v;
	return n->kind == QG_Y_SCALAR && !n->plain && n->value[0] &&
	       qg_fixed_parse(n->value[0] == '-' ? n->value + 1 : n->value, 2, &v);
}

/* A plain decimal integer, optionally negative; quoted numbers are strings in YAML. */
static bool scalar_int(const struct qg_ynode *n, long *out)
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
 * The unit of each integer field that has one, by its key (the last part of
 * a path that names it), with the spellings of the unit itself that a value
 * may carry: "40m" for cable_length_m is 40, written without its unit.
 */
static const struct {
	const char *key, *unit, *spellings; /* spellings: lower case, space-separated */
} key_units[] = {
    {"cable_length_m", "metres", "m"},
    {"min_kb", "kB", "kb k kib"},
    {"max_kb", "kB", "kb k kib"},
    {"mtu", "bytes", "b bytes"},
    {"switch_mtu", "bytes", "b bytes"},
    {"message_size", "bytes", "b bytes"},
    {"detection_ms", "ms", "ms"},
    {"restoration_ms", "ms", "ms"},
    {"poll_ms", "ms", "ms"},
    {"duration_s", "seconds", "s sec"},
    {"weight", "percent", "%"},
    {"memory_percent", "percent", "%"},
};

/* The field a path ends in or passes through ("switches[a].cable_length_m.default"), or -1. */
static int unit_of(const char *path)
{
	int found = -1;
	const char *c = path;
	while (*c) {
		size_t len = strcspn(c, ".");
		for (size_t k = 0; k < sizeof(key_units) / sizeof(key_units[0]); k++)
			if (strlen(key_units[k].key) == len && !strncmp(c, key_units[k].key, len))
				found = (int)k;
		c += len + (c[len] == '.');
	}
	return found;
}

/*
 * A number followed by a unit ("40m", "150 kB", "9216B", "50%") given to a
 * field with a unit: say which unit the field is in, and the value to write
 * (its number, when the unit given is the field's own). True when reported.
 */
static bool unit_given(struct walk *w, const struct qg_ynode *n, const char *path)
{
	int k = n->kind == QG_Y_SCALAR ? unit_of(path) : -1;
	if (k < 0)
		return false;
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
	for (const char *sv = key_units[k].spellings; *sv;) {
		size_t l = strcspn(sv, " ");
		own |= l == u && !strncmp(sv, unit, l);
		sv += l + (sv[l] == ' ');
	}
	if (own)
		qg_error(w->d, n->pos, "%s: got '%s'; %s is in %s: write %.*s, without the unit",
			 path, s, key_units[k].key, key_units[k].unit, (int)num, s);
	else
		qg_error(w->d, n->pos,
			 "%s: got '%s'; %s is in %s: write the number of %s, without a unit", path,
			 s, key_units[k].key, key_units[k].unit, key_units[k].unit);
	return true;
}

static bool read_int(struct walk *w, const struct qg_ynode *n, const char *path, long lo, long hi,
		     int *out)
{
	long v;
	if (!scalar_int(n, &v)) {
		if (unit_given(w, n, path))
			return false;
		if (quoted_number(n)) {
			qg_error(w->d, n->pos,
				 "%s: expected an integer %ld..%ld, got the quoted string '%s'; "
				 "quotes make a YAML value text: write %s without them",
				 path, lo, hi, n->value, n->value);
			return false;
		}
		qg_error(w->d, n->pos, "%s: expected an integer %ld..%ld, got %s%s%s", path, lo, hi,
			 n->kind == QG_Y_SCALAR ? "'" : "",
			 n->kind == QG_Y_SCALAR ? n->value : kind_name(n),
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

/* A plain decimal number as fixed point (gen/fixed.c); quoted numbers are strings. */
static bool scalar_fixed(const struct qg_ynode *n, int decimals, int64_t *out)
{
	return n->kind == QG_Y_SCALAR && n->plain && qg_fixed_parse(n->value, decimals, out);
}

static bool read_str(struct walk *w, const struct qg_ynode *n, const char *path,
		     bool (*ok)(const char *), const char *rule, char *out, size_t cap)
{
	if (!expect_kind(w, n, QG_Y_SCALAR, path))
		return false;
	if (strlen(n->value) >= cap || !ok(n->value)) {
		qg_error(w->d, n->pos, "%s: '%s' is not allowed; expected %s", path, n->value,
			 rule);
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
static int read_enum(struct walk *w, const struct qg_ynode *n, const char *path,
		     const char *const *names)
{
	if (!expect_kind(w, n, QG_Y_SCALAR, path))
		return -1;
	for (int i = 0; names[i]; i++)
		if (strcmp(n->value, names[i]) == 0)
			return i;
	char list[128];
	list_allowed(list, sizeof(list), names);
	const char *best = nearest_value(n->value, names);
	if (best)
		qg_error(w->d, n->pos, "%s: '%s' is not one of: %s (did you mean '%s'?)", path,
			 n->value, list, best);
	else
		qg_error(w->d, n->pos, "%s: '%s' is not one of: %s", path, n->value, list);
	return -1;
}

/* The names of the registry's targets of a kind (with a capability), NULL-terminated. */
#define MAX_PLATFORMS 16
static void platform_names(const struct walk *w, enum qg_device_kind kind, unsigned caps,
			   const char *names[MAX_PLATFORMS + 1])
{
	size_t n = 0;
	for (size_t t = 0; w->targets[t] && n < MAX_PLATFORMS; t++)
		if (w->targets[t]->kind == kind && (w->targets[t]->caps & caps) == caps)
			names[n++] = w->targets[t]->name;
	names[n] = NULL;
}

/* A device's `platform:`: the registry's target of that name and kind, or NULL (reported). */
static const struct qg_target *read_platform(struct walk *w, const struct qg_ynode *n,
					     const char *path, enum qg_device_kind kind)
{
	const char *names[MAX_PLATFORMS + 1];
	platform_names(w, kind, 0, names);
	/* Another name of a platform of this kind (struct qg_target's aliases): say which. */
	for (size_t t = 0; n->kind == QG_Y_SCALAR && w->targets[t]; t++) {
		const struct qg_target *tg = w->targets[t];
		for (size_t a = 0; tg->kind == kind && tg->aliases && tg->aliases[a]; a++) {
			if (strcasecmp(n->value, tg->aliases[a]))
				continue;
			char list[128];
			list_allowed(list, sizeof(list), names);
			qg_error(w->d, n->pos, "%s: '%s' is not one of: %s (did you mean '%s'?)",
				 path, n->value, list, tg->name);
			return NULL;
		}
	}
	int k = read_enum(w, n, path, names);
	if (k < 0)
		return NULL;
	for (size_t t = 0; w->targets[t]; t++)
		if (w->targets[t]->kind == kind && !strcmp(w->targets[t]->name, names[k]))
			return w->targets[t];
	return NULL;
}

/* ---- qos ---- */

static void load_ets(struct walk *w, const struct qg_ynode *n, const char *path, struct qg_ets *ets)
{
	static const char *const modes[] = {"strict", "wrr", NULL};
	static const char *const keys[] = {"mode", "weight", NULL};
	ets->pos = n->pos;
	if (n->kind == QG_Y_SCALAR) {
		if (strcmp(n->value, "strict") == 0) {
			ets->mode = QG_ETS_STRICT;
			return;
		}
		qg_error(w->d, n->pos,
			 "%s: '%s' is not allowed; expected strict or {mode: wrr, weight: 1..100}",
			 path, n->value);
		return;
	}
	if (!expect_kind(w, n, QG_Y_MAP, path))
		return;
	check_keys(w, n, path, keys);
	char sub[PATH_LEN];
	const struct qg_ynode *mode = require(w, n, "mode", path);
	const struct qg_ynode *weight = get(n, "weight");
	if (!mode)
		return;
	join(sub, path, "mode");
	int m = read_enum(w, mode, sub, modes);
	if (m < 0)
		return;
	join(sub, path, "weight");
	if (m == 0) {
		ets->mode = QG_ETS_STRICT;
		if (weight)
			qg_error(w->d, weight->pos,
				 "%s: a strict class takes no weight; remove it or use mode wrr",
				 sub);
		return;
	}
	if (!weight) {
		qg_error(w->d, n->pos, "missing key 'weight' in %s; mode wrr needs a weight 1..100",
			 path);
		consequence(w, "weight", path);
		return;
	}
	if (read_int(w, weight, sub, 1, 100, &ets->weight))
		ets->mode = QG_ETS_WRR;
}

static void load_dscp_list(struct walk *w, const struct qg_ynode *n, const char *path,
			   struct qg_class *c, bool single)
{
	c->dscp_pos = n->pos;
	if (n->kind == QG_Y_SCALAR) {
		int v;
		if (read_int(w, n, path, 0, 63, &v))
			c->dscp[c->n_dscp++] = v;
		return;
	}
	if (single) {
		qg_error(w->d, n->pos,
			 "%s: expected one integer 0..63, got %s; CNPs carry one DSCP", path,
			 kind_name(n));
		return;
	}
	if (!expect_kind(w, n, QG_Y_SEQ, path))
		return;
	if (n->n_kids == 0) {
		qg_error(w->d, n->pos, "%s: the list is empty; give at least one DSCP 0..63", path);
		return;
	}
	const struct qg_ynode *seen[64] = {0};
	for (size_t i = 0; i < n->n_kids; i++) {
		int v;
		char sub[PATH_LEN];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (!read_int(w, n->kids[i], sub, 0, 63, &v))
			continue;
		if (seen[v]) {
			qg_error(w->d, n->kids[i]->pos, "%s: DSCP %d is listed twice", path, v);
			qg_note(w->d, seen[v]->pos, "DSCP %d first listed here", v);
			continue;
		}
		seen[v] = n->kids[i];
		c->dscp[c->n_dscp++] = v;
	}
}

/* Each value read, or its BAD_* bit (shifted to the class) set in w->bad. */
static void load_class_common(struct walk *w, const struct qg_ynode *n, const char *path,
			      struct qg_class *c, bool single_dscp, unsigned shift)
{
	char sub[PATH_LEN];
	c->pos = n->pos;
	const struct qg_ynode *v;
	size_t e;
	if (!(v = require(w, n, "priority", path)))
		w->bad |= BAD_PRIO << shift;
	else {
		join(sub, path, "priority");
		c->priority_pos = v->pos;
		if (!read_int(w, v, sub, 0, 7, &c->priority))
			w->bad |= BAD_PRIO << shift;
	}
	if (!(v = require(w, n, "dscp", path)))
		w->bad |= BAD_DSCP << shift;
	else {
		join(sub, path, "dscp");
		e = w->d->errors;
		load_dscp_list(w, v, sub, c, single_dscp);
		if (w->d->errors != e || c->n_dscp == 0)
			w->bad |= BAD_DSCP << shift;
	}
	c->traffic_class = c->priority;
	if ((v = get(n, "traffic_class"))) {
		join(sub, path, "traffic_class");
		c->tc_pos = v->pos;
		c->tc_given = read_int(w, v, sub, 0, 7, &c->traffic_class);
		if (!c->tc_given)
			w->bad |= BAD_TC << shift;
	} else if (w->bad & (BAD_PRIO << shift)) {
		w->bad |= BAD_TC << shift; /* it follows the priority */
	}
	if ((v = get(n, "ets"))) {
		join(sub, path, "ets");
		e = w->d->errors;
		load_ets(w, v, sub, &c->ets);
		if (w->d->errors != e)
			w->bad |= BAD_ETS << shift;
	}
}

static void load_lossless(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	static const char *const keys[] = {"priority", "dscp", "traffic_class", "pool", "ecn",
					   "ets",      NULL};
	static const char *const pool_keys[] = {"name", "memory_percent", NULL};
	static const char *const ecn_keys[] = {"min_kb", "max_kb", NULL};
	const char *path = "qos.lossless";
	if (!expect_kind(w, n, QG_Y_MAP, path)) {
		w->bad |= BAD_CLASS | BAD_ECN;
		return;
	}
	check_keys(w, n, path, keys);
	load_class_common(w, n, path, &q->lossless, false, 0);

	const struct qg_ynode *pool = require(w, n, "pool", path);
	if (pool && expect_kind(w, pool, QG_Y_MAP, "qos.lossless.pool")) {
		check_keys(w, pool, "qos.lossless.pool", pool_keys);
		const struct qg_ynode *v;
		if ((v = require(w, pool, "name", "qos.lossless.pool")))
			read_str(w, v, "qos.lossless.pool.name", qg_pool_name_ok, QG_POOL_RULE,
				 q->pool_name, sizeof(q->pool_name));
		if ((v = require(w, pool, "memory_percent", "qos.lossless.pool"))) {
			int64_t centi;
			if (!scalar_fixed(v, 2, &centi) &&
			    unit_given(w, v, "qos.lossless.pool.memory_percent"))
				;
			else if (!scalar_fixed(v, 2, &centi) && quoted_number(v))
				qg_error(
				    w->d, v->pos,
				    "qos.lossless.pool.memory_percent: got the quoted string '%s'; "
				    "quotes make a YAML value text: write %s without them",
				    v->value, v->value);
			else if (!scalar_fixed(v, 2, &centi))
				qg_error(w->d, v->pos,
					 "qos.lossless.pool.memory_percent: expected a number in "
					 "(0, 100] with at most two decimals, got %s%s%s",
					 v->kind == QG_Y_SCALAR ? "'" : "",
					 v->kind == QG_Y_SCALAR ? v->value : kind_name(v),
					 v->kind == QG_Y_SCALAR ? "'" : "");
			else if (centi <= 0 || centi > 10000)
				qg_error(
				    w->d, v->pos,
				    "qos.lossless.pool.memory_percent: %s is out of range (0, 100]",
				    v->value);
			else
				q->pool_percent_centi = (int)centi;
			q->pool_percent_pos = v->pos;
		}
	}

	const struct qg_ynode *ecn = get(n, "ecn");
	if (ecn && ecn->kind != QG_Y_MAP)
		w->bad |= BAD_ECN;
	if (ecn && expect_kind(w, ecn, QG_Y_MAP, "qos.lossless.ecn")) {
		check_keys(w, ecn, "qos.lossless.ecn", ecn_keys);
		const struct qg_ynode *lo = require(w, ecn, "min_kb", "qos.lossless.ecn");
		const struct qg_ynode *hi = require(w, ecn, "max_kb", "qos.lossless.ecn");
		bool ok =
		    lo && read_int(w, lo, "qos.lossless.ecn.min_kb", 1, 100000, &q->ecn_min_kb);
		ok =
		    (hi && read_int(w, hi, "qos.lossless.ecn.max_kb", 1, 100000, &q->ecn_max_kb)) &&
		    ok;
		if (!ok)
			w->bad |= BAD_ECN;
		if (ok && q->ecn_min_kb > q->ecn_max_kb) {
			qg_error(w->d, lo->pos,
				 "qos.lossless.ecn: min_kb %d is above max_kb %d; need min_kb <= "
				 "max_kb",
				 q->ecn_min_kb, q->ecn_max_kb);
			qg_note(w->d, hi->pos, "max_kb given here");
		}
		q->ecn = ok;
	}
}

static void load_cnp(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	static const char *const keys[] = {"priority", "dscp", "traffic_class", "ets", NULL};
	if (!expect_kind(w, n, QG_Y_MAP, "qos.cnp")) {
		w->bad |= BAD_CNP_MAP;
		return;
	}
	check_keys(w, n, "qos.cnp", keys);
	load_class_common(w, n, "qos.cnp", &q->cnpc, true, BAD_CNP_SHIFT);
	q->cnp = true;
}

/*
 * One switch MTU per fabric (issue 23). Every switch target declares the
 * largest port MTU its OS takes (struct qg_target's switch_mtu_max, cited
 * there); qos.switch_mtu defaults to the smallest of them among the switch
 * targets this intent's switches use, never above QG_DEFAULT_SWITCH_MTU, so
 * that the ports of every OS in the fabric get the same MTU; a given one
 * above a used target's maximum is refused at the key, once per OS it
 * exceeds, naming it. Run after the switches are read: the default depends
 * on their platforms. Then the rule between the two MTUs.
 */
static void settle_switch_mtu(struct walk *w, struct qg_qos *q)
{
	const struct qg_model *m = w->m;
	char oses[256];
	int max = qg_fabric_switch_mtu_max(m, oses, sizeof(oses));
	const struct qg_ynode *v = w->switch_mtu;
	long x;
	q->switch_mtu = max;
	if (v && oses[0] && scalar_int(v, &x) && x > max) {
		for (size_t t = 0; m->targets && m->targets[t]; t++) {
			const struct qg_target *tg = m->targets[t];
			int tmax = qg_target_switch_mtu_max(tg);
			if (tg->kind == QG_DEVICE_SWITCH && x > tmax && qg_target_used(m, tg))
				qg_error(
				    w->d, v->pos,
				    "qos.switch_mtu: %ld is above %d, the largest port MTU the "
				    "%s switches take; allowed with this fabric's switch OSes "
				    "(%s): 1500..%d",
				    x, tmax, tg->name, oses, max);
		}
		w->bad |= BAD_SWITCH_MTU;
	} else if (v) {
		q->switch_mtu_given = read_int(w, v, "qos.switch_mtu", 1500, max, &q->switch_mtu);
		if (!q->switch_mtu_given)
			w->bad |= BAD_SWITCH_MTU;
	}
	if ((w->bad & (BAD_MTU | BAD_SWITCH_MTU)) ||
	    q->switch_mtu >= q->mtu + QG_SWITCH_MTU_OVERHEAD)
		return;
	struct qg_pos at = q->switch_mtu_given ? q->switch_mtu_pos : q->mtu_pos;
	qg_error(w->d, at,
		 "qos.switch_mtu %d is below mtu %d + %d; a switch port must carry the "
		 "host MTU plus Ethernet header, VLAN tag and FCS",
		 q->switch_mtu, q->mtu, QG_SWITCH_MTU_OVERHEAD);
	/* The fix that works: no switch MTU above the fabric's largest exists to raise it to. */
	if (q->mtu + QG_SWITCH_MTU_OVERHEAD > max && oses[0])
		qg_note(w->d, q->mtu_given ? q->mtu_pos : at,
			"the largest port MTU of this fabric's switch OSes (%s) is %d, so lower "
			"qos.mtu to at most %d",
			oses, max, max - QG_SWITCH_MTU_OVERHEAD);
	else if (q->mtu + QG_SWITCH_MTU_OVERHEAD > max)
		qg_note(w->d, q->mtu_given ? q->mtu_pos : at,
			"the largest switch MTU is %d, so lower qos.mtu to at most %d", max,
			max - QG_SWITCH_MTU_OVERHEAD);
	else if (!q->switch_mtu_given)
		qg_note(w->d, at, "switch_mtu defaults to %d; set it to at least %d", max,
			q->mtu + QG_SWITCH_MTU_OVERHEAD);
	else
		qg_note(w->d, at, "set qos.switch_mtu to at least %d, or lower qos.mtu",
			q->mtu + QG_SWITCH_MTU_OVERHEAD);
}

/* Rules that relate the two classes and the MTUs; run once both are read. */
static void check_qos_rules(struct walk *w, const struct qg_ynode *qn, struct qg_qos *q)
{
	struct qg_class *l = &q->lossless, *c = &q->cnpc;
	/* Which values could be read: a rule runs only on those (see BAD_*). */
	unsigned lb = w->bad, cb = w->bad >> BAD_CNP_SHIFT;

	if (!(w->bad & BAD_MTU) && q->mtu < QG_MTU_FOR_ROCE_4096)
		qg_warning(w->d, q->mtu_given ? q->mtu_pos : qn->pos, QG_W_MTU_BELOW_ROCE_4096,
			   "qos.mtu %d allows a RoCE path MTU of %d only; 4096 needs an MTU of %d "
			   "or more",
			   q->mtu, qg_roce_path_mtu(q->mtu), QG_MTU_FOR_ROCE_4096);

	if (q->cnp) {
		if (!(lb & BAD_PRIO) && !(cb & BAD_PRIO) && c->priority == l->priority) {
			qg_error(w->d, c->priority_pos,
				 "qos.cnp.priority %d is the lossless priority; CNPs need a "
				 "priority of their own",
				 c->priority);
			qg_note(w->d, l->priority_pos, "lossless priority given here");
		} else if (!(lb & BAD_TC) && !(cb & BAD_TC) &&
			   c->traffic_class == l->traffic_class) {
			qg_error(
			    w->d, c->tc_given ? c->tc_pos : c->priority_pos,
			    "qos.cnp.traffic_class %d is the lossless traffic class; CNPs need "
			    "an egress queue of their own",
			    c->traffic_class);
		}
		for (int i = 0; !(lb & BAD_DSCP) && !(cb & BAD_DSCP) && i < l->n_dscp; i++)
			if (c->n_dscp && c->dscp[0] == l->dscp[i]) {
				qg_error(w->d, c->dscp_pos,
					 "qos.cnp.dscp %d is also a lossless DSCP; the classes "
					 "share no DSCP value",
					 c->dscp[0]);
				qg_note(w->d, l->dscp_pos, "lossless DSCPs given here");
			}
	}

	if (w->bad & BAD_TRUST) {
		/* trust could not be read: no rule depends on a guess of it */
	} else if (q->trust == QG_TRUST_DSCP) {
		/*
		 * The map every target is judged by: the classes' DSCPs to their
		 * priorities, the rest as Onyx and mlx5 have it. A target that
		 * cannot program it refuses other maps in its own check().
		 */
		for (int v = 0; v < 64; v++)
			q->dscp_prio[v] = (uint8_t)qg_default_dscp_priority(v);
		for (int k = 0; k < 2; k++) {
			const struct qg_class *cl = k == 0 ? l : c;
			unsigned kb = k == 0 ? lb : cb;
			if ((k == 1 && !q->cnp) || (kb & (BAD_PRIO | BAD_DSCP)))
				continue;
			for (int i = 0; i < cl->n_dscp; i++)
				q->dscp_prio[cl->dscp[i]] = (uint8_t)cl->priority;
		}
	} else if (l->n_dscp && !(lb & BAD_DSCP)) {
		qg_warning(w->d, l->dscp_pos, QG_W_PCP_TRUST_DSCP_UNUSED,
			   "trust is pcp: switches classify by 802.1p priority, so the DSCP values "
			   "only set what hosts mark");
	}

	int wrr = 0;
	struct qg_pos wrr_pos = {0};
	for (int k = 0; k < 2; k++) {
		const struct qg_class *cl = k == 0 ? l : c;
		if ((k == 0 || q->cnp) && cl->ets.mode == QG_ETS_WRR) {
			wrr += cl->ets.weight;
			wrr_pos = cl->ets.pos;
		}
	}
	if (wrr > 100 && !(lb & BAD_ETS) && !(q->cnp && (cb & BAD_ETS)))
		qg_warning(w->d, wrr_pos, QG_W_ETS_WEIGHTS_OVER_100,
			   "ETS weights add up to %d%%; the WRR classes share 100%% of the "
			   "bandwidth",
			   wrr);

	if (w->bad & BAD_ECN)
		return; /* ecn could not be read: the warnings below would guess */
	/* Each a consequence of a key missing: none when that key was given at the wrong level. */
	if (!q->ecn) {
		qg_warning(w->d, l->pos, QG_W_NO_ECN,
			   "qos.lossless has no ecn: DCQCN stays off and PFC alone holds the "
			   "fabric, which spreads congestion");
		consequence(w, "ecn", "qos.lossless");
	} else if (!q->cnp && !(w->bad & BAD_CNP_MAP)) {
		qg_warning(w->d, qn->pos, QG_W_ECN_WITHOUT_CNP,
			   "ecn is on but qos has no cnp class: CNPs share the default class and "
			   "DCQCN reacts late");
		consequence(w, "cnp", "qos");
	}
	if (q->cnp && !q->ecn) {
		qg_warning(w->d, c->pos, QG_W_CNP_WITHOUT_ECN,
			   "qos.cnp is set but qos.lossless.ecn is not: nothing marks ECN, so no "
			   "CNP is ever sent");
		consequence(w, "ecn", "qos.lossless");
	}
}

/*
 * qos.pfc_watchdog: true, false, or a mapping of the times in ms (each
 * optional). The times' ranges and the rule that the watchdog cannot detect
 * or restore faster than it polls are SONiC's model's (model.h); a target
 * with other limits checks them in its check().
 */
static void load_pfc_watchdog(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	static const char *const keys[] = {"detection_ms", "restoration_ms", "poll_ms", NULL};
	static const char *const booleans[] = {"false", "true", NULL};
	const char *path = "qos.pfc_watchdog";
	struct qg_pfc_watchdog *wd = &q->pfcwd;
	wd->pos = n->pos;
	wd->detection_ms = QG_PFCWD_DETECTION_MS;
	wd->restoration_ms = QG_PFCWD_RESTORATION_MS;
	wd->poll_ms = QG_PFCWD_POLL_MS;
	if (n->kind == QG_Y_SCALAR) {
		int b = -1;
		for (int i = 0; booleans[i]; i++)
			if (!strcmp(n->value, booleans[i]))
				b = i;
		if (b >= 0 && !n->plain)
			qg_error(w->d, n->pos,
				 "%s: got the quoted string '%s'; write %s without quotes", path,
				 n->value, n->value);
		else if (b < 0)
			qg_error(w->d, n->pos,
				 "%s: '%s' is not allowed; expected true, false or a mapping of "
				 "detection_ms, restoration_ms and poll_ms",
				 path, n->value);
		else
			wd->state = b ? QG_PFCWD_ON : QG_PFCWD_OFF;
		return;
	}
	if (!expect_kind(w, n, QG_Y_MAP, path))
		return;
	check_keys(w, n, path, keys);
	const struct {
		const char *key;
		int lo, hi;
		int *v;
		bool *given;
		struct qg_pos *pos;
	} t[] = {
	    {"detection_ms", QG_PFCWD_DETECTION_MIN, QG_PFCWD_DETECTION_MAX, &wd->detection_ms,
	     &wd->detection_given, &wd->detection_pos},
	    {"restoration_ms", QG_PFCWD_RESTORATION_MIN, QG_PFCWD_RESTORATION_MAX,
	     &wd->restoration_ms, &wd->restoration_given, &wd->restoration_pos},
	    {"poll_ms", QG_PFCWD_POLL_MIN, QG_PFCWD_POLL_MAX, &wd->poll_ms, &wd->poll_given,
	     &wd->poll_pos},
	};
	bool ok = true;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		const struct qg_ynode *v = get(n, t[k].key);
		if (!v)
			continue;
		char sub[PATH_LEN];
		join(sub, path, t[k].key);
		*t[k].pos = v->pos;
		*t[k].given = read_int(w, v, sub, t[k].lo, t[k].hi, t[k].v);
		ok = *t[k].given && ok;
	}
	if (!ok)
		return;
	/* sonic-pfcwd.yang's musts: detection_time and restoration_time >= POLL_INTERVAL. */
	for (size_t k = 0; k < 2; k++) {
		if (*t[k].v >= wd->poll_ms)
			continue;
		struct qg_pos at = *t[k].given ? *t[k].pos : n->pos;
		qg_error(w->d, at,
			 "%s: %s %d is below poll_ms %d; the watchdog checks the queues every "
			 "poll_ms, so detection_ms and restoration_ms must be at least poll_ms",
			 path, t[k].key, *t[k].v, wd->poll_ms);
		if (wd->poll_given)
			qg_note(w->d, wd->poll_pos, "poll_ms given here");
		else
			qg_note(w->d, at, "poll_ms defaults to %d", QG_PFCWD_POLL_MS);
		ok = false;
	}
	if (ok)
		wd->state = QG_PFCWD_ON;
}

static void load_qos(struct walk *w, const struct qg_ynode *n, struct qg_qos *q)
{
	static const char *const keys[] = {"trust", "mtu",	    "switch_mtu", "lossless",
					   "cnp",   "pfc_watchdog", NULL};
	static const char *const trusts[] = {"dscp", "pcp", NULL};
	q->trust = QG_TRUST_DSCP;
	q->mtu = QG_DEFAULT_MTU;
	q->switch_mtu = QG_DEFAULT_SWITCH_MTU;
	if (!expect_kind(w, n, QG_Y_MAP, "qos"))
		return;
	w->qos_read = true;
	check_keys(w, n, "qos", keys);
	const struct qg_ynode *v;
	if ((v = get(n, "trust"))) {
		q->trust_pos = v->pos;
		int t = read_enum(w, v, "qos.trust", trusts);
		if (t >= 0) {
			q->trust = (enum qg_trust)t;
			q->trust_given = true;
		} else {
			w->bad |= BAD_TRUST;
		}
	}
	if ((v = get(n, "mtu"))) {
		q->mtu_pos = v->pos;
		q->mtu_given = read_int(w, v, "qos.mtu", 1500, 9216, &q->mtu);
		if (!q->mtu_given)
			w->bad |= BAD_MTU;
	}
	/* Read once the switches are: its range and default are theirs (settle_switch_mtu). */
	if ((v = get(n, "switch_mtu"))) {
		q->switch_mtu_pos = v->pos;
		w->switch_mtu = v;
	}
	if ((v = require(w, n, "lossless", "qos")))
		load_lossless(w, v, q);
	else
		w->bad |= BAD_CLASS | BAD_ECN;
	if ((v = get(n, "cnp")))
		load_cnp(w, v, q);
	if ((v = get(n, "pfc_watchdog")))
		load_pfc_watchdog(w, v, q);
	/*
	 * The rules between values run on every value that could be read, so a
	 * quoted priority does not hide a DSCP conflict until the next run.
	 */
	check_qos_rules(w, n, q);
}

/* ---- devices ---- */

/* Report a second use of a name within one list. */
/* name (which must outlive the walk: a node's value or a model's field) is unused so far. */
static void check_unique(struct walk *w, const char *name, struct qg_pos pos, const char *what)
{
	if (w->n_uses % 256 == 0) {
		struct name_use *v = realloc(w->uses, (w->n_uses + 256) * sizeof(*v));
		if (!v) {
			w->d->oom = true;
			return;
		}
		w->uses = v;
	}
	void *old;
	int rc = qg_strmap_put(&w->names, name, (void *)(uintptr_t)(w->n_uses + 1), &old);
	if (rc < 0) {
		w->d->oom = true;
		return;
	}
	if (rc == 0) {
		w->uses[w->n_uses++] = (struct name_use){pos, what};
		return;
	}
	const struct name_use *first = &w->uses[(uintptr_t)old - 1];
	qg_error(w->d, pos,
		 "%s: name '%s' is used twice; device names are unique across switches, hosts and "
		 "dvs",
		 what, name);
	qg_note(w->d, first->pos, "first used here, in %s", first->list);
}

struct owned {
	struct qg_port p;
	size_t item; /* which list item named it, for the notes */
};

static int owned_cmp(const void *x, const void *y)
{
	const struct owned *a = x, *b = y;
	int c = qg_port_cmp(&a->p, &b->p);
	if (c)
		return c;
	return a->item < b->item ? -1 : (a->item > b->item);
}

/* Ports listed per switch at most: 8 modules x 128 ports x 8 splits would be 8192. */
#define QG_MAX_PORTS 4096

static void load_ports(struct walk *w, const struct qg_ynode *n, const char *path,
		       struct qg_switch *s)
{
	const struct qg_port_syntax *syn = s->target->ports;
	s->ports_pos = n->pos;
	const struct qg_ynode *single[1] = {n};
	const struct qg_ynode *const *items = single;
	size_t count = 1;
	if (n->kind == QG_Y_SEQ) {
		items = (const struct qg_ynode *const *)n->kids;
		count = n->n_kids;
		if (count == 0) {
			qg_error(w->d, n->pos, "%s: the list is empty; give at least one port",
				 path);
			return;
		}
	} else if (!expect_kind(w, n, QG_Y_SCALAR, path)) {
		return;
	}

	struct owned *all = NULL;
	size_t n_all = 0;
	for (size_t i = 0; i < count; i++) {
		char sub[PATH_LEN], err[200];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (!expect_kind(w, items[i], QG_Y_SCALAR, sub))
			continue;
		struct qg_port *v;
		size_t nv;
		if (syn->parse(items[i]->value, &v, &nv, err, sizeof(err)) != 0) {
			qg_error(w->d, items[i]->pos, "%s: %s", path, err);
			continue;
		}
		if (n_all + nv > QG_MAX_PORTS) {
			qg_error(w->d, items[i]->pos, "%s: more than %d ports listed", path,
				 QG_MAX_PORTS);
			free(v);
			break;
		}
		struct owned *grown = realloc(all, (n_all + nv) * sizeof(*grown));
		if (!grown) {
			free(v);
			w->d->oom = true;
			break;
		}
		all = grown;
		for (size_t k = 0; k < nv; k++)
			all[n_all++] = (struct owned){.p = v[k], .item = i};
		free(v);
	}

	/*
	 * Sorted by port, equal ports and a whole port with its own splits end
	 * up next to each other: one pass finds every conflict.
	 */
	if (n_all > 1)
		qsort(all, n_all, sizeof(*all), owned_cmp);
	bool ok = true;
	for (size_t i = 1; i < n_all; i++) {
		const struct owned *a = &all[i - 1], *b = &all[i];
		char ta[QG_PORT_TEXT_LEN], tb[QG_PORT_TEXT_LEN];
		syn->format(&a->p, ta);
		syn->format(&b->p, tb);
		if (qg_port_cmp(&a->p, &b->p) == 0) {
			/* Report a port once, however often it is repeated. */
			if (i >= 2 && qg_port_cmp(&all[i - 2].p, &b->p) == 0)
				continue;
			qg_error(w->d, items[b->item]->pos, "%s: port %s is listed twice", path,
				 tb);
			qg_note(w->d, items[a->item]->pos, "%s first listed here", ta);
			ok = false;
		} else if (a->p.module == b->p.module && a->p.port == b->p.port &&
			   a->p.split == 0) {
			qg_error(
			    w->d, items[b->item]->pos,
			    "%s: port %s and split port %s are the same physical port; list it "
			    "whole or split, not both",
			    path, ta, tb);
			qg_note(w->d, items[a->item]->pos, "%s listed here", ta);
			ok = false;
		}
	}
	if (!ok || n_all == 0) {
		free(all);
		return;
	}
	s->ports = calloc(n_all, sizeof(*s->ports));
	if (!s->ports) {
		free(all);
		w->d->oom = true;
		return;
	}
	/* all[] is sorted, so s->ports is too. */
	for (size_t i = 0; i < n_all; i++)
		s->ports[i] = all[i].p;
	s->n_ports = n_all;
	free(all);
}

/*
 * address NULL: the caller reads it (a host list's addresses). The port's
 * default is the target's (t NULL: its platform could not be read).
 */
static void load_ssh_target(struct walk *w, const struct qg_ynode *item, const char *path,
			    const struct qg_target *t, char *address, int *port, bool *port_given,
			    char *user)
{
	char sub[PATH_LEN];
	const struct qg_ynode *v;
	if (address && (v = require(w, item, "address", path))) {
		join(sub, path, "address");
		read_str(w, v, sub, qg_address_ok, QG_ADDRESS_RULE, address, QG_ADDR_LEN);
	}
	*port = t && t->default_port ? t->default_port : QG_DEFAULT_SSH_PORT;
	if ((v = get(item, "port"))) {
		join(sub, path, "port");
		*port_given = read_int(w, v, sub, 1, 65535, port);
	}
	if ((v = get(item, "user"))) {
		join(sub, path, "user");
		read_str(w, v, sub, qg_user_ok, QG_USER_RULE, user, QG_USER_LEN);
	}
}

/* One element per list item, zeroed; NULL when the list is absent, empty or not a list. */
static void *alloc_list(struct walk *w, const struct qg_ynode *n, const char *what, size_t size,
			size_t *count)
{
	if (!expect_kind(w, n, QG_Y_SEQ, what) || n->n_kids == 0)
		return NULL;
	void *v = calloc(n->n_kids, size);
	if (!v) {
		w->d->oom = true;
		return NULL;
	}
	*count = n->n_kids;
	return v;
}

/* A host list that parses, so that its entry may be named by it. */
static bool hostlist_ok(const char *pattern)
{
	struct qg_hostlist hl;
	char err[160];
	if (qg_hostlist_parse(pattern, &hl, err, sizeof(err)) != 0)
		return false;
	qg_hostlist_free(&hl);
	return true;
}

/*
 * A device entry's path for messages: by its name when it has a usable one
 * (issue 25: "switches[leaf1]", the text the reader searches the file for;
 * an index is counted by hand), or by its index (qg_device_path).
 */
static void entry_path(char path[PATH_LEN], const char *what, const struct qg_ynode *item,
		       size_t i, bool name_list, bool (*name_ok)(const char *))
{
	const struct qg_ynode *v = item->kind == QG_Y_MAP ? get(item, "name") : NULL;
	bool usable = v && v->kind == QG_Y_SCALAR &&
		      (name_list && qg_hostlist_is_pattern(v->value) ? hostlist_ok(v->value)
								     : name_ok(v->value));
	qg_device_path(path, PATH_LEN, what, usable ? v->value : NULL, i);
}

/*
 * The start of every device entry: its path ("hosts[db1]", "hosts[2]"
 * when it has no usable name; qg_device_path), the mapping and
 * key checks, and its required name, unique within the list. Returns the
 * entry, or NULL when it is not a mapping.
 */
/* name_list: the name may be a host list, which the caller names each host of. */
static const struct qg_ynode *list_entry(struct walk *w, const struct qg_ynode *list, size_t i,
					 bool name_list, const char *what, const char *const *keys,
					 char path[PATH_LEN], bool (*name_ok)(const char *),
					 const char *rule, char *name, size_t name_cap)
{
	const struct qg_ynode *item = list->kids[i];
	entry_path(path, what, item, i, name_list, name_ok);
	if (!expect_kind(w, item, QG_Y_MAP, path))
		return NULL;
	check_keys(w, item, path, keys);
	const struct qg_ynode *v = require(w, item, "name", path);
	char sub[PATH_LEN];
	join(sub, path, "name");
	if (name_list && v && v->kind == QG_Y_SCALAR && qg_hostlist_is_pattern(v->value))
		return item;
	if (v && read_str(w, v, sub, name_ok, rule, name, name_cap))
		check_unique(w, v->value, v->pos, what);
	else if (name_list && v && v->kind == QG_Y_SCALAR)
		poison_host(w, v->value);
	return item;
}

/*
 * cable_length_m: one length for every port of the switch, or a mapping of
 * `default` and port lists in the platform's names to lengths (the ports
 * must be the switch's, each named once). The lossless headroom a port needs
 * grows with its cable: SONiC's dynamic buffer model and NVUE size it from
 * this.
 */
static int port_cmp(const void *a, const void *b)
{
	return qg_port_cmp(a, b);
}

static void load_cable_length(struct walk *w, const struct qg_ynode *n, const char *path,
			      struct qg_switch *s)
{
	const struct qg_port_syntax *syn = s->target->ports;
	s->cable_pos = n->pos;
	int *m = calloc(s->n_ports, sizeof(*m));
	if (!m) {
		w->d->oom = true;
		return;
	}
	if (n->kind != QG_Y_MAP) {
		int len;
		if (read_int(w, n, path, 1, QG_CABLE_M_MAX, &len)) {
			for (size_t k = 0; k < s->n_ports; k++)
				m[k] = len;
			s->cable_m = m;
		} else {
			free(m);
		}
		return;
	}
	bool ok = true;
	const struct qg_ynode **named = calloc(s->n_ports, sizeof(*named)); /* each port's key */
	if (!named) {
		free(m);
		w->d->oom = true;
		return;
	}
	for (size_t i = 0; i < qg_ymap_len(n); i++) {
		const struct qg_ynode *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
		char sub[PATH_LEN], err[200];
		snprintf(sub, sizeof(sub), "%s.%s", path, k->value);
		int len;
		if (!read_int(w, v, sub, 1, QG_CABLE_M_MAX, &len)) {
			ok = false;
			continue;
		}
		if (!strcmp(k->value, "default")) {
			for (size_t p = 0; p < s->n_ports; p++)
				if (!named[p])
					m[p] = len;
			continue;
		}
		struct qg_port *ports;
		size_t np;
		if (qg_edit_distance(k->value, "default") <= 2) {
			qg_error(w->d, k->pos, "%s: unknown key '%s' (did you mean 'default'?)",
				 path, k->value);
			ok = false;
			continue;
		}
		if (syn->parse(k->value, &ports, &np, err, sizeof(err)) != 0) {
			qg_error(w->d, k->pos,
				 "%s: '%s': %s; a key is `default` or the switch's ports", path,
				 k->value, err);
			ok = false;
			continue;
		}
		for (size_t j = 0; j < np; j++) {
			const struct qg_port *hit =
			    bsearch(&ports[j], s->ports, s->n_ports, sizeof(*s->ports), port_cmp);
			char t[QG_PORT_TEXT_LEN];
			syn->format(&ports[j], t);
			if (!hit) {
				qg_error(w->d, k->pos,
					 "%s: port %s is not one of the switch's ports; give a "
					 "length to the ports it lists",
					 path, t);
				ok = false;
				break;
			}
			size_t p = (size_t)(hit - s->ports);
			if (named[p]) {
				qg_error(w->d, k->pos, "%s: port %s has two lengths", path, t);
				qg_note(w->d, named[p]->pos, "%s first given a length here", t);
				ok = false;
				break;
			}
			named[p] = k;
			m[p] = len;
		}
		free(ports);
	}
	free(named);
	if (ok)
		s->cable_m = m;
	else
		free(m);
}

/*
 * Two switch entries at one SSH endpoint (address and port, qg_address_key)
 * are one switch configured twice, each entry's ports and settings pushed
 * over the other's (issue 25, item 5): refused at the second's address. A
 * host entry is one RDMA NIC, and a machine may carry two: hosts may share
 * an address. Run once the switch's address and port are read.
 */
static void check_endpoint(struct walk *w, const struct qg_ynode *item, const char *path,
			   size_t i)
{
	const struct qg_switch *s = &w->m->switches[i];
	const struct qg_ynode *a = get(item, "address");
	/* Without a platform its default port is unknown: no guess. */
	if (!a || !s->address[0] || (!s->target && !s->port_given))
		return;
	w->address_pos[i] = a->pos;
	qg_address_key(s->address, s->port, w->endpoint_keys[i], sizeof(w->endpoint_keys[i]));
	void *old;
	int rc = qg_strmap_put(&w->endpoints, w->endpoint_keys[i], (void *)(uintptr_t)(i + 1),
			       &old);
	if (rc < 0) {
		w->d->oom = true;
		return;
	}
	if (rc == 0)
		return;
	size_t k = (uintptr_t)old - 1;
	const struct qg_switch *first = &w->m->switches[k];
	char first_path[PATH_LEN];
	qg_device_path(first_path, sizeof(first_path), "switches", first->name, k);
	qg_error(w->d, a->pos,
		 "%s.address: %s port %d is also the address of %s; two switch entries at one "
		 "address and port are one switch configured twice: give each its own",
		 path, s->address, s->port, first_path);
	qg_note(w->d, w->address_pos[k], "%s's address given here", first_path);
}

static void load_switches(struct walk *w, const struct qg_ynode *n)
{
	static const char *const keys[] = {"name", "platform", "address",	 "port",
					   "user", "ports",    "cable_length_m", NULL};
	struct qg_model *m = w->m;
	/* Bounded, as hosts are (gen/bounds.h): each switch is a file and its ports' work. */
	if (n->kind == QG_Y_SEQ && n->n_kids > QG_SWITCHES_MAX) {
		char path[PATH_LEN];
		entry_path(path, "switches", n->kids[QG_SWITCHES_MAX], QG_SWITCHES_MAX, false,
			   qg_name_ok);
		qg_error(w->d, n->kids[QG_SWITCHES_MAX]->pos,
			 "%s: one switch more than a fabric has at most (%u), which keeps its build "
			 "bounded (docs/intent.md, \"Bounds\")",
			 path, QG_SWITCHES_MAX);
		return;
	}
	if (!(m->switches = alloc_list(w, n, "switches", sizeof(*m->switches), &m->n_switches)))
		return;
	w->endpoint_keys = calloc(n->n_kids, sizeof(*w->endpoint_keys));
	w->address_pos = calloc(n->n_kids, sizeof(*w->address_pos));
	if (!w->endpoint_keys || !w->address_pos) {
		w->d->oom = true;
		return;
	}
	size_t ports = 0;
	bool ports_over = false;
	for (size_t i = 0; i < n->n_kids; i++) {
		struct qg_switch *s = &m->switches[i];
		char path[PATH_LEN], sub[PATH_LEN];
		s->pos = n->kids[i]->pos;
		const struct qg_ynode *item =
		    list_entry(w, n, i, false, "switches", keys, path, qg_name_ok, QG_NAME_RULE,
			       s->name, sizeof(s->name));
		if (!item)
			continue;
		const struct qg_ynode *v;
		if ((v = require(w, item, "platform", path))) {
			join(sub, path, "platform");
			s->target = read_platform(w, v, sub, QG_DEVICE_SWITCH);
		}
		load_ssh_target(w, item, path, s->target, s->address, &s->port, &s->port_given,
				s->user);
		check_endpoint(w, item, path, i);
		/* The ports are written in the platform's names: unread without one. */
		if ((v = require(w, item, "ports", path)) && s->target && s->target->ports) {
			join(sub, path, "ports");
			load_ports(w, v, sub, s);
			ports += s->n_ports;
			/* Named once, at the switch whose ports pass the bound. */
			if (ports > QG_PORTS_MAX && !ports_over) {
				ports_over = true;
				qg_error(w->d, v->pos,
					 "%s: brings the ports of all switches to %zu; a fabric has "
					 "at most %u, which keeps its build bounded (docs/intent.md, "
					 "\"Bounds\")",
					 sub, ports, QG_PORTS_MAX);
			}
		}
		if ((v = get(item, "cable_length_m")) && s->n_ports) {
			join(sub, path, "cable_length_m");
			load_cable_length(w, v, sub, s);
		}
	}
}

/* The keys every host entry takes; each platform adds its own (struct qg_target.keys). */
static const char *const host_common_keys[] = {"name", "address", "platform", "port", "user", NULL};
#define MAX_HOST_KEYS 32

/* Every key a hosts entry may hold: the common ones and every host target's own. */
static void host_keys(const struct walk *w, const char *keys[MAX_HOST_KEYS + 1])
{
	size_t n = 0;
	for (size_t k = 0; host_common_keys[k]; k++)
		keys[n++] = host_common_keys[k];
	for (size_t t = 0; w->targets[t]; t++) {
		const struct qg_target *tg = w->targets[t];
		for (size_t k = 0; tg->kind == QG_DEVICE_HOST && tg->keys && tg->keys[k]; k++) {
			bool seen = false;
			for (size_t j = 0; j < n; j++)
				seen |= !strcmp(keys[j], tg->keys[k]);
			if (!seen && n < MAX_HOST_KEYS)
				keys[n++] = tg->keys[k];
		}
	}
	keys[n] = NULL;
}

/* Keys of other platforms given to a host of platform t, for a precise message. */
static void forbid_keys(struct walk *w, const struct qg_ynode *item, const char *path,
			const char *const *all, const struct qg_target *t)
{
	for (size_t k = 0; all[k]; k++) {
		if (key_allowed(all[k], host_common_keys) || qg_target_takes(t, all[k]))
			continue;
		const struct qg_ynode *key = get_key_node(item, all[k]);
		if (key) {
			char takes[160];
			list_allowed(takes, sizeof(takes), t->keys);
			qg_error(w->d, key->pos,
				 "%s: '%s' does not apply to %s hosts; they take %s", path, all[k],
				 t->name, takes[0] ? takes : "none of the platform keys");
		}
	}
}

/* A platform key of host h that its target takes: read it into the model. */
static void load_host_key(struct walk *w, const struct qg_ynode *item, const char *path,
			  const char *key, struct qg_host *h)
{
	static const char *const tools[] = {"mlnx_qos", "dcb", NULL};
	static const char *const functions[] = {"pf", "vf", NULL};
	static const char *const booleans[] = {"false", "true", NULL};
	char sub[PATH_LEN];
	const struct qg_ynode *v =
	    key_allowed(key, h->target->required) ? require(w, item, key, path) : get(item, key);
	if (!v)
		return;
	join(sub, path, key);
	if (!strcmp(key, "netdev")) {
		read_str(w, v, sub, qg_netdev_ok, QG_NETDEV_RULE, h->netdev, sizeof(h->netdev));
	} else if (!strcmp(key, "rdma_device")) {
		read_str(w, v, sub, qg_rdma_device_ok, QG_RDMA_DEVICE_RULE, h->rdma_device,
			 sizeof(h->rdma_device));
	} else if (!strcmp(key, "function")) {
		int f = read_enum(w, v, sub, functions);
		if (f >= 0) {
			h->function = (enum qg_function)f;
			h->function_given = true;
		}
	} else if (!strcmp(key, "qos_tool")) {
		int t = read_enum(w, v, sub, tools);
		if (t >= 0) {
			h->qos_tool = (enum qg_qos_tool)t;
			h->qos_tool_given = true;
		}
		/* function is read before qos_tool (the target's keys list is in that order). */
		if (t >= 0 && h->function == QG_FN_VF)
			qg_warning(w->d, v->pos, QG_W_QOS_TOOL_IGNORED_FOR_VF,
				   "%s: ignored for function vf; trust and PFC belong to the "
				   "hypervisor",
				   sub);
	} else if (!strcmp(key, "persist")) {
		int p = read_enum(w, v, sub, booleans);
		if (p >= 0 && !v->plain) {
			qg_error(w->d, v->pos,
				 "%s: got the quoted string '%s'; write %s without quotes", sub,
				 v->value, v->value);
			p = -1;
		}
		if (p >= 0) {
			h->persist = p == 1;
			h->persist_given = true;
		}
	} else if (!strcmp(key, "uplink")) {
		read_str(w, v, sub, qg_vmnic_ok, QG_VMNIC_RULE, h->uplink, sizeof(h->uplink));
	} else if (!strcmp(key, "pvrdma_vmknic")) {
		h->pvrdma_vmknic_pos = v->pos;
		read_str(w, v, sub, qg_vmknic_ok, QG_VMKNIC_RULE, h->pvrdma_vmknic,
			 sizeof(h->pvrdma_vmknic));
	}
}

/* How many hosts a hosts entry gives: a host list's size, else 1. */
static size_t entry_hosts(const struct qg_ynode *item)
{
	const struct qg_ynode *v = item->kind == QG_Y_MAP ? get(item, "name") : NULL;
	if (!v || v->kind != QG_Y_SCALAR || !qg_hostlist_is_pattern(v->value))
		return 1;
	struct qg_hostlist hl;
	char err[160];
	if (qg_hostlist_parse(v->value, &hl, err, sizeof(err)) != 0)
		return 1; /* reported by expand_hosts */
	size_t n = hl.count;
	qg_hostlist_free(&hl);
	return n;
}

/* A dotted quad as a number (inet_pton, as gen/names.c reads addresses), or false. */
static bool ipv4_value(const char *s, uint32_t *out)
{
	struct in_addr a;
	if (inet_pton(AF_INET, s, &a) != 1)
		return false;
	*out = ntohl(a.s_addr);
	return true;
}

/*
 * A hosts entry whose name is a host list, "gpu-[001-512]": the first host h
 * is read; the list's other hosts are copies of it, each with its name and
 * its address: the k-th of an address list of the same length
 * ("10.0.1.[1-512]"), or the first IPv4 address plus k. Errors point at the
 * entry's name or address, once.
 */
static void expand_hosts(struct walk *w, const struct qg_ynode *item,
			 const struct qg_ynode *names_node, const char *path, struct qg_host *h)
{
	char sub[PATH_LEN], err[160];
	struct qg_hostlist names, addrs = {0};
	size_t errors = w->d->errors;
	join(sub, path, "name");
	if (qg_hostlist_parse(names_node->value, &names, err, sizeof(err)) != 0) {
		qg_error(w->d, names_node->pos,
			 "%s: '%s' is not a host list: %s; write it as prefix[001-512]suffix", sub,
			 names_node->value, err);
		poison_host(w, names_node->value);
		return;
	}
	const struct qg_ynode *a = require(w, item, "address", path);
	uint32_t first = 0;
	bool listed = false;
	join(sub, path, "address");
	if (a && !expect_kind(w, a, QG_Y_SCALAR, sub))
		a = NULL;
	if (a && qg_hostlist_is_pattern(a->value)) {
		if (qg_hostlist_parse(a->value, &addrs, err, sizeof(err)) != 0) {
			qg_error(w->d, a->pos, "%s: '%s' is not an address list: %s", sub, a->value,
				 err);
			a = NULL;
		} else if (addrs.count != names.count) {
			qg_error(
			    w->d, a->pos,
			    "%s: '%s' gives %zu addresses for the %zu names of '%s'; the lists "
			    "go together",
			    sub, a->value, addrs.count, names.count, names_node->value);
			a = NULL;
		} else {
			listed = true;
		}
	} else if (a && !ipv4_value(a->value, &first)) {
		qg_error(w->d, a->pos,
			 "%s: with a host list, give an address list of the same length "
			 "(10.0.1.[1-%zu]) or the first IPv4 address, which counts up",
			 sub, names.count);
		a = NULL;
	} else if (a && (uint64_t)first + names.count - 1 > UINT32_MAX) {
		qg_error(w->d, a->pos, "%s: %zu addresses from %s run past 255.255.255.255", sub,
			 names.count, a->value);
		a = NULL;
	}
	struct qg_host first_host = *h;
	for (size_t k = 0; a && k < names.count; k++) {
		struct qg_host *x = h + k;
		*x = first_host;
		bool name_fits = qg_hostlist_name(&names, k, x->name, sizeof(x->name));
		if (!name_fits || !qg_name_ok(x->name)) {
			qg_error(w->d, names_node->pos,
				 "%s.name: '%s' gives '%s', which is not allowed; "
				 "expected %s",
				 path, names_node->value, name_fits ? x->name : "(too long)",
				 QG_NAME_RULE);
			break;
		}
		if (listed) {
			if (!qg_hostlist_name(&addrs, k, x->address, sizeof(x->address)) ||
			    !qg_address_ok(x->address)) {
				qg_error(w->d, a->pos,
					 "%s: '%s' gives '%s', which is not allowed; "
					 "expected %s",
					 sub, a->value, x->address, QG_ADDRESS_RULE);
				break;
			}
		} else {
			uint32_t ip = first + (uint32_t)k;
			snprintf(x->address, sizeof(x->address), "%u.%u.%u.%u", ip >> 24,
				 (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
		}
		check_unique(w, x->name, names_node->pos, "hosts");
	}
	/* Some of its hosts are not there: references to them say nothing more. */
	if (w->d->errors != errors)
		poison_host(w, names_node->value);
	qg_hostlist_free(&names);
	qg_hostlist_free(&addrs);
}

static void load_hosts(struct walk *w, const struct qg_ynode *n)
{
	const char *keys[MAX_HOST_KEYS + 1];
	host_keys(w, keys);
	struct qg_model *m = w->m;
	if (!expect_kind(w, n, QG_Y_SEQ, "hosts")) {
		w->hosts_refused = true;
		return;
	}
	if (n->n_kids == 0)
		return;
	/* Host lists give many hosts per entry: count them first, once. */
	size_t total = 0, *counts = calloc(n->n_kids, sizeof(*counts));
	if (!counts) {
		w->d->oom = true;
		return;
	}
	/*
	 * A fabric's hosts are bounded (gen/bounds.h), named at the entry that
	 * passes the bound: every host costs time, memory and output.
	 */
	size_t over = n->n_kids;
	for (size_t i = 0; i < n->n_kids; i++) {
		total += counts[i] = entry_hosts(n->kids[i]);
		if (total > QG_HOSTS_MAX && over == n->n_kids)
			over = i;
	}
	if (over < n->n_kids) {
		char path[PATH_LEN];
		entry_path(path, "hosts", n->kids[over], over, true, qg_name_ok);
		qg_error(w->d, n->kids[over]->pos,
			 "%s: brings the hosts to %zu, host lists expanded; a fabric has at most "
			 "%u hosts, which keeps its build bounded (docs/intent.md, \"Bounds\")",
			 path, total, QG_HOSTS_MAX);
		w->hosts_refused = true;
		free(counts);
		return;
	}
	if (!(m->hosts = calloc(total, sizeof(*m->hosts)))) {
		w->d->oom = true;
		free(counts);
		return;
	}
	m->n_hosts = total;
	for (size_t i = 0, j = 0; i < n->n_kids; j += counts[i], i++) {
		struct qg_host *h = &m->hosts[j];
		char path[PATH_LEN], sub[PATH_LEN];
		h->pos = n->kids[i]->pos;
		const struct qg_ynode *item =
		    list_entry(w, n, i, true, "hosts", keys, path, qg_name_ok, QG_NAME_RULE,
			       h->name, sizeof(h->name));
		if (!item)
			continue;
		const struct qg_ynode *v, *list = get(item, "name");
		if (list && (list->kind != QG_Y_SCALAR || !qg_hostlist_is_pattern(list->value)))
			list = NULL;
		if ((v = require(w, item, "platform", path))) {
			join(sub, path, "platform");
			h->target = read_platform(w, v, sub, QG_DEVICE_HOST);
		}
		load_ssh_target(w, item, path, h->target, list ? NULL : h->address, &h->port,
				&h->port_given, h->user);
		if (!h->target)
			continue;
		forbid_keys(w, item, path, keys, h->target);
		/* A target that can install its settings does so unless told not to. */
		h->persist = qg_target_takes(h->target, "persist");
		for (size_t k = 0; h->target->keys && h->target->keys[k]; k++)
			load_host_key(w, item, path, h->target->keys[k], h);
		/* Every setting read once, at the entry's lines: now one host per name. */
		if (list)
			expand_hosts(w, item, list, path, h);
	}
	free(counts);
}

/*
 * Find a host by name; reports and returns -1 when absent or of a platform
 * without the capability `want` (QG_CAN_*), which `role` names: "verify
 * runs verbs traffic between".
 */
static long host_ref(struct walk *w, const struct qg_ynode *n, const char *path, unsigned want,
		     const char *role)
{
	if (!expect_kind(w, n, QG_Y_SCALAR, path))
		return -1;
	if (!w->hosts_indexed) {
		w->hosts_indexed = true;
		for (size_t i = 0; i < w->m->n_hosts; i++)
			if (w->m->hosts[i].name[0] &&
			    qg_strmap_put(&w->hosts, w->m->hosts[i].name,
					  (void *)(uintptr_t)(i + 1), NULL) < 0)
				w->d->oom = true;
	}
	uintptr_t found = (uintptr_t)qg_strmap_get(&w->hosts, n->value);
	if (found) {
		size_t i = found - 1;
		const struct qg_host *h = &w->m->hosts[i];
		if (!h->target)
			return -1; /* its platform is reported where it is given */
		if (!(h->target->caps & want)) {
			const char *names[MAX_PLATFORMS + 1];
			char list[128];
			platform_names(w, QG_DEVICE_HOST, want, names);
			list_allowed(list, sizeof(list), names);
			qg_error(w->d, n->pos, "%s: host '%s' is %s; %s %s hosts", path, n->value,
				 h->target->name, role, list[0] ? list : "no platform's");
			qg_note(w->d, h->pos, "'%s' is defined here", n->value);
			return -1;
		}
		return (long)i;
	}
	if (!poisoned_host(w, n->value))
		qg_error(w->d, n->pos, "%s: no host named '%s' in hosts", path, n->value);
	return -1;
}

static void load_dvs(struct walk *w, const struct qg_ynode *n)
{
	static const char *const keys[] = {"name",    "vcenter",   "datacenter", "mtu",
					   "uplinks", "portgroup", "hosts",	 NULL};
	struct qg_model *m = w->m;
	const struct qg_target *target = NULL;
	for (size_t t = 0; w->targets[t] && !target; t++)
		if (w->targets[t]->kind == QG_DEVICE_DVS)
			target = w->targets[t];
	if (!target) {
		qg_error(w->d, n->pos, "dvs: this qosgen has no target for distributed switches");
		return;
	}
	if (!(m->dvs = alloc_list(w, n, "dvs", sizeof(*m->dvs), &m->n_dvs)))
		return;
	/* Which DVS (and which list entry) claimed each host's uplink. */
	const struct qg_ynode **claimed = calloc(m->n_hosts + 1, sizeof(*claimed));
	if (!claimed) {
		w->d->oom = true;
		return;
	}
	for (size_t i = 0; i < n->n_kids; i++) {
		struct qg_dvs *s = &m->dvs[i];
		char path[PATH_LEN], sub[PATH_LEN];
		s->pos = n->kids[i]->pos;
		s->target = target;
		const struct qg_ynode *item =
		    list_entry(w, n, i, false, "dvs", keys, path, qg_dvs_name_ok, QG_DVS_NAME_RULE,
			       s->name, sizeof(s->name));
		if (!item)
			continue;
		const struct qg_ynode *v;
		if ((v = require(w, item, "vcenter", path))) {
			join(sub, path, "vcenter");
			read_str(w, v, sub, qg_address_ok, QG_ADDRESS_RULE, s->vcenter,
				 sizeof(s->vcenter));
		}
		if ((v = require(w, item, "datacenter", path))) {
			join(sub, path, "datacenter");
			read_str(w, v, sub, qg_label_ok, QG_LABEL_RULE, s->datacenter,
				 sizeof(s->datacenter));
		}
		if ((v = get(item, "portgroup"))) {
			join(sub, path, "portgroup");
			read_str(w, v, sub, qg_label_ok, QG_LABEL_RULE, s->portgroup,
				 sizeof(s->portgroup));
		}
		s->uplinks = QG_DEFAULT_DVS_UPLINKS;
		if ((v = get(item, "uplinks"))) {
			join(sub, path, "uplinks");
			read_int(w, v, sub, 1, 32, &s->uplinks);
		}
		/* vSphere accepts a DVS maxMtu of 1500..9000. */
		s->mtu = m->qos.mtu;
		if ((v = get(item, "mtu"))) {
			join(sub, path, "mtu");
			s->mtu_given = read_int(w, v, sub, 1500, 9000, &s->mtu);
			if (s->mtu_given && s->mtu < m->qos.mtu)
				qg_error(
				    w->d, v->pos,
				    "%s: %d is below qos.mtu %d; every hop must carry the host "
				    "MTU",
				    sub, s->mtu, m->qos.mtu);
		} else if (m->qos.mtu > 9000) {
			qg_error(w->d, item->pos,
				 "%s: takes its mtu from qos.mtu %d, above vSphere's maximum of "
				 "9000; set mtu here or lower qos.mtu",
				 path, m->qos.mtu);
		}
		if ((v = get(item, "hosts"))) {
			join(sub, path, "hosts");
			if (!expect_kind(w, v, QG_Y_SEQ, sub))
				continue;
			s->hosts = calloc(v->n_kids + 1, sizeof(*s->hosts));
			if (!s->hosts) {
				w->d->oom = true;
				break;
			}
			for (size_t k = 0; k < v->n_kids; k++) {
				long h =
				    host_ref(w, v->kids[k], sub, QG_CAN_DVS_MEMBER, "a DVS takes");
				if (h < 0)
					continue;
				if (claimed[h]) {
					qg_error(
					    w->d, v->kids[k]->pos,
					    "%s: host '%s' is already on a DVS; its RoCE uplink "
					    "can join only one",
					    sub, m->hosts[h].name);
					qg_note(w->d, claimed[h]->pos, "'%s' first listed here",
						m->hosts[h].name);
					continue;
				}
				claimed[h] = v->kids[k];
				s->hosts[s->n_hosts++] = (size_t)h;
			}
		}
	}
	free(claimed);
}

static void load_verify(struct walk *w, const struct qg_ynode *n)
{
	static const char *const keys[] = {"pairs", "message_size", "duration_s", NULL};
	static const char *const pair_keys[] = {"client", "server", "min_gbps", NULL};
	struct qg_verify *vf = &w->m->verify;
	vf->message_size = QG_DEFAULT_MESSAGE_SIZE;
	vf->duration_s = QG_DEFAULT_DURATION_S;
	if (!n)
		return;
	if (!expect_kind(w, n, QG_Y_MAP, "verify"))
		return;
	check_keys(w, n, "verify", keys);
	const struct qg_ynode *v;
	/* perftest's largest message for ib_write_bw is 8 MiB (MAX_SIZE). */
	if ((v = get(n, "message_size")))
		vf->message_size_given =
		    read_int(w, v, "verify.message_size", 1, 8388608, &vf->message_size);
	if ((v = get(n, "duration_s")))
		vf->duration_given = read_int(w, v, "verify.duration_s", 1, 3600, &vf->duration_s);
	const struct qg_ynode *pairs = require(w, n, "pairs", "verify");
	if (!pairs || !expect_kind(w, pairs, QG_Y_SEQ, "verify.pairs"))
		return;
	if (pairs->n_kids == 0) {
		qg_error(w->d, pairs->pos,
			 "verify.pairs: the list is empty; give at least one "
			 "{client, server, min_gbps}");
		return;
	}
	vf->pairs = calloc(pairs->n_kids, sizeof(*vf->pairs));
	if (!vf->pairs) {
		w->d->oom = true;
		return;
	}
	for (size_t i = 0; i < pairs->n_kids; i++) {
		const struct qg_ynode *p = pairs->kids[i];
		char path[PATH_LEN], sub[PATH_LEN];
		snprintf(path, sizeof(path), "verify.pairs[%zu]", i);
		if (!expect_kind(w, p, QG_Y_MAP, path))
			continue;
		/* A pair is named by its hosts, "verify.pairs[a,b]", when both are names. */
		const struct qg_ynode *cn = get(p, "client"), *sn = get(p, "server");
		if (cn && sn && cn->kind == QG_Y_SCALAR && sn->kind == QG_Y_SCALAR &&
		    qg_name_ok(cn->value) && qg_name_ok(sn->value))
			snprintf(path, sizeof(path), "verify.pairs[%s,%s]", cn->value, sn->value);
		check_keys(w, p, path, pair_keys);
		const struct qg_ynode *c = require(w, p, "client", path);
		const struct qg_ynode *s = require(w, p, "server", path);
		const struct qg_ynode *g = require(w, p, "min_gbps", path);
		long ci = -1, si = -1;
		static const char why[] = "verify runs verbs traffic between";
		if (c) {
			join(sub, path, "client");
			ci = host_ref(w, c, sub, QG_CAN_VERIFY, why);
		}
		if (s) {
			join(sub, path, "server");
			si = host_ref(w, s, sub, QG_CAN_VERIFY, why);
		}
		if (ci >= 0 && ci == si)
			qg_error(w->d, s->pos,
				 "%s: client and server are both '%s'; a pair needs "
				 "two hosts",
				 path, s->value);
		int64_t gbps = 0;
		if (g) {
			join(sub, path, "min_gbps");
			if (!scalar_fixed(g, 2, &gbps) || gbps <= 0 || gbps > 320000) {
				qg_error(w->d, g->pos,
					 "%s: expected a number in (0, 3200] with at most two "
					 "decimals, got %s%s%s",
					 sub, g->kind == QG_Y_SCALAR ? "'" : "",
					 g->kind == QG_Y_SCALAR ? g->value : kind_name(g),
					 g->kind == QG_Y_SCALAR ? "'" : "");
				gbps = 0;
			}
		}
		if (ci >= 0 && si >= 0 && ci != si && gbps > 0)
			vf->pairs[vf->n_pairs++] = (struct qg_pair){.client = (size_t)ci,
								    .server = (size_t)si,
								    .min_gbps_centi = gbps,
								    .pos = p->pos};
	}
}

/*
 * because: text for people, printed by explain as it is, so no control
 * character (C0, DEL, or C1 in UTF-8: some terminals obey those like ESC).
 */
static bool because_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f ||
		    (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f))
			return false;
	return n > 0 && n < QG_BECAUSE_LEN;
}
#define QG_BECAUSE_RULE "1..200 bytes of text without control characters"

/* One acknowledge entry's warning name: a warning the intent can trigger (gen/warnings.h). */
static enum qg_warning_id read_ack_name(struct walk *w, const struct qg_ynode *v, const char *path)
{
	if (!expect_kind(w, v, QG_Y_SCALAR, path))
		return QG_W_NONE;
	char names[1024];
	qg_warning_acknowledgeable(names, sizeof(names));
	enum qg_warning_id id = qg_warning_lookup(v->value);
	const struct qg_warning_info *info = qg_warning_info(id);
	if (!info) {
		const char *near = qg_warning_nearest(v->value);
		qg_error(w->d, v->pos,
			 "%s: unknown warning '%s'%s%s%s; the warnings an intent can "
			 "acknowledge: %s",
			 path, v->value, near ? " (did you mean '" : "", near ? near : "",
			 near ? "'?)" : "", names);
		return QG_W_NONE;
	}
	if (info->scope != QG_WS_INTENT) {
		qg_error(w->d, v->pos,
			 "%s: '%s' cannot be acknowledged: %s; the warnings an intent can "
			 "acknowledge: %s",
			 path, v->value,
			 info->scope == QG_WS_READBACK
			     ? "it is about a device's read-back, not the intent"
			     : "remove the acknowledgement it warns about instead",
			 names);
		return QG_W_NONE;
	}
	return id;
}

/*
 * acknowledge: a list of warning names, each a name or {warning: NAME,
 * because: TEXT}. Errors are not named, so none can be acknowledged.
 */
static void load_acknowledge(struct walk *w, const struct qg_ynode *n)
{
	static const char *const keys[] = {"warning", "because", NULL};
	struct qg_model *m = w->m;
	size_t count = 0;
	if (!(m->acks = alloc_list(w, n, "acknowledge", sizeof(*m->acks), &count)))
		return;
	for (size_t i = 0; i < n->n_kids; i++) {
		const struct qg_ynode *item = n->kids[i], *name = item, *why = NULL;
		char path[PATH_LEN], sub[PATH_LEN];
		snprintf(path, sizeof(path), "acknowledge[%zu]", i);
		snprintf(sub, sizeof(sub), "%s", path);
		if (item->kind == QG_Y_MAP) {
			check_keys(w, item, path, keys);
			join(sub, path, "warning");
			name = require(w, item, "warning", path);
			why = get(item, "because");
		} else if (item->kind != QG_Y_SCALAR) {
			qg_error(w->d, item->pos,
				 "%s: expected a warning name or a mapping of warning and because, "
				 "got %s",
				 path, kind_name(item));
			continue;
		}
		struct qg_ack a = {.pos = item->pos};
		if (!name || (a.warning = read_ack_name(w, name, sub)) == QG_W_NONE)
			continue;
		char bsub[PATH_LEN];
		join(bsub, path, "because");
		if (why && !read_str(w, why, bsub, because_ok, QG_BECAUSE_RULE, a.because,
				     sizeof(a.because)))
			continue;
		bool twice = false;
		for (size_t k = 0; k < m->n_acks && !twice; k++) {
			if (m->acks[k].warning != a.warning)
				continue;
			twice = true;
			qg_error(w->d, name->pos, "%s: '%s' is acknowledged twice", sub,
				 name->value);
			qg_note(w->d, m->acks[k].pos, "first acknowledged here");
		}
		if (!twice)
			m->acks[m->n_acks++] = a;
	}
}

int qg_intent_load(const char *text, size_t len, const struct qg_target *const *targets,
		   struct qg_diags *d, struct qg_model *m)
{
	static const char *const keys[] = {"version", "fabric", "qos",	       "switches", "hosts",
					   "dvs",     "verify", "acknowledge", NULL};
	memset(m, 0, sizeof(*m));
	struct qg_ynode *root = qg_yaml_parse(text, len, d);
	if (!root) {
		if (d->errors == 0 && !d->oom)
			qg_error(d, (struct qg_pos){0},
				 "the intent file is empty; it needs at least version, fabric and "
				 "qos");
		return -1;
	}
	m->targets = targets;
	struct walk w = {.d = d, .m = m, .targets = targets};
	if (!expect_kind(&w, root, QG_Y_MAP, "the intent file")) {
		qg_yaml_free(root);
		return -1;
	}
	check_keys(&w, root, "the intent file", keys);
	const struct qg_ynode *v;
	if ((v = require(&w, root, "version", "the intent file"))) {
		long ver;
		if (!scalar_int(v, &ver) && quoted_number(v) && !strcmp(v->value, "1"))
			qg_error(d, v->pos,
				 "version: got the quoted string '1'; quotes make a YAML value "
				 "text: write version: 1");
		else if (!scalar_int(v, &ver) || ver != 1)
			qg_error(d, v->pos, "version: '%s' is not supported; the only version is 1",
				 v->kind == QG_Y_SCALAR ? v->value : kind_name(v));
		else
			m->version = 1;
	}
	if ((v = require(&w, root, "fabric", "the intent file")))
		read_str(&w, v, "fabric", qg_name_ok, QG_NAME_RULE, m->fabric, sizeof(m->fabric));
	if ((v = require(&w, root, "qos", "the intent file")))
		load_qos(&w, v, &m->qos);
	if ((v = get(root, "switches")))
		load_switches(&w, v);
	if (w.qos_read) {
		settle_switch_mtu(&w, &m->qos);
		m->qos.dscp_exact = m->qos.trust == QG_TRUST_DSCP && !qg_fabric_fixed_dscp_map(m);
	}
	if ((v = get(root, "hosts")))
		load_hosts(&w, v);
	if ((v = get(root, "dvs")))
		load_dvs(&w, v);
	load_verify(&w, get(root, "verify"));
	if ((v = get(root, "acknowledge")))
		load_acknowledge(&w, v);
	settle_consequences(&w);
	/* The parse's own warnings; the targets' check()s' are the caller's (gen/warnings.h). */
	qg_warnings_acknowledge(m, d, false);
	qg_strmap_free(&w.poisoned);
	free(w.patterns);
	qg_strmap_free(&w.names);
	qg_strmap_free(&w.hosts);
	qg_strmap_free(&w.endpoints);
	free(w.endpoint_keys);
	free(w.address_pos);
	free(w.uses);
	qg_yaml_free(root);
	if (d->errors || d->oom) {
		qg_model_free(m);
		return -1;
	}
	return 0;
}

int qg_intent_load_file(const char *path, const struct qg_target *const *targets,
			struct qg_diags *d, struct qg_model *m, char **text_out, size_t *len_out)
{
	memset(m, 0, sizeof(*m));
	size_t len = 0;
	int err = 0;
	char *text = qg_read_file(path, QG_YAML_MAX_BYTES, false, &len, &err);
	if (!text) {
		if (err == EFBIG) {
			qg_error(d, (struct qg_pos){0}, "intent file is larger than %u bytes",
				 QG_YAML_MAX_BYTES);
			return -1;
		}
		qg_error(d, (struct qg_pos){0}, "cannot read: %s",
			 err == EINVAL ? "not a regular file" : strerror(err));
		return -2;
	}
	int rc = qg_intent_load(text, len, targets, d, m);
	if (rc == 0)
		m->file = path;
	if (text_out && rc == 0) {
		*text_out = text;
		*len_out = len;
	} else {
		free(text);
	}
	return rc;
}
