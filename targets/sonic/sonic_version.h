/* SPDX-License-Identifier: MIT */
/*
 * The SONiC release a switch runs, off its `show version` (issue 34). Pure.
 *
 * sonic-utilities show/main.py version() prints "SONiC Software Version:
 * SONiC.<build_version>", build_version from /etc/sonic/sonic_version.yml.
 * sonic-buildimage functions.sh sonic_get_version() makes it: on a tag, the
 * tag; else "<branch>.<BUILD_NUMBER>-<commit>" (or "-dirty-<time>"), a
 * release branch named for its month (202311; files/image_config/
 * sonic_release holds the same name on each release branch). Vendors keep
 * the branch first and add their own tail: "202205.3-36b54da65_Internal"
 * (sonic-buildimage issue 11216), "202505_1.0.0-104". Microsoft's images
 * are tagged by date, "20201231.39", "20230531.22": the tags M.20201231.xx
 * and M.20220531.xx are on the 202012 and 202205 branches, and both
 * sonic-mgmt (tests/test_pretest.py, get_asic_and_branch_name: the
 * "official feature branch" SONiC.YYYYMMDD.NN) and sonic-utilities' GCU
 * (field_operation_validators.py: an 8-digit part compared against
 * "20220500") read the branch off the first six digits. Anything else
 * (master.921927-18199d73f, HEAD.32-21ea29a, internal.NNN, a private
 * "20250902_202505_counters..." image) names no release.
 *
 * The `release` field of sonic_version.yml is not read: it said 'none' on
 * 202106, 202111, 202205 and early 202405 images (sonic-buildimage issues
 * 9972, 11216, PR 19610), and config_db holds no version (DEVICE_METADATA
 * has none; VERSIONS|DATABASE is db_migrator's schema version).
 */
#ifndef QG_SONIC_VERSION_H
#define QG_SONIC_VERSION_H

#include <stddef.h>

/* The longest build_version taken: longer is not SONiC's and is refused. */
#define SONIC_BUILD_VERSION_MAX 128

/*
 * The release in text, `show version`'s output (any length: only its
 * lines are scanned), into out as model/osversion.h's QG_VERSION_RULE writes
 * it ("202311"): 0; or -1 with err saying why (no such line, or a build
 * of no release branch), the build version as the switch printed it,
 * cut and with anything but printable ASCII replaced.
 */
int sonic_version_parse(const char *text, size_t len, char *out, size_t cap, char *err,
			size_t errlen);

#endif
