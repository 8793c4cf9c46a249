/* SPDX-License-Identifier: MIT */
#include "target_features.h"

#include "bounds.h"
#include "devices.h"
#include "diag.h"
#include "model.h"
#include "names.h"
#include "target_ops.h"
#include "warning_ids.h"

#include <stdio.h>
#include <string.h>

/* A key of the intent that gives a feature: its path and where it is. */
struct site {
	char key[2 * QG_NAME_LEN + 48]; /* a role's key names the switch and the role */
	struct qg_pos pos;
};

/* The most keys of one switch that give one feature: its cable_length_m and each role's. */
#define SITES_MAX (QG_ROLES_MAX + 1)

/* The keys of m (of switch i, for a per-switch feature) that give the feature; their count. */
typedef size_t (*sites_fn)(const struct qg_model *m, size_t i, struct site out[SITES_MAX]);

struct row {
	unsigned feature;
	const char *name; /* in warning names: ignored-by-<platform>-<name> */
	/* Reported only where the target has this one: its own diagnostic covers the rest. */
	unsigned parent;
	bool per_switch;
	/*
	 * The core requires it where a used target writes it (the pool:
	 * intent_qos_settle_pool), so a warning to the others would be one a
	 * mixed fabric cannot avoid; only a refusal is reported.
	 */
	bool required;
	sites_fn sites;
};

static size_t one(struct site *s, struct qg_pos pos, const char *key)
{
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->pos = pos;
	return 1;
}

static size_t pfc_watchdog(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	if (m->qos.pfcwd.state == QG_PFCWD_UNMANAGED)
		return 0;
	return one(out, m->qos.pfcwd.pos, "qos.pfc_watchdog");
}

static size_t restoration(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	const struct qg_pfc_watchdog *wd = &m->qos.pfcwd;
	/* Off, the times are not written by anyone. */
	if (wd->state != QG_PFCWD_ON || !wd->restoration_given)
		return 0;
	return one(out, wd->restoration_pos, "qos.pfc_watchdog.restoration_ms");
}

/* The switch's cable_length_m, then each role's (issue 28): a port's length comes from one. */
static size_t cable_length(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	const struct qg_switch *s = &m->switches[i];
	if (!s->cable_m)
		return 0;
	char path[QG_NAME_LEN + 16];
	qg_device_path(path, sizeof(path), "switches", s->name, i);
	size_t n = 0;
	if (s->cable_pos.line) {
		snprintf(out[n].key, sizeof(out[n].key), "%s.cable_length_m", path);
		out[n++].pos = s->cable_pos;
	}
	for (size_t r = 0; r < s->n_roles; r++)
		if (s->roles[r].cable_m) {
			snprintf(out[n].key, sizeof(out[n].key), "%s.roles.%s.cable_length_m", path,
				 s->roles[r].name);
			out[n++].pos = s->roles[r].cable_pos;
		}
	return n;
}

/* Each role's ecn: its ports' thresholds instead of the policy's. */
static size_t role_ecn(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	const struct qg_switch *s = &m->switches[i];
	char path[QG_NAME_LEN + 16];
	qg_device_path(path, sizeof(path), "switches", s->name, i);
	size_t n = 0;
	for (size_t r = 0; r < s->n_roles; r++)
		if (s->roles[r].ecn_given) {
			snprintf(out[n].key, sizeof(out[n].key), "%s.roles.%s.ecn", path,
				 s->roles[r].name);
			out[n++].pos = s->roles[r].ecn_pos;
		}
	return n;
}

static size_t pool(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return one(out, m->qos.lossless.pos, "qos.lossless.pool");
}

static size_t ecn(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return m->qos.ecn ? one(out, m->qos.ecn_pos, "qos.lossless.ecn") : 0;
}

static size_t cnp(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return m->qos.cnp ? one(out, m->qos.cnpc.pos, "qos.cnp") : 0;
}

/* The classes the intent gives, with their names in keys. */
static size_t classes(const struct qg_model *m, const struct qg_class *c[2], const char *name[2])
{
	c[0] = &m->qos.lossless;
	name[0] = "qos.lossless";
	if (!m->qos.cnp)
		return 1;
	c[1] = &m->qos.cnpc;
	name[1] = "qos.cnp";
	return 2;
}

static size_t ets_mode(const struct qg_model *m, enum qg_ets_mode mode, struct site out[SITES_MAX])
{
	const struct qg_class *c[2];
	const char *name[2];
	size_t n = 0, k = classes(m, c, name);
	/* The intent's own ets only: a class without one takes each target's best (model.h). */
	for (size_t j = 0; j < k; j++)
		if (c[j]->ets.given && c[j]->ets.mode == mode) {
			snprintf(out[n].key, sizeof(out[n].key), "%s.ets", name[j]);
			out[n++].pos = c[j]->ets.pos;
		}
	return n;
}

static size_t ets_strict(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return ets_mode(m, QG_ETS_STRICT, out);
}

static size_t ets_wrr(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return ets_mode(m, QG_ETS_WRR, out);
}

