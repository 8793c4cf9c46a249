/* SPDX-License-Identifier: MIT */
/* targets/sonic: port names, the config_db tree and the relations SONiC's schema does not check. */
#include "helpers.h"

#include <errno.h>

#include "../../emit/explain.h"

#include "../../targets/sonic/config_db.h"
#include "../../targets/sonic/config_db_judge.h"
#include "../../targets/sonic/config_db_owned.h"
#include "../../targets/sonic/config_db_patch.h"
#include "../../targets/sonic/sonic_readback.h"
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
	/* The lossless TC holds exactly the intent's lossless DSCPs (not their DSCP/8 block). */
	for (int d = 0; d < 64; d++) {
		bool listed = false;
		for (int j = 0; j < q->lossless.n_dscp; j++)
			listed |= q->lossless.dscp[j] == d;
		snprintf(k, sizeof(k), "%d", d);
		assert_int_equal(geti(t, "DSCP_TO_TC_MAP", SONIC_MAP, k) == tc, listed);
	}
	if (q->cnp) {
		snprintf(k, sizeof(k), "%d", q->cnpc.dscp[0]);
		assert_int_equal(geti(t, "DSCP_TO_TC_MAP", SONIC_MAP, k), q->cnpc.traffic_class);
	}
	const cJSON *qos = cJSON_GetObjectItemCaseSensitive(t, "PORT_QOS_MAP");
	assert_int_equal(cJSON_GetArraySize(qos), n_ports);
	/* PGs 1..7 of every port: the lossless one NULL, the others absent (null). */
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "BUFFER_PG")),
			 n_ports * 7);
	for (const cJSON *row = qos->child; row; row = row->next) {
		assert_int_equal(geti(t, "PORT_QOS_MAP", row->string, "pfc_enable"), p);
		snprintf(key, sizeof(key), "%s|%d", row->string, pg);
		assert_string_equal(get(t, "BUFFER_PG", key, "profile"), "NULL");
		/*
		 * Every queue: a scheduler; ECN and the lossless egress profile on the
		 * lossless queue alone; the DWRR weights give the lossless class
		 * exactly its share of what the DWRR queues share.
		 */
		long lossless_w = 0, sum = 0;
		for (int qi = 0; qi < 8; qi++) {
			snprintf(key, sizeof(key), "%s|%d", row->string, qi);
			const char *sc = get(t, "QUEUE", key, "scheduler");
			assert_non_null(sc);
			assert_string_equal(get(t, "BUFFER_QUEUE", key, "profile"),
					    qi == queue ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY);
			if (q->ecn && qi == queue)
				assert_string_equal(get(t, "QUEUE", key, "wred_profile"),
						    SONIC_WRED);
			else
				assert_null(get(t, "QUEUE", key, "wred_profile"));
			if (!strcmp(get(t, "SCHEDULER", sc, "type"), "DWRR")) {
				long w = geti(t, "SCHEDULER", sc, "weight");
				sum += w;
				if (qi == queue)
					lossless_w = w;
			}
		}
		if (q->lossless.ets.mode == QG_ETS_WRR)
			assert_int_equal(lossless_w * 100, (long)q->lossless.ets.weight * sum);
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

/*
 * Priorities whose own TC a class holds go to the TCs the classes' priorities
 * leave, lowest first: never to a class's queue, nor two to one (issue 34).
 */
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
	const int want[8] = {3, 6, 2, 0, 4, 5, 1, 7};
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
				     "            \"mtu\": \"9216\"\n        },\n"));
	assert_non_null(strstr(json, "\"26\": \"3\",\n"));
	assert_non_null(strstr(json, "\"Ethernet24|3\": {\n            \"profile\": \"NULL\""));
	assert_int_equal(json[strlen(json) - 1], '\n');
	cJSON *parsed = cJSON_Parse(json);
	assert_non_null(parsed);
	cJSON_Delete(parsed);
	struct qg_settings s = {0};
	assert_int_equal(qg_target_for(&m, QG_DEVICE_SWITCH, 0)->settings(&m, 0, &s), 0);
	assert_string_equal(qg_settings_get(&s, "PORT|Ethernet0-3/1,Ethernet8-24/8.mtu"), "9216");
	assert_string_equal(qg_settings_get(&s, "DSCP_TO_TC_MAP|QOSGEN.48"), "6");
	assert_string_equal(qg_settings_get(&s, "WRED_PROFILE|qosgen_ecn.green_min_threshold"),
			    "150000");
	/* ECN marking only: a lossless queue is not dropped early (config_db.c). */
	assert_string_equal(qg_settings_get(&s, "WRED_PROFILE|qosgen_ecn.wred_green_enable"),
			    "false");
	assert_string_equal(qg_settings_get(&s, "BUFFER_PG|Ethernet0-3/1,Ethernet8-24/8|4"),
			    "absent");
	/* DSCP 24, in 26's DSCP/8 block but not the intent's, goes to a lossy TC. */
	assert_string_equal(qg_settings_get(&s, "DSCP_TO_TC_MAP|QOSGEN.24"), "0");
	qg_settings_free(&s);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_port_mtu(void **state)
{
	(void)state;
	/* The fabric's one switch MTU (intent/intent.c), as onyx and cumulus, not SONiC's own 9100. */
	struct qg_model m;
	struct qg_diags d;
	assert_int_equal(load_text("version: 1\nfabric: t\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, memory_percent: 50}}\n" SONIC_SWITCH, &d, &m), 0);
	assert_int_equal(sonic_port_mtu(&m.qos), 9216);
	qg_diags_free(&d);
	qg_model_free(&m);
	struct qg_qos q = {.mtu = 9000, .switch_mtu = 9100, .switch_mtu_given = true};
	assert_int_equal(sonic_port_mtu(&q), 9100);
}

