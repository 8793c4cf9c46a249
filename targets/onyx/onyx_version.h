/* SPDX-License-Identifier: MIT */
/*
 * The Onyx releases qosgen writes (issue 34), and the running release read
 * off `show version`. docs/intent.md ("onyx: versions") has the table with
 * its sources.
 */
#ifndef QG_ONYX_VERSION_H
#define QG_ONYX_VERSION_H

#include "../../model/osversion.h"

#include <stddef.h>

/* struct qg_target's versions of the onyx target. */
extern const struct qg_os_versions onyx_os_versions;

/*
 * Pure: the release in `show version`'s "Product release:" line (text, or
 * the `| json-print` form's "Product release" key), len bytes, into out as
 * QG_VERSION_RULE writes it: "3.10.4606"; a build suffix ("3.7.0932-01") is
 * left off. 0, or -1 with why in err (no such line, or not a version).
 */
int onyx_version_parse(const char *text, size_t len, char *out, size_t cap, char *err,
		       size_t errlen);

#endif
