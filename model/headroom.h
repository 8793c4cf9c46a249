/* SPDX-License-Identifier: MIT */
/*
 * Lossless headroom, worked out before anything is sent (issue 34). A
 * lossless priority group must absorb everything in flight after it sends
 * PAUSE: the cable's round trip, the peer's response, a frame being sent,
 * at the port's speed. This module computes each port's xoff, xon and size
 * with NVIDIA's own formula, sonic-swss cfgmgr/buffer_headroom_mellanox.lua
 * (its inputs below, each cited), and sums a switch's ports against its
 * budget. Pure: no I/O, no clock; the same numbers for the same intent.
 */
#ifndef QG_HEADROOM_H
#define QG_HEADROOM_H

#include "model.h"
#include "switch_hw.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * The tolerance, in percent, within which a switch's own figure agrees
 * with qosgen's. The vendors' lookup tables reproduce within it
 * (tests/unit/test_headroom.c): xoff and xon exactly for SN2700, SN3700,
 * SN4700 and SN5600, their sizes within 1.4 % (two rows of ACS-SN5600's
 * table are not xoff + xon), SN3800's rows, behind gearboxes, within
 * 2.1 %, and SN2201's 1G row at 5 m one KiB over the formula (3.4 %). The
 * formula rounds each figure up to 1 KiB, and one such step is
 * 3.4 % of the smallest xoff of those tables (29696 bytes): a switch that
 * rounds once more or less still agrees. 5 % holds both.
 */
#define QG_HEADROOM_TOLERANCE_PCT 5

/* One lossless priority group of one port. */
struct qg_headroom_pg {
	int speed_gbps, cable_m, mtu; /* mtu: the port's, qos.switch_mtu */
	long xoff_bytes, xon_bytes, size_bytes;
};

/*
 * The formula's inputs: what buffer_headroom_mellanox.lua reads from its
 * arguments, STATE_DB's ASIC_TABLE and PERIPHERAL_TABLE, and CONFIG_DB's
 * LOSSLESS_TRAFFIC_PATTERN.
 */
struct qg_headroom_in {
	const struct qg_asic *asic;
	enum qg_hr_formula formula;
	int speed_gbps;
	int cable_m;
	int port_mtu;	      /* ARGV[3]: the port's MTU */
	int lossless_mtu;     /* LOSSLESS_TRAFFIC_PATTERN mtu */
	int small_packet_pct; /* LOSSLESS_TRAFFIC_PATTERN small_packet_percentage, 0..100 */
	int gearbox_delay_ns; /* PERIPHERAL_TABLE gearbox_delay; 0: none */
	bool lanes8;	      /* ARGV[5] == "8": a port on 8 lanes */
	bool shared_headroom; /* a shared headroom pool: the PG keeps xon, the pool holds xoff */
};

/* The formula, out of in; in's values in their ranges (the loader's). */
void qg_headroom_compute(const struct qg_headroom_in *in, struct qg_headroom_pg *out);

/*
 * What a switch OS does with headroom, declared by its target (struct
 * qg_target's headroom, model/target.h), each with its source: whose figure
 * sizes a port's headroom, the cable length it takes when the intent gives
 * none, and what holds the headroom (the budget qosgen sums it against).
 */
enum qg_headroom_method {
	/*
	 * The SKU's own lookup table (pg_profile_lookup.ini), reproduced with
	 * the inputs it was made with (struct qg_switch_hw's table_formula):
	 * an OS that publishes no formula of its own.
	 */
	QG_HRM_SKU_TABLE,
	/* The Lua as it is, with the OS's LOSSLESS_TRAFFIC_PATTERN: SONiC's dynamic buffer model.
	 */
	QG_HRM_DYNAMIC,
};
enum qg_headroom_budget {
	QG_HRB_POOL,   /* the lossless pool: qos.lossless.pool.memory_percent of the buffer */
	QG_HRB_BUFFER, /* the switch's buffer: the OS sizes its pools from what headroom leaves */
};
struct qg_headroom_os {
	enum qg_headroom_method method;
	const char *method_source;
	int lossless_mtu, small_packet_pct; /* QG_HRM_DYNAMIC: the OS's defaults */
	int default_cable_m;		    /* 0: the OS documents none */
	const char *cable_source;	    /* where the default is, or that there is none */
	/*
	 * The OS sizes one cable length per profile: a role's where the role
	 * gives one, else the longest of the switch's other ports, for each of
	 * them (NVUE's PFC profiles, as the cumulus target writes them).
	 */
	bool cable_per_profile;
	enum qg_headroom_budget budget;
	const char *budget_source;
	/* Whether the OS has a shared headroom pool, and what qosgen counts then. */
	const char *shared_pool;
};

/*
 * Port k of switch i: 0 and *out, or -1 when it cannot be proven (no model,
 * a platform that declares no headroom, no cable length and no default).
 */
int qg_headroom_port(const struct qg_model *m, size_t i, size_t k, struct qg_headroom_pg *out);

/* Why port k of switch i cannot be proven, or NULL when it can. */
const char *qg_headroom_unproven(const struct qg_model *m, size_t i, size_t k);

/* The figures of a set of ports (a role's, or those in none): their count, use and largest PG. */
struct qg_headroom_group {
	size_t ports, unproven;
	long use_bytes;		   /* the proven ports' sizes, summed */
	struct qg_headroom_pg max; /* the largest PG among them (size_bytes 0: none proven) */
	bool cable_default;	   /* a port of max took the OS's default cable length */
	const struct qg_port_kind *max_kind; /* the kind of max's port (model/port_kind.h) */
};

/* A switch: its groups, its use and its budget. */
struct qg_headroom_switch {
	const struct qg_switch_hw *hw;	  /* NULL: no model */
	const struct qg_headroom_os *os;  /* NULL: its platform declares nothing */
	struct qg_headroom_group all;	  /* every port */
	struct qg_headroom_group no_role; /* the ports in no role */
	struct qg_headroom_group *roles;  /* n_roles of them, caller's room (QG_ROLES_MAX) */
	long buffer_bytes, pool_bytes;	  /* pool_bytes: 0 when the budget is the buffer */
	long budget_bytes;
};

/* Switch i's figures; roles: room for its n_roles groups. */
void qg_headroom_switch(const struct qg_model *m, size_t i, struct qg_headroom_group *roles,
			struct qg_headroom_switch *out);

#endif
