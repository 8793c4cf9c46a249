/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../lib/hash.h"
#include "../../emit/modeljson.h"
#include "../../model/names.h"

#include <cjson/cJSON.h>
#include <errno.h>

static void test_byte_identical(void **state)
{
	(void)state;
	struct qg_model m1, m2;
	struct qg_outset a, b;
	load_example("bitfusion-pvrdma.yaml", &m1);
	load_example("bitfusion-pvrdma.yaml", &m2);
	build_ok(&m1, &a);
	build_ok(&m2, &b);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_string_equal(a.v[i].path, b.v[i].path);
		assert_int_equal(a.v[i].len, b.v[i].len);
		assert_memory_equal(a.v[i].data, b.v[i].data, a.v[i].len);
	}
	/* Sorted by path, whatever the emit order. */
	for (size_t i = 1; i < a.n; i++)
		assert_true(strcmp(a.v[i - 1].path, a.v[i].path) < 0);
	qg_outset_free(&a);
	qg_outset_free(&b);
	qg_model_free(&m1);
	qg_model_free(&m2);
}

static void test_hash_covers_meaning_not_spelling(void **state)
{
	(void)state;
	char h1[QG_SHA256_HEX], h2[QG_SHA256_HEX], h3[QG_SHA256_HEX];
	struct qg_model m;
	load_ok(BASE_QOS, &m);
	qg_model_hash(&m, h1);
	qg_model_free(&m);
	/* Comments, key order and spelled-out defaults do not change the intent. */
	load_ok(
	    "# a comment\nfabric: t\nversion: 1\nqos:\n  mtu: 9000\n  trust: dscp\n"
	    "  cnp: {ets: strict, dscp: 48, priority: 6, traffic_class: 6}\n"
	    "  lossless:\n    dscp: [26]\n    priority: 3\n"
	    "    pool: {memory_percent: 50.00, name: roce}\n    ecn: {max_kb: 1500, min_kb: 150}\n",
	    &m);
	qg_model_hash(&m, h2);
	qg_model_free(&m);
	assert_string_equal(h1, h2);
	load_ok(
	    "version: 1\nfabric: t\nqos:\n  mtu: 8000\n  lossless:\n    priority: 3\n"
	    "    dscp: [26]\n    pool: {name: roce, memory_percent: 50}\n"
	    "    ecn: {min_kb: 150, max_kb: 1500}\n  cnp: {priority: 6, dscp: 48, ets: strict}\n",
	    &m);
	qg_model_hash(&m, h3);
	qg_model_free(&m);
	assert_string_not_equal(h1, h3);
}

static void host_hash(const char *host, char out[QG_SHA256_HEX], cJSON **json)
{
	char text[1024];
	struct qg_model m;
	snprintf(text, sizeof(text),
		 "%shosts:\n  - {name: g, platform: linux, address: 10.0.0.1, %s}\n", BASE_QOS,
		 host);
	load_ok(text, &m);
	qg_model_hash(&m, out);
	if (json)
		*json = qg_model_json(&m);
	qg_model_free(&m);
}

/*
 * A host's NICs (issue 28): one NIC hashes as the shorthand did, whether
 * given as it or as a nics: of one item; several are a "nics" list, each
 * NIC with its keys, qos_tool left out for a vf as on a one-NIC host.
 */
static void test_hash_of_nics(void **state)
{
	(void)state;
	char h1[QG_SHA256_HEX], h2[QG_SHA256_HEX], h3[QG_SHA256_HEX], h4[QG_SHA256_HEX];
	cJSON *j;
	host_hash("netdev: e0, rdma_device: m0, qos_tool: dcb", h1, NULL);
	host_hash("qos_tool: dcb, nics: [{netdev: e0, rdma_device: m0}]", h2, NULL);
	assert_string_equal(h1, h2);
	host_hash("nics: [{netdev: \"e[0-1]\", rdma_device: \"m[0-1]\"}]", h3, NULL);
	host_hash(
	    "nics: [{netdev: e0, rdma_device: m0}, {netdev: e1, rdma_device: m1, function: vf}]",
	    h4, &j);
	assert_string_not_equal(h1, h3);
	assert_string_not_equal(h3, h4);
	const cJSON *host = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "hosts"), 0);
	assert_null(cJSON_GetObjectItem(host, "netdev"));
	const cJSON *nics = cJSON_GetObjectItem(host, "nics");
	assert_int_equal(cJSON_GetArraySize(nics), 2);
	const cJSON *nic = cJSON_GetArrayItem(nics, 1);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(nic, "netdev")), "e1");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(nic, "function")), "vf");
	assert_null(cJSON_GetObjectItem(nic, "qos_tool"));
	nic = cJSON_GetArrayItem(nics, 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(nic, "qos_tool")), "mlnx_qos");
	cJSON_Delete(j);
}

