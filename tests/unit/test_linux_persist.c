/* SPDX-License-Identifier: MIT */
/*
 * Persistence of a Linux host's settings: the unit and the rule linux.c
 * emits, systemd's own check of the unit, and the payload of
 * targets/host/linux_persist.c run for real with sh under a temporary root
 * (QG_ROOT): installed byte for byte, reported, seen stale, removed exactly.
 */
#include "helpers.h"

#include "../../lib/buf.h"
#include "../../targets/host/linux.h"
#include "../../targets/host/linux_persist.h"

#include <sys/stat.h>

#define HOST(netdev, extra)                                                                        \
	"hosts:\n  - {name: h, platform: linux, address: h.example.net, netdev: " netdev           \
	", rdma_device: mlx5_0" extra "}\n"

struct fx {
	struct qg_model m;
	struct qg_outset o;
	struct qg_templates t;
	struct qg_diags d;
	struct qg_emit_ctx ctx;
	char dir[64]; /* the test's own root */
};

static void fx_open(struct fx *f, const char *text)
{
	load_ok(text, &f->m);
	build_ok(&f->m, &f->o);
	qg_diags_init(&f->d, "t.yaml");
	assert_int_equal(qg_templates_load(&f->t, NULL, &f->d), 0);
	f->ctx = (struct qg_emit_ctx){
	    .templates = &f->t, .generator = "qosgen test", .intent_hash = "0", .d = &f->d};
	snprintf(f->dir, sizeof(f->dir), "/tmp/qg-persist-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
}

static void fx_close(struct fx *f)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	qg_templates_free(&f->t);
	qg_diags_free(&f->d);
	qg_outset_free(&f->o);
	qg_model_free(&f->m);
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static char *read_all(const char *path, size_t *len)
{
	int err;
	return qg_read_file(path, 1 << 20, false, len, &err);
}

/*
 * Run the payload of op under the fixture's root, with env (assignments) in
 * front; stdout in *out, the exit status returned.
 */
static int run_payload_env(struct fx *f, enum linux_persist_op op, const char *env, char **out)
{
	struct qg_buf p = {0};
	assert_int_equal(linux_persist_payload(&f->m, 0, &f->ctx, &f->o, op, false, &p), 0);
	char path[128], cmd[512];
	snprintf(path, sizeof(path), "%s/payload.sh", f->dir);
	write_file(path, p.data, p.len);
	qg_buf_free(&p);
	snprintf(cmd, sizeof(cmd), "QG_ROOT='%s/root' %s /bin/sh '%s' >'%s/out' 2>&1", f->dir, env,
		 path, f->dir);
	int st = system(cmd);
	snprintf(path, sizeof(path), "%s/out", f->dir);
	size_t len;
	*out = read_all(path, &len);
	assert_non_null(*out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run_payload(struct fx *f, enum linux_persist_op op, bool dry, char **out)
{
	return run_payload_env(f, op, dry ? "QG_DRY_RUN=1" : "QG_DRY_RUN=0", out);
}

/*
 * The installed file at path (under the root) holds exactly the emitted file,
 * or with emitted NULL the host's script (its three files as one).
 */
static void assert_installed(struct fx *f, const char *path, const char *emitted, unsigned mode)
{
	char full[256];
	snprintf(full, sizeof(full), "%s/root%s", f->dir, path);
	size_t len;
	char *got = read_all(full, &len);
	assert_non_null(got);
	const char *want = emitted ? file_text(&f->o, emitted) : host_script(&f->m, 0, &f->o);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
	free(got);
	struct stat st;
	assert_int_equal(stat(full, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
}

static bool exists(struct fx *f, const char *path)
{
	char full[256];
	snprintf(full, sizeof(full), "%s/root%s", f->dir, path);
	return access(full, F_OK) == 0;
}

static void test_unit_and_rule_name_the_device(void **state)
{
	(void)state;
	struct fx f;
	fx_open(&f, BASE_QOS HOST("ens1f0-x", ""));
	/* Shared by every host of that netdev and RDMA device: nothing else of the host in them. */
	const char *unit = file_text(&f.o, "host/persist/ens1f0-x/mlx5_0.service");
	const char *rules = file_text(&f.o, "host/persist/ens1f0-x/mlx5_0.rules");
	assert_null(strstr(unit, "host h"));
	assert_null(strstr(rules, "host h"));
	/* systemd.unit(5): a '-' in a path's unit name is \x2d. */
	assert_non_null(strstr(unit, "\nBindsTo=sys-subsystem-net-devices-ens1f0\\x2dx.device\n"));
	assert_non_null(strstr(unit, "\nAfter=sys-subsystem-net-devices-ens1f0\\x2dx.device "
				     "sys-kernel-config.mount\n"));
	assert_non_null(strstr(unit, "\nType=oneshot\n"));
	assert_non_null(strstr(unit, "\nExecStart=/usr/local/lib/qosgen/roce-qos-ens1f0-x.sh\n"));
	assert_null(strstr(unit, "[Install]"));
	assert_non_null(
	    strstr(rules, "SUBSYSTEM==\"net\", ACTION==\"add|move\", "
			  "KERNEL==\"ens1f0-x\", TEST==\"/run/systemd/system\", "
			  "ENV{SYSTEMD_WANTS}+=\"qosgen-roce-qos-ens1f0-x@netdev.service\"\n"));
	assert_non_null(strstr(rules,
			       "SUBSYSTEM==\"infiniband\", ACTION==\"add|move\", "
			       "KERNEL==\"mlx5_0\", TEST!=\"/run/systemd/system\", RUN+=\"/bin/sh "
			       "-c 'if command -v logger >/dev/null; then "
			       "/usr/local/lib/qosgen/roce-qos-ens1f0-x.sh 2>&1 | logger -t "
			       "qosgen-roce-qos; else /usr/local/lib/qosgen/roce-qos-ens1f0-x.sh "
			       ">/dev/null 2>&1; fi'\"\n"));
	/* udev substitutes $ and % in RUN: none may reach it. */
	for (const char *l = strstr(rules, "\nSUBSYSTEM"); l; l = strstr(l + 1, "\nSUBSYSTEM"))
		assert_null(memchr(l, '$', strcspn(l + 1, "\n")));
	assert_null(strchr(rules, '%'));
	fx_close(&f);

	/* persist: false: the script alone (its three files), as before. */
	fx_open(&f, BASE_QOS HOST("ens1f0", ", persist: false"));
	assert_non_null(qg_outset_find(&f.o, "host/hosts/linux.sh"));
	assert_null(qg_outset_find(&f.o, "host/persist/ens1f0/mlx5_0.service"));
	assert_null(qg_outset_find(&f.o, "host/persist/ens1f0/mlx5_0.rules"));
	size_t host_files = 0; /* beside them: plan.json and the Ansible hand-off */
	for (size_t k = 0; k < f.o.n; k++)
		host_files += !strncmp(f.o.v[k].path, "host/", 5);
	assert_int_equal(host_files, 3);
	fx_close(&f);
}

static void test_persist_is_a_plain_boolean(void **state)
{
	(void)state;
	load_fails_with(BASE_QOS HOST("e0", ", persist: \"false\""),
			"persist: got the quoted string 'false'; write false without quotes");
	load_fails_with(BASE_QOS HOST("e0", ", persist: no"), "persist: 'no' is not one of");
	load_fails_with(BASE_QOS "hosts:\n  - {name: e, platform: esxi, address: e.example.net, "
				 "uplink: vmnic1, persist: true}\n",
			"persist");
}

/*
 * systemd-analyze verify, on the unit as installed under a root of its own
 * that holds the system's units (sysinit.target and the rest) and the
 * script at its path. It exits 0 on mere warnings ("Unknown key ..."), so
 * the check is: exit 0 and nothing on stderr. The broken copy shows that
 * this check fails when it should.
 */
static int analyze(struct fx *f, const char *instance, char *err, size_t errlen)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "systemd-analyze verify --man=no --root='%s/root' '%s' >'%s/analyze' 2>&1", f->dir,
		 instance, f->dir);
	int st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/analyze", f->dir);
	size_t len;
	char *text = read_all(cmd, &len);
	snprintf(err, errlen, "%s", text ? text : "");
	free(text);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_systemd_analyze_verify(void **state)
{
	(void)state;
	if (system("command -v systemd-analyze >/dev/null 2>&1 && "
		   "test -f /usr/lib/systemd/system/sysinit.target") != 0) {
		/* Not a skip: make test installs systemd (scripts/setup.sh), so its absence is a
		 * failure. */
		fprintf(stderr, "systemd-analyze or the system units are missing: apt-get install "
				"systemd ('make setup' installs it)\n");
		fail();
	}
	struct fx f;
	fx_open(&f, BASE_QOS HOST("ens1f0-x", ""));
	char *out = NULL;
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, false, &out), 0);
	free(out);
	char cmd[512], err[4096];
	/*
	 * systemd-analyze --root resolves the unit's dependencies (sysinit.target,
	 * the device unit) against the units of that root: the test root gets a
	 * copy of this machine's. Every other path here is the host layout a push
	 * installs (docs/intent.md), under the test's own root.
	 */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/root/usr/lib/systemd' && cp -a /usr/lib/systemd/system "
		 "'%s/root/usr/lib/systemd/'",
		 f.dir, f.dir);
	assert_int_equal(system(cmd), 0);
	const char *instances[] = {"qosgen-roce-qos-ens1f0-x@netdev.service",
				   "qosgen-roce-qos-ens1f0-x@rdma.service"};
	for (size_t k = 0; k < 2; k++) {
		int rc = analyze(&f, instances[k], err, sizeof(err));
		if (rc != 0 || err[0])
			fprintf(stderr, "systemd-analyze verify %s: exit %d: %s\n", instances[k],
				rc, err);
		assert_int_equal(rc, 0);
		assert_string_equal(err, "");
	}
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/^Type=oneshot/Type=oneshoot/' "
		 "'%s/root/etc/systemd/system/qosgen-roce-qos-ens1f0-x@.service'",
		 f.dir);
	assert_int_equal(system(cmd), 0);
	analyze(&f, instances[0], err, sizeof(err));
	assert_non_null(strstr(err, "oneshoot"));
	fx_close(&f);
}

