/* SPDX-License-Identifier: MIT */
/* SONiC's buffer manager's verdict: see sonic_verdict.h. */
#include "sonic_verdict.h"
#include "../../lib/strmap.h"
#include "sonic_readback.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_TABLE "BUFFER_PG_TABLE:"
#define PROFILE_TABLE "BUFFER_PROFILE_TABLE:"
#define LIMITS_TABLE "BUFFER_MAX_PARAM_TABLE|"
/* buffermgrdyn.h DEFAULT_MTU_STR: a port without an MTU is 9100, and a profile's name omits it */
#define DEFAULT_MTU "9100"

int sonic_dbdump_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d)
{
	*out = NULL;
	long i;
	cJSON *doc = sonic_json_object(text, len, "the JSON `sonic-db-dump -y` prints", &i, d);
	if (!doc)
		return -EINVAL;
	cJSON *hashes = cJSON_CreateObject();
	struct qg_strmap seen = {0};
	int rc = hashes ? 0 : -ENOMEM;
	for (cJSON *e = doc->child; e && !rc; e = e->next) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
		cJSON *value = cJSON_GetObjectItemCaseSensitive(e, "value");
		if (strlen(e->string) > SONIC_DUMP_KEY_MAX) {
			qg_error(d, (struct qg_pos){1, 1},
				 "a key of %zu bytes ('%.40s...'): no SONiC key is",
				 strlen(e->string), e->string);
			rc = -EINVAL;
			break;
		}
		int put = qg_strmap_put(&seen, e->string, e, NULL);
		if (put) {
			if (put == 1)
				qg_error(
				    d, (struct qg_pos){1, 1},
				    "key %.80s twice: which one the switch holds cannot be told",
				    e->string);
			rc = put == 1 ? -EINVAL : -ENOMEM;
			break;
		}
		if (!cJSON_IsObject(e) || !cJSON_IsString(type)) {
			qg_error(d, (struct qg_pos){1, 1},
				 "key %.80s is not {\"type\": ..., \"value\": ...}: is this "
				 "sonic-db-dump?",
				 e->string);
			rc = -EINVAL;
			break;
		}
		if (strcmp(type->valuestring, "hash"))
			continue; /* the producer's _KEY_SET and _DEL_SET sets */
		bool ok = cJSON_IsObject(value);
		for (const cJSON *f = ok ? value->child : NULL; f && ok; f = f->next)
			ok = cJSON_IsString(f) && strlen(f->valuestring) <= SONIC_DUMP_VALUE_MAX &&
			     strlen(f->string) <= SONIC_DUMP_KEY_MAX;
		if (!ok) {
			qg_error(d, (struct qg_pos){1, 1},
				 "hash %.80s's value is not an object of strings (names of at most "
				 "%d bytes, values of at most %d)",
				 e->string, SONIC_DUMP_KEY_MAX, SONIC_DUMP_VALUE_MAX);
			rc = -EINVAL;
			break;
		}
		/* Moved, not copied: the dump is read once. */
		cJSON *v = cJSON_DetachItemViaPointer(e, value);
		if (!cJSON_AddItemToObject(hashes, e->string, v)) {
			cJSON_Delete(v);
			rc = -ENOMEM;
		}
	}
	qg_strmap_free(&seen);
	cJSON_Delete(doc);
	if (rc) {
		cJSON_Delete(hashes);
		return rc;
	}
	*out = hashes;
	return 0;
}

/* s made printable into out (cap bytes): what the switch said, safe to show. */
static void printable(const char *s, char *out, size_t cap)
{
	size_t k = 0;
	for (; s && *s && k + 1 < cap; s++)
		out[k++] = isprint((unsigned char)*s) ? *s : '?';
	out[k] = '\0';
}

static const char *field(const cJSON *row, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(row, name);
	return cJSON_IsString(f) ? f->valuestring : NULL;
}

/* A byte count of the switch's: a whole number of up to 12 digits, else -1. */
static long bytes(const char *s)
{
	if (!s || !*s || strlen(s) > 12)
		return -1;
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	return strtol(s, NULL, 10);
}

