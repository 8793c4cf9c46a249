/* SPDX-License-Identifier: MIT */
/*
 * targets/cumulus: a switch's port roles (issue 28) as NVUE port groups: the
 * qosgen-<role> profiles and bindings, their exact convergence and undo, the
 * judge and check. The roles are filled by hand on a loaded model, as the
 * loader reads them (model/model.h: roles, port_role, cable_m).
 */
#include "helpers.h"

#include "../../emit/explain.h"
#include "../../targets/cumulus/cumulus.h"
#include "../../targets/cumulus/nvue_config.h"
#include "../../targets/cumulus/nvue_patch.h"
#include "../../targets/cumulus/nvue_readback.h"
#include "../../targets/cumulus/nvue_text.h"

#define SWITCH                                                                                     \
	"  pfc_watchdog: true\n"                                                                   \
	"switches:\n  - {name: leaf1, platform: cumulus, address: leaf1.lab, ports: [swp1-4, "     \
	"swp49s0-1]}\n"
#define SWITCH_NO_WD                                                                               \
	"switches:\n  - {name: leaf1, platform: cumulus, address: leaf1.lab, ports: [swp1-4, "     \
	"swp49s0-1]}\n"

/*
 * hosts: swp1-2, ecn 300/3000 KB, cable 3 m; spines: swp49s0-1, cable 40 m,
 * the policy's ecn; swp3-4 in no role, 5 m (a switch-level cable_length_m).
 */
static void add_roles(struct qg_model *m)
{
	struct qg_switch *s = &m->switches[0];
	assert_int_equal(s->n_ports, 6);
	s->n_roles = 2;
	s->roles = calloc(2, sizeof(*s->roles));
	s->port_role = calloc(s->n_ports, sizeof(*s->port_role));
	s->cable_m = calloc(s->n_ports, sizeof(*s->cable_m));
	assert_non_null(s->roles);
	assert_non_null(s->port_role);
	assert_non_null(s->cable_m);
	snprintf(s->roles[0].name, sizeof(s->roles[0].name), "hosts");
	s->roles[0].ecn_given = true;
	s->roles[0].ecn_min_kb = 300;
	s->roles[0].ecn_max_kb = 3000;
	s->roles[0].cable_m = 3;
	snprintf(s->roles[1].name, sizeof(s->roles[1].name), "spines");
	s->roles[1].cable_m = 40;
	const uint8_t role[6] = {1, 1, 0, 0, 2, 2};
	const int cable[6] = {3, 3, 5, 5, 40, 40};
	for (size_t k = 0; k < 6; k++) {
		s->port_role[k] = role[k];
		s->cable_m[k] = cable[k];
	}
}

static char *nv_text(const cJSON *tree)
{
	struct qg_buf b = {0};
	nvue_emit_commands(tree, &b);
	size_t len;
	char *t = qg_buf_steal(&b, &len);
	return t ? t : strdup("");
}

static cJSON *parse(const char *text)
{
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	cJSON *have = NULL;
	assert_int_equal(nvue_config_parse(text, strlen(text), &have, &d), 0);
	qg_diags_free(&d);
	return have;
}

static const cJSON *at_path(const cJSON *o, const char *a, const char *b, const char *c)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	o = cJSON_GetObjectItemCaseSensitive(o, b);
	return cJSON_GetObjectItemCaseSensitive(o, c);
}

/* RFC 7396: what NVUE does with the patch (null deletes, objects merge). */
static cJSON *merge(cJSON *target, const cJSON *patch)
{
	if (!cJSON_IsObject(patch)) {
		cJSON_Delete(target);
		return cJSON_Duplicate(patch, true);
	}
	if (!cJSON_IsObject(target)) {
		cJSON_Delete(target);
		target = cJSON_CreateObject();
	}
	for (const cJSON *c = patch->child; c; c = c->next) {
		cJSON *old = cJSON_DetachItemFromObjectCaseSensitive(target, c->string);
		if (cJSON_IsNull(c)) {
			cJSON_Delete(old);
			continue;
		}
		cJSON_AddItemToObject(target, c->string, merge(old, c));
	}
	return target;
}

