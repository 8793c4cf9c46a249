/* SPDX-License-Identifier: MIT */
/*
 * model/warnings.c and model/warning_ids.c: the feature warnings' names are a
 * model's own, made from the registry it is loaded with (issue 38): every
 * target's ignored-by-<platform>-<feature> once, nothing kept between
 * models, names into the caller's buffer or the model's set; and the
 * lookups, aliases and did-you-means an intent's `acknowledge` uses.
 */
#include "helpers.h"

#include "../../model/target.h"
#include "../../model/warnings.h"
#include "../../targets/onyx/onyx.h"

/* How many features an intent can be warned of (buffer-pool is required, so not one). */
static size_t warnable(void)
{
	size_t n = 0;
	for (unsigned f = 1; qg_feature_name(f); f <<= 1)
		n += qg_feature_lookup(qg_feature_name(f)) != 0;
	return n;
}

/* Every target of the registry times every warnable feature, each once, known. */
static void test_made_from_registry(void **state)
{
	(void)state;
	struct qg_warning_set s;
	assert_int_equal(qg_warnings_make(&s, qg_targets), 0);
	size_t n_targets = 0;
	while (qg_targets[n_targets])
		n_targets++;
	assert_int_equal(s.n, n_targets * warnable());
	assert_true(warnable() >= 10);
	for (size_t t = 0; t < n_targets; t++)
		for (unsigned f = 1; qg_feature_name(f); f <<= 1) {
			const char *feature = qg_feature_name(f);
			if (!qg_feature_lookup(feature))
				continue;
			char name[QG_WARNING_NAME_LEN];
			snprintf(name, sizeof(name), "ignored-by-%s-%s", qg_targets[t]->name,
				 feature);
			enum qg_warning_id id =
			    qg_warning_feature_id(&s, qg_targets[t]->name, feature);
			assert_true(id >= QG_W_COUNT);
			assert_int_equal(qg_warning_lookup(&s, name), id);
			const struct qg_warning_info *w = qg_warning_set_info(&s, id);
			assert_string_equal(w->name, name);
			assert_int_equal(w->scope, QG_WS_INTENT);
			assert_true(qg_warning_set_row(&s, id)->known);
		}
	/* The fixed names need no set; a feature id means nothing without one. */
	assert_null(qg_warning_info(QG_W_COUNT));
	assert_null(qg_warning_set_info(&s, (enum qg_warning_id)(QG_W_COUNT + s.n)));
	qg_warning_set_free(&s);
	assert_int_equal(s.n, 0);
	assert_null(s.v);
}

/* The names as the intent gives them: the uniform one, the old one, the longest feature. */
static void test_lookup(void **state)
{
	(void)state;
	struct qg_warning_set s;
	assert_int_equal(qg_warnings_make(&s, qg_targets), 0);
	enum qg_warning_id id = qg_warning_lookup(&s, "ignored-by-onyx-pfc-watchdog");
	assert_true(id >= QG_W_COUNT);
	assert_int_equal(qg_warning_feature_id(&s, "onyx", "pfc-watchdog"), id);
	/* The names before issue 26 are aliases. */
	assert_int_equal(qg_warning_lookup(&s, "onyx-pfc-watchdog-not-written"), id);
	assert_string_equal(
	    qg_warning_set_info(&s, qg_warning_lookup(&s, "onyx-cable-length-not-written"))->name,
	    "ignored-by-onyx-cable-length");
	assert_string_equal(
	    qg_warning_set_info(&s, qg_warning_lookup(&s, "cumulus-restoration-ms-ignored"))->name,
	    "ignored-by-cumulus-pfc-watchdog-restoration");
	/* The longest feature name that ends it: restoration, not the watchdog. */
	assert_int_equal(qg_warning_lookup(&s, "ignored-by-onyx-pfc-watchdog-restoration"),
			 qg_warning_feature_id(&s, "onyx", "pfc-watchdog-restoration"));
	assert_int_equal(qg_warning_lookup(&s, "no-ecn"), QG_W_NO_ECN);
	assert_int_equal(qg_warning_lookup(&s, "ignored-by-onyx-pool"), QG_W_NONE);
	assert_int_equal(qg_warning_lookup(&s, "ignored-by-onyx-buffer-pool"), QG_W_NONE);
	qg_warning_set_free(&s);
}

/*
 * A platform the registry lacks: no name of s, but the intent's
 * acknowledgement of it gets a row, not known, the same id however often it
 * is named, so that it is refused once, where it is, and a second
 * acknowledgement of it is "twice".
 */
