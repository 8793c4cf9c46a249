/* SPDX-License-Identifier: MIT */
/*
 * The intent file contract (docs/intent.md): YAML text in, a validated model
 * out. Every rule of the contract is enforced here, and every problem in the
 * file is reported in one run, in compiler form, before anything is written.
 */
#ifndef QG_INTENT_H
#define QG_INTENT_H

#include "../model/diag.h"
#include "../model/model.h"

#include <stddef.h>

/*
 * Parse and validate an intent. Returns 0 and fills *m when there is no
 * error (warnings may have been added to d); returns -1 otherwise, with *m
 * left empty. Pure: no I/O, no environment. targets is the registry
 * (NULL-terminated): the platforms a device may name, each with its keys
 * and port syntax; the model keeps it (m->targets) and each device its own.
 */
int qg_intent_load(const char *text, size_t len, const struct qg_target *const *targets,
		   struct qg_diags *d, struct qg_model *m);

/* Read a file (bounded) and load it; -1 with a diagnostic when it cannot be read. */
int qg_intent_load_file(const char *path, const struct qg_target *const *targets,
			struct qg_diags *d, struct qg_model *m, char **text_out, size_t *len_out);

#endif