/* The target's check() on a loaded intent: false when it refuses, with needle in d. */
static bool check_refuses(const char *text, const char *needle)
{
	struct qg_model m;
	struct qg_diags d;
	assert_int_equal(load_text(text, &d, &m), 0);
	qg_diags_free(&d);
	qg_diags_init(&d, "t.yaml");
	bool refused = qg_build_check(&m, &d, NULL) != 0;
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
	assert_non_null(strstr(s, "\"key\":\"sonic.port.mtu\",\"value\":9216"));
	/*
	 * No ets in the intent: NVIDIA's RoCE default on every OS (issue 34),
	 * the lossless queue 50 % exactly (6 : 1 against the six lossy ones).
	 */
	assert_non_null(strstr(s,
			       "\"key\":\"sonic.queue.3\",\"value\":\"lossless, "
			       "egress_lossless_profile, qosgen_lossless DWRR 6/12 (50.0 %), ECN "
			       "qosgen_ecn\""));
	assert_non_null(strstr(s, "\"key\":\"sonic.queue.4\",\"value\":\"lossy, "
				  "q_lossy_profile, qosgen_lossy DWRR 1/12 (8.3 %), no ECN\""));
	assert_non_null(strstr(s, "\"key\":\"sonic.queue.6\",\"value\":\"lossy, "
				  "q_lossy_profile, qosgen_cnp STRICT, no ECN\""));
	assert_non_null(strstr(s, "\"key\":\"sonic.leaf1.ports\",\"value\":\"7 "));
	assert_non_null(strstr(s, "\"key\":\"sonic.dscp.unlisted\",\"value\":\"TC 0\""));
	assert_non_null(strstr(s, "\"value\":\"150000..1500000 bytes\""));
	assert_non_null(strstr(s, "\"key\":\"sonic.lossless_pg\",\"value\":3"));
	assert_non_null(strstr(s, "\"key\":\"sonic.priority_tc\",\"value\":\"0,1,2,3,4,5,6,7\""));
	cJSON_free(s);
	cJSON_Delete(x);
	qg_model_free(&m);
}

/* ---- read-back, judge and patch ---- */

#define ONE_PORT                                                                                   \
	"switches:\n  - {name: leaf1, platform: sonic, address: leaf1.lab, ports: [Ethernet0]}\n"

/* The egress profiles BUFFER_QUEUE names, as SONiC's buffer templates create them. */
#define PROFILES                                                                                   \
	"\"BUFFER_PROFILE\": {\"egress_lossless_profile\": {\"pool\": \"egress_lossless_pool\", "  \
	"\"size\": \"0\"}, \"q_lossy_profile\": {\"pool\": \"egress_lossy_pool\", \"size\": "      \
	"\"0\"}}"
#define DYNAMIC "\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"dynamic\"}}, " PROFILES

/*
 * A switch as SONiC's own templates leave it (sonic-buildimage qos_config.j2
 * and buffers_config.j2: AZURE maps, lossless 3-4 as one range row, the
 * dynamic buffer model), a port the intent does not list, and the FRR
 * text `show runningconfiguration all` adds as "bgpraw".
 */
static const char TEMPLATE_SWITCH[] =
    "{\"bgpraw\": \"!\\nhostname leaf1\\n\",\n"
    " \"DEVICE_METADATA\": {\"localhost\": {\"hostname\": \"leaf1\", \"buffer_model\": "
    "\"dynamic\", \"hwsku\": \"ACS-MSN2700\"}},\n"
    " \"PORT\": {\"Ethernet0\": {\"lanes\": \"0,1,2,3\", \"speed\": \"100000\", \"mtu\": "
    "\"1500\", \"admin_status\": \"up\"},\n"
    "          \"Ethernet4\": {\"lanes\": \"4,5,6,7\", \"speed\": \"100000\", \"mtu\": "
    "\"9100\"}},\n"
    " \"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"NULL\"}, \"Ethernet0|0\": "
    "{\"profile\": \"ingress_lossy_profile\"}},\n"
    " \"BUFFER_QUEUE\": {\"Ethernet0|0-2\": {\"profile\": \"q_lossy_profile\"}, "
    "\"Ethernet0|3-4\": {\"profile\": \"egress_lossless_profile\"}, \"Ethernet0|5-6\": "
    "{\"profile\": \"q_lossy_profile\"}},\n " PROFILES ",\n"
    " \"DSCP_TO_TC_MAP\": {\"AZURE\": {\"26\": \"1\", \"3\": \"3\"}},\n"
    " \"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"AZURE\", \"pfc_enable\": "
    "\"3,4\", \"pfcwd_sw_enable\": \"3,4\"}, \"Ethernet4\": {\"dscp_to_tc_map\": \"AZURE\"}},\n"
    " \"QUEUE\": {\"Ethernet0|0-2\": {\"scheduler\": \"scheduler.0\"}, \"Ethernet0|3-4\": "
    "{\"scheduler\": \"scheduler.1\", \"wred_profile\": \"AZURE_LOSSLESS\"}, "
    "\"Ethernet0|5-7\": {\"scheduler\": \"scheduler.0\"}},\n"
    " \"SCHEDULER\": {\"scheduler.0\": {\"type\": \"DWRR\", \"weight\": \"14\"}, "
    "\"scheduler.1\": {\"type\": \"DWRR\", \"weight\": \"15\"}}}\n";

/* An RFC 6901 reference token, in place: "~1" is "/", "~0" is "~". */
static void unescape(char *k)
{
	char *w = k;
	for (; *k; k++)
		*w++ = *k == '~' && (k[1] == '0' || k[1] == '1') ? (*++k == '0' ? '~' : '/') : *k;
	*w = '\0';
}

/* RFC 6902 on objects (add, replace, remove): what the switch does with a patch. */
static cJSON *apply(cJSON *doc, const cJSON *patch)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, patch)
	{
		const char *what = cJSON_GetObjectItemCaseSensitive(o, "op")->valuestring;
		char *path = strdup(cJSON_GetObjectItemCaseSensitive(o, "path")->valuestring);
		assert_non_null(path);
		char *last = strrchr(path, '/');
		assert_non_null(last);
		*last++ = '\0';
		unescape(last);
		cJSON *parent = doc;
		for (char *k = path[0] ? path + 1 : NULL, *next; k; k = next) {
			next = strchr(k, '/');
			if (next)
				*next++ = '\0';
			unescape(k);
			parent = cJSON_GetObjectItemCaseSensitive(parent, k);
			assert_non_null(parent); /* RFC 6902: the parent must exist */
		}
		cJSON_DeleteItemFromObjectCaseSensitive(parent, last);
		if (strcmp(what, "remove"))
			cJSON_AddItemToObject(
			    parent, last,
			    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(o, "value"), true));
		free(path);
	}
	return doc;
}

/*
 * The field of the row of a PORT_INDEX table covering port|idx ("Ethernet0|3"
 * or a range "Ethernet0|3-4"), NULL when none: the state, however keyed.
 */
static const char *at_index(const cJSON *doc, const char *table, const char *port, int idx,
			    const char *field)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, table);
	size_t n = strlen(port);
	for (const cJSON *r = t ? t->child : NULL; r; r = r->next) {
		int lo, hi;
		if (strncmp(r->string, port, n) || r->string[n] != '|')
			continue;
		int got = sscanf(r->string + n + 1, "%d-%d", &lo, &hi);
		if (got == 1)
			hi = lo;
		if (got >= 1 && lo <= idx && idx <= hi) {
			const cJSON *f = cJSON_GetObjectItemCaseSensitive(r, field);
			return cJSON_IsString(f) ? f->valuestring : NULL;
		}
	}
	return NULL;
}

