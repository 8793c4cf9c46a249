/* SPDX-License-Identifier: MIT */
/*
 * What qosgen can judge of a SONiC read-back against the model
 * (config_db_patch.h says what qosgen owns).
 */
#ifndef QG_SONIC_CONFIG_DB_JUDGE_H
#define QG_SONIC_CONFIG_DB_JUDGE_H

#include "../../model/diag.h"

#include <cjson/cJSON.h>

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

#endif
