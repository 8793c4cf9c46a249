/* SPDX-License-Identifier: MIT */
/*
 * A Linux host of several NICs (issue 28, item 2): its settings keyed per
 * NIC, its group named by its NICs' flavours, its row naming each NIC's
 * devices, its group's file calling a function per flavour for each NIC, its
 * persistence (one script, a unit and a rule per NIC), and its script run
 * for real (a dry run, under a test root) with one NIC absent. The hosts'
 * NICs are set by hand on a loaded model, the intent's `nics:` aside.
 */
#include "helpers.h"

#include "../../model/bounds.h"
#include "../../model/settings.h"
#include "../../targets/host/linux.h"
#include "../../targets/host/linux_persist.h"

#include <sys/stat.h>
#include <sys/wait.h>

#define HOSTS                                                                                      \
	"hosts:\n"                                                                                 \
	"  - {name: a, platform: linux, address: a.example.net, netdev: x0, rdma_device: y0}\n"    \
	"  - {name: b, platform: linux, address: b.example.net, netdev: x1, rdma_device: y1}\n"

#define PF(n, r)                                                                                   \
	{                                                                                          \
		.netdev = n, .rdma_device = r                                                      \
	}
#define DCB(n, r)                                                                                  \
	{                                                                                          \
		.netdev = n, .rdma_device = r, .qos_tool = QG_TOOL_DCB                             \
	}
#define VF(n, r)                                                                                   \
	{                                                                                          \
		.netdev = n, .rdma_device = r, .function = QG_FN_VF                                \
	}

/* The intent's two hosts, host 0 given nics0 and host 1 nics1 (NULL: as loaded). */
static void load_nics(struct qg_model *m, const struct qg_nic *nics0, size_t n0,
		      const struct qg_nic *nics1, size_t n1)
{
	load_ok(BASE_QOS HOSTS, m);
	assert_int_equal(m->n_hosts, 2);
	if (nics0) {
		m->hosts[0].nics = nics0;
		m->hosts[0].n_nics = n0;
	}
	if (nics1) {
		m->hosts[1].nics = nics1;
		m->hosts[1].n_nics = n1;
	}
}

/*
 * The script host i runs, as a push makes it: its own files alone
 * (qg_emit_device), put together; the caller frees it.
 */
static char *script_of(const struct qg_model *m, size_t i)
{
	struct qg_templates t;
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_templates_load(&t, NULL, &d), 0);
	const struct qg_emit_ctx ctx = {
	    .templates = &t, .generator = "qosgen test", .intent_hash = "0", .d = &d};
	struct qg_outset files = {0};
	assert_int_equal(qg_emit_device(m, QG_DEVICE_HOST, i, &ctx, &files), 0);
	struct qg_buf b = {0};
	assert_int_equal(host_script_assemble(m, i, &files, &b), 0);
	qg_outset_free(&files);
	qg_templates_free(&t);
	qg_diags_free(&d);
	return b.data;
}

static void group_of(const struct qg_model *m, size_t i, char name[QG_GROUP_LEN])
{
	qg_target_linux.group(m, i, name);
	assert_true(strlen(name) < QG_GROUP_LEN);
}

static const char *setting(const struct qg_settings *s, const char *key)
{
	const char *v = qg_settings_get(s, key);
	if (!v)
		fprintf(stderr, "no setting %s\n", key);
	assert_non_null(v);
	return v;
}

