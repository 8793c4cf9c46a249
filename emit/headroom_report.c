/* SPDX-License-Identifier: MIT */
#include "headroom_report.h"

#include "../model/bounds.h"
#include "../lib/fixed.h"
#include "../model/headroom.h"
#include "../model/names.h"
#include "../model/port_kind.h"
#include "../model/ports.h"
#include "../model/target.h"
#include "../model/warnings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ports of switch i that cannot be proven, as its OS writes runs, ","-joined into out. */
static void port_list(const struct qg_model *m, size_t i, char *out, size_t len)
{
	const struct qg_switch *s = &m->switches[i];
	struct qg_port *v = calloc(s->n_ports ? s->n_ports : 1, sizeof(*v));
	size_t n = 0;
	out[0] = '\0';
	for (size_t k = 0; v && k < s->n_ports; k++)
		if (qg_headroom_unproven(m, i, k))
			v[n++] = s->ports[k];
	if (v)
		qg_ports_text(s, v, n, out, len);
	free(v);
}

/* What cannot be proven of switch i: one warning, at the key that would prove it. */
static void warn_unproven(const struct qg_model *m, size_t i, const struct qg_headroom_switch *h,
			  const char *path, struct qg_diags *d)
{
	const struct qg_switch *s = &m->switches[i];
	if (!h->os) {
		qg_warning(d, s->pos, QG_W_HEADROOM_UNPROVEN,
			   "%s: lossless headroom not proven: platform %s declares no headroom "
			   "model (docs/targets.md)",
			   path, s->target->name);
		return;
	}
	if (!h->hw) {
		char models[256] = "";
		size_t o = 0;
		for (int k = 0; qg_switch_models[k] && o < sizeof(models); k++)
			o += (size_t)snprintf(models + o, sizeof(models) - o, "%s%s", k ? ", " : "",
					      qg_switch_models[k]);
		qg_warning(d, s->pos, QG_W_HEADROOM_UNPROVEN,
			   "%s: lossless headroom not proven: no model, so its ASIC, port speed "
			   "and buffer are unknown; give model (%s)",
			   path, models);
		return;
	}
	if (!h->all.unproven)
		return;
	char ports[200];
	port_list(m, i, ports, sizeof(ports));
	qg_warning(d, s->model_pos, QG_W_HEADROOM_UNPROVEN,
		   "%s: lossless headroom of %zu %s (%s) not proven: no cable length, and %s "
		   "documents no default (%s); give cable_length_m, the switch's or a role's",
		   path, h->all.unproven, h->all.unproven == 1 ? "port" : "ports", ports,
		   s->target->name, h->os->cable_source);
}

/*
 * Where the switch's ports are of more than one kind of its model, the
 * kind of a group's largest PG, " on a 100G port (front-panel 49-56)";
 * else "".
 */
static void kind_text(const struct qg_switch *s, const struct qg_headroom_group *g, char *out,
		      size_t len)
{
	char panels[40];
	out[0] = '\0';
	if (!g->max_kind || !qg_port_kinds_mixed(s))
		return;
	qg_port_kind_panels(g->max_kind, panels, sizeof(panels));
	snprintf(out, len, " on a %dG port (%s)", g->max_kind->native_gbps, panels);
}

/* A group's ports at one figure, for the notes: "16 ports at 100 Gb/s and 40 m: ...". */
static void group_text(const struct qg_switch *s, const struct qg_headroom_group *g, char *out,
		       size_t len)
{
	char kind[80];
	kind_text(s, g, kind, sizeof(kind));
	snprintf(out, len,
		 "%zu %s, the largest PG%s at %d Gb/s and %d m%s: %ld bytes (xoff %ld, xon %ld), "
		 "%ld in all",
		 g->ports - g->unproven, g->ports - g->unproven == 1 ? "port" : "ports", kind,
		 g->max.speed_gbps, g->max.cable_m, g->cable_default ? " (the OS's default)" : "",
		 g->max.size_bytes, g->max.xoff_bytes, g->max.xon_bytes, g->use_bytes);
}

/* Where a group's headroom is given: its cable length, else its role, else the model. */
static struct qg_pos group_pos(const struct qg_switch *s, size_t r)
{
	if (r < s->n_roles)
		return s->roles[r].cable_m ? s->roles[r].cable_pos : s->roles[r].pos;
	return s->cable_m && s->cable_pos.line ? s->cable_pos : s->model_pos;
}

