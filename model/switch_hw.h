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

/*
 * A kind of a model's front-panel ports: a run of them of one cage, as the
 * platform's platform.json lists them (SN2410: 48 SFP28 ports of one lane,
 * then 8 QSFP28 ports of four). Which kind a port of the intent is follows
 * from its front-panel number, which the switch's target reads from the
 * port's name (struct qg_port_syntax's panel).
 */
struct qg_port_kind {
	int first, count; /* front-panel ports first .. first + count - 1: platform.json's index */
	/*
	 * Lanes of one port of hwsku.json's default breakout mode (SN4410's
	 * first 24 cages have 8, split "2x100G": 4 each) and its speed, the
	 * native speed of the kind.
	 */
	int lanes;
	int native_gbps;
	unsigned speeds; /* every speed its breakout modes name: bits of qg_speeds_gbps */
	/*
	 * platform.json's interface names of the kind, Ethernet<name_first +
	 * name_step * i> for its port first + i: what SONiC names the ports
	 * (its first lane on most models; SN2201's 1G ports count one by one).
	 */
	int name_first, name_step;
};

#define QG_PORT_KINDS_MAX 2

struct qg_switch_hw {
	const char *model;	    /* the intent's `model:` */
	const struct qg_asic *asic; /* its Spectrum generation */
	struct qg_port_kind kinds[QG_PORT_KINDS_MAX];
	/*
	 * kinds[0] is the first of its front panel; its native speed is the
	 * switch's speed_gbps as explain and the model's JSON state it when
	 * the intent gives none.
	 */
	int n_kinds;
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
	/*
	 * The speed whose rows of that table count a port of 8 lanes (SN4700's
	 * 400G, SN5600's 800G; 0: none): the table is its SKU's, and a model
	 * that shares another's (SN5400 takes SN5600's, whose 400G rows count
	 * 4 lanes) takes its rows as they are.
	 */
	int table_8lane_gbps;
	const char *sku;   /* its folder: device/mellanox/<platform>/<SKU> */
	const char *table; /* the SKU whose pg_profile_lookup.ini its own links to, or its own */
};

/* The speeds, in Gb/s, of the Lua's pause-quanta table (IEEE 802.3 31B.3.7) at 1 Gb/s and up. */
extern const int qg_speeds_gbps[];
#define QG_N_SPEEDS 9

/* The models, in the table's order, NULL-terminated: the key's values (model/keys.c). */
extern const char *const qg_switch_models[];

/* Model i of qg_switch_models (0 <= i < the count), or NULL. */
const struct qg_switch_hw *qg_switch_hw(int i);

/* Whether gbps is an Ethernet speed the formula knows (any model), or one of hw's ports' (any
 * kind). */
bool qg_speed_known(int gbps);
bool qg_switch_hw_speed_ok(const struct qg_switch_hw *hw, int gbps);

/*
 * hw's speeds, of every kind (every known speed when hw is NULL), or the
 * speeds of kind k when k is not NULL; ", "-separated, into out.
 */
void qg_switch_hw_speeds(const struct qg_switch_hw *hw, const struct qg_port_kind *k, char *out,
			 size_t len);

/*
 * Port `panel` of hw's front panel: its kind, or NULL when hw has no such
 * port.
 */
const struct qg_port_kind *qg_switch_hw_kind(const struct qg_switch_hw *hw, int panel);

/* Whether ports of kind k take gbps. */
bool qg_port_kind_speed_ok(const struct qg_port_kind *k, int gbps);

/*
 * Whether a port of kind k at gbps runs on 8 lanes, as SONiC's buffer
 * manager counts them (its PORT row's lanes): at the kind's native speed
 * on a kind of 8-lane ports; a slower speed is taken for a breakout.
 */
bool qg_port_kind_8lane(const struct qg_port_kind *k, int gbps);

/* Whether hw's lookup table's rows at gbps count a port of 8 lanes. */
bool qg_switch_hw_table_8lane(const struct qg_switch_hw *hw, int gbps);

/* Kind k's ports: "front-panel 1-48", "front-panel 65". */
void qg_port_kind_panels(const struct qg_port_kind *k, char *out, size_t len);

/*
 * Kind k of hw in words, for diagnostics: "25G ports (front-panel 1-48)",
 * or "ports" on a model of one kind.
 */
void qg_port_kind_text(const struct qg_switch_hw *hw, const struct qg_port_kind *k, char *out,
		       size_t len);

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
