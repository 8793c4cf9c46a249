/* SPDX-License-Identifier: MIT */
/*
 * The switch hardware qosgen knows (issue 34): NVIDIA Spectrum SKUs, each
 * with its ASIC's buffer constants, its ports and their speeds, its buffer
 * and the inputs its vendor's headroom table was made with. SKU names are
 * hardware, not platforms: any switch OS may run on them. Every value is
 * cited beside it in switch_hw.c; docs/intent.md, "Headroom", lists them.
 *
 * Pure data and lookups: no I/O.
 */
#ifndef QG_SWITCH_HW_H
#define QG_SWITCH_HW_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A Spectrum generation's constants as SONiC's ASIC_TABLE has them
 * (sonic-buildimage platform/mellanox/asic_table.j2), in the units the
 * headroom formula reads them in: KiB for the latencies, which
 * buffer_headroom_mellanox.lua multiplies by 1024.
 */
struct qg_asic {
	int generation;		     /* Spectrum-N */
	int cell_bytes;		     /* cell_size */
	int pipeline_latency_kib;    /* pipeline_latency */
	int mac_phy_delay_dkib;	     /* mac_phy_delay, in tenths of KiB (0.8 -> 8) */
	int peer_response_dkib;	     /* peer_response_time, in tenths of KiB (3.8 -> 38) */
	int port_reserved_shp_cells; /* port_reserved_shp: a port's reserved shared headroom */
	int port_max_shp_cells;	     /* port_max_shp: the most shared headroom one port may take */
};

/*
 * Which inputs of the formula a SKU's own lookup table (its
 * pg_profile_lookup.ini) was made with: the tables of the Spectrum-1..3
 * SKUs predate sonic-swss #1930 (a peer response time per speed) and #3235
 * (the worst-case cell factor rounded up), Spectrum-4's do not. Found by
 * reproducing each table row by row (tests/unit/test_headroom.c).
 */
enum qg_hr_formula {
	/*
	 * The peer response time of the ASIC table at every speed, the
	 * worst-case factor as it falls, an 8-lane port's xon twice the
	 * pipeline latency less 1 KiB.
	 */
	QG_HR_FIXED_PEER,
	/* buffer_headroom_mellanox.lua as it is: pause quanta per speed, the factor rounded up. */
	QG_HR_LUA,
};

struct qg_switch_hw {
	const char *model;	    /* the intent's `model:` */
	const struct qg_asic *asic; /* its Spectrum generation */
	int ports;		    /* front-panel ports of the model's platform.json */
	int lanes;		    /* SerDes lanes of each such port */
	int native_gbps;	    /* the speed of hwsku.json's default breakout mode */
	unsigned speeds;	    /* the speeds its ports take: bits of qg_speeds_gbps */
	/*
	 * The buffer SONiC's templates give the SKU: egress_lossless_pool's
	 * size in its buffers_defaults_t1.j2, the shared buffer the ingress
	 * pools and every port's headroom come out of.
	 */
	long buffer_bytes;
	int gearbox_delay_ns; /* PERIPHERAL_TABLE gearbox_delay; 0: no gearbox */
	/*
	 * No per-port headroom limit: SAI_PORT_ATTR_QOS_MAXIMUM_HEADROOM_SIZE
	 * is the firmware's, read at run time (sonic-swss
	 * buffer_check_headroom_mellanox.lua reads it from STATE_DB
	 * BUFFER_MAX_PARAM_TABLE, Linux's mlxsw from the MAX_HEADROOM_SIZE
	 * resource), and NVIDIA publishes it for no model. The shared headroom
	 * pool's per-port limit is the ASIC's (struct qg_asic).
	 */
	enum qg_hr_formula table_formula; /* how its pg_profile_lookup.ini was made */
	const char *sku;		  /* its folder: device/mellanox/<platform>/<SKU> */
};

/* The speeds, in Gb/s, of the Lua's pause-quanta table (IEEE 802.3 31B.3.7) at 1 Gb/s and up. */
extern const int qg_speeds_gbps[];
#define QG_N_SPEEDS 9

/* The models, in the table's order, NULL-terminated: the key's values (gen/keys.c). */
extern const char *const qg_switch_models[];

/* Model i of qg_switch_models (0 <= i < the count), or NULL. */
const struct qg_switch_hw *qg_switch_hw(int i);

/* Whether gbps is an Ethernet speed the formula knows (any model), or one of hw's ports. */
bool qg_speed_known(int gbps);
bool qg_switch_hw_speed_ok(const struct qg_switch_hw *hw, int gbps);

/* hw's speeds (every known speed when hw is NULL), ", "-separated, into out. */
void qg_switch_hw_speeds(const struct qg_switch_hw *hw, char *out, size_t len);

/*
 * Whether a port of hw at gbps runs on all its 8 lanes: at the native speed
 * of a model whose ports have 8, as its table's rows count them (a slower
 * speed is a breakout).
 */
bool qg_switch_hw_8lane(const struct qg_switch_hw *hw, int gbps);

/* Where each value comes from, for docs and explain: one line each. */
#define QG_HW_SOURCE_ASIC "sonic-buildimage platform/mellanox/asic_table.j2"
#define QG_HW_SOURCE_PORTS "sonic-buildimage device/mellanox/<platform>/platform.json, hwsku.json"
#define QG_HW_SOURCE_BUFFER                                                                        \
	"sonic-buildimage device/mellanox/<platform>/<SKU>/buffers_defaults_t1.j2, "               \
	"egress_lossless_pool_size"
#define QG_HW_SOURCE_GEARBOX "sonic-buildimage platform/mellanox/peripheral_table.j2"
/*
 * The snapshots the values were read from (sonic-net/sonic-buildimage and
 * sonic-net/sonic-swss), for the fixtures and docs.
 */
#define QG_HW_BUILDIMAGE_COMMIT "086b03bd70f9e211aaaf5f6aefe0790b508d2a94"
#define QG_HW_SWSS_COMMIT "e6b0c5b5d2ab52354c4ec941f7c9005aeec3f779"

#endif