static bool has_op(const char *text, const char *op)
{
	bool found = strstr(text, op) != NULL;
	if (!found)
		fprintf(stderr, "no %s in:\n%s", op, text);
	return found;
}

/*
 * On a template switch (lossless 3-4): the ranges split, queue and PG 4,
 * which the intent does not make lossless, back to lossy (q_lossy_profile,
 * no ECN, no headroom), pfcwd_sw_enable as pfc_enable; port fields qosgen
 * does not write left; the port outside the intent not touched; and
 * applying the patch leaves nothing to send.
 */
static void test_patch_converges(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS ONE_PORT, &m);
	cJSON *want = sonic_config_from_model(&m, 0), *have = NULL;
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	assert_int_equal(sonic_readback_parse(TEMPLATE_SWITCH, strlen(TEMPLATE_SWITCH), &have, &d),
			 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	assert_string_equal(sonic_readback_hostname(have), "leaf1");
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	assert_non_null(patch);
	struct qg_buf t = {0};
	sonic_patch_text(patch, &t);
	assert_true(has_op(t.data, "{\"op\":\"remove\",\"path\":\"/QUEUE/Ethernet0|3-4\"}"));
	assert_true(has_op(t.data, "{\"op\":\"add\",\"path\":\"/QUEUE/Ethernet0|4\",\"value\":"
				   "{\"scheduler\":\"" SONIC_SCHED_LOSSY "\"}}"));
	assert_true(has_op(t.data, "{\"op\":\"add\",\"path\":\"/QUEUE/Ethernet0|3\",\"value\":"
				   "{\"scheduler\":\"" SONIC_SCHED_LOSSLESS
				   "\",\"wred_profile\":\"" SONIC_WRED "\"}}"));
	/* The CNP queue 6 is in the range 5-7: split into 5, 6 and 7. */
	assert_true(has_op(t.data, "\"path\":\"/QUEUE/Ethernet0|5\""));
	assert_true(has_op(t.data, "\"path\":\"/QUEUE/Ethernet0|7\""));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PORT_QOS_MAP/Ethernet0/"
				   "pfc_enable\",\"value\":\"3\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PORT_QOS_MAP/Ethernet0/"
				   "pfcwd_sw_enable\",\"value\":\"3\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PORT/Ethernet0/mtu\""));
	assert_true(has_op(t.data, "{\"op\":\"remove\",\"path\":\"/BUFFER_PG/Ethernet0|3-4\"}"));
	assert_null(strstr(t.data, "Ethernet4"));
	assert_null(strstr(t.data, "AZURE\"")); /* SONiC's map stays, unused by Ethernet0 */
	assert_int_equal(t.data[0], '[');
	cJSON *parsed = cJSON_Parse(t.data);
	assert_int_equal(cJSON_GetArraySize(parsed), cJSON_GetArraySize(patch));
	cJSON_Delete(parsed);
	qg_buf_free(&t);

	cJSON *before = cJSON_Duplicate(have, true);
	apply(have, patch);
	assert_null(sonic_config_patch(want, have, &oom));
	assert_false(oom);
	/* Lossless exactly where the intent says: 3, and 4 back to the templates' lossy. */
	assert_string_equal(at_index(have, "BUFFER_PG", "Ethernet0", 3, "profile"), "NULL");
	assert_null(at_index(have, "BUFFER_PG", "Ethernet0", 4, "profile"));
	assert_string_equal(at_index(have, "BUFFER_PG", "Ethernet0", 0, "profile"),
			    "ingress_lossy_profile");
	for (int qi = 0; qi < 8; qi++) {
		assert_string_equal(at_index(have, "BUFFER_QUEUE", "Ethernet0", qi, "profile"),
				    qi == 3 ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY);
		if (qi == 3)
			assert_string_equal(
			    at_index(have, "QUEUE", "Ethernet0", qi, "wred_profile"), SONIC_WRED);
		else
			assert_null(at_index(have, "QUEUE", "Ethernet0", qi, "wred_profile"));
	}
	assert_false(sonic_config_same_at(patch, have, before));
	assert_true(sonic_config_same_at(patch, before, before));
	cJSON_Delete(before);
	cJSON_Delete(patch);
	cJSON_Delete(want);
	cJSON_Delete(have);
	qg_diags_free(&d);
	qg_model_free(&m);
}

/* A scheduler the intent no longer has goes, with its use on the intent's port. */
static void test_patch_removes_dropped(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n    dscp: [26]\n"
		"    pool: {name: roce, memory_percent: 50}\n"
		"    ecn: {min_kb: 150, max_kb: 1500}\n" ONE_PORT,
		&m);
	cJSON *want = sonic_config_from_model(&m, 0), *have = NULL;
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	const char *rb = "{" DYNAMIC ","
			 " \"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\"}},"
			 " \"SCHEDULER\": {\"" SONIC_SCHED_CNP "\": {\"type\": \"STRICT\"}},"
			 " \"QUEUE\": {\"Ethernet0|6\": {\"scheduler\": \"" SONIC_SCHED_CNP "\"}}}";
	assert_int_equal(sonic_readback_parse(rb, strlen(rb), &have, &d), 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	struct qg_buf t = {0};
	sonic_patch_text(patch, &t);
	/* The CNP scheduler goes; its queue gets the lossy queues' scheduler. */
	assert_true(has_op(t.data, "{\"op\":\"remove\",\"path\":\"/SCHEDULER/qosgen_cnp\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/QUEUE/Ethernet0|6/"
				   "scheduler\",\"value\":\"" SONIC_SCHED_LOSSY "\"}"));
	apply(have, patch);
	assert_null(sonic_config_patch(want, have, &oom));
	qg_buf_free(&t);
	cJSON_Delete(patch);
	cJSON_Delete(have);

	/* The same, used by a port outside the intent: refused, naming it. */
	const char *other =
	    "{" DYNAMIC ", \"PORT\": {\"Ethernet0\": {}, \"Ethernet4\": {}},"
	    " \"SCHEDULER\": {\"" SONIC_SCHED_CNP "\": {\"type\": \"STRICT\"}},"
	    " \"QUEUE\": {\"Ethernet4|6\": {\"scheduler\": \"" SONIC_SCHED_CNP "\"}}}";
	assert_int_equal(sonic_readback_parse(other, strlen(other), &have, &d), 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 1);
	assert_true(diag_has(&d, "QUEUE|Ethernet4|6, a port the intent does not list"));
	cJSON_Delete(have);
	cJSON_Delete(want);
	qg_diags_free(&d);
	qg_model_free(&m);
}

