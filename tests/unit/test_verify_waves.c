/* SPDX-License-Identifier: MIT */
/*
 * push/waves.c: which verify pairs `push --all --batch N --verify`
 * runs after each wave. The waves here are push/push.c's for the intent:
 * switches, then DVSes, then hosts, N at a time, a wave never mixing kinds.
 */
#include "helpers.h"
#include "../../push/waves.h"

#define SW(i) {QG_DEVICE_SWITCH, (i)}
#define HOST(i) {QG_DEVICE_HOST, (i)}
#define DVS(i) {QG_DEVICE_DVS, (i)}

/* Two Linux hosts per pair, four hosts, one switch. */
static const char *const four_hosts =
    BASE_QOS "switches:\n"
	     "  - {name: sw1, platform: onyx, address: sw1.lab, ports: [1/1-1/4]}\n"
	     "hosts:\n"
	     "  - {name: h1, platform: linux, address: h1.lab, netdev: eth0, rdma_device: m0}\n"
	     "  - {name: h2, platform: linux, address: h2.lab, netdev: eth0, rdma_device: m0}\n"
	     "  - {name: h3, platform: linux, address: h3.lab, netdev: eth0, rdma_device: m0}\n"
	     "  - {name: h4, platform: linux, address: h4.lab, netdev: eth0, rdma_device: m0}\n"
	     "verify:\n"
	     "  pairs:\n"
	     "    - {client: h1, server: h2, min_gbps: 1}\n"
	     "    - {client: h2, server: h3, min_gbps: 1}\n"
	     "    - {client: h4, server: h1, min_gbps: 1}\n";

/*
 * Run the waves (each a list of its devices) and
 * write after[k] = the pairs eligible after wave k, as a string "0,2" ("" none).
 */
struct wave {
	struct qg_wave_device d[8];
	size_t n;
};

static void run(const struct qg_model *m, const struct wave *waves, size_t n_waves,
		char after[][32])
{
	struct qg_wave_device pushed[32];
	size_t n_pushed = 0;
	bool done[16] = {false};
	size_t out[16];
	assert_true(m->verify.n_pairs <= 16);
	for (size_t k = 0; k < n_waves; k++) {
		for (size_t i = 0; i < waves[k].n; i++)
			pushed[n_pushed++] = waves[k].d[i];
		size_t n = qg_verify_pairs_ready(m, pushed, n_pushed, done, out);
		after[k][0] = '\0';
		for (size_t i = 0; i < n; i++) {
			char one[8];
			snprintf(one, sizeof(one), "%s%zu", i ? "," : "", out[i]);
			strcat(after[k], one);
		}
	}
	/* Every pair ran once, whatever the waves: each one's hosts are all pushed by the end. */
	for (size_t i = 0; i < m->verify.n_pairs; i++)
		assert_true(done[i]);
}

/* --batch 1: a pair runs after the wave of its later host, h4:h1 after h4's. */
static void test_split_across_waves(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(four_hosts, &m);
	const struct wave w[] = {
	    {{SW(0)}, 1}, {{HOST(0)}, 1}, {{HOST(1)}, 1}, {{HOST(2)}, 1}, {{HOST(3)}, 1},
	};
	char after[5][32];
	run(&m, w, 5, after);
	assert_string_equal(after[0], ""); /* the switch: no host yet */
	assert_string_equal(after[1], ""); /* h1 alone */
	assert_string_equal(after[2], "0"); /* h1:h2 */
	assert_string_equal(after[3], "1"); /* h2:h3 */
	assert_string_equal(after[4], "2"); /* h4:h1, h1 three waves earlier */
	qg_model_free(&m);
}

/* --batch 2: h1, h2 then h3, h4; a pair whose hosts share a wave runs once, after it. */
static void test_batch_two(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(four_hosts, &m);
	const struct wave w[] = {{{SW(0)}, 1}, {{HOST(0), HOST(1)}, 2}, {{HOST(2), HOST(3)}, 2}};
	char after[3][32];
	run(&m, w, 3, after);
	assert_string_equal(after[0], "");
	assert_string_equal(after[1], "0");
	assert_string_equal(after[2], "1,2"); /* in the intent's order */
	qg_model_free(&m);
}

