/* SPDX-License-Identifier: MIT */
/*
 * The switch hardware table (model/switch_hw.h). Every value is read from
 * sonic-net/sonic-buildimage at QG_HW_BUILDIMAGE_COMMIT; the path is beside
 * it. NVIDIA's SONiC SKU folders are the one public place that gives each
 * model's ASIC constants, ports, buffer and headroom table together.
 */
#include "switch_hw.h"

#include <stdio.h>
#include <string.h>

const int qg_speeds_gbps[QG_N_SPEEDS] = {1, 10, 25, 40, 50, 100, 200, 400, 800};

/* Bits of qg_speeds_gbps. */
#define G1 (1u << 0)
#define G10 (1u << 1)
#define G25 (1u << 2)
#define G40 (1u << 3)
#define G50 (1u << 4)
#define G100 (1u << 5)
#define G200 (1u << 6)
#define G400 (1u << 7)
#define G800 (1u << 8)

/*
 * platform/mellanox/asic_table.j2: ASIC_TABLE:MELLANOX-SPECTRUM[-N]'s
 * cell_size, pipeline_latency, mac_phy_delay, peer_response_time,
 * port_reserved_shp and port_max_shp, the same for every SKU of a
 * generation (the template picks them by platform: platform2asic).
 */
static const struct qg_asic spectrum1 = {1, 96, 19, 8, 38, 20, 8192};
static const struct qg_asic spectrum2 = {2, 144, 19, 8, 38, 20, 8192};
static const struct qg_asic spectrum3 = {3, 144, 19, 8, 38, 20, 8192};
static const struct qg_asic spectrum4 = {4, 192, 19, 8, 38, 20, 8192};

/*
 * Per model: its kinds of port (platform.json's interfaces, each with its
 * index, lanes and breakout_modes; the speed and lanes of a port of
 * hwsku.json's default_brkout_mode, e.g. SN2700's "1x100G[50G,40G,25G,10G]";
 * every speed the breakout modes name, in brackets too, that qosgen's
 * Gb/s can say: SN2201's 1G ports also take 100M and 10M), the buffer (the
 * SKU's buffers_defaults_t1.j2 egress_lossless_pool_size; a SKU folder whose
 * files link another's takes that one's), the gearbox delay (SN3800's ports
 * sit behind gearboxes: peripheral_table.j2, PERIPHERAL_TABLE:
 * MELLANOX-GEARBOX-3800 gearbox_delay 400), how its pg_profile_lookup.ini
 * was made and which SKU's that file is (a link names it).
 * tests/unit/test_headroom.c reproduces each model's table.
 *
 * Each model's ASIC is asic_table.j2's platform2asic for its platform.
 */
#define SPC1_BUFFER 13945824L  /* ACS-MSN2700's buffers_defaults_t1.j2 */
#define SPC2_BUFFER 34287552L  /* ACS-MSN3700's */
#define SPC3_BUFFER 60817392L  /* ACS-MSN4700's */
#define SPC4_BUFFER 158229504L /* ACS-SN5600's */
#define SFP25 (G10 | G25)      /* "1x25G[10G]" */
#define QSFP100 (G10 | G25 | G40 | G50 | G100)
#define QSFP100_1G (G1 | QSFP100)
#define QSFP200_1G (QSFP100_1G | G200)
#define OSFP400_1G (QSFP200_1G | G400)
#define PLATFORM "device/mellanox/"

