/* SPDX-License-Identifier: MIT */
#include "port_kind.h"

#include "bounds.h"
#include "ports.h"
#include "target_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct qg_switch_hw *qg_switch_model_hw(const struct qg_switch *s)
{
	return s->model_given ? qg_switch_hw(s->model) : NULL;
}

/* The front-panel port of port p on hw, by its target's names; 0: none of hw's, or unknown. */
static int panel_of(const struct qg_switch *s, const struct qg_switch_hw *hw,
		    const struct qg_port *p)
{
	if (!s->target || !s->target->ports || !s->target->ports->panel)
		return 0;
	return s->target->ports->panel(p, hw);
}

/* Whether s's target can tell which front-panel port a port is. */
static bool knows_panels(const struct qg_switch *s)
{
	return s->target && s->target->ports && s->target->ports->panel;
}

const struct qg_port_kind *qg_port_kind(const struct qg_switch *s, size_t k)
{
	const struct qg_switch_hw *hw = qg_switch_model_hw(s);
	if (!hw)
		return NULL;
	/* A model of one kind: every port is of it, whatever the target knows of panels. */
	if (!knows_panels(s))
		return hw->n_kinds == 1 ? &hw->kinds[0] : NULL;
	int panel = panel_of(s, hw, &s->ports[k]);
	return panel ? qg_switch_hw_kind(hw, panel) : NULL;
}

int qg_port_speed_default(const struct qg_switch *s, size_t k)
{
	if (s->speed_given)
		return s->speed_gbps;
	const struct qg_port_kind *kind = qg_port_kind(s, k);
	return kind ? kind->native_gbps : s->speed_gbps;
}

/* The role of port k that gives a speed of its own, or NULL. */
static const struct qg_port_role *speed_role(const struct qg_switch *s, size_t k)
{
	int r = s->port_role ? s->port_role[k] : 0;
	return r && s->roles[r - 1].speed_gbps ? &s->roles[r - 1] : NULL;
}

int qg_port_speed(const struct qg_switch *s, size_t k)
{
	const struct qg_port_role *role = speed_role(s, k);
	return role ? role->speed_gbps : qg_port_speed_default(s, k);
}

bool qg_role_speed_is_default(const struct qg_switch *s, size_t r)
{
	for (size_t k = 0; k < s->n_ports; k++)
		if (s->port_role && s->port_role[k] == r + 1 &&
		    qg_port_speed_default(s, k) != s->roles[r].speed_gbps)
			return false;
	return true;
}

bool qg_port_speed_uniform(const struct qg_switch *s)
{
	if (s->speed_given)
		return true;
	/*
	 * A role's speed that is its ports' own counts as not given: the two
	 * intents are one, and hash as one (emit/modeljson.c).
	 */
	bool own[QG_ROLES_MAX] = {false};
	for (size_t r = 0; r < s->n_roles && r < QG_ROLES_MAX; r++)
		own[r] = s->roles[r].speed_gbps && !qg_role_speed_is_default(s, r);
	for (size_t k = 0; k < s->n_ports; k++) {
		int r = s->port_role ? s->port_role[k] : 0;
		if (!(r && own[r - 1]) && qg_port_speed_default(s, k) != s->speed_gbps)
			return false;
	}
	return true;
}

bool qg_port_kinds_mixed(const struct qg_switch *s)
{
	const struct qg_port_kind *first = NULL;
	for (size_t k = 0; k < s->n_ports; k++) {
		const struct qg_port_kind *kind = qg_port_kind(s, k);
		if (!kind)
			continue;
		if (first && kind != first)
			return true;
		first = kind;
	}
	return false;
}

void qg_ports_text(const struct qg_switch *s, const struct qg_port *v, size_t n, char *out,
		   size_t len)
{
	struct qg_port_run *runs = calloc(n ? n : 1, sizeof(*runs));
	size_t nr = runs ? qg_port_runs(v, n, runs) : 0, o = 0;
	out[0] = '\0';
	for (size_t r = 0; r < nr && o < len; r++) {
		char t[QG_PORT_TEXT_LEN];
		s->target->ports->format_run(&runs[r], t);
		/* Long lists end in "...": the count is in the message. */
		if (o + strlen(t) + 6 > len) {
			snprintf(out + o, len - o, ",...");
			break;
		}
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "," : "", t);
	}
	free(runs);
}

