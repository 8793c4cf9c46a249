/* SPDX-License-Identifier: MIT */
#include "warnings.h"

#include "diag.h"
#include "model.h"
#include "names.h"
#include "target_ops.h"
#include "target_features.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define FEATURE_PREFIX "ignored-by-"

int qg_warnings_make(struct qg_warning_set *s, const struct qg_target *const *registry)
{
	*s = (struct qg_warning_set){0};
	for (size_t t = 0; registry && registry[t]; t++)
		for (unsigned f = 1; qg_feature_name(f); f <<= 1) {
			const char *feature = qg_feature_name(f);
			if (qg_feature_lookup(feature))
				qg_warning_set_add(s, registry[t]->name, feature, true);
		}
	if (s->oom) {
		qg_warning_set_free(s);
		return -ENOMEM;
	}
	return 0;
}

/* A platform name as the registry's are: [a-z0-9_], then [a-z0-9_-]. */
static bool platform_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      (i > 0 && s[i] == '-')))
			return false;
	return n > 0;
}

/*
 * ignored-by-<platform>-<feature>: the platform into platform and the
 * feature's static name, the longest feature name that ends it; NULL if none.
 */
static const char *feature_parse(const char *name, char platform[QG_WARNING_NAME_LEN])
{
	size_t plen = strlen(FEATURE_PREFIX);
	if (strncmp(name, FEATURE_PREFIX, plen))
		return NULL;
	const char *rest = name + plen;
	size_t n = strlen(rest);
	/* The feature is the part after a dash that names one; the longest wins. */
	for (size_t k = 0; k < n; k++) {
		unsigned f;
		if (rest[k] != '-' || !(f = qg_feature_lookup(rest + k + 1)))
			continue;
		if (k >= QG_WARNING_NAME_LEN || !platform_ok(rest, k))
			return NULL;
		memcpy(platform, rest, k);
		platform[k] = '\0';
		return qg_feature_name(f);
	}
	return NULL;
}

/* An old name's name now; name itself when it is none. */
static const char *unalias(const char *name)
{
	for (size_t i = 0; qg_warning_alias(i); i++)
		if (!strcmp(qg_warning_alias(i), name))
			return qg_warning_alias_name(i);
	return name;
}

enum qg_warning_id qg_warning_lookup(const struct qg_warning_set *s, const char *name)
{
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++)
		if (!strcmp(qg_warning_info((enum qg_warning_id)i)->name, name))
			return (enum qg_warning_id)i;
	char platform[QG_WARNING_NAME_LEN];
	const char *feature = feature_parse(unalias(name), platform);
	return feature ? qg_warning_feature_id(s, platform, feature) : QG_W_NONE;
}

enum qg_warning_id qg_warnings_resolve(struct qg_warning_set *s, const char *name)
{
	enum qg_warning_id id = qg_warning_lookup(s, name);
	if (id != QG_W_NONE)
		return id;
	char platform[QG_WARNING_NAME_LEN];
	const char *feature = feature_parse(unalias(name), platform);
	return feature ? qg_warning_set_add(s, platform, feature, false) : QG_W_NONE;
}

/*
 * ignored-by-<platform>-<feature> with the feature misspelt: the same with
 * the nearest feature name into out (the whole name is too long for the
 * edit distance, and the platform's spelling is judged against the registry).
 */
static const char *feature_nearest(const char *name, char *out, size_t len)
{
	size_t plen = strlen(FEATURE_PREFIX), best_d = 4;
	const char *best = NULL;
	if (strncmp(name, FEATURE_PREFIX, plen))
		return NULL;
	const char *rest = name + plen;
	char names[256];
	qg_feature_names(names, sizeof(names));
	for (const char *dash = strchr(rest, '-'); dash; dash = strchr(dash + 1, '-')) {
		for (char *f = names; *f;) {
			size_t n = strcspn(f, ",");
			char feature[64];
			snprintf(feature, sizeof(feature), "%.*s", (int)n, f);
			size_t d = qg_edit_distance(dash + 1, feature);
			if (d < best_d && (size_t)(dash - rest) < QG_WARNING_NAME_LEN / 2) {
				best_d = d;
				snprintf(out, len, FEATURE_PREFIX "%.*s-%s", (int)(dash - rest),
					 rest, feature);
				best = out;
			}
			f += n;
			f += strspn(f, ", ");
		}
	}
	return best;
}

const char *qg_warning_nearest(const char *name, char *out, size_t len)
{
	const char *best = NULL;
	size_t best_d = 4; /* the names are long: three edits is still a typo */
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++) {
		const struct qg_warning_info *w = qg_warning_info((enum qg_warning_id)i);
		size_t d = qg_edit_distance(name, w->name);
		if (w->scope == QG_WS_INTENT && d < best_d) {
			best_d = d;
			best = w->name;
		}
	}
	/* An old name misspelt: the name it has now. */
	for (size_t i = 0; qg_warning_alias(i); i++) {
		size_t d = qg_edit_distance(name, qg_warning_alias(i));
		if (d < best_d) {
			best_d = d;
			best = qg_warning_alias_name(i);
		}
	}
	if (!best)
		return feature_nearest(name, out, len);
	snprintf(out, len, "%s", best);
	return out;
}

void qg_warning_acknowledgeable(char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT && o < len; i++) {
		const struct qg_warning_info *w = qg_warning_info((enum qg_warning_id)i);
		if (w->scope == QG_WS_INTENT)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? ", " : "", w->name);
	}
	char features[256];
	qg_feature_names(features, sizeof(features));
	if (o < len)
		snprintf(out + o, len - o,
			 "%s" FEATURE_PREFIX "<platform>-<feature> (<feature>: %s)", o ? ", " : "",
			 features);
}

/* The switch platforms of m's registry, ", "-separated, into list. */
static void switch_platforms(const struct qg_model *m, char *list, size_t len)
{
	size_t o = 0;
	list[0] = '\0';
	for (size_t t = 0; m->targets && m->targets[t]; t++)
		if (m->targets[t]->kind == QG_DEVICE_SWITCH && o < len)
			o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "",
					      m->targets[t]->name);
}

void qg_warnings_acknowledge(const struct qg_model *m, struct qg_diags *d, bool judge_stale)
{
	if (m->warnings.oom)
		d->oom = true;
	for (size_t i = 0; i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		const struct qg_feature_warning *f = qg_warning_set_row(&m->warnings, a->warning);
		if (f && !f->known && !judge_stale) {
			char list[256];
			switch_platforms(m, list, sizeof(list));
			qg_error(d, a->pos,
				 "acknowledge: '%s' names no platform qosgen knows ('%.*s'); the "
				 "switch platforms: %s",
				 f->name, (int)f->platform_len, f->name + strlen(FEATURE_PREFIX),
				 list);
		}
		size_t n = qg_diags_acknowledge(d, a->warning);
		if (n == 0 && judge_stale && d->errors == 0)
			qg_warning(d, a->pos, QG_W_STALE_ACKNOWLEDGEMENT,
				   "acknowledge: '%s' is acknowledged, but this intent does not "
				   "trigger it; remove it from the list",
				   qg_warning_set_info(&m->warnings, a->warning)->name);
	}
}
