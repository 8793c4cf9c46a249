/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../gen/outdir.h"

#include <ftw.h>
#include <sys/stat.h>

static char root[64];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/qg-outdir-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void set_of(struct qg_outset *o, const char *a_text)
{
	memset(o, 0, sizeof(*o));
	assert_int_equal(qg_outset_add(o, "plan.json", strdup("{}\n"), 3, 0644), 0);
	assert_int_equal(qg_outset_add(o, "onyx/a.cli", strdup(a_text), strlen(a_text), 0644), 0);
	assert_int_equal(qg_outset_add(o, "host/h.sh", strdup("#!/bin/sh\n"), 10, 0755), 0);
	qg_outset_sort(o);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[256];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_write_then_replace(void **state)
{
	(void)state;
	char dir[128], path[160], err[256];
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "one\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/onyx/a.cli", dir);
	assert_string_equal(slurp(path), "one\n");
	struct stat st;
	snprintf(path, sizeof(path), "%s/host/h.sh", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_mode & S_IXUSR);
	qg_outset_free(&o);

	/* A stale file of the old tree must not survive the replacement. */
	snprintf(path, sizeof(path), "%s/onyx/stale.cli", dir);
	FILE *f = fopen(path, "w");
	fclose(f);
	set_of(&o, "two\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/onyx/a.cli", dir);
	assert_string_equal(slurp(path), "two\n");
	qg_outset_free(&o);
}

static void test_refuses_foreign_directory(void **state)
{
	(void)state;
	char dir[128], path[160], err[256];
	snprintf(dir, sizeof(dir), "%s/home", root);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/precious.txt", dir);
	FILE *f = fopen(path, "w");
	fputs("keep me", f);
	fclose(f);
	struct qg_outset o;
	set_of(&o, "x\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a qosgen output directory"));
	assert_string_equal(slurp(path), "keep me");
	qg_outset_free(&o);
}

/* diff writes to a file descriptor, so capture through a real temporary file. */
static char *capture_check(const char *dir, const struct qg_outset *o, int *rc)
{
	char err[256];
	FILE *f = tmpfile();
	*rc = qg_outdir_check(dir, o, f, err, sizeof(err));
	fflush(f);
	long n = ftell(f);
	rewind(f);
	char *buf = calloc(1, (size_t)n + 1);
	fread(buf, 1, (size_t)n, f);
	fclose(f);
	return buf;
}

static void test_check_reports_differences(void **state)
{
	(void)state;
	char dir[128], path[160], err[256];
	snprintf(dir, sizeof(dir), "%s/chk", root);
	struct qg_outset o;
	set_of(&o, "same\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	FILE *devnull = fopen("/dev/null", "w");
	assert_int_equal(qg_outdir_check(dir, &o, devnull, err, sizeof(err)), 0);
	qg_outset_free(&o);

	set_of(&o, "changed\n");
	int rc;
	char *buf = capture_check(dir, &o, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(buf, "--- a/onyx/a.cli"));
	assert_non_null(strstr(buf, "+++ b/onyx/a.cli"));
	assert_non_null(strstr(buf, "-same"));
	assert_non_null(strstr(buf, "+changed"));
	free(buf);
	qg_outset_free(&o);

	/* A file the intent no longer gives is a difference too. */
	set_of(&o, "same\n");
	snprintf(path, sizeof(path), "%s/onyx/extra.cli", dir);
	FILE *f = fopen(path, "w");
	fclose(f);
	buf = capture_check(dir, &o, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(buf, "only in the output directory: onyx/extra.cli"));
	free(buf);
	fclose(devnull);
	qg_outset_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_write_then_replace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_foreign_directory, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_reports_differences, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
