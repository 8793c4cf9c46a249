/* SPDX-License-Identifier: MIT */
/* The Ansible hand-off: ansible/inventory.yml and ansible/site.yml (emit/handoff.c). */
#include "helpers.h"

#include "../../lib/buf.h"
#include "../../emit/handoff.h"
#include "../../intent/yamlast.h"

#include <cjson/cJSON.h>

/* The value of key in mapping m, or NULL. */
static const struct qg_ynode *get(const struct qg_ynode *m, const char *key)
{
	if (!m || m->kind != QG_Y_MAP)
		return NULL;
	for (size_t i = 0; i < qg_ymap_len(m); i++)
		if (!strcmp(m->kids[2 * i]->value, key))
			return m->kids[2 * i + 1];
	return NULL;
}

/* path "a/b/c" through nested mappings. */
static const struct qg_ynode *at(const struct qg_ynode *n, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, "/", &save); k && n;
	     k = strtok_r(NULL, "/", &save))
		n = get(n, k);
	return n;
}

static const char *scalar(const struct qg_ynode *n)
{
	assert_non_null(n);
	assert_int_equal(n->kind, QG_Y_SCALAR);
	return n->value;
}

/* The file must be YAML (libyaml, as Ansible's loader): its root. */
static struct qg_ynode *parse(const struct qg_outset *o, const char *path)
{
	struct qg_diags d;
	qg_diags_init(&d, path);
	const char *text = file_text(o, path);
	struct qg_ynode *root = qg_yaml_parse(text, strlen(text), &d);
	if (!root)
		qg_diags_print(&d, stderr, false);
	assert_non_null(root);
	qg_diags_free(&d);
	return root;
}

