/* SPDX-License-Identifier: MIT */
/*
 * The configuration a SONiC switch should end with.
 */
#ifndef QG_SONIC_CONFIG_DB_END_H
#define QG_SONIC_CONFIG_DB_END_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/*
 * The read-back have with what qosgen owns made as want says (config_db_patch.h
 * lists it): rows qosgen names set or removed, the intent's ports' owned
 * fields set or removed, index ranges split where they disagree, tables left
 * empty dropped. A new tree (the caller deletes it); NULL when out of memory,
 * *oom then set. The patch is the difference from have to it.
 */
cJSON *sonic_config_end_state(const cJSON *want, const cJSON *have, bool *oom);

#endif
