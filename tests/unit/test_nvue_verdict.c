/* SPDX-License-Identifier: MIT */
/*
 * targets/cumulus/nvue_verdict.c: NVUE's own verdict on the RoCE state it
 * applied. The status objects below carry the keys and values of the RoCE
 * page's `nv show qos roce` and `nv show interface swp16 qos roce status`
 * examples (CumulusNetworks/docs content/cumulus-linux-56/Layer-1-and-Switch-
 * Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md, "Verify RoCE
 * Configuration"), as JSON: the page prints them as tables only.
 */
#include "helpers.h"

#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_verdict.h"

#include <cjson/cJSON.h>

#define LEAF                                                                                       \
	"switches:\n  - {name: leaf1, platform: cumulus, address: 10.0.0.1, user: cumulus, "       \
	"ports: [swp16]}\n"

/* `nv show qos roce`, operational column: mode lossless, pfc on 3, ECN on 0 and 3. */
#define ROCE_OK                                                                                    \
	"{\"mode\": \"lossless\", \"congestion-control\": {\"congestion-mode\": \"ECN\", "         \
	"\"enabled-tc\": \"0,3\"}, \"pfc\": {\"pfc-priority\": \"3\", \"rx-enabled\": "            \
	"\"enabled\", \"tx-enabled\": \"enabled\"}}"
/* `nv show interface swp16 qos roce status`: its pfc rows. */
#define PORT_OK                                                                                    \
	"{\"mode\": \"lossless\", \"pfc\": {\"pfc-priority\": \"3\", \"rx-enabled\": \"yes\", "    \
	"\"tx-enabled\": \"yes\"}}"

static cJSON *want_tree(struct qg_model *m, const char *qos_extra)
{
	char text[2048];
	snprintf(text, sizeof(text), "%s%s%s", BASE_QOS, qos_extra, LEAF);
	load_ok(text, m);
	cJSON *w = nvue_config_from_model(m, 0);
	assert_non_null(w);
	return w;
}

static int roce(const cJSON *want, const char *json, char *err, size_t errlen)
{
	cJSON *s = cJSON_Parse(json);
	assert_non_null(s);
	int rc = nvue_verdict_roce(want, s, err, errlen);
	cJSON_Delete(s);
	return rc;
}

static int port(const cJSON *want, const char *json, char *err, size_t errlen)
{
	cJSON *s = json ? cJSON_Parse(json) : NULL;
	int rc = nvue_verdict_port(want, "swp16", s, err, errlen);
	cJSON_Delete(s);
	return rc;
}

