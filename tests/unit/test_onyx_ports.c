/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../targets/onyx/onyx_ports.h"

static size_t parse(const char *s, struct qg_port **v)
{
	size_t n = 0;
	char err[200];
	assert_int_equal(onyx_port_parse(s, v, &n, err, sizeof(err)), 0);
	return n;
}

static void parse_fails(const char *s, const char *needle)
{
	struct qg_port *v = NULL;
	size_t n = 0;
	char err[200] = "";
	assert_int_equal(onyx_port_parse(s, &v, &n, err, sizeof(err)), -1);
	assert_null(v);
	if (!strstr(err, needle))
		fprintf(stderr, "'%s' gave: %s\n", s, err);
	assert_non_null(strstr(err, needle));
}

static void test_single_and_range(void **state)
{
	(void)state;
	struct qg_port *v;
	assert_int_equal(parse("1/5", &v), 1);
	assert_int_equal(v[0].port, 5);
	assert_int_equal(v[0].split, 0);
	free(v);
	assert_int_equal(parse("1/1-1/32", &v), 32);
	assert_int_equal(v[31].port, 32);
	free(v);
	assert_int_equal(parse("1/3/1-1/3/4", &v), 4);
	assert_int_equal(v[3].split, 4);
	assert_int_equal(v[3].port, 3);
	free(v);
}

static void test_bad_forms(void **state)
{
	(void)state;
	parse_fails("eth1/1", "not an Onyx ethernet port");
	parse_fails("1/", "not an Onyx ethernet port");
	parse_fails("1/1-", "not an Onyx ethernet port");
	parse_fails("01/1", "not an Onyx ethernet port");
	parse_fails("1/1-1/1/2", "mixes a split");
	parse_fails("1/1-2/2", "spans two modules");
	parse_fails("1/1/1-1/2/1", "spans two split ports");
	parse_fails("1/9-1/3", "runs backwards");
	parse_fails("1/129", "out of range");
	parse_fails("9/1", "out of range");
	parse_fails("1/1/9", "out of range");
	parse_fails("1/0", "out of range");
}

static void test_runs_like_onyx(void **state)
{
	(void)state;
	/* 1/1-1/4, 1/31, 1/32, 1/33/1, 1/33/2: three runs, split ports on their own. */
	struct qg_port p[] = {{1, 1, 0},  {1, 2, 0},  {1, 3, 0},  {1, 4, 0}, {1, 31, 0},
			      {1, 32, 0}, {1, 33, 1}, {1, 33, 2}, {1, 40, 0}};
	struct qg_port_run runs[9];
	size_t n = qg_port_runs(p, 9, runs);
	assert_int_equal(n, 4);
	char text[QG_PORT_TEXT_LEN];
	onyx_port_run_format(&runs[0], text);
	assert_string_equal(text, "1/1-1/4");
	onyx_port_run_format(&runs[1], text);
	assert_string_equal(text, "1/31-1/32");
	onyx_port_run_format(&runs[2], text);
	assert_string_equal(text, "1/33/1-1/33/2");
	onyx_port_run_format(&runs[3], text);
	assert_string_equal(text, "1/40");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_single_and_range),
	    cmocka_unit_test(test_bad_forms),
	    cmocka_unit_test(test_runs_like_onyx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
