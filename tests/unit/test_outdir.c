/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../model/bounds.h"
#include "../../emit/outdir.h"
#include "../../lib/udiff.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
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

/* A plan.json as qosgen writes it: the generator field and the files it lists. */
#define PLAN_JSON                                                                                  \
	"{\n\t\"generator\":\t\"qosgen 0.1.0\",\n\t\"intent_sha256\":\t\""                         \
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\",\n"                    \
	"\t\"devices\":\t[{\"files\": [{\"path\": \"onyx/a.cli\"}, {\"path\": "                    \
	"\"host/h.sh\"}]}]\n}\n"

static void set_of(struct qg_outset *o, const char *a_text)
{
	memset(o, 0, sizeof(*o));
	assert_int_equal(qg_outset_add(o, "plan.json", strdup(PLAN_JSON), strlen(PLAN_JSON), 0644),
			 0);
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

static void put(const char *dir, const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
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

	/* An empty directory is fine too. */
	snprintf(dir, sizeof(dir), "%s/empty", root);
	mkdir(dir, 0755);
	set_of(&o, "x\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	qg_outset_free(&o);
}

/* What qg_build writes is recognised as qosgen's own by the next build. */
static void test_real_build_replaced(void **state)
{
	(void)state;
	char dir[128], err[256];
	snprintf(dir, sizeof(dir), "%s/real", root);
	struct qg_model m;
	struct qg_outset o;
	load_example("bitfusion-pvrdma.yaml", &m);
	build_ok(&m, &o);
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	if (qg_outdir_write(dir, &o, err, sizeof(err)) != 0)
		fail_msg("second build refused: %s", err);
	qg_outset_free(&o);
	qg_model_free(&m);
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
	assert_non_null(strstr(err, "precious.txt"));
	assert_string_equal(slurp(path), "keep me");
	qg_outset_free(&o);
}

/*
 * Issue 18, finding 4: another tool's directory with its own plan.json (a
 * Terraform plan), a main.tf and a .git/ was taken for an earlier qosgen
 * output and replaced, deleting all three.
 */
static void test_refuses_lookalike_with_plan_json(void **state)
{
	(void)state;
	char dir[128], path[192], err[512];
	snprintf(dir, sizeof(dir), "%s/infra", root);
	mkdir(dir, 0755);
	put(dir, "plan.json", "{\"format_version\":\"1.2\",\"terraform_version\":\"1.5.7\"}\n");
	put(dir, "main.tf", "resource \"null_resource\" \"x\" {}\n");
	snprintf(path, sizeof(path), "%s/.git", dir);
	mkdir(path, 0755);
	put(dir, ".git/HEAD", "ref: refs/heads/main\n");
	struct qg_outset o;
	set_of(&o, "x\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a qosgen output directory"));
	/* What was found, named. */
	assert_non_null(strstr(err, "plan.json"));
	assert_non_null(strstr(err, "main.tf"));
	assert_non_null(strstr(err, ".git/"));
	snprintf(path, sizeof(path), "%s/.git/HEAD", dir);
	assert_string_equal(slurp(path), "ref: refs/heads/main\n");
	snprintf(path, sizeof(path), "%s/main.tf", dir);
	assert_string_equal(slurp(path), "resource \"null_resource\" \"x\" {}\n");
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	assert_non_null(strstr(slurp(path), "terraform_version"));

	/* Not JSON at all, a JSON array, a generator that is not qosgen: the same. */
	const char *const fakes[] = {"earlier\n", "[]\n", "{\"generator\": \"terraform 1.5\"}\n",
				     "{\"generator\": \"qosgen 0.1.0\"}\n"};
	for (size_t i = 0; i < sizeof(fakes) / sizeof(fakes[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/fake%zu", root, i);
		mkdir(dir, 0755);
		put(dir, "plan.json", fakes[i]);
		assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "not a qosgen output directory"));
		snprintf(path, sizeof(path), "%s/plan.json", dir);
		assert_string_equal(slurp(path), fakes[i]);
	}
	qg_outset_free(&o);
}

/* A qosgen plan.json copied into someone else's directory does not make it ours. */
static void test_refuses_qosgen_plan_beside_foreign_files(void **state)
{
	(void)state;
	char dir[128], path[192], err[512];
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "x\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	put(dir, "main.tf", "keep\n");
	snprintf(path, sizeof(path), "%s/.git", dir);
	mkdir(path, 0755);
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "main.tf"));
	assert_non_null(strstr(err, ".git/"));
	snprintf(path, sizeof(path), "%s/main.tf", dir);
	assert_string_equal(slurp(path), "keep\n");

	/* plan.json as a link to a real qosgen plan elsewhere is not a marker either. */
	snprintf(dir, sizeof(dir), "%s/linked", root);
	mkdir(dir, 0755);
	put(dir, "notes.txt", "keep\n");
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	char target[160];
	snprintf(target, sizeof(target), "%s/out/plan.json", root);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a qosgen output directory"));
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	assert_string_equal(slurp(path), "keep\n");
	qg_outset_free(&o);
}

