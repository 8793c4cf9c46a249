/* SPDX-License-Identifier: MIT */
/* Device and intent text made safe for a terminal: lib/escape.c. */
#include "helpers.h"

#include "../../lib/escape.h"

static void test_controls_escaped(void **state)
{
	(void)state;
	char *s = qg_escape("a\nb\tc\x1b]0;owned\x07\x7f");
	assert_string_equal(s, "a\\nb\\tc\\x1b]0;owned\\x07\\x7f");
	free(s);
	/* C1 controls in UTF-8 (CSI is U+009B), while other UTF-8 text passes. */
	s = qg_escape("x\xc2\x9b"
		      "2J \xc3\xa9t\xc3\xa9 \xc2\xa0");
	assert_string_equal(s, "x\\u009b2J \xc3\xa9t\xc3\xa9 \xc2\xa0");
	free(s);
}

static void test_append_counts_bytes(void **state)
{
	(void)state;
	struct qg_buf b = {0};
	qg_escape_append(&b, "a\0b", 3);
	assert_string_equal(b.data, "a\\x00b");
	qg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_controls_escaped),
	    cmocka_unit_test(test_append_counts_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
