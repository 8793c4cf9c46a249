/* SPDX-License-Identifier: MIT */
/*
 * targets/cumulus/nvue_readback.c: NVUE's range keys expanded and keys
 * named twice merged, in the order they first appear; a read-back whose
 * ranges would multiply it past the bound refused (issue 24, finding 6).
 */
#include "helpers.h"

#include <errno.h>
#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_readback.h"

/* The read-back's tree, printed without spaces; NULL when it is refused. */
static char *parsed(const char *text, struct qg_diags *d)
{
	cJSON *have = NULL;
	qg_diags_init(d, "rb");
	if (nvue_config_parse(text, strlen(text), &have, d) != 0)
		return NULL;
	char *s = cJSON_PrintUnformatted(have);
	cJSON_Delete(have);
	return s;
}

static void expect_tree(const char *text, const char *tree)
{
	struct qg_diags d;
	char *s = parsed(text, &d);
	assert_non_null(s);
	assert_string_equal(s, tree);
	cJSON_free(s);
	qg_diags_free(&d);
}

static void test_ranges_expand_in_order(void **state)
{
	(void)state;
	expect_tree("{\"interface\": {\"swp3\": {}, \"swp1,51-52\": {\"link\": {\"mtu\": 9216}},"
		    " \"swp2s0-1\": {\"type\": \"swp\"}}}",
		    "{\"interface\":{\"swp3\":{},\"swp1\":{\"link\":{\"mtu\":9216}},"
		    "\"swp51\":{\"link\":{\"mtu\":9216}},\"swp52\":{\"link\":{\"mtu\":9216}},"
		    "\"swp2s0\":{\"type\":\"swp\"},\"swp2s1\":{\"type\":\"swp\"}}}");
	/* Keys that are not ranges stand for themselves. */
	expect_tree("{\"qos\": {\"pfc\": {\"default-global\": {\"switch-priority\": "
		    "{\"0-2,4\": {}}}}}}",
		    "{\"qos\":{\"pfc\":{\"default-global\":{\"switch-priority\":"
		    "{\"0\":{},\"1\":{},\"2\":{},\"4\":{}}}}}}");
}

/*
 * A role's profiles (issue 28): their qosgen-<role> names stand for
 * themselves, whatever digits and dashes the role's name has, and the
 * interfaces bound to them expand like any other.
 */
static void test_role_profiles_read_back(void **state)
{
	(void)state;
	expect_tree("- set:\n"
		    "    interface:\n"
		    "      swp1-2,swp49s0:\n"
		    "        qos: {pfc: {profile: qosgen-rail1-3}}\n"
		    "    qos:\n"
		    "      pfc:\n"
		    "        qosgen-rail1-3: {cable-length: '40', switch-priority: {'3': {}}}\n"
		    "      congestion-control:\n"
		    "        qosgen-2-4:\n"
		    "          traffic-class: {'3': {min-threshold: '300000'}}\n",
		    "{\"interface\":{\"swp1\":{\"qos\":{\"pfc\":{\"profile\":\"qosgen-rail1-3\"}}},"
		    "\"swp2\":{\"qos\":{\"pfc\":{\"profile\":\"qosgen-rail1-3\"}}},"
		    "\"swp49s0\":{\"qos\":{\"pfc\":{\"profile\":\"qosgen-rail1-3\"}}}},"
		    "\"qos\":{\"pfc\":{\"qosgen-rail1-3\":{\"cable-length\":\"40\","
		    "\"switch-priority\":{\"3\":{}}}},\"congestion-control\":{\"qosgen-2-4\":"
		    "{\"traffic-class\":{\"3\":{\"min-threshold\":\"300000\"}}}}}}");
}

static void test_members_named_twice_merge(void **state)
{
	(void)state;
	/* swp2 in two ranges and by itself: one member, the objects merged, first place kept. */
	expect_tree("{\"interface\": {\"swp1-2\": {\"link\": {\"mtu\": 9000}},"
		    " \"swp2\": {\"link\": {\"state\": {\"up\": {}}}},"
		    " \"swp2-3\": {\"link\": {\"mtu\": 9216}}}}",
		    "{\"interface\":{\"swp1\":{\"link\":{\"mtu\":9000}},"
		    "\"swp2\":{\"link\":{\"mtu\":9216,\"state\":{\"up\":{}}}},"
		    "\"swp3\":{\"link\":{\"mtu\":9216}}}}");
	/* A value that is not an object replaces; objects after it merge into each other. */
	expect_tree("{\"system\": {\"hostname\": {\"a\": \"1\"}, \"hostname\": \"leaf1\","
		    " \"x\": {\"a\": \"1\"}, \"x\": \"s\", \"x\": {\"b\": \"2\"},"
		    " \"x\": {\"c\": \"3\", \"b\": \"4\"}}}",
		    "{\"system\":{\"hostname\":\"leaf1\",\"x\":{\"b\":\"4\",\"c\":\"3\"}}}");
	/* The same through YAML, where a startup.yaml names a member twice in two ranges. */
	expect_tree("- set:\n    interface:\n      swp1-2:\n        link:\n          mtu: 9000\n"
		    "      swp2,4:\n        type: swp\n",
		    "{\"interface\":{\"swp1\":{\"link\":{\"mtu\":\"9000\"}},"
		    "\"swp2\":{\"link\":{\"mtu\":\"9000\"},\"type\":\"swp\"},"
		    "\"swp4\":{\"type\":\"swp\"}}}");
}

/*
 * A range key copies its value to every member: 4,096 members of a value
 * of 300 objects would be 1.2 million from 4 KB, and a 16 MiB read-back of
 * such keys billions. Refused, saying so, before the copies are made.
 */
static void test_expansion_bounded(void **state)
{
	(void)state;
	struct qg_buf b = {0};
	qg_buf_puts(&b, "{\"interface\": {\"swp1-4096\": {");
	for (int k = 0; k < 300; k++)
		qg_buf_printf(&b, "%s\"k%d\": {}", k ? ", " : "", k);
	qg_buf_puts(&b, "}}}");
	struct qg_diags d;
	assert_null(parsed(b.data, &d));
	assert_true(d.n > 0);
	assert_non_null(strstr(d.v[0].msg, "range keys"));
	assert_non_null(strstr(d.v[0].msg, "more than"));
	qg_diags_free(&d);
	qg_buf_free(&b);
	/* The same range with a small value is a read-back like any other. */
	struct qg_diags d2;
	char *s = parsed("{\"interface\": {\"swp1-4096\": {\"link\": {\"mtu\": 9216}}}}", &d2);
	assert_non_null(s);
	cJSON_free(s);
	qg_diags_free(&d2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ranges_expand_in_order),
	    cmocka_unit_test(test_members_named_twice_merge),
	    cmocka_unit_test(test_role_profiles_read_back),
	    cmocka_unit_test(test_expansion_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
