/* SPDX-License-Identifier: MIT */
/*
 * A switch OS's versions (issue 34): which a target writes, and the
 * dialects between them. An OS renames what qosgen owns between releases
 * (Cumulus Linux 5.15's `nv set qos roce state enabled` for the older
 * `enable on`), so a build is written for one version, the intent's
 * `os_version` or the target's newest, and a push first reads the running
 * version and refuses a switch that needs another dialect, before anything
 * is sent (targets/engine.c). Pure: the core compares versions, the
 * targets declare them (struct qg_target's versions) and their drivers
 * read them off the device.
 */
#ifndef QG_OSVERSION_H
#define QG_OSVERSION_H

#include <stdbool.h>
#include <stddef.h>

/* "3.10.4100" and a NUL, with room. */
#define QG_VERSION_LEN 24
/* At most four numbers: Onyx's 3.10.4100, Cumulus's 5.15.0, SONiC's 202311. */
#define QG_VERSION_RULE                                                                            \
	"an OS version: 1 to 4 numbers of up to 9 digits joined by dots (5.15, 3.10.4100, 202311)"
#define QG_VERSION_PATTERN "^[0-9]{1,9}(\\.[0-9]{1,9}){0,3}$"

/*
 * One dialect: what the OS speaks from version `since` on, until the next
 * dialect's since. change: what is different from the dialect before it, in
 * the OS's own words (the first dialect: what it is); source: the release
 * notes that say so.
 */
struct qg_dialect {
	const char *since;
	const char *name; /* short, for explain and messages: "roce-state" */
	const char *change;
	const char *source;
};

/*
 * The versions a target writes: from oldest to newest (each compared over
 * its own numbers: a newest of "5.15" takes 5.15.2), the newest the
 * default; and its dialects, ascending, the first one's since the oldest,
 * ending in a {0} row.
 */
struct qg_os_versions {
	const char *os; /* the OS's name in messages: "Cumulus Linux" */
	const char *oldest, *newest;
	const char *source; /* where the supported range comes from */
	const struct qg_dialect *dialects;
};

/* Whether s keeps QG_VERSION_RULE. */
bool qg_version_ok(const char *s);

/*
 * v against bound, over bound's numbers only (a missing number of v is 0):
 * <0, 0 or >0. "5.15.2" against "5.15" is 0; "5.9" against "5.15" is <0.
 * Both must keep QG_VERSION_RULE.
 */
int qg_version_cmp(const char *v, const char *bound);

/* Whether vs supports version v (oldest <= v <= newest). */
bool qg_os_version_supported(const struct qg_os_versions *vs, const char *v);

/* The dialect version v speaks: the last whose since v reaches; NULL below the oldest. */
const struct qg_dialect *qg_os_dialect(const struct qg_os_versions *vs, const char *v);

/*
 * Whether a switch built for version `built` can take a push while it runs
 * `running`: 0 when running is supported and speaks built's dialect, else -1
 * with why and the fix in msg (both versions named).
 */
int qg_os_version_match(const struct qg_os_versions *vs, const char *built, const char *running,
			char *msg, size_t cap);

#endif
