/* SPDX-License-Identifier: MIT */
/* targets/sonic: port names, the config_db tree and the relations SONiC's schema does not check. */
#include "helpers.h"

#include "../../gen/explain.h"

#include "../../targets/sonic/config_db.h"
#include "../../targets/sonic/sonic_ports.h"

#define SONIC_SWITCH                                                                               \
	"switches:\n  - {name: leaf1, platform: sonic, address: leaf1.lab, ports: "                \
	"[Ethernet0-3/1, Ethernet8-24/8]}\n"

static void test_port_names(void **state)
{
	(void)state;
	struct qg_port *v = NULL;
	size_t n = 0;
	char err[300], text[QG_PORT_TEXT_LEN];
	assert_int_equal(sonic_port_parse("Ethernet0-124/4", &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 32);
	sonic_port_format(&v[31], text);
	assert_string_equal(text, "Ethernet124");
	free(v);
	/* Above 255 the number spans two bytes, and still sorts as a number. */
	assert_int_equal(sonic_port_parse("Ethernet248-264/8", &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_true(qg_port_cmp(&v[0], &v[2]) < 0);
	assert_int_equal(sonic_port_number(&v[2]), 264);
	free(v);
	assert_int_equal(sonic_port_parse("Ethernet4-7/1", &v, &n, err, sizeof(err)), 0);
	struct qg_port_run r = {v[0], v[3]};
	sonic_port_run_format(&r, text);
	assert_string_equal(text, "Ethernet4-7/1"); /* printed back as it parses */
	free(v);
	const char *bad[] = {"Ethernet0-124", "Ethernet0-126/4", "Ethernet0-8/0", "Ethernet0-8/9",
			     "Ethernet8-0/4", "Ethernet1024",	 "Ethernet04",	  "Ethernet0/4",
			     "etp1",	      "Ethernet",	 "ethernet0",	  "Ethernet0,4"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = NULL;
		assert_int_equal(sonic_port_parse(bad[i], &v, &n, err, sizeof(err)), -1);
		assert_null(v);
	}
	assert_int_equal(sonic_port_parse("Ethernet0-124", &v, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Ethernet0-124/4"));
}

static const char *get(const cJSON *tree, const char *table, const char *key, const char *field)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tree, table), key),
	    field);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int geti(const cJSON *tree, const char *table, const char *key, const char *field)
{
	const char *s = get(tree, table, key, field);
	assert_non_null(s);
	return atoi(s);
}

/*
 * What VALIDATE.md says the schema does not catch, on a generated tree:
 * the DSCP map complete; pfc_enable, PFC_PRIORITY_TO_PRIORITY_GROUP_MAP and
 * BUFFER_PG naming the same lossless PG, the one the lossless TC maps to and
 * no lossy TC; the lossless DSCP's queue the one PFC pauses and the one with
 * ECN; no weight on a STRICT scheduler; every port with every row.
 */
static void assert_relations(const cJSON *t, const struct qg_qos *q, int n_ports)
{
	char k[16], key[48];
	const cJSON *dscp = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(t, "DSCP_TO_TC_MAP"), SONIC_MAP);
	assert_int_equal(cJSON_GetArraySize(dscp), 64);
	const int p = q->lossless.priority;
	snprintf(k, sizeof(k), "%d", q->lossless.dscp[0]);
	int tc = geti(t, "DSCP_TO_TC_MAP", SONIC_MAP, k);
	assert_int_equal(tc, q->lossless.traffic_class);
	snprintf(k, sizeof(k), "%d", tc);
	int queue = geti(t, "TC_TO_QUEUE_MAP", SONIC_MAP, k);
	int pg = geti(t, "TC_TO_PRIORITY_GROUP_MAP", SONIC_MAP, k);
	snprintf(k, sizeof(k), "%d", p);
	assert_int_equal(geti(t, "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", SONIC_MAP, k), pg);
	assert_int_equal(geti(t, "MAP_PFC_PRIORITY_TO_QUEUE", SONIC_MAP, k), queue);
	for (int other = 0; other < 8; other++) {
		snprintf(k, sizeof(k), "%d", other);
		if (other != tc)
			assert_int_not_equal(geti(t, "TC_TO_PRIORITY_GROUP_MAP", SONIC_MAP, k), pg);
	}
	/* No lossy DSCP shares the lossless TC unless the intent's map sends it there. */
	for (int d = 0; d < 64; d++) {
		snprintf(k, sizeof(k), "%d", d);
		assert_int_equal(geti(t, "DSCP_TO_TC_MAP", SONIC_MAP, k) == tc,
				 q->dscp_prio[d] == p);
	}
	if (q->cnp) {
		snprintf(k, sizeof(k), "%d", q->cnpc.dscp[0]);
		assert_int_equal(geti(t, "DSCP_TO_TC_MAP", SONIC_MAP, k), q->cnpc.traffic_class);
	}
	const cJSON *qos = cJSON_GetObjectItemCaseSensitive(t, "PORT_QOS_MAP");
	assert_int_equal(cJSON_GetArraySize(qos), n_ports);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "BUFFER_PG")),
			 n_ports);
	for (const cJSON *row = qos->child; row; row = row->next) {
		assert_int_equal(geti(t, "PORT_QOS_MAP", row->string, "pfc_enable"), p);
		snprintf(key, sizeof(key), "%s|%d", row->string, pg);
		assert_string_equal(get(t, "BUFFER_PG", key, "profile"), "NULL");
		snprintf(key, sizeof(key), "%s|%d", row->string, queue);
		if (q->ecn)
			assert_string_equal(get(t, "QUEUE", key, "wred_profile"), SONIC_WRED);
		assert_non_null(get(t, "PORT", row->string, "mtu"));
	}
	const cJSON *sched = cJSON_GetObjectItemCaseSensitive(t, "SCHEDULER");
	for (const cJSON *s = sched ? sched->child : NULL; s; s = s->next)
		if (!strcmp(get(t, "SCHEDULER", s->string, "type"), "STRICT"))
			assert_null(get(t, "SCHEDULER", s->string, "weight"));
}

