/* SPDX-License-Identifier: MIT */
/*
 * The warnings by name (issue 25; the ids and fixed names: model/warning_ids.h).
 * A name lets an intent acknowledge a warning on purpose (its `acknowledge`
 * key), so that `check --strict` can pass on a fabric that knowingly keeps
 * one: an Onyx switch with a PFC watchdog the onyx target does not write,
 * say (ignored-by-onyx-pfc-watchdog).
 *
 * The feature warnings' names are a model's own (issue 38): made once from
 * the registry the intent is loaded with (qg_warnings_make, in
 * qg_intent_load), held in its struct qg_warning_set, freed with it. The
 * core keeps no table of them between models and no buffer of its own:
 * a name comes back into the caller's buffer or points into the set.
 */
#ifndef QG_WARNINGS_H
#define QG_WARNINGS_H

#include "warning_ids.h"

#include <stdbool.h>
#include <stddef.h>

struct qg_target;
/*
 * Fill s with ignored-by-<platform>-<feature> for every target of registry
 * (NULL-terminated) and every feature an intent can be warned of
 * (qg_feature_lookup), in registry order: the names a features check may
 * give and an intent may acknowledge. 0, or -ENOMEM (s freed).
 */
int qg_warnings_make(struct qg_warning_set *s, const struct qg_target *const *registry);

/*
 * The id of a name in s, or QG_W_NONE: a fixed warning's, a feature
 * warning's of s (ignored-by-<platform>-<feature>, read as the longest
 * feature name that ends it), or an old name's (qg_warning_alias).
 */
enum qg_warning_id qg_warning_lookup(const struct qg_warning_set *s, const char *name);
/*
 * The id of a name an intent acknowledges: qg_warning_lookup()'s, or, for
 * ignored-by-<platform>-<feature> of a platform the registry lacks (the
 * core holds no list of platforms), a row s adds for it, not known, so that
 * qg_warnings_acknowledge() refuses it where it is acknowledged, once.
 * QG_W_NONE for any other name (or out of memory: s->oom).
 */
enum qg_warning_id qg_warnings_resolve(struct qg_warning_set *s, const char *name);
/*
 * The name nearest to an unknown one (edit distance 1..3) into out (len
 * bytes), and out; NULL when none: a did-you-mean. A feature warning with
 * its feature misspelt is judged on the feature (the whole name is too long
 * for the edit distance), whatever its platform.
 */
const char *qg_warning_nearest(const char *name, char *out, size_t len);
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
