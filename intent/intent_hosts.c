/* SPDX-License-Identifier: MIT */
/*
 * The intent's hosts: common keys, each platform's own keys (struct
 * qg_target's keys), host lists expanded into one host per name, and
 * references to a host by name (dvs.hosts, verify.pairs).
 */
#include "intent_hosts.h"

#include "../model/bounds.h"
#include "../lib/hostlist.h"
#include "intent_entry.h"
#include "intent_nics.h"
#include "../model/names.h"
#include "../model/warnings.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does every host entry take key (the key table's hosts[] rows)? Each platform adds its own. */
static bool host_common_key(const char *key)
{
	char path[PATH_LEN];
	snprintf(path, sizeof(path), "hosts[].%s", key);
	return qg_key_find(path) != NULL;
}
#define MAX_HOST_KEYS 32

/* Every key a hosts entry may hold: the common ones and every host target's own. */
static void host_keys(const struct walk *w, const char *keys[MAX_HOST_KEYS + 1])
{
	size_t n = 0;
	n = qg_key_children("hosts[]", keys, TABLE_KEYS);
	for (size_t t = 0; w->targets[t]; t++) {
		const struct qg_target *tg = w->targets[t];
		for (const struct qg_key *r = tg->key_rows;
		     tg->kind == QG_DEVICE_HOST && r && r->path; r++) {
			bool seen = false;
			for (size_t j = 0; j < n; j++)
				seen |= !strcmp(keys[j], r->path);
			if (!seen && n < MAX_HOST_KEYS)
				keys[n++] = r->path;
		}
	}
	keys[n] = NULL;
}

/* Keys of other platforms given to a host of platform t, for a precise message. */
static void forbid_keys(struct walk *w, const struct qg_ynode *item, const char *path,
			const char *const *all, const struct qg_target *t)
{
	for (size_t k = 0; all[k]; k++) {
		if (host_common_key(all[k]) || qg_target_takes(t, all[k]))
			continue;
		const struct qg_ynode *key = walk_get_key_node(item, all[k]);
		if (key) {
			const char *own[MAX_HOST_KEYS + 1];
			char takes[160];
			walk_target_keys(t, false, own, MAX_HOST_KEYS);
			walk_list_allowed(takes, sizeof(takes), own);
			qg_error(w->d, key->pos,
				 "%s: '%s' does not apply to %s hosts; they take %s", path, all[k],
				 t->name, takes[0] ? takes : "none of the platform keys");
		}
	}
}

/*
 * A platform key of host h, its target's row r: stored where the row says,
 * a NIC's key (the row's base QG_KB_NIC) into nic, the one-NIC shorthand's.
 * A list (nics) is load_nics's.
 */
static void load_host_key(struct walk *w, const struct qg_ynode *item, const char *path,
			  const struct qg_key *r, struct qg_host *h, struct qg_nic *nic)
{
	void *base = r->base == QG_KB_NIC ? (void *)nic : r->base == QG_KB_HOST ? (void *)h : NULL;
	if (!base)
		return;
	enum walk_load got = walk_load_row(w, item, path, r, base);
	const struct qg_ynode *v = walk_get(item, r->path);
	if (v && !strcmp(r->path, "pvrdma_vmknic"))
		h->pvrdma_vmknic_pos = v->pos; /* esxi's check() points at it */
	/* function is read before qos_tool (the target's rows are in that order). */
	if (got == WALK_STORED && !strcmp(r->path, "qos_tool") && nic->function == QG_FN_VF) {
		char sub[PATH_LEN];
		walk_join(sub, path, r->path);
		qg_warning(w->d, v->pos, QG_W_QOS_TOOL_IGNORED_FOR_VF,
			   "%s: ignored for function vf; trust and PFC belong to the hypervisor",
			   sub);
	}
}

/* Whether target t's devices have NICs: a key row of it lands in one. */
static bool target_has_nics(const struct qg_target *t)
{
	for (const struct qg_key *r = t->key_rows; r && r->path; r++)
		if (r->base == QG_KB_NIC)
			return true;
	return false;
}

