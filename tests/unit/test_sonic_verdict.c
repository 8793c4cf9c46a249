/* SPDX-License-Identifier: MIT */
/*
 * SONiC's versions and its buffer manager's verdict (issue 34):
 * targets/sonic/sonic_version.c on captures of `show version` from public
 * sources (tests/fixtures/sonic-show-version/, README.md there says whose),
 * and targets/sonic/sonic_verdict.c on a real MSN2700's APPL_DB
 * (tests/fixtures/sonic-db/) against the CONFIG_DB of the same switch
 * (tests/sim/sonic-msn2700.config_db.json), and on sonic-db-dump's own shape.
 */
#include "helpers.h"

#include "../../model/osversion.h"
#include "../../targets/sonic/sonic.h"
#include "../../targets/sonic/sonic_verdict.h"
#include "../../targets/sonic/sonic_version.h"

#include <errno.h>

static int version_of(const char *text, char out[QG_VERSION_LEN], char *err, size_t errlen)
{
	return sonic_version_parse(text, strlen(text), out, QG_VERSION_LEN, err, errlen);
}

static void want_release(const char *fixture, const char *release)
{
	char *t = source_file(fixture), v[QG_VERSION_LEN], err[512] = "";
	int rc = version_of(t, v, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", fixture, err);
	assert_int_equal(rc, 0);
	assert_string_equal(v, release);
	assert_true(qg_version_ok(v));
	free(t);
}

static void want_no_release(const char *fixture, const char *said)
{
	char *t = source_file(fixture), v[QG_VERSION_LEN], err[512] = "";
	assert_int_equal(version_of(t, v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, said));
	assert_non_null(strstr(err, "a build of no SONiC release branch"));
	free(t);
}

#define SV "tests/fixtures/sonic-show-version/"

/* The release off each capture: a release branch's build, a vendor's tail, a dated tag. */
static void test_version_captures(void **state)
{
	(void)state;
	want_release(SV "202012-msn2700.txt", "202012");
	want_release(SV "202111-msn3800.txt", "202111");
	want_release(SV "202205-mlnx-internal.txt", "202205");
	want_release(SV "202405-marvell.txt", "202405"); /* the terminal's trailing spaces */
	/* A dated tag: its branch is the first six digits (M.20201231.xx is on 202012). */
	want_release(SV "20201231-msft.txt", "202012");
	want_no_release(SV "head-msn2700.txt", "'SONiC.HEAD.32-21ea29a'");
	want_no_release(SV "master-7060x6.txt", "'SONiC.master-23539.912087-e9a01ce4b'");

	/* sonic-mgmt's four kinds: only the dated tag names a release. */
	char *t = source_file(SV "test_pretest-patterns.txt");
	const char *want[] = {NULL, NULL, "202505", NULL};
	size_t n = 0;
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n"), n++) {
		const char *at = strstr(line, "SONiC Software Version:");
		assert_non_null(at);
		char v[QG_VERSION_LEN], err[512];
		int rc = version_of(at, v, err, sizeof(err));
		assert_true(n < 4);
		if (want[n]) {
			assert_int_equal(rc, 0);
			assert_string_equal(v, want[n]);
		} else {
			assert_int_equal(rc, -1);
		}
	}
	assert_int_equal(n, 4);
	free(t);
}

