/* SPDX-License-Identifier: MIT */
/*
 * Cumulus Linux's versions and the NVUE dialects between them (issue 34):
 * which releases the cumulus target writes, what each release calls the
 * paths qosgen owns, and the running version as NVUE's system API says it.
 * The table, its sources and the paths checked without a change are in
 * docs/intent.md ("Cumulus Linux versions and NVUE dialects"). Pure.
 */
#ifndef QG_NVUE_DIALECT_H
#define QG_NVUE_DIALECT_H

#include "../../model/diag.h"
#include "../../model/osversion.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* The versions the cumulus target writes and its dialects (struct qg_target's versions). */
extern const struct qg_os_versions nvue_versions;

/* The dialects, in the order of nvue_versions' table. */
enum nvue_dialect {
	NVUE_ROCE_ENABLE, /* 5.6 to 5.14: qos roce enable on|off */
	NVUE_ROCE_STATE,  /* 5.15 and later: qos roce state enabled|disabled */
};

/*
 * The dialect a build for os_version writes: the loader keeps os_version
 * within nvue_versions (the newest when the intent gives none); a model
 * made without the loader (os_version "") gets the newest's.
 */
enum nvue_dialect nvue_dialect_of(const char *os_version);

/* qos roce's on switch in dialect d: its key ("enable", "state") and value ("on", "enabled"). */
const char *nvue_roce_key(enum nvue_dialect d);
const char *nvue_roce_on(enum nvue_dialect d);

/*
 * A read-back in another dialect than want's: qos roce keyed as the other
 * dialect keys it (`enable` where want says `state`, or the reverse), which
 * only a switch of another release writes. One error in d naming both
 * dialects and the fix; returns the number of errors (0 or 1).
 */
int nvue_dialect_judge(const cJSON *want, const cJSON *have, struct qg_diags *d);

/* NVUE's system answer is read at most this far: "Cumulus Linux 5.15.0" and a suffix. */
#define NVUE_BUILD_MAX 64

/*
 * The version in NVUE's build text, "Cumulus Linux 5.4.0" (GET /nvue_v1/system's
 * `build`; `nv show system`'s build row): its numbers in QG_VERSION_RULE form
 * into out ("5.4.0"), a maintenance letter dropped ("5.4.0c": the 5.4 What's
 * New). 0, or -1 when build is no such text.
 */
int nvue_build_version(const char *build, char *out, size_t cap);

/*
 * The running version from GET /nvue_v1/system's answer: 0 with the version
 * in out, or -1 with why in err (no `build`, or one that is no Cumulus Linux
 * version), the switch's text shown escaped and cut.
 */
int nvue_system_version(const cJSON *system, char *out, size_t cap, char *err, size_t errlen);

#endif
