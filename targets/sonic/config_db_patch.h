/* SPDX-License-Identifier: MIT */
/*
 * A SONiC switch's read-back against the model (config_db.h): what qosgen
 * can judge, and the RFC 6902 JSON Patch that brings the switch exactly to
 * the intent, for `config apply-patch`. Pure: no I/O.
 *
 * What qosgen owns, and so what the patch may change:
 *   - rows it names itself (the QOSGEN maps, WRED_PROFILE|qosgen_ecn,
 *     SCHEDULER|qosgen_*, and an earlier qosgen's WRED_PROFILE|
 *     qosgen_lossless): whole; one the intent no longer has is removed,
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

#include "../../gen/buf.h"
#include "../../gen/diag.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * `show runningconfiguration all` of a single-ASIC switch (config_db as
 * JSON) into *out. -EINVAL with errors in d (at the text's line and column)
 * when it is not that: empty, not JSON, a multi-ASIC switch's namespaces,
 * or a table qosgen writes whose rows are not objects of strings. 0 or
 * -ENOMEM otherwise.
 */
int sonic_readback_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d);

/* DEVICE_METADATA|localhost hostname, or "". */
const char *sonic_readback_hostname(const cJSON *have);

/*
 * Where the intent lists a switch's ports (the model's ports_pos), for the
 * error that the switch lacks some: the intent's file (NULL: d's own file)
 * and the position of `ports:`.
 */
struct sonic_ports_at {
	const char *file;
	struct qg_pos pos;
};

/*
 * What the patch cannot make exact, as errors in d (the number returned):
 * the intent ports the switch lacks (one error, at `at`, NULL for none,
 * listing them and the switch's own compactly), a buffer model other than dynamic (the
 * intent's headroom is the dynamic model's, BUFFER_PG profile NULL), a
 * switch without the egress profiles BUFFER_QUEUE names, a VOQ switch,
 * QUEUE, BUFFER_QUEUE or BUFFER_PG keys of an intent port that do not read as an
 * index or a range or that cover one index twice, a row qosgen would
 * remove that a port outside the intent still uses, and a PFC_WD row of a
 * port outside the intent whose times are below the intent's poll_ms.
 */
int sonic_config_judge(const cJSON *want, const cJSON *have, const struct sonic_ports_at *at,
		       struct qg_diags *d);

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

/*
 * The state of doc (a read-back, or one with a patch applied) at what want
 * owns, however doc keys it: per table of want, per row of want, the
 * fields want names with doc's values (a JSON null where doc has none); a
 * QUEUE/BUFFER_QUEUE/BUFFER_PG index read from the row covering it, range
 * or not; a row want removes (null) as doc's whole row or null; a
 * CABLE_LENGTH port field as the array of every value doc has for it; and
 * every row qosgen names (the named tables) as doc's row or null. Two
 * switches whose owned states are equal (cJSON_Compare) are the same for
 * the intent: the history-independence check of tests/unit and the fuzz
 * oracle. NULL when out of memory.
 */
cJSON *sonic_config_owned(const cJSON *want, const cJSON *doc);

/* The patch as `config apply-patch` reads it: "[", one operation a line, "]". */
void sonic_patch_text(const cJSON *patch, struct qg_buf *out);

#endif
