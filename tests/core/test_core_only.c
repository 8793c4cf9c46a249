/* SPDX-License-Identifier: MIT */
/*
 * The compiler core with no device I/O (issue 13): lib/ model/ intent/ emit/ and two pure
 * targets, linked with libyaml, cJSON and libcrypto only (the Makefile's
 * rule for this binary names no other library, so a core that needed
 * libssh, libcurl or libxml2 would not link). The registry is this test's
 * own: the loader knows platforms only through the table it is handed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../emit/build.h"
#include "../../emit/explain.h"
#include "../../intent/intent.h"
#include "../../model/target.h"
#include "../../targets/host/linux.h"
#include "../../targets/onyx/onyx.h"

#include <string.h>

static const struct qg_target *const registry[] = {&qg_target_onyx, &qg_target_linux, NULL};

#define INTENT                                                                                     \
	"version: 1\nfabric: core\nqos:\n  lossless: {priority: 3, dscp: [26], pool: {name: roce, " \
	"memory_percent: 50}, ecn: {min_kb: 150, max_kb: 1500}}\n"                                  \
	"switches:\n  - {name: leaf1, platform: onyx, address: 10.0.0.1, ports: [1/1-1/4]}\n"       \
	"hosts:\n  - {name: gpu1, platform: linux, address: 10.0.0.2, netdev: eth0, rdma_device: "  \
	"mlx5_0}\n"

static void test_builds_with_its_own_registry(void **state)
{
	(void)state;
	struct qg_diags d;
	struct qg_model m;
	qg_diags_init(&d, "core.yaml");
	assert_int_equal(qg_intent_load(INTENT, strlen(INTENT), registry, &d, &m), 0);
	assert_ptr_equal(m.switches[0].target, &qg_target_onyx);
	assert_ptr_equal(m.hosts[0].target, &qg_target_linux);

	struct qg_templates t;
	assert_int_equal(qg_templates_load(&t, NULL, &d), 0);
	struct qg_outset out = {0};
	struct qg_checked ok;
	assert_int_equal(qg_build_check(&m, &d, &ok), 0);
	assert_int_equal(qg_build(&ok, &t, &d, &out), 0);
	const struct qg_outfile *cli = qg_outset_find(&out, "onyx/leaf1.cli");
	assert_non_null(cli);
	assert_non_null(strstr(cli->data, "interface ethernet 1/1-1/4"));
	assert_non_null(qg_outset_find(&out, "host/hosts/linux.sh"));
	assert_non_null(qg_outset_find(&out, "plan.json"));

	/* explain's rows come from the targets in use: Onyx's, and no ESXi row. */
	cJSON *x = qg_explain_json(&m);
	char *text = cJSON_PrintUnformatted(x);
	assert_non_null(strstr(text, "\"onyx.trust\""));
	assert_null(strstr(text, "\"esxi."));
	cJSON_free(text);
	cJSON_Delete(x);

	qg_outset_free(&out);
	qg_templates_free(&t);
	qg_model_free(&m);
	qg_diags_free(&d);
}

/* A platform the table does not hold is not one, whatever qosgen's full registry has. */
static void test_platforms_are_the_tables(void **state)
{
	(void)state;
	static const char esxi[] = "version: 1\nfabric: core\nqos:\n  lossless: {priority: 3, "
				   "dscp: [26], pool: {name: roce, memory_percent: 50}}\n"
				   "hosts:\n  - {name: e, platform: esxi, address: e.lab, uplink: "
				   "vmnic1}\n";
	struct qg_diags d;
	struct qg_model m;
	qg_diags_init(&d, "core.yaml");
	assert_int_equal(qg_intent_load(esxi, strlen(esxi), registry, &d, &m), -1);
	bool found = false;
	for (size_t i = 0; i < d.n; i++)
		found |= strstr(d.v[i].msg, "'esxi' is not one of: linux") != NULL;
	assert_true(found);
	qg_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_builds_with_its_own_registry),
	    cmocka_unit_test(test_platforms_are_the_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
