/* SPDX-License-Identifier: MIT */
/*
 * targets/cumulus/cumulus_push.c: the checks on the switch's answers before any
 * request uses them, and what a revision's state and an HTTP status say of an apply.
 */
#include "helpers.h"

#include "../../targets/cumulus/cumulus_push.h"
#include "../../transport/https.h"

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

/*
 * A revision's state (issue 36): only NVIDIA's documented end words end the
 * poll; pending, apply and any word NVIDIA does not document as an end keep
 * it going, so a revision is never taken as refused while it may apply.
 */
static void test_revision_end(void **state)
{
	(void)state;
	assert_int_equal(cumulus_revision_end("applied"), CUMULUS_REV_APPLIED);
	assert_int_equal(cumulus_revision_end("invalid"), CUMULUS_REV_REFUSED);
	assert_int_equal(cumulus_revision_end("ays_fail"), CUMULUS_REV_REFUSED);
	const char *going[] = {"pending",  "apply",   "applying", "ready", "verifying",
			       "checking", "Applied", "applied ", "",	   "reloading"};
	for (size_t i = 0; i < sizeof(going) / sizeof(going[0]); i++)
		if (cumulus_revision_end(going[i]) != CUMULUS_REV_GOING)
			fail_msg("'%s' taken as an end", going[i]);
	assert_int_equal(cumulus_revision_end(NULL), CUMULUS_REV_GOING);
}

/*
 * The transport's reading of an HTTP status (issue 36): a status that does
 * not say whether the request ran (a front end's 5xx, 408, 429) is never
 * "not sent".
 */
static void test_status_outcome(void **state)
{
	(void)state;
	static const long done[] = {200, 201, 204, 299};
	static const long refused[] = {400, 401, 403, 404, 405, 409, 413, 422, 499};
	static const long unknown[] = {408, 429, 500, 502, 503, 504, 599, 0, 100, 301, 304, 600};
	for (size_t i = 0; i < sizeof(done) / sizeof(done[0]); i++)
		assert_int_equal(qg_https_status_outcome(done[i]), QG_HTTPS_ANSWERED);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_int_equal(qg_https_status_outcome(refused[i]), QG_HTTPS_NOT_SENT);
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		if (qg_https_status_outcome(unknown[i]) != QG_HTTPS_LOST)
			fail_msg("HTTP %ld taken as known", unknown[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_revision_ids),
	    cmocka_unit_test(test_revision_end),
	    cmocka_unit_test(test_status_outcome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