static void test_version_refusals(void **state)
{
	(void)state;
	char v[QG_VERSION_LEN], err[512];
	assert_int_equal(version_of("Platform: x86_64-mlnx_msn2700-r0\n", v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "printed no 'SONiC Software Version:' line"));
	assert_int_equal(version_of("", v, err, sizeof(err)), -1);
	/* No month 13; a release name is six digits, not five nor seven. */
	assert_int_equal(
	    version_of("SONiC Software Version: SONiC.202313.4-abc\n", v, err, sizeof(err)), -1);
	assert_int_equal(version_of("SONiC Software Version: SONiC.20231.4\n", v, err, sizeof(err)),
			 -1);
	assert_int_equal(
	    version_of("SONiC Software Version: SONiC.2023111.4\n", v, err, sizeof(err)), -1);
	/* Not SONiC's prefix (an Enterprise SONiC build names itself otherwise). */
	assert_int_equal(version_of("SONiC Software Version: SONiC-OS-4.2.0-Enterprise_Base\n", v,
				    err, sizeof(err)),
			 -1);
	/* What the switch printed is shown printable and cut. */
	assert_int_equal(
	    version_of("SONiC Software Version: SONiC.\x1b[31mx\n", v, err, sizeof(err)), -1);
	assert_null(strchr(err, '\x1b'));
	char longv[400];
	snprintf(longv, sizeof(longv), "SONiC Software Version: SONiC.202311.%0200d\n", 7);
	assert_int_equal(version_of(longv, v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than any SONiC's"));
	/* A release's own forms: at the end, before '_', '-' or '.'. */
	const char *ok[] = {"SONiC.202605", "SONiC.202505_1.0.0-104", "SONiC.202311-rc1",
			    "SONiC.202211.5", "SONiC.20220531.04"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char line[128];
		snprintf(line, sizeof(line), "\nSONiC Software Version: %s\n", ok[i]);
		assert_int_equal(version_of(line, v, err, sizeof(err)), 0);
		assert_int_equal(strncmp(v, ok[i] + 6, 6), 0);
	}
	/* A private image of a dated prefix names no release (sonic-mgmt's "private"). */
	assert_int_equal(version_of("SONiC Software Version: SONiC.20250902_202505_counters.1-5\n",
				    v, err, sizeof(err)),
			 -1);
}

/* The SONiC target's range: 202205 (CABLE_LENGTH's YANG model) to 202605, one dialect. */
static void test_sonic_versions(void **state)
{
	(void)state;
	const struct qg_os_versions *vs = qg_target_sonic.versions;
	char msg[768];
	assert_non_null(vs);
	assert_string_equal(vs->oldest, "202205");
	assert_string_equal(vs->newest, "202605");
	assert_int_equal(qg_os_version_match(vs, "202605", "202205", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(vs, "202205", "202511", msg, sizeof(msg)), 0);
	assert_int_equal(qg_os_version_match(vs, "202605", "202111", msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "SONiC 202111, outside the versions qosgen writes (202205 to "
				    "202605"));
	assert_int_equal(qg_os_version_match(vs, "202605", "202611", msg, sizeof(msg)), -1);
	assert_string_equal(qg_os_dialect(vs, "202205")->name, "config-db");
	assert_ptr_equal(qg_os_dialect(vs, "202205"), qg_os_dialect(vs, "202605"));
}

/* A dump of text, which must parse. */
static cJSON *dump_ok(const char *text)
{
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	cJSON *out = NULL;
	int rc = sonic_dbdump_parse(text, strlen(text), &out, &d);
	if (rc)
		fprintf(stderr, "%s\n", d.n ? d.v[0].msg : "?");
	assert_int_equal(rc, 0);
	qg_diags_free(&d);
	return out;
}

static void dump_bad(const char *text, const char *why)
{
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	cJSON *out = NULL;
	assert_int_equal(sonic_dbdump_parse(text, strlen(text), &out, &d), -EINVAL);
	assert_null(out);
	assert_true(d.n > 0);
	if (!strstr(d.v[0].msg, why))
		fprintf(stderr, "got: %s\n", d.v[0].msg);
	assert_non_null(strstr(d.v[0].msg, why));
	qg_diags_free(&d);
}

static void test_dbdump_parse(void **state)
{
	(void)state;
	char *t = source_file("tests/fixtures/sonic-db/copp-state_db.dump.json");
	cJSON *d = dump_ok(t);
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(d, "COPP_TRAP_CAPABILITY_TABLE|traps");
	assert_non_null(h);
	assert_non_null(strstr(cJSON_GetObjectItemCaseSensitive(h, "trap_ids")->valuestring,
			       "neigh_discovery"));
	cJSON_Delete(d);
	free(t);

	d = dump_ok("{}");
	assert_null(d->child);
	cJSON_Delete(d);
	/* The producer's sets are skipped: not hashes. */
	d = dump_ok(
	    "{\"BUFFER_PG_TABLE_KEY_SET\": {\"type\": \"set\", \"value\": [\"Ethernet0:3\"]},"
	    " \"BUFFER_PG_TABLE:Ethernet0:3\": {\"type\": \"hash\", \"value\": {\"profile\":"
	    " \"p\"}}}");
	assert_int_equal(cJSON_GetArraySize(d), 1);
	cJSON_Delete(d);

	dump_bad("", "the read-back is empty");
	dump_bad("Traceback (most recent call last):", "not a JSON object");
	dump_bad("[]", "not a JSON object");
	dump_bad("{\"K\": 5}", "is not {\"type\"");
	dump_bad("{\"K\": {\"type\": \"hash\", \"value\": {\"profile\": 5}}}",
		 "not an object of strings");
	dump_bad("{\"K\": {\"type\": \"hash\", \"value\": {\"a\": \"1\"}}, \"K\": {\"type\": "
		 "\"hash\", \"value\": {\"a\": \"2\"}}}",
		 "key K twice");
	char big[600];
	snprintf(big, sizeof(big), "{\"%0300d\": {\"type\": \"hash\", \"value\": {}}}", 1);
	dump_bad(big, "a key of 300 bytes");
}

/* The real APPL_DB, as sonic-db-dump -y would print its buffer tables. */
static cJSON *appl_msn2700(void)
{
	char *t = source_file("tests/fixtures/sonic-db/acs-msn2700-t1-version_3_0_3.appl_db.json");
	cJSON *raw = cJSON_Parse(t), *wrapped = cJSON_CreateObject();
	assert_non_null(raw);
	for (cJSON *e = raw->child; e; e = e->next) {
		if (strncmp(e->string, "BUFFER_PG_TABLE:", 16) &&
		    strncmp(e->string, "BUFFER_PROFILE_TABLE:", 21))
			continue;
		cJSON *entry = cJSON_AddObjectToObject(wrapped, e->string);
		cJSON_AddNumberToObject(entry, "expireat", 1705044089.302891);
		cJSON_AddNumberToObject(entry, "ttl", -0.001);
		cJSON_AddStringToObject(entry, "type", "hash");
		cJSON_AddItemToObject(entry, "value", cJSON_Duplicate(e, true));
	}
	char *text = cJSON_Print(wrapped);
	cJSON *d = dump_ok(text);
	free(text);
	cJSON_Delete(wrapped);
	cJSON_Delete(raw);
	free(t);
	return d;
}

static cJSON *config_msn2700(void)
{
	char *t = source_file("tests/sim/sonic-msn2700.config_db.json");
	cJSON *c = cJSON_Parse(t);
	assert_non_null(c);
	free(t);
	return c;
}

static void set_port(cJSON *config, const char *port, const char *f, const char *v)
{
	cJSON *row = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(config, "PORT"), port);
	cJSON_DeleteItemFromObjectCaseSensitive(row, f);
	if (v)
		cJSON_AddStringToObject(row, f, v);
}

static void set_cable(cJSON *config, const char *port, const char *v)
{
	cJSON *row = cJSON_GetObjectItem(cJSON_GetObjectItem(config, "CABLE_LENGTH"), "AZURE");
	cJSON_DeleteItemFromObjectCaseSensitive(row, port);
	if (v)
		cJSON_AddStringToObject(row, port, v);
}

static const char *const ports[] = {"Ethernet0", "Ethernet100"};

/*
 * The real pair holds: each port's lossless PG 3 in APPL_DB's "3-4" entry on the
 * profile for config_db's speed and cable, with buffermgrd's own figures.
 */
static void test_verdict_held(void **state)
{
	(void)state;
	cJSON *config = config_msn2700(), *appl = appl_msn2700();
	struct sonic_verdict v;
	assert_int_equal(sonic_verdict_judge(ports, 2, 3, config, appl, NULL, &v), 0);
	assert_false(sonic_verdict_pending(&v));
	const struct sonic_pg *p = &v.pg[0];
	assert_int_equal(p->state, SONIC_PG_HELD);
	assert_string_equal(p->held, "pg_lossless_10000_300m_profile");
	assert_string_equal(p->entry, "Ethernet0:3-4");
	assert_int_equal(p->fig.xon, 19456);
	assert_int_equal(p->fig.xoff, 36864);
	assert_int_equal(p->fig.size, 56320);
	/* 3-4 on the lossless profile, 0 on ingress_lossy_profile (size 0). */
	assert_int_equal(p->port_headroom, 2 * 56320);
	assert_int_equal(p->max_headroom, -1);
	assert_int_equal(v.pg[1].state, SONIC_PG_HELD);
	assert_string_equal(v.pg[1].held, "pg_lossless_100000_40m_profile");
	char err[2048] = "";
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 0);

	/* The switch's figures against qosgen's: within the tolerance, then beyond it. */
	struct qg_buf w = {0};
	struct sonic_figures same = {19456, 36864, 56320}, far = {19456, 45000, 64512};
	assert_int_equal(sonic_headroom_compare(p, &same, 5, &w), 0);
	assert_int_equal(w.len, 0);
	assert_int_equal(sonic_headroom_compare(p, &far, 5, &w), 1);
	assert_non_null(strstr(w.data, "Ethernet0 PG 3: the switch's own headroom "
				       "(pg_lossless_10000_300m_profile in APPL_DB: xoff 36864, "
				       "xon 19456, size 56320 bytes) differs from qosgen's (xoff "
				       "45000, xon 19456, size 64512) by more than 5 %"));
	/* 45000 against 36864 is 22 %: within a 25 % tolerance. */
	struct qg_buf w2 = {0};
	assert_int_equal(sonic_headroom_compare(p, &far, 25, &w2), 0);
	qg_buf_free(&w);
	qg_buf_free(&w2);
	sonic_verdict_free(&v);
	cJSON_Delete(appl);
	cJSON_Delete(config);
}

/* What the switch does not hold, and why, with its numbers. */
static void test_verdict_refused(void **state)
{
	(void)state;
	cJSON *config = config_msn2700(), *appl = appl_msn2700();
	struct sonic_verdict v;
	char err[2048];

	/* The port's limit below what its PGs hold: over. */
	cJSON *limits = dump_ok("{\"BUFFER_MAX_PARAM_TABLE|Ethernet0\": {\"type\": \"hash\", "
				"\"value\": {\"max_headroom_size\": \"100000\", "
				"\"max_priority_groups\": \"8\"}}}");
	assert_int_equal(sonic_verdict_judge(ports, 2, 3, config, appl, limits, &v), 0);
	assert_int_equal(v.pg[0].state, SONIC_PG_OVER);
	assert_int_equal(v.pg[1].state, SONIC_PG_HELD);
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "Ethernet0's PGs hold 112640 bytes of headroom in APPL_DB, at "
				    "or over the port's max_headroom_size 100000"));
	sonic_verdict_free(&v);
	cJSON_Delete(limits);

	/* A longer cable that buffermgrd has not taken: APPL_DB keeps the old profile. */
	set_cable(config, "Ethernet0", "2000m");
	limits = dump_ok("{\"BUFFER_MAX_PARAM_TABLE|Ethernet0\": {\"type\": \"hash\", "
			 "\"value\": {\"max_headroom_size\": \"131072\"}}}");
	assert_int_equal(sonic_verdict_judge(ports, 2, 3, config, appl, limits, &v), 0);
	assert_true(sonic_verdict_pending(&v));
	assert_int_equal(v.pg[0].state, SONIC_PG_PENDING);
	assert_int_equal(sonic_verdict_refused(&v, 5, err, sizeof(err)), 1);
	assert_non_null(strstr(err,
			       "SONiC's buffer manager has not applied Ethernet0's lossless PG "
			       "3 within 5 s: APPL_DB keeps BUFFER_PG_TABLE:Ethernet0:3-4 on "
			       "pg_lossless_10000_300m_profile (xoff 36864, xon 19456, size "
			       "56320), not a profile for config_db's speed 10000, cable "
			       "2000m, MTU 9100; its limit is max_headroom_size 131072 bytes"));
	assert_non_null(strstr(err, "a shorter cable"));
	sonic_verdict_free(&v);
	cJSON_Delete(limits);

	/* The MTU qosgen writes names the profile: an old one without it is pending. */
	set_cable(config, "Ethernet0", "300m");
	set_port(config, "Ethernet0", "mtu", "9216");
	assert_int_equal(sonic_verdict_judge(ports, 2, 3, config, appl, NULL, &v), 0);
	assert_int_equal(v.pg[0].state, SONIC_PG_PENDING);
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "STATE_DB gives the port no max_headroom_size"));
	sonic_verdict_free(&v);
	set_port(config, "Ethernet0", "mtu", "9100");

	/* No PG entry at all, on two ports: the first said, the other named. */
	cJSON_DeleteItemFromObjectCaseSensitive(appl, "BUFFER_PG_TABLE:Ethernet0:3-4");
	cJSON_DeleteItemFromObjectCaseSensitive(appl, "BUFFER_PG_TABLE:Ethernet100:3-4");
	assert_int_equal(sonic_verdict_judge(ports, 2, 3, config, appl, NULL, &v), 0);
	assert_int_equal(sonic_verdict_refused(&v, 7, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "APPL_DB has no BUFFER_PG_TABLE:Ethernet0:3 for config_db's "
				    "speed 10000, cable 300m, MTU 9100"));
	assert_non_null(strstr(err, "(and 1 more PGs: Ethernet100)"));
	sonic_verdict_free(&v);

	/* No cable length: never computed. Cable 0m: no lossless PG. */
	set_cable(config, "Ethernet0", NULL);
	assert_int_equal(sonic_verdict_judge(ports, 1, 3, config, appl, NULL, &v), 0);
	assert_int_equal(v.pg[0].state, SONIC_PG_NO_INPUT);
	assert_false(sonic_verdict_pending(&v));
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "config_db gives Ethernet0 no cable length (CABLE_LENGTH)"));
	sonic_verdict_free(&v);
	set_cable(config, "Ethernet0", "0m");
	assert_int_equal(sonic_verdict_judge(ports, 1, 3, config, appl, NULL, &v), 0);
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "cable length is 0m"));
	sonic_verdict_free(&v);

	/* Admin down: not judged, said as a warning. */
	set_port(config, "Ethernet0", "admin_status", "down");
	assert_int_equal(sonic_verdict_judge(ports, 1, 3, config, appl, NULL, &v), 0);
	assert_int_equal(v.pg[0].state, SONIC_PG_DOWN);
	assert_int_equal(sonic_verdict_refused(&v, 0, err, sizeof(err)), 0);
	struct qg_buf w = {0};
	sonic_verdict_notes(&v, &w);
	assert_non_null(strstr(w.data, "Ethernet0 is admin down"));
	qg_buf_free(&w);
	sonic_verdict_free(&v);
	cJSON_Delete(appl);
	cJSON_Delete(config);
}

