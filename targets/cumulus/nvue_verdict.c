/* SPDX-License-Identifier: MIT */
/*
 * NVUE's verdict on what it applied (nvue_verdict.h). The status keys are the
 * RoCE page's `nv show qos roce` and `nv show interface <if> qos roce status`
 * rows (CumulusNetworks/docs content/cumulus-linux-56/ ... /RDMA-over-
 * Converged-Ethernet-RoCE.md, "Verify RoCE Configuration"; the same rows in
 * 5.15's page): mode, pfc pfc-priority, rx-enabled, tx-enabled,
 * congestion-control enabled-tc. Pure.
 */
#include "nvue_verdict.h"

#include "../../lib/errmsg.h"
#include "../../lib/escape.h"
#include "nvue_config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cJSON *at(const cJSON *o, const char *const *path)
{
	for (; o && *path; path++)
		o = cJSON_GetObjectItemCaseSensitive(o, *path);
	return o;
}

bool nvue_list_has(const cJSON *list, int n)
{
	if (cJSON_IsNumber(list))
		return list->valuedouble == n;
	if (cJSON_IsObject(list)) {
		/* A set as NVUE's JSON writes one ({"3": {}}), should the status come so. */
		char key[16];
		snprintf(key, sizeof(key), "%d", n);
		return cJSON_GetObjectItemCaseSensitive(list, key) != NULL;
	}
	const char *p = cJSON_GetStringValue(list);
	bool found = false;
	/* "0,3", "0-2,4": NVUE's lists as its show commands print them, read whole. */
	for (int items = 0; p && items < 64; items++) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return false;
		long lo = strtol(p, &end, 10), hi = lo;
		if (*end == '-' && isdigit((unsigned char)end[1]))
			hi = strtol(end + 1, &end, 10);
		found |= lo <= n && n <= hi;
		if (*end == '\0')
			return found;
		if (*end != ',')
			return false;
		p = end + 1;
	}
	return false;
}

/* What the switch shows, for a message: quoted, escaped, cut; "(none)" when absent. */
static void shown(const cJSON *v, char *out, size_t cap)
{
	char raw[48];
	if (!v) {
		snprintf(out, cap, "(none)");
		return;
	}
	if (cJSON_IsNumber(v))
		snprintf(raw, sizeof(raw), "%g", v->valuedouble);
	else if (cJSON_IsString(v))
		snprintf(raw, sizeof(raw), "%s", v->valuestring);
	else
		snprintf(raw, sizeof(raw), "(%s)", cJSON_IsObject(v) ? "an object" : "not text");
	char *esc = qg_escape(raw);
	snprintf(out, cap, "'%s'", esc ? esc : "?");
	free(esc);
}

/* A status word for "on": the global view says "enabled", a port's "yes" (RoCE page). */
static bool on_word(const cJSON *v)
{
	const char *s = cJSON_GetStringValue(v);
	return s && (!strcmp(s, "enabled") || !strcmp(s, "yes") || !strcmp(s, "enable") ||
		     !strcmp(s, "on"));
}

/* The lossless priority want puts PFC on: default-global's one switch-priority; -1 if none. */
static int want_priority(const cJSON *want)
{
	const cJSON *sp =
	    at(want, (const char *const[]){"qos", "pfc", NVUE_PROFILE, "switch-priority", NULL});
	return sp && sp->child && sp->child->string ? atoi(sp->child->string) : -1;
}

/* want's default-global PFC direction ("tx", "rx"): is it enabled? */
static bool want_pfc_on(const cJSON *want, const char *dir)
{
	const cJSON *v = at(want, (const char *const[]){"qos", "pfc", NVUE_PROFILE, dir, NULL});
	const char *s = cJSON_GetStringValue(v);
	return s && !strcmp(s, "enable");
}

