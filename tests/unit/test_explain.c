/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../emit/explain.h"
#include "../../model/keys.h"
#include "../../emit/modeljson.h"
#include "../../model/settings.h"

static const cJSON *find_row(const cJSON *e, const char *key)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(e, "rows"))
	{
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(r, "key")), key))
			return r;
	}
	fprintf(stderr, "no row %s\n", key);
	return NULL;
}

static void test_derived_with_reasons(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("rdg-vsphere.yaml", &m);
	cJSON *e = qg_explain_json(&m);
	const cJSON *tos = find_row(e, "derived.roce_tos");
	assert_non_null(tos);
	assert_int_equal(cJSON_GetObjectItem(tos, "value")->valueint, 106);
	const char *why = cJSON_GetStringValue(cJSON_GetObjectItem(tos, "reason"));
	assert_non_null(strstr(why, "DSCP 26 << 2 | ECT(0) 2 = 106"));
	assert_non_null(strstr(why, "104"));
	const cJSON *mtu = find_row(e, "qos.switch_mtu");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(mtu, "source")), "default");
	/* One switch MTU per fabric (issue 23), and why that one. */
	assert_int_equal(cJSON_GetObjectItem(mtu, "value")->valueint, 9216);
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(mtu, "reason")),
			       "the one port MTU of every switch in the fabric: the smallest "
			       "largest port MTU of its switch OSes (onyx 9216)"));
	/* The ESXi driver's ECN feature (issue 23): on with the intent's ecn. */
	const cJSON *ecn = find_row(e, "esxi.ecn");
	assert_non_null(ecn);
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(ecn, "reason")),
			       "nmlx5_core ecn: qos.lossless.ecn is given"));
	assert_non_null(find_row(e, "device.clx-mld-41.nmlx5_core.ecn"));
	const cJSON *pmtu = find_row(e, "derived.roce_path_mtu");
	assert_int_equal(cJSON_GetObjectItem(pmtu, "value")->valueint, 4096);
	assert_string_equal(
	    cJSON_GetStringValue(cJSON_GetObjectItem(find_row(e, "derived.pfc_vector"), "value")),
	    "0,0,0,1,0,0,0,0");
	assert_non_null(find_row(e, "device.clx-mld-41.nmlx5_core.pfctx"));
	struct qg_buf text = {0};
	qg_explain_text(e, &text);
	assert_non_null(strstr(text.data, "derived.roce_tos"));
	assert_non_null(strstr(text.data, "0x6a"));
	qg_buf_free(&text);
	cJSON_Delete(e);
	qg_model_free(&m);
}

/* The value's JSON text after a round trip through cJSON's printer. */
static void assert_json(const char *value, const char *want)
{
	cJSON *v = qg_setting_json(value);
	char *s = cJSON_PrintUnformatted(v);
	assert_string_equal(s, want);
	cJSON_free(s);
	cJSON_Delete(v);
}

/* Issue 17: numbers as numbers, and the same name for the same thing. */
static void test_one_vocabulary(void **state)
{
	(void)state;
	assert_json("9000", "9000");
	assert_json("50.00", "50.00"); /* exactly as formatted: no floating point */
	assert_json("-1", "-1");
	assert_json("0", "0");
	assert_json("0x08", "\"0x08\"");
	assert_json("00010000", "\"00010000\""); /* a bit vector keeps its zeros */
	assert_json("0,0,0,1,0,0,0,0", "\"0,0,0,1,0,0,0,0\"");
	assert_json("1/1-1/32", "\"1/1-1/32\"");
	assert_json("1.", "\"1.\"");
	assert_json("", "\"\"");
	struct qg_model m;
	load_example("rdg-vsphere.yaml", &m);
	cJSON *e = qg_explain_json(&m);
	/* qos.mtu and a host's mtu: both numbers */
	assert_true(cJSON_IsNumber(cJSON_GetObjectItem(find_row(e, "qos.mtu"), "value")));
	const cJSON *dev =
	    cJSON_GetObjectItem(find_row(e, "device.clx-mld-41.nmlx5_rdma.dscp_force"), "value");
	assert_true(cJSON_IsRaw(dev));
	assert_string_equal(dev->valuestring, "26");
	/* a count is port_count; ports is the list, as the target writes it */
	assert_int_equal(
	    cJSON_GetObjectItem(find_row(e, "switches.swx-mld-1-2.port_count"), "value")->valueint,
	    32);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(
				find_row(e, "device.swx-mld-1-2.ports"), "value")),
			    "1/1-1/32");
	struct qg_buf text = {0};
	qg_explain_text(e, &text);
	assert_non_null(strstr(text.data, " REASON\n")); /* the JSON key's name */
	qg_buf_free(&text);
	cJSON_Delete(e);
	qg_model_free(&m);
}

