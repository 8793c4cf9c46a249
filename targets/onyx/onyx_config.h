/* SPDX-License-Identifier: MIT */
/*
 * What qosgen manages on an Onyx switch, as data: the traffic pools and, per
 * ethernet port, the MTU, the trust mode, congestion control and ETS per
 * traffic class. Both sides of a diff are this struct: the desired one built
 * from the model, the live one parsed from `show running-config` (ranges
 * expanded per port), so the comparison is structural, never textual.
 *
 * This header is the data and the lookups the other pieces share; each piece
 * has its own header: onyx_parse.h (the read-back), onyx_judge.h (what the
 * diff cannot decide), onyx_diff.h (command texts, diff, generated file),
 * onyx_restore.h (the rollback).
 */
#ifndef QG_ONYX_CONFIG_H
#define QG_ONYX_CONFIG_H

#include "../../lib/buf.h"
#include "../../model/diag.h"
#include "../../model/model.h"

#include <stdbool.h>
#include <stdint.h>

/* Onyx defaults, which a running-config does not print. */
#define ONYX_DEFAULT_MTU 1500
#define ONYX_DEFAULT_TRUST "L2" /* Onyx User Manual, QoS Commands: "qos trust", default L2 */

/* The running-config sections qosgen writes, in the order Onyx prints them. */
enum onyx_section {
	ONYX_SEC_INTERFACE, /* "Interface Ethernet configuration" */
	ONYX_SEC_BUFFER,    /* "Interface Ethernet buffer configuration" */
	ONYX_SEC_QOS,	    /* "QoS switch configuration" */
	ONYX_SEC_ETS,	    /* "DCBX ETS configuration" */
	ONYX_SEC_COUNT,
};

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

/* Congestion-control modes as the CLI spells them, by enum onyx_cc. */
extern const char *const onyx_cc_modes[4];

/* A port at Onyx's defaults (nothing configured on it). */
void onyx_port_defaults(struct onyx_port_cfg *p, const struct qg_port *id);

/* qsort/bsearch order of onyx_config.ports: by port id. */
int onyx_port_cfg_cmp(const void *a, const void *b);

/* The port with this id in c (ports sorted), or NULL. */
const struct onyx_port_cfg *onyx_port_find(const struct onyx_config *c, const struct qg_port *id);

/* The pool named name in c, or NULL. */
const struct onyx_pool_cfg *onyx_pool_find(const struct onyx_config *c, const char *name);

/*
 * The pool named name in c; when there is none and create is set, a new one
 * with nothing printed (type "", percent -1). NULL when absent or out of memory.
 */
struct onyx_pool_cfg *onyx_pool_get(struct onyx_config *c, const char *name, bool create);

/*
 * The scheduler of all eight traffic classes of an intent's port into tc[]
 * (ets and weight only): the classes' own, and, when the lossless class is
 * WRR, explicit weights for the others so that its share is exactly its
 * weight (Onyx weighs WRR classes against each other). Returns 0, or the
 * number of other classes when the weights leave them less than 1 each
 * (onyx.c's check refuses that intent).
 */
int onyx_ets_plan(const struct qg_qos *q, struct onyx_tc_cfg tc[8]);

/* The role of port k of s (issue 28), or NULL: the port takes the policy's values. */
const struct qg_port_role *onyx_port_role(const struct qg_switch *s, size_t k);

/* The desired state of switch i: a port role's ECN thresholds on its ports. 0 or -ENOMEM. */
int onyx_config_from_model(const struct qg_model *m, size_t i, struct onyx_config *out);

#endif
