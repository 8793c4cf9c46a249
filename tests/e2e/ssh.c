/* SPDX-License-Identifier: MIT */
/*
 * The SSH transport against a real OpenSSH sshd on 127.0.0.1 (started by
 * tests/e2e/run.sh, which passes its directory in QG_SSHD_DIR).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../transport/ssh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[1024], key[1200], port_text[16];
static int port;

static void path(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static int connect_with(const char *known_hosts, bool accept_new, struct qg_ssh **s, char *err)
{
	struct qg_ssh_target t = {.host = "127.0.0.1", .port = port, .user = getenv("USER")};
	struct qg_ssh_opts o = {.known_hosts = known_hosts,
				.accept_new = accept_new,
				.config = "",
				.identity = key,
				.command_timeout_s = 5};
	return qg_ssh_connect(&t, &o, s, err, 512);
}

/* The fingerprint ssh-keygen prints for a public key file. */
static void fingerprint(const char *pub, char *out, size_t len)
{
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "ssh-keygen -l -E sha256 -f %s | awk '{print $2}'", pub);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, (int)len, p));
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

static void test_unknown_host_refused_then_accept_new(void **state)
{
	(void)state;
	char kh[1200], err[512];
	path(kh, sizeof(kh), "known_hosts_tofu");
	unlink(kh);
	struct qg_ssh *s = NULL;
	assert_int_equal(connect_with(kh, false, &s, err), -1);
	assert_null(s);
	char fp[128];
	char pub[1200];
	path(pub, sizeof(pub), "host_key.pub");
	fingerprint(pub, fp, sizeof(fp));
	assert_non_null(strstr(err, "unknown host key"));
	assert_non_null(strstr(err, fp));
	assert_non_null(strstr(err, "--accept-new"));
	assert_int_equal(access(kh, F_OK), -1); /* refused: nothing recorded */

	assert_int_equal(connect_with(kh, true, &s, err), 0);
	qg_ssh_close(s);
	/* Recorded: the next connection needs no --accept-new. */
	assert_int_equal(connect_with(kh, false, &s, err), 0);
	qg_ssh_close(s);
}

static void test_changed_key_always_refused(void **state)
{
	(void)state;
	char kh[1200], other[1200], err[512], cmd[4000];
	path(kh, sizeof(kh), "known_hosts_changed");
	path(other, sizeof(other), "other_key");
	snprintf(cmd, sizeof(cmd),
		 "rm -f %s %s.pub && ssh-keygen -q -t ed25519 -N '' -f %s && "
		 "printf '[127.0.0.1]:%d %%s\\n' \"$(cut -d' ' -f1,2 %s.pub)\" > %s",
		 other, other, other, port, other, kh);
	assert_int_equal(system(cmd), 0);
	struct qg_ssh *s = NULL;
	/* accept-new does not override a changed key (OpenSSH's meaning). */
	assert_int_equal(connect_with(kh, true, &s, err), -1);
	char expected[128], got[128], pub[1200], otherpub[1300];
	snprintf(otherpub, sizeof(otherpub), "%s.pub", other);
	path(pub, sizeof(pub), "host_key.pub");
	fingerprint(otherpub, expected, sizeof(expected));
	fingerprint(pub, got, sizeof(got));
	assert_non_null(strstr(err, "host key mismatch"));
	char both[300];
	snprintf(both, sizeof(both), "expected %s, got %s", expected, got);
	if (!strstr(err, both))
		fprintf(stderr, "message: %s\nwanted: %s\n", err, both);
	assert_non_null(strstr(err, both));
}

static struct qg_ssh *connect_ok(void)
{
	char kh[1200], err[512];
	path(kh, sizeof(kh), "known_hosts_tofu");
	struct qg_ssh *s = NULL;
	if (connect_with(kh, true, &s, err) != 0)
		fprintf(stderr, "%s\n", err);
	assert_non_null(s);
	return s;
}

static void test_run_output_status_stdin(void **state)
{
	(void)state;
	struct qg_ssh *s = connect_ok();
	struct qg_buf out = {0}, errout = {0};
	int status;
	char err[512];
	assert_int_equal(qg_ssh_run(s, "echo hi; echo oops >&2; exit 3", NULL, 0, &out, &errout,
				    &status, err, sizeof(err)),
			 0);
	assert_string_equal(out.data, "hi\n");
	assert_string_equal(errout.data, "oops\n");
	assert_int_equal(status, 3);
	qg_buf_free(&out);
	qg_buf_free(&errout);
	/* A script on stdin, as the host push sends it (no scp). */
	const char script[] = "x=$((20 + 22))\necho \"answer $x\"\n";
	assert_int_equal(
	    qg_ssh_run(s, "sh -s", script, strlen(script), &out, NULL, &status, err, sizeof(err)),
	    0);
	assert_string_equal(out.data, "answer 42\n");
	assert_int_equal(status, 0);
	qg_buf_free(&out);
	/* A large output arrives whole. */
	assert_int_equal(qg_ssh_run(s, "head -c 1000000 /dev/zero | tr '\\0' x", NULL, 0, &out,
				    NULL, &status, err, sizeof(err)),
			 0);
	assert_int_equal(out.len, 1000000);
	qg_buf_free(&out);
	qg_ssh_close(s);
}

