/* SPDX-License-Identifier: MIT */
/*
 * History independence on hosts, the oracle (issue 35): for every pair of a
 * grid of intents (the lossless priority and DSCP, remapped or not, ECN on
 * and off, no CNP class or one of two, trust dscp and pcp), a host given A
 * and then B holds exactly what a factory-fresh host given B holds.
 *
 * The host is a model of what its knobs hold, applied from the targets'
 * settings (what plan.json lists and the scripts set, key for key), so the
 * oracle checks ownership, not the shell: a key an intent may leave out is
 * a value an earlier intent leaves behind. Every key must be one the model
 * knows, so that a new setting cannot slip past it. The factory values are
 * a ConnectX's as it comes up: MTU 1500, trust pcp, PFC off, DSCP/8, ToS 0,
 * DCQCN on every priority (firmware ROCE_CC_PRIO_MASK 255), CNP DSCP 48 and
 * priority 6, no NCCL or UCX line; ESXi: empty nmlx5 option strings.
 */
#include "helpers.h"

#include "../../model/settings.h"
#include "../../targets/host/linux.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct linux_host {
	char mtu[8], trust[8], pfc[24], tos[8], tclass[8], cnp_dscp[8], cnp_prio[8];
	char nccl[8], ucx[8];
	int map[64];
	char enable[2][8][4];
};

static void linux_factory(struct linux_host *h)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->mtu, sizeof(h->mtu), "1500");
	snprintf(h->trust, sizeof(h->trust), "pcp");
	snprintf(h->pfc, sizeof(h->pfc), "0,0,0,0,0,0,0,0");
	snprintf(h->tos, sizeof(h->tos), "0");
	snprintf(h->tclass, sizeof(h->tclass), "0");
	snprintf(h->cnp_dscp, sizeof(h->cnp_dscp), "%d", LINUX_CNP_DSCP_DEFAULT);
	snprintf(h->cnp_prio, sizeof(h->cnp_prio), "%d", LINUX_CNP_PRIO_DEFAULT);
	for (int d = 0; d < 64; d++)
		h->map[d] = d / 8;
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 8; p++)
			snprintf(h->enable[s][p], sizeof(h->enable[s][p]), "1");
}

/* What the script does with each key; a key the model does not know fails the test. */
static void linux_apply(struct linux_host *h, const struct qg_settings *set)
{
	bool named[64] = {false};
	for (size_t i = 0; i < set->n; i++) {
		const char *k = set->v[i].key, *v = set->v[i].value;
		int d, p;
		char side[8];
		if (!strcmp(k, "mtu"))
			snprintf(h->mtu, sizeof(h->mtu), "%s", v);
		else if (!strcmp(k, "trust"))
			snprintf(h->trust, sizeof(h->trust), "%s", v);
		else if (!strcmp(k, "pfc"))
			snprintf(h->pfc, sizeof(h->pfc), "%s", v);
		else if (!strcmp(k, "roce_tos"))
			snprintf(h->tos, sizeof(h->tos), "%s", v);
		else if (!strcmp(k, "tclass"))
			snprintf(h->tclass, sizeof(h->tclass), "%s", v);
		else if (!strcmp(k, "ecn.roce_np.cnp_dscp"))
			snprintf(h->cnp_dscp, sizeof(h->cnp_dscp), "%s", v);
		else if (!strcmp(k, "ecn.roce_np.cnp_802p_prio"))
			snprintf(h->cnp_prio, sizeof(h->cnp_prio), "%s", v);
		else if (!strcmp(k, "nccl.NCCL_IB_TC"))
			snprintf(h->nccl, sizeof(h->nccl), "%s", v);
		else if (!strcmp(k, "ucx.UCX_IB_TRAFFIC_CLASS"))
			snprintf(h->ucx, sizeof(h->ucx), "%s", v);
		else if (!strcmp(k, "dscp2prio.others")) {
			/* After the classes' entries, as the script runs it. */
			assert_string_equal(v, "DSCP/8");
			for (d = 0; d < 64; d++)
				if (!named[d])
					h->map[d] = d / 8;
		} else if (sscanf(k, "dscp2prio.%d", &d) == 1 && d >= 0 && d < 64) {
			h->map[d] = atoi(v);
			named[d] = true;
		} else if (sscanf(k, "ecn.roce_%2[nr]p.enable.%d", side, &p) == 2 && p >= 0 &&
			   p < 8)
			snprintf(h->enable[side[0] == 'r'][p], sizeof(h->enable[0][0]), "%s", v);
		else
			fail_msg("a setting the host model does not know: %s=%s", k, v);
	}
}