/* The PFC rows of a status object (pfc: pfc-priority, rx-enabled, tx-enabled) against want. */
static int pfc_status(const cJSON *want, const char *where, const cJSON *pfc, char *err,
		      size_t errlen)
{
	int prio = want_priority(want);
	char got[64];
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(pfc, "pfc-priority");
	if (prio >= 0 && !nvue_list_has(p, prio)) {
		shown(p, got, sizeof(got));
		return qg_errf(err, errlen,
			       "NVUE's operational %s pfc pfc-priority is %s, where qos pfc "
			       "default-global switch-priority %d is applied: PFC is not running "
			       "on the lossless priority",
			       where, got, prio);
	}
	static const char *const dirs[][2] = {{"tx", "tx-enabled"}, {"rx", "rx-enabled"}};
	for (size_t i = 0; prio >= 0 && i < 2; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(pfc, dirs[i][1]);
		if (!want_pfc_on(want, dirs[i][0]) || on_word(v))
			continue;
		shown(v, got, sizeof(got));
		return qg_errf(
		    err, errlen,
		    "NVUE's operational %s pfc %s is %s, where qos pfc default-global %s "
		    "enable is applied",
		    where, dirs[i][1], got, dirs[i][0]);
	}
	return 0;
}

/* The traffic class want marks ECN on in default-global (the lossless class); -1 if none. */
static int want_ecn_tc(const cJSON *want)
{
	const cJSON *tcs = at(want, (const char *const[]){"qos", "congestion-control", NVUE_PROFILE,
							  "traffic-class", NULL});
	const cJSON *t;
	cJSON_ArrayForEach(t, tcs)
	{
		const char *ecn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "ecn"));
		if (ecn && !strcmp(ecn, "enable"))
			return atoi(t->string);
	}
	return -1;
}

int nvue_verdict_roce(const cJSON *want, const cJSON *roce, char *err, size_t errlen)
{
	char got[64];
	const char *mode =
	    cJSON_GetStringValue(at(want, (const char *const[]){"qos", "roce", "mode", NULL}));
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(roce, "mode");
	if (mode && !(cJSON_IsString(m) && !strcmp(m->valuestring, mode))) {
		shown(m, got, sizeof(got));
		return qg_errf(err, errlen,
			       "NVUE's operational RoCE mode (nv show qos roce) is %s, where qos "
			       "roce mode %s is applied",
			       got, mode);
	}
	if (pfc_status(want, "RoCE", cJSON_GetObjectItemCaseSensitive(roce, "pfc"), err, errlen))
		return -1;
	int tc = want_ecn_tc(want);
	const cJSON *tcs =
	    at(roce, (const char *const[]){"congestion-control", "enabled-tc", NULL});
	if (tc >= 0 && !nvue_list_has(tcs, tc)) {
		shown(tcs, got, sizeof(got));
		return qg_errf(
		    err, errlen,
		    "NVUE's operational RoCE congestion-control enabled-tc is %s, where "
		    "qos congestion-control default-global traffic-class %d ecn enable is "
		    "applied",
		    got, tc);
	}
	return 0;
}

int nvue_verdict_port(const cJSON *want, const char *port, const cJSON *status, char *err,
		      size_t errlen)
{
	char where[96];
	snprintf(where, sizeof(where), "interface %s qos roce status", port);
	return pfc_status(want, where, cJSON_GetObjectItemCaseSensitive(status, "pfc"), err,
			  errlen);
}

void nvue_headroom_compare(const struct nvue_headroom *h, size_t n, int tolerance_pct,
			   struct qg_buf *warnings)
{
	for (size_t i = 0; i < n; i++) {
		long want = h[i].expected_bytes, got = h[i].shown_bytes;
		long diff = got > want ? got - want : want - got;
		/* Beyond tolerance_pct of qosgen's figure, in whole bytes, without overflow. */
		if (want <= 0 || got < 0 ||
		    diff <= want / 100 * tolerance_pct + want % 100 * tolerance_pct / 100)
			continue;
		qg_buf_printf(warnings,
			      "%s: NVUE reserves %ld bytes of headroom for the lossless priority "
			      "group, qosgen computes %ld (%s by %ld, more than %d%%)\n",
			      h[i].port, got, want, got > want ? "more" : "less", diff,
			      tolerance_pct);
	}
}