/*
 * A port's cable length goes in the row that already names it (whatever its
 * name), else in AZURE: no port ends with two lengths; other ports untouched.
 */
static void test_patch_cable_lengths(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "switches:\n  - {name: leaf1, platform: sonic, address: leaf1.lab, "
			 "ports: [Ethernet0-4/4], cable_length_m: {default: 5, Ethernet4: 40}}\n",
		&m);
	cJSON *want = sonic_config_from_model(&m, 0), *have = NULL;
	assert_string_equal(get(want, "CABLE_LENGTH", SONIC_CABLE_ROW, "Ethernet4"), "40m");
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	const char *rb = "{" DYNAMIC ", \"PORT\": {\"Ethernet0\": {}, \"Ethernet4\": {}, "
			 "\"Ethernet8\": {}}, \"CABLE_LENGTH\": {\"T1\": {\"Ethernet0\": \"300m\", "
			 "\"Ethernet8\": \"300m\"}}}";
	assert_int_equal(sonic_readback_parse(rb, strlen(rb), &have, &d), 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	struct qg_buf t = {0};
	sonic_patch_text(patch, &t);
	assert_true(has_op(t.data, "{\"op\":\"add\",\"path\":\"/CABLE_LENGTH/AZURE\",\"value\":"
				   "{\"Ethernet4\":\"40m\"}}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/CABLE_LENGTH/T1/Ethernet0\","
				   "\"value\":\"5m\"}"));
	assert_null(strstr(t.data, "Ethernet8"));
	apply(have, patch);
	assert_null(sonic_config_patch(want, have, &oom));
	qg_buf_free(&t);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	cJSON_Delete(want);
	qg_diags_free(&d);
	qg_model_free(&m);
}

static void judge_refuses(const cJSON *want, const char *rb, const char *needle)
{
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	cJSON *have = NULL;
	assert_int_equal(sonic_readback_parse(rb, strlen(rb), &have, &d), 0);
	int errors = sonic_config_judge(want, have, NULL, &d);
	if (errors == 0 || !diag_has(&d, needle)) {
		fprintf(stderr, "read-back %s:\n", rb);
		qg_diags_print(&d, stderr, false);
	}
	assert_true(errors > 0);
	assert_true(diag_has(&d, needle));
	cJSON_Delete(have);
	qg_diags_free(&d);
}

static void test_judge_refusals(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS ONE_PORT, &m);
	cJSON *want = sonic_config_from_model(&m, 0);
	judge_refuses(
	    want, "{" DYNAMIC ", \"PORT\": {\"Ethernet4\": {}}}",
	    "the switch lacks 1 of the intent's 1 ports: Ethernet0 (its PORT table has Ethernet4)");
	judge_refuses(want, "{\"PORT\": {\"Ethernet0\": {}}}",
		      "buffer model is 'traditional' (DEVICE_METADATA|localhost buffer_model");
	judge_refuses(want,
		      "{\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"dynamic\"}}, "
		      "\"PORT\": {\"Ethernet0\": {}}}",
		      "the switch has no BUFFER_PROFILE|q_lossy_profile");
	judge_refuses(want,
		      "{\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"dynamic\", "
		      "\"switch_type\": \"voq\"}}, \"PORT\": {\"Ethernet0\": {}}}",
		      "VOQ switch");
	judge_refuses(want,
		      "{" DYNAMIC
		      ", \"PORT\": {\"Ethernet0\": {}}, \"QUEUE\": {\"Ethernet0|3\": {}, "
		      "\"Ethernet0|2-4\": {}}}",
		      "2 QUEUE rows covering Ethernet0|3");
	judge_refuses(want,
		      "{" DYNAMIC ", \"PORT\": {\"Ethernet0\": {}}, \"BUFFER_PG\": {\"Ethernet0\": "
		      "{}}}",
		      "BUFFER_PG|Ethernet0 names no index or range");
	judge_refuses(want, "{" DYNAMIC ", \"PORT\": {\"Ethernet0\": \"up\"}}",
		      "PORT|Ethernet0 is not a row of fields");
	cJSON_Delete(want);
	qg_model_free(&m);
}

/* A name of n bytes, "<c><c>..." then the tail. */
static char *long_name(size_t n, char c, const char *tail)
{
	size_t t = strlen(tail);
	char *s = malloc(n + 1);
	assert_non_null(s);
	memset(s, c, n - t);
	memcpy(s + n - t, tail, t + 1);
	return s;
}

/*
 * Names from the switch are as long as the switch makes them: no fixed
 * buffer may cut one short and so decide another path (issue 24). A
 * CABLE_LENGTH row of 998 bytes cut the path of the intent port
 * Ethernet12's field to /CABLE_LENGTH/<row>/Ethernet1, a port outside the
 * intent; a row of 600 bytes read a partly applied patch as "the same"; a
 * port of 130 bytes using a row qosgen removes slipped past the guard.
 */
