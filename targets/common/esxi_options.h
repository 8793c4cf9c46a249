/* SPDX-License-Identifier: MIT */
/*
 * A kernel module's option string ("DRSS=4 pfctx=0x08 trust_state=2") merged
 * with the options the intent sets, the way the host script's qg_module_opts
 * does it over SSH, so that a push through the vSphere API
 * (HostKernelModuleSystem) and one over SSH leave the same string: options
 * qosgen does not set are never touched, an option already equal is kept as
 * it is written, and one that differs is dropped from its place and appended
 * with the intent's value. Pure.
 */
#ifndef QG_ESXI_OPTIONS_H
#define QG_ESXI_OPTIONS_H

#include "../../model/settings.h"

#include <stddef.h>

struct esxi_opt_change {
	char key[64];  /* "pfctx" */
	char have[64]; /* the live value; "" = unset */
	char want[64]; /* the intent's value */
};

/*
 * The value the driver takes for MODULE's option key when the option string
 * does not write it, where its manual documents one and qosgen owns the key
 * with that value possible (nmlx5_core ecn: 0); NULL otherwise. The merge
 * and the read-back take an unwritten key as this value, as the host
 * script's qg_opt_default does: a host that never set it is in sync with
 * the default, and no reboot is asked for nothing.
 */
const char *esxi_option_default(const char *module, const char *key);

/* A wanted value that removes the key from the string: the driver's own default. */
#define ESXI_OPTION_UNSET "unset"

/*
 * The modules the intent sets options of, from want's "MODULE.key" entries
 * ("nmlx5_core.pfctx"), in first-seen order; at most max. Returns how many.
 */
size_t esxi_options_modules(const struct qg_settings *want, char (*names)[32], size_t max);

/*
 * Merge want's "MODULE.key" entries into live. out gets the new string;
 * changes (up to max_changes) what differs. Values compare as numbers when
 * both are (8 == 0x08), else as text; an unwritten key with a documented
 * default (esxi_option_default) compares as that default. Returns the number of changes, or -1
 * when out or changes is too small (nothing is half-written: out is "").
 */
int esxi_options_merge(const char *module, const char *live, const struct qg_settings *want,
		       char *out, size_t outlen, struct esxi_opt_change *changes,
		       size_t max_changes);

#endif