static void test_tree_relations(void **state)
{
	(void)state;
	static const char *const intents[] = {
	    BASE_QOS SONIC_SWITCH,
	    /* A remapped class: priority 4 on TC 2, whose own TC 4 then collides with nothing. */
	    "version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 4\n    dscp: [26, 27]\n"
	    "    traffic_class: 2\n    pool: {name: roce, memory_percent: 50}\n"
	    "    ets: {mode: wrr, weight: 60}\n"
	    "  cnp: {priority: 6, dscp: 48, traffic_class: 0, ets: strict}\n" SONIC_SWITCH,
	};
	for (size_t i = 0; i < sizeof(intents) / sizeof(intents[0]); i++) {
		struct qg_model m;
		load_ok(intents[i], &m);
		cJSON *t = sonic_config_from_model(&m, 0);
		assert_non_null(t);
		assert_relations(t, &m.qos, 7);
		cJSON_Delete(t);
		qg_model_free(&m);
	}
}

/* Priorities whose own TC a class holds go to the lowest free TC, never to a class's queue. */
static void test_priority_tc(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n    dscp: [26]\n"
		"    traffic_class: 0\n    pool: {name: roce, memory_percent: 50}\n"
		"  cnp: {priority: 6, dscp: 48, traffic_class: 1}\n" SONIC_SWITCH,
		&m);
	int tc[8];
	sonic_priority_tc(&m.qos, tc);
	const int want[8] = {2, 2, 2, 0, 4, 5, 1, 7};
	assert_memory_equal(tc, want, sizeof(want));
	qg_model_free(&m);
}