static void test_long_keys(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "switches:\n  - {name: leaf1, platform: sonic, address: leaf1.lab, "
			 "ports: [Ethernet12], cable_length_m: {default: 40}}\n",
		&m);
	cJSON *want = sonic_config_from_model(&m, 0), *have = NULL;
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	char *row = long_name(998, 'r', "/~x"), *rb = NULL;
	cJSON *doc =
	    cJSON_Parse("{" DYNAMIC ", \"PORT\": {\"Ethernet12\": {}, \"Ethernet1\": {}}}");
	cJSON *cable = cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "CABLE_LENGTH"), row);
	cJSON_AddStringToObject(cable, "Ethernet12", "300m");
	cJSON_AddStringToObject(cable, "Ethernet1", "7m");
	rb = cJSON_PrintUnformatted(doc);
	assert_int_equal(sonic_readback_parse(rb, strlen(rb), &have, &d), 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	assert_non_null(patch);
	const cJSON *op;
	int cable_ops = 0;
	cJSON_ArrayForEach(op, patch)
	{
		const char *path = cJSON_GetObjectItemCaseSensitive(op, "path")->valuestring;
		if (strncmp(path, "/CABLE_LENGTH/", 14))
			continue;
		cable_ops++;
		assert_int_equal(strlen(path), strlen("/CABLE_LENGTH//Ethernet12") + 998 + 2);
		assert_non_null(strstr(path, "r~1~0x/Ethernet12"));
	}
	assert_int_equal(cable_ops, 1);
	cJSON *before = cJSON_Duplicate(have, true);
	apply(have, patch);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(cable, "Ethernet1")->valuestring,
			    "7m");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(have, "CABLE_LENGTH"), row),
				"Ethernet1")
				->valuestring,
			    "7m");
	assert_null(sonic_config_patch(want, have, &oom));
	/* The patch applied differs from before at its path, however long. */
	assert_false(sonic_config_same_at(patch, have, before));
	cJSON_Delete(before);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	cJSON_free(rb);
	cJSON_Delete(doc);
	free(row);

	/* A row of 600 bytes, half applied: not the same as before. */
	row = long_name(600, 'q', "");
	cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();
	cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(a, "T"), row), "f",
				"1");
	cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(b, "T"), row), "f",
				"2");
	cJSON *p = cJSON_CreateArray(), *o = cJSON_CreateObject();
	char *ptr = malloc(strlen(row) + 8);
	sprintf(ptr, "/T/%s/f", row);
	cJSON_AddStringToObject(o, "op", "replace");
	cJSON_AddStringToObject(o, "path", ptr);
	cJSON_AddStringToObject(o, "value", "2");
	cJSON_AddItemToArray(p, o);
	assert_false(sonic_config_same_at(p, a, b));
	assert_true(sonic_config_same_at(p, a, a));
	free(ptr);
	free(row);
	cJSON_Delete(p);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(want);
	qg_model_free(&m);

	/* A port of 130 bytes outside the intent uses the scheduler qosgen would remove. */
	load_ok("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n    dscp: [26]\n"
		"    pool: {name: roce, memory_percent: 50}\n"
		"    ecn: {min_kb: 150, max_kb: 1500}\n" ONE_PORT,
		&m);
	want = sonic_config_from_model(&m, 0);
	char *port = long_name(130, 'E', "thernet4");
	doc = cJSON_Parse("{" DYNAMIC
			  ", \"PORT\": {\"Ethernet0\": {}}, \"SCHEDULER\": {\"" SONIC_SCHED_CNP
			  "\": {\"type\": \"STRICT\"}}}");
	cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(doc, "PORT"), port);
	char *qkey = malloc(strlen(port) + 3);
	sprintf(qkey, "%s|6", port);
	cJSON_AddStringToObject(
	    cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "QUEUE"), qkey), "scheduler",
	    SONIC_SCHED_CNP);
	rb = cJSON_PrintUnformatted(doc);
	judge_refuses(want, rb, "a port the intent does not list, uses it");
	cJSON_free(rb);
	cJSON_Delete(doc);
	free(qkey);
	free(port);
	cJSON_Delete(want);
	qg_diags_free(&d);
	qg_model_free(&m);
}

static void test_readback_parse(void **state)
{
	(void)state;
	static const struct {
		const char *text, *needle;
		int line, col;
	} bad[] = {
	    {" \n ", "the read-back is empty", 1, 1},
	    {"Command not found\n", "not a JSON object here", 1, 1},
	    {"{\n  \"PORT\": {\n    \"Ethernet0\": }\n}", "not a JSON object here", 3, 18},
	    {"{\"localhost\": {\"DEVICE_METADATA\": {}}, \"asic0\": {\"DEVICE_METADATA\": {}}}",
	     "multi-ASIC switch's (namespace 'localhost')", 1, 1},
	    {"{\"PORT\": []}", "table PORT is not an object of rows", 1, 1},
	    {"{}", "holds no config_db table", 1, 1},
	    /* Which of two the switch holds cannot be told (a fuzz finding). */
	    {"{\"PORT\": {\"Ethernet4\": {}, \"Ethernet4\": {\"mtu\": \"1500\"}}}",
	     "has PORT|Ethernet4 twice", 1, 28},
	    {"{\"PORT\": {\"Ethernet4\": {\"mtu\": \"9100\", \"mtu\": \"1500\"}}}",
	     "field mtu of PORT|Ethernet4 twice", 1, 40},
	    /*
	     * At every depth, at the second key's line and column: a duplicate
	     * inside a field's value had qosgen patch a row it does not own on
	     * every run (issue 24, a fuzz finding); an escape names the same key.
	     */
	    {"{\"PORT\": {\"Ethernet4\": {\"x\": {\"a\": \"1\",\n \"a\": \"2\"}}}}",
	     "key a twice inside field x of PORT|Ethernet4", 2, 2},
	    {"{\"PORT\": {\"Ethernet4\": {\"x\": [{\"b\": {\"a\": 1, \"\\u0061\": 2}}]}}}",
	     "key a twice inside field x of PORT|Ethernet4", 1, 46},
	    {"{\"A\": {}, \"A\": {\"r\": {\"f\": {\"k\": 1, \"k\": 2}}}}", "has table A twice", 1,
	     11},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct qg_diags d;
		qg_diags_init(&d, "rb");
		cJSON *have = NULL;
		assert_int_equal(sonic_readback_parse(bad[i].text, strlen(bad[i].text), &have, &d),
				 -EINVAL);
		assert_null(have);
		assert_true(diag_has(&d, bad[i].needle));
		assert_int_equal(d.v[0].pos.line, bad[i].line);
		assert_int_equal(d.v[0].pos.col, bad[i].col);
		qg_diags_free(&d);
	}
}

/* The template switch with a watchdog on Ethernet0 (and Ethernet4, outside the intent). */
static char *watchdog_switch(void)
{
	cJSON *doc = cJSON_Parse(TEMPLATE_SWITCH);
	cJSON *wd = cJSON_AddObjectToObject(doc, "PFC_WD");
	cJSON *g = cJSON_AddObjectToObject(wd, "GLOBAL");
	cJSON_AddStringToObject(g, "POLL_INTERVAL", "200");
	cJSON_AddStringToObject(g, "BIG_RED_SWITCH", "disable");
	const char *ports[] = {"Ethernet0", "Ethernet4"};
	for (int k = 0; k < 2; k++) {
		cJSON *r = cJSON_AddObjectToObject(wd, ports[k]);
		cJSON_AddStringToObject(r, "action", "forward");
		cJSON_AddStringToObject(r, "detection_time", "200");
		cJSON_AddStringToObject(r, "restoration_time", "200");
		cJSON_AddStringToObject(r, "pfc_stat_history", "enable");
	}
	char *text = cJSON_Print(doc);
	cJSON_Delete(doc);
	return text;
}