/* Capture what check prints. */
static char *capture_check(const char *dir, const struct qg_outset *o, int *rc, char *err,
			   size_t errlen)
{
	FILE *f = tmpfile();
	*rc = qg_outdir_check(dir, o, f, err, errlen);
	fflush(f);
	long n = ftell(f);
	rewind(f);
	char *buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
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
	char *buf = capture_check(dir, &o, &rc, err, sizeof(err));
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
	buf = capture_check(dir, &o, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_non_null(strstr(buf, "only in the output directory: onyx/extra.cli"));
	free(buf);

	/* A missing output directory: every file is new. */
	snprintf(dir, sizeof(dir), "%s/none", root);
	buf = capture_check(dir, &o, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_non_null(strstr(buf, "+++ b/onyx/a.cli\n@@ -0,0 +1 @@\n+same\n"));
	free(buf);
	fclose(devnull);
	qg_outset_free(&o);
}

/*
 * Issue 18, finding 2: a pull request that replaces a committed output with a
 * symbolic link to a secret had --check print the secret into the CI log.
 * Every link in the output directory, at any depth, is an error naming it,
 * and nothing it points to is read.
 */
static void expect_link_refused(const char *dir, const struct qg_outset *o, const char *name)
{
	char err[512];
	int rc;
	char *buf = capture_check(dir, o, &rc, err, sizeof(err));
	if (rc != -1 || !strstr(err, name) || !strstr(err, "symbolic link"))
		fail_msg("expected an error naming the link '%s'; got %d, '%s', output:\n%s", name,
			 rc, rc == -1 ? err : "", buf);
	assert_null(strstr(buf, "SECRET"));
	free(buf);
}

static void test_check_refuses_symlinks(void **state)
{
	(void)state;
	char dir[128], path[192], secret[160], sdir[160], err[256];
	snprintf(secret, sizeof(secret), "%s/secret.key", root);
	put(root, "secret.key", "SECRET-TOKEN-1\n");
	snprintf(sdir, sizeof(sdir), "%s/secrets", root);
	mkdir(sdir, 0755);
	put(sdir, "a.cli", "SECRET-TOKEN-2\n");
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "same\n");

	/* A committed file replaced by a link. */
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/onyx/a.cli", dir);
	unlink(path);
	assert_int_equal(symlink(secret, path), 0);
	expect_link_refused(dir, &o, "out/onyx/a.cli");

	/* A committed directory replaced by a link to one holding the same name. */
	unlink(path);
	snprintf(path, sizeof(path), "%s/onyx", dir);
	rmdir(path);
	assert_int_equal(symlink(sdir, path), 0);
	expect_link_refused(dir, &o, "out/onyx");

	/* A link the intent does not name, even a dangling one. */
	unlink(path);
	mkdir(path, 0755);
	put(dir, "onyx/a.cli", "same\n");
	snprintf(path, sizeof(path), "%s/host/extra.sh", dir);
	assert_int_equal(symlink(secret, path), 0);
	expect_link_refused(dir, &o, "out/host/extra.sh");
	unlink(path);
	assert_int_equal(symlink("/nonexistent/qg", path), 0);
	expect_link_refused(dir, &o, "out/host/extra.sh");
	unlink(path);

	/* The output directory itself, and a directory on the way to it. */
	char link[160];
	snprintf(link, sizeof(link), "%s/outlink", root);
	assert_int_equal(symlink(sdir, link), 0);
	expect_link_refused(link, &o, "outlink");
	snprintf(link, sizeof(link), "%s/up", root);
	assert_int_equal(symlink(root, link), 0);
	snprintf(path, sizeof(path), "%s/up/out", root);
	expect_link_refused(path, &o, "/up");
	qg_outset_free(&o);
}

/* A FIFO must not hang --check, nor a device be read: only regular files are. */
static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "qg_outdir_check hung on a FIFO\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

static void test_check_refuses_special_files(void **state)
{
	(void)state;
	char dir[128], path[192], err[256];
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "same\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/onyx/a.cli", dir);
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	signal(SIGALRM, on_alarm);
	alarm(10);
	int rc;
	char *buf = capture_check(dir, &o, &rc, err, sizeof(err));
	alarm(0);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "onyx/a.cli"));
	assert_non_null(strstr(err, "not a regular file"));
	free(buf);
	qg_outset_free(&o);
}

