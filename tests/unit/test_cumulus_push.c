/* SPDX-License-Identifier: MIT */
/* targets/cumulus/cumulus_push.c: the checks on the switch's answers before any request uses them.
 */
#include "helpers.h"

#include "../../targets/cumulus/cumulus_push.h"

/* NVUE's documented ids pass; dot segments and anything else a URL could read otherwise do not. */
static void test_revision_ids(void **state)
{
	(void)state;
	const char *good[] = {"1", "21", "changeset/cumulus/2021-11-02_16.09.18_5Z1K",
			      "changeset/a.b/2021-11-02_16.09.18_5Z1K", "rev_1-x"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(cumulus_revision_id_ok(good[i]));
	const char *bad[] = {"",	  ".",	    "..",	   "../..", "1/..", "1/./2",
			     ".hidden",	  "/1",	    "1/",	   "1//2",  "1 2",  "1?rev=2",
			     "1#x",	  "%2e%2e", "1%2F..",	   "1\\..", "1\n",  "\x1b[2J",
			     "applied\r", "1;2",    "caf\xc3\xa9", "1&x=2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (cumulus_revision_id_ok(bad[i]))
			fail_msg("accepted revision id '%s'", bad[i]);
	char longest[CUMULUS_REVISION_ID_MAX + 2];
	memset(longest, '7', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	assert_false(cumulus_revision_id_ok(longest));
	longest[CUMULUS_REVISION_ID_MAX] = '\0';
	assert_true(cumulus_revision_id_ok(longest));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_revision_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