/* The platform.json of hw, as the diagnostics cite it: its SKU folder's parent. */
static int platform_len(const struct qg_switch_hw *hw)
{
	return (int)(strrchr(hw->sku, '/') - hw->sku);
}

/* Ports of s that are none of hw's: one error at the switch's ports. */
static void check_on_model(const struct qg_switch *s, const struct qg_switch_hw *hw,
			   const char *path, struct qg_port *v, struct qg_diags *d)
{
	size_t n = 0;
	for (size_t k = 0; k < s->n_ports; k++)
		if (!panel_of(s, hw, &s->ports[k]))
			v[n++] = s->ports[k];
	if (!n)
		return;
	const struct qg_port_kind *last = &hw->kinds[hw->n_kinds - 1];
	char list[200];
	qg_ports_text(s, v, n, list, sizeof(list));
	qg_error(d, s->ports_pos,
		 "%s.ports: %s has no %s %s: its front panel has ports 1-%d (sonic-buildimage "
		 "%.*s/platform.json)",
		 path, hw->model, n == 1 ? "port" : "ports", list, last->first + last->count - 1,
		 platform_len(hw), hw->sku);
}

/* A speed_gbps the intent gives: the switch's (role -1) or role r's, at key and pos. */
struct given_speed {
	int r;
	int gbps;
	struct qg_pos pos;
	const char *key;
};

/*
 * The ports (of role r + 1, or of no role of its own speed for r < 0) of
 * kind `kind` whose kind does not take gbps: one error at pos, naming them.
 */
static void check_kind_speed(const struct qg_switch *s, const struct qg_switch_hw *hw,
			     const struct qg_port_kind *kind, const struct given_speed *g,
			     struct qg_port *v, struct qg_diags *d)
{
	int r = g->r, gbps = g->gbps;
	struct qg_pos pos = g->pos;
	const char *key = g->key;
	if (qg_port_kind_speed_ok(kind, gbps))
		return;
	size_t n = 0;
	for (size_t k = 0; k < s->n_ports; k++) {
		bool mine = r < 0 ? !speed_role(s, k) : s->port_role && s->port_role[k] == r + 1;
		if (mine && qg_port_kind(s, k) == kind)
			v[n++] = s->ports[k];
	}
	if (!n)
		return;
	char list[200], what[64], speeds[64];
	qg_ports_text(s, v, n, list, sizeof(list));
	qg_port_kind_text(hw, kind, what, sizeof(what));
	qg_switch_hw_speeds(hw, kind, speeds, sizeof(speeds));
	const char *take = kind->count == 1 ? "takes" : "take";
	if (r < 0)
		qg_error(d, pos,
			 "%s: %d is not a speed of %s's %s, which %s %s: %s here; give them a "
			 "role with its own speed_gbps, or leave speed_gbps out (each port then "
			 "runs at its kind's native speed, %d)",
			 key, gbps, hw->model, what, take, speeds, list, kind->native_gbps);
	else
		qg_error(d, pos, "%s: %d is not a speed of %s's %s, which %s %s: %s of the role",
			 key, gbps, hw->model, what, take, speeds, list);
}

void qg_port_kinds_check(const struct qg_switch *s, const char *path, struct qg_diags *d)
{
	const struct qg_switch_hw *hw = qg_switch_model_hw(s);
	if (!hw || !s->n_ports || !knows_panels(s))
		return;
	struct qg_port *v = calloc(s->n_ports, sizeof(*v));
	if (!v) {
		d->oom = true;
		return;
	}
	check_on_model(s, hw, path, v, d);
	char key[256];
	for (int kind = 0; kind < hw->n_kinds && s->speed_given; kind++) {
		snprintf(key, sizeof(key), "%s.speed_gbps", path);
		check_kind_speed(
		    s, hw, &hw->kinds[kind],
		    &(struct given_speed){
			.r = -1, .gbps = s->speed_gbps, .pos = s->speed_pos, .key = key},
		    v, d);
	}
	for (size_t r = 0; r < s->n_roles; r++)
		for (int kind = 0; kind < hw->n_kinds && s->roles[r].speed_gbps; kind++) {
			snprintf(key, sizeof(key), "%s.roles.%s.speed_gbps", path,
				 s->roles[r].name);
			check_kind_speed(s, hw, &hw->kinds[kind],
					 &(struct given_speed){.r = (int)r,
							       .gbps = s->roles[r].speed_gbps,
							       .pos = s->roles[r].speed_pos,
							       .key = key},
					 v, d);
		}
	free(v);
}