static const char *const SCRIPT = "/usr/local/lib/qosgen/roce-qos-enp1f0.sh";
static const char *const UNIT = "/etc/systemd/system/qosgen-roce-qos-enp1f0@.service";
static const char *const RULES = "/etc/udev/rules.d/90-qosgen-roce-qos-enp1f0.rules";

/* "sha256 XXXXXXXXXXXX" at the end of a report line, copied to out. */
static void hash_of(const char *line, char out[13])
{
	const char *h = strrchr(line, ' ');
	assert_non_null(h);
	snprintf(out, 13, "%s", h + 1);
	assert_int_equal(strspn(out, "0123456789abcdef"), 12);
}

static void test_install_check_remove(void **state)
{
	(void)state;
	struct fx f;
	fx_open(&f, BASE_QOS HOST("enp1f0", ""));
	char *out = NULL, h1[13], h2[13], cmd[512];

	/* A dry run (qosgen diff) says what is missing and writes nothing. */
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, true, &out), 0);
	assert_non_null(strstr(out, "[differs] persist: missing -> sha256 "));
	assert_false(exists(&f, SCRIPT));
	free(out);

	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, false, &out), 0);
	assert_int_equal(strncmp(out, "[changed] persist: missing -> sha256 ", 37), 0);
	hash_of(strtok(out, "\n"), h1);
	free(out);
	assert_installed(&f, SCRIPT, NULL, 0755);
	assert_installed(&f, UNIT, "host/persist/enp1f0/mlx5_0.service", 0644);
	assert_installed(&f, RULES, "host/persist/enp1f0/mlx5_0.rules", 0644);

	/* Again: nothing to do, the same content hash. */
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, false, &out), 0);
	assert_int_equal(strncmp(out, "[ok] persist: installed, sha256 ", 32), 0);
	hash_of(strtok(out, "\n"), h2);
	assert_string_equal(h1, h2);
	free(out);

	/* Someone edits the installed script: stale, named; a dry run leaves it so. */
	snprintf(cmd, sizeof(cmd), "echo '# edited' >>'%s/root%s'", f.dir, SCRIPT);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, true, &out), 0);
	assert_non_null(
	    strstr(out, "[differs] persist: stale (roce-qos-enp1f0.sh; installed sha256 "));
	assert_non_null(strstr(out, h1));
	free(out);
	snprintf(cmd, sizeof(cmd), "grep -q '# edited' '%s/root%s'", f.dir, SCRIPT);
	assert_int_equal(system(cmd), 0);
	/* A mode someone changed is stale too. */
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, false, &out), 0);
	free(out);
	assert_installed(&f, SCRIPT, NULL, 0755);
	snprintf(cmd, sizeof(cmd), "chmod 0644 '%s/root%s'", f.dir, SCRIPT);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, true, &out), 0);
	assert_non_null(strstr(out, "[differs] persist: stale (roce-qos-enp1f0.sh;"));
	free(out);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_INSTALL, false, &out), 0);
	free(out);

	/* Removal: exactly what qosgen installs; a neighbour's rule and unit stay. */
	snprintf(cmd, sizeof(cmd),
		 "echo 'SUBSYSTEM==\"net\"' >'%s/root/etc/udev/rules.d/70-other.rules' && "
		 "echo '# qosgen' >'%s/root/usr/local/lib/qosgen/roce-qos-enp2f0.sh'",
		 f.dir, f.dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_REMOVE, true, &out), 0);
	assert_non_null(strstr(out, "[differs] persist: removed "));
	assert_true(exists(&f, SCRIPT));
	free(out);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_REMOVE, false, &out), 0);
	assert_non_null(strstr(out, "[changed] persist: removed "
				    "/etc/udev/rules.d/90-qosgen-roce-qos-enp1f0.rules, "
				    "/etc/systemd/system/qosgen-roce-qos-enp1f0@.service, "
				    "/usr/local/lib/qosgen/roce-qos-enp1f0.sh\n"));
	free(out);
	assert_false(exists(&f, SCRIPT));
	assert_false(exists(&f, UNIT));
	assert_false(exists(&f, RULES));
	assert_true(exists(&f, "/etc/udev/rules.d/70-other.rules"));
	assert_true(exists(&f, "/usr/local/lib/qosgen/roce-qos-enp2f0.sh"));
	assert_int_equal(run_payload(&f, LINUX_PERSIST_REMOVE, false, &out), 0);
	assert_string_equal(out, "[ok] persist: not installed\n");
	free(out);

	/* A file at qosgen's path that is not qosgen's is refused, and kept. */
	snprintf(cmd, sizeof(cmd), "echo 'ACTION==\"add\"' >'%s/root%s'", f.dir, RULES);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_payload(&f, LINUX_PERSIST_REMOVE, false, &out), 1);
	assert_non_null(strstr(out, "[failed] persist: "));
	assert_non_null(strstr(out, "is not qosgen's: left as it is"));
	assert_true(exists(&f, RULES));
	free(out);

	/*
	 * Without sha256sum nothing is installed: the line is [missing] and the
	 * exit status 2, as a setting's tool missing makes the host script's.
	 * Its PATH is one where sh's builtins alone are found (sha256sum is
	 * coreutils', in /usr/bin; the payload adds the sbin folders).
	 */
	assert_int_equal(run_payload_env(&f, LINUX_PERSIST_INSTALL, "PATH=/nonexistent", &out), 2);
	assert_string_equal(
	    out, "[missing] persist: sha256sum (coreutils) is not installed: nothing installed\n");
	free(out);
	fx_close(&f);
}

