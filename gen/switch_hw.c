/* SPDX-License-Identifier: MIT */
/*
 * The switch hardware table (gen/switch_hw.h). Every value is read from
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
 * Per model: ports and lanes (platform.json's interfaces and their lanes),
 * the native speed (hwsku.json's default_brkout_mode, e.g. SN2700's
 * "1x100G[50G,40G,25G,10G]"), the speeds (every speed platform.json's
 * breakout_modes name, in brackets too), the buffer (the SKU's
 * buffers_defaults_t1.j2 egress_lossless_pool_size; the models whose SKU
 * folder links another's files take that one's), the gearbox delay
 * (SN3800's ports sit behind gearboxes: peripheral_table.j2,
 * PERIPHERAL_TABLE:MELLANOX-GEARBOX-3800 gearbox_delay 400), and how its
 * pg_profile_lookup.ini was made (tests/unit/test_headroom.c reproduces
 * SN2700's, SN3700's, SN3800's, SN4700's and SN5600's).
 *
 * Models with ports of two kinds (SN2410: 48 x 25G and 8 x 100G; SN4410;
 * SN5400, whose 400G ports have 8 lanes while the table it shares with
 * SN5600 counts 4) are left out: which of a switch's ports is which is the
 * platform's port naming, which the core does not know.
 */
static const struct qg_switch_hw table[] = {
    {"SN2700", &spectrum1, 32, 4, 100, G10 | G25 | G40 | G50 | G100, 13945824, 0, QG_HR_FIXED_PEER,
     "device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700"},
    {"SN3700", &spectrum2, 32, 4, 200, G1 | G10 | G25 | G40 | G50 | G100 | G200, 34287552, 0,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn3700-r0/ACS-MSN3700"},
    /* ACS-MSN3700C's buffers and table are links to ACS-MSN3700's. */
    {"SN3700C", &spectrum2, 32, 4, 100, G1 | G10 | G25 | G40 | G50 | G100, 34287552, 0,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn3700c-r0/ACS-MSN3700C"},
    {"SN3800", &spectrum2, 64, 4, 100, G10 | G25 | G40 | G50 | G100, 34287552, 400,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn3800-r0/ACS-MSN3800"},
    /* ACS-MSN4600C's and ACS-MSN4600's buffers and tables are links to ACS-MSN4700's. */
    {"SN4600C", &spectrum3, 64, 4, 100, G1 | G10 | G25 | G40 | G50 | G100, 60817392, 0,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn4600c-r0/ACS-MSN4600C"},
    {"SN4600", &spectrum3, 64, 4, 200, G1 | G10 | G25 | G40 | G50 | G100 | G200, 60817392, 0,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn4600-r0/ACS-MSN4600"},
    {"SN4700", &spectrum3, 32, 8, 400, G1 | G10 | G25 | G40 | G50 | G100 | G200 | G400, 60817392, 0,
     QG_HR_FIXED_PEER, "device/mellanox/x86_64-mlnx_msn4700-r0/ACS-MSN4700"},
    {"SN5600", &spectrum4, 64, 8, 800, G10 | G25 | G40 | G50 | G100 | G200 | G400 | G800, 158229504,
     0, QG_HR_LUA, "device/mellanox/x86_64-nvidia_sn5600-r0/ACS-SN5600"},
};
#define N_MODELS (sizeof(table) / sizeof(table[0]))

const char *const qg_switch_models[N_MODELS + 1] = {
    "SN2700", "SN3700", "SN3700C", "SN3800", "SN4600C", "SN4600", "SN4700", "SN5600", NULL,
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

bool qg_switch_hw_speed_ok(const struct qg_switch_hw *hw, int gbps)
{
	int b = speed_bit(gbps);
	return b >= 0 && (!hw || (hw->speeds & (1u << b)));
}

void qg_switch_hw_speeds(const struct qg_switch_hw *hw, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < QG_N_SPEEDS && o < len; i++)
		if (!hw || (hw->speeds & (1u << i)))
			o += (size_t)snprintf(out + o, len - o, "%s%d", o ? ", " : "",
					      qg_speeds_gbps[i]);
}

bool qg_switch_hw_8lane(const struct qg_switch_hw *hw, int gbps)
{
	return hw->lanes == 8 && gbps == hw->native_gbps;
}