static const struct qg_switch_hw table[] = {
    /* Two SFP28 kinds of one lane, their names counted by 4 (platform.json). */
    {"SN2010",
     &spectrum1,
     {{1, 18, 1, 25, SFP25, 0, 4}, {19, 4, 4, 100, QSFP100, 72, 4}},
     2,
     SPC1_BUFFER, /* ACS-MSN2010's buffers link ACS-MSN2700's */
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn2010-r0/ACS-MSN2010",
     "ACS-MSN2700"},
    {"SN2100",
     &spectrum1,
     {{1, 16, 4, 100, QSFP100, 0, 4}},
     1,
     SPC1_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn2100-r0/ACS-MSN2100",
     "ACS-MSN2700"},
    /*
     * 48 RJ45 ports of "1x1000[100,10]" (Mb/s: 1000BASE-T), then 4 QSFP28;
     * ACS-SN2201's table is its own, its buffers link ACS-MSN2700's.
     */
    {"SN2201",
     &spectrum1,
     {{1, 48, 1, 1, G1, 0, 1}, {49, 4, 4, 100, QSFP100, 48, 4}},
     2,
     SPC1_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-nvidia_sn2201-r0/ACS-SN2201",
     "ACS-SN2201"},
    {"SN2410",
     &spectrum1,
     {{1, 48, 1, 25, SFP25, 0, 4}, {49, 8, 4, 100, QSFP100, 192, 4}},
     2,
     SPC1_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn2410-r0/ACS-MSN2410",
     "ACS-MSN2700"},
    {"SN2700",
     &spectrum1,
     {{1, 32, 4, 100, QSFP100, 0, 4}},
     1,
     SPC1_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn2700-r0/ACS-MSN2700",
     "ACS-MSN2700"},
    /* ACS-MSN3420's buffers and table link ACS-MSN3700's. */
    {"SN3420",
     &spectrum2,
     {{1, 48, 1, 25, G1 | SFP25, 0, 4}, {49, 12, 4, 100, QSFP100_1G, 192, 4}},
     2,
     SPC2_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn3420-r0/ACS-MSN3420",
     "ACS-MSN3700"},
    {"SN3700",
     &spectrum2,
     {{1, 32, 4, 200, QSFP200_1G, 0, 4}},
     1,
     SPC2_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn3700-r0/ACS-MSN3700",
     "ACS-MSN3700"},
    /* ACS-MSN3700C's buffers and table link ACS-MSN3700's. */
    {"SN3700C",
     &spectrum2,
     {{1, 32, 4, 100, QSFP100_1G, 0, 4}},
     1,
     SPC2_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn3700c-r0/ACS-MSN3700C",
     "ACS-MSN3700"},
    {"SN3800",
     &spectrum2,
     {{1, 64, 4, 100, QSFP100, 0, 4}},
     1,
     SPC2_BUFFER,
     400,
     QG_HR_FIXED_PEER,
     0,
     PLATFORM "x86_64-mlnx_msn3800-r0/ACS-MSN3800",
     "ACS-MSN3800"},
    /*
     * 24 QSFP-DD cages of 8 lanes split "2x100G" (two 4-lane ports each,
     * Ethernet0 and Ethernet4 of the first), then 8 of "1x400G"; ACS-MSN4410's
     * buffers and table link ACS-MSN4700's, whose 400G rows count 8 lanes
     * as these ports run.
     */
    {"SN4410",
     &spectrum3,
     {{1, 24, 4, 100, QSFP200_1G, 0, 8}, {25, 8, 8, 400, OSFP400_1G, 192, 8}},
     2,
     SPC3_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     400,
     PLATFORM "x86_64-mlnx_msn4410-r0/ACS-MSN4410",
     "ACS-MSN4700"},
    /* ACS-MSN4600's and ACS-MSN4600C's buffers and tables link ACS-MSN4700's. */
    {"SN4600",
     &spectrum3,
     {{1, 64, 4, 200, QSFP200_1G, 0, 4}},
     1,
     SPC3_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     400,
     PLATFORM "x86_64-mlnx_msn4600-r0/ACS-MSN4600",
     "ACS-MSN4700"},
    {"SN4600C",
     &spectrum3,
     {{1, 64, 4, 100, QSFP100_1G, 0, 4}},
     1,
     SPC3_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     400,
     PLATFORM "x86_64-mlnx_msn4600c-r0/ACS-MSN4600C",
     "ACS-MSN4700"},
    {"SN4700",
     &spectrum3,
     {{1, 32, 8, 400, OSFP400_1G, 0, 8}},
     1,
     SPC3_BUFFER,
     0,
     QG_HR_FIXED_PEER,
     400,
     PLATFORM "x86_64-mlnx_msn4700-r0/ACS-MSN4700",
     "ACS-MSN4700"},
    /*
     * 64 OSFP cages of "1x400G" on 8 lanes, then 2 SFP28; ACS-SN5400's
     * buffers and table link ACS-SN5600's, whose 400G rows count 4 lanes
     * (a breakout of SN5600's 800G) and 800G rows 8.
     */
    {"SN5400",
     &spectrum4,
     {{1, 64, 8, 400, G10 | G25 | G40 | G50 | G100 | G200 | G400, 0, 8},
      {65, 2, 1, 25, SFP25, 512, 8}},
     2,
     SPC4_BUFFER,
     0,
     QG_HR_LUA,
     800,
     PLATFORM "x86_64-nvidia_sn5400-r0/ACS-SN5400",
     "ACS-SN5600"},
    /* 64 OSFP cages of "1x800G", then one SFP28 (Ethernet512). */
    {"SN5600",
     &spectrum4,
     {{1, 64, 8, 800, G10 | G25 | G40 | G50 | G100 | G200 | G400 | G800, 0, 8},
      {65, 1, 1, 25, SFP25, 512, 8}},
     2,
     SPC4_BUFFER,
     0,
     QG_HR_LUA,
     800,
     PLATFORM "x86_64-nvidia_sn5600-r0/ACS-SN5600",
     "ACS-SN5600"},
};
#define N_MODELS (sizeof(table) / sizeof(table[0]))

