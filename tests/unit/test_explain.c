/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../gen/explain.h"
#include "../../gen/settings.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vf_switch_mtu_row),
	    cmocka_unit_test(test_derived_with_reasons),
	    cmocka_unit_test(test_one_vocabulary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