/* The state in effect: the map is consulted (and shown by mlnx_qos) only under trust dscp. */
static bool linux_same(const struct linux_host *a, const struct linux_host *b, char *why,
		       size_t len)
{
	struct linux_host x = *a, y = *b;
	if (strcmp(x.trust, "dscp"))
		for (int d = 0; d < 64; d++)
			x.map[d] = y.map[d] = 0;
	if (!memcmp(&x, &y, sizeof(x)))
		return true;
	snprintf(why, len, "mtu %s/%s trust %s/%s pfc %s/%s tos %s/%s cnp %s,%s/%s,%s nccl %s/%s",
		 x.mtu, y.mtu, x.trust, y.trust, x.pfc, y.pfc, x.tos, y.tos, x.cnp_dscp, x.cnp_prio,
		 y.cnp_dscp, y.cnp_prio, x.nccl, y.nccl);
	for (int s = 0; s < 2; s++)
		for (int p = 0; p < 8; p++)
			if (strcmp(x.enable[s][p], y.enable[s][p]))
				snprintf(why, len, "ecn.roce_%sp.enable.%d: %s after A, %s fresh",
					 s ? "r" : "n", p, x.enable[s][p], y.enable[s][p]);
	for (int d = 0; d < 64; d++)
		if (x.map[d] != y.map[d])
			snprintf(why, len, "dscp2prio.%d: %d after A, %d fresh", d, x.map[d],
				 y.map[d]);
	return false;
}

/* ESXi: the nmlx5 option strings as key=value sets; "unset" takes a key out. */
#define ESXI_KEYS 16
struct esxi_host {
	char key[ESXI_KEYS][64], value[ESXI_KEYS][16];
	size_t n;
};

static void esxi_apply(struct esxi_host *h, const struct qg_settings *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const char *k = set->v[i].key, *v = set->v[i].value;
		assert_int_equal(strncmp(k, "nmlx5_", 6), 0);
		size_t at = 0;
		while (at < h->n && strcmp(h->key[at], k))
			at++;
		if (!strcmp(v, "unset")) {
			if (at < h->n) {
				h->n--;
				memmove(h->key[at], h->key[at + 1],
					(h->n - at) * sizeof(h->key[0]));
				memmove(h->value[at], h->value[at + 1],
					(h->n - at) * sizeof(h->value[0]));
			}
			continue;
		}
		assert_true(at < ESXI_KEYS);
		if (at == h->n)
			h->n++;
		snprintf(h->key[at], sizeof(h->key[at]), "%s", k);
		snprintf(h->value[at], sizeof(h->value[at]), "%s", v);
	}
}

/* The option in effect: an unwritten ecn is the driver's 0 (esxi_options.c). */
static const char *esxi_get(const struct esxi_host *h, const char *key)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->key[i], key))
			return h->value[i];
	return !strcmp(key, "nmlx5_core.ecn") ? "0" : "unset";
}

static bool esxi_same(const struct esxi_host *a, const struct esxi_host *b, char *why, size_t len)
{
	const struct esxi_host *hs[2] = {a, b};
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < hs[s]->n; i++) {
			const char *k = hs[s]->key[i];
			if (strcmp(esxi_get(a, k), esxi_get(b, k))) {
				snprintf(why, len, "%s: %s after A, %s fresh", k, esxi_get(a, k),
					 esxi_get(b, k));
				return false;
			}
		}
	return true;
}

#define GRID 108
struct point {
	char text[1024];
	struct qg_settings linux_set, esxi_set;
};

