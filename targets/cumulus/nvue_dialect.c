/* SPDX-License-Identifier: MIT */
/*
 * Cumulus Linux's versions and NVUE dialects (nvue_dialect.h). Sources: the
 * CumulusNetworks/docs repository (the sources of docs.nvidia.com), read
 * release by release; docs/intent.md has the table and what was checked.
 */
#include "nvue_dialect.h"

#include "../../lib/errmsg.h"
#include "../../lib/escape.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Every path qosgen owns exists in NVUE's API from 5.6 on: qos mapping,
 * egress-queue-mapping, egress-scheduler, congestion-control, pfc,
 * traffic-pool from 5.3, the interface profile bindings from 5.3/5.4, qos
 * pfc-watchdog and interface qos pfc-watchdog state from 5.6 (the NVUE
 * reference, content/nvue-reference/Set-and-Unset-Commands/QoS.md, each
 * command's "Version History"; the 5.6 What's New: "QOS PFC watchdog").
 * Each release's "What's New" / "New and Changed NVUE Commands" was read up
 * to 5.16, the newest released (5.16.0 to 5.16.3 in its What's New).
 */
static const struct qg_dialect nvue_dialects[] = {
    {"5.6", "roce-enable",
     "RoCE is switched by `nv set qos roce enable on|off` (the API's qos.roce.enable)",
     "NVUE reference, QoS, nv set qos roce state: \"In Cumulus Linux 5.14 and earlier, you "
     "specify enable on or enable off\""},
    {"5.15", "roce-state",
     "`nv set qos roce enable on|off` became `nv set qos roce state enabled|disabled` (the "
     "API's qos.roce.state)",
     "Cumulus Linux 5.15 release notes, New and Changed NVUE Commands, Changes to Command "
     "Syntax, On/Off"},
    {0},
};

const struct qg_os_versions nvue_versions = {
    .os = "Cumulus Linux",
    .oldest = "5.6",
    .newest = "5.16",
    .source = "every NVUE path qosgen owns exists from 5.6; checked up to 5.16, docs/intent.md",
    .dialects = nvue_dialects,
};

enum nvue_dialect nvue_dialect_of(const char *os_version)
{
	const struct qg_dialect *d = os_version && qg_version_ok(os_version)
					 ? qg_os_dialect(&nvue_versions, os_version)
					 : NULL;
	if (!d)
		return NVUE_ROCE_STATE; /* the newest's: what a build without a version writes */
	return d == &nvue_dialects[0] ? NVUE_ROCE_ENABLE : NVUE_ROCE_STATE;
}

const char *nvue_roce_key(enum nvue_dialect d)
{
	return d == NVUE_ROCE_ENABLE ? "enable" : "state";
}

const char *nvue_roce_on(enum nvue_dialect d)
{
	return d == NVUE_ROCE_ENABLE ? "on" : "enabled";
}

/* The releases of dialect d, as the NVUE reference words them. */
static const char *span(enum nvue_dialect d)
{
	return d == NVUE_ROCE_ENABLE ? "5.14 and earlier" : "5.15 and later";
}

static const cJSON *roce_of(const cJSON *tree)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(tree, "qos"),
						"roce");
}

int nvue_dialect_judge(const cJSON *want, const cJSON *have, struct qg_diags *d)
{
	const cJSON *w = roce_of(want), *h = roce_of(have);
	if (!cJSON_IsObject(w) || !cJSON_IsObject(h))
		return 0;
	for (int i = 0; i < 2; i++) {
		enum nvue_dialect mine = i ? NVUE_ROCE_STATE : NVUE_ROCE_ENABLE,
				  theirs = i ? NVUE_ROCE_ENABLE : NVUE_ROCE_STATE;
		const char *key = nvue_roce_key(mine), *other = nvue_roce_key(theirs);
		if (!cJSON_GetObjectItemCaseSensitive(w, key) ||
		    !cJSON_GetObjectItemCaseSensitive(h, other) ||
		    cJSON_GetObjectItemCaseSensitive(h, key))
			continue;
		qg_error(
		    d, (struct qg_pos){0},
		    "the read-back's qos roce has '%s', which Cumulus Linux %s writes (the %s "
		    "dialect), where these files have '%s' (the %s dialect, Cumulus Linux %s): "
		    "set the switch's os_version in the intent to the version it runs "
		    "and build again",
		    other, span(theirs), nvue_dialects[theirs].name, key, nvue_dialects[mine].name,
		    span(mine));
		return 1;
	}
	return 0;
}

#define NVUE_BUILD_PREFIX "Cumulus Linux "

int nvue_build_version(const char *build, char *out, size_t cap)
{
	size_t len = strnlen(build, NVUE_BUILD_MAX + 1);
	size_t pre = strlen(NVUE_BUILD_PREFIX);
	if (len > NVUE_BUILD_MAX || len <= pre || strncmp(build, NVUE_BUILD_PREFIX, pre))
		return -1;
	const char *v = build + pre;
	size_t n = strspn(v, "0123456789.");
	/* "5.4.0c" (the 5.4 What's New: "Cumulus Linux 5.4.0c replaces ... 5.4.0b"): the letter
	 * goes. */
	size_t rest = strlen(v + n);
	if (rest > 1 || (rest == 1 && !islower((unsigned char)v[n])))
		return -1;
	if (n == 0 || n >= cap || n >= QG_VERSION_LEN)
		return -1;
	memcpy(out, v, n);
	out[n] = '\0';
	return qg_version_ok(out) ? 0 : -1;
}

int nvue_system_version(const cJSON *system, char *out, size_t cap, char *err, size_t errlen)
{
	const char *build = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(system, "build"));
	if (!build)
		return qg_errf(err, errlen,
			       "GET /nvue_v1/system answered no build (NVUE gives it as "
			       "\"build\": \"Cumulus Linux 5.4.0\")");
	if (nvue_build_version(build, out, cap) == 0)
		return 0;
	char shown[NVUE_BUILD_MAX + 1];
	snprintf(shown, sizeof(shown), "%s", build);
	char *esc = qg_escape(shown);
	qg_errf(err, errlen,
		"the switch's build '%s%s' is not a Cumulus Linux version (like "
		"'Cumulus Linux 5.15.0')",
		esc ? esc : "?", strlen(build) > NVUE_BUILD_MAX ? "..." : "");
	free(esc);
	return -1;
}
