/* SPDX-License-Identifier: MIT */
#include "warning_ids.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Kept so that intents that acknowledge the old names still load. */
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

const char *qg_warning_alias_name(size_t i)
{
	return i < N_ALIASES ? aliases[i].name : NULL;
}

const struct qg_warning_info *qg_warning_info(enum qg_warning_id id)
{
	return id > QG_W_NONE && id < QG_W_COUNT ? &table[id] : NULL;
}

const struct qg_feature_warning *qg_warning_set_row(const struct qg_warning_set *s,
						    enum qg_warning_id id)
{
	if ((int)id < QG_W_COUNT || (size_t)id - QG_W_COUNT >= s->n)
		return NULL;
	return &s->v[(size_t)id - QG_W_COUNT];
}

const struct qg_warning_info *qg_warning_set_info(const struct qg_warning_set *s,
						  enum qg_warning_id id)
{
	const struct qg_feature_warning *f = qg_warning_set_row(s, id);
	return f ? &f->info : qg_warning_info(id);
}

#define FEATURE_PREFIX "ignored-by-"

enum qg_warning_id qg_warning_feature_id(const struct qg_warning_set *s, const char *platform,
					 const char *feature)
{
	size_t pl = strlen(platform);
	for (size_t i = 0; i < s->n; i++) {
		const struct qg_feature_warning *f = &s->v[i];
		if (f->platform_len == pl && !strcmp(f->feature, feature) &&
		    !strncmp(f->name + strlen(FEATURE_PREFIX), platform, pl))
			return (enum qg_warning_id)(QG_W_COUNT + i);
	}
	return QG_W_NONE;
}

enum qg_warning_id qg_warning_set_add(struct qg_warning_set *s, const char *platform,
				      const char *feature, bool known)
{
	enum qg_warning_id had = qg_warning_feature_id(s, platform, feature);
	if (had != QG_W_NONE)
		return had;
	char name[QG_WARNING_NAME_LEN];
	if ((size_t)snprintf(name, sizeof(name), FEATURE_PREFIX "%s-%s", platform, feature) >=
	    sizeof(name))
		return QG_W_NONE;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct qg_feature_warning *v = realloc(s->v, cap * sizeof(*v));
		if (!v) {
			s->oom = true;
			return QG_W_NONE;
		}
		s->v = v;
		s->cap = cap;
		/* The rows moved: each info names its own row's name again. */
		for (size_t i = 0; i < s->n; i++)
			s->v[i].info.name = s->v[i].name;
	}
	struct qg_feature_warning *f = &s->v[s->n];
	memcpy(f->name, name, strlen(name) + 1);
	f->platform_len = strlen(platform);
	f->feature = feature;
	f->known = known;
	f->info = (struct qg_warning_info){f->name, QG_WS_INTENT,
					   "a feature the intent gives that a platform's target "
					   "does not write (docs/targets.md)"};
	return (enum qg_warning_id)(QG_W_COUNT + s->n++);
}

void qg_warning_set_free(struct qg_warning_set *s)
{
	free(s->v);
	*s = (struct qg_warning_set){0};
}