/* Names from the switch are bounded and shown printable; odd entries are skipped. */
static void test_verdict_hostile(void **state)
{
	(void)state;
	cJSON *config = config_msn2700();
	cJSON *appl = dump_ok(
	    "{\"BUFFER_PG_TABLE:Ethernet0:3\": {\"type\": \"hash\", \"value\": {\"profile\": "
	    "\"pg_lossless_10000_300m_\\u001b[2Jprofile\"}},"
	    " \"BUFFER_PG_TABLE:Ethernet0:x-y\": {\"type\": \"hash\", \"value\": {\"profile\": "
	    "\"a\"}},"
	    " \"BUFFER_PG_TABLE:Ethernet0\": {\"type\": \"hash\", \"value\": {}},"
	    " \"BUFFER_PG_TABLE:Ethernet0:9-2\": {\"type\": \"hash\", \"value\": {\"profile\": "
	    "\"b\"}},"
	    " \"BUFFER_PROFILE_TABLE:b\": {\"type\": \"hash\", \"value\": {\"size\": "
	    "\"99999999999999999999\"}}}");
	struct sonic_verdict v;
	assert_int_equal(sonic_verdict_judge(ports, 1, 3, config, appl, NULL, &v), 0);
	assert_int_equal(v.pg[0].state, SONIC_PG_PENDING);
	assert_null(strchr(v.pg[0].held, '\x1b'));
	assert_int_equal(v.pg[0].port_headroom, 0);
	sonic_verdict_free(&v);
	cJSON_Delete(appl);
	cJSON_Delete(config);
}

