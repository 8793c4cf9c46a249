/* SPDX-License-Identifier: MIT */
/*
 * model/target_features.c: a feature the intent gives and a used switch target
 * lacks is one diagnostic per key, worded and named the same for every
 * target (the names' set: test_warnings.c).
 */
#include "helpers.h"

#include "../../model/target.h"
#include "../../model/warnings.h"
#include "../../targets/onyx/onyx.h"

/*
 * Every feature given: the watchdog with its restoration time, a cable
 * length on each of two switches, ECN, a CNP class, both ETS modes, a
 * traffic class remap and trust pcp; a model, so that their headroom is
 * proven (issue 34) and the warnings are the features' alone.
 */
static const char everything[] =
    "version: 1\nfabric: t\nqos:\n  trust: pcp\n"
    "  lossless: {priority: 3, traffic_class: 4, dscp: [26], pool: {name: roce, "
    "memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}, ets: {mode: wrr, weight: 50}}\n"
    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
    "  pfc_watchdog: {restoration_ms: 400}\n"
    "switches:\n"
    "  - {name: a, platform: fake, address: a.example.net, ports: [1/1], cable_length_m: 5,\n"
    "     model: SN2700}\n"
    "  - {name: b, platform: fake, address: b.example.net, ports: [1/1], cable_length_m: 7,\n"
    "     model: SN2700}\n";

/* A switch target that declares features, built on the onyx target's port syntax. */
static struct qg_target fake;
static const struct qg_target *const registry[] = {&fake, NULL};

static void fake_reset(unsigned features, const struct qg_feature_gap *gaps)
{
	fake = qg_target_onyx;
	fake.name = "fake";
	fake.aliases = NULL;
	fake.check = NULL;
	fake.features = features;
	fake.gaps = gaps;
}

/* Load text for the fake registry and run the check; the diagnostics in d. */
static int check(const char *text, struct qg_diags *d)
{
	struct qg_model m;
	qg_diags_init(d, "t.yaml");
	int rc = qg_intent_load(text, strlen(text), registry, d, &m);
	if (rc != 0)
		return rc;
	rc = qg_build_check(&m, d, NULL);
	qg_warnings_acknowledge(&m, d, true);
	qg_model_free(&m);
	return rc;
}

static size_t count(const struct qg_diags *d, const char *needle)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		n += strstr(d->v[i].msg, needle) != NULL;
	return n;
}

/* A warning named name at key: exactly one. */
static void one_warning(struct qg_diags *d, const char *key, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct qg_diag *g = &d->v[i];
		if (!strncmp(g->msg, key, strlen(key)) && g->msg[strlen(key)] == ':') {
			assert_int_equal(g->sev, QG_SEV_WARNING);
			assert_true(g->warning >= QG_W_COUNT);
			assert_string_equal(g->warning_name, name);
			n++;
		}
	}
	if (n != 1)
		qg_diags_print(d, stderr, false);
	assert_int_equal(n, 1);
}

static void test_nothing_declared_everything_ignored(void **state)
{
	(void)state;
	fake_reset(0, NULL);
	struct qg_diags d;
	assert_int_equal(check(everything, &d), 0);
	one_warning(&d, "qos.pfc_watchdog", "ignored-by-fake-pfc-watchdog");
	one_warning(&d, "switches[a].cable_length_m", "ignored-by-fake-cable-length");
	one_warning(&d, "switches[b].cable_length_m", "ignored-by-fake-cable-length");
	one_warning(&d, "qos.lossless.ecn", "ignored-by-fake-ecn");
	one_warning(&d, "qos.cnp", "ignored-by-fake-cnp");
	one_warning(&d, "qos.cnp.ets", "ignored-by-fake-ets-strict");
	one_warning(&d, "qos.lossless.ets", "ignored-by-fake-ets-wrr");
	one_warning(&d, "qos.lossless.traffic_class", "ignored-by-fake-traffic-class");
	one_warning(&d, "qos.trust", "ignored-by-fake-trust-pcp");
	/* The watchdog's own warning covers its restoration time; the pool is required. */
	assert_int_equal(count(&d, "ignored by fake"), 9);
	assert_true(diag_has(&d, "qos.lossless.ecn: ignored by fake: the fake target does not "
				 "write it"));
	qg_diags_free(&d);
}

