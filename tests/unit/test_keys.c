/* SPDX-License-Identifier: MIT */
/* The key table (model/keys.c), the targets' own rows, and what is made of them (emit/keys_schema.c).
 */
#include "helpers.h"

#include "../../model/keys.h"
#include "../../emit/keys_schema.h"
#include "../../targets/registry.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

static const unsigned all_kinds = QG_KEY_INT | QG_KEY_NUMBER | QG_KEY_BOOL | QG_KEY_STRING |
				  QG_KEY_ENUM | QG_KEY_MAP | QG_KEY_LIST;

/* What every row owes its readers: a type, a doc line, a range or values that make sense. */
static void check_row(const struct qg_key *k)
{
	assert_non_null(k->path);
	assert_true(k->type != 0 && (k->type & ~all_kinds) == 0);
	assert_non_null(k->doc);
	assert_true(strlen(k->doc) > 0);
	assert_null(strchr(k->doc, '\n'));
	if (k->type & (QG_KEY_INT | QG_KEY_NUMBER))
		assert_true(k->lo <= k->hi);
	if (k->type & QG_KEY_ENUM)
		assert_true(k->values_from != QG_KV_ROW || (k->values && k->values[0]));
	if (k->type & QG_KEY_STRING)
		assert_non_null(k->rule);
	if (k->nonempty || k->unique)
		assert_true(k->type & QG_KEY_LIST);
	/* A value that lands in the model is one field: one kind, no mapping or list. */
	if (k->base != QG_KB_NONE)
		assert_true(k->type == QG_KEY_INT || k->type == QG_KEY_NUMBER ||
			    k->type == QG_KEY_ENUM || k->type == QG_KEY_STRING ||
			    k->type == QG_KEY_BOOL);
	/* Text that lands: its size and its check. */
	if (k->base != QG_KB_NONE && k->type == QG_KEY_STRING)
		assert_true(k->size > 0);
}

