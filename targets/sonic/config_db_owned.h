/* SPDX-License-Identifier: MIT */
/*
 * The state of a SONiC config_db at what the intent owns.
 */
#ifndef QG_SONIC_CONFIG_DB_OWNED_H
#define QG_SONIC_CONFIG_DB_OWNED_H

#include <cjson/cJSON.h>

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

#endif