/* The PGs of a PG key's range ("3", "3-4") into *lo..*hi: their number, 0 when not a range. */
static int pg_range(const char *r, int *lo, int *hi)
{
	char *e;
	long a = strtol(r, &e, 10), b = a;
	if (e == r || !isdigit((unsigned char)*r) || a > 63)
		return 0;
	if (*e == '-') {
		const char *s = e + 1;
		b = strtol(s, &e, 10);
		if (e == s || !isdigit((unsigned char)*s) || b < a || b > 63)
			return 0;
	}
	if (*e)
		return 0;
	*lo = (int)a;
	*hi = (int)b;
	return (int)(b - a + 1);
}

/*
 * Whether profile name n is a dynamic lossless profile for speed, cable and
 * mtu ("" for 9100): pg_lossless_<speed>_<cable>[_mtu<mtu>] then anything
 * (a threshold, a gearbox model, _8lane) and _profile. autoneg: the speed in
 * the name is the effective one, not config_db's, and is not compared.
 */
static bool profile_for(const char *n, const char *speed, const char *cable, const char *mtu,
			bool autoneg)
{
	static const char pre[] = "pg_lossless_", post[] = "_profile";
	size_t len = strlen(n);
	if (strncmp(n, pre, sizeof(pre) - 1) || len < sizeof(pre) + sizeof(post))
		return false;
	const char *p = n + sizeof(pre) - 1, *u = strchr(p, '_');
	if (!u || (!autoneg && ((size_t)(u - p) != strlen(speed) || strncmp(p, speed, u - p))))
		return false;
	p = u + 1;
	u = strchr(p, '_');
	if (!u || (size_t)(u - p) != strlen(cable) || strncmp(p, cable, u - p))
		return false;
	const char *want = *mtu && strcmp(mtu, DEFAULT_MTU) ? mtu : NULL;
	bool has = !strncmp(u, "_mtu", 4);
	if (!has != !want)
		return false;
	if (has) {
		size_t m = strspn(u + 4, "0123456789");
		if (m != strlen(want) || strncmp(u + 4, want, m))
			return false;
	}
	return len >= strlen(post) && !strcmp(n + len - strlen(post), post);
}

/* The cable length config_db gives port: any CABLE_LENGTH row's field (buffermgrd reads all). */
static const char *cable_of(const cJSON *config, const char *port)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(config, "CABLE_LENGTH");
	for (const cJSON *row = t ? t->child : NULL; row; row = row->next) {
		const char *c = field(row, port);
		if (c)
			return c;
	}
	return NULL;
}

/* Index of the ports: name -> its PG's verdict. */
static int index_ports(struct sonic_verdict *v, struct qg_strmap *m)
{
	for (size_t k = 0; k < v->n; k++)
		if (qg_strmap_put(m, v->pg[k].port, &v->pg[k], NULL) < 0)
			return -ENOMEM;
	return 0;
}

/*
 * One walk over APPL_DB's PGs: each port's, their profiles' sizes times the
 * PGs they cover, summed; and the profile of the entry covering the port's
 * PG (a range such as "3-4" included) into held[k], as APPL_DB spells it.
 */
static void port_sums(const cJSON *appl, const struct qg_strmap *ports, struct sonic_pg *first,
		      const char **held)
{
	for (const cJSON *e = appl ? appl->child : NULL; e; e = e->next) {
		if (strncmp(e->string, PG_TABLE, sizeof(PG_TABLE) - 1))
			continue;
		const char *key = e->string + sizeof(PG_TABLE) - 1, *colon = strrchr(key, ':');
		char port[64];
		if (!colon || (size_t)(colon - key) >= sizeof(port))
			continue;
		memcpy(port, key, colon - key);
		port[colon - key] = '\0';
		struct sonic_pg *p = qg_strmap_get(ports, port);
		const char *prof = field(e, "profile");
		if (!p || !prof)
			continue;
		int lo, hi, n = pg_range(colon + 1, &lo, &hi);
		if (!n)
			continue;
		if (lo <= p->pg && p->pg <= hi) {
			held[p - first] = prof;
			printable(key, p->entry, sizeof(p->entry));
		}
		char pk[sizeof(PROFILE_TABLE) + SONIC_DUMP_KEY_MAX];
		snprintf(pk, sizeof(pk), "%s%s", PROFILE_TABLE, prof);
		long size = bytes(field(cJSON_GetObjectItemCaseSensitive(appl, pk), "size"));
		if (size > 0 && p->port_headroom <= LONG_MAX / 128)
			p->port_headroom += size * n;
	}
}

