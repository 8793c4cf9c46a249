/* SPDX-License-Identifier: MIT */
/*
 * The one configuration model of a SONiC switch: the config_db tables
 * qosgen owns, as config_db's own JSON ({"TABLE": {"KEY": {"field":
 * "value"}}}, every value a string, as `show runningconfiguration all` and
 * config_db.json write them). The generated sonic/<switch>.json and the
 * settings are both read off this one tree. Pure: no I/O.
 *
 * What qosgen writes (SONiC's Configuration.md, and the tables of
 * sonic-buildimage's qos_config.j2 and buffers_config.j2):
 *   DSCP_TO_TC_MAP|QOSGEN             all 64 DSCPs, from the intent's DSCP map
 *   TC_TO_QUEUE_MAP|QOSGEN            traffic class N to queue N
 *   TC_TO_PRIORITY_GROUP_MAP|QOSGEN   the lossless TC to its priority group, the rest to PG 0
 *   MAP_PFC_PRIORITY_TO_QUEUE|QOSGEN  each priority to its traffic class's queue
 *   PFC_PRIORITY_TO_PRIORITY_GROUP_MAP|QOSGEN   the lossless priority to its PG
 *   PORT_QOS_MAP|<port>               the five maps and pfc_enable
 *   WRED_PROFILE|qosgen_lossless      ECN on the lossless queue (with ecn)
 *   SCHEDULER|qosgen_lossless, qosgen_cnp   the classes that give ets
 *   QUEUE|<port>|<tc>                 their scheduler and WRED profile
 *   BUFFER_PG|<port>|<pg>             the lossless PG, profile NULL (dynamic headroom)
 *   CABLE_LENGTH|AZURE                <port>: "<m>m", with cable_length_m (the headroom's input)
 *   PORT|<port>                       mtu
 *   PFC_WD|<port>, PFC_WD|GLOBAL      with pfc_watchdog on: action drop, the
 *                                     detection and restoration times; POLL_INTERVAL
 *                                     (and PORT_QOS_MAP pfcwd_sw_enable, the priority)
 * With pfc_watchdog false, what must not be there is in the tree as a JSON
 * null: PFC_WD|<port> null and PORT_QOS_MAP|<port> pfcwd_sw_enable null. The
 * patch removes them (config_db_patch.c); the file and the settings leave
 * them out (the file) or say "absent" (the settings).
 * The lossless priority group is numbered as the lossless priority (as
 * SONiC's templates do: PG 3 for priority 3); priority group 0 holds every
 * lossy traffic class, so sonic_check() refuses a lossless priority 0.
 */
#ifndef QG_SONIC_CONFIG_DB_H
#define QG_SONIC_CONFIG_DB_H

#include "../../gen/buf.h"
#include "../../gen/model.h"
#include "../../gen/settings.h"

#include <cjson/cJSON.h>

/* qosgen's own names, stable so that a diff and a removal are exact. */
#define SONIC_MAP "QOSGEN"
/*
 * CABLE_LENGTH's row: SONiC's buffer managers read every row's port fields
 * whatever the row's name, and its templates write AZURE; qosgen sets a
 * port's length in the row that has it (config_db_patch.c), else here, so
 * that no port ends with two lengths.
 */
#define SONIC_CABLE_ROW "AZURE"
/* sonic-pfcwd: the global row's key, and the action of `pfcwd start`'s default. */
#define SONIC_PFCWD_GLOBAL "GLOBAL"
#define SONIC_PFCWD_ACTION "drop"
/* A setting's value for a row or field qosgen removes (a null in the tree). */
#define SONIC_ABSENT "absent"
#define SONIC_WRED "qosgen_lossless"
#define SONIC_SCHED_LOSSLESS "qosgen_lossless"
#define SONIC_SCHED_CNP "qosgen_cnp"
#define SONIC_LOSSY_PG 0	  /* SONiC's templates: BUFFER_PG <port>|0 is the lossy profile */
#define SONIC_JUMBO_MTU 9100	  /* SONiC's port_config.ini / templates' jumbo port MTU */
#define SONIC_MTU_MAX 9216	  /* sonic-port.yang: PORT mtu range 68..9216 */
#define SONIC_ECN_PROBABILITY 100 /* as the cumulus target: mark every packet above max */
#define SONIC_BYTES_PER_KB 1000	  /* see sonic_ecn_bytes() */

/* ECN thresholds: the intent's kB in the bytes WRED_PROFILE takes (x 1000, as cumulus). */
long sonic_ecn_bytes(int kb);

/*
 * The switch's port MTU: qos.switch_mtu when the intent gives it, else
 * SONiC's jumbo 9100 when it carries qos.mtu + 18, else SONiC's largest.
 */
int sonic_port_mtu(const struct qg_qos *q);

/*
 * SONiC's traffic class of each switch-priority (config_db has no
 * priority of its own: DSCP goes to a TC). The classes' priorities to
 * their traffic_class; every other priority p to TC p, unless a class uses
 * TC p, then to the lowest TC no class uses (so no lossy traffic shares the
 * lossless or the CNP queue).
 */
void sonic_priority_tc(const struct qg_qos *q, int tc[8]);

/* The desired tree of switch i, keys in natural order. NULL: out of memory. */
cJSON *sonic_config_from_model(const struct qg_model *m, size_t i);

/*
 * The tree as settings: "TABLE|KEY.field" = value, rows of per-port tables
 * that are equal but for the port under one key naming the ports as the
 * intent writes them ("PORT|Ethernet0-124/4.mtu" = "9100"), map entries as
 * "DSCP_TO_TC_MAP|QOSGEN.26" = "3".
 */
void sonic_settings(const cJSON *tree, struct qg_settings *out);

/* The tree as config_db JSON: 4-space indentation, keys as in the tree, a final newline. */
void sonic_emit_json(const cJSON *tree, struct qg_buf *out);

#endif