static void test_inventory_groups_by_role_and_platform(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("rdg-vsphere.yaml", &m);
	build_ok(&m, &o);
	struct qg_ynode *inv = parse(&o, "ansible/inventory.yml");
	assert_string_equal(scalar(at(inv, "all/vars/qosgen_fabric")), "rdg-vsphere");
	const struct qg_ynode *onyx = at(inv, "all/children/Qosgen_switches/children/Qosgen_onyx");
	/* qosgen push reaches the switch from the controller: Ansible connects to nothing. */
	assert_string_equal(scalar(at(onyx, "vars/ansible_connection")), "local");
	assert_string_equal(scalar(at(onyx, "vars/qosgen_kind")), "switch");
	assert_string_equal(scalar(at(onyx, "hosts/swx-mld-1-2/ansible_host")),
			    "swx-mld-1-2.example.net");
	assert_string_equal(scalar(at(onyx, "hosts/swx-mld-1-2/ansible_user")), "admin");
	assert_string_equal(scalar(at(onyx, "hosts/swx-mld-1-2/ansible_port")), "22");
	const struct qg_ynode *esxi = at(inv, "all/children/Qosgen_hosts/children/Qosgen_esxi/hosts");
	assert_int_equal(qg_ymap_len(esxi), 8);
	/* No user in the intent: none in the inventory, Ansible's own applies. */
	assert_null(at(esxi, "clx-mld-41/ansible_user"));
	assert_string_equal(
	    scalar(at(inv,
		      "all/children/Qosgen_hosts/children/Qosgen_linux/hosts/vm-horovod-1/ansible_user")),
	    "root");
	/* Each host names its group, each platform itself: a host's script's files. */
	assert_string_equal(scalar(at(esxi, "clx-mld-41/qosgen_group")), "esxi");
	/* and its row of the hosts' table, which Ansible must not template. */
	assert_string_equal(scalar(at(esxi, "clx-mld-41/qosgen_row")),
			    "qg_host='clx-mld-41' qg_group='esxi' qg_uplink='vmnic4'");
	assert_non_null(strstr(file_text(&o, "host/hosts/esxi.sh"),
			       "\nqg_host='clx-mld-41' qg_group='esxi' qg_uplink='vmnic4'\n"));
	assert_non_null(strstr(file_text(&o, "ansible/inventory.yml"), "qosgen_row: !unsafe '"));
	assert_string_equal(
	    scalar(at(inv, "all/children/Qosgen_hosts/children/Qosgen_linux/vars/qosgen_platform")),
	    "linux");
	/*
	 * Issue 27: a Linux host is pushed by qosgen on the controller (its
	 * persistence included): Ansible connects to nothing, and the script's
	 * parts are not the play's to put together.
	 */
	const struct qg_ynode *lx = at(inv, "all/children/Qosgen_hosts/children/Qosgen_linux");
	assert_string_equal(scalar(at(lx, "vars/ansible_connection")), "local");
	assert_string_equal(scalar(at(lx, "vars/qosgen_kind")), "host");
	assert_non_null(at(lx, "hosts/vm-horovod-1/ansible_host"));
	assert_null(at(lx, "hosts/vm-horovod-1/qosgen_row"));
	assert_null(at(lx, "hosts/vm-horovod-1/qosgen_group"));
	assert_string_equal(scalar(at(inv, "all/children/Qosgen_hosts/children/Qosgen_esxi/vars/"
					   "ansible_connection")),
			    "ansible.builtin.ssh");
	/* Values from the intent are quoted: a name like a number stays a string. */
	assert_non_null(strstr(file_text(&o, "ansible/inventory.yml"), "'vm-horovod-1':\n"));
	/* No secret: nothing names a password or a key file. */
	assert_null(strstr(file_text(&o, "ansible/inventory.yml"), "ansible_password"));
	assert_null(strstr(file_text(&o, "ansible/inventory.yml"), "private_key_file"));
	qg_yaml_free(inv);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_site_plays_switches_then_hosts_in_waves(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("rdg-vsphere.yaml", &m);
	build_ok(&m, &o);
	struct qg_ynode *site = parse(&o, "ansible/site.yml");
	assert_int_equal(site->kind, QG_Y_SEQ);
	/*
	 * Switches first, then the hosts: Linux by qosgen push (its persistence
	 * included), ESXi by its script.
	 */
	assert_int_equal(site->n_kids, 3);
	assert_string_equal(scalar(get(site->kids[0], "hosts")), "Qosgen_onyx");
	assert_string_equal(scalar(get(site->kids[1], "hosts")), "Qosgen_linux");
	assert_string_equal(scalar(get(site->kids[1], "name")),
			    "Configure the hosts with qosgen push");
	assert_string_equal(scalar(get(site->kids[2], "hosts")), "Qosgen_esxi");
	/* The Linux play's tasks are the switches': qosgen push --host, diff in check mode. */
	const struct qg_ynode *lpush = get(site->kids[1], "tasks")->kids[1];
	assert_non_null(strstr(scalar(at(lpush, "ansible.builtin.command/argv")),
			       "'--' ~ qosgen_kind, inventory_hostname, '--json'"));
	assert_string_equal(scalar(at(lpush, "vars/qosgen_verb")),
			    "{{ 'diff' if ansible_check_mode else 'push' }}");
	/* Waves: qosgen_serial devices at a time, the first failure stops the rest. */
	for (size_t k = 0; k < 3; k++) {
		assert_string_equal(scalar(get(site->kids[k], "serial")),
				    "{{ qosgen_serial | default('100%') }}");
		assert_string_equal(scalar(get(site->kids[k], "max_fail_percentage")), "0");
	}
	/*
	 * A host's script is three files: put together on the controller, run
	 * by the script action, the copy removed whatever happens.
	 */
	const struct qg_ynode *host = get(site->kids[2], "tasks")->kids[0];
	assert_string_equal(scalar(at(host, "vars/qosgen_lib")),
			    "{{ qosgen_out }}/host/lib/{{ qosgen_platform }}.sh");
	assert_string_equal(scalar(at(host, "vars/qosgen_body")),
			    "{{ qosgen_out }}/host/groups/{{ qosgen_group }}.sh");
	const struct qg_ynode *block = get(host, "block");
	assert_int_equal(block->n_kids, 4);
	for (size_t k = 0; k < 2; k++) {
		assert_string_equal(scalar(get(block->kids[k], "delegate_to")), "localhost");
		assert_string_equal(scalar(get(block->kids[k], "become")), "false");
		assert_string_equal(scalar(get(block->kids[k], "changed_when")), "false");
	}
	assert_non_null(strstr(
	    scalar(at(block->kids[1], "ansible.builtin.copy/content")),
	    "{{ lookup('ansible.builtin.file', qosgen_lib, rstrip=false) }}{{ qosgen_row }}\n"
	    "{{ lookup('ansible.builtin.file', qosgen_body, rstrip=false) }}"));
	assert_string_equal(scalar(get(block->kids[1], "diff")), "false");
	const struct qg_ynode *task = block->kids[2];
	assert_string_equal(scalar(get(task, "ansible.builtin.script")), "{{ qosgen_tmp.path }}");
	assert_string_equal(scalar(get(task, "check_mode")), "false");
	assert_non_null(strstr(scalar(at(task, "environment/QG_DRY_RUN")), "ansible_check_mode"));
	/* Failed as qosgen push judges it: an exit not 0, or no report line at all. */
	assert_string_equal(
	    scalar(get(task, "failed_when")),
	    "qosgen_script.rc != 0 or qosgen_script.stdout_lines | select('match', "
	    "'\\\\[(ok|changed|failed|missing|n/a|differs)\\\\] ') | list | length == 0");
	const struct qg_ynode *cleanup = get(host, "always")->kids[0];
	assert_string_equal(scalar(at(cleanup, "ansible.builtin.file/state")), "absent");
	/* Its report lines shown: in check mode, what would change. */
	assert_string_equal(scalar(at(block->kids[3], "ansible.builtin.debug/var")),
			    "qosgen_script.stdout_lines");
	qg_yaml_free(site);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * Issue 27: every switch OS (and the DVS) in plays that run `qosgen push` on
 * the controller, `qosgen diff` in check mode, changed and failed from its
 * --json; the NVUE password on the command's stdin, never its argv, the task
 * no_log when it is given; TLS and credentials are qosgen's own options.
 */
/*
 * A host of several NICs (issue 28) is one inventory entry with its NICs as
 * qosgen_nics; a host of one NIC has no such variable, as before.
 */
static void test_inventory_host_nics(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok(BASE_QOS "hosts:\n"
			 "  - {name: \"gpu-[1-2]\", platform: linux, address: 10.0.0.1, nics: "
			 "[{netdev: \"ens[1-8]f0np0\", rdma_device: \"mlx5_[0-7]\"}]}\n"
			 "  - {name: one, platform: linux, address: 10.0.1.1, nics: [{netdev: e1, "
			 "rdma_device: m1}]}\n",
		&m);
	build_ok(&m, &o);
	struct qg_ynode *inv = parse(&o, "ansible/inventory.yml");
	const struct qg_ynode *hosts =
	    at(inv, "all/children/Qosgen_hosts/children/Qosgen_linux/hosts");
	assert_int_equal(qg_ymap_len(hosts), 3);
	const struct qg_ynode *nics = at(hosts, "gpu-2/qosgen_nics");
	assert_non_null(nics);
	assert_int_equal(nics->kind, QG_Y_SEQ);
	assert_int_equal(nics->n_kids, 8);
	assert_string_equal(scalar(get(nics->kids[3], "netdev")), "ens4f0np0");
	assert_string_equal(scalar(get(nics->kids[3], "rdma_device")), "mlx5_3");
	assert_null(at(hosts, "one/qosgen_nics"));
	qg_yaml_free(inv);
	qg_outset_free(&o);
	qg_model_free(&m);
}

static void test_switch_play_runs_qosgen_push(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok(BASE_QOS "switches:\n"
			 "  - {name: leaf1, platform: cumulus, address: 10.0.0.1, user: cumulus, "
			 "ports: [swp1-2]}\n"
			 "  - {name: s1, platform: sonic, address: 10.0.0.2, ports: [Ethernet0]}\n"
			 "  - {name: o1, platform: onyx, address: 10.0.0.3, ports: [1/1]}\n",
		&m);
	build_ok(&m, &o);
	struct qg_ynode *inv = parse(&o, "ansible/inventory.yml");
	const struct qg_ynode *cl = at(inv, "all/children/Qosgen_switches/children/Qosgen_cumulus");
	assert_string_equal(scalar(at(cl, "vars/ansible_connection")), "local");
	assert_string_equal(scalar(at(cl, "hosts/leaf1/ansible_port")), "8765");
	assert_string_equal(scalar(at(cl, "hosts/leaf1/ansible_user")), "cumulus");
	assert_null(at(cl, "vars/qosgen_nvue_password"));
	assert_null(strstr(file_text(&o, "ansible/inventory.yml"), "ansible_password"));
	assert_string_equal(
	    scalar(at(inv, "all/children/Qosgen_switches/children/Qosgen_sonic/vars/qosgen_kind")),
	    "switch");

	struct qg_ynode *site = parse(&o, "ansible/site.yml");
	assert_int_equal(site->n_kids, 1);
	assert_string_equal(scalar(get(site->kids[0], "hosts")),
			    "Qosgen_onyx:Qosgen_cumulus:Qosgen_sonic");
	const struct qg_ynode *tasks = get(site->kids[0], "tasks");
	assert_int_equal(tasks->n_kids, 4);
	const struct qg_ynode *push = tasks->kids[1];
	const char *argv = scalar(at(push, "ansible.builtin.command/argv"));
	assert_non_null(strstr(argv, "qosgen_verb, qosgen_intent"));
	assert_non_null(strstr(argv, "'--' ~ qosgen_kind, inventory_hostname, '--json'"));
	assert_null(strstr(argv, "password"));
	assert_string_equal(scalar(at(push, "vars/qosgen_verb")),
			    "{{ 'diff' if ansible_check_mode else 'push' }}");
	assert_string_equal(scalar(at(push, "ansible.builtin.command/stdin")),
			    "{{ qosgen_nvue_password | default('') }}");
	assert_string_equal(scalar(get(push, "no_log")), "{{ qosgen_nvue_password is defined }}");
	/* It runs in check mode too (as qosgen diff), and never fails by itself ... */
	assert_string_equal(scalar(get(push, "check_mode")), "false");
	assert_string_equal(scalar(get(push, "failed_when")), "false");
	assert_non_null(strstr(scalar(get(push, "changed_when")), "lines_sent"));
	/* ... the report does (qosgen's lines), then the verdict: ok only when converged. */
	assert_non_null(
	    strstr(scalar(at(tasks->kids[2], "ansible.builtin.debug/msg")), "qosgen_device.lines"));
	assert_string_equal(scalar(get(tasks->kids[3], "when")),
			    "qosgen_run.rc != 0 or not (qosgen_device.ok | default(false))");
	/* The body is JSON: NVUE's tree, one key per interface, in the newest release's words. */
	const char *json = file_text(&o, "nvue/leaf1.json");
	cJSON *tree = cJSON_Parse(json);
	assert_non_null(tree);
	const cJSON *roce =
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tree, "qos"), "roce");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(roce, "state")),
			    "enabled");
	assert_null(cJSON_GetObjectItemCaseSensitive(roce, "enable"));
	cJSON_Delete(tree);
	qg_yaml_free(site);
	qg_yaml_free(inv);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* A DVS is handed off too: its own play, after the switches and before the hosts. */
