/* SPDX-License-Identifier: MIT */
/*
 * The intent's switches: platform, SSH endpoint (one switch per endpoint),
 * ports in the platform's names, cable lengths, port roles (intent/intent_roles.c).
 */
#include "intent_switches.h"

#include "../model/bounds.h"
#include "intent_entry.h"
#include "intent_hw.h"
#include "intent_roles.h"
#include "../model/names.h"
#include "../model/osversion.h"
#include "../model/port_kind.h"
#include "../model/ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The ports listed so far, each with the item that named it. */
struct owned_list {
	struct owned *v;
	size_t n;
};

/* count items of a ports list, by the switch's syntax, into all; false when one is refused. */
static bool ports_parse(struct walk *w, const struct qg_ynode *const *items, size_t count,
			const char *path, const struct qg_switch *s, struct owned_list *all)
{
	bool ok = true;
	for (size_t i = 0; i < count; i++) {
		char sub[PATH_LEN], err[200];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (!walk_expect_kind(w, items[i], QG_Y_SCALAR, sub)) {
			ok = false;
			continue;
		}
		struct qg_port *v;
		size_t nv;
		if (s->target->ports->parse(items[i]->value, &v, &nv, err, sizeof(err)) != 0) {
			qg_error(w->d, items[i]->pos, "%s: %s", path, err);
			ok = false;
			continue;
		}
		if (all->n + nv > QG_MAX_PORTS) {
			qg_error(w->d, items[i]->pos, "%s: more than %d ports listed", path,
				 QG_MAX_PORTS);
			free(v);
			return false;
		}
		struct owned *grown = realloc(all->v, (all->n + nv) * sizeof(*grown));
		if (!grown) {
			free(v);
			w->d->oom = true;
			return ok;
		}
		all->v = grown;
		for (size_t k = 0; k < nv; k++)
			all->v[all->n++] = (struct owned){.p = v[k], .item = i};
		free(v);
	}
	return ok;
}

/*
 * Ports named twice, or whole beside their own splits: each said at the
 * later item. all is sorted by port, so equal ports and a whole port with
 * its splits are next to each other: one pass finds every conflict.
 */
static bool ports_distinct(struct walk *w, const struct owned *all, size_t n_all,
			   const struct qg_ynode *const *items, const char *path,
			   const struct qg_port_syntax *syn)
{
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
	return ok;
}

static void load_ports(struct walk *w, const struct qg_ynode *n, const char *path,
		       struct qg_switch *s)
{
	s->ports_pos = n->pos;
	const struct qg_ynode *single;
	size_t count = 0;
	const struct qg_ynode *const *items = walk_port_items(w, n, path, &single, &count);
	if (!items)
		return;

