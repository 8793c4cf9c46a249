/* SPDX-License-Identifier: MIT */
/*
 * intent/, the loader (docs/architecture.md): YAML text to the model.
 * yamlast makes the tree with positions; intent.c walks its top level and
 * hands each section to its loader (intent_qos, intent_switches,
 * intent_roles, intent_hosts, intent_nics, intent_dvs, intent_verify), which
 * read keys through intent_walk's readers and the key table. It includes
 * model/ and lib/, nothing above.
 *
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