/* PG p's verdict from config_db's inputs, its APPL_DB profile (prof) and the port's limit. */
static void judge_pg(struct sonic_pg *p, const char *prof, const cJSON *config, const cJSON *appl,
		     const cJSON *limits)
{
	const cJSON *row = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(config, "PORT"), p->port);
	const char *speed = field(row, "speed"), *mtu = field(row, "mtu"),
		   *admin = field(row, "admin_status"), *an = field(row, "autoneg"),
		   *cable = cable_of(config, p->port);
	printable(speed, p->speed, sizeof(p->speed));
	printable(cable, p->cable, sizeof(p->cable));
	printable(mtu, p->mtu, sizeof(p->mtu));
	char lk[sizeof(LIMITS_TABLE) + 64];
	snprintf(lk, sizeof(lk), LIMITS_TABLE "%s", p->port);
	p->max_headroom =
	    bytes(field(cJSON_GetObjectItemCaseSensitive(limits, lk), "max_headroom_size"));
	/* SAI: "For the platforms which don't have this limitation, 0 should be returned." */
	if (p->max_headroom == 0)
		p->max_headroom = -1;
	printable(prof, p->held, sizeof(p->held));
	if (prof) {
		char pk[sizeof(PROFILE_TABLE) + SONIC_DUMP_KEY_MAX];
		snprintf(pk, sizeof(pk), PROFILE_TABLE "%s", prof);
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(appl, pk);
		p->fig = (struct sonic_figures){bytes(field(pr, "xon")), bytes(field(pr, "xoff")),
						bytes(field(pr, "size"))};
	}
	/* buffermgrdyn.cpp handlePortTable: a port is admin down until admin_status is "up". */
	if (!admin || strcmp(admin, "up"))
		p->state = SONIC_PG_DOWN;
	else if (!speed || !*speed || !cable || !*cable || !strcmp(cable, "0m"))
		p->state = SONIC_PG_NO_INPUT;
	else if (!prof ||
		 !profile_for(prof, speed, cable, mtu ? mtu : "", an && !strcmp(an, "on")) ||
		 p->fig.xoff < 0)
		p->state = SONIC_PG_PENDING;
	else if (p->max_headroom > 0 && p->port_headroom >= p->max_headroom)
		p->state = SONIC_PG_OVER;
	else
		p->state = SONIC_PG_HELD;
}

int sonic_verdict_judge(const char *const *ports, size_t n, int pg, const cJSON *config,
			const cJSON *appl, const cJSON *limits, struct sonic_verdict *v)
{
	*v = (struct sonic_verdict){0};
	if (!n)
		return 0;
	v->pg = calloc(n, sizeof(*v->pg));
	if (!v->pg)
		return -ENOMEM;
	v->n = n;
	for (size_t k = 0; k < n; k++) {
		snprintf(v->pg[k].port, sizeof(v->pg[k].port), "%s", ports[k]);
		v->pg[k].pg = pg;
		v->pg[k].fig = (struct sonic_figures){-1, -1, -1};
	}
	struct qg_strmap m = {0};
	const char **held = calloc(n, sizeof(*held));
	if (!held || index_ports(v, &m)) {
		free(held);
		qg_strmap_free(&m);
		sonic_verdict_free(v);
		return -ENOMEM;
	}
	port_sums(appl, &m, v->pg, held);
	qg_strmap_free(&m);
	for (size_t k = 0; k < n; k++)
		judge_pg(&v->pg[k], held[k], config, appl, limits);
	free(held);
	return 0;
}

void sonic_verdict_free(struct sonic_verdict *v)
{
	free(v->pg);
	*v = (struct sonic_verdict){0};
}

bool sonic_verdict_pending(const struct sonic_verdict *v)
{
	for (size_t k = 0; k < v->n; k++)
		if (v->pg[k].state == SONIC_PG_PENDING)
			return true;
	return false;
}

static bool refused(const struct sonic_pg *p)
{
	return p->state == SONIC_PG_PENDING || p->state == SONIC_PG_NO_INPUT ||
	       p->state == SONIC_PG_OVER;
}

