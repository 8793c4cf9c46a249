/* SPDX-License-Identifier: MIT */
/*
 * Every warning qosgen emits has a stable name (issue 25), printed after its
 * message as gcc prints [-Wname], and listed in docs/intent.md. This header
 * is the bottom of model/ (it includes nothing of it): the ids, the fixed
 * names and the set of feature-warning names a model owns, so that
 * model/diag.h can name a warning without knowing the registry.
 *
 * The feature warnings, ignored-by-<platform>-<feature> (model/target_features.h),
 * are made once per model from the registry it is loaded with
 * (qg_warnings_make, model/warnings.h) and freed with it: their ids are
 * indices into that model's set, from QG_W_COUNT on, and mean nothing
 * to another model.
 */
#ifndef QG_WARNING_IDS_H
#define QG_WARNING_IDS_H

#include <stdbool.h>
#include <stddef.h>

/* In the order of docs/intent.md's table; QG_W_NONE is a diagnostic with no name (an error). */
enum qg_warning_id {
	QG_W_NONE = 0,
	QG_W_MTU_BELOW_ROCE_4096,
	QG_W_PCP_TRUST_DSCP_UNUSED,
	QG_W_ETS_WEIGHTS_OVER_100,
	QG_W_NO_ECN,
	QG_W_ECN_WITHOUT_CNP,
	QG_W_CNP_WITHOUT_ECN,
	QG_W_QOS_TOOL_IGNORED_FOR_VF,
	QG_W_HEADROOM_UNPROVEN,
	QG_W_STALE_ACKNOWLEDGEMENT,
	QG_W_READBACK_OTHER_HOSTNAME,
	QG_W_READBACK_LINE_SKIPPED,
	QG_W_VSPHERE_PLAIN_HTTP,
	QG_W_VSPHERE_TLS_UNCHECKED,
	QG_W_COUNT
	/* Ids from QG_W_COUNT on are a model's feature warnings (struct qg_warning_set). */
};

/* A warning's name and its NUL: "ignored-by-" PLATFORM "-" FEATURE fits. */
#define QG_WARNING_NAME_LEN 96

/*
 * What a warning is about. Only the intent's own warnings can be
 * acknowledged in it: a read-back's is about a device's state at one moment,
 * a stale acknowledgement about the acknowledgements themselves, and a
 * command line's about an option given on purpose for that one run.
 */
enum qg_warning_scope { QG_WS_INTENT, QG_WS_READBACK, QG_WS_ACKNOWLEDGE, QG_WS_COMMAND_LINE };

struct qg_warning_info {
	const char *name; /* kebab-case, stable: intents and scripts name it */
	enum qg_warning_scope scope;
	const char *meaning; /* one line, as docs/intent.md's table says it */
};

/* One ignored-by-<platform>-<feature>. */
struct qg_feature_warning {
	char name[QG_WARNING_NAME_LEN];
	size_t platform_len; /* the platform is name's characters after "ignored-by-" */
	const char *feature; /* qg_feature_name()'s, static */
	/*
	 * A platform of the registry. Not: one only an intent's acknowledgement
	 * names (qg_warnings_resolve), kept so that it is refused where it is.
	 */
	bool known;
	struct qg_warning_info info; /* info.name is name */
};

/* A model's feature warnings: id QG_W_COUNT + i is v[i]. Zeroed: none. */
struct qg_warning_set {
	struct qg_feature_warning *v;
	size_t n, cap;
	bool oom; /* a name could not be added: out of memory */
};

/* The fixed warning's name and meaning; NULL for QG_W_NONE, a feature id, or out of range. */
const struct qg_warning_info *qg_warning_info(enum qg_warning_id id);
/* The same for a fixed id or one of s's feature ids; NULL for the rest. */
const struct qg_warning_info *qg_warning_set_info(const struct qg_warning_set *s,
						  enum qg_warning_id id);
/* s's row for a feature id, or NULL. */
const struct qg_feature_warning *qg_warning_set_row(const struct qg_warning_set *s,
						    enum qg_warning_id id);
/* The id of "<feature>, ignored by <platform>" in s (feature: qg_feature_name()), or QG_W_NONE. */
enum qg_warning_id qg_warning_feature_id(const struct qg_warning_set *s, const char *platform,
					 const char *feature);
/*
 * Add ignored-by-<platform>-<feature> to s (known: a registry's platform);
 * its id, or QG_W_NONE when the name is too long or memory runs out (oom).
 */
enum qg_warning_id qg_warning_set_add(struct qg_warning_set *s, const char *platform,
				      const char *feature, bool known);
void qg_warning_set_free(struct qg_warning_set *s);

/*
 * The names these warnings had before the targets declared their features
 * (issue 26), still taken: the i-th old name and the name it has now, or NULL.
 */
const char *qg_warning_alias(size_t i);
const char *qg_warning_alias_name(size_t i);

#endif
