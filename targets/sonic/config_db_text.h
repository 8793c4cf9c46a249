/* SPDX-License-Identifier: MIT */
/* The config_db tree (config_db.h) as text: the JSON file and the settings (config_db_text.c). Pure. */
#ifndef QG_CONFIG_DB_TEXT_H
#define QG_CONFIG_DB_TEXT_H

#include "../../lib/buf.h"
#include "../../model/settings.h"

#include <cjson/cJSON.h>

/* A setting's value for a row or field qosgen removes (a null in the tree). */
#define SONIC_ABSENT "absent"

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
