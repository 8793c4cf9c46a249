/* SPDX-License-Identifier: MIT */
/*
 * A device's desired state as ordered key = value pairs, e.g.
 * "mtu" = "9000", "pfc" = "0,0,0,1,0,0,0,0". One vocabulary serves plan.json,
 * the report lines of the host scripts ("[changed] mtu: 1500 -> 9000"), and
 * the read-back diff of `qosgen diff`/`push`, so a key means the same thing
 * everywhere. The keys of each target are listed in docs/intent.md.
 */
#ifndef QG_SETTINGS_H
#define QG_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

struct qg_kv {
	char *key;
	char *value;
};

struct qg_settings {
	struct qg_kv *v;
	size_t n, cap;
	bool oom;
};

void qg_settings_add(struct qg_settings *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* key = value, the key after prefix (NULL: none): what a walk per NIC adds, unformatted. */
void qg_settings_put(struct qg_settings *s, const char *prefix, const char *key,
		     const char *value);
const char *qg_settings_get(const struct qg_settings *s, const char *key);
void qg_settings_free(struct qg_settings *s);

/*
 * A value as JSON (plan.json, explain --json): a plain decimal ("9000",
 * "106", "50.00") is a JSON number written exactly as the target formatted
 * it (never through floating point, so never locale- or rounding-dependent);
 * anything else ("0x08", "1/1-1/32", "0,0,0,1,0,0,0,0", "00010000") is a
 * string. Numbers as numbers everywhere (issue 17): qos.mtu 9000 and a
 * device's mtu 9000 read the same.
 */
struct cJSON *qg_setting_json(const char *value);

#endif