static void test_resolve_foreign(void **state)
{
	(void)state;
	struct qg_warning_set s;
	assert_int_equal(qg_warnings_make(&s, qg_targets), 0);
	size_t n = s.n;
	const char *x = "ignored-by-x-pfc-watchdog-restoration";
	assert_int_equal(qg_warning_lookup(&s, x), QG_W_NONE);
	enum qg_warning_id id = qg_warnings_resolve(&s, x);
	assert_int_equal(s.n, n + 1);
	const struct qg_feature_warning *f = qg_warning_set_row(&s, id);
	assert_non_null(f);
	assert_false(f->known);
	assert_string_equal(f->name, x);
	assert_int_equal(f->platform_len, 1);
	assert_string_equal(f->feature, "pfc-watchdog-restoration");
	assert_int_equal(qg_warnings_resolve(&s, x), id);
	assert_int_equal(qg_warning_lookup(&s, x), id);
	assert_int_equal(s.n, n + 1);
	/* A known one is not added again. */
	assert_int_equal(qg_warnings_resolve(&s, "ignored-by-onyx-ecn"),
			 qg_warning_lookup(&s, "ignored-by-onyx-ecn"));
	/* Not a platform name, not a feature, a required one: no name at all. */
	assert_int_equal(qg_warnings_resolve(&s, "ignored-by--ecn"), QG_W_NONE);
	assert_int_equal(qg_warnings_resolve(&s, "ignored-by-X-ecn"), QG_W_NONE);
	assert_int_equal(qg_warnings_resolve(&s, "ignored-by-x-pool"), QG_W_NONE);
	assert_int_equal(qg_warnings_resolve(&s, "ignored-by-x-buffer-pool"), QG_W_NONE);
	assert_int_equal(qg_warnings_resolve(&s, "no-such-warning"), QG_W_NONE);
	assert_int_equal(s.n, n + 1);
	/* Rows that moved (the set grows) still name themselves. */
	for (int i = 0; i < 200; i++) {
		char name[QG_WARNING_NAME_LEN];
		snprintf(name, sizeof(name), "ignored-by-p%d-ecn", i);
		assert_true(qg_warnings_resolve(&s, name) >= QG_W_COUNT);
	}
	for (size_t i = 0; i < s.n; i++)
		assert_ptr_equal(s.v[i].info.name, s.v[i].name);
	assert_string_equal(qg_warning_set_info(&s, id)->name, x);
	qg_warning_set_free(&s);
}

/* Did-you-mean into the caller's buffer; the list an intent may acknowledge. */
static void test_nearest_and_list(void **state)
{
	(void)state;
	char near[QG_WARNING_NAME_LEN];
	assert_ptr_equal(qg_warning_nearest("ignored-by-onyx-pfc-wachdog", near, sizeof(near)),
			 near);
	assert_string_equal(near, "ignored-by-onyx-pfc-watchdog");
	assert_string_equal(qg_warning_nearest("onyx-pfc-watchdog-not-writen", near, sizeof(near)),
			    "ignored-by-onyx-pfc-watchdog");
	assert_string_equal(qg_warning_nearest("no-ecm", near, sizeof(near)), "no-ecn");
	/* Two calls, two buffers: neither answer overwrites the other. */
	char other[QG_WARNING_NAME_LEN];
	const char *a = qg_warning_nearest("ignored-by-sonic-ecm", near, sizeof(near));
	const char *b = qg_warning_nearest("ignored-by-onyx-cnq", other, sizeof(other));
	assert_string_equal(a, "ignored-by-sonic-ecn");
	assert_string_equal(b, "ignored-by-onyx-cnp");
	assert_null(qg_warning_nearest("readback-line-skiped", near, sizeof(near)));
	char list[1024];
	qg_warning_acknowledgeable(list, sizeof(list));
	assert_non_null(strstr(list, "ignored-by-<platform>-<feature> (<feature>: pfc-watchdog, "));
	assert_null(strstr(list, "buffer-pool"));
	assert_null(strstr(list, "readback-line-skipped"));
}

/* A switch target that declares no features, on the onyx target's port syntax. */
static struct qg_target other;
static const struct qg_target *const other_registry[] = {&other, NULL};

/*
 * Each model's names are its own: a model loaded with another registry knows
 * only that registry's platforms, and one model's ids do not leak into the
 * next (the old table of 256 was the process's, filled on first use).
 */
static void test_per_model(void **state)
{
	(void)state;
	other = qg_target_onyx;
	other.name = "other";
	other.aliases = NULL;
	other.check = NULL;
	other.features = 0;
	other.gaps = NULL;
	static const char text[] = BASE_QOS "acknowledge: [ignored-by-other-ecn]\n";
	struct qg_diags d;
	struct qg_model a, b;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_intent_load(text, strlen(text), other_registry, &d, &a), 0);
	assert_int_equal(a.warnings.n, warnable());
	assert_true(qg_warning_set_row(&a.warnings, a.acks[0].warning)->known);
	qg_diags_free(&d);
	/* The real registry has no "other": refused there, as a platform qosgen does not know. */
	assert_int_equal(load_text(text, &d, &b), -1);
	assert_true(diag_has(&d, "acknowledge: 'ignored-by-other-ecn' names no platform qosgen "
				 "knows ('other'); the switch platforms: "));
	qg_diags_free(&d);
	/* a is untouched by b's load. */
	assert_string_equal(qg_warning_set_info(&a.warnings, a.acks[0].warning)->name,
			    "ignored-by-other-ecn");
	qg_model_free(&a);
	assert_int_equal(a.warnings.n, 0);
}

/* A foreign platform acknowledged twice: refused once, and "twice" at the second. */
static void test_foreign_twice(void **state)
{
	(void)state;
	static const char text[] =
	    BASE_QOS "acknowledge: [ignored-by-nosuch-ecn, ignored-by-nosuch-ecn]\n";
	struct qg_diags d;
	struct qg_model m;
	assert_int_equal(load_text(text, &d, &m), -1);
	size_t refused = 0;
	for (size_t i = 0; i < d.n; i++)
		refused += strstr(d.v[i].msg, "names no platform qosgen knows ('nosuch')") != NULL;
	assert_int_equal(refused, 1);
	assert_true(diag_has(&d, "'ignored-by-nosuch-ecn' is acknowledged twice"));
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_made_from_registry), cmocka_unit_test(test_lookup),
	    cmocka_unit_test(test_resolve_foreign),    cmocka_unit_test(test_nearest_and_list),
	    cmocka_unit_test(test_per_model),	       cmocka_unit_test(test_foreign_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