	/*
	 * One item refused leaves the list unknown: the switch then has no ports,
	 * so neither its roles nor its cable lengths are judged against a list
	 * the user has yet to mend (one cause, one message: issue 37).
	 */
	struct owned_list list = {0};
	bool ok = ports_parse(w, items, count, path, s, &list);
	struct owned *all = list.v;
	size_t n_all = list.n;
	if (n_all > 1)
		qsort(all, n_all, sizeof(*all), owned_cmp);
	ok = ports_distinct(w, all, n_all, items, path, s->target->ports) && ok;
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
 * cable_length_m: one length for every port of the switch, or a mapping of
 * `default` and port lists in the platform's names to lengths (the ports
 * must be the switch's, each named once). The lossless headroom a port needs
 * grows with its cable: SONiC's dynamic buffer model and NVUE size it from
 * this. src: per port, where its length was given (the key that named it,
 * `default`, or the one length), for a role that gives one too.
 */
static int port_cmp(const void *a, const void *b)
{
	return qg_port_cmp(a, b);
}

static void load_cable_length(struct walk *w, const struct qg_ynode *n, const char *path,
			      struct qg_switch *s, struct qg_pos *src)
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
		if (walk_read_key_int(w, n, path, &len)) {
			for (size_t k = 0; k < s->n_ports; k++) {
				m[k] = len;
				src[k] = n->pos;
			}
			s->cable_m = m;
		} else {
			free(m);
		}
		return;
	}
	/* A port list's length: the range of the table's row of any key here. */
	char any[PATH_LEN];
	walk_join(any, path, "*");
	const struct qg_key *every = walk_key_row(any);
	long lo = every ? every->lo : 1, hi = every ? every->hi : 0;
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
		if (!walk_read_int(w, v, sub, lo, hi, &len)) {
			ok = false;
			continue;
		}
		if (!strcmp(k->value, "default")) {
			for (size_t p = 0; p < s->n_ports; p++)
				if (!named[p]) {
					m[p] = len;
					src[p] = k->pos;
				}
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
			src[p] = k->pos;
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
static void check_endpoint(struct walk *w, const struct qg_ynode *item, const char *path, size_t i)
{
	const struct qg_switch *s = &w->m->switches[i];
	const struct qg_ynode *a = walk_get(item, "address");
	/* Without a platform its default port is unknown: no guess. */
	if (!a || !s->address[0] || (!s->target && !s->port_given))
		return;
	w->address_pos[i] = a->pos;
	qg_address_key(s->address, s->port, w->endpoint_keys[i], sizeof(w->endpoint_keys[i]));
	void *old;
	int rc =
	    qg_strmap_put(&w->endpoints, w->endpoint_keys[i], (void *)(uintptr_t)(i + 1), &old);
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

/* Digits with at most one dot: what YAML reads as an integer or a float. */
static bool yaml_number(const char *v)
{
	const char *dot = strchr(v, '.');
	return qg_version_ok(v) && (!dot || !strchr(dot + 1, '.'));
}

/*
 * os_version (issue 34): the version the switch runs, which its target
 * writes the dialect of. YAML reads a plain 5.10 as the number 5.1, and so
 * would any other reader of the intent (an editor's schema, Ansible): a
 * version that is a number to YAML is asked for quoted, never taken in one
 * reader's spelling and another's value. A target that declares no
 * versions takes none; one outside a target's range is refused with it.
 */
static void load_os_version(struct walk *w, const struct qg_ynode *n, const char *path,
			    struct qg_switch *s)
{
	if (n->kind == QG_Y_SCALAR && n->plain && yaml_number(n->value)) {
		qg_error(w->d, n->pos,
			 "%s: %s is a number to YAML, not text (5.10 is 5.1 to other readers of "
			 "the intent); quote it: \"%s\"",
			 path, n->value, n->value);
		return;
	}
	if (walk_store_row(w, n, path, qg_key_find("switches[].os_version"), s) != WALK_STORED)
		return;
	s->os_version_pos = n->pos;
	const struct qg_os_versions *vs = s->target ? s->target->versions : NULL;
	if (s->target && !vs)
		qg_error(w->d, n->pos,
			 "%s: platform %s declares no OS versions, so it writes one dialect for "
			 "all; leave os_version out",
			 path, s->target->name);
	else if (vs && !qg_os_version_supported(vs, s->os_version))
		qg_error(w->d, n->pos, "%s: %s %s is not a version %s writes: %s to %s (%s)", path,
			 vs->os, s->os_version, s->target->name, vs->oldest, vs->newest,
			 vs->source);
}

void intent_switches_load(struct walk *w, const struct qg_ynode *n)
{
	const char *keys[TABLE_KEYS + 1];
	qg_key_children("switches[]", keys, TABLE_KEYS);
	struct qg_model *m = w->m;
	/* Bounded, as hosts are (model/bounds.h): each switch is a file and its ports' work. */
	if (n->kind == QG_Y_SEQ && n->n_kids > QG_SWITCHES_MAX) {
		char path[PATH_LEN];
		entry_path(path, "switches", n->kids[QG_SWITCHES_MAX], QG_SWITCHES_MAX, false,
			   qg_name_ok);
		qg_error(
		    w->d, n->kids[QG_SWITCHES_MAX]->pos,
		    "%s: one switch more than a fabric has at most (%u), which keeps its build "
		    "bounded (docs/intent.md, \"Bounds\")",
		    path, QG_SWITCHES_MAX);
		return;
	}
	if (!(m->switches =
		  entry_alloc_list(w, n, "switches", sizeof(*m->switches), &m->n_switches)))
		return;
	w->endpoint_keys = calloc(n->n_kids, sizeof(*w->endpoint_keys));
	w->address_pos = calloc(n->n_kids, sizeof(*w->address_pos));
	if (!w->endpoint_keys || !w->address_pos) {
		w->d->oom = true;
		return;
	}
	size_t ports = 0;
	bool ports_over = false;
	const struct entry_kind kind = {"switches", keys, qg_key_find("switches[].name"), false};
	for (size_t i = 0; i < n->n_kids; i++) {
		struct qg_switch *s = &m->switches[i];
		char path[PATH_LEN], sub[PATH_LEN];
		s->pos = n->kids[i]->pos;
		const struct qg_ynode *item = entry_start(w, n, i, &kind, path, s);
		if (!item)
			continue;
		const struct qg_ynode *v;
		if ((v = walk_require(w, item, "platform", path))) {
			walk_join(sub, path, "platform");
			s->target = walk_read_platform(w, v, sub, QG_DEVICE_SWITCH);
		}
		walk_load_key(w, item, path, "address", s);
		entry_ssh_target(w, item, path, s->target, s);
		check_endpoint(w, item, path, i);
		/* The ports are written in the platform's names: unread without one. */
		if ((v = walk_require(w, item, "ports", path)) && s->target && s->target->ports) {
			walk_join(sub, path, "ports");
			load_ports(w, v, sub, s);
			ports += s->n_ports;
			/* Named once, at the switch whose ports pass the bound. */
			if (ports > QG_PORTS_MAX && !ports_over) {
				ports_over = true;
				qg_error(
				    w->d, v->pos,
				    "%s: brings the ports of all switches to %zu; a fabric has "
				    "at most %u, which keeps its build bounded (docs/intent.md, "
				    "\"Bounds\")",
				    sub, ports, QG_PORTS_MAX);
			}
		}
		intent_hw_load(w, item, path, s);
		struct qg_pos *cable_src = NULL;
		if ((v = walk_get(item, "cable_length_m")) && s->n_ports) {
			walk_join(sub, path, "cable_length_m");
			if (!(cable_src = calloc(s->n_ports, sizeof(*cable_src)))) {
				w->d->oom = true;
				return;
			}
			load_cable_length(w, v, sub, s, cable_src);
		}
		if ((v = walk_get(item, "roles")) && s->n_ports) {
			walk_join(sub, path, "roles");
			intent_roles_load(w, v, sub, s, cable_src);
		}
		free(cable_src);
		qg_port_kinds_check(s, path, w->d);
		if ((v = walk_get(item, "os_version"))) {
			walk_join(sub, path, "os_version");
			load_os_version(w, v, sub, s);
		}
		/* Not given: the target's newest, which its build is written for. */
		if (!s->os_version_given && s->target && s->target->versions)
			snprintf(s->os_version, sizeof(s->os_version), "%s",
				 s->target->versions->newest);
	}
}