static void test_dvs_play_between_switches_and_hosts(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("k8s-pvrdma.yaml", &m);
	build_ok(&m, &o);
	struct qg_ynode *site = parse(&o, "ansible/site.yml");
	size_t n = site->n_kids;
	assert_true(n >= 2);
	assert_true(n >= 3);
	assert_string_equal(scalar(get(site->kids[n - 3], "hosts")), "Qosgen_dvs");
	assert_string_equal(scalar(get(site->kids[n - 2], "hosts")), "Qosgen_linux");
	assert_string_equal(scalar(get(site->kids[n - 1], "hosts")), "Qosgen_esxi");
	struct qg_ynode *inv = parse(&o, "ansible/inventory.yml");
	const struct qg_ynode *dvs =
	    at(inv, "all/children/Qosgen_distributed_switches/children/Qosgen_dvs");
	assert_string_equal(scalar(at(dvs, "vars/qosgen_kind")), "dvs");
	assert_string_equal(scalar(at(dvs, "vars/ansible_connection")), "local");
	qg_yaml_free(inv);
	qg_yaml_free(site);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* Collect the inventory's group names (keys of children) and host names (keys of hosts). */
static void inventory_names(const struct qg_ynode *group, struct qg_buf *groups, struct qg_buf *hosts)
{
	const struct qg_ynode *kids = get(group, "children"), *hs = get(group, "hosts");
	for (size_t i = 0; kids && i < qg_ymap_len(kids); i++) {
		qg_buf_printf(groups, "|%s|", kids->kids[2 * i]->value);
		inventory_names(kids->kids[2 * i + 1], groups, hosts);
	}
	for (size_t i = 0; hs && i < qg_ymap_len(hs); i++)
		qg_buf_printf(hosts, "|%s|", hs->kids[2 * i]->value);
}

/*
 * Issue 24, item 7: devices named as the inventory's groups (a switch
 * `linux`, a host `onyx`, a host `qosgen_hosts`): no group has a device's
 * name, so every play's pattern names groups only. Before the fix the
 * switch linux was also the Linux play's group.
 */
static void test_group_names_never_device_names(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_ok(BASE_QOS "switches:\n"
			 "  - {name: linux, platform: onyx, address: 10.0.0.1, ports: [1/1]}\n"
			 "  - {name: qosgen_switches, platform: onyx, address: 10.0.0.2, ports: [1/1]}\n"
			 "hosts:\n"
			 "  - {name: onyx, platform: linux, address: 10.0.1.1, netdev: ens1f0,\n"
			 "     rdma_device: mlx5_0}\n"
			 "  - {name: qosgen_hosts, platform: linux, address: 10.0.1.2, netdev: ens1f0,\n"
			 "     rdma_device: mlx5_0}\n"
			 "  - {name: esxi, platform: esxi, address: 10.0.1.3, uplink: vmnic1}\n",
		&m);
	build_ok(&m, &o);
	struct qg_ynode *inv = parse(&o, "ansible/inventory.yml");
	struct qg_buf groups = {0}, hosts = {0};
	inventory_names(get(inv, "all"), &groups, &hosts);
	qg_buf_append(&groups, "", 0);
	qg_buf_append(&hosts, "", 0);
	assert_string_equal(hosts.data, "|linux||qosgen_switches||onyx||qosgen_hosts||esxi|");
	for (const char *h = hosts.data; (h = strchr(h, '|')); h++) {
		const char *end = strchr(h + 1, '|');
		char one[80];
		snprintf(one, sizeof(one), "%.*s", (int)(end - h + 1), h);
		if (strstr(groups.data, one))
			fail_msg("device %s is also a group of the inventory: %s", one, groups.data);
		h = end;
	}
	/* Each play's pattern: groups of the inventory, none a device. */
	struct qg_ynode *site = parse(&o, "ansible/site.yml");
	assert_string_equal(scalar(get(site->kids[0], "hosts")), "Qosgen_onyx");
	assert_string_equal(scalar(get(site->kids[1], "hosts")), "Qosgen_linux");
	assert_string_equal(scalar(get(site->kids[2], "hosts")), "Qosgen_esxi");
	assert_non_null(strstr(groups.data, "|Qosgen_onyx|"));
	assert_non_null(strstr(groups.data, "|Qosgen_linux|"));
	assert_non_null(strstr(groups.data, "|Qosgen_esxi|"));
	qg_buf_free(&groups);
	qg_buf_free(&hosts);
	qg_yaml_free(site);
	qg_yaml_free(inv);
	qg_outset_free(&o);
	qg_model_free(&m);
}

/* The names Ansible reserves: refused by check, each at its device, with the reason. */
static void test_reserved_names_refused(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_diags d;
	assert_int_equal(
	    load_text(BASE_QOS "switches:\n"
			       "  - {name: all, platform: onyx, address: 10.0.0.1, ports: [1/1]}\n"
			       "hosts:\n"
			       "  - {name: localhost, platform: linux, address: 10.0.1.1, netdev: e0,\n"
			       "     rdma_device: mlx5_0}\n"
			       "  - {name: 127.0.0.1, platform: linux, address: 10.0.1.2, netdev: e0,\n"
			       "     rdma_device: mlx5_0}\n"
			       "  - {name: ungrouped, platform: esxi, address: 10.0.1.3, uplink: vmnic1}\n",
		      &d, &m),
	    0);
	assert_int_equal(qg_build_check(&m, &d, NULL), -1);
	assert_int_equal(d.errors, 4);
	assert_true(diag_has(&d, "switch 'all': a name Ansible reserves (Ansible's group of every host"));
	assert_true(diag_has(&d, "host 'localhost': a name Ansible reserves (Ansible's name for the controller"));
	assert_true(diag_has(&d, "host '127.0.0.1': a name Ansible reserves"));
	assert_true(diag_has(&d, "host 'ungrouped': a name Ansible reserves"));
	qg_diags_free(&d);
	qg_model_free(&m);
}

static void test_yaml_scalar_quotes(void **state)
{
	(void)state;
	struct qg_buf b = {0};
	qg_yaml_scalar(&b, "it's");
	qg_buf_puts(&b, " ");
	qg_yaml_scalar(&b, "a\nb\"\\");
	qg_buf_puts(&b, " ");
	qg_yaml_scalar(&b, "");
	assert_string_equal(b.data, "'it''s' \"a\\x0ab\\\"\\\\\" ''");
	qg_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inventory_groups_by_role_and_platform),
	    cmocka_unit_test(test_site_plays_switches_then_hosts_in_waves),
	    cmocka_unit_test(test_inventory_host_nics),
	    cmocka_unit_test(test_switch_play_runs_qosgen_push),
	    cmocka_unit_test(test_dvs_play_between_switches_and_hosts),
	    cmocka_unit_test(test_group_names_never_device_names),
	    cmocka_unit_test(test_reserved_names_refused),
	    cmocka_unit_test(test_yaml_scalar_quotes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