static void grid_point(int i, struct point *pt)
{
	static const int prios[] = {3, 4, 5}, dscps[] = {26, 34, 24};
	static const char *const cnps[] = {"", "  cnp: {priority: 6, dscp: 48, ets: strict}\n",
					   "  cnp: {priority: 7, dscp: 46}\n"};
	int prio = prios[i % 3], dscp = dscps[i / 3 % 3];
	const char *cnp = cnps[i / 9 % 3];
	bool ecn = i / 27 % 2, pcp = i / 54 % 2;
	snprintf(pt->text, sizeof(pt->text),
		 "version: 1\nfabric: t\nqos:\n%s  lossless: {priority: %d, dscp: [%d], pool: "
		 "{name: r, memory_percent: 50}%s}\n%s"
		 "hosts:\n"
		 "  - {name: l, platform: linux, address: l.example.net, netdev: ens1, "
		 "rdma_device: mlx5_0}\n"
		 "  - {name: e, platform: esxi, address: e.example.net, uplink: vmnic1}\n",
		 pcp ? "  trust: pcp\n" : "", prio, dscp,
		 ecn ? ", ecn: {min_kb: 150, max_kb: 1500}" : "", cnp);
	struct qg_model m;
	struct qg_diags d;
	if (load_text(pt->text, &d, &m) != 0) {
		qg_diags_print(&d, stderr, false);
		fail_msg("grid intent %d does not load", i);
	}
	qg_diags_free(&d);
	memset(&pt->linux_set, 0, sizeof(pt->linux_set));
	memset(&pt->esxi_set, 0, sizeof(pt->esxi_set));
	assert_int_equal(m.hosts[0].target->settings(&m, 0, &pt->linux_set), 0);
	assert_int_equal(m.hosts[1].target->settings(&m, 1, &pt->esxi_set), 0);
	qg_model_free(&m);
}

static void test_every_pair(void **state)
{
	(void)state;
	struct point *pts = calloc(GRID, sizeof(*pts));
	assert_non_null(pts);
	for (int i = 0; i < GRID; i++)
		grid_point(i, &pts[i]);
	size_t pairs = 0;
	for (int a = 0; a < GRID; a++)
		for (int b = 0; b < GRID; b++) {
			char why[200] = "";
			struct linux_host la, lb;
			linux_factory(&la);
			linux_apply(&la, &pts[a].linux_set);
			linux_apply(&la, &pts[b].linux_set);
			linux_factory(&lb);
			linux_apply(&lb, &pts[b].linux_set);
			if (!linux_same(&la, &lb, why, sizeof(why)))
				fail_msg("linux: A then B is not B:\n%s\n--- B:\n%s\n%s",
					 pts[a].text, pts[b].text, why);
			struct esxi_host ea = {0}, eb = {0};
			esxi_apply(&ea, &pts[a].esxi_set);
			esxi_apply(&ea, &pts[b].esxi_set);
			esxi_apply(&eb, &pts[b].esxi_set);
			if (!esxi_same(&ea, &eb, why, sizeof(why)))
				fail_msg("esxi: A then B is not B:\n%s\n--- B:\n%s\n%s",
					 pts[a].text, pts[b].text, why);
			pairs++;
		}
	assert_int_equal(pairs, GRID * GRID);
	for (int i = 0; i < GRID; i++) {
		qg_settings_free(&pts[i].linux_set);
		qg_settings_free(&pts[i].esxi_set);
	}
	free(pts);
}

/*
 * The oracle can fail: the settings of before issue 35 (DCQCN only on the
 * lossless priority, and only with ECN) leave ECN on priority 4 after the
 * class moved to 3, which the model reports.
 */
static void test_oracle_sees_a_leftover(void **state)
{
	(void)state;
	struct qg_settings a = {0}, b = {0};
	qg_settings_add(&a, "ecn.roce_np.enable.4", "1");
	qg_settings_add(&b, "ecn.roce_np.enable.3", "1");
	struct linux_host x, y;
	linux_factory(&x);
	linux_factory(&y);
	for (int p = 0; p < 8; p++)
		snprintf(x.enable[0][p], 4, "0"), snprintf(y.enable[0][p], 4, "0");
	linux_apply(&x, &a);
	linux_apply(&x, &b);
	linux_apply(&y, &b);
	char why[200];
	assert_false(linux_same(&x, &y, why, sizeof(why)));
	assert_string_equal(why, "ecn.roce_np.enable.4: 1 after A, 0 fresh");
	qg_settings_free(&a);
	qg_settings_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_pair),
	    cmocka_unit_test(test_oracle_sees_a_leftover),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
