/* SPDX-License-Identifier: MIT */
/*
 * The text forms of an NVUE configuration tree (nvue_config.h): settings,
 * startup.yaml, the REST API's JSON and `nv set` commands (nvue_text.c).
 * Pure: no I/O.
 */
#ifndef QG_NVUE_TEXT_H
#define QG_NVUE_TEXT_H

#include "../../lib/buf.h"
#include "../../model/settings.h"

#include <cjson/cJSON.h>

/*
 * The tree as settings (model/settings.h): one key a leaf, its path joined by
 * dots ("qos.pfc.default-global.tx" = "enable"), a set's members joined by
 * commas, interfaces with equal settings as one range key.
 */
void nvue_settings(const cJSON *tree, struct qg_settings *out);

/* The tree as the `set` part of NVUE's startup.yaml, interfaces with equal settings as ranges. */
void nvue_emit_yaml(const cJSON *tree, struct qg_buf *out);
/*
 * The tree as the body of NVUE's root PATCH (`PATCH /nvue_v1/?rev=ID`): JSON,
 * one key per interface as the API reads them back, indented by two.
 */
void nvue_emit_json(const cJSON *tree, struct qg_buf *out);
/* The tree (or a patch: null members become `nv unset`) as `nv set` commands, one a line. */
void nvue_emit_commands(const cJSON *tree, struct qg_buf *out);

#endif