/* With the script run after it, the exit status is the worse of the two. */
static void test_payload_runs_the_script_after(void **state)
{
	(void)state;
	struct fx f;
	fx_open(&f, BASE_QOS HOST("enp1f0", ""));
	struct qg_buf p = {0};
	assert_int_equal(
	    linux_persist_payload(&f.m, 0, &f.ctx, &f.o, LINUX_PERSIST_INSTALL, true, &p), 0);
	const char *persist = strstr(p.data, "\nqg_persist_end\n");
	const char *script = strstr(p.data, "\nsh -s <<'QOSGEN_SCRIPT_");
	assert_non_null(persist);
	assert_non_null(script);
	assert_true(persist < script);
	assert_non_null(strstr(p.data, "exit \"$qg_rc\"\n"));
	qg_buf_free(&p);
	/* persist: false: the script as it is (its three files as one), byte for byte. */
	assert_int_equal(linux_persist_payload(&f.m, 0, &f.ctx, &f.o, LINUX_PERSIST_NONE, true, &p),
			 0);
	const char *sh = host_script(&f.m, 0, &f.o);
	assert_int_equal(p.len, strlen(sh));
	assert_memory_equal(p.data, sh, p.len);
	qg_buf_free(&p);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unit_and_rule_name_the_device),
	    cmocka_unit_test(test_persist_is_a_plain_boolean),
	    cmocka_unit_test(test_systemd_analyze_verify),
	    cmocka_unit_test(test_install_check_remove),
	    cmocka_unit_test(test_payload_runs_the_script_after),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
