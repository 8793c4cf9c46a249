/* SPDX-License-Identifier: MIT */
/*
 * What qosgen manages on an Onyx switch, as data: the traffic pools and, per
 * ethernet port, the MTU, the trust mode, congestion control and ETS per
 * traffic class. Both sides of a diff are this struct: the desired one built
 * from the model, the live one parsed from `show running-config` (ranges
 * expanded per port), so the comparison is structural, never textual.
 */
#ifndef QG_ONYX_CONFIG_H
#define QG_ONYX_CONFIG_H

#include "../../gen/buf.h"
#include "../../gen/diag.h"
#include "../../gen/model.h"

#include <stdbool.h>
#include <stdint.h>

/* Onyx defaults, which a running-config does not print. */
#define ONYX_DEFAULT_MTU 1500
#define ONYX_DEFAULT_TRUST "L2" /* Onyx User Manual, QoS Commands: "qos trust", default L2 */

enum onyx_cc { ONYX_CC_NONE, ONYX_CC_ECN, ONYX_CC_RED, ONYX_CC_BOTH };

struct onyx_tc_cfg {
	enum onyx_cc cc;
	bool relative; /* thresholds in percent instead of KB */
	int cc_min, cc_max;
	enum qg_ets_mode ets; /* QG_ETS_UNSET: not in the running-config */
	int weight;
};

struct onyx_port_cfg {
	struct qg_port id;
	int mtu;       /* ONYX_DEFAULT_MTU when not configured */
	char trust[8]; /* L2, L3, both or port */
	struct onyx_tc_cfg tc[8];
};

struct onyx_pool_cfg {
	char name[QG_POOL_LEN];
	char type[12];	       /* lossless, lossy, lossy-mc; "" when not printed */
	int percent_centi;     /* -1 when not printed */
	uint8_t priority_mask; /* bit p: switch-priority p maps to this pool */
};

struct onyx_config {
	struct onyx_pool_cfg *pools;
	size_t n_pools;
	struct onyx_port_cfg *ports; /* sorted by port */
	size_t n_ports;
	char hostname[QG_NAME_LEN]; /* from "hostname X", "" if absent */
};

void onyx_config_free(struct onyx_config *c);

/* The desired state of switch i. 0 or -ENOMEM. */
int onyx_config_from_model(const struct qg_model *m, size_t i, struct onyx_config *out);

/*
 * Parse `show running-config` text (prefix mode off, as Onyx prints it:
 * "## ..." comments, indented lines, "interface ethernet 1/7-1/8 ..." ranges).
 * Lines qosgen does not manage are skipped; a managed line it cannot read is
 * reported to d (its file should name the source) and skipped. 0 or -ENOMEM.
 */
int onyx_config_parse(const char *text, struct onyx_config *out, struct qg_diags *d);

/*
 * The commands that take `have` to `want` for what `want` manages, fewest
 * first: ports that need the same command share one line, their ranges
 * compressed as Onyx prints them. Each line is prefixed "<section>\t" as in
 * onyx_commands(). Nothing is appended when in sync.
 */
void onyx_config_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *cmds);

/*
 * The rollback of a push: commands that put back, for what `scope` manages
 * (the desired config that was pushed), the values the switch had `before`,
 * given that it is `now`. Where `before` had the default, the "no" form is
 * used ("interface ethernet 1/1 no traffic-class 3 congestion-control", "no
 * traffic pool roce"). Same line format as onyx_config_diff().
 */
void onyx_config_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *cmds);

#endif