static void test_emit_and_settings(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok(BASE_QOS SONIC_SWITCH, &m);
	build_ok(&m, &o);
	const char *json = file_text(&o, "sonic/leaf1.json");
	assert_non_null(strstr(json, "\n    \"PORT\": {\n        \"Ethernet0\": {\n"
				     "            \"mtu\": \"9100\"\n        },\n"));
	assert_non_null(strstr(json, "\"26\": \"3\",\n"));
	assert_non_null(strstr(json, "\"Ethernet24|3\": {\n            \"profile\": \"NULL\""));
	assert_int_equal(json[strlen(json) - 1], '\n');
	cJSON *parsed = cJSON_Parse(json);
	assert_non_null(parsed);
	cJSON_Delete(parsed);
	struct qg_settings s = {0};
	assert_int_equal(qg_target_for(&m, QG_DEVICE_SWITCH, 0)->settings(&m, 0, &s), 0);
	assert_string_equal(qg_settings_get(&s, "PORT|Ethernet0-3/1,Ethernet8-24/8.mtu"), "9100");
	assert_string_equal(qg_settings_get(&s, "DSCP_TO_TC_MAP|QOSGEN.48"), "6");
	assert_string_equal(qg_settings_get(&s, "WRED_PROFILE|qosgen_lossless.green_min_threshold"),
			    "150000");
	qg_settings_free(&s);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_port_mtu(void **state)
{
	(void)state;
	struct qg_qos q = {.mtu = 9000};
	assert_int_equal(sonic_port_mtu(&q), SONIC_JUMBO_MTU);
	q.mtu = 9100; /* 9100 + 18 > 9100: SONiC's largest */
	assert_int_equal(sonic_port_mtu(&q), SONIC_MTU_MAX);
	q.switch_mtu_given = true;
	q.switch_mtu = 9216;
	assert_int_equal(sonic_port_mtu(&q), 9216);
}

/* The target's check() on a loaded intent: false when it refuses, with needle in d. */
static bool check_refuses(const char *text, const char *needle)
{
	struct qg_model m;
	struct qg_diags d;
	assert_int_equal(load_text(text, &d, &m), 0);
	qg_diags_free(&d);
	qg_diags_init(&d, "t.yaml");
	bool refused = qg_build_check(&m, &d) != 0;
	if (refused)
		assert_true(diag_has(&d, needle));
	qg_diags_free(&d);
	qg_model_free(&m);
	return refused;
}

static void test_check_refusals(void **state)
{
	(void)state;
	assert_true(check_refuses("version: 1\nfabric: t\nqos:\n  trust: pcp\n  lossless:\n"
				  "    priority: 3\n    dscp: [26]\n"
				  "    pool: {name: roce, memory_percent: 50}\n" SONIC_SWITCH,
				  "no DOT1P_TO_TC_MAP yet"));
	const char *prio0 = "version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 0\n"
			    "    dscp: [26]\n    pool: {name: roce, memory_percent: 50}\n";
	char text[512];
	snprintf(text, sizeof(text), "%s%s", prio0, SONIC_SWITCH);
	assert_true(check_refuses(text, "priority group 0 holds the lossy traffic classes"));
	/* Without a sonic switch the same intent is not the sonic target's to refuse. */
	assert_false(check_refuses(prio0, ""));
	assert_false(check_refuses(BASE_QOS SONIC_SWITCH, ""));
}

static void test_explain_rows(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SONIC_SWITCH, &m);
	cJSON *x = qg_explain_json(&m);
	char *s = cJSON_PrintUnformatted(x);
	assert_non_null(strstr(s, "\"key\":\"sonic.port.mtu\",\"value\":9100"));
	assert_non_null(strstr(s, "\"value\":\"150000..1500000 bytes\""));
	assert_non_null(strstr(s, "\"key\":\"sonic.lossless_pg\",\"value\":3"));
	assert_non_null(strstr(s, "\"key\":\"sonic.priority_tc\",\"value\":\"0,1,2,3,4,5,6,7\""));
	cJSON_free(s);
	cJSON_Delete(x);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_port_names),	 cmocka_unit_test(test_tree_relations),
	    cmocka_unit_test(test_priority_tc),	 cmocka_unit_test(test_emit_and_settings),
	    cmocka_unit_test(test_port_mtu),	 cmocka_unit_test(test_check_refusals),
	    cmocka_unit_test(test_explain_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