/*
 * Host h's NICs: n of them, zeroed, owned by the model (its nic_blocks);
 * NULL for a target without NICs, or out of memory (said).
 */
static struct qg_nic *host_nics(struct walk *w, struct qg_host *h, size_t n)
{
	struct qg_model *m = w->m;
	if (!target_has_nics(h->target))
		return NULL;
	/* The list doubles when it fills (at 0, 1, 2, 4 ...): linear in the hosts entries. */
	size_t have = m->n_nic_blocks;
	struct qg_nic **blocks = m->nic_blocks;
	if ((have & (have - 1)) == 0 &&
	    (blocks = realloc(blocks, (have ? 2 * have : 1) * sizeof(*blocks))))
		m->nic_blocks = blocks;
	struct qg_nic *nics = blocks ? calloc(n, sizeof(*nics)) : NULL;
	if (!nics) {
		w->d->oom = true;
		return NULL;
	}
	m->nic_blocks[m->n_nic_blocks++] = nics;
	h->nics = nics;
	h->n_nics = n;
	return nics;
}

/*
 * Whether key is one that `nics:` (row, when given) settles: nics itself, read
 * by load_nics, and the shorthand's names it replaces (the rows that are
 * required unless it is given), refused beside it.
 */
static bool nics_key(struct walk *w, const struct qg_ynode *item, const char *path, const char *key,
		     const struct qg_host *h, const struct qg_key *row)
{
	if (!row)
		return false;
	if (!strcmp(key, row->path))
		return true;
	const struct qg_key *r = walk_target_row(h->target, key);
	if (!r || !r->unless || strcmp(r->unless, row->path))
		return false;
	const struct qg_ynode *k = walk_get_key_node(item, key);
	if (k) {
		qg_error(w->d, k->pos,
			 "%s: '%s' and '%s' both given; keep '%s' and give each NIC its %s there, "
			 "or drop '%s' for a host with one NIC",
			 path, key, row->path, row->path, key, row->path);
		qg_note(w->d, walk_get_key_node(item, row->path)->pos, "'%s' given here",
			row->path);
	}
	return true;
}

/*
 * Host h's NICs: its `nics:` read (its target's list row's items), or the
 * one-NIC shorthand def. A `nics:` that could not be read leaves one empty
 * NIC, as a shorthand without netdev does: the errors stop the build.
 */
static void load_nics(struct walk *w, struct qg_host *h, const struct qg_ynode *item,
		      const char *path, const struct qg_nic *def)
{
	const struct qg_key *row = intent_nics_row(h->target);
	const struct qg_ynode *nics = row ? walk_get(item, row->path) : NULL;
	struct qg_nic read[QG_NICS_MAX];
	size_t n = 0;
	if (nics) {
		char sub[PATH_LEN];
		walk_join(sub, path, row->path);
		h->nics_listed = true;
		h->nics_pos = walk_get_key_node(item, row->path)->pos;
		n = intent_nics_read(w, nics, sub, row, def, read);
	}
	struct qg_nic *nic = host_nics(w, h, n ? n : 1);
	if (!nic)
		return;
	if (n)
		memcpy(nic, read, n * sizeof(*nic));
	else if (!nics)
		*nic = *def;
	else {
		nic->pos = def->pos;
		h->nics_refused = true;
	}
}

/*
 * How many NICs each host of a hosts entry has, from its text: `nics:`
 * counted without expanding a range, 1 for the one-NIC shorthand, 0 on a
 * platform whose hosts have none (or none known yet: reported when read).
 * *at: the `nics` key, where a bound on them points, else the entry.
 */
static size_t entry_nics(const struct walk *w, const struct qg_ynode *item,
			 const struct qg_ynode **at)
{
	const struct qg_ynode *p = item->kind == QG_Y_MAP ? walk_get(item, "platform") : NULL;
	const struct qg_target *t = NULL;
	*at = item;
	for (size_t k = 0; p && p->kind == QG_Y_SCALAR && w->targets[k]; k++)
		if (w->targets[k]->kind == QG_DEVICE_HOST && !strcmp(w->targets[k]->name, p->value))
			t = w->targets[k];
	if (!t || !target_has_nics(t))
		return 0;
	const struct qg_key *row = intent_nics_row(t);
	const struct qg_ynode *key = row ? walk_get_key_node(item, row->path) : NULL;
	if (!key)
		return 1;
	*at = key;
	return intent_nics_count(walk_get(item, row->path), row);
}

