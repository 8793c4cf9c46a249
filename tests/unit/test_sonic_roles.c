/* SPDX-License-Identifier: MIT */
/*
 * targets/sonic and a switch's port roles (issue 28): a role with ECN
 * thresholds of its own is its own WRED profile, bound to its ports'
 * lossless queue; a role's profile the intent no longer has is removed; the
 * state a chain of role changes leaves equals the last intent on the
 * factory switch.
 */
#include "helpers.h"

#include "../../emit/explain.h"

#include "../../targets/sonic/config_db.h"
#include "../../targets/sonic/config_db_end.h"
#include "../../targets/sonic/config_db_judge.h"
#include "../../targets/sonic/config_db_owned.h"
#include "../../targets/sonic/config_db_patch.h"
#include "../../targets/sonic/sonic_readback.h"

/* Three ports, Ethernet0, 4 and 8; lossless priority and TC 3, ECN 150..1500 kB. */
#define R_INTENT                                                                                   \
	"version: 1\nfabric: t\nqos:\n  lossless:\n    priority: 3\n    dscp: [26]\n"              \
	"    pool: {name: roce, memory_percent: 50}\n    ecn: {min_kb: 150, max_kb: 1500}\n"       \
	"  cnp: {priority: 6, dscp: 48, ets: strict}\n"                                            \
	"switches:\n  - name: sonic\n    platform: sonic\n    address: s.lab\n"                    \
	"    ports: [Ethernet0-8/4]\n"

/*
 * A role set as the roles parser fills it (model/model.h): names, thresholds
 * (0: no ecn of its own), cable lengths, and each port's role + 1.
 */
struct rset {
	size_t n;
	struct {
		const char *name;
		int min_kb, max_kb, cable_m;
	} r[3];
	uint8_t port_role[3];
};

/* The role sets of the matrix: none; added; thresholds changed; one without ECN; renamed. */
static const struct rset rsets[] = {
    {0, {{0}}, {0, 0, 0}},
    {2, {{"hosts", 100, 1000, 3}, {"spines", 300, 3000, 40}}, {1, 1, 2}},
    {2, {{"hosts", 200, 2000, 3}, {"spines", 300, 3000, 40}}, {1, 1, 2}},
    {2, {{"hosts", 200, 2000, 3}, {"spines", 0, 0, 40}}, {1, 2, 2}},
    {1, {{"leafs", 120, 1200, 0}}, {0, 1, 1}},
};
#define N_RSETS (sizeof(rsets) / sizeof(rsets[0]))

static void set_roles(struct qg_model *m, const struct rset *rs)
{
	struct qg_switch *s = &m->switches[0];
	assert_int_equal(s->n_ports, 3);
	if (!rs->n)
		return;
	s->roles = calloc(rs->n, sizeof(*s->roles));
	s->port_role = calloc(s->n_ports, sizeof(*s->port_role));
	assert_non_null(s->roles);
	assert_non_null(s->port_role);
	s->n_roles = rs->n;
	bool cable = false;
	for (size_t r = 0; r < rs->n; r++) {
		snprintf(s->roles[r].name, sizeof(s->roles[r].name), "%s", rs->r[r].name);
		s->roles[r].ecn_given = rs->r[r].min_kb > 0;
		s->roles[r].ecn_min_kb = rs->r[r].min_kb;
		s->roles[r].ecn_max_kb = rs->r[r].max_kb;
		s->roles[r].cable_m = rs->r[r].cable_m;
		cable |= rs->r[r].cable_m > 0;
	}
	memcpy(s->port_role, rs->port_role, s->n_ports);
	/* A role's cable length lands in cable_m (model/model.h). */
	if (cable) {
		s->cable_m = calloc(s->n_ports, sizeof(*s->cable_m));
		assert_non_null(s->cable_m);
		for (size_t k = 0; k < s->n_ports; k++)
			if (s->port_role[k])
				s->cable_m[k] = s->roles[s->port_role[k] - 1].cable_m;
	}
}