/* The page's own status holds the reference policy; each row NVUE does not run is refused. */
static void test_roce_status(void **state)
{
	(void)state;
	struct qg_model m;
	cJSON *want = want_tree(&m, "");
	char err[512];
	assert_int_equal(roce(want, ROCE_OK, err, sizeof(err)), 0);
	assert_int_equal(roce(want,
			      "{\"mode\": \"lossy\", \"pfc\": {\"pfc-priority\": \"3\", "
			      "\"rx-enabled\": \"enabled\", \"tx-enabled\": \"enabled\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "RoCE mode (nv show qos roce) is 'lossy', where qos roce "
				    "mode lossless is applied"));
	/* No status at all: RoCE is not running (a switch that answers {}). */
	assert_int_equal(roce(want, "{}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is (none)"));
	assert_int_equal(roce(want,
			      "{\"mode\": \"lossless\", \"congestion-control\": {\"enabled-tc\": "
			      "\"0,3\"}, \"pfc\": {\"rx-enabled\": \"enabled\", \"tx-enabled\": "
			      "\"enabled\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "pfc pfc-priority is (none), where qos pfc default-global "
				    "switch-priority 3 is applied"));
	assert_int_equal(roce(want,
			      "{\"mode\": \"lossless\", \"congestion-control\": {\"enabled-tc\": "
			      "\"0,3\"}, \"pfc\": {\"pfc-priority\": \"3\", \"rx-enabled\": "
			      "\"disabled\", \"tx-enabled\": \"enabled\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "pfc rx-enabled is 'disabled', where qos pfc default-global rx "
				    "enable is applied"));
	assert_int_equal(roce(want,
			      "{\"mode\": \"lossless\", \"congestion-control\": {\"enabled-tc\": "
			      "\"0\"}, \"pfc\": {\"pfc-priority\": \"3\", \"rx-enabled\": "
			      "\"enabled\", \"tx-enabled\": \"enabled\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err,
			       "enabled-tc is '0', where qos congestion-control default-global "
			       "traffic-class 3 ecn enable is applied"));
	/* What the switch says comes back escaped and cut. */
	assert_int_equal(roce(want, "{\"mode\": \"\\u001b[2Jlossless\"}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'\\x1b[2Jlossless'"));
	assert_null(strchr(err, '\033'));
	cJSON_Delete(want);
	qg_model_free(&m);

	/* Without ECN in the intent, NVUE's marking of other classes is not judged. */
	struct qg_model m2;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless: {priority: 4, dscp: [34], pool: {name: "
		"roce, memory_percent: 50}}\n" LEAF,
		&m2);
	want = nvue_config_from_model(&m2, 0);
	assert_int_equal(roce(want,
			      "{\"mode\": \"lossless\", \"congestion-control\": {\"enabled-tc\": "
			      "\"0\"}, \"pfc\": {\"pfc-priority\": \"3,4\", \"rx-enabled\": "
			      "\"enabled\", \"tx-enabled\": \"enabled\"}}",
			      err, sizeof(err)),
			 0);
	cJSON_Delete(want);
	qg_model_free(&m2);
}

/* A port whose PFC NVUE did not make operational is named, with both values. */
static void test_port_status(void **state)
{
	(void)state;
	struct qg_model m;
	cJSON *want = want_tree(&m, "");
	char err[512];
	assert_int_equal(port(want, PORT_OK, err, sizeof(err)), 0);
	assert_int_equal(port(want, "{\"pfc\": {\"rx-enabled\": \"no\", \"tx-enabled\": \"no\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "interface swp16 qos roce status pfc pfc-priority is (none)"));
	assert_int_equal(port(want,
			      "{\"pfc\": {\"pfc-priority\": \"3\", \"rx-enabled\": \"yes\", "
			      "\"tx-enabled\": \"no\"}}",
			      err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "swp16 qos roce status pfc tx-enabled is 'no'"));
	assert_int_equal(port(want, NULL, err, sizeof(err)), -1);
	cJSON_Delete(want);
	qg_model_free(&m);
}

static void test_lists(void **state)
{
	(void)state;
	cJSON *v = cJSON_CreateString("0,3");
	assert_true(nvue_list_has(v, 3) && nvue_list_has(v, 0) && !nvue_list_has(v, 1));
	cJSON_SetValuestring(v, "0-2,4");
	assert_true(nvue_list_has(v, 1) && nvue_list_has(v, 4) && !nvue_list_has(v, 3));
	const char *bad[] = {"", "-", "3,", "x3", "3;4", ",3"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON_SetValuestring(v, bad[i]);
		if (nvue_list_has(v, 3))
			fail_msg("'%s' taken as holding 3", bad[i]);
	}
	cJSON_Delete(v);
	v = cJSON_CreateNumber(3);
	assert_true(nvue_list_has(v, 3));
	cJSON_Delete(v);
	v = cJSON_Parse("{\"3\": {}, \"4\": {}}");
	assert_true(nvue_list_has(v, 3) && !nvue_list_has(v, 5));
	cJSON_Delete(v);
	assert_false(nvue_list_has(NULL, 3));
}

/* Headroom beyond the tolerance is a warning line; within it, nothing. */
static void test_headroom_compare(void **state)
{
	(void)state;
	struct nvue_headroom h[] = {
	    {"swp1", 100000, 104000}, /* 4 %: within 5 % */
	    {"swp2", 100000, 90000},  /* 10 % less */
	    {"swp3", 100000, 105000}, /* exactly 5 %: within */
	    {"swp4", 0, 5000},	      /* nothing computed: nothing said */
	    {"swp5", 100000, 130000}, /* 30 % more */
	};
	struct qg_buf w = {0};
	nvue_headroom_compare(h, sizeof(h) / sizeof(h[0]), 5, &w);
	assert_non_null(w.data);
	assert_null(strstr(w.data, "swp1:"));
	assert_null(strstr(w.data, "swp3:"));
	assert_null(strstr(w.data, "swp4:"));
	assert_non_null(strstr(w.data,
			       "swp2: NVUE reserves 90000 bytes of headroom for the lossless "
			       "priority group, qosgen computes 100000 (less by 10000, "
			       "more than 5%)\n"));
	assert_non_null(strstr(w.data, "swp5: NVUE reserves 130000 bytes"));
	qg_buf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roce_status),
	    cmocka_unit_test(test_port_status),
	    cmocka_unit_test(test_lists),
	    cmocka_unit_test(test_headroom_compare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