/* How many hosts a hosts entry gives: a host list's size, else 1. */
static size_t entry_hosts(const struct qg_ynode *item)
{
	const struct qg_ynode *v = item->kind == QG_Y_MAP ? walk_get(item, "name") : NULL;
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

/* A dotted quad as a number (inet_pton, as model/names.c reads addresses), or false. */
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
	walk_join(sub, path, "name");
	if (qg_hostlist_parse(names_node->value, &names, err, sizeof(err)) != 0) {
		qg_error(w->d, names_node->pos,
			 "%s: '%s' is not a host list: %s; write it as prefix[001-512]suffix", sub,
			 names_node->value, err);
		walk_poison_host(w, names_node->value);
		return;
	}
	const struct qg_ynode *a = walk_require(w, item, "address", path);
	uint32_t first = 0;
	bool listed = false;
	walk_join(sub, path, "address");
	if (a && !walk_expect_kind(w, a, QG_Y_SCALAR, sub))
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
		entry_check_unique(w, x->name, names_node->pos, "hosts");
	}
	/* Some of its hosts are not there: references to them say nothing more. */
	if (w->d->errors != errors)
		walk_poison_host(w, names_node->value);
	qg_hostlist_free(&names);
	qg_hostlist_free(&addrs);
}

/*
 * How many hosts each entry of hosts list n gives (host lists expanded),
 * into counts, and their total. A fabric's hosts and NICs are bounded
 * (model/bounds.h), named at the entry that passes the bound: every host
 * costs time, memory and output. False when one is passed (said).
 */
static bool count_hosts(struct walk *w, const struct qg_ynode *n, size_t *counts, size_t *total)
{
	size_t over = n->n_kids, nics_over = n->n_kids, fabric_nics = 0, each = 0;
	const struct qg_ynode *nics_at = NULL;
	char path[PATH_LEN];
	*total = 0;
	for (size_t i = 0; i < n->n_kids; i++) {
		*total += counts[i] = entry_hosts(n->kids[i]);
		if (*total > QG_HOSTS_MAX && over == n->n_kids)
			over = i;
		/* The fabric's NICs likewise, before any range is expanded (issue 36). */
		const struct qg_ynode *at = n->kids[i];
		size_t per = nics_over < n->n_kids ? 0 : entry_nics(w, n->kids[i], &at);
		size_t add = per && counts[i] > SIZE_MAX / per ? SIZE_MAX : per * counts[i];
		fabric_nics = add > SIZE_MAX - fabric_nics ? SIZE_MAX : fabric_nics + add;
		if (fabric_nics > QG_FABRIC_NICS_MAX && nics_over == n->n_kids) {
			nics_over = i;
			nics_at = at;
			each = per;
		}
	}
	if (over == n->n_kids && nics_over < n->n_kids) {
		size_t hosts = counts[nics_over];
		entry_path(path, "hosts", n->kids[nics_over], nics_over, true, qg_name_ok);
		qg_error(w->d, nics_at->pos,
			 "%s: brings the fabric's RoCE NICs to %zu (here %zu host%s of %zu NIC%s), "
			 "hosts times their NICs, ranges expanded; a fabric has at most %u NICs, "
			 "which keeps its build bounded (docs/intent.md, \"Bounds\")",
			 path, fabric_nics, hosts, hosts == 1 ? "" : "s", each,
			 each == 1 ? "" : "s", QG_FABRIC_NICS_MAX);
		return false;
	}
	if (over < n->n_kids) {
		entry_path(path, "hosts", n->kids[over], over, true, qg_name_ok);
		qg_error(w->d, n->kids[over]->pos,
			 "%s: brings the hosts to %zu, host lists expanded; a fabric has at most "
			 "%u hosts, which keeps its build bounded (docs/intent.md, \"Bounds\")",
			 path, *total, QG_HOSTS_MAX);
		return false;
	}
	return true;
}