/* Switch i's use above its budget: an error at the group that adds the most. */
static void refuse(const struct qg_model *m, size_t i, const struct qg_headroom_switch *h,
		   const char *path, struct qg_diags *d)
{
	const struct qg_switch *s = &m->switches[i];
	size_t top = s->n_roles; /* n_roles: the ports in no role */
	long top_use = h->no_role.use_bytes;
	for (size_t r = 0; r < s->n_roles; r++)
		if (h->roles[r].use_bytes > top_use) {
			top = r;
			top_use = h->roles[r].use_bytes;
		}
	const struct qg_headroom_pg *big = &h->all.max;
	long fit = big->size_bytes ? h->budget_bytes / big->size_bytes : 0;
	char budget[200], fixes[200];
	if (h->pool_bytes) {
		char pct[24], need[24];
		qg_centi_format(m->qos.pool_percent_centi, pct);
		/* The memory_percent that would hold it, rounded up to two decimals. */
		long long centi =
		    ((long long)h->all.use_bytes * 10000 + h->buffer_bytes - 1) / h->buffer_bytes;
		qg_centi_format(centi, need);
		snprintf(
		    budget, sizeof(budget),
		    "the lossless pool, %ld bytes (qos.lossless.pool.memory_percent %s of %s's "
		    "%ld-byte buffer)",
		    h->budget_bytes, pct, h->hw->model, h->buffer_bytes);
		if (centi <= 10000)
			snprintf(
			    fixes, sizeof(fixes),
			    "shorten the cables, put fewer ports in the lossless class (it holds "
			    "%ld of the largest PG), or raise memory_percent to %s",
			    fit, need);
		else
			snprintf(fixes, sizeof(fixes),
				 "shorten the cables or put fewer ports in the lossless class (it "
				 "holds %ld of the largest PG); no pool can hold it, the buffer is "
				 "smaller",
				 fit);
	} else {
		snprintf(
		    budget, sizeof(budget),
		    "%s's buffer, %ld bytes (%s sizes its pools from what the headroom leaves)",
		    h->hw->model, h->budget_bytes, s->target->name);
		snprintf(
		    fixes, sizeof(fixes),
		    "shorten the cables or put fewer ports in the lossless class (it holds %ld "
		    "of the largest PG)",
		    fit);
	}
	qg_error(d, group_pos(s, top),
		 "%s: the lossless headroom of its %zu ports, %ld bytes, does not fit %s; %s", path,
		 h->all.ports - h->all.unproven, h->all.use_bytes, budget, fixes);
	char text[320];
	for (size_t r = 0; r <= s->n_roles; r++) {
		const struct qg_headroom_group *g = r < s->n_roles ? &h->roles[r] : &h->no_role;
		if (!g->use_bytes)
			continue;
		group_text(s, g, text, sizeof(text));
		if (r < s->n_roles)
			qg_note(d, group_pos(s, r), "role '%s': %s", s->roles[r].name, text);
		else if (s->n_roles)
			qg_note(d, group_pos(s, r), "the ports in no role: %s", text);
		else
			qg_note(d, group_pos(s, r), "%s", text);
	}
}

void qg_headroom_check(const struct qg_model *m, struct qg_diags *d)
{
	struct qg_headroom_group roles[QG_ROLES_MAX];
	for (size_t i = 0; i < m->n_switches; i++) {
		const struct qg_switch *s = &m->switches[i];
		if (!s->target || !s->n_ports)
			continue;
		struct qg_headroom_switch h;
		qg_headroom_switch(m, i, roles, &h);
		char path[192];
		qg_device_path(path, sizeof(path), "switches", s->name, i);
		warn_unproven(m, i, &h, path, d);
		if (h.hw && h.os && h.all.use_bytes > h.budget_bytes)
			refuse(m, i, &h, path, d);
	}
}

/*
 * A group's largest PG and its sums into o; nulls where none is proven.
 * Where s's ports are of more than one kind of its model, port_kind: the
 * kind of the largest PG's port.
 */
