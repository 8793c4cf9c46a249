/* SPDX-License-Identifier: MIT */
/* The Onyx releases qosgen writes, and `show version`: see onyx_version.h. */
#include "onyx_version.h"

#include <stdio.h>
#include <string.h>

/*
 * One dialect. The newest of the commands qosgen writes is basic buffer
 * mode's traffic pool: `traffic pool <name>`, `type`, `map switch-priority`
 * all carry "History 3.6.5000" on the Shared Buffer Commands page of every
 * Onyx User Manual held (v3.10.4100, 4206, 4408, 4504, 4606, 4706 LTS); the
 * interface ranges qosgen writes (`interface ethernet 1/1-1/32 ...`) date
 * from 3.2.1100 ("Added range support", Ethernet Interface Commands, same
 * manuals). Those History rows show no later change of the syntax qosgen
 * writes, nor do the mellanox.onyx modules that send the same lines
 * (onyx_buffer_pool, onyx_qos tested on 3.6.8130, onyx_traffic_class on
 * 3.6.4000) carry a version switch for them. The one version switch they do
 * carry, ONYX_API_VERSION 3.6.6000 (module_utils/network/onyx/onyx.py), is
 * the shape of `show dcb priority-flow-control | json-print`, a read, which
 * onyx_oper.c takes in both shapes: not a dialect of what is written.
 */
static const struct qg_dialect onyx_dialects[] = {
    {"3.6.5000", "traffic-pool",
     "basic buffer mode's traffic pools (traffic pool NAME type, memory percent, map "
     "switch-priority), interface ranges, per-interface traffic-class congestion-control ecn "
     "and dcb ets, qos trust, mtu force, configuration write to NAME no-switch",
     "NVIDIA Onyx User Manual v3.10.4100 to v3.10.4706 LTS, Shared Buffer Commands (History "
     "3.6.5000) and Ethernet Interface Commands (range support 3.2.1100)"},
    {0},
};

const struct qg_os_versions onyx_os_versions = {
    .os = "Onyx",
    .oldest = "3.6.5000",
    .newest = "3.10.4706",
    .source = "Onyx User Manual v3.10.4706 LTS, Shared Buffer Commands: traffic pools from "
	      "3.6.5000; 3.10.4706 the newest manual",
    .dialects = onyx_dialects,
};

/* The value after key on a line: `Product release:   3.6.5000` or `"Product release": "..."`. */
static const char *value_after(const char *line, const char *end, const char *key)
{
	size_t klen = strlen(key);
	const char *p = line;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '"'))
		p++;
	if ((size_t)(end - p) < klen || memcmp(p, key, klen))
		return NULL;
	p += klen;
	if (p < end && *p == '"')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p != ':')
		return NULL;
	for (p++; p < end && (*p == ' ' || *p == '\t' || *p == '"'); p++)
		;
	return p;
}

int onyx_version_parse(const char *text, size_t len, char *out, size_t cap, char *err,
		       size_t errlen)
{
	const char *end = text + len;
	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		const char *v = value_after(line, stop, "Product release");
		if (v) {
			/* The release's numbers and dots; a build suffix ("-01") is not compared.
			 */
			size_t n = 0;
			while (v + n < stop && ((v[n] >= '0' && v[n] <= '9') || v[n] == '.'))
				n++;
			while (n > 0 && v[n - 1] == '.')
				n--;
			char got[QG_VERSION_LEN + 8];
			snprintf(got, sizeof(got), "%.*s",
				 (int)(n < sizeof(got) ? n : sizeof(got) - 1), v);
			size_t shown = (size_t)(stop - v);
			while (shown > 0 && (v[shown - 1] == '\r' || v[shown - 1] == '"' ||
					     v[shown - 1] == ',' || v[shown - 1] == ' '))
				shown--;
			if (n == 0 || n >= QG_VERSION_LEN || !qg_version_ok(got)) {
				snprintf(
				    err, errlen,
				    "its 'Product release' is '%.*s', not a release qosgen reads "
				    "(%s)",
				    (int)(shown < 40 ? shown : 40), v, QG_VERSION_RULE);
				return -1;
			}
			snprintf(out, cap, "%s", got);
			return 0;
		}
		line = nl ? nl + 1 : end;
	}
	snprintf(err, errlen, "'show version' printed no 'Product release:' line");
	return -1;
}