/* Two alike NICs: keys per NIC, the group named by the run, the row naming both. */
static void test_two_nics(void **state)
{
	(void)state;
	static const struct qg_nic two[] = {PF("ens1f0np0", "mlx5_0"), PF("ens2f0np0", "mlx5_1")};
	struct qg_model m;
	load_nics(&m, two, 2, NULL, 0);
	char g[QG_GROUP_LEN];
	group_of(&m, 0, g);
	assert_string_equal(g, "linux-pf-mlnx_qos-x2");
	group_of(&m, 1, g);
	assert_string_equal(g, "linux-pf-mlnx_qos");

	/*
	 * Every one-NIC key, once per NIC, prefixed nics[K]., in NIC order; the
	 * host's own (the jobs' configuration files, issue 35) once, last.
	 */
	struct qg_settings one = {0}, s = {0};
	assert_int_equal(qg_target_linux.settings(&m, 1, &one), 0);
	assert_int_equal(qg_target_linux.settings(&m, 0, &s), 0);
	size_t per_nic = one.n - LINUX_JOB_CONFS;
	assert_int_equal(s.n, 2 * per_nic + LINUX_JOB_CONFS);
	for (size_t k = 0; k < LINUX_JOB_CONFS; k++)
		assert_string_equal(s.v[2 * per_nic + k].key, linux_job_conf[k].key);
	for (size_t k = 0; k < per_nic; k++) {
		char key[96];
		snprintf(key, sizeof(key), "nics[0].%s", one.v[k].key);
		assert_string_equal(s.v[k].key, key);
		assert_string_equal(s.v[k].value, one.v[k].value);
		snprintf(key, sizeof(key), "nics[1].%s", one.v[k].key);
		assert_string_equal(s.v[per_nic + k].key, key);
	}
	assert_string_equal(setting(&s, "nics[1].mtu"), "9000");
	assert_string_equal(setting(&s, "nics[1].ecn.roce_np.enable.3"), "1");
	assert_string_equal(setting(&s, "nics[0].dscp2prio.26"), "3");
	qg_settings_free(&one);
	qg_settings_free(&s);

	struct qg_outset o;
	build_ok(&m, &o);
	char *sh = script_of(&m, 0);
	assert_non_null(strstr(sh, "\nqg_host='a' qg_group='linux-pf-mlnx_qos-x2' "
				   "qg_netdev_0='ens1f0np0' qg_rdma_device_0='mlx5_0' "
				   "qg_netdev_1='ens2f0np0' qg_rdma_device_1='mlx5_1'\n"));
	const char *body = file_text(&o, "host/groups/linux-pf-mlnx_qos-x2.sh");
	assert_non_null(strstr(sh, "\nqg_nic 1 qg_nic_pf_mlnx_qos "));
	assert_null(strstr(sh, "qg_host='b'"));
	free(sh);
	assert_non_null(strstr(body, "# 2 NICs, each a PF, QoS through mlnx_qos.\n"));
	assert_non_null(strstr(body, "qg_nic_pf_mlnx_qos() {\n"
				     "\tqg_mtu \"$qg_netdev\" '9000'\n"
				     "\tqg_mlnx_qos_trust \"$qg_netdev\" 'dscp'\n"));
	assert_non_null(strstr(body, "\tqg_roce_tos \"$qg_rdma_device\" '1' '106'\n"));
	assert_non_null(strstr(body, "}\nqg_nic 0 qg_nic_pf_mlnx_qos \"$qg_netdev_0\" "
				     "\"$qg_rdma_device_0\"\n"
				     "qg_nic 1 qg_nic_pf_mlnx_qos \"$qg_netdev_1\" "
				     "\"$qg_rdma_device_1\"\n"));
	/* The NIC's netdev is checked by qg_nic, a missing one that NIC's alone. */
	assert_null(strstr(body, "qg_need_netdev"));
	assert_null(strstr(body, "ens1f0np0"));
	assert_null(strstr(body, "qg_nic_vf"));
	/* The one-NIC host beside it keeps its own group, file and row. */
	assert_non_null(strstr(file_text(&o, "host/groups/linux-pf-mlnx_qos.sh"),
			       "\nqg_need_netdev \"$qg_netdev\"\n"));
	assert_non_null(strstr(file_text(&o, "host/hosts/linux.sh"),
			       "\nqg_host='b' qg_group='linux-pf-mlnx_qos' qg_netdev='x1' "
			       "qg_rdma_device='y1'\n"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* One NIC given as a list is the shorthand, byte for byte. */
static void test_one_nic_list_is_the_shorthand(void **state)
{
	(void)state;
	static const struct qg_nic one[] = {PF("x0", "y0")};
	struct qg_model a, b;
	struct qg_outset oa, ob;
	load_nics(&a, NULL, 0, NULL, 0);
	load_nics(&b, one, 1, NULL, 0);
	build_ok(&a, &oa);
	build_ok(&b, &ob);
	assert_int_equal(oa.n, ob.n);
	for (size_t k = 0; k < oa.n; k++) {
		const struct qg_outfile *f = qg_outset_find(&ob, oa.v[k].path);
		assert_non_null(f);
		assert_int_equal(f->len, oa.v[k].len);
		assert_memory_equal(f->data, oa.v[k].data, f->len);
	}
	qg_outset_free(&oa);
	qg_outset_free(&ob);
	qg_model_free(&a);
	qg_model_free(&b);
}

/* Eight alike NICs on two hosts with other netdev names: one group, one file, one settings list. */
static void test_eight_nics_one_group(void **state)
{
	(void)state;
	static const struct qg_nic h0[] = {PF("ens1f0np0", "mlx5_0"), PF("ens2f0np0", "mlx5_1"),
					   PF("ens3f0np0", "mlx5_2"), PF("ens4f0np0", "mlx5_3"),
					   PF("ens5f0np0", "mlx5_4"), PF("ens6f0np0", "mlx5_5"),
					   PF("ens7f0np0", "mlx5_6"), PF("ens8f0np0", "mlx5_7")};
	static const struct qg_nic h1[] = {PF("eth0", "rocep1s0"), PF("eth1", "rocep2s0"),
					   PF("eth2", "rocep3s0"), PF("eth3", "rocep4s0"),
					   PF("eth4", "rocep5s0"), PF("eth5", "rocep6s0"),
					   PF("eth6", "rocep7s0"), PF("eth7", "rocep8s0")};
	struct qg_model m;
	load_nics(&m, h0, 8, h1, 8);
	char g0[QG_GROUP_LEN], g1[QG_GROUP_LEN];
	group_of(&m, 0, g0);
	group_of(&m, 1, g1);
	assert_string_equal(g0, "linux-pf-mlnx_qos-x8");
	assert_string_equal(g1, g0);
	/* build refuses two hosts of one group whose settings differ: it builds. */
	struct qg_outset o;
	build_ok(&m, &o);
	const char *body = file_text(&o, "host/groups/linux-pf-mlnx_qos-x8.sh");
	assert_non_null(strstr(body, "\nqg_nic 7 qg_nic_pf_mlnx_qos \"$qg_netdev_7\" "
				     "\"$qg_rdma_device_7\"\n"));
	/* One function for the eight. */
	const char *fn = strstr(body, "qg_nic_pf_mlnx_qos() {");
	assert_non_null(fn);
	assert_null(strstr(fn + 1, "qg_nic_pf_mlnx_qos() {"));
	assert_non_null(strstr(file_text(&o, "host/hosts/linux.sh"),
			       " qg_netdev_7='eth7' qg_rdma_device_7='rocep8s0'\n"));
	/* Every NIC's unit and rule, the installed script given its netdev. */
	const char *unit = file_text(&o, "host/persist-nics/ens8f0np0/mlx5_7.service");
	assert_non_null(strstr(unit, "\nExecStart=/usr/local/lib/qosgen/roce-qos.sh ens8f0np0\n"));
	assert_non_null(strstr(unit, "\nBindsTo=sys-subsystem-net-devices-ens8f0np0.device\n"));
	const char *rules = file_text(&o, "host/persist-nics/eth0/rocep1s0.rules");
	assert_non_null(strstr(rules,
			       "KERNEL==\"rocep1s0\", TEST==\"/run/systemd/system\", "
			       "TAG+=\"systemd\", "
			       "ENV{SYSTEMD_WANTS}+=\"qosgen-roce-qos-eth0@rdma.service\"\n"));
	assert_non_null(strstr(rules, "then /usr/local/lib/qosgen/roce-qos.sh eth0 2>&1 | logger"));
	assert_null(qg_outset_find(&o, "host/persist/eth0/rocep1s0.rules"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* Mixed flavours: runs in the name, a function each; too many runs: a bounded hash name. */
static void test_mixed_flavours(void **state)
{
	(void)state;
	static const struct qg_nic mixed[] = {PF("e0", "m0"), PF("e1", "m1"), DCB("e2", "m2"),
					      VF("e3", "m3")};
	static const struct qg_nic other[] = {PF("e0", "m0"), DCB("e1", "m1"), DCB("e2", "m2"),
					      VF("e3", "m3")};
	struct qg_model m;
	load_nics(&m, mixed, 4, other, 4);
	char g0[QG_GROUP_LEN], g1[QG_GROUP_LEN];
	group_of(&m, 0, g0);
	group_of(&m, 1, g1);
	assert_string_equal(g0, "linux-pf-mlnx_qos-x2-pf-dcb-x1-vf-x1");
	assert_string_equal(g1, "linux-pf-mlnx_qos-x1-pf-dcb-x2-vf-x1");
	struct qg_settings s = {0};
	assert_int_equal(qg_target_linux.settings(&m, 0, &s), 0);
	assert_string_equal(setting(&s, "nics[1].trust"), "dscp");
	assert_string_equal(setting(&s, "nics[2].pfc"), "0,0,0,1,0,0,0,0");
	assert_null(qg_settings_get(&s, "nics[3].trust")); /* a VF's trust is the hypervisor's */
	assert_string_equal(setting(&s, "nics[3].mtu"), "9000");
	qg_settings_free(&s);
	struct qg_outset o;
	build_ok(&m, &o);
	const char *body = file_text(&o, "host/groups/linux-pf-mlnx_qos-x2-pf-dcb-x1-vf-x1.sh");
	assert_non_null(strstr(body, "# 4 NICs, of the flavours below.\n"));
	const char *a = strstr(body, "\nqg_nic_pf_mlnx_qos() {\n");
	const char *b = strstr(body, "\nqg_nic_pf_dcb() {\n");
	const char *c = strstr(body, "\nqg_nic_vf() {\n");
	assert_true(a && b && c && a < b && b < c);
	assert_non_null(strstr(b, "\tqg_dcb_trust \"$qg_netdev\" 'dscp'\n"));
	assert_non_null(strstr(c, "\tqg_mtu \"$qg_netdev\" '9000' 'a VF MTU is bounded"));
	assert_non_null(strstr(body,
			       "\nqg_nic 2 qg_nic_pf_dcb \"$qg_netdev_2\" "
			       "\"$qg_rdma_device_2\"\n"
			       "qg_nic 3 qg_nic_vf \"$qg_netdev_3\" \"$qg_rdma_device_3\"\n"));
	qg_outset_free(&o);
	qg_model_free(&m);

	/* Sixteen NICs, the flavours alternating: no room for the runs. */
	static const struct qg_nic alt[] = {
	    PF("e0", "m0"),   VF("e1", "m1"),	PF("e2", "m2"),	  VF("e3", "m3"),
	    PF("e4", "m4"),   VF("e5", "m5"),	PF("e6", "m6"),	  VF("e7", "m7"),
	    PF("e8", "m8"),   VF("e9", "m9"),	PF("e10", "m10"), VF("e11", "m11"),
	    PF("e12", "m12"), VF("e13", "m13"), PF("e14", "m14"), VF("e15", "m15")};
	static const struct qg_nic alt2[] = {
	    VF("e0", "m0"),   PF("e1", "m1"),	VF("e2", "m2"),	  PF("e3", "m3"),
	    VF("e4", "m4"),   PF("e5", "m5"),	VF("e6", "m6"),	  PF("e7", "m7"),
	    VF("e8", "m8"),   PF("e9", "m9"),	VF("e10", "m10"), PF("e11", "m11"),
	    VF("e12", "m12"), PF("e13", "m13"), VF("e14", "m14"), PF("e15", "m15")};
	load_nics(&m, alt, 16, alt2, 16);
	group_of(&m, 0, g0);
	group_of(&m, 1, g1);
	assert_int_equal(strncmp(g0, "linux-mixed-x16-", 16), 0);
	assert_int_equal(strlen(g0), 16 + 12);
	assert_int_equal(strspn(g0 + 16, "0123456789abcdef"), 12);
	assert_int_equal(strncmp(g1, "linux-mixed-x16-", 16), 0);
	assert_string_not_equal(g0, g1);
	build_ok(&m, &o);
	char path[QG_GROUP_LEN + 16];
	snprintf(path, sizeof(path), "host/groups/%s.sh", g0);
	assert_non_null(qg_outset_find(&o, path));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * As the intent gives them (`nics:`, intent/intent_nics.c): eight NICs of one
 * pattern, and a list of one, which is the shorthand's host byte for byte.
 */
static void test_nics_from_the_intent(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS
		"hosts:\n"
		"  - {name: a, platform: linux, address: a.example.net, nics: "
		"[{netdev: \"ens[1-8]f0np0\", rdma_device: \"mlx5_[0-7]\"}]}\n"
		"  - {name: b, platform: linux, address: b.example.net, nics: "
		"[{netdev: x1, rdma_device: y1}]}\n"
		"  - {name: c, platform: linux, address: c.example.net, qos_tool: dcb, nics: "
		"[{netdev: e0, rdma_device: m0}, {netdev: e1, rdma_device: m1, function: "
		"vf}]}\n",
		&m);
	char g[QG_GROUP_LEN];
	group_of(&m, 0, g);
	assert_string_equal(g, "linux-pf-mlnx_qos-x8");
	group_of(&m, 1, g);
	assert_string_equal(g, "linux-pf-mlnx_qos");
	group_of(&m, 2, g);
	assert_string_equal(g, "linux-pf-dcb-x1-vf-x1");
	struct qg_outset o;
	build_ok(&m, &o);
	const char *rows = file_text(&o, "host/hosts/linux.sh");
	assert_non_null(strstr(rows, " qg_netdev_7='ens8f0np0' qg_rdma_device_7='mlx5_7'\n"));
	assert_non_null(strstr(rows, "\nqg_host='b' qg_group='linux-pf-mlnx_qos' qg_netdev='x1' "
				     "qg_rdma_device='y1'\n"));
	assert_non_null(file_text(&o, "host/persist/x1/y1.service"));
	assert_non_null(file_text(&o, "host/persist-nics/ens8f0np0/mlx5_7.rules"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * The fabric's NICs, hosts times their NICs (issue 36): at the bound a
 * build loads; one NIC more is refused, counted before any range is
 * expanded, so a product far past memory is refused as quickly.
 */
static void test_fabric_nics_bounded(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "hosts:\n"
			 "  - {name: \"gpu-[1-5120]\", platform: linux, address: 10.1.0.1, nics: "
			 "[{netdev: \"ens[0-31]np0\", rdma_device: \"mlx5_[0-31]\"}]}\n",
		&m);
	size_t nics = 0;
	for (size_t i = 0; i < m.n_hosts; i++)
		nics += m.hosts[i].n_nics;
	assert_int_equal(nics, QG_FABRIC_NICS_MAX);
	qg_model_free(&m);
	load_fails_with(BASE_QOS "hosts:\n"
				 "  - {name: \"gpu-[1-5120]\", platform: linux, address: 10.1.0.1, "
				 "nics: [{netdev: \"ens[0-31]np0\", rdma_device: \"mlx5_[0-31]\"}]}\n"
				 "  - {name: db, platform: linux, address: 10.2.0.1, netdev: e0, "
				 "rdma_device: m0}\n",
			"hosts[db]: brings the fabric's RoCE NICs to 163841 (here 1 host of 1 NIC)");
	/* 150,000 hosts of a million names each: never expanded. */
	load_fails_with(BASE_QOS "hosts:\n"
				 "  - {name: \"gpu-[1-150000]\", platform: linux, address: 10.1.0.1, "
				 "nics: [{netdev: \"e[1-1000000]\", rdma_device: \"m[1-1000000]\"}]}\n",
			"brings the fabric's RoCE NICs to 150000000000 (here 150000 hosts of "
			"1000000 NICs)");
}

/* A temporary root for the installed files, and the script's lock. */
struct root {
	char dir[64];
};

static void root_open(struct root *r)
{
	snprintf(r->dir, sizeof(r->dir), "/tmp/qg-nics-XXXXXX");
	assert_non_null(mkdtemp(r->dir));
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/root/run' '%s/state'", r->dir, r->dir);
	assert_int_equal(system(cmd), 0);
}

static void root_close(struct root *r)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
	assert_int_equal(system(cmd), 0);
}

/* Run text with sh under the root (a dry run unless dry is 0), with args; stdout in *out. */
static int run_sh_as(const struct root *r, const char *text, size_t len, const char *args, int dry,
		     char **out)
{
	char path[128], cmd[1024];
	snprintf(path, sizeof(path), "%s/payload.sh", r->dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	snprintf(cmd, sizeof(cmd),
		 "PATH='%s/tests/scripts/fake':\"$PATH\" QG_STATE='%s/state' QG_ROOT='%s/root' "
		 "QG_DRY_RUN=%d sh '%s' %s >'%s/out' 2>&1",
		 QG_SOURCE_DIR, r->dir, r->dir, dry, path, args, r->dir);
	int st = system(cmd);
	snprintf(path, sizeof(path), "%s/out", r->dir);
	size_t n;
	int err;
	*out = qg_read_file(path, 1 << 20, false, &n, &err);
	assert_non_null(*out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run_sh(const struct root *r, const char *text, size_t len, const char *args, char **out)
{
	return run_sh_as(r, text, len, args, 1, out);
}

/*
 * The script of a host of two VFs (no QoS tool to fake), on the loopback and
 * on a netdev no host has: the absent one is missing alone (exit 2), the
 * loopback still read; given a netdev, the script does that NIC alone.
 */
static void test_script_one_nic_absent(void **state)
{
	(void)state;
	static const struct qg_nic two[] = {VF("lo", "qgtest0"), VF("qgabsent0", "qgtest1")};
	struct qg_model m;
	struct qg_outset o;
	struct root r;
	load_nics(&m, two, 2, NULL, 0);
	build_ok(&m, &o);
	root_open(&r);
	char *sh = script_of(&m, 0);
	char *out = NULL;
	int st = run_sh(&r, sh, strlen(sh), "", &out);
	if (st != 2)
		fprintf(stderr, "exit %d: %s", st, out);
	assert_int_equal(st, 2);
	assert_non_null(
	    strstr(out, "[missing] nics[1].netdev: no network device qgabsent0 on this host\n"));
	assert_non_null(strstr(out, "] nics[0].mtu: "));
	assert_non_null(strstr(out, "] nics[0].roce_tos: "));
	/* Nothing else of NIC 1, nothing unkeyed but the host's own jobs' files. */
	for (const char *l = out; *l; l = strchr(l, '\n') + 1) {
		const char *key = strchr(l, ' ') + 1;
		if (!strncmp(key, "nccl.", 5) || !strncmp(key, "ucx.", 4))
			continue;
		assert_int_equal(strncmp(key, "nics[", 5), 0);
		if (!strncmp(key, "nics[1].", 8))
			assert_int_equal(strncmp(key, "nics[1].netdev: ", 16), 0);
	}
	free(out);
	/* The installed copy, run by NIC 0's unit: NIC 0 alone. */
	assert_int_equal(run_sh(&r, sh, strlen(sh), "lo", &out) & ~2, 0);
	assert_null(strstr(out, "nics[1]"));
	assert_non_null(strstr(out, "] nics[0].mtu: "));
	free(out);
	assert_int_equal(run_sh(&r, sh, strlen(sh), "qgabsent0", &out), 2);
	assert_string_equal(out, "[missing] nics[1].netdev: no network device qgabsent0 on this "
				 "host\n");
	free(out);
	/* A netdev the host's NICs do not have (a stale rule): said, nothing done. */
	assert_int_equal(run_sh(&r, sh, strlen(sh), "eth9", &out), 1);
	assert_string_equal(out, "[failed] nic: host a has no NIC eth9 in the intent\n");
	free(out);
	free(sh);
	root_close(&r);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* The persistence payload: one script, every NIC's unit and rule; removal takes them all. */
static void test_persist_every_nic(void **state)
{
	(void)state;
	static const struct qg_nic two[] = {PF("ens1f0np0", "mlx5_0"), PF("ens2f0np0", "mlx5_1")};
	struct qg_model m;
	struct qg_outset o;
	struct qg_templates t;
	struct qg_diags d;
	struct root r;
	load_nics(&m, two, 2, NULL, 0);
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_templates_load(&t, NULL, &d), 0);
	const struct qg_emit_ctx ctx = {
	    .templates = &t, .generator = "qosgen test", .intent_hash = "0", .d = &d};
	/* Host 0's files alone, as a push makes them. */
	memset(&o, 0, sizeof(o));
	assert_int_equal(qg_emit_device(&m, QG_DEVICE_HOST, 0, &ctx, &o), 0);
	root_open(&r);
	struct qg_buf p = {0};
	char *out = NULL;
	assert_int_equal(linux_persist_payload(&m, 0, &ctx, &o, LINUX_PERSIST_INSTALL, false, &p),
			 0);
	/* A dry run: everything named, nothing written. */
	assert_int_equal(run_sh(&r, p.data, p.len, "", &out), 0);
	assert_non_null(strstr(out, "[differs] persist: missing -> sha256 "));
	free(out);
	const char *s = strstr(p.data, "qg_persist_file '/usr/local/lib/qosgen/roce-qos.sh' 755 ");
	const char *u0 =
	    strstr(p.data,
		   "qg_persist_file '/etc/systemd/system/qosgen-roce-qos-ens1f0np0@.service' 644 ");
	const char *r0 = strstr(
	    p.data, "qg_persist_file '/etc/udev/rules.d/90-qosgen-roce-qos-ens1f0np0.rules' 644 ");
	const char *u1 =
	    strstr(p.data,
		   "qg_persist_file '/etc/systemd/system/qosgen-roce-qos-ens2f0np0@.service' 644 ");
	const char *r1 = strstr(
	    p.data, "qg_persist_file '/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules' 644 ");
	assert_true(s && u0 && r0 && u1 && r1 && s < u0 && u0 < r0 && r0 < u1 && u1 < r1);
	qg_buf_free(&p);

	/* Installed for real: each file as build wrote it. */
	assert_int_equal(linux_persist_payload(&m, 0, &ctx, &o, LINUX_PERSIST_INSTALL, false, &p),
			 0);
	assert_int_equal(run_sh_as(&r, p.data, p.len, "", 0, &out), 0);
	assert_non_null(strstr(out, "[changed] persist: missing -> sha256 "));
	free(out);
	qg_buf_free(&p);
	const struct qg_outfile *unit =
	    qg_outset_find(&o, "host/persist-nics/ens2f0np0/mlx5_1.service");
	assert_non_null(unit);
	char want[128], cmd[1024];
	snprintf(want, sizeof(want), "%s/want.service", r.dir);
	FILE *fp = fopen(want, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(unit->data, 1, unit->len, fp), unit->len);
	assert_int_equal(fclose(fp), 0);
	snprintf(cmd, sizeof(cmd),
		 "cmp -s '%s/root/etc/systemd/system/qosgen-roce-qos-ens2f0np0@.service' "
		 "'%s' && [ -x '%s/root/usr/local/lib/qosgen/roce-qos.sh' ] && "
		 "[ -f '%s/root/etc/udev/rules.d/90-qosgen-roce-qos-ens1f0np0.rules' ]",
		 r.dir, want, r.dir, r.dir);
	assert_int_equal(system(cmd), 0);

	/* persist_probe's dry run: current; then one NIC's rule edited: stale, named. */
	assert_int_equal(linux_persist_payload(&m, 0, &ctx, &o, LINUX_PERSIST_INSTALL, false, &p),
			 0);
	assert_int_equal(run_sh(&r, p.data, p.len, "", &out), 0);
	assert_non_null(strstr(out, "[ok] persist: installed, sha256 "));
	free(out);
	snprintf(cmd, sizeof(cmd),
		 "echo '# edited' >>'%s/root/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules'",
		 r.dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_sh(&r, p.data, p.len, "", &out), 0);
	assert_non_null(
	    strstr(out, "[differs] persist: stale (90-qosgen-roce-qos-ens2f0np0.rules; "));
	free(out);
	qg_buf_free(&p);

	/* Removal: every NIC's rule and unit, then the script. */
	assert_int_equal(linux_persist_payload(&m, 0, &ctx, &o, LINUX_PERSIST_REMOVE, false, &p),
			 0);
	assert_int_equal(run_sh(&r, p.data, p.len, "", &out), 0);
	assert_string_equal(out, "[differs] persist: removed "
				 "/etc/udev/rules.d/90-qosgen-roce-qos-ens1f0np0.rules, "
				 "/etc/systemd/system/qosgen-roce-qos-ens1f0np0@.service, "
				 "/etc/udev/rules.d/90-qosgen-roce-qos-ens2f0np0.rules, "
				 "/etc/systemd/system/qosgen-roce-qos-ens2f0np0@.service, "
				 "/usr/local/lib/qosgen/roce-qos.sh\n");
	free(out);
	qg_buf_free(&p);
	root_close(&r);
	qg_templates_free(&t);
	qg_diags_free(&d);
	qg_outset_free(&o);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_nics),
	    cmocka_unit_test(test_one_nic_list_is_the_shorthand),
	    cmocka_unit_test(test_eight_nics_one_group),
	    cmocka_unit_test(test_mixed_flavours),
	    cmocka_unit_test(test_nics_from_the_intent),
	    cmocka_unit_test(test_fabric_nics_bounded),
	    cmocka_unit_test(test_script_one_nic_absent),
	    cmocka_unit_test(test_persist_every_nic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
