/* SPDX-License-Identifier: MIT */
/*
 * What a target implements of the intent (issue 26): each target declares
 * its features (struct qg_target's features and gaps, model/target.h), and
 * this module alone turns a feature the intent gives and a used target
 * lacks into a diagnostic, one per key the intent gives it, worded the same
 * for every target:
 *
 *   intent.yaml:11:17: warning: qos.pfc_watchdog: ignored by onyx: <reason>
 *	[ignored-by-onyx-pfc-watchdog]
 *
 * or, for a feature the target declares refused, the same as an error
 * ("refused by sonic: ..."). A warning's name is ignored-by-<platform>-<feature>
 * (model/warnings.h), so an intent can acknowledge it. A new target that
 * declares nothing is told about every feature it would drop silently
 * (tests/core/skeleton.sh).
 */
#ifndef QG_TARGET_FEATURES_H
#define QG_TARGET_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The intent's features a switch target may lack, as bits of
 * qg_target.features. Each has a row in model/target_features.c: its name in
 * warning names, the keys that give it, and how to tell they are given.
 */
enum qg_feature {
	QG_FEAT_PFC_WATCHDOG = 1u << 0,		    /* qos.pfc_watchdog */
	QG_FEAT_PFC_WATCHDOG_RESTORATION = 1u << 1, /* qos.pfc_watchdog.restoration_ms */
	QG_FEAT_CABLE_LENGTH = 1u << 2,		    /* a switch's cable_length_m */
	QG_FEAT_BUFFER_POOL = 1u << 3,		    /* qos.lossless.pool */
	QG_FEAT_ECN = 1u << 4,			    /* qos.lossless.ecn */
	QG_FEAT_CNP = 1u << 5,			    /* qos.cnp, its own class */
	QG_FEAT_ETS_STRICT = 1u << 6,		    /* a class's ets: strict */
	QG_FEAT_ETS_WRR = 1u << 7,		    /* a class's ets: {mode: wrr, weight} */
	QG_FEAT_TC_REMAP = 1u << 8,  /* a class's traffic_class other than its priority */
	QG_FEAT_TRUST_PCP = 1u << 9, /* qos.trust: pcp */
	QG_FEAT_ROLE_ECN = 1u << 10, /* a switch's port role's ecn: ECN thresholds per port */
};

/*
 * Every feature before issue 28: what a target that implements the whole
 * intent declares. QG_FEAT_ROLE_ECN is declared on its own by the targets
 * that write it (issue 28 adds it target by target), so that a target not
 * yet writing a role's thresholds says so instead of dropping them.
 */
#define QG_FEAT_ALL ((1u << 10) - 1)

/* Why a target lacks a feature, in the target's words; and whether it refuses it. */
struct qg_feature_gap {
	unsigned feature; /* one QG_FEAT_*; 0 ends the list */
	/*
	 * Refused: an error (the intent cannot be built for the target), for a
	 * feature whose absence would make the device do something else than
	 * the intent says. Otherwise ignored: a warning, the device keeps its own.
	 */
	bool refused;
	const char *reason; /* lower case, no full stop: "Onyx documents no ..." */
};

/* A feature's name in warning names ("pfc-watchdog"); NULL for none or several bits. */
const char *qg_feature_name(unsigned feature);
/*
 * The feature of a name, or 0. Of the features an intent can be warned of:
 * not those the core requires where a used target writes them (buffer-pool).
 */
unsigned qg_feature_lookup(const char *name);
/* Their names, ", "-separated, into out (docs and diagnostics). */
void qg_feature_names(char *out, size_t len);

struct qg_model;
struct qg_diags;
/*
 * For each used switch target and each feature the intent gives that it
 * lacks: the diagnostic above, at every key that gives it (a per-switch key,
 * cable_length_m, at each switch of the target that gives it). A feature
 * the core requires where a used target writes it (the pool) is never
 * "ignored": a fabric that mixes targets cannot leave it out. A feature under another (restoration_ms under
 * pfc_watchdog) is reported only where the target has the one above it.
 */
void qg_features_check(const struct qg_model *m, struct qg_diags *d);

#endif
