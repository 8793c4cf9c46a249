/* SPDX-License-Identifier: MIT */
#include "warnings.h"

#include "target_features.h"
#include "model.h"
#include "target.h"
#include "names.h"

#include <stdio.h>
#include <string.h>

/* Indexed by enum qg_warning_id; docs/intent.md's table lists the same rows. */
static const struct qg_warning_info table[QG_W_COUNT] = {
    [QG_W_MTU_BELOW_ROCE_4096] = {"mtu-below-roce-4096", QG_WS_INTENT,
				  "qos.mtu is too small for a RoCE path MTU of 4096"},
    [QG_W_PCP_TRUST_DSCP_UNUSED] = {"pcp-trust-dscp-unused", QG_WS_INTENT,
				    "trust is pcp: the DSCP values only set what hosts mark"},
    [QG_W_ETS_WEIGHTS_OVER_100] = {"ets-weights-over-100", QG_WS_INTENT,
				   "the classes' WRR weights add up to more than 100%"},
    [QG_W_NO_ECN] = {"no-ecn", QG_WS_INTENT,
		     "qos.lossless has no ecn: DCQCN is off and PFC alone holds the fabric"},
    [QG_W_ECN_WITHOUT_CNP] = {"ecn-without-cnp", QG_WS_INTENT,
			      "ecn is on but there is no cnp class: CNPs share the default "
			      "class"},
    [QG_W_CNP_WITHOUT_ECN] = {"cnp-without-ecn", QG_WS_INTENT,
			      "a cnp class without ecn: nothing marks ECN, so no CNP is sent"},
    [QG_W_QOS_TOOL_IGNORED_FOR_VF] = {"qos-tool-ignored-for-vf", QG_WS_INTENT,
				      "a host's qos_tool is ignored for function vf"},
    [QG_W_HEADROOM_UNPROVEN] =
	{"headroom-unproven", QG_WS_INTENT,
	 "a switch's lossless headroom cannot be proven: no model, or a port "
	 "without a cable length its OS has no default for"},
    [QG_W_STALE_ACKNOWLEDGEMENT] = {"stale-acknowledgement", QG_WS_ACKNOWLEDGE,
				    "the intent acknowledges a warning it does not trigger"},
    [QG_W_READBACK_OTHER_HOSTNAME] = {"readback-other-hostname", QG_WS_READBACK,
				      "a saved read-back names another switch than the one "
				      "diffed"},
    [QG_W_READBACK_LINE_SKIPPED] = {"readback-line-skipped", QG_WS_READBACK,
				    "a read-back line qosgen could not read was skipped"},
    [QG_W_VSPHERE_PLAIN_HTTP] = {"vsphere-plain-http", QG_WS_COMMAND_LINE,
				 "push --allow-http: the vSphere credentials cross the network "
				 "unencrypted"},
    [QG_W_VSPHERE_TLS_UNCHECKED] = {"vsphere-tls-unchecked", QG_WS_COMMAND_LINE,
				    "push --insecure: vCenter's certificate is not checked"},
};

/*
 * The names these warnings had before the targets declared their features
 * (issue 26), kept so that intents that acknowledge them still load.
 */
static const struct {
	const char *old, *name;
} aliases[] = {
    {"onyx-cable-length-not-written", "ignored-by-onyx-cable-length"},
    {"onyx-pfc-watchdog-not-written", "ignored-by-onyx-pfc-watchdog"},
    {"cumulus-restoration-ms-ignored", "ignored-by-cumulus-pfc-watchdog-restoration"},
};
#define N_ALIASES (sizeof(aliases) / sizeof(aliases[0]))

const char *qg_warning_alias(size_t i)
{
	return i < N_ALIASES ? aliases[i].old : NULL;
}

#define FEATURE_PREFIX "ignored-by-"
/*
 * Registry targets x features, with room for the names of other platforms
 * that intents acknowledge (a fuzzer feeds one process many): when full, a
 * new name is unknown and a new warning has no name, neither a crash.
 */
#define MAX_FEATURE_IDS 256
#define FEATURE_NAME_LEN 96

/* The feature warnings named so far: id QG_W_COUNT + index. */
static struct feature_id {
	char name[FEATURE_NAME_LEN];
	char platform[FEATURE_NAME_LEN];
	struct qg_warning_info info;
} feature_ids[MAX_FEATURE_IDS];
static size_t n_feature_ids;

static const struct feature_id *feature_row(enum qg_warning_id id)
{
	if ((int)id < QG_W_COUNT || (size_t)id - QG_W_COUNT >= n_feature_ids)
		return NULL;
	return &feature_ids[(size_t)id - QG_W_COUNT];
}

const struct qg_warning_info *qg_warning_info(enum qg_warning_id id)
{
	if (id <= QG_W_NONE)
		return NULL;
	if (id < QG_W_COUNT)
		return &table[id];
	const struct feature_id *f = feature_row(id);
	return f ? &f->info : NULL;
}

