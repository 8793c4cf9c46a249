/* SPDX-License-Identifier: MIT */
/*
 * The one configuration model of a SONiC switch: the config_db tables
 * qosgen owns, as config_db's own JSON ({"TABLE": {"KEY": {"field":
 * "value"}}}, every value a string, as `show runningconfiguration all` and
 * config_db.json write them). The generated sonic/<switch>.json and the
 * settings are both read off this one tree. Pure: no I/O.
 *
 * What qosgen writes (SONiC's Configuration.md, and the tables of
 * sonic-buildimage's files/build_templates/qos_config.j2 and buffers_config.j2,
 * device/mellanox/x86_64-mlnx_msn2700-r0/Mellanox-SN2700-D48C8/
 * buffers_defaults_objects.j2). On the intent's ports qosgen owns the whole
 * lossless-RoCE state, every queue and priority group of the port, so that
 * what a switch ends with does not depend on what it had (docs/intent.md,
 * "What qosgen owns on a switch"):
 *   DSCP_TO_TC_MAP|QOSGEN             all 64 DSCPs (sonic_dscp_tc())
 *   TC_TO_QUEUE_MAP|QOSGEN            traffic class N to queue N
 *   TC_TO_PRIORITY_GROUP_MAP|QOSGEN   the lossless TC to its priority group, the rest to PG 0
 *   MAP_PFC_PRIORITY_TO_QUEUE|QOSGEN  each priority to its traffic class's queue
 *   PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|QOSGEN   the lossless priority to its PG
 *   PORT_QOS_MAP|<port>               the five maps, pfc_enable, pfcwd_sw_enable
 *                                     (= pfc_enable, as qos_config.j2; absent with
 *                                     pfc_watchdog false)
 *   WRED_PROFILE|qosgen_ecn           ECN marking only, on the lossless queue (with ecn)
 *   WRED_PROFILE|qosgen_ecn_<role>    the same with a port role's thresholds (issue 28),
 *                                     on the lossless queue of the role's ports
 *   SCHEDULER|qosgen_lossless, qosgen_cnp, qosgen_lossy   every queue's (sonic_shares())
 *   QUEUE|<port>|0..7                 scheduler; wred_profile on the lossless queue
 *                                     only (with ecn), absent on every other queue
 *   BUFFER_QUEUE|<port>|0..7          the lossless queue egress_lossless_profile,
 *                                     every other queue q_lossy_profile
 *   BUFFER_PG|<port>|<pg>             the lossless PG, profile NULL (dynamic headroom);
 *                                     PGs 1..7 other than it absent (no headroom);
 *                                     PG 0, the lossy PG, is the switch's
 *   CABLE_LENGTH|AZURE                <port>: "<m>m", with cable_length_m (the headroom's input)
 *   PORT|<port>                       mtu
 *   PFC_WD|<port>, PFC_WD|GLOBAL      with pfc_watchdog on: action drop, the
 *                                     detection and restoration times; POLL_INTERVAL
 * What must not be there is in the tree as a JSON null: a row (BUFFER_PG
 * of a PG that is not lossless, PFC_WD|<port> with pfc_watchdog false) or
 * a field (wred_profile of a lossy queue, pfcwd_sw_enable with pfc_watchdog
 * false). The patch removes them (config_db_end.c); the file leaves them
 * out, the settings say "absent".
 * The lossless priority group is numbered as the lossless priority (as
 * SONiC's templates do: PG 3 for priority 3); priority group 0 holds every
 * lossy traffic class, so sonic_check() refuses a lossless priority 0.
 */
#ifndef QG_SONIC_CONFIG_DB_H
#define QG_SONIC_CONFIG_DB_H

#include "../../lib/buf.h"
#include "../../model/model.h"
#include "../../model/settings.h"

#include <cjson/cJSON.h>

/* The tree as text, its own module (config_db_text.c): the tree's users get it here. */
#include "config_db_text.h"

/* qosgen's own names, stable so that a diff and a removal are exact. */
#define SONIC_MAP "QOSGEN"
/*
 * CABLE_LENGTH's row: SONiC's buffer managers read every row's port fields
 * whatever the row's name, and its templates write AZURE; qosgen sets a
 * port's length in the row that has it (config_db_end.c), else here, so
 * that no port ends with two lengths.
 */
#define SONIC_CABLE_ROW "AZURE"
/* sonic-pfcwd: the global row's key, and the action of `pfcwd start`'s default. */
#define SONIC_PFCWD_GLOBAL "GLOBAL"
#define SONIC_PFCWD_ACTION "drop"
/* A removed row or field's setting: SONIC_ABSENT (config_db_text.h). */
/*
 * The WRED profile is named for what it does, ECN marking only: an earlier
 * qosgen wrote "qosgen_lossless" with WRED drop enabled, and Mellanox's SAI
 * refuses to turn a colour's WRED off in place while its ECN marking is on
 * (mlnx_sai_wred.c, mlnx_wred_attr_enable_set), so the new profile has a
 * new name and the old one is removed (config_db_end.c).
 */
