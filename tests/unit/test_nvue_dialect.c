/* SPDX-License-Identifier: MIT */
/*
 * targets/cumulus/nvue_dialect.c: Cumulus Linux's versions and NVUE dialects,
 * the build written for each, a read-back of another dialect, and the running
 * version read off NVUE's system answer (real answers in tests/nvue/real/).
 */
#include "helpers.h"

#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_patch.h"
#include "../../targets/cumulus/nvue_readback.h"
#include "../../targets/cumulus/nvue_dialect.h"

#include <cjson/cJSON.h>

#define CUMULUS_LEAF(extra)                                                                        \
	"switches:\n  - {name: leaf1, platform: cumulus, address: 10.0.0.1, user: cumulus, "       \
	"ports: [swp1-2]" extra "}\n"

/* The table: 5.6 to 5.16, the rename at 5.15, every 5.15.x and 5.16.x in it. */
static void test_versions_and_dialects(void **state)
{
	(void)state;
	assert_string_equal(nvue_versions.oldest, "5.6");
	assert_string_equal(nvue_versions.newest, "5.16");
	assert_int_equal(nvue_dialect_of("5.6"), NVUE_ROCE_ENABLE);
	assert_int_equal(nvue_dialect_of("5.9.1"), NVUE_ROCE_ENABLE);
	assert_int_equal(nvue_dialect_of("5.14.0"), NVUE_ROCE_ENABLE);
	assert_int_equal(nvue_dialect_of("5.15"), NVUE_ROCE_STATE);
	assert_int_equal(nvue_dialect_of("5.15.2"), NVUE_ROCE_STATE);
	assert_int_equal(nvue_dialect_of("5.16.3"), NVUE_ROCE_STATE);
	/* A model made without the loader: the newest's. */
	assert_int_equal(nvue_dialect_of(""), NVUE_ROCE_STATE);
	assert_int_equal(nvue_dialect_of(NULL), NVUE_ROCE_STATE);
	assert_true(qg_os_version_supported(&nvue_versions, "5.16.3"));
	assert_false(qg_os_version_supported(&nvue_versions, "5.5.1"));
	assert_false(qg_os_version_supported(&nvue_versions, "5.17"));
	char msg[512];
	assert_int_equal(qg_os_version_match(&nvue_versions, "5.16", "5.15.0", msg, sizeof(msg)),
			 0);
	assert_int_equal(qg_os_version_match(&nvue_versions, "5.16", "5.14.1", msg, sizeof(msg)),
			 -1);
	assert_non_null(strstr(msg, "roce-enable"));
	assert_non_null(strstr(msg, "5.14.1"));
}

/* The qos roce switch of switch i's tree. */
static const cJSON *roce_of(const struct qg_model *m, cJSON **tree)
{
	*tree = nvue_config_from_model(m, 0);
	assert_non_null(*tree);
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(*tree, "qos"),
						"roce");
}

/* A build writes its os_version's words: the files, the commands and the settings. */
static void test_build_speaks_the_dialect(void **state)
{
	(void)state;
	struct qg_model m;
	cJSON *tree;
	load_ok(BASE_QOS CUMULUS_LEAF(", os_version: \"5.9\""), &m);
	const cJSON *roce = roce_of(&m, &tree);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(roce, "enable")),
			    "on");
	assert_null(cJSON_GetObjectItemCaseSensitive(roce, "state"));
	cJSON_Delete(tree);
	struct qg_outset o;
	build_ok(&m, &o);
	assert_non_null(strstr(file_text(&o, "nvue/leaf1.nv"), "nv set qos roce enable on\n"));
	assert_non_null(strstr(file_text(&o, "nvue/leaf1.json"), "\"enable\": \"on\""));
	qg_outset_free(&o);
	qg_model_free(&m);

	/* Not given: the newest, 5.16, the roce-state dialect. */
	load_ok(BASE_QOS CUMULUS_LEAF(""), &m);
	roce = roce_of(&m, &tree);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(roce, "state")),
			    "enabled");
	assert_null(cJSON_GetObjectItemCaseSensitive(roce, "enable"));
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(roce, "mode")),
			    "lossless");
	cJSON_Delete(tree);
	build_ok(&m, &o);
	assert_non_null(strstr(file_text(&o, "nvue/leaf1.nv"), "nv set qos roce state enabled\n"));
	assert_non_null(strstr(file_text(&o, "nvue/leaf1.yaml"), "        state: enabled\n"));
	assert_null(strstr(file_text(&o, "nvue/leaf1.nv"), "roce enable"));
	qg_outset_free(&o);
	qg_model_free(&m);

	/* Outside the range: refused at the key, with the range. */
	load_fails_with(BASE_QOS CUMULUS_LEAF(", os_version: \"5.5.1\""), "5.6 to 5.16");
	load_fails_with(BASE_QOS CUMULUS_LEAF(", os_version: \"5.17\""), "5.6 to 5.16");
}