/* The comparison is made in memory: no diff(1) reads a path the pull request controls. */
static void test_check_needs_no_diff_tool(void **state)
{
	(void)state;
	char dir[128], err[256];
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "one\ntwo\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	qg_outset_free(&o);
	set_of(&o, "one\nthree\n");
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	int rc;
	char *buf = capture_check(dir, &o, &rc, err, sizeof(err));
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	if (rc != 1)
		fail_msg("check without diff(1) on PATH: %d %s", rc, rc < 0 ? err : buf);
	assert_string_equal(buf, "--- a/onyx/a.cli\n+++ b/onyx/a.cli\n@@ -1,2 +1,2 @@\n one\n"
				 "-two\n+three\n");
	free(buf);
	qg_outset_free(&o);
}

/* A committed file's bytes reach a CI log: escape sequences in it must not drive it. */
static void test_check_escapes_committed_text(void **state)
{
	(void)state;
	char dir[128], err[256];
	snprintf(dir, sizeof(dir), "%s/out", root);
	struct qg_outset o;
	set_of(&o, "same\n");
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	put(dir, "onyx/a.cli",
	    "\x1b]0;owned\x07\x1b[2K\tx\xc2\x9b"
	    "31m\n");
	put(dir, "onyx/\x1b[2Kname.cli", "");
	int rc;
	char *buf = capture_check(dir, &o, &rc, err, sizeof(err));
	assert_int_equal(rc, 1);
	assert_null(strchr(buf, '\x1b'));
	assert_null(strchr(buf, '\x07'));
	assert_null(strstr(buf, "\xc2\x9b"));
	assert_non_null(strstr(buf, "-\\x1b]0;owned\\x07\\x1b[2K\tx\\u009b31m\n"));
	assert_non_null(strstr(buf, "only in the output directory: onyx/\\x1b[2Kname.cli"));
	free(buf);
	qg_outset_free(&o);
}

/*
 * Issue 24, item 2: an output qosgen wrote reads back whole, whatever its
 * size within the bound on a build's output (model/bounds.h); past the bound,
 * the message says so. A fixed 64 MiB once refused the plan.json of a
 * 140,000-host fabric ("not a regular file", "too large").
 */
