/* SPDX-License-Identifier: MIT */
/* What the SONiC judge, end state, owned state and patch share (config_db_rows.h). */
#include "helpers.h"

#include "../../targets/sonic/config_db_rows.h"

static void test_table_kinds(void **state)
{
	(void)state;
	assert_int_equal(cdb_kind_of("PORT"), CDB_PORT_ROW);
	assert_int_equal(cdb_kind_of("PFC_WD"), CDB_PORT_ROW);
	assert_int_equal(cdb_kind_of("QUEUE"), CDB_PORT_INDEX);
	assert_int_equal(cdb_kind_of("BUFFER_PG"), CDB_PORT_INDEX);
	assert_int_equal(cdb_kind_of("CABLE_LENGTH"), CDB_PORT_FIELD);
	assert_int_equal(cdb_kind_of("SCHEDULER"), CDB_NAMED);
	/* Every named row's table is one whose rows qosgen names whole. */
	assert_true(cdb_n_named > 0);
	for (size_t i = 0; i < cdb_n_named; i++)
		assert_int_equal(cdb_kind_of(cdb_named[i].table), CDB_NAMED);
	/*
	 * Each WRED_PROFILE row of qosgen's is matched by one entry alone: the
	 * policy's, an earlier qosgen's, a role's (a family); another is not qosgen's.
	 */
	const char *rows[] = {"qosgen_ecn",  "qosgen_lossless", "qosgen_ecn_hosts",
			      "qosgen_ecn_", "AZURE_LOSSLESS",	"qosgen_ecnx"};
	const int matched[] = {1, 1, 1, 0, 0, 0};
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		int n = 0;
		for (size_t i = 0; i < cdb_n_named; i++)
			n += !strcmp(cdb_named[i].table, "WRED_PROFILE") &&
			     cdb_named_match(&cdb_named[i], rows[r]);
		assert_int_equal(n, matched[r]);
	}
}

static void test_index_keys(void **state)
{
	(void)state;
	size_t len;
	int lo, hi;
	assert_true(cdb_index_key("Ethernet0|3", &len, &lo, &hi));
	assert_int_equal(len, 9);
	assert_int_equal(lo, 3);
	assert_int_equal(hi, 3);
	assert_true(cdb_index_key("Ethernet12|3-4", &len, &lo, &hi));
	assert_int_equal(len, 10);
	assert_int_equal(lo, 3);
	assert_int_equal(hi, 4);
	assert_false(cdb_index_key("Ethernet0", &len, &lo, &hi));
	assert_false(cdb_index_key("Ethernet0|4-3", &len, &lo, &hi));
	assert_false(cdb_index_key("Ethernet0|3-", &len, &lo, &hi));
	assert_false(cdb_index_key("Ethernet0|1024", &len, &lo, &hi));
	assert_false(cdb_index_key("Ethernet0|x", &len, &lo, &hi));
}

static void test_row_ports(void **state)
{
	(void)state;
	size_t len;
	assert_true(cdb_row_port("PORT", "Ethernet4", &len));
	assert_int_equal(len, 9);
	assert_true(cdb_row_port("QUEUE", "Ethernet4|3-4", &len));
	assert_int_equal(len, 9);
	/* An index key without its index still names its port: a row to refuse. */
	assert_true(cdb_row_port("QUEUE", "Ethernet4", &len));
	assert_int_equal(len, 9);
	assert_false(cdb_row_port("CABLE_LENGTH", "AZURE", &len));
	assert_false(cdb_row_port("SCHEDULER", "qosgen_lossless", &len));
}

/* The per-port index: rows by port, the covering row of an index, removal. */
static void test_by_port_index(void **state)
{
	(void)state;
	cJSON *t = cJSON_Parse("{\"Ethernet0|0-2\": {}, \"Ethernet0|3\": {\"scheduler\": \"s\"},"
			       " \"Ethernet4|3\": {}, \"Ethernet0|3-4\": {}}");
	assert_non_null(t);
	struct cdb_by_port ix;
	assert_true(cdb_ix_build(&ix, "QUEUE", t));
	assert_ptr_equal(cdb_ix_get(&ix, "Ethernet0|3"), cdb_get(t, "Ethernet0|3"));
	assert_null(cdb_ix_get(&ix, "Ethernet0|5"));
	int count;
	assert_ptr_equal(cdb_covering(&ix, "Ethernet0", 9, 1, &count), cdb_get(t, "Ethernet0|0-2"));
	assert_int_equal(count, 1);
	assert_ptr_equal(cdb_covering(&ix, "Ethernet0", 9, 3, &count), cdb_get(t, "Ethernet0|3"));
	assert_int_equal(count, 2); /* covered twice: the judge refuses that */
	assert_null(cdb_covering(&ix, "Ethernet0", 9, 6, &count));
	assert_int_equal(count, 0);
	cdb_ix_remove(&ix, cdb_get(t, "Ethernet0|3"));
	assert_null(cdb_ix_get(&ix, "Ethernet0|3"));
	assert_ptr_equal(cdb_covering(&ix, "Ethernet0", 9, 3, &count), cdb_get(t, "Ethernet0|3-4"));
	assert_int_equal(count, 1);
	assert_string_equal(cJSON_GetStringValue(cdb_get2(t, "Ethernet0|3", "scheduler")), "s");
	assert_false(ix.oom);
	cdb_ix_free(&ix);
	cJSON_Delete(t);
}

/* CABLE_LENGTH: each of want's port fields, with every row that has it, in order. */
static void test_field_rows(void **state)
{
	(void)state;
	cJSON *t = cJSON_Parse("{\"AZURE\": {\"Ethernet0\": \"5m\", \"Ethernet4\": \"5m\"},"
			       " \"OTHER\": {\"Ethernet4\": \"40m\"}}");
	cJSON *w = cJSON_Parse("{\"Ethernet4\": \"3m\", \"Ethernet8\": \"3m\"}");
	assert_non_null(t);
	assert_non_null(w);
	struct cdb_field_rows fr;
	assert_true(cdb_field_rows(t, w, &fr));
	/* Ethernet4: two rows; Ethernet8: none. */
	assert_int_equal(fr.at[1] - fr.at[0], 2);
	assert_int_equal(fr.at[2] - fr.at[1], 0);
	assert_ptr_equal(fr.hits[fr.at[0]].row, cdb_get(t, "AZURE"));
	assert_ptr_equal(fr.hits[fr.at[0] + 1].row, cdb_get(t, "OTHER"));
	assert_string_equal(cJSON_GetStringValue(fr.hits[fr.at[0] + 1].item), "40m");
	cdb_field_rows_free(&fr);
	cJSON_Delete(t);
	cJSON_Delete(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_kinds), cmocka_unit_test(test_index_keys),
	    cmocka_unit_test(test_row_ports),	cmocka_unit_test(test_by_port_index),
	    cmocka_unit_test(test_field_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