/* The profiles, the bindings and default-global's cable length, in every text form. */
static void test_roles_tree(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SWITCH, &m);
	add_roles(&m);
	struct qg_outset o;
	build_ok(&m, &o);
	const char *nv = file_text(&o, "nvue/leaf1.nv");
	const char *lines[] = {
	    "nv set qos congestion-control qosgen-hosts traffic-class 3 ecn enable\n",
	    "nv set qos congestion-control qosgen-hosts traffic-class 3 min-threshold 300000\n",
	    "nv set qos congestion-control qosgen-hosts traffic-class 3 max-threshold 3000000\n",
	    "nv set qos congestion-control qosgen-hosts traffic-class 3 red disable\n",
	    "nv set qos pfc default-global cable-length 5\n",
	    "nv set qos pfc qosgen-hosts cable-length 3\n",
	    "nv set qos pfc qosgen-hosts switch-priority 3\n",
	    "nv set qos pfc qosgen-spines cable-length 40\n",
	    "nv set qos pfc qosgen-spines tx enable\n",
	    "nv set interface swp1-2 qos congestion-control profile qosgen-hosts\n",
	    "nv set interface swp1-2 qos pfc profile qosgen-hosts\n",
	    "nv set interface swp49s0-1 qos pfc profile qosgen-spines\n",
	    "nv set interface swp3-4 link mtu 9216\n",
	    "nv set qos congestion-control default-global traffic-class 3 min-threshold 150000\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (!strstr(nv, lines[i]))
			fprintf(stderr, "missing: %s", lines[i]);
		assert_non_null(strstr(nv, lines[i]));
	}
	/* spines keeps the policy's ECN: default-global's, no profile of its own. */
	assert_null(strstr(nv, "congestion-control qosgen-spines"));
	assert_null(strstr(nv, "interface swp3-4 qos pfc profile"));
	assert_null(strstr(nv, "interface swp3-4 qos congestion-control"));
	const char *yaml = file_text(&o, "nvue/leaf1.yaml");
	assert_non_null(strstr(yaml, "        qosgen-spines:\n"));
	qg_outset_free(&o);

	/* What it writes reads back in sync, as YAML and as the API's JSON. */
	cJSON *want = nvue_config_from_model(&m, 0);
	struct qg_buf y = {0};
	nvue_emit_yaml(want, &y);
	char *json = cJSON_Print(want);
	const char *texts[] = {y.data, json};
	for (int k = 0; k < 2; k++) {
		cJSON *have = parse(texts[k]);
		struct qg_diags d;
		qg_diags_init(&d, "rb");
		assert_int_equal(nvue_config_judge(want, have, &d), 0);
		bool oom;
		assert_null(nvue_config_patch(want, have, &oom));
		assert_false(oom);
		cJSON_Delete(have);
		qg_diags_free(&d);
	}
	cJSON_free(json);
	qg_buf_free(&y);
	cJSON_Delete(want);
	qg_model_free(&m);
}

/*
 * From a switch an earlier intent left (a role gone, a port moved out of a
 * role, a port dropped from the intent still bound, a class the role no
 * longer marks), the patch ends exactly at the intent, a second patch is
 * empty, and the inverse brings the switch back.
 */
