/* SPDX-License-Identifier: MIT */
/*
 * The one envelope of every `--json` output (docs/json.md): an object that
 * names the command, the generator, the intent and its fabric, says ok and
 * the exit status, carries the intent's diagnostics, and holds the command's
 * own array (devices, pairs, rows) and its summary. An invalid intent gives
 * the same object with the diagnostics and nothing else, so a script reads
 * one shape whatever happened.
 */
#ifndef QG_PUSH_JSON_H
#define QG_PUSH_JSON_H

#include "../model/diag.h"
#include "../model/model.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* A new envelope for COMMAND on INTENT; NULL when out of memory. */
cJSON *cli_json_envelope(const char *command, const char *intent);

/* Every diagnostic of d (sorted, notes after their diagnostic) into "diagnostics". */
void cli_json_diags(cJSON *env, struct qg_diags *d, bool strict);

/* The intent's fabric and hash, once it is valid. */
void cli_json_model(cJSON *env, const struct qg_model *m);

/* A command's "status", "ok" and "message" fields: the words of its text output. */
void cli_json_status(cJSON *o, const char *status, bool ok, const char *message);

/*
 * One string per line of s (len bytes), for the "lines" arrays: what would be
 * or was sent. Returns the array, added to o as NAME.
 */
cJSON *cli_json_lines(cJSON *o, const char *name, const char *s, size_t len);

/*
 * "failed_settings": one {"key", "reason"} per line "KEY: REASON" of s
 * (len bytes; a push result's failed, targets/driver.h), [] when none.
 */
void cli_json_failed_settings(cJSON *o, const char *s, size_t len);

/*
 * Set "ok" and "exit", print the envelope on stdout, free it. Returns
 * exit_code, so a command ends with `return cli_json_finish(env, rc)`.
 */
int cli_json_finish(cJSON *env, int exit_code);

/*
 * Print cJSON text with DEL and the C1 controls escaped, which cJSON leaves
 * raw and some terminals obey: a device's message can hold them.
 */
void cli_json_put(FILE *f, const char *s);

#endif
