/* SPDX-License-Identifier: MIT */
/*
 * A switch's port roles (issue 28). Each role names some of the switch's
 * ports; a port has at most one. What a role gives replaces the policy's on
 * its ports: ECN thresholds (qos.lossless.ecn's, which must be on) and the
 * cable length (the switch's cable_length_m's, which must not give the same
 * port one too). The MTU stays the fabric's: a role's mtu is refused.
 */
#include "intent_roles.h"

#include "../model/bounds.h"
#include "intent_hw.h"
#include "../model/names.h"
#include "../model/ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table rows whose ranges a role's values are read with (model/keys.c). */
#define ROLE_ROW "switches[].roles.*"

static int port_cmp(const void *a, const void *b)
{
	return qg_port_cmp(a, b);
}

/* "switches[leaf1].roles" -> "switches[leaf1]": the switch, for messages. */
static void switch_path(char out[PATH_LEN], const char *roles_path)
{
	const char *dot = strrchr(roles_path, '.');
	size_t n = dot ? (size_t)(dot - roles_path) : strlen(roles_path);
	snprintf(out, PATH_LEN, "%.*s", (int)n, roles_path);
}

/* What one switch's roles share while they are read. */
struct roles_read {
	struct walk *w;
	struct qg_switch *s;
	const char *path;     /* "switches[leaf1].roles" */
	struct qg_pos *taken; /* per port: the list item that gave it its role */
};