static cJSON *want_of(const struct rset *rs)
{
	struct qg_model m;
	load_ok(R_INTENT, &m);
	set_roles(&m, rs);
	cJSON *want = sonic_config_from_model(&m, 0);
	assert_non_null(want);
	qg_model_free(&m);
	return want;
}

static const char *get(const cJSON *tree, const char *table, const char *key, const char *field)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tree, table), key),
	    field);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_role_profiles(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(R_INTENT, &m);
	set_roles(&m, &rsets[3]);
	cJSON *t = sonic_config_from_model(&m, 0);
	assert_non_null(t);
	/* hosts has thresholds of its own: its profile, in bytes, marking only. */
	assert_string_equal(get(t, "WRED_PROFILE", "qosgen_ecn_hosts", "green_min_threshold"),
			    "200000");
	assert_string_equal(get(t, "WRED_PROFILE", "qosgen_ecn_hosts", "red_max_threshold"),
			    "2000000");
	assert_string_equal(get(t, "WRED_PROFILE", "qosgen_ecn_hosts", "wred_yellow_enable"),
			    "false");
	assert_string_equal(get(t, "WRED_PROFILE", "qosgen_ecn_hosts", "ecn"), "ecn_all");
	/* spines has none: the policy's profile, and no profile of its own. */
	assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t, "WRED_"
											 "PROFILE"),
						     "qosgen_ecn_spines"));
	assert_string_equal(get(t, "WRED_PROFILE", SONIC_WRED, "green_min_threshold"), "150000");
	assert_string_equal(get(t, "QUEUE", "Ethernet0|3", "wred_profile"), "qosgen_ecn_hosts");
	assert_string_equal(get(t, "QUEUE", "Ethernet4|3", "wred_profile"), SONIC_WRED);
	assert_string_equal(get(t, "QUEUE", "Ethernet8|3", "wred_profile"), SONIC_WRED);
	assert_null(get(t, "QUEUE", "Ethernet0|4", "wred_profile"));
	/* The roles' cable lengths, per port. */
	assert_string_equal(get(t, "CABLE_LENGTH", SONIC_CABLE_ROW, "Ethernet0"), "3m");
	assert_string_equal(get(t, "CABLE_LENGTH", SONIC_CABLE_ROW, "Ethernet8"), "40m");
	cJSON_Delete(t);

	/* The settings say it by row, the ports of one profile under one key. */
	struct qg_settings s = {0};
	assert_int_equal(qg_target_for(&m, QG_DEVICE_SWITCH, 0)->settings(&m, 0, &s), 0);
	assert_string_equal(
	    qg_settings_get(&s, "WRED_PROFILE|qosgen_ecn_hosts.yellow_min_threshold"), "200000");
	assert_string_equal(qg_settings_get(&s, "QUEUE|Ethernet0|3.wred_profile"),
			    "qosgen_ecn_hosts");
	assert_string_equal(qg_settings_get(&s, "QUEUE|Ethernet4-8/4|3.wred_profile"), SONIC_WRED);
	qg_settings_free(&s);

	/* explain: a row per role. */
	cJSON *x = qg_explain_json(&m);
	char *text = cJSON_PrintUnformatted(x);
	assert_non_null(strstr(text, "\"key\":\"sonic.sonic.roles.hosts\",\"value\":\"1 port, "
				     "ECN qosgen_ecn_hosts 200000..2000000 bytes, cable 3m\""));
	assert_non_null(strstr(text, "\"key\":\"sonic.sonic.roles.spines\",\"value\":\"2 ports, "
				     "ECN qosgen_ecn (the policy's thresholds), cable 40m\""));
	cJSON_free(text);
	cJSON_Delete(x);
	qg_model_free(&m);
}

