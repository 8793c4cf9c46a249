/* SPDX-License-Identifier: MIT */
/*
 * The normalised intent as JSON: every default filled in, keys in a fixed
 * order. Its compact form is what the intent hash covers, so two intents that
 * differ only in comments, key order or spelled-out defaults hash alike.
 */
#ifndef QG_MODELJSON_H
#define QG_MODELJSON_H

#include "../lib/fixed.h"
#include "../lib/hash.h"
#include "../model/keys.h"
#include "../model/model.h"

#include <cjson/cJSON.h>

/*
 * Row k's value (model/keys.h) read from base, where it lands: a number, an
 * enumeration's name, hundredths as a decimal, or text (null when empty: an
 * optional key not given). The model's JSON and explain read values by it.
 */
cJSON *qg_key_value_json(const struct qg_key *k, const void *base);

/* Role r of s's ports (issue 28), as runs in the platform's names: a JSON array of text. */
cJSON *qg_role_ports_json(const struct qg_switch *s, size_t r);

cJSON *qg_model_json(const struct qg_model *m);
/* sha256 hex of the compact normalised JSON; 0 or -1. */
int qg_model_hash(const struct qg_model *m, char out[QG_SHA256_HEX]);
/* The same of j, qg_model_json()'s tree: build hashes the tree plan.json then holds. */
int qg_model_json_hash(const cJSON *j, char out[QG_SHA256_HEX]);

#endif