static void test_command_timeout(void **state)
{
	(void)state;
	char kh[1200], err[512];
	path(kh, sizeof(kh), "known_hosts_tofu");
	struct qg_ssh_target t = {.host = "127.0.0.1", .port = port, .user = getenv("USER")};
	struct qg_ssh_opts o = {
	    .known_hosts = kh, .config = "", .identity = key, .command_timeout_s = 1};
	struct qg_ssh *s = NULL;
	assert_int_equal(qg_ssh_connect(&t, &o, &s, err, sizeof(err)), 0);
	int status;
	assert_int_equal(qg_ssh_run(s, "sleep 5", NULL, 0, NULL, NULL, &status, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "did not finish within 1 s"));
	qg_ssh_close(s);
}

static void test_ssh_config_honoured(void **state)
{
	(void)state;
	char cfg[1200], kh[1200], err[512], text[4000];
	path(cfg, sizeof(cfg), "ssh_config");
	path(kh, sizeof(kh), "known_hosts_tofu");
	snprintf(text, sizeof(text),
		 "Host qgtest-switch\n  HostName 127.0.0.1\n  Port %d\n  User %s\n"
		 "  IdentityFile %s\n",
		 port, getenv("USER"), key);
	FILE *f = fopen(cfg, "w");
	fputs(text, f);
	fclose(f);
	/* Only the alias: address, port, user and key all come from the config. */
	struct qg_ssh_target t = {.host = "qgtest-switch"};
	struct qg_ssh_opts o = {.known_hosts = kh, .config = cfg, .command_timeout_s = 5};
	struct qg_ssh *s = NULL;
	if (qg_ssh_connect(&t, &o, &s, err, sizeof(err)) != 0)
		fprintf(stderr, "%s\n", err);
	assert_non_null(s);
	char want[64];
	snprintf(want, sizeof(want), "127.0.0.1:%d", port);
	assert_string_equal(qg_ssh_peer(s), want);
	qg_ssh_close(s);
}

static void test_missing_ssh_config_refused(void **state)
{
	(void)state;
	char err[512];
	struct qg_ssh_target t = {.host = "127.0.0.1", .port = port};
	struct qg_ssh_opts o = {.config = "/nonexistent/ssh_config", .identity = key};
	struct qg_ssh *s = NULL;
	assert_int_equal(qg_ssh_connect(&t, &o, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read the ssh config /nonexistent/ssh_config"));
}

static void test_wrong_key_refused(void **state)
{
	(void)state;
	char kh[1200], other[1200], err[512];
	path(kh, sizeof(kh), "known_hosts_tofu");
	path(other, sizeof(other), "other_key");
	struct qg_ssh_target t = {.host = "127.0.0.1", .port = port, .user = getenv("USER")};
	struct qg_ssh_opts o = {.known_hosts = kh, .config = "", .identity = other};
	struct qg_ssh *s = NULL;
	assert_int_equal(qg_ssh_connect(&t, &o, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "authentication failed"));
	assert_non_null(strstr(err, "QOSGEN_SSH_PASSWORD"));
}

int main(void)
{
	const char *d = getenv("QG_SSHD_DIR");
	if (!d) {
		fprintf(stderr, "QG_SSHD_DIR is not set: run through tests/e2e/run.sh\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s", d);
	snprintf(key, sizeof(key), "%s/client_key", dir);
	char pf[1200];
	path(pf, sizeof(pf), "port");
	FILE *f = fopen(pf, "r");
	if (!f || !fgets(port_text, sizeof(port_text), f))
		return 1;
	fclose(f);
	port = atoi(port_text);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unknown_host_refused_then_accept_new),
	    cmocka_unit_test(test_changed_key_always_refused),
	    cmocka_unit_test(test_run_output_status_stdin),
	    cmocka_unit_test(test_command_timeout),
	    cmocka_unit_test(test_ssh_config_honoured),
	    cmocka_unit_test(test_wrong_key_refused),
	    cmocka_unit_test(test_missing_ssh_config_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
