/* SPDX-License-Identifier: MIT */
/*
 * The read-back judge, the merge patch and its inverse over the one NVUE
 * tree (nvue_config.h): what `qosgen diff` and the push send, and what a
 * rollback sends back. Pure: no I/O.
 */
#ifndef QG_NVUE_PATCH_H
#define QG_NVUE_PATCH_H

#include "../../model/diag.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Is o an NVUE set: an object whose members are all empty objects ("'3': {}")? */
bool nvue_is_set(const cJSON *o);

/* The read-back's system hostname, "" when it names none. */
const char *nvue_config_hostname(const cJSON *have);

/*
 * Can the difference be computed and applied? Other lossy pools of have
 * (mc-lossy, roce-lossy) keep their priorities and memory: the buffer must
 * still add up to at most 100 %, and they must not hold the lossless
 * priority. A port want binds to a PFC profile must have no link-pause
 * profile (NVUE: "You can not configure link pause and PFC on the same
 * port"). Errors in d (at the read-back's start: JSON has no lines).
 * Returns the number of errors.
 */
int nvue_config_judge(const cJSON *want, const cJSON *have, struct qg_diags *d);

/*
 * The JSON merge patch (RFC 7396) that brings have to want for what qosgen
 * owns: every leaf of want, every null of want as null where have has it,
 * and every set want holds (an object whose members are all {}) exactly,
 * members it lacks as null. The profiles named NVUE_ROLE_PREFIX... end
 * exactly as want has them (what have has beyond, null; a profile want
 * lacks, null), and so do the interfaces' bindings to them. The lossless
 * pool's priority leaves default-lossy; default-lossy keeps every priority
 * no other pool of have holds. NULL when in sync (or out of memory: *oom).
 */
cJSON *nvue_config_patch(const cJSON *want, const cJSON *have, bool *oom);

/*
 * The patch that undoes patch on a switch that was at before: each path
 * patch sets, back to its value in before (null where before had none).
 * NULL out of memory (*oom) or when patch is NULL.
 */
cJSON *nvue_config_inverse(const cJSON *patch, const cJSON *before, bool *oom);

/* Do a and b agree at every path patch names (both absent counts as agreeing)? */
bool nvue_config_same_at(const cJSON *patch, const cJSON *a, const cJSON *b);

#endif
