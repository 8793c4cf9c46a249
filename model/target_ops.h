/* SPDX-License-Identifier: MIT */
/*
 * struct qg_target, the table a target fills, and what its functions are
 * handed (issue 38: the definition alone, so that the parts of model/ that
 * read a device's target, model/devices.h, model/headroom.c, model/port_kind.c,
 * model/target_features.c, model/warnings.c, sit below model/target.h, which
 * includes them). It needs model.h for the device kinds; every other type it
 * names is a pointer, declared here and defined in the header cited beside it.
 * A target includes model/target.h, not this.
 */
#ifndef QG_TARGET_OPS_H
#define QG_TARGET_OPS_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

struct qg_buf;	       /* lib/buf.h */
struct qg_feature_gap; /* model/target_features.h */
struct qg_headroom_os; /* model/headroom.h */
struct qg_key;	       /* model/keys.h */
struct qg_os_versions; /* model/osversion.h */
struct qg_outset;      /* model/outset.h */
struct qg_port_run;    /* model/ports.h */
struct qg_settings;    /* model/settings.h */
struct qg_switch_hw;   /* model/switch_hw.h */
struct qg_templates;   /* model/template.h */

/* What a device of a target can be besides itself, for the intent's references. */
enum {
	QG_CAN_VERIFY = 1u << 0,     /* an end of a verify pair: runs RDMA traffic over SSH */
	QG_CAN_DVS_MEMBER = 1u << 1, /* a DVS member: its uplink joins a distributed switch */
	/*
	 * A switch that programs no DSCP map: it classifies by DSCP/8 whatever
	 * qosgen writes elsewhere, so the fabric's other switches keep DSCP/8
	 * too (qg_dscp_map_exact): a DSCP lossless on one hop and lossy on the
	 * next would fill the lossless priority group with traffic its sender
	 * never pauses.
	 */
	QG_FIXED_DSCP_MAP = 1u << 2,
};

/* "1/1-1/32" or "swp1s0-3", and a NUL. */
#define QG_PORT_TEXT_LEN 48

/*
 * A switch OS's port names. The core keeps ports as numbers (struct
 * qg_port), sorts them and finds duplicates; the target alone reads and
 * writes their text.
 */
struct qg_port_syntax {
	const char *rule; /* what is allowed, for diagnostics */
	/*
	 * One list item (a port or a range): 0 and a malloc'ed array of the
	 * ports in order, or -1 with what is wrong in err.
	 */
	int (*parse)(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen);
	void (*format)(const struct qg_port *p, char out[QG_PORT_TEXT_LEN]);
	/* A run of consecutive ports (model/ports.h), as the OS prints a range. */
	void (*format_run)(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN]);
	/*
	 * The front-panel port (platform.json's index, 1..) that p is, or is a
	 * breakout of, on hardware hw; 0 when p is no port of hw. Which kind
	 * of hw's ports p is follows (model/port_kind.h).
	 */
	int (*panel)(const struct qg_port *p, const struct qg_switch_hw *hw);
};

/* A group's name ([a-z0-9._-]) and its NUL: host/groups/<name>.sh. */
#define QG_GROUP_LEN 64

/* What every emitter gets besides the model: no clock, no environment. */
struct qg_emit_ctx {
	const struct qg_templates *templates;
	const char *generator;	 /* "qosgen 0.1.0" */
	const char *intent_hash; /* sha256 hex of the normalised intent */
	struct qg_diags *d;	 /* template problems go here */
	/*
	 * The build's files so far (NULL outside a build): a target may leave
	 * out a QG_FILE_SHARED file already there, which another device of the
	 * same names wrote byte for byte, rather than fill its template again for
	 * every host (issue 28: a fleet of 8-NIC hosts has eight pairs of them
	 * per host, and a handful in all).
	 */
	const struct qg_outset *built;
};

/*
 * How a target's devices are handed to Ansible (emit/handoff.c writes
 * ansible/inventory.yml and ansible/site.yml from these): pure text, no
 * platform known to the core. The tasks are Jinja-templated by Ansible, on
 * inventory_hostname (the device's name) and qosgen_out (the output
 * directory); they are YAML, not qosgen templates, because Ansible's {{ }}
 * is what they need.
 */
struct qg_handoff {
	/* The play's name: what it does to these devices. */
	const char *play;
	/* The platform group's inventory variables, "key: value" YAML lines. */
	const char *const *group_vars;
	/* The play's own variables, "key: value" YAML lines; NULL: none but qosgen_out. */
	const char *const *play_vars;
	/* The play's tasks: a YAML block sequence at column 0, each line ending in \n. */
	const char *tasks;
};

/* explain's rows, for a target's own (emit/explain.c). */
struct qg_explain_rows;

/* A target's reason why weights do not fit (ets_fits). */
#define QG_ETS_WHY_LEN 200
void qg_explain_row(struct qg_explain_rows *x, const char *key, const char *value,
		    const char *reason);

