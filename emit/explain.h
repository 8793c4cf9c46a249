/* SPDX-License-Identifier: MIT */
/*
 * `qosgen explain`: the normalised model as rows of key, value, source
 * (given / default / derived / target) and reason. One list of rows serves
 * the text table and --json, so the two can never disagree.
 */
#ifndef QG_EXPLAIN_H
#define QG_EXPLAIN_H

#include "explain_text.h" /* qg_explain_text(): the rows as text */
#include "../model/model.h"

#include <cjson/cJSON.h>

/*
 * {"fabric", "intent_sha256", "rows": [{key, value, source, reason, device}],
 * "groups": [{name, target, hosts: [names]}]}: a row about one device names
 * it (device); groups are the alike hosts (struct qg_target's group()).
 */
cJSON *qg_explain_json(const struct qg_model *m);
/*
 * Keep only the rows of one device, and no groups (--host, --switch); with
 * target (a switch's), also the fabric-wide rows that decide how that switch
 * behaves: the policy, the derived rows but the hosts' own, and the
 * target's rows of no device (issue 37). How many rows were kept.
 */
int qg_explain_only(cJSON *explain, const char *device, const char *target);

#endif
