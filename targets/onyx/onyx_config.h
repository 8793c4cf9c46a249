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

/* A line of the read-back, kept for messages: its number and its text. */
struct onyx_line {
	int no; /* 0: none */
	char text[120];
};

struct onyx_port_cfg {
	struct qg_port id;
	int mtu;       /* ONYX_DEFAULT_MTU when not configured */
	char trust[8]; /* L2, L3, both or port */
	struct onyx_tc_cfg tc[8];
	/*
	 * Desired side only: qosgen owns congestion control and ETS of every
	 * traffic class of the port (docs/intent.md, "What qosgen owns"), so a
	 * TC with cc ONYX_CC_NONE must have none ("no traffic-class T
	 * congestion-control") and one with ets QG_ETS_UNSET must be at Onyx's
	 * default ("no traffic-class T dcb ets"). Without it, zero fields are
	 * not managed (a rollback's scope built by hand, the unit tests).
	 */
	bool own_tcs;
	/* Read-back only: the first QoS line on this port that qosgen does not model. */
	struct onyx_line foreign;
};

struct onyx_pool_cfg {
	char name[QG_POOL_LEN];
	char type[12];	       /* lossless, lossy, lossy-mc; "" when not printed */
	int percent_centi;     /* -1 when not printed */
	uint8_t priority_mask; /* bit p: switch-priority p maps to this pool */
	int line;	       /* read-back only: the first line naming the pool */
};

/* Read-back only: "interface ethernet 1/N module-type qsfp-split-K force". */
struct onyx_split {
	int module, port;
	int ways; /* K */
	struct onyx_line at;
};

/*
 * Read-back only: what makes a whole switch impossible to judge, whatever the
 * intent says (advanced buffer mode, Onyx's own RoCE auto-configuration).
 */
struct onyx_blocker {
	struct onyx_line at;
	const char *why; /* what it means and what to do, one clause */
};

struct onyx_config {
	struct onyx_pool_cfg *pools;
	size_t n_pools;
	struct onyx_port_cfg *ports; /* sorted by port */
	size_t n_ports;
	char hostname[QG_NAME_LEN]; /* from "hostname X", "" if absent */
	/* Read-back only, for onyx_config_judge(). */
	int hostname_line;
	struct onyx_split *splits;
	size_t n_splits;
	struct onyx_blocker *blockers;
	size_t n_blockers;
	struct onyx_line pfc[8]; /* "dcb priority-flow-control priority P enable" */
};

void onyx_config_free(struct onyx_config *c);

/*
 * The scheduler of all eight traffic classes of an intent's port into tc[]
 * (ets and weight only): the classes' own, and, when the lossless class is
 * WRR, explicit weights for the others so that its share is exactly its
 * weight (Onyx weighs WRR classes against each other). Returns 0, or the
 * number of other classes when the weights leave them less than 1 each
 * (onyx.c's check refuses that intent).
 */
int onyx_ets_plan(const struct qg_qos *q, struct onyx_tc_cfg tc[8]);

/* The desired state of switch i. 0 or -ENOMEM. */
int onyx_config_from_model(const struct qg_model *m, size_t i, struct onyx_config *out);

/*
 * Parse `show running-config` text, len bytes (prefix mode off, as Onyx
 * prints it: "## ..." comments, indented lines, "interface ethernet 1/7-1/8
 * ..." ranges). Text that is not a running-config at all (onyx_text_check) is
 * refused: -EINVAL with the error in d. Lines qosgen does not manage are
 * skipped, but what it cannot judge is kept for onyx_config_judge(); a managed
 * line it cannot read is a warning in d and skipped. 0, -EINVAL or -ENOMEM.
 */
int onyx_config_parse(const char *text, size_t len, struct onyx_config *out, struct qg_diags *d);

/*
 * Can the difference from `have` (a read-back) to `want` be computed exactly?
 * Errors in d, at the read-back's lines, for each thing that makes it
 * impossible: advanced buffer mode or Onyx's RoCE auto-configuration; a split
 * that disagrees with want's ports; a QoS line qosgen does not model on one of
 * want's ports; PFC or a lossless pool on another switch-priority; another
 * pool owning want's priority that cannot simply give it up; pools over 100 %
 * of the buffer. Returns the number of errors added (0: diff away).
 */
int onyx_config_judge(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_diags *d);

/*
 * A command list: lines "<section>\t<command>\n", section an enum
 * onyx_section, in running-config order. onyx_cmds_next() is the one place
 * that reads it: it sets *section and the command (line, len bytes, no
 * newline), advances *cursor, and is false at the end.
 */
bool onyx_cmds_next(const char **cursor, int *section, const char **line, size_t *len);

/*
 * The commands that take `have` to exactly `want` for everything `want`
 * manages, fewest first: ports that need the same command share one line,
 * their ranges compressed as Onyx prints them; priorities mapped to the pool
 * beyond want's are unmapped, and want's priority is unmapped from any other
 * pool. A command list (above); nothing is appended when in sync. Call
 * onyx_config_judge() first.
 */
void onyx_config_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *cmds);

/*
 * Every line `want` manages, as the switch prints them: the generated file.
 * It is the diff against a switch where nothing matches, so the file, the
 * diff and the rollback share one set of command texts.
 */
void onyx_config_emit(const struct onyx_config *want, struct qg_buf *cmds);

/*
 * Does the read-back's hostname name this switch? True when it has none, or
 * it equals (case aside) the switch's name or, when its address is a DNS
 * name, that name's first label.
 */
bool onyx_config_hostname_matches(const struct onyx_config *have, const char *name,
				  const char *address);

/*
 * The rollback of a push: commands that put back, for what `scope` manages
 * (the desired config that was pushed), the values the switch had `before`,
 * given that it is `now`. Where `before` had the default, the "no" form is
 * used ("interface ethernet 1/1 no traffic-class 3 congestion-control", "no
 * traffic pool roce"). Pools: scope's pool and every pool that mapped one of
 * its priorities. Same line format as onyx_config_diff(); cmds->failed when
 * it could not all be computed (out of memory): never send a partial undo.
 */
void onyx_config_restore(const struct onyx_config *scope, const struct onyx_config *before,
			 const struct onyx_config *now, struct qg_buf *cmds);

#endif