/* The port's limit and use, for a message: "; its max_headroom_size ...". */
static void limit_clause(const struct sonic_pg *p, char *out, size_t cap)
{
	if (p->max_headroom > 0 && p->port_headroom > 0)
		snprintf(out, cap,
			 "; its limit is max_headroom_size %ld bytes (STATE_DB "
			 "BUFFER_MAX_PARAM_TABLE|%s), of which its PGs in APPL_DB take %ld by "
			 "their profiles' sizes",
			 p->max_headroom, p->port, p->port_headroom);
	else if (p->max_headroom > 0)
		snprintf(out, cap,
			 "; its limit is max_headroom_size %ld bytes (STATE_DB "
			 "BUFFER_MAX_PARAM_TABLE|%s)",
			 p->max_headroom, p->port);
	else
		snprintf(
		    out, cap,
		    "; STATE_DB gives the port no max_headroom_size (BUFFER_MAX_PARAM_TABLE|%s)",
		    p->port);
}

/* Why the switch does not hold p, in buffermgrd's terms. */
static void say_one(const struct sonic_pg *p, int waited_s, char *out, size_t cap)
{
	char lim[256], inputs[96], within[32] = "";
	limit_clause(p, lim, sizeof(lim));
	if (waited_s > 0)
		snprintf(within, sizeof(within), " within %d s", waited_s);
	snprintf(inputs, sizeof(inputs), "speed %s, cable %s, MTU %s", p->speed, p->cable,
		 p->mtu[0] ? p->mtu : DEFAULT_MTU);
	if (p->state == SONIC_PG_NO_INPUT && !strcmp(p->cable, "0m"))
		snprintf(out, cap,
			 "%s's cable length is 0m, and SONiC's buffer manager keeps no lossless "
			 "PG on such a port (buffermgrdyn.cpp refreshPgsForPort): PG %d has no "
			 "headroom; give cable_length_m in the intent",
			 p->port, p->pg);
	else if (p->state == SONIC_PG_NO_INPUT)
		snprintf(out, cap,
			 "config_db gives %s no %s, and SONiC's buffer manager computes no "
			 "headroom without a port's speed and cable length (buffermgrdyn.cpp: "
			 "\"unable to calculate headroom\"): its lossless PG %d has none%s",
			 p->port, p->speed[0] ? "cable length (CABLE_LENGTH)" : "speed (PORT)",
			 p->pg, p->speed[0] ? "; give cable_length_m in the intent" : "");
	else if (p->state == SONIC_PG_OVER)
		snprintf(out, cap,
			 "%s's PGs hold %ld bytes of headroom in APPL_DB, at or over the port's "
			 "max_headroom_size %ld (STATE_DB BUFFER_MAX_PARAM_TABLE|%s): the ASIC "
			 "cannot hold them (PG %d: %s, xoff %ld, xon %ld, size %ld); a shorter "
			 "cable or fewer lossless PGs on the port",
			 p->port, p->port_headroom, p->max_headroom, p->port, p->pg, p->held,
			 p->fig.xoff, p->fig.xon, p->fig.size);
	else if (p->held[0])
		snprintf(out, cap,
			 "SONiC's buffer manager has not applied %s's lossless PG %d%s: "
			 "APPL_DB keeps BUFFER_PG_TABLE:%s on %s (xoff %ld, xon %ld, size %ld), "
			 "not a profile for config_db's %s%s; buffermgrd refuses, in its log only, "
			 "a PG whose port's accumulated headroom would reach the limit "
			 "(\"accumulative headroom size exceeds the limit\"): a shorter cable, a "
			 "lower speed or fewer lossless PGs on the port",
			 p->port, p->pg, within, p->entry, p->held, p->fig.xoff, p->fig.xon,
			 p->fig.size, inputs, lim);
	else
		snprintf(out, cap,
			 "SONiC's buffer manager has not applied %s's lossless PG %d%s: "
			 "APPL_DB has no BUFFER_PG_TABLE:%s:%d for config_db's %s%s; buffermgrd "
			 "refuses, in its log only, a PG whose port's accumulated headroom would "
			 "reach the limit (\"accumulative headroom size exceeds the limit\"): a "
			 "shorter cable, a lower speed or fewer lossless PGs on the port",
			 p->port, p->pg, within, p->port, p->pg, inputs, lim);
}

