/* SPDX-License-Identifier: MIT */
/* The pure parts of the Onyx session and of the rollback. */
#include "helpers.h"

#include "../../targets/onyx/onyx_parse.h"
#include "../../targets/onyx/onyx_restore.h"
#include "../../targets/onyx/onyx_session.h"

static void test_prompt_detection(void **state)
{
	(void)state;
	static const char *const yes[] = {
		"switch [standalone: master] > ",
		"out\r\nswitch [standalone: master] # ",
		"x\nswx-1 [standalone: master] (config) # ",
		"swx-1 [standalone: master] (config interface ethernet 1/1) # ",
	};
	for (size_t i = 0; i < 4; i++)
		assert_true(onyx_prompt_at_end(yes[i], strlen(yes[i])));
	static const char *const no[] = {
		"switch [standalone: master] #", /* no trailing space */
		"output line\n",
		" # ",    /* nothing in front: not a prompt */
		"a > b",  /* mid-line */
		"",
	};
	for (size_t i = 0; i < 5; i++)
		assert_false(onyx_prompt_at_end(no[i], strlen(no[i])));
}

static void test_reply_cleaning(void **state)
{
	(void)state;
	const char *raw = "show version\r\nProduct name:      Onyx\r\nProduct release:   3.10\r\n"
			  "swx-1 [standalone: master] # ";
	struct qg_buf b = {0};
	bool error;
	onyx_reply_clean(raw, strlen(raw), "show version", &b, &error);
	assert_false(error);
	assert_string_equal(b.data, "Product name:      Onyx\nProduct release:   3.10\n");
	qg_buf_free(&b);
	const char *bad = "frob\r\n% Unrecognized command \"frob\".\r\nType \"?\" for help.\r\n"
			  "swx-1 [standalone: master] (config) # ";
	onyx_reply_clean(bad, strlen(bad), "frob", &b, &error);
	assert_true(error);
	assert_non_null(strstr(b.data, "% Unrecognized command \"frob\"."));
	qg_buf_free(&b);
	/* No echo (a pipe, not a PTY): nothing is dropped but the prompt. */
	const char *plain = "Hostname: swx-1\nswx-1 [standalone: master] # ";
	onyx_reply_clean(plain, strlen(plain), "show hosts", &b, &error);
	assert_string_equal(b.data, "Hostname: swx-1\n");
	qg_buf_free(&b);
}

static void test_restore_uses_no_forms_and_scope(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: "
			 "[1/1-1/4]}\n",
		&m);
	struct onyx_config scope, before, now;
	assert_int_equal(onyx_config_from_model(&m, 0, &scope), 0);
	struct qg_diags d;
	qg_diags_init(&d, "rc");
	/* Before: 1/1-1/4 trust L3 only. Now: the push got halfway. */
	const char *b_text = "interface ethernet 1/1-1/4 qos trust L3\n"
			     "interface ethernet 1/9 mtu 9000 force\n";
	assert_int_equal(onyx_config_parse(b_text, strlen(b_text), &before, &d),
			 0);
	const char *n_text = "interface ethernet 1/1-1/4 mtu 9216 force\n"
			     "traffic pool roce type lossless\n"
			     "interface ethernet 1/1-1/4 qos trust L3\n"
			     "interface ethernet 1/1-1/2 traffic-class 3 congestion-control "
			     "ecn minimum-absolute 150 maximum-absolute 1500\n"
			     "interface ethernet 1/1 traffic-class 6 dcb ets strict\n"
			     "interface ethernet 1/9 mtu 1500 force\n";
	assert_int_equal(onyx_config_parse(n_text, strlen(n_text), &now, &d),
			 0);
	struct qg_buf b = {0};
	onyx_config_restore(&scope, &before, &now, &b);
	/* 1/9 is outside the push's scope: left as it is. */
	assert_string_equal(b.data, "0\tinterface ethernet 1/1-1/4 mtu 1500 force\n"
				    "1\tno traffic pool roce\n"
				    "2\tinterface ethernet 1/1-1/2 no traffic-class 3 congestion-control\n"
				    "3\tinterface ethernet 1/1 no traffic-class 6 dcb ets\n");
	qg_buf_free(&b);
	/* Nothing to undo when now == before. */
	onyx_config_restore(&scope, &before, &before, &b);
	assert_null(b.data);
	qg_diags_free(&d);
	onyx_config_free(&scope);
	onyx_config_free(&before);
	onyx_config_free(&now);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prompt_detection),
		cmocka_unit_test(test_reply_cleaning),
		cmocka_unit_test(test_restore_uses_no_forms_and_scope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
