/* SPDX-License-Identifier: MIT */
/* Reading an output tree back (emit/outread.h): no link followed, bounded, names escaped. */
#include "helpers.h"

#include "../../emit/outread.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

static char root[64];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/qg-outread-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	char p[128];
	snprintf(p, sizeof(p), "%s/b.txt", root);
	FILE *f = fopen(p, "w");
	if (!f)
		return -1;
	fputs("hello\n", f);
	fclose(f);
	chmod(p, 0750);
	snprintf(p, sizeof(p), "%s/a-link", root);
	if (symlink("b.txt", p) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s/c-fifo", root);
	return mkfifo(p, 0600);
}

static int teardown(void **state)
{
	(void)state;
	const char *names[] = {"a-link", "b.txt", "c-fifo"};
	char p[128];
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, names[i]);
		unlink(p);
	}
	return rmdir(root);
}

static void test_list_sorted(void **state)
{
	(void)state;
	int dfd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	size_t n = 0;
	char **v = qg_outread_list(dfd, &n);
	assert_non_null(v);
	assert_int_equal(n, 3);
	assert_null(v[3]);
	qsort(v, n, sizeof(*v), qg_outread_name_cmp);
	assert_string_equal(v[0], "a-link");
	assert_string_equal(v[1], "b.txt");
	assert_string_equal(v[2], "c-fifo");
	qg_outread_list_free(v);
	close(dfd);
}

/* A file reads whole with its mode; a link, a FIFO and a file past the bound do not. */
static void test_file_refusals(void **state)
{
	(void)state;
	int dfd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	char err[512];
	size_t len = 0;
	mode_t mode = 0;
	int why = -1;
	char *b = qg_outread_file(
	    &(struct qg_outread_req){
		.dfd = dfd, .dir = "out", .rel = "b.txt", .name = "b.txt", .max = 100},
	    &len, &mode, &why, err, sizeof(err));
	assert_non_null(b);
	assert_string_equal(b, "hello\n");
	assert_int_equal(len, 6);
	assert_int_equal(mode, 0750);
	assert_int_equal(why, 0);
	free(b);

	assert_null(qg_outread_file(
	    &(struct qg_outread_req){
		.dfd = dfd, .dir = "out", .rel = "a-link", .name = "a-link", .max = 100},
	    &len, &mode, &why, err, sizeof(err)));
	assert_int_equal(why, ELOOP);
	assert_non_null(strstr(err, "'out/a-link' is a symbolic link"));

	assert_null(qg_outread_file(
	    &(struct qg_outread_req){
		.dfd = dfd, .dir = "out", .rel = "c-fifo", .name = "c-fifo", .max = 100},
	    &len, &mode, &why, err, sizeof(err)));
	assert_int_equal(why, EINVAL);
	assert_non_null(strstr(err, "is not a regular file or directory"));

	assert_null(qg_outread_file(
	    &(struct qg_outread_req){
		.dfd = dfd, .dir = "out", .rel = "b.txt", .name = "b.txt", .max = 5},
	    &len, &mode, &why, err, sizeof(err)));
	assert_int_equal(why, EFBIG);
	assert_non_null(strstr(err, "'out/b.txt' is 6 bytes with the files read before it"));
	close(dfd);
}

/* A name from the tree reaches a message escaped: no escape sequence drives a terminal. */
static void test_names_escaped(void **state)
{
	(void)state;
	char *s = qg_outread_shown("out/", "x\033[2Jy");
	assert_non_null(s);
	assert_null(strchr(s, '\033'));
	assert_int_equal(strncmp(s, "out/x", 5), 0);
	free(s);
	char err[256];
	assert_int_equal(qg_outread_err(err, sizeof(err), "dir", NULL, "is %s", "odd"), -1);
	assert_string_equal(err, "'dir' is odd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_list_sorted),
	    cmocka_unit_test(test_file_refusals),
	    cmocka_unit_test(test_names_escaped),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