/*
 * Entry i of hosts list n, an entry of kind k, into h: its common keys,
 * its platform's keys by their rows, its NICs; a host list's other hosts
 * are copies of h, after it.
 */
static void load_host_entry(struct walk *w, const struct qg_ynode *n, size_t i,
			    const struct entry_kind *k, struct qg_host *h)
{
	char path[PATH_LEN], sub[PATH_LEN];
	h->pos = n->kids[i]->pos;
	const struct qg_ynode *item = entry_start(w, n, i, k, path, h);
	if (!item)
		return;
	const struct qg_ynode *v, *list = walk_get(item, "name");
	if (list && (list->kind != QG_Y_SCALAR || !qg_hostlist_is_pattern(list->value)))
		list = NULL;
	if ((v = walk_require(w, item, "platform", path))) {
		walk_join(sub, path, "platform");
		h->target = walk_read_platform(w, v, sub, QG_DEVICE_HOST);
	}
	/* One address, by the rule of one (a host list's: expand_hosts). */
	struct qg_key address = *qg_key_find("hosts[].address");
	address.ok = qg_address_ok;
	address.rule = QG_ADDRESS_RULE;
	if (!list)
		walk_load_row(w, item, path, &address, h);
	entry_ssh_target(w, item, path, h->target, h);
	if (!h->target)
		return;
	forbid_keys(w, item, path, k->keys, h->target);
	/* A target that can install its settings does so unless told not to. */
	h->persist = qg_target_takes(h->target, "persist");
	/*
	 * The one-NIC shorthand's keys into def; with `nics:`, its
	 * function and qos_tool are the NICs' default.
	 */
	struct qg_nic def = {.pos = h->pos};
	const struct qg_key *nics_row = intent_nics_row(h->target);
	const struct qg_ynode *nics = nics_row ? walk_get(item, nics_row->path) : NULL;
	for (const struct qg_key *r = h->target->key_rows; r && r->path; r++)
		if (!nics_key(w, item, path, r->path, h, nics ? nics_row : NULL))
			load_host_key(w, item, path, r, h, &def);
	load_nics(w, h, item, path, &def);
	/* Every setting read once, at the entry's lines: now one host per name. */
	if (list)
		expand_hosts(w, item, list, path, h);
}

void intent_hosts_load(struct walk *w, const struct qg_ynode *n)
{
	const char *keys[MAX_HOST_KEYS + 1];
	host_keys(w, keys);
	struct qg_model *m = w->m;
	if (!walk_expect_kind(w, n, QG_Y_SEQ, "hosts")) {
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
	if (!count_hosts(w, n, counts, &total)) {
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
	/* One host's name; a host list's names are expand_hosts's. */
	struct qg_key name = *qg_key_find("hosts[].name");
	name.ok = qg_name_ok;
	name.rule = QG_NAME_RULE;
	const struct entry_kind kind = {"hosts", keys, &name, true};
	for (size_t i = 0, j = 0; i < n->n_kids; j += counts[i], i++)
		load_host_entry(w, n, i, &kind, &m->hosts[j]);
	free(counts);
}

/*
 * Find a host by name; reports and returns -1 when absent or of a platform
 * without the capability `want` (QG_CAN_*), which `role` names: "verify
 * runs verbs traffic between".
 */
long intent_host_ref(struct walk *w, const struct qg_ynode *n, const char *path, unsigned want,
		     const char *role)
{
	if (!walk_expect_kind(w, n, QG_Y_SCALAR, path))
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
			walk_platform_names(w, QG_DEVICE_HOST, want, names);
			walk_list_allowed(list, sizeof(list), names);
			qg_error(w->d, n->pos, "%s: host '%s' is %s; %s %s hosts", path, n->value,
				 h->target->name, role, list[0] ? list : "no platform's");
			qg_note(w->d, h->pos, "'%s' is defined here", n->value);
			return -1;
		}
		return (long)i;
	}
	if (!walk_poisoned_host(w, n->value))
		qg_error(w->d, n->pos, "%s: no host named '%s' in hosts", path, n->value);
	return -1;
}