static void test_roles_converge(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SWITCH_NO_WD, &m);
	add_roles(&m);
	cJSON *want = nvue_config_from_model(&m, 0);
	const char *rb =
	    "- set:\n"
	    "    interface:\n"
	    "      swp1-2:\n"
	    "        link: {mtu: 9216}\n"
	    "        qos:\n"
	    "          congestion-control: {profile: qosgen-hosts}\n"
	    "          pfc: {profile: qosgen-old}\n"
	    "      swp3:\n"
	    "        link: {mtu: 9216}\n"
	    "        qos:\n"
	    "          congestion-control: {profile: qosgen-old}\n"
	    "          pfc: {profile: qosgen-old}\n"
	    "      swp4:\n"
	    "        link: {mtu: 9216}\n"
	    "        qos:\n"
	    "          mapping: {profile: theirs}\n"
	    "          congestion-control: {profile: qosgen-old}\n"
	    "      swp9:\n"
	    "        link: {mtu: 9216}\n"
	    "        qos:\n"
	    "          congestion-control: {profile: qosgen-hosts}\n"
	    "      swp10:\n"
	    "        qos:\n"
	    "          congestion-control: {profile: my-ecn}\n"
	    "    qos:\n"
	    "      congestion-control:\n"
	    "        my-ecn:\n"
	    "          traffic-class: {'1': {min-threshold: 40000}}\n"
	    "        qosgen-hosts:\n"
	    "          traffic-class:\n"
	    "            '3': {ecn: enable, min-threshold: 150000, max-threshold: 1500000,\n"
	    "                  probability: 100, red: disable}\n"
	    "            '4': {ecn: enable}\n"
	    "        qosgen-old:\n"
	    "          traffic-class: {'3': {ecn: enable}}\n"
	    "      pfc:\n"
	    "        qosgen-old:\n"
	    "          switch-priority: {'3': {}}\n"
	    "          cable-length: 7\n"
	    "        qosgen-spines:\n"
	    "          switch-priority: {'3': {}, '4': {}}\n"
	    "          xoff-threshold: 1500\n";
	cJSON *have = parse(rb);
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	assert_int_equal(nvue_config_judge(want, have, &d), 0);
	qg_diags_free(&d);
	bool oom;
	cJSON *patch = nvue_config_patch(want, have, &oom);
	assert_non_null(patch);
	char *t = nv_text(patch);
	const char *lines[] = {
	    "nv unset qos congestion-control qosgen-old\n",
	    "nv unset qos pfc qosgen-old\n",
	    "nv unset qos congestion-control qosgen-hosts traffic-class 4\n",
	    "nv set qos congestion-control qosgen-hosts traffic-class 3 min-threshold 300000\n",
	    "nv unset qos pfc qosgen-spines switch-priority 4\n",
	    "nv unset qos pfc qosgen-spines xoff-threshold\n",
	    "nv set interface swp1-2 qos pfc profile qosgen-hosts\n",
	    /* swp3 has nothing else in qos: its qos goes whole, as a factory switch has none. */
	    "nv unset interface swp3 qos\n",
	    /* swp4 keeps its own mapping profile. */
	    "nv unset interface swp4 qos congestion-control\n",
	    /* swp9 left the intent: its binding to qosgen-hosts is still qosgen's. */
	    "nv unset interface swp9 qos\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (!strstr(t, lines[i]))
			fprintf(stderr, "missing: %s in\n%s", lines[i], t);
		assert_non_null(strstr(t, lines[i]));
	}
	/* Not qosgen's: another profile and its binding. */
	assert_null(strstr(t, "my-ecn"));
	assert_null(strstr(t, "swp10"));
	assert_null(strstr(t, "qos mapping profile"));
	free(t);

	/* Applied, the switch is at the intent: the second patch is empty. */
	cJSON *after = merge(cJSON_Duplicate(have, true), patch);
	cJSON *again = nvue_config_patch(want, after, &oom);
	if (again) {
		char *a = nv_text(again);
		fprintf(stderr, "second patch:\n%s", a);
		free(a);
	}
	assert_null(again);
	assert_false(oom);
	assert_null(at_path(after, "interface", "swp3", "qos"));
	assert_non_null(at_path(after, "interface", "swp4", "qos"));

	/* The inverse, applied after, is the switch before at every path the patch named. */
	cJSON *undo = nvue_config_inverse(patch, have, &oom);
	assert_non_null(undo);
	cJSON *back = merge(cJSON_Duplicate(after, true), undo);
	assert_true(nvue_config_same_at(patch, back, have));
	assert_true(cJSON_Compare(back, have, true));
	cJSON_Delete(back);
	cJSON_Delete(undo);
	cJSON_Delete(after);
	cJSON_Delete(patch);
	cJSON_Delete(have);
	cJSON_Delete(want);
	qg_model_free(&m);
}