/* Ports of one list item that are not the switch's, as the OS prints ranges. */
static void report_strangers(struct roles_read *rr, const struct qg_ynode *item, const char *path,
			     const struct qg_port *p, size_t n)
{
	struct qg_port_run *runs = calloc(n, sizeof(*runs));
	if (!runs) {
		rr->w->d->oom = true;
		return;
	}
	size_t nr = qg_port_runs(p, n, runs);
	char list[200] = "";
	size_t used = 0;
	for (size_t r = 0; r < nr && used < sizeof(list); r++) {
		char t[QG_PORT_TEXT_LEN];
		rr->s->target->ports->format_run(&runs[r], t);
		used +=
		    (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", r ? ", " : "", t);
	}
	free(runs);
	char sw[PATH_LEN];
	switch_path(sw, rr->path);
	qg_error(rr->w->d, item->pos,
		 "%s: %s %s %s not among the switch's ports; a role's ports are some of "
		 "%s.ports",
		 path, n == 1 ? "port" : "ports", list, n == 1 ? "is" : "are", sw);
}

/* One item of a role's ports (a port or a range) into port_role; false when refused. */
static bool read_port_item(struct roles_read *rr, const struct qg_ynode *item, const char *path,
			   size_t r)
{
	const struct qg_port_syntax *syn = rr->s->target->ports;
	struct qg_switch *s = rr->s;
	char err[200];
	struct qg_port *v;
	size_t nv;
	if (syn->parse(item->value, &v, &nv, err, sizeof(err)) != 0) {
		qg_error(rr->w->d, item->pos, "%s: %s", path, err);
		return false;
	}
	struct qg_port *strangers = calloc(nv ? nv : 1, sizeof(*strangers));
	if (!strangers) {
		free(v);
		rr->w->d->oom = true;
		return false;
	}
	size_t n_strangers = 0;
	bool ok = true, said = false;
	for (size_t k = 0; k < nv; k++) {
		const struct qg_port *hit =
		    bsearch(&v[k], s->ports, s->n_ports, sizeof(*s->ports), port_cmp);
		if (!hit) {
			strangers[n_strangers++] = v[k];
			continue;
		}
		size_t p = (size_t)(hit - s->ports);
		if (!s->port_role[p]) {
			s->port_role[p] = (uint8_t)(r + 1);
			rr->taken[p] = item->pos;
			continue;
		}
		ok = false;
		/* One conflict an item: a range over another role's would repeat it per port. */
		if (said)
			continue;
		said = true;
		char t[QG_PORT_TEXT_LEN];
		syn->format(&v[k], t);
		const char *other = s->roles[s->port_role[p] - 1].name;
		if (s->port_role[p] == r + 1) {
			qg_error(rr->w->d, item->pos, "%s: port %s is listed twice", path, t);
			qg_note(rr->w->d, rr->taken[p], "%s first listed here", t);
		} else {
			qg_error(rr->w->d, item->pos,
				 "%s: port %s is also in role '%s'; a port has at most one role",
				 path, t, other);
			qg_note(rr->w->d, rr->taken[p], "role '%s' takes %s here", other, t);
		}
	}
	if (n_strangers) {
		report_strangers(rr, item, path, strangers, n_strangers);
		ok = false;
	}
	free(strangers);
	free(v);
	return ok;
}

/* A role's ports: one item, or a list of them. */
static void read_ports(struct roles_read *rr, const struct qg_ynode *n, const char *path, size_t r)
{
	const struct qg_ynode *single;
	size_t count = 0;
	const struct qg_ynode *const *items = walk_port_items(rr->w, n, path, &single, &count);
	if (!items)
		return;
	for (size_t i = 0; i < count; i++) {
		char sub[PATH_LEN];
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if (walk_expect_kind(rr->w, items[i], QG_Y_SCALAR, sub))
			read_port_item(rr, items[i], path, r);
	}
}

/*
 * A role's cable length onto its ports. A port that the switch's
 * cable_length_m gives a length too (a port list, its default, or one
 * length for all) would have two: refused, naming both.
 */
static void read_cable(struct roles_read *rr, const struct qg_ynode *key, const struct qg_ynode *v,
		       const char *path, size_t r, const struct qg_pos *cable_src)
{
	struct qg_switch *s = rr->s;
	const struct qg_key *row = qg_key_find(ROLE_ROW ".cable_length_m");
	int len;
	if (!walk_read_int(rr->w, v, path, row->lo, row->hi, &len))
		return;
	s->roles[r].cable_m = len;
	s->roles[r].cable_pos = key->pos;
	for (size_t p = 0; cable_src && p < s->n_ports; p++) {
		if (s->port_role[p] != r + 1 || !cable_src[p].line)
			continue;
		char t[QG_PORT_TEXT_LEN], sw[PATH_LEN];
		s->target->ports->format(&s->ports[p], t);
		switch_path(sw, rr->path);
		qg_error(rr->w->d, key->pos,
			 "%s: port %s has a length from %s.cable_length_m too; give each port "
			 "its length in one place",
			 path, t, sw);
		qg_note(rr->w->d, cable_src[p], "%s.cable_length_m gives %s its length here", sw,
			t);
		return;
	}
	if (!s->cable_m && !(s->cable_m = calloc(s->n_ports, sizeof(*s->cable_m)))) {
		rr->w->d->oom = true;
		return;
	}
	for (size_t p = 0; p < s->n_ports; p++)
		if (s->port_role[p] == r + 1)
			s->cable_m[p] = len;
}

/* A role's ECN thresholds: both given, in qos.lossless.ecn's ranges, min <= max. */
static void read_ecn(struct roles_read *rr, const struct qg_ynode *key, const struct qg_ynode *v,
		     const char *path, size_t r)
{
	struct walk *w = rr->w;
	struct qg_port_role *role = &rr->s->roles[r];
	role->ecn_pos = key->pos;
	if (!walk_expect_kind(w, v, QG_Y_MAP, path))
		return;
	const char *keys[TABLE_KEYS + 1];
	qg_key_children(ROLE_ROW ".ecn", keys, TABLE_KEYS);
	walk_check_keys(w, v, path, keys);
	/* Thresholds of a marking that is off would be written nowhere: say so at the role. */
	if (w->qos_read && !(w->bad & BAD_ECN) && !w->m->qos.ecn) {
		qg_error(w->d, key->pos,
			 "%s: ECN is off in qos (no qos.lossless.ecn), so no port marks and a "
			 "role's thresholds have nothing to replace; turn ECN on in qos",
			 path);
		walk_consequence(w, "ecn", "qos.lossless");
	}
	const struct qg_key *lo_row = qg_key_find(ROLE_ROW ".ecn.min_kb"),
			    *hi_row = qg_key_find(ROLE_ROW ".ecn.max_kb");
	const struct qg_ynode *lo = walk_require(w, v, "min_kb", path);
	const struct qg_ynode *hi = walk_require(w, v, "max_kb", path);
	char sub[PATH_LEN];
	walk_join(sub, path, "min_kb");
	bool ok = lo && walk_read_int(w, lo, sub, lo_row->lo, lo_row->hi, &role->ecn_min_kb);
	walk_join(sub, path, "max_kb");
	ok = (hi && walk_read_int(w, hi, sub, hi_row->lo, hi_row->hi, &role->ecn_max_kb)) && ok;
	if (ok && role->ecn_min_kb > role->ecn_max_kb) {
		qg_error(w->d, lo->pos, "%s: min_kb %d is above max_kb %d; need min_kb <= max_kb",
			 path, role->ecn_min_kb, role->ecn_max_kb);
		qg_note(w->d, hi->pos, "max_kb given here");
		ok = false;
	}
	role->ecn_given = ok;
}

/* One role: its name at key, its settings at v. */
static void read_role(struct roles_read *rr, const struct qg_ynode *key, const struct qg_ynode *v,
		      size_t r, const struct qg_pos *cable_src)
{
	struct walk *w = rr->w;
	struct qg_port_role *role = &rr->s->roles[r];
	role->pos = key->pos;
	char path[PATH_LEN], sub[PATH_LEN];
	walk_join(path, rr->path, key->value);
	if (!walk_expect_kind(w, v, QG_Y_MAP, path))
		return;
	/*
	 * The MTU is the fabric's: every switch port takes qos.switch_mtu, so
	 * that no port drops what another passes. Passed by the key check
	 * below (and not listed as allowed), refused here with why, not as a
	 * key that belongs in qos.
	 */
	const char *keys[TABLE_KEYS + 1];
	static const char *const refused[] = {"mtu", "switch_mtu", NULL};
	qg_key_children(ROLE_ROW, keys, TABLE_KEYS);
	walk_check_keys_but(w, v, path, keys, refused);
	for (size_t i = 0; i < qg_ymap_len(v); i++) {
		const struct qg_ynode *k = v->kids[2 * i];
		if (strcmp(k->value, "mtu") && strcmp(k->value, "switch_mtu"))
			continue;
		qg_error(w->d, k->pos,
			 "%s.%s: the MTU is one per fabric, not per role: qos.switch_mtu is every "
			 "switch port's, qos.mtu every host's",
			 path, k->value);
	}
	const struct qg_ynode *n;
	if ((n = walk_require(w, v, "ports", path))) {
		walk_join(sub, path, "ports");
		read_ports(rr, n, sub, r);
	}
	if ((n = walk_get(v, "cable_length_m"))) {
		walk_join(sub, path, "cable_length_m");
		read_cable(rr, walk_get_key_node(v, "cable_length_m"), n, sub, r, cable_src);
	}
	if ((n = walk_get(v, "ecn"))) {
		walk_join(sub, path, "ecn");
		read_ecn(rr, walk_get_key_node(v, "ecn"), n, sub, r);
	}
	/* Issue 34: its ports' speed, one the switch's model's ports take. */
	if ((n = walk_get(v, "speed_gbps"))) {
		const struct qg_switch *s = rr->s;
		walk_join(sub, path, "speed_gbps");
		rr->s->roles[r].speed_pos = walk_get_key_node(v, "speed_gbps")->pos;
		intent_speed_read(w, n, sub, s->model_given ? qg_switch_hw(s->model) : NULL,
				  &rr->s->roles[r].speed_gbps);
	}
}

void intent_roles_load(struct walk *w, const struct qg_ynode *n, const char *path,
		       struct qg_switch *s, const struct qg_pos *cable_src)
{
	s->roles_pos = n->pos;
	if (!walk_expect_kind(w, n, QG_Y_MAP, path))
		return;
	size_t count = qg_ymap_len(n);
	if (count == 0) {
		qg_error(w->d, n->pos,
			 "%s: the mapping is empty; give at least one role, or leave roles out",
			 path);
		return;
	}
	if (count > QG_ROLES_MAX) {
		qg_error(w->d, n->kids[2 * QG_ROLES_MAX]->pos,
			 "%s: role '%s' is one more than a switch has at most (%u), which keeps "
			 "a port's role in a byte (docs/intent.md, \"Bounds\")",
			 path, n->kids[2 * QG_ROLES_MAX]->value, QG_ROLES_MAX);
		return;
	}
	s->roles = calloc(count, sizeof(*s->roles));
	s->port_role = calloc(s->n_ports, sizeof(*s->port_role));
	struct roles_read rr = {w, s, path, calloc(s->n_ports, sizeof(*rr.taken))};
	if (!s->roles || !s->port_role || !rr.taken) {
		free(rr.taken);
		w->d->oom = true;
		return;
	}
	s->n_roles = count;
	for (size_t r = 0; r < count; r++) {
		const struct qg_ynode *k = n->kids[2 * r], *v = n->kids[2 * r + 1];
		bool dup = false;
		for (size_t j = 0; j < r && !dup; j++) {
			const struct qg_ynode *first = n->kids[2 * j];
			if (strcmp(first->value, k->value))
				continue;
			qg_error(w->d, k->pos, "duplicate key '%s' in %s", k->value, path);
			qg_note(w->d, first->pos, "'%s' first given here", k->value);
			dup = true;
		}
		if (dup)
			continue;
		if (!qg_name_ok(k->value)) {
			qg_error(w->d, k->pos, "%s: '%s' is not a role name: %s", path, k->value,
				 QG_NAME_RULE);
			continue;
		}
		snprintf(s->roles[r].name, sizeof(s->roles[r].name), "%s", k->value);
		read_role(&rr, k, v, r, cable_src);
	}
	free(rr.taken);
}
