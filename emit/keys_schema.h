/* SPDX-License-Identifier: MIT */
/*
 * What the key table (model/keys.h) gives besides the loader's checks: the
 * JSON Schema of the intent (draft-07, for editors through
 * yaml-language-server and for tests/schema/ through python3-jsonschema)
 * and the man page's key list. Pure: the registry is handed in.
 */
#ifndef QG_KEYS_SCHEMA_H
#define QG_KEYS_SCHEMA_H

#include "../lib/buf.h"
#include "../model/target.h"

#include <cjson/cJSON.h>

/*
 * The intent's schema: the table's shape, ranges and values, the platforms
 * of targets (NULL-terminated) and each host platform's own keys (NULL
 * when out of memory; on no compile path: tools/intent_schema.c's alone).
 * What the schema cannot say (a rule between two values, a name used
 * twice, a port the switch does not list) is the loader's alone.
 */
cJSON *qg_keys_schema(const struct qg_target *const *targets);

/* The man page's key list: one roff .TP entry per key, in table order, host platforms last. */
void qg_keys_man(const struct qg_target *const *targets, struct qg_buf *out);

#endif