/* The roles as the intent gives them (intent/intent_roles.c) build the same tree as by hand. */
static void test_roles_from_intent(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(R_INTENT "    roles:\n"
			 "      hosts: {ports: [Ethernet0], cable_length_m: 3, ecn: {min_kb: 200, "
			 "max_kb: 2000}}\n"
			 "      spines: {ports: [Ethernet4-8/4], cable_length_m: 40}\n",
		&m);
	assert_int_equal(m.switches[0].n_roles, 2);
	cJSON *got = sonic_config_from_model(&m, 0), *want = want_of(&rsets[3]);
	assert_true(cJSON_Compare(got, want, true));
	cJSON_Delete(got);
	cJSON_Delete(want);
	qg_model_free(&m);
	/* And the name check at the role, in compiler form. */
	struct qg_diags d;
	load_ok(R_INTENT "    roles:\n      rack.1: {ports: [Ethernet0], ecn: {min_kb: 200, "
			 "max_kb: 2000}}\n",
		&m);
	qg_diags_init(&d, "t.yaml");
	assert_int_not_equal(qg_build_check(&m, &d, NULL), 0);
	assert_true(diag_has(&d, "role 'rack.1': on sonic a role's ECN thresholds are WRED_PROFILE "
				 "'qosgen_ecn_rack.1'"));
	qg_diags_free(&d);
	qg_model_free(&m);
}

/* The target's check() on a loaded intent with roles: whether it refuses, with needle. */
static bool roles_refused(const char *name, const char *needle)
{
	struct qg_model m;
	struct qg_diags d;
	load_ok(R_INTENT, &m);
	struct rset rs = {1, {{name, 100, 1000, 0}}, {1, 0, 0}};
	set_roles(&m, &rs);
	qg_diags_init(&d, "t.yaml");
	bool refused = qg_build_check(&m, &d, NULL) != 0;
	if (refused)
		assert_true(diag_has(&d, needle));
	qg_diags_free(&d);
	qg_model_free(&m);
	return refused;
}

static void test_role_names(void **state)
{
	(void)state;
	/* sonic-wred-profile.yang: 1..32 of A-Z a-z 0-9 _ -; "qosgen_ecn_" takes 11. */
	assert_false(roles_refused("spines-2_a", ""));
	assert_false(roles_refused("abcdefghijklmnopqrstu", "")); /* 21 */
	assert_true(roles_refused("abcdefghijklmnopqrstuv", "at most 21 characters"));
	assert_true(roles_refused("rack.1", "WRED_PROFILE 'qosgen_ecn_rack.1'"));
	/* A role without thresholds of its own makes no profile: any name. */
	struct qg_model m;
	struct qg_diags d;
	load_ok(R_INTENT, &m);
	struct rset rs = {1, {{"rack.1.very-long-name-of-a-role", 0, 0, 5}}, {1, 0, 0}};
	set_roles(&m, &rs);
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_build_check(&m, &d, NULL), 0);
	qg_diags_free(&d);
	qg_model_free(&m);
}

static cJSON *factory_switch(void)
{
	char *text = source_file("tests/sim/sonic-msn2700.config_db.json");
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	cJSON *factory = NULL;
	assert_int_equal(sonic_readback_parse(text, strlen(text), &factory, &d), 0);
	free(text);
	qg_diags_free(&d);
	return factory;
}

/* have brought to want (the end state the patch reaches), and the second diff empty. */
static cJSON *pushed(const cJSON *want, cJSON *have)
{
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	assert_int_equal(sonic_config_judge(want, have, NULL, &d), 0);
	qg_diags_free(&d);
	bool oom = false;
	cJSON *end = sonic_config_end_state(want, have, &oom);
	assert_false(oom);
	assert_non_null(end);
	cJSON_Delete(have);
	assert_null(sonic_config_patch(want, end, &oom));
	assert_false(oom);
	return end;
}

/* The WRED profiles of doc whose name is qosgen's, as "name,name,". */
static void profiles(const cJSON *doc, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "WRED_PROFILE");
	for (const cJSON *r = t ? t->child : NULL; r; r = r->next)
		if (!strncmp(r->string, "qosgen_", 7))
			n += (size_t)snprintf(out + n, cap - n, "%s,", r->string);
}

/*
 * History independence over role changes: for every pair (A, B) of the
 * role sets, A then B on the factory switch leaves the state qosgen owns
 * exactly as B alone, with exactly B's role profiles.
 */