enum qg_warning_id qg_warning_feature_id(const char *platform, const char *feature)
{
	char name[FEATURE_NAME_LEN];
	if ((size_t)snprintf(name, sizeof(name), FEATURE_PREFIX "%s-%s", platform, feature) >=
	    sizeof(name))
		return QG_W_NONE;
	for (size_t i = 0; i < n_feature_ids; i++)
		if (!strcmp(feature_ids[i].name, name))
			return (enum qg_warning_id)(QG_W_COUNT + i);
	if (n_feature_ids == MAX_FEATURE_IDS)
		return QG_W_NONE;
	struct feature_id *f = &feature_ids[n_feature_ids];
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->platform, sizeof(f->platform), "%s", platform);
	f->info = (struct qg_warning_info){f->name, QG_WS_INTENT,
					   "a feature the intent gives that a platform's target "
					   "does not write (docs/targets.md)"};
	return (enum qg_warning_id)(QG_W_COUNT + n_feature_ids++);
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

/* ignored-by-<platform>-<feature>, the longest feature name that ends it; QG_W_NONE if none. */
static enum qg_warning_id feature_lookup(const char *name)
{
	size_t plen = strlen(FEATURE_PREFIX);
	if (strncmp(name, FEATURE_PREFIX, plen))
		return QG_W_NONE;
	const char *rest = name + plen;
	size_t n = strlen(rest);
	/* The feature is the part after a dash that names one; the longest wins. */
	for (size_t k = 0; k < n; k++) {
		if (rest[k] != '-' || !qg_feature_lookup(rest + k + 1))
			continue;
		char platform[FEATURE_NAME_LEN];
		if (k >= sizeof(platform) || !platform_ok(rest, k))
			return QG_W_NONE;
		memcpy(platform, rest, k);
		platform[k] = '\0';
		return qg_warning_feature_id(platform, rest + k + 1);
	}
	return QG_W_NONE;
}

enum qg_warning_id qg_warning_lookup(const char *name)
{
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return (enum qg_warning_id)i;
	for (size_t i = 0; i < N_ALIASES; i++)
		if (!strcmp(aliases[i].old, name))
			return feature_lookup(aliases[i].name);
	return feature_lookup(name);
}

/*
 * ignored-by-<platform>-<feature> with the feature misspelt: the same with
 * the nearest feature name (the whole name is too long for the edit
 * distance, and the platform's spelling is judged against the registry).
 */
static const char *feature_nearest(const char *name)
{
	static char out[FEATURE_NAME_LEN];
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
			if (d < best_d && (size_t)(dash - rest) < FEATURE_NAME_LEN / 2) {
				best_d = d;
				snprintf(out, sizeof(out), FEATURE_PREFIX "%.*s-%s",
					 (int)(dash - rest), rest, feature);
				best = out;
			}
			f += n;
			f += strspn(f, ", ");
		}
	}
	return best;
}

const char *qg_warning_nearest(const char *name)
{
	const char *best = NULL;
	size_t best_d = 4; /* the names are long: three edits is still a typo */
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT; i++) {
		size_t d = qg_edit_distance(name, table[i].name);
		if (table[i].scope == QG_WS_INTENT && d < best_d) {
			best_d = d;
			best = table[i].name;
		}
	}
	/* An old name misspelt: the name it has now. */
	for (size_t i = 0; i < N_ALIASES; i++) {
		size_t d = qg_edit_distance(name, aliases[i].old);
		if (d < best_d) {
			best_d = d;
			best = aliases[i].name;
		}
	}
	return best ? best : feature_nearest(name);
}

void qg_warning_acknowledgeable(char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (int i = QG_W_NONE + 1; i < QG_W_COUNT && o < len; i++)
		if (table[i].scope == QG_WS_INTENT)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? ", " : "",
					      table[i].name);
	char features[256];
	qg_feature_names(features, sizeof(features));
	if (o < len)
		snprintf(out + o, len - o,
			 "%s" FEATURE_PREFIX "<platform>-<feature> (<feature>: %s)", o ? ", " : "",
			 features);
}

/* Whether m's registry holds the platform an ignored-by-<platform>-<feature> names. */
static bool platform_known(const struct qg_model *m, const struct feature_id *f, char *list,
			   size_t len)
{
	size_t o = 0;
	list[0] = '\0';
	bool known = false;
	for (size_t t = 0; m->targets && m->targets[t]; t++) {
		known |= !strcmp(m->targets[t]->name, f->platform);
		if (m->targets[t]->kind == QG_DEVICE_SWITCH && o < len)
			o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "",
					      m->targets[t]->name);
	}
	return known;
}

void qg_warnings_acknowledge(const struct qg_model *m, struct qg_diags *d, bool judge_stale)
{
	for (size_t i = 0; i < m->n_acks; i++) {
		const struct qg_ack *a = &m->acks[i];
		const struct feature_id *f = feature_row(a->warning);
		char list[256];
		if (f && !judge_stale && !platform_known(m, f, list, sizeof(list)))
			qg_error(d, a->pos,
				 "acknowledge: '%s' names no platform qosgen knows ('%s'); the "
				 "switch platforms: %s",
				 f->name, f->platform, list);
		size_t n = qg_diags_acknowledge(d, a->warning);
		if (n == 0 && judge_stale && d->errors == 0)
			qg_warning(d, a->pos, QG_W_STALE_ACKNOWLEDGEMENT,
				   "acknowledge: '%s' is acknowledged, but this intent does not "
				   "trigger it; remove it from the list",
				   qg_warning_info(a->warning)->name);
	}
}
