/* SPDX-License-Identifier: MIT */
/*
 * NVUE read-backs into the configuration tree of nvue_config.h
 * (nvue_readback.c). Pure: no I/O.
 */
#ifndef QG_NVUE_READBACK_H
#define QG_NVUE_READBACK_H

#include "../../model/diag.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/*
 * A read-back: JSON (the REST API's GET /nvue_v1/?rev=applied, or
 * `nv config show -o json`) or YAML (/etc/nvue.d/startup.yaml, `nv config
 * show`), into the same tree: the `set` part, with NVUE's range keys
 * ("swp1,51-54", "0-3,5-7") expanded one key per member. 0, or -EINVAL with
 * errors at the read-back's lines in d (a failed capture must never read as
 * an empty switch), or -ENOMEM.
 */
int nvue_config_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d);

#endif