size_t sonic_verdict_refused(const struct sonic_verdict *v, int waited_s, char *err, size_t errlen)
{
	size_t n = 0, first = 0;
	for (size_t k = 0; k < v->n; k++)
		if (refused(&v->pg[k]) && !n++)
			first = k;
	if (!n)
		return 0;
	say_one(&v->pg[first], waited_s, err, errlen);
	if (n == 1)
		return n;
	size_t used = strlen(err);
	snprintf(err + used, errlen - used, " (and %zu more PGs:", n - 1);
	size_t listed = 0;
	for (size_t k = first + 1; k < v->n; k++) {
		if (!refused(&v->pg[k]))
			continue;
		used = strlen(err);
		if (++listed > 8) {
			snprintf(err + used, errlen - used, " ...");
			break;
		}
		snprintf(err + used, errlen - used, " %s", v->pg[k].port);
	}
	used = strlen(err);
	snprintf(err + used, errlen - used, ")");
	return n;
}

void sonic_verdict_notes(const struct sonic_verdict *v, struct qg_buf *warnings)
{
	for (size_t k = 0; k < v->n; k++)
		if (v->pg[k].state == SONIC_PG_DOWN)
			qg_buf_printf(
			    warnings,
			    "%s is admin down: SONiC's buffer manager gives its PGs no "
			    "headroom while it is (buffermgrdyn.cpp reclaims an admin-down "
			    "port's buffers), so whether lossless PG %d fits is known only "
			    "once it is up\n",
			    v->pg[k].port, v->pg[k].pg);
}

/* Whether have differs from want by more than pct percent of want. */
static bool beyond(long have, long want, int pct)
{
	if (have < 0 || want < 0)
		return false;
	long diff = have > want ? have - want : want - have;
	return diff * 100 > want * (long)pct;
}

int sonic_headroom_compare(const struct sonic_pg *p, const struct sonic_figures *want,
			   int tolerance_pct, struct qg_buf *warnings)
{
	if (p->state != SONIC_PG_HELD && p->state != SONIC_PG_OVER)
		return 0;
	if (!beyond(p->fig.xoff, want->xoff, tolerance_pct) &&
	    !beyond(p->fig.xon, want->xon, tolerance_pct) &&
	    !beyond(p->fig.size, want->size, tolerance_pct))
		return 0;
	qg_buf_printf(warnings,
		      "%s PG %d: the switch's own headroom (%s in APPL_DB: xoff %ld, xon %ld, "
		      "size %ld bytes) differs from qosgen's (xoff %ld, xon %ld, size %ld) by "
		      "more than %d %%: the switch holds its own figures; check the port's "
		      "speed, cable length and MTU, and the switch's model in the intent\n",
		      p->port, p->pg, p->held, p->fig.xoff, p->fig.xon, p->fig.size, want->xoff,
		      want->xon, want->size, tolerance_pct);
	return 1;
}

/* A row's field as a number, -1 when absent or not a number. */
static long field_number(const cJSON *row, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(row, name);
	char *end;
	if (!cJSON_IsString(f) || !f->valuestring[0])
		return -1;
	long v = strtol(f->valuestring, &end, 10);
	return *end || v < 0 ? -1 : v;
}

void sonic_pattern_note(const cJSON *config, int mtu, int small_pct, struct qg_buf *warnings)
{
	const cJSON *row = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(config, "LOSSLESS_TRAFFIC_PATTERN"), "AZURE");
	long have_mtu = field_number(row, "mtu"),
	     have_small = field_number(row, "small_packet_percentage");
	if (have_mtu < 0 || have_small < 0 || (have_mtu == mtu && have_small == small_pct))
		return;
	qg_buf_printf(
	    warnings,
	    "the switch's LOSSLESS_TRAFFIC_PATTERN|AZURE is mtu %ld, "
	    "small_packet_percentage %ld, where qosgen's headroom figures take mtu %d, "
	    "small_packet_percentage %d (SONiC's template since sonic-buildimage #20632): "
	    "buffermgrd sizes every lossless PG from it, so the switch's figures and its "
	    "budget are its own, not those check proved\n",
	    have_mtu, have_small, mtu, small_pct);
}