static void test_rows_unique_typed_documented(void **state)
{
	(void)state;
	size_t n;
	const struct qg_key *rows = qg_keys(&n);
	assert_true(n > 40);
	for (size_t i = 0; i < n; i++) {
		check_row(&rows[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(rows[i].path, rows[j].path))
				fail_msg("key '%s' is in the table twice", rows[i].path);
		assert_ptr_equal(qg_key_find(rows[i].path), &rows[i]);
	}
}

/* Every row hangs from a mapping or a list row above it: the schema reaches it. */
static void test_rows_have_parents(void **state)
{
	(void)state;
	size_t n;
	const struct qg_key *rows = qg_keys(&n);
	for (size_t i = 0; i < n; i++) {
		char parent[128];
		const char *p = rows[i].path;
		size_t len = strlen(p), cut = len;
		bool item = len > 2 && !strcmp(p + len - 2, "[]");
		if (item) {
			cut = len - 2;
		} else {
			const char *dot = strrchr(p, '.');
			if (!dot)
				continue; /* top level */
			cut = (size_t)(dot - p);
		}
		memcpy(parent, p, cut);
		parent[cut] = '\0';
		const struct qg_key *up = qg_key_find(parent);
		if (!up)
			fail_msg("key '%s' has no row '%s' above it", p, parent);
		if (item)
			assert_true(up->type & QG_KEY_LIST);
		else
			assert_true(up->type & QG_KEY_MAP);
	}
}

/* The loader's "allowed:" lists come from here: their order is the messages'. */
static void test_children_in_table_order(void **state)
{
	(void)state;
	const char *names[16];
	assert_int_equal(qg_key_children("qos", names, 15), 6);
	const char *const qos[] = {"trust", "mtu", "switch_mtu", "lossless", "cnp", "pfc_watchdog"};
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(names[i], qos[i]);
	assert_null(names[6]);
	assert_int_equal(qg_key_children("", names, 15), 8);
	assert_string_equal(names[0], "version");
	assert_string_equal(names[7], "acknowledge");
	/* Free keys are no child: any key goes there. */
	assert_int_equal(qg_key_children("switches[].cable_length_m", names, 15), 0);
	assert_int_equal(qg_key_children("qos.lossless", names, 15), 6);
	assert_string_equal(names[2], "traffic_class");
}

static void test_key_path(void **state)
{
	(void)state;
	char out[128];
	qg_key_path("switches[leaf1].port", out, sizeof(out));
	assert_string_equal(out, "switches[].port");
	qg_key_path("qos.lossless.dscp[2]", out, sizeof(out));
	assert_string_equal(out, "qos.lossless.dscp[]");
	qg_key_path("verify.pairs[a,b].min_gbps", out, sizeof(out));
	assert_string_equal(out, "verify.pairs[].min_gbps");
	qg_key_path("qos.mtu", out, sizeof(out));
	assert_string_equal(out, "qos.mtu");
	assert_non_null(qg_key_find("verify.pairs[].min_gbps"));
}

/* A host target's rows are its keys, each typed and documented, none a key every host takes. */
static void test_target_rows_match_keys(void **state)
{
	(void)state;
	size_t hosts_with_rows = 0;
	for (size_t t = 0; qg_targets[t]; t++) {
		const struct qg_target *tg = qg_targets[t];
		for (const struct qg_key *r = tg->key_rows; r && r->path; r++) {
			check_row(r);
			assert_true(qg_target_takes(tg, r->path));
			/* A list's own item rows (linux's nics): typed and documented too. */
			for (const struct qg_key *c = r->items; c && c->path; c++)
				check_row(c);
			assert_true(!r->items || (r->type & QG_KEY_LIST));
			assert_true(!r->unless || qg_target_takes(tg, r->unless));
			/* Not a key every host takes. */
			char common[64];
			snprintf(common, sizeof(common), "hosts[].%s", r->path);
			assert_null(qg_key_find(common));
			/* A scalar row lands somewhere: the loader stores it there (issue 38). */
			assert_true(r->base != QG_KB_NONE ||
				    (r->type & (QG_KEY_LIST | QG_KEY_MAP)));
		}
		hosts_with_rows += tg->key_rows != NULL;
		assert_true(!tg->key_rows || tg->kind == QG_DEVICE_HOST);
	}
	assert_true(hosts_with_rows >= 2);
}

/* Does s keep row k's pattern (POSIX ERE, which the patterns are written to share with ECMA)? */
static bool pattern_takes(const struct qg_key *k, const char *s)
{
	regex_t re;
	if (regcomp(&re, k->pattern, REG_EXTENDED | REG_NOSUB) != 0)
		fail_msg("%s: pattern '%s' does not compile", k->path, k->pattern);
	bool hit = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

/* The schema's patterns accept exactly what the loader's checks do, over edge cases of each. */
static void check_pattern(const struct qg_key *k)
{
	if (!k->pattern)
		return;
	assert_non_null(k->ok);
	char s[128];
	static const char *const fixed[] = {
	    "",
	    "a",
	    "A",
	    "_a",
	    "a_",
	    "a b",
	    "a ",
	    "0",
	    "-a",
	    ".a",
	    "a.b-c_d",
	    "vmnic1",
	    "vmnic12345",
	    "vmk0",
	    "vmnic",
	    "vmk",
	    "vmnic01234",
	    "a\n",
	    "sw1; reload",
	    "root'",
	    "Data Center 1",
	    "DC ",
	    "Ab-1",
	    "x y z",
	    "\xc3\xa9",
	    "a$b",
	    "a\\b",
	    "ens1f0np0",
	    "mlx5_0",
	    "roce-pool",
	    "a_b",
	    "_",
	    "a.",
	    "a-",
	    "z9",
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (k->ok(fixed[i]) != pattern_takes(k, fixed[i]))
			fail_msg("%s: '%s' is %s by the check, %s by the pattern", k->path,
				 fixed[i], k->ok(fixed[i]) ? "taken" : "refused",
				 k->ok(fixed[i]) ? "refused" : "taken");
	/* Every printable character alone, first, and last; every length up to past the rule's. */
	for (int c = 0x20; c < 0x7f; c++) {
		const char *const forms[] = {"_", "_a", "a_", "A_1"}; /* '_' stands for c */
		for (size_t f = 0; f < 4; f++) {
			snprintf(s, sizeof(s), "%s", forms[f]);
			*strchr(s, '_') = (char)c;
			if (k->ok(s) != pattern_takes(k, s))
				fail_msg("%s: '%s': check and pattern disagree", k->path, s);
		}
	}
	for (size_t n = 1; n < 100; n++) {
		for (size_t f = 0; f < 3; f++) {
			memset(s, "aA_"[f], n);
			s[n] = '\0';
			if (k->ok(s) != pattern_takes(k, s))
				fail_msg("%s: %zu x '%c': check and pattern disagree", k->path, n,
					 "aA_"[f]);
		}
	}
}

static void test_patterns_are_the_checks(void **state)
{
	(void)state;
	size_t n, with = 0;
	const struct qg_key *rows = qg_keys(&n);
	for (size_t i = 0; i < n; i++, with += rows[i - 1].pattern != NULL)
		check_pattern(&rows[i]);
	for (size_t t = 0; qg_targets[t]; t++)
		for (const struct qg_key *r = qg_targets[t]->key_rows; r && r->path; r++, with++)
			check_pattern(r);
	assert_true(with >= 10);
}

/* The loader stores an enumeration's index: the values are in the model's enum order. */
static void test_enum_values_in_model_order(void **state)
{
	(void)state;
	assert_string_equal(qg_key_find("qos.trust")->values[QG_TRUST_PCP], "pcp");
	/* ets mode: index 0 is strict, 1 wrr (intent_qos.c's load_ets). */
	assert_string_equal(qg_key_find("qos.lossless.ets.mode")->values[1], "wrr");
	assert_string_equal(qg_key_find("qos.cnp.ets.mode")->values[0], "strict");
	size_t seen = 0;
	for (size_t t = 0; qg_targets[t]; t++)
		for (const struct qg_key *r = qg_targets[t]->key_rows; r && r->path; r++) {
			if (!strcmp(r->path, "function")) {
				assert_string_equal(r->values[QG_FN_VF], "vf");
				seen++;
			}
			if (!strcmp(r->path, "qos_tool")) {
				assert_string_equal(r->values[QG_TOOL_DCB], "dcb");
				seen++;
			}
		}
	assert_int_equal(seen, 2);
}

static const cJSON *at(const cJSON *o, const char *const *path)
{
	for (; *path && o; path++)
		o = cJSON_GetObjectItemCaseSensitive(o, *path);
	return o;
}

/* The schema: the table's shape, the registry's platforms, each host platform's keys. */
static void test_schema_shape(void **state)
{
	(void)state;
	cJSON *s = qg_keys_schema(qg_targets);
	assert_non_null(s);
	const cJSON *v =
	    at(s, (const char *const[]){"properties", "qos", "properties", "lossless", "properties",
					"ecn", "properties", "min_kb", "maximum", NULL});
	assert_non_null(v);
	assert_int_equal((int)v->valuedouble, 100000);
	v = at(s, (const char *const[]){"properties", "switches", "items", "properties", "platform",
					"enum", NULL});
	assert_true(cJSON_GetArraySize(v) >= 3);
	v = at(s,
	       (const char *const[]){"properties", "hosts", "items", "properties", "netdev", NULL});
	assert_non_null(v);
	/* A host's nics (issue 28): its items are the target's own rows. */
	v = at(s, (const char *const[]){"properties", "hosts", "items", "properties", "nics",
					"items", "required", NULL});
	assert_int_equal(cJSON_GetArraySize(v), 2);
	v = at(s, (const char *const[]){"properties", "hosts", "items", "allOf", NULL});
	assert_true(cJSON_GetArraySize(v) >= 2);
	v = at(s, (const char *const[]){"additionalProperties", NULL});
	assert_true(cJSON_IsFalse(v));
	cJSON_Delete(s);
}

/*
 * The hints the loader takes from the rows (issue 26): a unit only on a
 * number, with its spellings; a given flag only where a value lands; a
 * homed key's home is its row's own path.
 */
static void test_units_homes_given(void **state)
{
	(void)state;
	size_t n, units = 0, homed = 0;
	const struct qg_key *rows = qg_keys(&n);
	for (size_t i = 0; i < n; i++) {
		const struct qg_key *k = &rows[i];
		if (k->unit) {
			assert_true(k->type & (QG_KEY_INT | QG_KEY_NUMBER));
			assert_non_null(k->unit_spellings);
			assert_true(strlen(k->unit_spellings) > 0);
			units++;
		}
		if (k->given)
			assert_true(k->base != QG_KB_NONE && k->def);
		homed += k->homed;
	}
	assert_true(units >= 10);
	assert_true(homed >= 30);
	/* Optional text is given when it is not empty. */
	struct qg_switch s = {0};
	const struct qg_key *user = qg_key_find("switches[].user");
	assert_false(qg_key_given(user, &s));
	strcpy(s.user, "admin");
	assert_true(qg_key_given(user, &s));
	const struct qg_key *port = qg_key_find("switches[].port");
	assert_false(qg_key_given(port, &s));
	s.port_given = true;
	assert_true(qg_key_given(port, &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_unique_typed_documented),
	    cmocka_unit_test(test_rows_have_parents),
	    cmocka_unit_test(test_children_in_table_order),
	    cmocka_unit_test(test_key_path),
	    cmocka_unit_test(test_target_rows_match_keys),
	    cmocka_unit_test(test_enum_values_in_model_order),
	    cmocka_unit_test(test_patterns_are_the_checks),
	    cmocka_unit_test(test_schema_shape),
	    cmocka_unit_test(test_units_homes_given),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