/*
 * A VF's switch MTU (issue 23): named in explain, never silent; with no dvs
 * it is outside the intent, and a PF-only fabric has no such row.
 */
static void test_vf_switch_mtu_row(void **state)
{
	(void)state;
	static const char vf[] = "hosts:\n  - {name: v, platform: linux, function: vf, address: "
				 "10.0.0.1, netdev: ens224, rdma_device: mlx5_0}\n";
	static const char pf[] = "hosts:\n  - {name: p, platform: linux, address: 10.0.0.2, "
				 "netdev: ens1, rdma_device: mlx5_0}\n";
	static const char dvs[] = "dvs:\n  - {name: d, vcenter: vc.example.net, datacenter: DC}\n";
	char text[2048];
	struct qg_model m;
	snprintf(text, sizeof(text), "%s%s", BASE_QOS, vf);
	load_ok(text, &m);
	cJSON *e = qg_explain_json(&m);
	const cJSON *r = find_row(e, "linux.vf.mtu");
	assert_non_null(r);
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(r, "reason")),
			       "this intent has no dvs: that switch MTU is outside the intent"));
	cJSON_Delete(e);
	qg_model_free(&m);

	snprintf(text, sizeof(text), "%s%s%s", BASE_QOS, vf, dvs);
	load_ok(text, &m);
	e = qg_explain_json(&m);
	r = find_row(e, "linux.vf.mtu");
	assert_non_null(r);
	assert_non_null(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(r, "reason")),
			       "the intent's dvs carry at least qos.mtu"));
	cJSON_Delete(e);
	qg_model_free(&m);

	snprintf(text, sizeof(text), "%s%s", BASE_QOS, pf);
	load_ok(text, &m);
	e = qg_explain_json(&m);
	const cJSON *row;
	bool seen = false;
	cJSON_ArrayForEach(row, cJSON_GetObjectItem(e, "rows")) seen |=
	    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "key")), "linux.vf.mtu");
	assert_false(seen);
	cJSON_Delete(e);
	qg_model_free(&m);
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/*
 * Issue 25: alike hosts print once per group: the group's rows with "*"
 * for the host, then one line per host with its address. Every host's rows
 * stay in the JSON, each naming its device, with its group's name.
 */
