/* SPDX-License-Identifier: MIT */
/*
 * The hand-off to Ansible and AWX: ansible/inventory.yml (groups by role and
 * platform, each device's connection facts) and ansible/site.yml (one play
 * per hand-off the intent's targets give: switches, then DVSes, then hosts,
 * in waves of qosgen_serial devices). The core knows no platform: each
 * target names its hand-off (struct qg_handoff, model/target.h).
 */
#ifndef QG_HANDOFF_H
#define QG_HANDOFF_H

#include "../model/target.h"

#define QG_HANDOFF_INVENTORY "ansible/inventory.yml"
#define QG_HANDOFF_SITE "ansible/site.yml"

/*
 * For targets whose devices run a script made of host/lib/PLATFORM.sh, the
 * host's row of host/hosts/PLATFORM.sh and host/groups/GROUP.sh
 * (targets/common/host_script.h), the row and the group given by qosgen_row and
 * qosgen_group in the inventory, that keeps the host scripts'
 * contract (docs/intent.md): QG_DRY_RUN=1 reports [differs] and changes
 * nothing, [changed] lines, exit 0 all set, 1 a setting failed, 2 something
 * missing.
 */
extern const struct qg_handoff qg_handoff_host_script;

/*
 * For switches and DVSes: `qosgen push INTENT --switch|--dvs NAME --json` on
 * the controller (`qosgen diff` in check mode), the task's changed and
 * failed from its JSON: ok in sync, changed converged, failed otherwise.
 * Two plays (switches first, DVSes next) with the same tasks.
 */
extern const struct qg_handoff qg_handoff_switch_push;
extern const struct qg_handoff qg_handoff_dvs_push;

/*
 * For hosts whose push installs more than their script sets (Linux's
 * persistence): `qosgen push INTENT --host NAME --json` on the controller, the
 * same tasks, so that what the push installs is in what the play reports. Its
 * own play, after the DVSes'.
 */
extern const struct qg_handoff qg_handoff_host_push;

/* A device's row of its target's table (QG_FILE_ROW), without its newline; s NULL when none. */
struct qg_handoff_row {
	const char *s;
	size_t len;
};

/*
 * Add ansible/inventory.yml and ansible/site.yml to out when some device's
 * target has a hand-off; nothing otherwise. rows[kind][i] is device i's row,
 * given to it as qosgen_row (rows may be NULL). 0, -ENOMEM, or -EINVAL after
 * a template error (reported to ctx->d).
 */
int qg_handoff_emit(const struct qg_model *m, const struct qg_emit_ctx *ctx,
		    struct qg_handoff_row *const rows[QG_DEVICE_DVS + 1], struct qg_outset *out);

/*
 * Refuse (to d, at the device's entry) a switch or host named as Ansible
 * names its controller or its own groups (localhost, 127.0.0.1, all,
 * ungrouped): the inventory names every device, and such a name would take
 * the controller's steps or a group's meaning. The inventory's own groups
 * carry a capital letter no device name can have (emit/handoff.c).
 */
void qg_handoff_check(const struct qg_model *m, struct qg_diags *d);

/* s as a YAML flow scalar: single-quoted, or double-quoted with escapes for controls. */
void qg_yaml_scalar(struct qg_buf *b, const char *s);

#endif