/* diff from a saved read-back of another release: refused, naming both dialects. */
static void test_readback_of_another_dialect(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS CUMULUS_LEAF(""), &m);
	cJSON *want = nvue_config_from_model(&m, 0), *have = NULL;
	struct qg_diags d;
	qg_diags_init(&d, "rb.yaml");
	const char *old = "- set:\n    qos:\n      roce: {enable: on, mode: lossless}\n";
	assert_int_equal(nvue_config_parse(old, strlen(old), &have, &d), 0);
	assert_int_equal(nvue_dialect_judge(want, have, &d), 1);
	assert_true(diag_has(&d, "has 'enable', which Cumulus Linux 5.14 and earlier writes"));
	assert_true(diag_has(&d, "roce-state"));
	assert_true(diag_has(&d, "os_version"));
	cJSON_Delete(have);
	qg_diags_free(&d);
	/* The same dialect, or a switch with no RoCE at all: nothing to say. */
	qg_diags_init(&d, "rb.yaml");
	const char *same = "- set:\n    qos:\n      roce: {state: disabled}\n";
	assert_int_equal(nvue_config_parse(same, strlen(same), &have, &d), 0);
	assert_int_equal(nvue_config_judge(want, have, &d), 0);
	cJSON_Delete(have);
	const char *none = "- set:\n    system: {hostname: leaf1}\n";
	assert_int_equal(nvue_config_parse(none, strlen(none), &have, &d), 0);
	assert_int_equal(nvue_dialect_judge(want, have, &d), 0);
	cJSON_Delete(have);
	qg_diags_free(&d);
	cJSON_Delete(want);
	qg_model_free(&m);

	/* The other way: a 5.9 build against a 5.15 switch's read-back. */
	load_ok(BASE_QOS CUMULUS_LEAF(", os_version: \"5.9\""), &m);
	want = nvue_config_from_model(&m, 0);
	qg_diags_init(&d, "rb.yaml");
	const char *new = "- set:\n    qos:\n      roce: {state: enabled, mode: lossless}\n";
	assert_int_equal(nvue_config_parse(new, strlen(new), &have, &d), 0);
	assert_int_equal(nvue_config_judge(want, have, &d), 1);
	assert_true(diag_has(&d, "has 'state', which Cumulus Linux 5.15 and later writes"));
	cJSON_Delete(have);
	qg_diags_free(&d);
	cJSON_Delete(want);
	qg_model_free(&m);
}

/* The running version off NVUE's answers, as NVIDIA's pages print them. */
static void test_real_system_answers(void **state)
{
	(void)state;
	char v[QG_VERSION_LEN], err[256];
	char *text = source_file("tests/nvue/real/system-api-cl540.json");
	cJSON *sys = cJSON_Parse(text);
	assert_non_null(sys);
	assert_int_equal(nvue_system_version(sys, v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "5.4.0");
	cJSON_Delete(sys);
	free(text);
	/* `nv show system`: the build row's operational column. */
	text = source_file("tests/nvue/real/show-system-cl550.txt");
	char *row = strstr(text, "\nbuild ");
	assert_non_null(row);
	row += strlen("\nbuild ");
	row += strspn(row, " ");
	char build[NVUE_BUILD_MAX + 1];
	size_t n = strcspn(row, "\n");
	while (n > 0 && row[n - 1] == ' ')
		n--;
	assert_true(n < sizeof(build));
	memcpy(build, row, n);
	build[n] = '\0';
	assert_int_equal(nvue_build_version(build, v, sizeof(v)), 0);
	assert_string_equal(v, "5.5.0");
	free(text);
}

/* The parser is bounded and takes only a Cumulus Linux version. */
static void test_build_text(void **state)
{
	(void)state;
	char v[QG_VERSION_LEN], err[256];
	assert_int_equal(nvue_build_version("Cumulus Linux 5.15.0", v, sizeof(v)), 0);
	assert_string_equal(v, "5.15.0");
	/* 5.4.0c (the 5.4 What's New): the maintenance letter goes. */
	assert_int_equal(nvue_build_version("Cumulus Linux 5.4.0c", v, sizeof(v)), 0);
	assert_string_equal(v, "5.4.0");
	const char *bad[] = {"",
			     "Cumulus Linux",
			     "Cumulus Linux ",
			     "Cumulus Linux 5..1",
			     "Cumulus Linux 5.15.0 ",
			     "Cumulus Linux 5.15.0C",
			     "Cumulus Linux 5.15.0cc",
			     "cumulus linux 5.15.0",
			     "SONiC 202311",
			     "Cumulus Linux 5.15.0\n",
			     "Cumulus Linux 1.2.3.4.5",
			     "Cumulus Linux 1234567890.1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (nvue_build_version(bad[i], v, sizeof(v)) == 0)
			fail_msg("took build '%s' as %s", bad[i], v);
	char longest[NVUE_BUILD_MAX + 16];
	snprintf(longest, sizeof(longest), "Cumulus Linux 5.%0*d", NVUE_BUILD_MAX, 1);
	assert_int_equal(nvue_build_version(longest, v, sizeof(v)), -1);
	/* No build, or a hostile one: refused, the switch's text escaped. */
	cJSON *sys = cJSON_Parse("{\"hostname\": \"leaf1\"}");
	assert_int_equal(nvue_system_version(sys, v, sizeof(v), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no build"));
	cJSON_Delete(sys);
	sys = cJSON_Parse("{\"build\": \"Cumulus Linux \\u001b[2J5.15\"}");
	assert_int_equal(nvue_system_version(sys, v, sizeof(v), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "\\x1b[2J"));
	assert_null(strchr(err, '\033'));
	cJSON_Delete(sys);
	sys = cJSON_Parse("{\"build\": 515}");
	assert_int_equal(nvue_system_version(sys, v, sizeof(v), err, sizeof(err)), -1);
	cJSON_Delete(sys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_versions_and_dialects),
	    cmocka_unit_test(test_build_speaks_the_dialect),
	    cmocka_unit_test(test_readback_of_another_dialect),
	    cmocka_unit_test(test_real_system_answers),
	    cmocka_unit_test(test_build_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