static void test_alike_hosts_grouped(void **state)
{
	(void)state;
	static const char hosts[] =
	    "hosts:\n"
	    "  - {name: \"g[1-3]\", platform: linux, address: 10.0.0.1, netdev: e1, "
	    "rdma_device: mlx5_0}\n"
	    "  - {name: g4, platform: linux, address: 10.0.0.9, port: 2222, netdev: e1, "
	    "rdma_device: mlx5_0}\n"
	    "  - {name: v1, platform: linux, function: vf, address: 10.0.1.1, netdev: e1, "
	    "rdma_device: mlx5_0}\n";
	char text[2048];
	struct qg_model m;
	snprintf(text, sizeof(text), "%s%s", BASE_QOS, hosts);
	load_ok(text, &m);
	cJSON *e = qg_explain_json(&m);
	const cJSON *r = find_row(e, "hosts.g2.group");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "value")),
			    "linux-pf-mlnx_qos");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "device")), "g2");
	assert_string_equal(
	    cJSON_GetStringValue(cJSON_GetObjectItem(find_row(e, "hosts.g3.address"), "value")),
	    "10.0.0.3");
	assert_string_equal(
	    cJSON_GetStringValue(cJSON_GetObjectItem(find_row(e, "device.g4.mtu"), "device")),
	    "g4");
	const cJSON *groups = cJSON_GetObjectItem(e, "groups");
	assert_int_equal(cJSON_GetArraySize(groups), 2);
	const cJSON *g0 = cJSON_GetArrayItem(groups, 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g0, "name")),
			    "linux-pf-mlnx_qos");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(g0, "hosts")), 4);

	struct qg_buf text_out = {0};
	qg_explain_text(e, &text_out);
	const char *t = text_out.data;
	assert_non_null(
	    strstr(t, "\nhosts of group linux-pf-mlnx_qos (target linux): 4 hosts alike\n"));
	assert_non_null(strstr(t, "\nhosts of group linux-vf (target linux): 1 host alike\n"));
	/* The rows once per group, not per host; the port that differs is a column. */
	assert_int_equal(count(t, "device.*.mtu "), 2);
	assert_int_equal(count(t, "hosts.g1."), 0);
	assert_int_equal(count(t, "device.g1."), 0);
	assert_non_null(strstr(t,
			       "hosts.*.port                                 (per host)           "
			       "mixed    differs within the group: the column port below\n"));
	assert_non_null(strstr(t, "HOST ADDRESS  port\n"
				  "g1   10.0.0.1 22\n"
				  "g2   10.0.0.2 22\n"
				  "g3   10.0.0.3 22\n"
				  "g4   10.0.0.9 2222\n"));
	assert_non_null(strstr(t, "HOST ADDRESS\nv1   10.0.1.1\n"));
	assert_null(strstr(t, " \n")); /* no line ends in spaces */
	qg_buf_free(&text_out);

	/* --host: that host's rows only, its group's name among them. */
	int of_g4 = 0;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(e, "rows"))
	{
		const char *dev = cJSON_GetStringValue(cJSON_GetObjectItem(r, "device"));
		of_g4 += dev && !strcmp(dev, "g4");
	}
	assert_true(of_g4 > 10);
	assert_int_equal(qg_explain_only(e, "g4", NULL), of_g4);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "rows")), of_g4);
	assert_null(cJSON_GetObjectItem(e, "groups"));
	qg_explain_text(e, &text_out);
	assert_non_null(strstr(text_out.data, "hosts.g4.group "));
	assert_non_null(
	    strstr(text_out.data, "hosts.g4.port                                2222 "));
	assert_null(strstr(text_out.data, "g1"));
	assert_null(strstr(text_out.data, "qos.mtu"));
	qg_buf_free(&text_out);
	cJSON_Delete(e);
	qg_model_free(&m);
}

/*
 * A host of several NICs (issue 28): a row per NIC per key, its netdev named
 * beside K; a one-NIC host keeps the shorthand's rows.
 */
static void test_nics_rows(void **state)
{
	(void)state;
	static const char hosts[] =
	    "hosts:\n"
	    "  - {name: \"g[1-2]\", platform: linux, address: 10.0.0.1, qos_tool: dcb, nics: "
	    "[{netdev: \"ens[1-8]f0np0\", rdma_device: \"mlx5_[0-7]\"}]}\n"
	    "  - {name: one, platform: linux, address: 10.0.1.1, nics: [{netdev: e1, rdma_device: "
	    "m1}]}\n";
	char text[2048];
	struct qg_model m;
	snprintf(text, sizeof(text), "%s%s", BASE_QOS, hosts);
	load_ok(text, &m);
	cJSON *e = qg_explain_json(&m);
	const cJSON *r = find_row(e, "hosts.g2.nics[3].netdev");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "value")), "ens4f0np0");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "source")), "given");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "device")), "g2");
	r = find_row(e, "hosts.g1.nics[7].rdma_device");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "value")), "mlx5_7");
	r = find_row(e, "hosts.g1.nics[5].qos_tool");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "value")), "dcb");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "reason")), "ens6f0np0");
	r = find_row(e, "hosts.g1.nics[5].function");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "source")), "default");
	assert_non_null(find_row(e, "hosts.one.function"));
	assert_non_null(find_row(e, "hosts.one.qos_tool"));
	struct qg_buf out = {0};
	qg_explain_text(e, &out);
	assert_non_null(
	    strstr(out.data, "\nhosts.*.nics[3].netdev                       ens4f0np0 "));
	assert_int_equal(count(out.data, "nics[7].netdev"), 1);
	qg_buf_free(&out);
	cJSON_Delete(e);
	qg_model_free(&m);
}

/*
 * The policy's rows come from the key table (issue 26): each key that lands
 * in the model has its row, its value read where the row says it lands,
 * "given" or "default" by its given flag, and its doc line where explain
 * has no reason of its own.
 */