struct qg_target {
	const char *name;    /* the intent's `platform:` value and plan.json's target */
	const char *summary; /* one line, for `qosgen explain` and docs */
	/*
	 * Other names people give the platform (its OS's product name, its
	 * API's), NULL-terminated or NULL: a `platform:` of one of them gets
	 * "did you mean" this target's name.
	 */
	const char *const *aliases;
	enum qg_device_kind kind;
	unsigned caps; /* QG_CAN_* */
	const struct qg_port_syntax *ports; /* switches: how ports are written */
	/* What a device's `port` reaches, and its default: "SSH", 22; "NVUE REST API", 8765. */
	const char *access;
	int default_port;
	/*
	 * Switches: the largest port MTU the OS takes, from its vendor
	 * reference (cited where it is set). One switch MTU per fabric: the
	 * intent's qos.switch_mtu defaults to the smallest of these among the
	 * switch targets it uses, never above QG_DEFAULT_SWITCH_MTU, and one
	 * above a used target's is refused at the key, naming the OS. 0: no
	 * limit of its own (QG_DEFAULT_SWITCH_MTU).
	 */
	int switch_mtu_max;
	/*
	 * Switches: the OS versions the target writes and the dialects between
	 * them (issue 34, model/osversion.h), each with its release notes. The
	 * core refuses an os_version outside them and fills in the newest when
	 * the intent gives none; emit() writes the switch's os_version's
	 * dialect, and the push refuses a switch whose running version speaks
	 * another (targets/engine.c). NULL: the target declares no versions,
	 * and an os_version given for its switches is refused.
	 */
	const struct qg_os_versions *versions;
	/*
	 * Switches: what the OS does with a lossless port's headroom (issue 34,
	 * model/headroom.h): whose figure sizes it, the cable length it takes
	 * when the intent gives none, what holds it; each with its source.
	 * NULL: the target declares nothing, and its switches' headroom is
	 * not proven (a warning, headroom-unproven).
	 */
	const struct qg_headroom_os *headroom;
	/*
	 * Switches: whether the OS gives the classes' WRR weights (q's ets)
	 * exactly while leaving its other traffic classes what they need; when
	 * not, why into why (a clause naming the OS's rule and its source). The
	 * core checks the weights once against every used target's and reports
	 * the one limit that fits them all, and which OS sets it (model/ets_check.c,
	 * issue 37). NULL: any weight.
	 */
	bool (*ets_fits)(const struct qg_qos *q, char why[QG_ETS_WHY_LEN]);
	/*
	 * Report what this target cannot express, at the intent's positions;
	 * called once when at least one device uses the target. NULL: takes all.
	 */
	void (*check)(const struct qg_model *m, struct qg_diags *d);
	/* The desired state of device i; 0 or -ENOMEM. */
	int (*settings)(const struct qg_model *m, size_t i, struct qg_settings *out);
	/* Add device i's files to out; 0, -ENOMEM, or -EINVAL after a template error. */
	int (*emit)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    struct qg_outset *out);
	/*
	 * Devices alike but for who they are share their files (issue 15: a
	 * fleet's hosts). The name of device i's group into name: the same for
	 * every device of this target whose settings and QG_FILE_GROUP files
	 * (model/outset.h) are the same, so that a policy change touches one file
	 * per group, not one per device; emit/build.c checks both. plan.json lists
	 * a group's settings once, and each device's group. NULL: every device
	 * stands alone, its settings its own.
	 */
	void (*group)(const struct qg_model *m, size_t i, char name[QG_GROUP_LEN]);
	/*
	 * The files device i shares with the other devices of its group (its
	 * group's body, QG_FILE_GROUP) or of its target (a helper library,
	 * QG_FILE_SHARED) that cost too much to make once per device: the same
	 * for every device of a group, so emit/build.c calls it once per group,
	 * for its first device (every device, without group()), and checks that
	 * a file two groups share is the same. emit() then writes only what is
	 * the device's own, or small and shared (build keeps one copy), and
	 * neither depends on which devices came before: 10,000 hosts of one
	 * group fill their 10 KB lib and their group's body once. A push or a
	 * persistence payload takes a device's whole set (qg_emit_device()).
	 * NULL: emit() writes all of a device's files. Same returns as emit().
	 */
	int (*emit_group)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			  struct qg_outset *out);
	/*
	 * Read-back: given what the device printed (len bytes), append the
	 * fewest changes that bring it exactly to the model, one per line;
	 * nothing when in sync. Lines it could not read are warnings in d.
	 * -EINVAL when the text is not a read-back or holds what the target
	 * cannot judge (errors in d, at the read-back's lines): nothing is
	 * appended then. 0, -EINVAL or -ENOMEM. NULL: not supported.
	 */
	int (*diff)(const struct qg_model *m, size_t i, const char *readback, size_t len,
		    struct qg_buf *out, struct qg_diags *d);
	/*
	 * Rows for `qosgen explain`: how this target turns the policy into its
	 * own terms (commands, units, fixed names). NULL: none.
	 */
	void (*explain)(const struct qg_model *m, struct qg_explain_rows *x);
	/*
	 * The Ansible hand-off; NULL: its devices are not in the inventory.
	 * Targets that share one (the same text) share one play.
	 */
	const struct qg_handoff *handoff;
	/*
	 * What the target writes of the intent's optional features (QG_FEAT_*,
	 * model/target_features.h), and why it lacks some of the others: model/target_features.c
	 * turns a feature the intent gives and a used switch target lacks into
	 * "<key>: ignored by <name>: <reason>" (a warning an intent may
	 * acknowledge as ignored-by-<name>-<feature>), or "refused by" (an
	 * error) where its gap says refused. A target's check() keeps what is
	 * not a whole feature: a value out of its range, a share it cannot make.
	 * Read for switch targets only (the features are a switch's policy):
	 * host and DVS targets leave both unset.
	 */
	unsigned features;
	const struct qg_feature_gap *gaps; /* {0}-terminated; NULL: no reasons of its own */
	/*
	 * The device keys only this target's devices take (model/keys.h;
	 * paths relative to the device's entry: "netdev"), ending in a row
	 * whose path is NULL; NULL: none. Written once (issue 38): the loader
	 * takes the keys a device may hold and the required ones from them,
	 * refuses a key that another target takes and this one does not, reads
	 * each in row order and stores it where its row lands; the model's JSON
	 * writes a host's keys from them, and the JSON Schema of the intent
	 * (emit/keys_schema.c) a host entry's keys.
	 */
	const struct qg_key *key_rows;
};

#endif