/* --batch larger than the fleet: one wave per kind; every pair after the hosts' one wave. */
static void test_batch_larger_than_fleet(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(four_hosts, &m);
	const struct wave w[] = {{{SW(0)}, 1}, {{HOST(0), HOST(1), HOST(2), HOST(3)}, 4}};
	char after[2][32];
	run(&m, w, 2, after);
	assert_string_equal(after[0], "");
	assert_string_equal(after[1], "0,1,2");
	/* A pair that ran never runs again, even with its hosts pushed once more. */
	bool done[3] = {true, true, true};
	size_t out[3];
	const struct qg_wave_device all[] = {HOST(0), HOST(1), HOST(2), HOST(3)};
	assert_int_equal(qg_verify_pairs_ready(&m, all, 4, done, out), 0);
	qg_model_free(&m);
}

/* No verify pairs: nothing, after any wave. */
static void test_no_pairs(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "hosts:\n"
			 "  - {name: h1, platform: linux, address: h1.lab, netdev: eth0, "
			 "rdma_device: m0}\n",
		&m);
	assert_int_equal(m.verify.n_pairs, 0);
	const struct qg_wave_device all[] = {HOST(0)};
	bool done[1] = {false};
	size_t out[1];
	assert_int_equal(qg_verify_pairs_ready(&m, all, 1, done, out), 0);
	assert_false(done[0]);
	qg_model_free(&m);
}

/*
 * vSphere (examples/rdg-vsphere.yaml's shape): ESXi hosts and their DVS
 * first, the Linux VMs of the pair last. The pair runs after the VMs, not
 * after the ESXi hosts, the ESXi hosts being hosts too.
 */
static const char *const vsphere =
    BASE_QOS "switches:\n"
	     "  - {name: sw1, platform: onyx, address: sw1.lab, ports: [1/1-1/4]}\n"
	     "hosts:\n"
	     "  - {name: esx1, platform: esxi, address: esx1.lab, uplink: vmnic2}\n"
	     "  - {name: esx2, platform: esxi, address: esx2.lab, uplink: vmnic2}\n"
	     "  - {name: vm1, platform: linux, address: vm1.lab, netdev: eth0, rdma_device: m0}\n"
	     "  - {name: vm2, platform: linux, address: vm2.lab, netdev: eth0, rdma_device: m0}\n"
	     "dvs:\n"
	     "  - {name: d1, vcenter: vc.lab, datacenter: DC0, mtu: 9000, uplinks: 2, "
	     "hosts: [esx1, esx2]}\n"
	     "verify:\n"
	     "  pairs:\n"
	     "    - {client: vm1, server: vm2, min_gbps: 1}\n";

static void test_esxi(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(vsphere, &m);
	const struct wave w[] = {
	    {{SW(0)}, 1}, {{DVS(0)}, 1}, {{HOST(0), HOST(1)}, 2}, {{HOST(2), HOST(3)}, 2}};
	char after[4][32];
	run(&m, w, 4, after);
	assert_string_equal(after[0], "");
	assert_string_equal(after[1], "");
	assert_string_equal(after[2], ""); /* the ESXi hosts: not the pair's */
	assert_string_equal(after[3], "0");

	/*
	 * A pair naming an ESXi host: the intent refuses it (verify's traffic
	 * runs between Linux hosts), so the waves never see one; were it in a
	 * model, it would wait for that host's wave like any other.
	 */
	struct qg_diags d;
	struct qg_model bad;
	char text[2048];
	snprintf(text, sizeof(text), "%s    - {client: vm1, server: esx2, min_gbps: 1}\n", vsphere);
	assert_int_not_equal(load_text(text, &d, &bad), 0);
	assert_true(diag_has(&d, "esxi"));
	qg_diags_free(&d);
	m.verify.pairs[0].server = 1; /* vm1:esx2 by hand */
	bool done[1] = {false};
	size_t out[1];
	const struct qg_wave_device vms[] = {SW(0), DVS(0), HOST(2), HOST(3)};
	assert_int_equal(qg_verify_pairs_ready(&m, vms, 4, done, out), 0);
	const struct qg_wave_device esx[] = {SW(0), DVS(0), HOST(2), HOST(3), HOST(0), HOST(1)};
	assert_int_equal(qg_verify_pairs_ready(&m, esx, 6, done, out), 1);
	assert_int_equal(out[0], 0);
	m.verify.pairs[0].server = 3;
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split_across_waves), cmocka_unit_test(test_batch_two),
	    cmocka_unit_test(test_batch_larger_than_fleet), cmocka_unit_test(test_no_pairs),
	    cmocka_unit_test(test_esxi),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