/* A role port with a link-pause profile: NVUE would refuse PFC beside it. */
static void test_roles_judge_link_pause(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SWITCH, &m);
	add_roles(&m);
	cJSON *want = nvue_config_from_model(&m, 0);
	cJSON *have = parse("{\"interface\": {\"swp49s1\": {\"qos\": {\"link-pause\": "
			    "{\"profile\": \"lp\"}}}, \"swp3\": {\"qos\": {\"link-pause\": "
			    "{\"profile\": \"lp\"}}}}}");
	struct qg_diags d;
	qg_diags_init(&d, "rb");
	/* swp3 is in no role: default-global's PFC, which NVUE does not refuse there. */
	assert_int_equal(nvue_config_judge(want, have, &d), 1);
	assert_true(diag_has(&d, "interface swp49s1 has a link-pause profile, and its role gives "
				 "it the PFC profile qosgen-spines"));
	assert_true(diag_has(&d, "nv unset interface swp49s1 qos link-pause"));
	qg_diags_free(&d);
	cJSON_Delete(have);
	cJSON_Delete(want);
	qg_model_free(&m);
}

/* NVUE's profile names are at most 63 characters: qosgen- and 56 of the role's. */
static void test_roles_check_name(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SWITCH, &m);
	add_roles(&m);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	qg_target_cumulus.check(&m, &d);
	assert_int_equal(d.n, 0);
	char name[NVUE_PROFILE_NAME_LEN];
	memset(m.switches[0].roles[1].name, 'a', 56);
	m.switches[0].roles[1].name[56] = '\0';
	assert_true(nvue_role_profile(&m.switches[0].roles[1], name));
	assert_int_equal(strlen(name), 63);
	m.switches[0].roles[1].name[56] = 'a';
	m.switches[0].roles[1].name[57] = '\0';
	assert_false(nvue_role_profile(&m.switches[0].roles[1], name));
	qg_target_cumulus.check(&m, &d);
	assert_int_equal(d.n, 1);
	assert_true(diag_has(&d, "switches[leaf1].roles.aaaa"));
	assert_true(diag_has(&d, "use a role name of at most 56 characters"));
	qg_diags_free(&d);
	qg_model_free(&m);
}

/* explain: a row per role, its ports and profiles. */
static void test_roles_explain(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS SWITCH, &m);
	add_roles(&m);
	cJSON *x = qg_explain_json(&m);
	char *s = cJSON_PrintUnformatted(x);
	assert_non_null(strstr(s, "\"key\":\"cumulus.roles.leaf1.hosts\",\"value\":\"2 ports; "
				  "congestion-control qosgen-hosts 300000..3000000 bytes; pfc "
				  "qosgen-hosts cable-length 3\""));
	assert_non_null(strstr(s, "\"key\":\"cumulus.roles.leaf1.spines\",\"value\":\"2 ports; "
				  "congestion-control default-global; pfc qosgen-spines "
				  "cable-length 40\""));
	/* default-global's cable: the longest of the ports no role's PFC profile holds. */
	assert_non_null(strstr(s, "6 ports, link mtu 9216, pfc cable-length 5"));
	cJSON_free(s);
	cJSON_Delete(x);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roles_tree),
	    cmocka_unit_test(test_roles_converge),
	    cmocka_unit_test(test_roles_judge_link_pause),
	    cmocka_unit_test(test_roles_check_name),
	    cmocka_unit_test(test_roles_explain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