const char *const qg_switch_models[N_MODELS + 1] = {
    "SN2010", "SN2100", "SN2201", "SN2410",  "SN2700", "SN3420", "SN3700", "SN3700C",
    "SN3800", "SN4410", "SN4600", "SN4600C", "SN4700", "SN5400", "SN5600", NULL,
};

const struct qg_switch_hw *qg_switch_hw(int i)
{
	return i >= 0 && (size_t)i < N_MODELS ? &table[i] : NULL;
}

static int speed_bit(int gbps)
{
	for (int i = 0; i < QG_N_SPEEDS; i++)
		if (qg_speeds_gbps[i] == gbps)
			return i;
	return -1;
}

bool qg_speed_known(int gbps)
{
	return speed_bit(gbps) >= 0;
}

bool qg_port_kind_speed_ok(const struct qg_port_kind *k, int gbps)
{
	int b = speed_bit(gbps);
	return b >= 0 && (k->speeds & (1u << b));
}

bool qg_switch_hw_speed_ok(const struct qg_switch_hw *hw, int gbps)
{
	if (!hw)
		return qg_speed_known(gbps);
	for (int k = 0; k < hw->n_kinds; k++)
		if (qg_port_kind_speed_ok(&hw->kinds[k], gbps))
			return true;
	return false;
}

void qg_switch_hw_speeds(const struct qg_switch_hw *hw, const struct qg_port_kind *k, char *out,
			 size_t len)
{
	unsigned bits = 0;
	for (int i = 0; hw && !k && i < hw->n_kinds; i++)
		bits |= hw->kinds[i].speeds;
	if (k)
		bits = k->speeds;
	else if (!hw)
		bits = ~0u;
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < QG_N_SPEEDS && o < len; i++)
		if (bits & (1u << i))
			o += (size_t)snprintf(out + o, len - o, "%s%d", o ? ", " : "",
					      qg_speeds_gbps[i]);
}

const struct qg_port_kind *qg_switch_hw_kind(const struct qg_switch_hw *hw, int panel)
{
	for (int k = 0; k < hw->n_kinds; k++)
		if (panel >= hw->kinds[k].first && panel < hw->kinds[k].first + hw->kinds[k].count)
			return &hw->kinds[k];
	return NULL;
}

bool qg_port_kind_8lane(const struct qg_port_kind *k, int gbps)
{
	return k->lanes == 8 && gbps == k->native_gbps;
}

bool qg_switch_hw_table_8lane(const struct qg_switch_hw *hw, int gbps)
{
	return hw->table_8lane_gbps && gbps == hw->table_8lane_gbps;
}

void qg_port_kind_panels(const struct qg_port_kind *k, char *out, size_t len)
{
	if (k->count == 1)
		snprintf(out, len, "front-panel %d", k->first);
	else
		snprintf(out, len, "front-panel %d-%d", k->first, k->first + k->count - 1);
}

void qg_port_kind_text(const struct qg_switch_hw *hw, const struct qg_port_kind *k, char *out,
		       size_t len)
{
	char panels[40];
	qg_port_kind_panels(k, panels, sizeof(panels));
	if (hw->n_kinds == 1)
		snprintf(out, len, "ports");
	else
		snprintf(out, len, "%dG %s (%s)", k->native_gbps, k->count == 1 ? "port" : "ports",
			 panels);
}