/* The patch from rb for the intent text, applied: in sync after; its text in *out. */
static void watchdog_patch(const char *intent, const char *rb, struct qg_buf *out, cJSON **end)
{
	struct qg_model m;
	load_ok(intent, &m);
	cJSON *want = sonic_config_from_model(&m, 0), *have = NULL;
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	assert_int_equal(sonic_readback_parse(rb, strlen(rb), &have, &d), 0);
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	assert_false(oom);
	sonic_patch_text(patch, out);
	apply(have, patch);
	assert_null(sonic_config_patch(want, have, &oom));
	*end = have;
	cJSON_Delete(patch);
	cJSON_Delete(want);
	qg_diags_free(&d);
	qg_model_free(&m);
}

/*
 * pfc_watchdog: on, the intent port's PFC_WD fields and GLOBAL's poll
 * interval set, pfc_stat_history and BIG_RED_SWITCH kept; off, its row and
 * pfcwd_sw_enable removed, GLOBAL and the other port kept; absent, nothing
 * of the watchdog touched. Each converges.
 */
static void test_patch_watchdog(void **state)
{
	(void)state;
	char *rb = watchdog_switch();
	struct qg_buf t = {0};
	cJSON *end;
	watchdog_patch(BASE_QOS "  pfc_watchdog: {detection_ms: 400, poll_ms: 100}\n" ONE_PORT, rb,
		       &t, &end);
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PFC_WD/Ethernet0/action\","
				   "\"value\":\"drop\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PFC_WD/Ethernet0/"
				   "detection_time\",\"value\":\"400\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PFC_WD/GLOBAL/"
				   "POLL_INTERVAL\",\"value\":\"100\"}"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PORT_QOS_MAP/Ethernet0/"
				   "pfcwd_sw_enable\",\"value\":\"3\"}"));
	assert_null(strstr(t.data, "Ethernet4"));
	assert_string_equal(get(end, "PFC_WD", "Ethernet0", "pfc_stat_history"), "enable");
	assert_string_equal(get(end, "PFC_WD", "Ethernet0", "restoration_time"), "200");
	assert_string_equal(get(end, "PFC_WD", "GLOBAL", "BIG_RED_SWITCH"), "disable");
	cJSON_Delete(end);
	t.len = 0;

	watchdog_patch(BASE_QOS "  pfc_watchdog: false\n" ONE_PORT, rb, &t, &end);
	assert_true(has_op(t.data, "{\"op\":\"remove\",\"path\":\"/PFC_WD/Ethernet0\"}"));
	assert_true(has_op(t.data, "{\"op\":\"remove\",\"path\":\"/PORT_QOS_MAP/Ethernet0/"
				   "pfcwd_sw_enable\"}"));
	assert_null(strstr(t.data, "GLOBAL"));
	assert_null(strstr(t.data, "Ethernet4"));
	assert_non_null(get(end, "PFC_WD", "GLOBAL", "POLL_INTERVAL"));
	cJSON_Delete(end);
	t.len = 0;

	/* Unmanaged: PFC_WD left; pfcwd_sw_enable follows pfc_enable ("3,4" named 4). */
	watchdog_patch(BASE_QOS ONE_PORT, rb, &t, &end);
	assert_null(strstr(t.data, "PFC_WD"));
	assert_true(has_op(t.data, "{\"op\":\"replace\",\"path\":\"/PORT_QOS_MAP/Ethernet0/"
				   "pfcwd_sw_enable\",\"value\":\"3\"}"));
	cJSON_Delete(end);
	t.len = 0;

	/* Off on a switch that has no watchdog: nothing of it to send, no empty PFC_WD. */
	watchdog_patch(BASE_QOS "  pfc_watchdog: false\n" ONE_PORT, TEMPLATE_SWITCH, &t, &end);
	assert_null(strstr(t.data, "PFC_WD"));
	assert_null(cJSON_GetObjectItemCaseSensitive(end, "PFC_WD"));
	cJSON_Delete(end);
	qg_buf_free(&t);
	cJSON_free(rb);
}

/* A port outside the intent whose times are below the intent's poll interval. */
static void test_judge_watchdog(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS
		"  pfc_watchdog: {detection_ms: 400, restoration_ms: 400, poll_ms: 300}\n" ONE_PORT,
		&m);
	cJSON *want = sonic_config_from_model(&m, 0);
	char *rb = watchdog_switch();
	judge_refuses(want, rb,
		      "PFC_WD|Ethernet4, a port the intent does not list, has "
		      "detection_time 200, below the intent's poll_ms 300");
	cJSON_free(rb);
	cJSON_Delete(want);
	qg_model_free(&m);
}

/* The intent's rules: SONiC's ranges, the musts, the shapes. */
static void test_watchdog_intent(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "  pfc_watchdog: true\n" ONE_PORT, &m);
	assert_int_equal(m.qos.pfcwd.state, QG_PFCWD_ON);
	assert_int_equal(m.qos.pfcwd.detection_ms, 200);
	assert_int_equal(m.qos.pfcwd.restoration_ms, 200);
	assert_int_equal(m.qos.pfcwd.poll_ms, 200);
	cJSON *want = sonic_config_from_model(&m, 0);
	assert_string_equal(get(want, "PFC_WD", "GLOBAL", "POLL_INTERVAL"), "200");
	assert_string_equal(get(want, "PFC_WD", "Ethernet0", "action"), "drop");
	assert_string_equal(get(want, "PORT_QOS_MAP", "Ethernet0", "pfcwd_sw_enable"), "3");
	cJSON_Delete(want);
	qg_model_free(&m);
	load_ok(BASE_QOS "  pfc_watchdog: false\n" ONE_PORT, &m);
	assert_int_equal(m.qos.pfcwd.state, QG_PFCWD_OFF);
	want = sonic_config_from_model(&m, 0);
	struct qg_buf f = {0};
	sonic_emit_json(want, &f);
	assert_null(strstr(f.data, "PFC_WD"));
	assert_null(strstr(f.data, "pfcwd"));
	assert_null(strstr(f.data, "null"));
	qg_buf_free(&f);
	cJSON_Delete(want);
	qg_model_free(&m);
	load_ok(BASE_QOS ONE_PORT, &m);
	assert_int_equal(m.qos.pfcwd.state, QG_PFCWD_UNMANAGED);
	want = sonic_config_from_model(&m, 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(want, "PFC_WD"));
	cJSON_Delete(want);
	qg_model_free(&m);
	/* The intent's minimum; SONiC's maxima (sonic-pfcwd.yang), narrower, are its check()'s. */
	load_fails_with(BASE_QOS "  pfc_watchdog: {detection_ms: 99}\n" ONE_PORT,
			"qos.pfc_watchdog.detection_ms: 99 is out of range 100..");
	assert_true(check_refuses(BASE_QOS "  pfc_watchdog: {detection_ms: 5001}\n" ONE_PORT,
				  "qos.pfc_watchdog.detection_ms: 5001 is out of range 100..5000 on "
				  "sonic (sonic-pfcwd.yang)"));
	assert_false(check_refuses(BASE_QOS "  pfc_watchdog: {detection_ms: 5000, poll_ms: 1000, "
					    "restoration_ms: 60000}\n" ONE_PORT,
				   ""));
	assert_true(check_refuses(BASE_QOS "  pfc_watchdog: {detection_ms: 1001, restoration_ms: "
					   "1001, poll_ms: 1001}\n" ONE_PORT,
				  "qos.pfc_watchdog.poll_ms: 1001 is out of range 100..1000 on sonic"));
	load_fails_with(BASE_QOS "  pfc_watchdog: {restoration_ms: 60001}\n" ONE_PORT,
			"out of range 100..60000");
	load_fails_with(BASE_QOS "  pfc_watchdog: {poll_ms: 500}\n" ONE_PORT,
			"detection_ms 200 is below poll_ms 500");
	load_fails_with(BASE_QOS "  pfc_watchdog: {detection: 400}\n" ONE_PORT,
			"allowed: detection_ms, restoration_ms, poll_ms");
	load_fails_with(BASE_QOS "  pfc_watchdog: \"true\"\n" ONE_PORT,
			"got the quoted string 'true'");
	load_fails_with(BASE_QOS "  pfc_watchdog: [400]\n" ONE_PORT, "expected a mapping");
	load_fails_with(BASE_QOS "  detection_ms: 400\n" ONE_PORT,
			"it belongs in qos.pfc_watchdog");
}