static void test_role_history(void **state)
{
	(void)state;
	cJSON *factory = factory_switch();
	for (size_t b = 0; b < N_RSETS; b++) {
		cJSON *want = want_of(&rsets[b]);
		cJSON *fresh = pushed(want, cJSON_Duplicate(factory, true));
		cJSON *expect = sonic_config_owned(want, fresh);
		assert_non_null(expect);
		char want_p[256], got_p[256];
		profiles(fresh, want_p, sizeof(want_p));
		for (size_t a = 0; a < N_RSETS; a++) {
			cJSON *wa = want_of(&rsets[a]);
			cJSON *sw = pushed(wa, cJSON_Duplicate(factory, true));
			cJSON_Delete(wa);
			sw = pushed(want, sw);
			cJSON *got = sonic_config_owned(want, sw);
			if (!cJSON_Compare(got, expect, true)) {
				char *g = cJSON_Print(got), *e = cJSON_Print(expect);
				fprintf(stderr, "A %zu then B %zu:\n%s\nB alone:\n%s\n", a, b, g,
					e);
				cJSON_free(g);
				cJSON_free(e);
			}
			assert_true(cJSON_Compare(got, expect, true));
			profiles(sw, got_p, sizeof(got_p));
			assert_string_equal(got_p, want_p);
			cJSON_Delete(got);
			cJSON_Delete(sw);
		}
		cJSON_Delete(expect);
		cJSON_Delete(fresh);
		cJSON_Delete(want);
	}
	cJSON_Delete(factory);
}

/*
 * A role's profile the intent no longer has goes, with its use on the
 * intent's ports; a port outside the intent still using it: refused.
 */
static void test_role_removed(void **state)
{
	(void)state;
	cJSON *with = want_of(&rsets[1]), *without = want_of(&rsets[0]);
	cJSON *sw = pushed(with, factory_switch());
	assert_string_equal(get(sw, "QUEUE", "Ethernet8|3", "wred_profile"), "qosgen_ecn_spines");
	bool oom = false;
	cJSON *patch = sonic_config_patch(without, sw, &oom);
	struct qg_buf t = {0};
	sonic_patch_text(patch, &t);
	assert_non_null(
	    strstr(t.data, "{\"op\":\"remove\",\"path\":\"/WRED_PROFILE/qosgen_ecn_spines\"}"));
	assert_non_null(
	    strstr(t.data, "{\"op\":\"remove\",\"path\":\"/WRED_PROFILE/qosgen_ecn_hosts\"}"));
	assert_non_null(strstr(t.data, "{\"op\":\"replace\",\"path\":\"/QUEUE/Ethernet8|3/"
				       "wred_profile\",\"value\":\"qosgen_ecn\"}"));
	qg_buf_free(&t);
	cJSON_Delete(patch);

	/* Ethernet16, outside the intent, uses hosts' profile: its removal is refused. */
	cJSON *q16 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(sw, "QUEUE"),
						      "Ethernet16|3");
	assert_non_null(q16);
	cJSON_ReplaceItemInObjectCaseSensitive(q16, "wred_profile",
					       cJSON_CreateString("qosgen_ecn_hosts"));
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	assert_int_equal(sonic_config_judge(without, sw, NULL, &d), 1);
	assert_true(diag_has(&d, "the intent no longer has WRED_PROFILE|qosgen_ecn_hosts, but "
				 "QUEUE|Ethernet16|3, a port the intent does not list"));
	qg_diags_free(&d);
	/* Kept by the intent (with): no refusal. */
	qg_diags_init(&d, "rb");
	assert_int_equal(sonic_config_judge(with, sw, NULL, &d), 0);
	qg_diags_free(&d);
	cJSON_Delete(sw);
	cJSON_Delete(with);
	cJSON_Delete(without);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_role_profiles),     cmocka_unit_test(test_role_names),
	    cmocka_unit_test(test_roles_from_intent), cmocka_unit_test(test_role_history),
	    cmocka_unit_test(test_role_removed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