/* Each file of a plan's files array is in o with that sha256; how many. */
static size_t plan_files_match(const cJSON *files, const struct qg_outset *o)
{
	size_t n = 0;
	const cJSON *f;
	cJSON_ArrayForEach(f, files)
	{
		const char *path = cJSON_GetStringValue(cJSON_GetObjectItem(f, "path"));
		const struct qg_outfile *of = qg_outset_find(o, path);
		assert_non_null(of);
		char hex[QG_SHA256_HEX];
		const char *row = cJSON_GetStringValue(cJSON_GetObjectItem(f, "row_sha256"));
		if (row) {
			/* A device's row of a table: a line of it, whole, of that digest. */
			size_t len = (size_t)cJSON_GetObjectItem(f, "row_bytes")->valuedouble;
			bool found = false;
			for (const char *l = of->data; l && *l;
			     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
				if ((size_t)(of->data + of->len - l) < len)
					break;
				qg_sha256_hex(l, len, hex);
				found |= !strcmp(hex, row);
			}
			assert_true(found);
			continue; /* the table itself is among the files of no one device */
		}
		qg_sha256_hex(of->data, of->len, hex);
		assert_string_equal(hex, cJSON_GetStringValue(cJSON_GetObjectItem(f, "sha256")));
		n++;
	}
	return n;
}

static void test_plan_lists_every_file_with_its_hash(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("k8s-pvrdma.yaml", &m);
	build_ok(&m, &o);
	cJSON *plan = cJSON_Parse(file_text(&o, "plan.json"));
	assert_non_null(plan);
	const cJSON *devices = cJSON_GetObjectItem(plan, "devices");
	/* 1 switch + 8 hosts + 1 dvs */
	assert_int_equal(cJSON_GetArraySize(devices), 10);
	size_t files = 0;
	const cJSON *dev;
	cJSON_ArrayForEach(dev, devices)
	{
		files += plan_files_match(cJSON_GetObjectItem(dev, "files"), &o);
	}
	/* The hosts' groups' files: the ESXi hosts' (one group) and the Linux VFs'. */
	const cJSON *group;
	cJSON_ArrayForEach(group, cJSON_GetObjectItem(plan, "groups"))
	{
		files += plan_files_match(cJSON_GetObjectItem(group, "files"), &o);
	}
	/*
	 * The rest: the two platforms' helper libraries and tables of hosts,
	 * the Linux hosts' one systemd unit and udev rule (all four on ens224
	 * and vmw_pvrdma0), and the Ansible hand-off.
	 */
	assert_int_equal(plan_files_match(cJSON_GetObjectItem(plan, "files"), &o), 8);
	files += 8;
	assert_int_equal(files + 1, o.n); /* every file but plan.json itself */
	const cJSON *derived = cJSON_GetObjectItem(plan, "derived");
	assert_int_equal(cJSON_GetObjectItem(derived, "roce_tos")->valueint, 106);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(derived, "pfc_bitmap")),
			    "0x08");
	cJSON_Delete(plan);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * Issue 15: devices a target groups share files. A test target of its own
 * (the core sees targets only through the table it is handed): a host's own
 * file, its group's (by netdev), and one file every host shares; with
 * `bug`, one host writes its group's file differently.
 */
static bool fake_bug;
static int fake_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	qg_settings_add(out, "netdev", "%s", m->hosts[i].nics[0].netdev);
	return out->oom ? -ENOMEM : 0;
}
static void fake_group(const struct qg_model *m, size_t i, char name[QG_GROUP_LEN])
{
	snprintf(name, QG_GROUP_LEN, "g-%s", m->hosts[i].nics[0].netdev);
}
static int fake_add(struct qg_outset *out, const char *path, const char *text,
		    enum qg_file_owner owner)
{
	int rc = qg_outset_add(out, path, strdup(text), strlen(text), 0644);
	return rc ? rc : qg_outset_set_owner(out, path, owner);
}
static int fake_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		     struct qg_outset *out)
{
	(void)ctx;
	const struct qg_host *h = &m->hosts[i];
	char path[128], text[128];
	snprintf(path, sizeof(path), "host/%s.txt", h->name);
	snprintf(text, sizeof(text), "I am %s\n", h->name);
	int rc = fake_add(out, path, text, QG_FILE_DEVICE);
	snprintf(path, sizeof(path), "host/groups/g-%s.txt", h->nics[0].netdev);
	snprintf(text, sizeof(text), "netdev %s%s\n", h->nics[0].netdev,
		 fake_bug && !strcmp(h->name, "c") ? " (bug)" : "");
	if (!rc)
		rc = fake_add(out, path, text, QG_FILE_GROUP);
	return rc ? rc : fake_add(out, "host/lib/fake.txt", "helpers\n", QG_FILE_SHARED);
}
/* Its key's row: what the loader reads it by (model/keys.h). */
static const struct qg_key fake_rows[] = {
    {"netdev", QG_KEY_STRING, .required = true, .rule = QG_NETDEV_RULE, .ok = qg_netdev_ok,
     .doc = "the group's netdev", QG_KEY_AT_TEXT(QG_KB_NIC, struct qg_nic, netdev)},
    {0},
};
static const struct qg_target fake_target = {
    .name = "fake",
    .summary = "a grouped test target",
    .kind = QG_DEVICE_HOST,
    .key_rows = fake_rows,
    .access = "SSH",
    .default_port = 22,
    .settings = fake_settings,
    .emit = fake_emit,
    .group = fake_group,
};
static const struct qg_target *const fake_registry[] = {&fake_target, NULL};

