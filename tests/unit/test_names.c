/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../model/names.h"

/* Strings that would inject into a shell word, a CLI line or an ssh argv. */
static const char *const hostile[] = {
    "a;b",  "a b", "a'b", "a\"b", "a`b", "a$b", "$(x)", "a|b", "a&b", "a\nb",
    "a\\b", "a>b", "a<b", "-x",	  "a*b", "a?b", "a{b",	"a#b", "",
};

static void test_hostile_strings_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		const char *s = hostile[i];
		assert_false(qg_name_ok(s));
		assert_false(qg_dvs_name_ok(s));
		assert_false(qg_address_ok(s));
		assert_false(qg_user_ok(s));
		assert_false(qg_netdev_ok(s));
		assert_false(qg_rdma_device_ok(s));
		assert_false(qg_vmnic_ok(s));
		assert_false(qg_vmknic_ok(s));
		assert_false(qg_pool_name_ok(s));
		if (strcmp(s, "a b") != 0)
			assert_false(qg_label_ok(s));
	}
}

static void test_ordinary_names_accepted(void **state)
{
	(void)state;
	assert_true(qg_name_ok("swx-mld-1-2"));
	assert_false(qg_name_ok("Swx"));
	assert_true(qg_dvs_name_ok("vSwitch1"));
	assert_true(qg_label_ok("SC2 DC"));
	assert_false(qg_label_ok("SC2 "));
	assert_true(qg_address_ok("192.0.2.10"));
	assert_true(qg_address_ok("2001:db8::1"));
	assert_true(qg_address_ok("clx-mld-41.example.net"));
	assert_true(qg_address_ok("host.example.net."));
	assert_false(qg_address_ok("300.1.1.1"));
	assert_false(qg_address_ok("-host"));
	assert_false(qg_address_ok("host-.example"));
	assert_true(qg_user_ok("root"));
	assert_true(qg_netdev_ok("enp1f0"));
	assert_false(qg_netdev_ok("a234567890123456"));
	assert_true(qg_rdma_device_ok("mlx5_0"));
	assert_true(qg_vmnic_ok("vmnic4"));
	assert_false(qg_vmnic_ok("vmnic"));
	assert_true(qg_vmknic_ok("vmk3"));
	assert_true(qg_pool_name_ok("roce"));
	assert_false(qg_pool_name_ok("a23456789012345678901"));
}

/* One spelling per endpoint (issue 25, item 5), and a device path by name or index. */
static void test_address_key_and_device_path(void **state)
{
	(void)state;
	char a[300], b[300];
	qg_address_key("2001:DB8:0::1", 22, a, sizeof(a));
	qg_address_key("2001:db8::1", 22, b, sizeof(b));
	assert_string_equal(a, "2001:db8::1 port 22");
	assert_string_equal(a, b);
	qg_address_key("SW.Example.NET.", 22, a, sizeof(a));
	assert_string_equal(a, "sw.example.net port 22");
	qg_address_key("192.0.2.1", 2222, a, sizeof(a));
	assert_string_equal(a, "192.0.2.1 port 2222");
	qg_device_path(a, sizeof(a), "switches", "leaf1", 3);
	assert_string_equal(a, "switches[leaf1]");
	qg_device_path(a, sizeof(a), "switches", "12", 3);
	assert_string_equal(a, "switches['12']");
	qg_device_path(a, sizeof(a), "hosts", NULL, 3);
	assert_string_equal(a, "hosts[3]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hostile_strings_refused),
	    cmocka_unit_test(test_ordinary_names_accepted),
	    cmocka_unit_test(test_address_key_and_device_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
