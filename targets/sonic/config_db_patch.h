/* SPDX-License-Identifier: MIT */
/*
 * A SONiC switch's read-back against the model (config_db.h): what qosgen
 * can judge, and the RFC 6902 JSON Patch that brings the switch exactly to
 * the intent, for `config apply-patch`. Pure: no I/O. The pieces: the
 * read-back (sonic_readback.h), the judge (config_db_judge.h), the end state
 * the patch is computed against (config_db_end.h), the owned state
 * (config_db_owned.h); the patch itself here.
 *
 * What qosgen owns, and so what the patch may change:
 *   - rows it names itself (the QOSGEN maps, WRED_PROFILE|qosgen_ecn,
 *     SCHEDULER|qosgen_*, and an earlier qosgen's WRED_PROFILE|
 *     qosgen_lossless), and every WRED_PROFILE|qosgen_ecn_<name> (a port
 *     role's, config_db.h): whole; one the intent no longer has is removed,
 *     with the references to it from the intent's ports;
 *   - on the intent's ports, the whole lossless-RoCE state: PORT mtu, the
 *     PORT_QOS_MAP maps, pfc_enable and pfcwd_sw_enable, every queue's
 *     QUEUE scheduler and wred_profile and BUFFER_QUEUE profile, BUFFER_PG
 *     of PGs 1..7 (the lossless one NULL, the rest removed), and with
 *     cable_length_m the port's field of CABLE_LENGTH, in every row that
 *     has it (else in AZURE);
 *   - with pfc_watchdog given (true, false or a mapping): PFC_WD|<port> of
 *     the intent's ports (action, detection_time, restoration_time; removed
 *     when false), pfcwd_sw_enable removed when false, and when on
 *     PFC_WD|GLOBAL POLL_INTERVAL (never removed: GCU refuses it, and it is
 *     the switch's for every port). The tree marks what to remove as JSON
 *     nulls (config_db.h). Without pfc_watchdog PFC_WD is not qosgen's.
 *     Every other field, row and table is the switch's.
 * QUEUE, BUFFER_QUEUE and BUFFER_PG keys may name a range ("Ethernet0|3-4", as SONiC's
 * own templates write them): a range already saying what the intent says
 * of its index is in sync; otherwise it is split, its other indices keeping
 * their fields, so that nothing else changes (an index qosgen removes is
 * split out, then removed).
 */
#ifndef QG_SONIC_CONFIG_DB_PATCH_H
#define QG_SONIC_CONFIG_DB_PATCH_H

#include "../../lib/buf.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The RFC 6902 operations that bring a judged have to want: a JSON array,
 * or NULL when in sync (and when out of memory, *oom then set).
 */
cJSON *sonic_config_patch(const cJSON *want, const cJSON *have, bool *oom);

/*
 * Whether a and b (two read-backs) agree at every path the patch touches:
 * a rollback's proof that the switch is as it was.
 */
bool sonic_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b);

/* The patch as `config apply-patch` reads it: "[", one operation a line, "]". */
void sonic_patch_text(const cJSON *patch, struct qg_buf *out);

#endif