static void test_declared_features_quiet(void **state)
{
	(void)state;
	fake_reset(QG_FEAT_ALL, NULL);
	struct qg_diags d;
	assert_int_equal(check(everything, &d), 0);
	assert_int_equal(count(&d, "ignored by"), 0);
	qg_diags_free(&d);
	/* The watchdog without its restoration time: that one alone, in the target's words. */
	static const struct qg_feature_gap gaps[] = {
	    {QG_FEAT_PFC_WATCHDOG_RESTORATION, false, "no such time here"},
	    {0, false, NULL},
	};
	fake_reset(QG_FEAT_ALL & ~QG_FEAT_PFC_WATCHDOG_RESTORATION, gaps);
	assert_int_equal(check(everything, &d), 0);
	assert_int_equal(count(&d, "ignored by"), 1);
	assert_true(diag_has(&d, "qos.pfc_watchdog.restoration_ms: ignored by fake: no such time "
				 "here"));
	qg_diags_free(&d);
}

static void test_refused_is_an_error(void **state)
{
	(void)state;
	static const struct qg_feature_gap gaps[] = {
	    {QG_FEAT_TRUST_PCP, true, "it classifies by DSCP alone"},
	    {0, false, NULL},
	};
	fake_reset(QG_FEAT_ALL & ~QG_FEAT_TRUST_PCP, gaps);
	struct qg_diags d;
	assert_int_equal(check(everything, &d), -1);
	assert_true(diag_has(&d, "qos.trust: refused by fake: it classifies by DSCP alone"));
	qg_diags_free(&d);
}

/* The intent acknowledges by the uniform name or by the old one; both silence it. */
static void test_acknowledged(void **state)
{
	(void)state;
	fake_reset(QG_FEAT_ALL & ~QG_FEAT_ECN, NULL);
	char text[2048];
	snprintf(text, sizeof(text), "%sacknowledge: [ignored-by-fake-ecn]\n", everything);
	struct qg_diags d;
	assert_int_equal(check(text, &d), 0);
	assert_int_equal(d.warnings, 1); /* pcp-trust-dscp-unused */
	qg_diags_free(&d);
	/* A platform the registry lacks is refused at the entry. */
	snprintf(text, sizeof(text), "%sacknowledge: [ignored-by-fkae-ecn]\n", everything);
	assert_int_equal(check(text, &d), -1);
	assert_true(diag_has(&d, "'ignored-by-fkae-ecn' names no platform qosgen knows ('fkae'); "
				 "the switch platforms: fake"));
	qg_diags_free(&d);
}

/*
 * A port role's ecn and cable length (issue 28): one warning each at the
 * role's key where the target lacks them; none where it declares role-ecn;
 * nothing of a role's ecn where the target lacks ECN itself.
 */
static void test_role_features(void **state)
{
	(void)state;
	static const char roles[] =
	    "version: 1\nfabric: t\nqos:\n"
	    "  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}, "
	    "ecn: {min_kb: 150, max_kb: 1500}}\n"
	    "  cnp: {priority: 6, dscp: 48, ets: strict}\n"
	    "switches:\n"
	    "  - {name: a, platform: fake, address: a.example.net, ports: [1/1-1/4],\n"
	    "     cable_length_m: {1/1-1/2: 3},\n"
	    "     roles: {hosts: {ports: 1/1-1/2, ecn: {min_kb: 100, max_kb: 900}},\n"
	    "             spines: {ports: 1/3-1/4, cable_length_m: 40,\n"
	    "                      ecn: {min_kb: 300, max_kb: 3000}}}}\n";
	struct qg_diags d;
	fake_reset(QG_FEAT_ALL & ~QG_FEAT_CABLE_LENGTH, NULL);
	assert_int_equal(check(roles, &d), 0);
	one_warning(&d, "switches[a].cable_length_m", "ignored-by-fake-cable-length");
	one_warning(&d, "switches[a].roles.spines.cable_length_m", "ignored-by-fake-cable-length");
	one_warning(&d, "switches[a].roles.hosts.ecn", "ignored-by-fake-role-ecn");
	one_warning(&d, "switches[a].roles.spines.ecn", "ignored-by-fake-role-ecn");
	assert_int_equal(count(&d, "ignored by fake"), 4);
	qg_diags_free(&d);
	fake_reset(QG_FEAT_ALL | QG_FEAT_ROLE_ECN, NULL);
	assert_int_equal(check(roles, &d), 0);
	assert_int_equal(count(&d, "ignored by"), 0);
	qg_diags_free(&d);
	fake_reset(QG_FEAT_ALL & ~QG_FEAT_ECN, NULL);
	assert_int_equal(check(roles, &d), 0);
	one_warning(&d, "qos.lossless.ecn", "ignored-by-fake-ecn");
	assert_int_equal(count(&d, "ignored by fake"), 1);
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nothing_declared_everything_ignored),
	    cmocka_unit_test(test_declared_features_quiet),
	    cmocka_unit_test(test_refused_is_an_error),
	    cmocka_unit_test(test_acknowledged),
	    cmocka_unit_test(test_role_features),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