#define SONIC_WRED "qosgen_ecn"
#define SONIC_WRED_OLD "qosgen_lossless"
/*
 * A port role with its own ECN thresholds (model/model.h, struct
 * qg_port_role) gets its own profile, named for the role so that a reader
 * of config_db sees which ports are whose: "qosgen_ecn_<role>". Every
 * WRED_PROFILE row of that prefix is qosgen's (config_db_rows.c), so a
 * role the intent no longer has loses its profile. sonic-wred-profile.yang
 * takes names of 1..32 characters of A-Z a-z 0-9 _ -: sonic_check() refuses
 * a role name that does not fit (a dot, or more than 21 characters).
 */
#define SONIC_WRED_ROLE_PREFIX SONIC_WRED "_"
#define SONIC_WRED_NAME_MAX 32
#define SONIC_SCHED_LOSSLESS "qosgen_lossless"
#define SONIC_SCHED_CNP "qosgen_cnp"
#define SONIC_SCHED_LOSSY "qosgen_lossy"
#define SONIC_LOSSY_PG 0	  /* SONiC's templates: BUFFER_PG <port>|0 is the lossy profile */
#define SONIC_QUEUES 8		  /* a port's unicast queues, 0..7: the TCs' */
#define SONIC_MTU_MAX 9216	  /* sonic-port.yang: PORT mtu range 68..9216 */
#define SONIC_ECN_PROBABILITY 100 /* as the cumulus target: mark every packet above max */
#define SONIC_WEIGHT_MAX 100	  /* sonic-scheduler.yang: weight range 1..100 */
/*
 * The buffer profiles of SONiC's templates (buffers_defaults_objects.j2,
 * buffers_config.j2): every lossless queue on egress_lossless_profile, every
 * other queue on q_lossy_profile. The switch's, never written by qosgen:
 * sonic_config_judge() refuses a switch that lacks them.
 */
#define SONIC_Q_LOSSLESS "egress_lossless_profile"
#define SONIC_Q_LOSSY "q_lossy_profile"
/* ECN thresholds in bytes: qg_ecn_bytes() (model/derive.h). */

/*
 * The switch's port MTU: qos.switch_mtu, whose default (9216) is what the
 * onyx and cumulus targets give their ports: one fabric, one MTU.
 */
int sonic_port_mtu(const struct qg_qos *q);

/*
 * The DWRR weights of a port's queues. SONiC's DWRR weights are relative
 * across all the port's queues (sonic-swss orchagent/qosorch.cpp hands each
 * queue's scheduler to SAI; a strict queue is served first and is outside
 * the weights): so that a class with ets {wrr, W} gets exactly W % of what
 * the DWRR queues share, every queue of the port is given a weight. The
 * "rest" queues (every queue of no class with ets, the classes without ets
 * among them) share 100 - (the classes' weights) equally. lossless and
 * cnp: 0 for a class that is strict or joins the rest. ok false: the
 * weights would not fit sonic-scheduler's 1..100 (need_* say what they
 * would be), or the classes leave the rest nothing.
 */
struct sonic_shares {
	int lossless, cnp, rest;
	int n_rest;
	long need_class, need_rest; /* when !ok: the lossless weight and the rest's */
	bool ok;
};
void sonic_shares(const struct qg_qos *q, struct sonic_shares *s);

/* The scheduler row each queue (= TC) of a port gets. */
const char *sonic_queue_scheduler(const struct qg_qos *q, int queue);

/*
 * The traffic class of every DSCP. SONiC programs the whole map
 * (qosorch.cpp's DscpToTcMapHandler takes every entry; qos_config.j2 writes
 * all 64), so a DSCP the intent does not list must not land in a class's
 * TC because of DSCP/8 (derived.dscp_map's default for the rest): the
 * lossless and CNP classes get exactly their DSCPs, every other DSCP whose
 * switch-priority is a class's goes to the lowest TC no class holds.
 */
void sonic_dscp_tc(const struct qg_qos *q, int tc[64]);

/*
 * SONiC's traffic class of each switch-priority (config_db has no
 * priority of its own: DSCP goes to a TC). The classes' priorities to
 * their traffic_class; every other priority p to TC p, unless a class uses
 * TC p, then to the lowest TC no class uses (so no lossy traffic shares the
 * lossless or the CNP queue).
 */
void sonic_priority_tc(const struct qg_qos *q, int tc[8]);

/*
 * The WRED profile of role r of switch s (s->roles[r]) in out: true when the
 * role has thresholds of its own and its name fits sonic-wred-profile.yang;
 * false when its ports take the policy's profile (SONIC_WRED), or its name
 * does not fit (sonic_check() refuses that).
 */
bool sonic_role_wred(const struct qg_switch *s, size_t r, char out[SONIC_WRED_NAME_MAX + 1]);

/*
 * The WRED profile on port k's lossless queue: its role's, else the
 * policy's; NULL without ECN. name holds a role's profile name.
 */
const char *sonic_port_wred(const struct qg_model *m, const struct qg_switch *s, size_t k,
			    char name[SONIC_WRED_NAME_MAX + 1]);

/* The desired tree of switch i, keys in natural order. NULL: out of memory. */
cJSON *sonic_config_from_model(const struct qg_model *m, size_t i);

#endif