/* The switch's LOSSLESS_TRAFFIC_PATTERN against the inputs qosgen's figures take (issue 34). */
static void test_pattern_note(void **state)
{
	(void)state;
	struct qg_buf w = {0};
	cJSON *config = cJSON_Parse("{\"LOSSLESS_TRAFFIC_PATTERN\": {\"AZURE\": {\"mtu\": \"1024\", "
				    "\"small_packet_percentage\": \"100\"}}}");
	sonic_pattern_note(config, 1024, 50, &w);
	assert_non_null(w.data);
	assert_non_null(strstr(w.data, "is mtu 1024, small_packet_percentage 100, where qosgen's "
				       "headroom figures take mtu 1024, small_packet_percentage 50"));
	qg_buf_free(&w);
	sonic_pattern_note(config, 1024, 100, &w); /* the same: nothing to say */
	assert_int_equal(w.len, 0);
	cJSON_Delete(config);
	/* No row, or a field that is no number: nothing known, nothing said. */
	config = cJSON_Parse("{\"LOSSLESS_TRAFFIC_PATTERN\": {\"AZURE\": {\"mtu\": \"x\", "
			     "\"small_packet_percentage\": \"100\"}}}");
	sonic_pattern_note(config, 1024, 50, &w);
	sonic_pattern_note(NULL, 1024, 50, &w);
	assert_int_equal(w.len, 0);
	cJSON_Delete(config);
	qg_buf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_captures), cmocka_unit_test(test_version_refusals),
	    cmocka_unit_test(test_sonic_versions),   cmocka_unit_test(test_dbdump_parse),
	    cmocka_unit_test(test_verdict_held),     cmocka_unit_test(test_verdict_refused),
	    cmocka_unit_test(test_verdict_hostile),  cmocka_unit_test(test_pattern_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