static size_t tc_remap(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	const struct qg_class *c[2];
	const char *name[2];
	size_t n = 0, k = classes(m, c, name);
	for (size_t j = 0; j < k; j++)
		if (c[j]->tc_given && c[j]->traffic_class != c[j]->priority) {
			snprintf(out[n].key, sizeof(out[n].key), "%s.traffic_class", name[j]);
			out[n++].pos = c[j]->tc_pos;
		}
	return n;
}

static size_t trust_pcp(const struct qg_model *m, size_t i, struct site out[SITES_MAX])
{
	(void)i;
	return m->qos.trust == QG_TRUST_PCP ? one(out, m->qos.trust_pos, "qos.trust") : 0;
}

/* In the order of model/target_features.h; docs/targets.md lists the same. */
static const struct row rows[] = {
    {QG_FEAT_PFC_WATCHDOG, "pfc-watchdog", 0, false, false, pfc_watchdog},
    {QG_FEAT_PFC_WATCHDOG_RESTORATION, "pfc-watchdog-restoration", QG_FEAT_PFC_WATCHDOG, false,
     false, restoration},
    {QG_FEAT_CABLE_LENGTH, "cable-length", 0, true, false, cable_length},
    {QG_FEAT_BUFFER_POOL, "buffer-pool", 0, false, true, pool},
    {QG_FEAT_ECN, "ecn", 0, false, false, ecn},
    {QG_FEAT_CNP, "cnp", 0, false, false, cnp},
    {QG_FEAT_ETS_STRICT, "ets-strict", 0, false, false, ets_strict},
    {QG_FEAT_ETS_WRR, "ets-wrr", 0, false, false, ets_wrr},
    {QG_FEAT_TC_REMAP, "traffic-class", 0, false, false, tc_remap},
    {QG_FEAT_TRUST_PCP, "trust-pcp", 0, false, false, trust_pcp},
    {QG_FEAT_ROLE_ECN, "role-ecn", QG_FEAT_ECN, true, false, role_ecn},
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

const char *qg_feature_name(unsigned feature)
{
	for (size_t r = 0; r < N_ROWS; r++)
		if (rows[r].feature == feature)
			return rows[r].name;
	return NULL;
}

/* The features an intent may be warned of: not the ones it must give. */
unsigned qg_feature_lookup(const char *name)
{
	for (size_t r = 0; r < N_ROWS; r++)
		if (!rows[r].required && !strcmp(rows[r].name, name))
			return rows[r].feature;
	return 0;
}

void qg_feature_names(char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t r = 0; r < N_ROWS && o < len; r++)
		if (!rows[r].required)
			o +=
			    (size_t)snprintf(out + o, len - o, "%s%s", o ? ", " : "", rows[r].name);
}

static const struct qg_feature_gap *gap_of(const struct qg_target *t, unsigned feature)
{
	for (const struct qg_feature_gap *g = t->gaps; g && g->feature; g++)
		if (g->feature == feature)
			return g;
	return NULL;
}

/* The diagnostic at site s; a warning is named from the model's set (model/warning_ids.h). */
static void report(const struct qg_warning_set *w, const struct qg_target *t, const struct row *r,
		   const struct qg_feature_gap *g, const struct site *s, struct qg_diags *d)
{
	char fallback[96];
	snprintf(fallback, sizeof(fallback), "the %s target does not write it", t->name);
	const char *reason = g && g->reason ? g->reason : fallback;
	if (g && g->refused)
		qg_error(d, s->pos, "%s: refused by %s: %s", s->key, t->name, reason);
	else {
		enum qg_warning_id id = qg_warning_feature_id(w, t->name, r->name);
		const struct qg_warning_info *info = qg_warning_set_info(w, id);
		qg_warning_named(d, s->pos, id, info ? info->name : NULL, "%s: ignored by %s: %s",
				 s->key, t->name, reason);
	}
}

void qg_features_check(const struct qg_model *m, struct qg_diags *d)
{
	for (size_t t = 0; m->targets && m->targets[t]; t++) {
		const struct qg_target *tg = m->targets[t];
		if (tg->kind != QG_DEVICE_SWITCH || !qg_target_used(m, tg))
			continue;
		for (size_t r = 0; r < N_ROWS; r++) {
			const struct row *row = &rows[r];
			if ((tg->features & row->feature) ||
			    (row->parent && !(tg->features & row->parent)))
				continue;
			const struct qg_feature_gap *g = gap_of(tg, row->feature);
			if (row->required && !(g && g->refused))
				continue;
			struct site s[SITES_MAX];
			if (!row->per_switch) {
				size_t n = row->sites(m, 0, s);
				for (size_t k = 0; k < n; k++)
					report(&m->warnings, tg, row, g, &s[k], d);
				continue;
			}
			for (size_t i = 0; i < m->n_switches; i++) {
				if (m->switches[i].target != tg)
					continue;
				size_t n = row->sites(m, i, s);
				for (size_t k = 0; k < n; k++)
					report(&m->warnings, tg, row, g, &s[k], d);
			}
		}
	}
}