#define FAKE_HOSTS                                                                                 \
	BASE_QOS "hosts:\n"                                                                        \
		 "  - {name: a, platform: fake, address: a.example.net, netdev: e1}\n"             \
		 "  - {name: b, platform: fake, address: b.example.net, netdev: e2}\n"             \
		 "  - {name: c, platform: fake, address: c.example.net, netdev: e1}\n"

static int fake_build(struct qg_outset *o, struct qg_diags *d)
{
	struct qg_model m;
	qg_diags_init(d, "t.yaml");
	assert_int_equal(qg_intent_load(FAKE_HOSTS, strlen(FAKE_HOSTS), fake_registry, d, &m), 0);
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, NULL, d), 0);
	memset(o, 0, sizeof(*o));
	struct qg_checked ok;
	int rc = qg_build_check(&m, d, &ok);
	if (rc == 0)
		rc = qg_build(&ok, &t, d, o);
	qg_templates_free(&t);
	qg_model_free(&m);
	return rc;
}

static void test_groups_share_files_once(void **state)
{
	(void)state;
	struct qg_outset o;
	struct qg_diags d;
	fake_bug = false;
	assert_int_equal(fake_build(&o, &d), 0);
	qg_diags_free(&d);
	/* 3 own files, 2 groups' files, 1 shared, plan.json */
	assert_int_equal(o.n, 7);
	assert_string_equal(file_text(&o, "host/groups/g-e1.txt"), "netdev e1\n");
	assert_string_equal(file_text(&o, "host/lib/fake.txt"), "helpers\n");
	cJSON *plan = cJSON_Parse(file_text(&o, "plan.json"));
	const cJSON *devices = cJSON_GetObjectItem(plan, "devices");
	const cJSON *c = cJSON_GetArrayItem(devices, 2);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "group")), "g-e1");
	/* A grouped device lists only its own file; its settings are its group's. */
	assert_int_equal(plan_files_match(cJSON_GetObjectItem(c, "files"), &o), 1);
	assert_null(cJSON_GetObjectItem(c, "settings"));
	const cJSON *groups = cJSON_GetObjectItem(plan, "groups");
	assert_int_equal(cJSON_GetArraySize(groups), 2);
	const cJSON *g = cJSON_GetArrayItem(groups, 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "name")), "g-e1");
	assert_int_equal(cJSON_GetObjectItem(g, "devices")->valueint, 2);
	assert_int_equal(plan_files_match(cJSON_GetObjectItem(g, "files"), &o), 1);
	assert_string_equal(
	    cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(g, "settings"), "netdev")),
	    "e1");
	/* The shared file once, beside nothing else (no hand-off for this target). */
	assert_int_equal(plan_files_match(cJSON_GetObjectItem(plan, "files"), &o), 1);
	cJSON_Delete(plan);
	/* The index finds every file after the sort. */
	for (size_t k = 0; k < o.n; k++)
		assert_ptr_equal(qg_outset_find(&o, o.v[k].path), &o.v[k]);
	qg_outset_free(&o);
}

/* A target whose group's file differs between two of its devices is a bug: named, nothing built. */
static void test_group_file_that_differs_is_refused(void **state)
{
	(void)state;
	struct qg_outset o;
	struct qg_diags d;
	fake_bug = true;
	assert_int_equal(fake_build(&o, &d), -1);
	assert_true(diag_has(&d, "internal error: c's host/groups/g-e1.txt differs from the one "
				 "an earlier device of the same group wrote"));
	qg_diags_free(&d);
	qg_outset_free(&o);
	fake_bug = false;
}

/*
 * A target with emit_group(): build calls it once per group, and what a
 * device emits does not depend on the devices before it (issue 26): the
 * hosts in the other order build the same files.
 */
