/* SPDX-License-Identifier: MIT */
/* The small containers: buf, outset, settings, and the SHA-256 wrapper. */
#include "helpers.h"

#include "../../lib/hash.h"
#include "../../model/settings.h"

#include <errno.h>

static void test_buf_grows_and_steals(void **state)
{
	(void)state;
	struct qg_buf b = {0};
	for (int i = 0; i < 1000; i++)
		qg_buf_printf(&b, "%04d,", i);
	assert_int_equal(b.len, 5000);
	assert_false(b.failed);
	assert_memory_equal(b.data + 4995, "0999,", 5);
	size_t len;
	char *s = qg_buf_steal(&b, &len);
	assert_int_equal(len, 5000);
	assert_null(b.data);
	free(s);
	/* An empty buffer steals as "" rather than NULL. */
	s = qg_buf_steal(&b, &len);
	assert_string_equal(s, "");
	free(s);
}

static void test_outset_unique_sorted(void **state)
{
	(void)state;
	struct qg_outset o = {0};
	assert_int_equal(qg_outset_add(&o, "b", strdup("1"), 1, 0644), 0);
	assert_int_equal(qg_outset_add(&o, "a", strdup("2"), 1, 0755), 0);
	assert_int_equal(qg_outset_add(&o, "b", strdup("3"), 1, 0644), -EEXIST);
	qg_outset_sort(&o);
	assert_string_equal(o.v[0].path, "a");
	assert_string_equal(qg_outset_find(&o, "b")->data, "1");
	assert_null(qg_outset_find(&o, "c"));
	qg_outset_free(&o);
}

static void test_settings_ordered(void **state)
{
	(void)state;
	struct qg_settings s = {0};
	qg_settings_add(&s, "mtu", "%d", 9000);
	qg_settings_add(&s, "trust", "dscp");
	assert_int_equal(s.n, 2);
	assert_string_equal(s.v[0].key, "mtu");
	assert_string_equal(qg_settings_get(&s, "mtu"), "9000");
	assert_null(qg_settings_get(&s, "pfc"));
	qg_settings_free(&s);
}

static void test_sha256_known_vector(void **state)
{
	(void)state;
	char hex[QG_SHA256_HEX];
	assert_int_equal(qg_sha256_hex("abc", 3, hex), 0);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buf_grows_and_steals),
	    cmocka_unit_test(test_outset_unique_sorted),
	    cmocka_unit_test(test_settings_ordered),
	    cmocka_unit_test(test_sha256_known_vector),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