static void group_json(cJSON *o, const struct qg_switch *s, const struct qg_headroom_group *g,
		       bool sums)
{
	const struct qg_headroom_pg *pg = &g->max;
	bool any = pg->size_bytes > 0;
	static const char *const keys[] = {"speed_gbps", "cable_length_m", "mtu",
					   "xoff_bytes", "xon_bytes",	   "size_bytes"};
	long v[] = {pg->speed_gbps, pg->cable_m,   pg->mtu,
		    pg->xoff_bytes, pg->xon_bytes, pg->size_bytes};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		cJSON_AddItemToObject(o, keys[k],
				      any ? cJSON_CreateNumber((double)v[k]) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "cable_default",
			      any ? cJSON_CreateBool(g->cable_default) : cJSON_CreateNull());
	if (qg_port_kinds_mixed(s)) {
		char what[64];
		if (any && g->max_kind)
			qg_port_kind_text(qg_switch_model_hw(s), g->max_kind, what, sizeof(what));
		cJSON_AddItemToObject(o, "port_kind",
				      any && g->max_kind ? cJSON_CreateString(what)
							 : cJSON_CreateNull());
	}
	if (!sums)
		return;
	cJSON_AddNumberToObject(o, "ports", (double)g->ports);
	cJSON_AddNumberToObject(o, "use_bytes", (double)g->use_bytes);
}

static cJSON *number_or_null(bool known, long v)
{
	return known ? cJSON_CreateNumber((double)v) : cJSON_CreateNull();
}

cJSON *qg_headroom_json(const struct qg_model *m, size_t i)
{
	struct qg_headroom_group roles[QG_ROLES_MAX];
	const struct qg_switch *s = &m->switches[i];
	struct qg_headroom_switch h;
	qg_headroom_switch(m, i, roles, &h);
	bool known = h.hw && h.os;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddItemToObject(o, "model",
			      h.hw ? cJSON_CreateString(h.hw->model) : cJSON_CreateNull());
	char asic[16];
	snprintf(asic, sizeof(asic), "Spectrum-%d", h.hw ? h.hw->asic->generation : 0);
	cJSON_AddItemToObject(o, "asic", h.hw ? cJSON_CreateString(asic) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "method",
			      !h.os			       ? cJSON_CreateNull()
			      : h.os->method == QG_HRM_DYNAMIC ? cJSON_CreateString("dynamic")
							       : cJSON_CreateString("sku-table"));
	cJSON_AddBoolToObject(o, "proven", known && !h.all.unproven);
	const char *why = s->n_ports ? qg_headroom_unproven(m, i, 0) : NULL;
	for (size_t k = 1; !why && h.all.unproven && k < s->n_ports; k++)
		why = qg_headroom_unproven(m, i, k);
	cJSON_AddItemToObject(o, "unproven", why ? cJSON_CreateString(why) : cJSON_CreateNull());
	group_json(o, s, &h.no_role, false);
	cJSON_AddNumberToObject(o, "ports", (double)h.all.ports);
	cJSON_AddNumberToObject(o, "unproven_ports", (double)h.all.unproven);
	cJSON_AddItemToObject(o, "use_bytes", number_or_null(known, h.all.use_bytes));
	cJSON_AddItemToObject(o, "budget",
			      !known	     ? cJSON_CreateNull()
			      : h.pool_bytes ? cJSON_CreateString("pool")
					     : cJSON_CreateString("buffer"));
	cJSON_AddItemToObject(o, "budget_bytes", number_or_null(known, h.budget_bytes));
	cJSON_AddItemToObject(o, "buffer_bytes", number_or_null(known, h.buffer_bytes));
	/* Whether the proven ports fit; null when none is. */
	bool any = known && h.all.unproven < h.all.ports;
	cJSON_AddItemToObject(o, "fits",
			      any ? cJSON_CreateBool(h.all.use_bytes <= h.budget_bytes)
				  : cJSON_CreateNull());
	/* Roles by name, as the model's JSON has them: the intent's order of its keys is no part of
	 * it. */
	size_t order[QG_ROLES_MAX], n = s->n_roles < QG_ROLES_MAX ? s->n_roles : QG_ROLES_MAX;
	for (size_t r = 0; r < n; r++) {
		size_t j = r;
		for (; j > 0 && strcmp(s->roles[order[j - 1]].name, s->roles[r].name) > 0; j--)
			order[j] = order[j - 1];
		order[j] = r;
	}
	cJSON *ro = n ? cJSON_AddObjectToObject(o, "roles") : NULL;
	for (size_t j = 0; ro && j < n; j++) {
		cJSON *g = cJSON_AddObjectToObject(ro, s->roles[order[j]].name);
		if (g)
			group_json(g, s, &roles[order[j]], true);
	}
	return o;
}
