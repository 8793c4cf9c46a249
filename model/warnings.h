/* SPDX-License-Identifier: MIT */
/*
 * Every warning qosgen emits has a stable name (issue 25), printed after its
 * message as gcc prints [-Wname], and listed in docs/intent.md. A name lets
 * an intent acknowledge a warning on purpose (its `acknowledge` key), so that
 * `check --strict` can pass on a fabric that knowingly keeps one: an Onyx
 * switch with a PFC watchdog the onyx target does not write, say
 * (ignored-by-onyx-pfc-watchdog).
 */
#ifndef QG_WARNINGS_H
#define QG_WARNINGS_H

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
	/*
	 * Ids from QG_W_COUNT on are the features a platform ignores
	 * (model/target_features.h), named ignored-by-<platform>-<feature>: one per
	 * pair, made when first named (qg_warning_feature_id, qg_warning_lookup).
	 */
};

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

/* The warning's name and meaning; NULL for QG_W_NONE or out of range. */
const struct qg_warning_info *qg_warning_info(enum qg_warning_id id);
/*
 * The id of a name, or QG_W_NONE. ignored-by-<platform>-<feature> is known
 * for any platform name (the core holds no list of them): an intent's
 * acknowledgement of a platform its registry lacks is refused by
 * qg_warnings_acknowledge(). The names the warnings had before features
 * were declared (onyx-pfc-watchdog-not-written, ...) are aliases of theirs.
 */
enum qg_warning_id qg_warning_lookup(const char *name);
/*
 * The id of "<feature>, ignored by <platform>" (feature: qg_feature_name()),
 * made on first use; QG_W_NONE when the table of them is full (256 pairs).
 * Not thread-safe: ids are made while an intent is loaded and checked.
 */
/* The i-th old name still taken for a feature warning (see qg_warning_lookup), or NULL. */
const char *qg_warning_alias(size_t i);
enum qg_warning_id qg_warning_feature_id(const char *platform, const char *feature);
/* The name nearest to an unknown one (edit distance 1..3), or NULL: a did-you-mean. */
const char *qg_warning_nearest(const char *name);
/* The names an intent may acknowledge, ", "-separated, into out. */
void qg_warning_acknowledgeable(char *out, size_t len);

struct qg_model;
struct qg_diags;
/*
 * Mark d's warnings that the intent's `acknowledge` key names (not printed,
 * not counted: model/diag.h). The first run (judge_stale false) also refuses
 * an ignored-by-<platform>-<feature> whose platform m's registry lacks.
 * Run after the parse and again after the targets' check()s; the last
 * run, with judge_stale, also warns of each acknowledgement that no warning
 * in d matches (stale-acknowledgement), so that the list does not outlive
 * its reasons. Stale is judged only on an intent without errors: a check()
 * that stopped at an error may not have reached its warnings.
 */
void qg_warnings_acknowledge(const struct qg_model *m, struct qg_diags *d, bool judge_stale);

#endif