static void test_large_output_reads_back(void **state)
{
	(void)state;
	char dir[128], path[192], err[512];
	/* plan.json of qosgen's shape, 65 MiB: more than the old 64 MiB. */
	size_t head = strlen(PLAN_JSON) - 2, pad = (size_t)65 << 20;
	char *big = malloc(head + pad + 16);
	assert_non_null(big);
	memcpy(big, PLAN_JSON, head);
	size_t n = head + (size_t)sprintf(big + head, ",\"pad\":\"");
	memset(big + n, 'x', pad);
	n += pad;
	n += (size_t)sprintf(big + n, "\"}\n");
	struct qg_outset o;
	set_of(&o, "a\n");
	snprintf(dir, sizeof(dir), "%s/large", root);
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(big, 1, n, f), n);
	fclose(f);
	/* --check of an output holding it: read whole, no difference. */
	struct qg_outset ob = {0};
	assert_int_equal(qg_outset_add(&ob, "plan.json", big, n, 0644), 0);
	assert_int_equal(qg_outset_add(&ob, "onyx/a.cli", strdup("a\n"), 2, 0644), 0);
	assert_int_equal(qg_outset_add(&ob, "host/h.sh", strdup("#!/bin/sh\n"), 10, 0755), 0);
	qg_outset_sort(&ob);
	int rc;
	char *diff = capture_check(dir, &ob, &rc, err, sizeof(err));
	assert_int_equal(rc, 0);
	assert_string_equal(diff, "");
	free(diff);
	qg_outset_free(&ob);
	/* Rebuilt: the directory is recognised as qosgen's and replaced. */
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), 0);
	assert_string_equal(slurp(path), PLAN_JSON);

	/* Past the bound on a whole output: refused, with that reason. */
	assert_int_equal(truncate(path, (off_t)QG_OUTPUT_MAX + 1), 0);
	assert_int_equal(qg_outdir_write(dir, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "its plan.json is larger than any qosgen output (at most 512 MiB"));
	assert_null(strstr(err, "not a regular file"));
	diff = capture_check(dir, &o, &rc, err, sizeof(err));
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "plan.json' is 536870913 bytes"));
	assert_non_null(strstr(err, "more than any output of qosgen, which writes at most 512 MiB"));
	free(diff);
	qg_outset_free(&o);
}

static char *udiff(const char *a, const char *b)
{
	struct qg_buf out = {0};
	qg_udiff(&out, &(struct qg_udiff_side){.label = "a/f", .text = a, .len = strlen(a)},
		 &(struct qg_udiff_side){.label = "b/f", .text = b, .len = strlen(b)});
	qg_buf_append(&out, "", 0);
	return out.data;
}

/* The unified format of diff -u, which reviewers read: hunks, context, EOF marks. */
static void test_udiff_format(void **state)
{
	(void)state;
	char *s = udiff("a\nb\nc\n", "a\nb\nc\n");
	assert_string_equal(s, "");
	free(s);
	s = udiff("", "x\n");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n");
	free(s);
	s = udiff("x\ny\n", "");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n");
	free(s);
	s = udiff("a\nb", "a\nb\n");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of "
			       "file\n+b\n");
	free(s);
	/* Two changes far apart: two hunks with three lines of context each. */
	s = udiff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
		  "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n"
			       "@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n");
	free(s);
	/* Close together: one hunk. */
	s = udiff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\nX\n3\n4\n5\n6\nY\n8\n");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n"
			       "-7\n+Y\n 8\n");
	free(s);
	/* Insertion in the middle keeps the shortest script. */
	s = udiff("a\nb\nc\nd\n", "a\nb\nnew\nc\nd\n");
	assert_string_equal(s, "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n a\n b\n+new\n c\n d\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_write_then_replace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_real_build_replaced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_foreign_directory, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_lookalike_with_plan_json, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_qosgen_plan_beside_foreign_files, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_check_reports_differences, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_refuses_symlinks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_refuses_special_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_needs_no_diff_tool, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_escapes_committed_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_large_output_reads_back, setup, teardown),
	    cmocka_unit_test(test_udiff_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
