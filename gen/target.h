/* SPDX-License-Identifier: MIT */
/*
 * The target interface. A target is one folder under targets/ and one const
 * struct qg_target; adding a target means adding its folder, one row in
 * gen/targets.c, and its sources in the Makefile, and touches nothing else.
 *
 * Order of calls for `qosgen build`: every target's check() first (a target
 * rejects what it cannot express before any file exists), then for every
 * device the target applies to: settings() and emit().
 */
#ifndef QG_TARGET_H
#define QG_TARGET_H

#include "diag.h"
#include "model.h"
#include "outset.h"
#include "settings.h"
#include "template.h"

#include <stdbool.h>
#include <stddef.h>

enum qg_device_kind { QG_DEVICE_SWITCH, QG_DEVICE_HOST, QG_DEVICE_DVS };

struct qg_ssh_opts;

/* How a push of one device ended. */
enum qg_push_state {
	QG_PUSH_IN_SYNC,      /* nothing to send */
	QG_PUSH_WOULD_CHANGE, /* --dry-run: differences found, nothing sent */
	QG_PUSH_CONVERGED,    /* sent, read back, in sync */
	QG_PUSH_RESTORED,     /* failed; what was applied was rolled back and verified */
	QG_PUSH_UNCHANGED,    /* failed before anything was sent (unreachable, refused key) */
	QG_PUSH_NOT_RESTORED, /* failed and the rollback could not be verified: look at it */
	QG_PUSH_PARTIAL,      /* a host: all it has is set, but some tool or knob is missing */
	/* a host: some settings failed (each reported); a switch: its undo could not be computed */
	QG_PUSH_FAILED,
	QG_PUSH_UNREACHABLE, /* never reached: connect, host key or login failed; nothing sent */
};

struct qg_push_result {
	enum qg_push_state state;
	int lines_planned;
	int lines_sent;
	int lines_rolled_back;
	char saved_as[64];  /* the named copy of the earlier configuration, if made */
	char message[1024]; /* what happened, one line */
	struct qg_buf sent; /* the configuration lines sent, in order */
};

/* What every emitter gets besides the model: no clock, no environment. */
struct qg_emit_ctx {
	const struct qg_templates *templates;
	const char *generator;	 /* "qosgen 0.1.0" */
	const char *intent_hash; /* sha256 hex of the normalised intent */
	struct qg_diags *d;	 /* template problems go here */
};

struct qg_target {
	const char *name;    /* "onyx", "linux", "esxi", "dvs" */
	const char *summary; /* one line, for `qosgen explain` and docs */
	enum qg_device_kind kind;
	/* Does this target handle device i of its kind? */
	bool (*applies)(const struct qg_model *m, size_t i);
	/* Report what this target cannot express (into the intent); NULL: it takes all. */
	void (*check)(const struct qg_model *m, struct qg_diags *d);
	/* The desired state of device i; 0 or -ENOMEM. */
	int (*settings)(const struct qg_model *m, size_t i, struct qg_settings *out);
	/* Add device i's files to out; 0, -ENOMEM, or -EINVAL after a template error. */
	int (*emit)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    struct qg_outset *out);
	/*
	 * Read-back: given what the device printed (for onyx, `show
	 * running-config`, len bytes), append the fewest commands that bring it
	 * exactly to the model, one per line; nothing when in sync. Lines it
	 * could not read are warnings in d. -EINVAL when the text is not a
	 * read-back or holds what the target cannot judge (errors in d, at the
	 * read-back's lines): nothing is appended then. 0, -EINVAL or -ENOMEM.
	 * NULL: not supported yet.
	 */
	int (*diff)(const struct qg_model *m, size_t i, const char *readback, size_t len,
		    struct qg_buf *out, struct qg_diags *d);
	/*
	 * Bring device i to the model over SSH, sending only the difference and
	 * leaving no device half-configured (see qg_push_state). Fills r; returns
	 * 0 when the device is in sync at the end, -1 otherwise. NULL: not yet.
	 */
	int (*push)(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    const struct qg_ssh_opts *o, bool dry_run, struct qg_push_result *r);
};

/* Set r->message, printf-style: one line saying what happened to the device. */
void qg_push_say(struct qg_push_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The registry, in emit order; NULL-terminated. */
extern const struct qg_target *const qg_targets[];

/* The target for device i of a kind, or NULL. */
const struct qg_target *qg_target_for(const struct qg_model *m, enum qg_device_kind kind, size_t i);
size_t qg_device_count(const struct qg_model *m, enum qg_device_kind kind);
const char *qg_device_name(const struct qg_model *m, enum qg_device_kind kind, size_t i);

/* Shared by the emitters: the header placeholders every template knows. */
#define QG_TVARS_HEADER(ctx, m)                                                                    \
	{"generator", (ctx)->generator}, {"intent_hash", (ctx)->intent_hash},                      \
	{                                                                                          \
		"fabric", (m)->fabric                                                              \
	}

/*
 * Append s as one shell word in single quotes. The intent's character sets
 * already keep quotes out; quoting anyway means a future, wider set cannot
 * open a hole.
 */
void qg_sh_word(struct qg_buf *b, const char *s);

/* Fill template `name` with vars and add the result as `path`. */
int qg_emit_template(const struct qg_emit_ctx *ctx, const char *name, const struct qg_tvar *vars,
		     size_t n_vars, const char *path, unsigned mode, struct qg_outset *out);

#endif