/*
 * SONiC's DWRR weights across all 8 queues of a port (config_db.h): the
 * lossless class gets exactly its weight, in the smallest weights; what
 * cannot add up in 1..100 is refused, naming weights that can.
 */
static void test_shares(void **state)
{
	(void)state;
	struct qg_qos q = {
	    .lossless = {.priority = 3,
			 .traffic_class = 3,
			 .ets = {.mode = QG_ETS_WRR, .weight = 50}},
	    .cnp = true,
	    .cnpc = {.priority = 6, .traffic_class = 6, .ets = {.mode = QG_ETS_STRICT}}};
	struct sonic_shares sh;
	sonic_shares(&q, &sh);
	/* 6 lossy queues share 50 %: 300 : 50 each, i.e. 6 : 1; 6 / (6 + 6) = 50 %. */
	assert_true(sh.ok);
	assert_int_equal(sh.lossless, 6);
	assert_int_equal(sh.rest, 1);
	assert_int_equal(sh.n_rest, 6);
	q.cnpc.ets = (struct qg_ets){.mode = QG_ETS_WRR, .weight = 10};
	sonic_shares(&q, &sh);
	/* 50 and 10 against 6 sharing 40: 300 : 60 : 40 -> 15 : 3 : 2; 15 / (15+3+12) = 50 %. */
	assert_true(sh.ok);
	assert_int_equal(sh.lossless, 15);
	assert_int_equal(sh.cnp, 3);
	assert_int_equal(sh.rest, 2);
	q.cnp = false;
	q.lossless.ets.weight = 33; /* 33 * 7 : 67 has no common divisor: 231 > 100 */
	sonic_shares(&q, &sh);
	assert_false(sh.ok);
	assert_int_equal(sh.need_class, 231);
	assert_int_equal(sh.need_rest, 67);
	q.lossless.ets.weight = 100; /* nothing left for the other 7 */
	sonic_shares(&q, &sh);
	assert_false(sh.ok);
	q.lossless.ets.mode = QG_ETS_UNSET; /* every queue alike */
	sonic_shares(&q, &sh);
	assert_true(sh.ok);
	assert_int_equal(sh.rest, 1);
	assert_int_equal(sh.n_rest, 8);
	assert_true(check_refuses("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n"
				  "    dscp: [26]\n    pool: {name: roce, memory_percent: 50}\n"
				  "    ets: {mode: wrr, weight: 33}\n" SONIC_SWITCH,
				  "qos.lossless.ets.weight 33 does not fit every switch OS of this fabric: the "
				  "nearest lossless weights they take are 32 and 35, a limit the sonic target "
				  "sets"));
	assert_true(check_refuses("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n"
				  "    dscp: [26]\n    pool: {name: roce, memory_percent: 50}\n"
				  "    ets: {mode: wrr, weight: 33}\n" SONIC_SWITCH,
				  "this share needs weights 231 and 67"));
	assert_true(check_refuses("version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n"
				  "    dscp: [26]\n    pool: {name: roce, memory_percent: 50}\n"
				  "    ets: {mode: wrr, weight: 100}\n" SONIC_SWITCH,
				  "SONiC gives each of the 7 other queues of a port a DWRR weight of 1 at "
				  "least"));
}

/* The intents of the history matrix: one policy change each from the first. */
#define H_HEAD "version: 1\nfabric: t\nqos:\n"
#define H_PORTS(p) "switches:\n  - {name: sonic, platform: sonic, address: s.lab, ports: [" p "]}\n"
static const char *const history[] = {
    H_HEAD
    "  lossless:\n    priority: 3\n    dscp: [26]\n    pool: {name: roce, "
    "memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n    ets: {mode: wrr, "
    "weight: 50}\n  cnp: {priority: 6, dscp: 48, ets: strict}\n  pfc_watchdog: true\n" H_PORTS(
	"Ethernet0-8/4"),
    /* the lossless priority and DSCP moved, to 4 and to 5 */
    H_HEAD
    "  lossless:\n    priority: 4\n    dscp: [34]\n    pool: {name: roce, "
    "memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n    ets: {mode: wrr, "
    "weight: 50}\n  cnp: {priority: 6, dscp: 48, ets: strict}\n  pfc_watchdog: true\n" H_PORTS(
	"Ethernet0-8/4"),
    H_HEAD "  lossless:\n    priority: 5\n    dscp: [40, 41]\n    pool: {name: roce, "
	   "memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n  cnp: {priority: 6, "
	   "dscp: 48, ets: strict}\n  pfc_watchdog: false\n" H_PORTS("Ethernet0-8/4"),
    /* CNP moved; ECN thresholds changed; WRR 60 */
    H_HEAD "  lossless:\n    priority: 3\n    dscp: [26]\n    pool: {name: roce, "
	   "memory_percent: 50}\n    ecn: {min_kb: 100, max_kb: 1000}\n    ets: {mode: wrr, "
	   "weight: 60}\n  cnp: {priority: 7, dscp: 46, ets: {mode: wrr, weight: 10}}\n"
	   "  pfc_watchdog: {detection_ms: 400, restoration_ms: 800}\n" H_PORTS("Ethernet0-8/4"),
    /* ECN removed, strict, no CNP, watchdog unmanaged, MTU, cable lengths */
    H_HEAD "  switch_mtu: 9100\n  lossless:\n    priority: 3\n    dscp: [26]\n    pool: "
	   "{name: roce, memory_percent: 50}\n    ets: strict\n"
	   "switches:\n  - {name: sonic, platform: sonic, address: s.lab, ports: [Ethernet0-8/4], "
	   "cable_length_m: {default: 5, Ethernet4: 40}}\n",
    /* a port removed, and one added */
    H_HEAD
    "  lossless:\n    priority: 3\n    dscp: [26]\n    pool: {name: roce, "
    "memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n  pfc_watchdog: false\n" H_PORTS(
	"Ethernet0-4/4"),
    H_HEAD
    "  lossless:\n    priority: 4\n    dscp: [26]\n    pool: {name: roce, "
    "memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n  pfc_watchdog: true\n" H_PORTS(
	"Ethernet0-12/4"),
};
#define N_HISTORY (sizeof(history) / sizeof(history[0]))