static void test_policy_rows_from_key_table(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("rdg-vsphere.yaml", &m);
	cJSON *e = qg_explain_json(&m);
	size_t n, found = 0;
	const struct qg_key *keys = qg_keys(&n);
	for (size_t i = 0; i < n; i++) {
		const struct qg_key *k = &keys[i];
		const void *base =
		    k->base == QG_KB_MODEL    ? (const void *)&m
		    : k->base == QG_KB_QOS    ? (const void *)&m.qos
		    : k->base == QG_KB_VERIFY ? (const void *)&m.verify
		    : k->base == QG_KB_CLASS && !strncmp(k->path, "qos.lossless.", 13)
			? (const void *)&m.qos.lossless
			: NULL;
		if (!base || strstr(k->path, ".ets.") || !strncmp(k->path, "qos.pfc_watchdog.", 17))
			continue;
		const cJSON *r = find_row(e, k->path);
		assert_non_null(r);
		found++;
		assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "source")),
				    qg_key_given(k, base) ? "given" : "default");
		cJSON *want = qg_key_value_json(k, base);
		char *a = cJSON_PrintUnformatted(want),
		     *b = cJSON_PrintUnformatted(cJSON_GetObjectItem(r, "value"));
		assert_string_equal(a, b);
		free(a);
		free(b);
		cJSON_Delete(want);
	}
	assert_true(found >= 10);
	/* No reason of its own: the row's doc line. */
	const cJSON *d = find_row(e, "verify.duration_s");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(d, "reason")),
			    qg_key_find("verify.duration_s")->doc);
	/* The pfc watchdog not given: one row, not managed. */
	assert_non_null(find_row(e, "qos.pfc_watchdog"));
	cJSON_Delete(e);
	qg_model_free(&m);
}

/*
 * Port roles (issue 28): each role's values per switch, given or the
 * policy's; the model's JSON holds them sorted by name, and a switch
 * without roles has no "roles" key (older intents hash as before).
 */
static void test_role_rows(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS
		"switches:\n"
		"  - {name: leaf1, platform: onyx, address: 192.0.2.1, ports: [1/1-1/32],\n"
		"     roles: {spines: {ports: [1/17-1/24, 1/26], cable_length_m: 40,\n"
		"                      ecn: {min_kb: 300, max_kb: 3000}},\n"
		"             hosts: {ports: 1/1-1/16}}}\n"
		"  - {name: leaf2, platform: onyx, address: 192.0.2.2, ports: [1/1]}\n",
		&m);
	cJSON *e = qg_explain_json(&m);
	const cJSON *r = find_row(e, "switches.leaf1.roles.spines.ecn.min_kb");
	assert_non_null(r);
	assert_int_equal(cJSON_GetObjectItem(r, "value")->valueint, 300);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "source")), "given");
	r = find_row(e, "switches.leaf1.roles.hosts.ecn.max_kb");
	assert_non_null(r);
	assert_int_equal(cJSON_GetObjectItem(r, "value")->valueint, 1500);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "source")), "default");
	r = find_row(e, "switches.leaf1.roles.spines.ports");
	assert_non_null(r);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(r, "value")),
			    "1/17-1/24,1/26");
	r = find_row(e, "switches.leaf1.roles.spines.cable_length_m");
	assert_non_null(r);
	assert_int_equal(cJSON_GetObjectItem(r, "value")->valueint, 40);
	cJSON_Delete(e);

	cJSON *j = qg_model_json(&m);
	const cJSON *sw = cJSON_GetObjectItem(j, "switches");
	const cJSON *roles = cJSON_GetObjectItem(cJSON_GetArrayItem(sw, 0), "roles");
	assert_non_null(roles);
	assert_string_equal(roles->child->string, "hosts");
	assert_string_equal(roles->child->next->string, "spines");
	char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(roles, "spines"));
	assert_string_equal(text, "{\"ports\":[\"1/17-1/24\",\"1/26\"],\"cable_length_m\":40,"
				  "\"ecn\":{\"min_kb\":300,\"max_kb\":3000}}");
	free(text);
	assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(sw, 1), "roles"));
	cJSON_Delete(j);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vf_switch_mtu_row),
	    cmocka_unit_test(test_derived_with_reasons),
	    cmocka_unit_test(test_one_vocabulary),
	    cmocka_unit_test(test_alike_hosts_grouped),
	    cmocka_unit_test(test_nics_rows),
	    cmocka_unit_test(test_policy_rows_from_key_table),
	    cmocka_unit_test(test_role_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