static int split_groups_made;
static int split_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		      struct qg_outset *out)
{
	(void)ctx;
	char path[128], text[128];
	snprintf(path, sizeof(path), "host/%s.txt", m->hosts[i].name);
	snprintf(text, sizeof(text), "I am %s\n", m->hosts[i].name);
	return fake_add(out, path, text, QG_FILE_DEVICE);
}
static int split_emit_group(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			    struct qg_outset *out)
{
	(void)ctx;
	split_groups_made++;
	char path[128], text[128];
	snprintf(path, sizeof(path), "host/groups/g-%s.txt", m->hosts[i].nics[0].netdev);
	snprintf(text, sizeof(text), "netdev %s\n", m->hosts[i].nics[0].netdev);
	int rc = fake_add(out, path, text, QG_FILE_GROUP);
	return rc ? rc : fake_add(out, "host/lib/fake.txt", "helpers\n", QG_FILE_SHARED);
}
static const struct qg_target split_target = {
    .name = "fake",
    .summary = "a grouped test target with its group's files apart",
    .kind = QG_DEVICE_HOST,
    .access = "SSH",
    .default_port = 22,
    .settings = fake_settings,
    .emit = split_emit,
    .group = fake_group,
    .emit_group = split_emit_group,
    .key_rows = fake_rows,
};
static const struct qg_target *const split_registry[] = {&split_target, NULL};

static void split_build(const char *hosts, struct qg_outset *o)
{
	struct qg_model m;
	struct qg_diags d;
	char intent[1024];
	snprintf(intent, sizeof(intent), "%shosts:\n%s", BASE_QOS, hosts);
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_intent_load(intent, strlen(intent), split_registry, &d, &m), 0);
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, NULL, &d), 0);
	memset(o, 0, sizeof(*o));
	struct qg_checked ok;
	assert_int_equal(qg_build_check(&m, &d, &ok), 0);
	assert_int_equal(qg_build(&ok, &t, &d, o), 0);
	qg_templates_free(&t);
	qg_model_free(&m);
	qg_diags_free(&d);
}

static void test_group_files_once_in_any_order(void **state)
{
	(void)state;
	struct qg_outset a, b;
	split_groups_made = 0;
	split_build("  - {name: a, platform: fake, address: a.example.net, netdev: e1}\n"
		    "  - {name: b, platform: fake, address: b.example.net, netdev: e2}\n"
		    "  - {name: c, platform: fake, address: c.example.net, netdev: e1}\n",
		    &a);
	assert_int_equal(split_groups_made, 2);
	split_build("  - {name: c, platform: fake, address: c.example.net, netdev: e1}\n"
		    "  - {name: b, platform: fake, address: b.example.net, netdev: e2}\n"
		    "  - {name: a, platform: fake, address: a.example.net, netdev: e1}\n",
		    &b);
	assert_int_equal(split_groups_made, 4);
	/* The same files, plan.json aside (it lists the devices in the intent's order). */
	assert_int_equal(a.n, 7);
	assert_int_equal(b.n, a.n);
	for (size_t k = 0; k < a.n; k++) {
		assert_string_equal(a.v[k].path, b.v[k].path);
		if (strcmp(a.v[k].path, "plan.json"))
			assert_string_equal(a.v[k].data, b.v[k].data);
	}
	qg_outset_free(&a);
	qg_outset_free(&b);
}

static void test_template_error_fails_build(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "switches:\n  - {name: s, platform: onyx, address: s.example.net, ports: "
			 "[1/1]}\n",
		&m);
	char dir[] = "/tmp/qg-tmpl-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/onyx.cli.in", dir);
	FILE *f = fopen(path, "w");
	fputs("{{unknown}}\n", f);
	fclose(f);
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, dir, &d), 0);
	struct qg_outset o = {0};
	struct qg_checked ok;
	assert_int_equal(qg_build_check(&m, &d, &ok), 0);
	assert_int_equal(qg_build(&ok, &t, &d, &o), -1);
	assert_true(diag_has(&d, "unknown placeholder"));
	qg_outset_free(&o);
	qg_templates_free(&t);
	qg_diags_free(&d);
	unlink(path);
	rmdir(dir);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_byte_identical),
	    cmocka_unit_test(test_hash_covers_meaning_not_spelling),
	    cmocka_unit_test(test_hash_of_nics),
	    cmocka_unit_test(test_plan_lists_every_file_with_its_hash),
	    cmocka_unit_test(test_groups_share_files_once),
	    cmocka_unit_test(test_group_file_that_differs_is_refused),
	    cmocka_unit_test(test_group_files_once_in_any_order),
	    cmocka_unit_test(test_template_error_fails_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