/*
 * have with the patch to intent applied, and the second diff empty; NULL
 * (have freed) when the judge refuses, which must be the one refusal a
 * history can meet: a port dropped from the intent still using a row the
 * intent no longer has.
 */
static cJSON *pushed(const char *intent, cJSON *have, cJSON **want_out)
{
	struct qg_model m;
	load_ok(intent, &m);
	cJSON *want = sonic_config_from_model(&m, 0);
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	if (sonic_config_judge(want, have, NULL, &d) != 0) {
		assert_true(diag_has(&d, "a port the intent does not list, uses it"));
		assert_null(want_out);
		cJSON_Delete(have);
		cJSON_Delete(want);
		qg_diags_free(&d);
		qg_model_free(&m);
		return NULL;
	}
	bool oom;
	cJSON *patch = sonic_config_patch(want, have, &oom);
	assert_false(oom);
	apply(have, patch);
	assert_null(sonic_config_patch(want, have, &oom)); /* the second diff is empty */
	cJSON_Delete(patch);
	qg_diags_free(&d);
	qg_model_free(&m);
	if (want_out)
		*want_out = want;
	else
		cJSON_Delete(want);
	return have;
}

/*
 * History independence, from the real MSN2700 config_db (SONiC's templates:
 * lossless 3-4 as range rows): for every pair (A, B) of the matrix, A then
 * B leaves the owned state of B's ports exactly as B alone on the factory
 * switch; and B alone makes lossless exactly B's priority and queue.
 */
static void test_history(void **state)
{
	(void)state;
	char *text = source_file("tests/sim/sonic-msn2700.config_db.json");
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	cJSON *factory = NULL;
	assert_int_equal(sonic_readback_parse(text, strlen(text), &factory, &d), 0);
	free(text);
	size_t pairs = 0, refused = 0;
	for (size_t b = 0; b < N_HISTORY; b++) {
		cJSON *want = NULL;
		cJSON *fresh = pushed(history[b], cJSON_Duplicate(factory, true), &want);
		cJSON *expect = sonic_config_owned(want, fresh);
		assert_non_null(expect);
		struct qg_model m;
		load_ok(history[b], &m);
		const struct qg_class *l = &m.qos.lossless;
		char pfc[4];
		snprintf(pfc, sizeof(pfc), "%d", l->priority);
		assert_string_equal(get(fresh, "PORT_QOS_MAP", "Ethernet0", "pfc_enable"), pfc);
		for (int i = 0; i < 8; i++) {
			bool lossless = i == l->traffic_class;
			assert_string_equal(
			    at_index(fresh, "BUFFER_QUEUE", "Ethernet4", i, "profile"),
			    lossless ? SONIC_Q_LOSSLESS : SONIC_Q_LOSSY);
			assert_int_equal(at_index(fresh, "QUEUE", "Ethernet4", i, "wred_profile") !=
					     NULL,
					 lossless && m.qos.ecn);
			if (i > 0)
				assert_int_equal(
				    at_index(fresh, "BUFFER_PG", "Ethernet4", i, "profile") != NULL,
				    i == l->priority);
		}
		qg_model_free(&m);
		for (size_t a = 0; a < N_HISTORY; a++) {
			cJSON *sw = pushed(history[a], cJSON_Duplicate(factory, true), NULL);
			sw = pushed(history[b], sw, NULL);
			if (!sw) {
				/*
				 * Only where A has a port B lacks (B the 2-port intent, or A
				 * the 4-port one): that port still uses A's rows.
				 */
				assert_true(b == N_HISTORY - 2 || a == N_HISTORY - 1);
				refused++;
				continue;
			}
			pairs++;
			cJSON *got = sonic_config_owned(want, sw);
			if (!cJSON_Compare(got, expect, true)) {
				char *g = cJSON_Print(got), *e = cJSON_Print(expect);
				fprintf(stderr, "A %zu then B %zu:\n%s\nB alone:\n%s\n", a, b, g,
					e);
				cJSON_free(g);
				cJSON_free(e);
			}
			assert_true(cJSON_Compare(got, expect, true));
			cJSON_Delete(got);
			cJSON_Delete(sw);
		}
		cJSON_Delete(expect);
		cJSON_Delete(fresh);
		cJSON_Delete(want);
	}
	assert_int_equal(pairs + refused, N_HISTORY * N_HISTORY);
	assert_true(pairs >= (N_HISTORY - 1) * (N_HISTORY - 1));
	cJSON_Delete(factory);
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_port_names),
	    cmocka_unit_test(test_tree_relations),
	    cmocka_unit_test(test_priority_tc),
	    cmocka_unit_test(test_emit_and_settings),
	    cmocka_unit_test(test_port_mtu),
	    cmocka_unit_test(test_check_refusals),
	    cmocka_unit_test(test_explain_rows),
	    cmocka_unit_test(test_patch_converges),
	    cmocka_unit_test(test_patch_removes_dropped),
	    cmocka_unit_test(test_patch_cable_lengths),
	    cmocka_unit_test(test_judge_refusals),
	    cmocka_unit_test(test_patch_watchdog),
	    cmocka_unit_test(test_judge_watchdog),
	    cmocka_unit_test(test_watchdog_intent),
	    cmocka_unit_test(test_readback_parse),
	    cmocka_unit_test(test_shares),
	    cmocka_unit_test(test_history),
	    cmocka_unit_test(test_long_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
