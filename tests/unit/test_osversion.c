/* SPDX-License-Identifier: MIT */
/*
 * model/osversion.c: versions compared over the bound's numbers, dialects
 * found, a running version matched against a build's; and the loader's
 * os_version (issue 34): quoted where YAML reads a number, refused outside
 * a target's versions or for a target that declares none, the newest when
 * not given.
 */
#include "helpers.h"

static const struct qg_dialect dialects[] = {
    {"5.9", "enable", "nv set qos roce enable on", "notes 5.9"},
    {"5.15", "state", "nv set qos roce state enabled", "notes 5.15"},
    {0},
};
static const struct qg_os_versions versions = {.os = "Test OS",
					       .oldest = "5.9",
					       .newest = "5.15",
					       .source = "the notes",
					       .dialects = dialects};

static void test_version_ok(void **state)
{
	(void)state;
	assert_true(qg_version_ok("5"));
	assert_true(qg_version_ok("5.15"));
	assert_true(qg_version_ok("3.10.4100"));
	assert_true(qg_version_ok("202311"));
	assert_true(qg_version_ok("1.2.3.4"));
	assert_false(qg_version_ok(""));
	assert_false(qg_version_ok("1.2.3.4.5"));
	assert_false(qg_version_ok("5."));
	assert_false(qg_version_ok(".5"));
	assert_false(qg_version_ok("5..1"));
	assert_false(qg_version_ok("5.15-rc1"));
	assert_false(qg_version_ok("1234567890"));
	assert_false(qg_version_ok("v5"));
}

static void test_version_cmp(void **state)
{
	(void)state;
	assert_true(qg_version_cmp("5.9", "5.15") < 0); /* numbers, not text */
	assert_true(qg_version_cmp("5.15", "5.9") > 0);
	assert_int_equal(qg_version_cmp("5.15.2", "5.15"), 0); /* over the bound's numbers */
	assert_true(qg_version_cmp("5.15.2", "5.15.3") < 0);
	assert_int_equal(qg_version_cmp("5", "5.0"), 0); /* a missing number is 0 */
	assert_true(qg_version_cmp("5", "5.1") < 0);
	assert_true(qg_version_cmp("202405", "202311") > 0);
}

static void test_dialects(void **state)
{
	(void)state;
	assert_true(qg_os_version_supported(&versions, "5.9"));
	assert_true(qg_os_version_supported(&versions, "5.15.4"));
	assert_true(qg_os_version_supported(&versions, "5.12"));
	assert_false(qg_os_version_supported(&versions, "5.8.9"));
	assert_false(qg_os_version_supported(&versions, "5.16"));
	assert_null(qg_os_dialect(&versions, "5.8"));
	assert_string_equal(qg_os_dialect(&versions, "5.9.1")->name, "enable");
	assert_string_equal(qg_os_dialect(&versions, "5.14")->name, "enable");
	assert_string_equal(qg_os_dialect(&versions, "5.15.0")->name, "state");

	char msg[768];
	assert_int_equal(qg_os_version_match(&versions, "5.15", "5.15.1", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(&versions, "5.10", "5.12.3", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(&versions, "5.15", "5.12.3", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "runs Test OS 5.12.3, which speaks the enable dialect (notes "
				    "5.9), but the build is for 5.15, the state dialect: set its "
				    "os_version to 5.12.3"));
	assert_int_equal(qg_os_version_match(&versions, "5.15", "6.0", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "outside the versions qosgen writes (5.9 to 5.15, the notes)"));
	assert_int_equal(qg_os_version_match(&versions, "5.15", "5.15;reboot", msg, sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "no version qosgen can read"));
}

/* The registry's Onyx target with versions of its own, or none. */
static struct qg_target versioned;
static const struct qg_target *test_targets[2] = {&versioned, NULL};

static int load_with(const struct qg_os_versions *vs, const char *os_version_line,
		     struct qg_diags *d, struct qg_model *m)
{
	for (size_t i = 0; qg_targets[i]; i++)
		if (!strcmp(qg_targets[i]->name, "onyx"))
			versioned = *qg_targets[i];
	versioned.versions = vs;
	char text[2048];
	snprintf(text, sizeof(text),
		 BASE_QOS "switches:\n"
			  "  - {name: sw1, platform: onyx, address: 192.0.2.1, ports: [1/1]%s}\n",
		 os_version_line);
	qg_diags_init(d, "t.yaml");
	return qg_intent_load(text, strlen(text), test_targets, d, m);
}

static void expect_load(const struct qg_os_versions *vs, const char *line, const char *needle,
			const char *want)
{
	struct qg_diags d;
	struct qg_model m = {0};
	int rc = load_with(vs, line, &d, &m);
	if (needle ? !diag_has(&d, needle) : d.n != 0)
		qg_diags_print(&d, stderr, false);
	if (needle) {
		assert_int_equal(rc, -1);
		assert_true(diag_has(&d, needle));
	} else {
		assert_int_equal(rc, 0);
		assert_string_equal(m.switches[0].os_version, want);
		assert_int_equal(m.switches[0].os_version_given, line[0] != '\0');
		qg_model_free(&m);
	}
	qg_diags_free(&d);
}

static void test_load(void **state)
{
	(void)state;
	expect_load(&versions, "", NULL, "5.15");
	expect_load(&versions, ", os_version: \"5.9\"", NULL, "5.9");
	expect_load(&versions, ", os_version: '5.10'", NULL, "5.10");
	expect_load(&versions, ", os_version: 5.12.1", NULL, "5.12.1"); /* text to YAML too */
	expect_load(&versions, ", os_version: 5.10",
		    "switches[sw1].os_version: 5.10 is a number to YAML, not text (5.10 is 5.1 to "
		    "other readers of the intent); quote it: \"5.10\"",
		    NULL);
	expect_load(&versions, ", os_version: \"5.4\"",
		    "switches[sw1].os_version: Test OS 5.4 is not a version onyx writes: 5.9 to "
		    "5.15 (the notes)",
		    NULL);
	expect_load(&versions, ", os_version: \"5.15;reboot\"", "expected " QG_VERSION_RULE, NULL);
	expect_load(NULL, ", os_version: \"3.10\"",
		    "platform onyx declares no OS versions, so it writes one dialect for all; "
		    "leave os_version out",
		    NULL);
	expect_load(NULL, "", NULL, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_ok),
	    cmocka_unit_test(test_version_cmp),
	    cmocka_unit_test(test_dialects),
	    cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
