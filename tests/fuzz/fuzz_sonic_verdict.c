/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as what a SONiC switch answers the driver's
 * verdict and version commands (issue 34): `show version`, and
 * `sonic-db-dump -y` of APPL_DB and of STATE_DB, all untrusted.
 *
 * Oracles: a version read is six digits that keep QG_VERSION_RULE; a
 * parsed dump holds only objects of strings under bounded keys; the
 * verdict on it, against a fixed config_db of four ports, is consistent
 * (a PG held has a profile for its port's inputs with figures, a pending
 * one is what waiting is for) and every message built from it (the
 * refusal, the notes, a headroom warning) is printable ASCII and
 * NUL-terminated within its buffer, whatever the switch sent.
 */
#include "../../model/osversion.h"
#include "../../targets/sonic/sonic_verdict.h"
#include "../../targets/sonic/sonic_version.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Four ports as an MSN2700's config_db gives them: one without a cable, one admin down. */
static const char config_text[] =
    "{\"DEVICE_METADATA\": {\"localhost\": {\"buffer_model\": \"dynamic\"}},"
    " \"PORT\": {\"Ethernet0\": {\"speed\": \"10000\", \"mtu\": \"9216\", \"admin_status\": "
    "\"up\"}, \"Ethernet4\": {\"speed\": \"25000\", \"admin_status\": \"up\"},"
    " \"Ethernet8\": {\"speed\": \"40000\", \"admin_status\": \"up\", \"autoneg\": \"on\"},"
    " \"Ethernet12\": {\"speed\": \"50000\", \"admin_status\": \"down\"}},"
    " \"CABLE_LENGTH\": {\"AZURE\": {\"Ethernet0\": \"300m\", \"Ethernet8\": \"5m\", "
    "\"Ethernet12\": \"40m\"}}}";
static const char *const ports[] = {"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"};

static void fail(const char *what, const char *text)
{
	fprintf(stderr, "%s: %.300s\n", what, text);
	abort();
}

static void printable(const char *what, const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		fail(what, "not NUL-terminated");
	for (const char *p = s; *p; p++)
		if (!isprint((unsigned char)*p) && *p != '\n')
			fail(what, s);
}

static void check_version(const char *text, size_t len)
{
	char out[QG_VERSION_LEN], err[512];
	if (sonic_version_parse(text, len, out, sizeof(out), err, sizeof(err)) == 0) {
		if (strlen(out) != 6 || !qg_version_ok(out))
			fail("a release not of six digits", out);
	} else {
		printable("the version's error", err, sizeof(err));
	}
}

static void check_verdict(const cJSON *config, const cJSON *dump)
{
	struct sonic_verdict v;
	/* The same dump as APPL_DB and as STATE_DB: keys of both tables may be in it. */
	if (sonic_verdict_judge(ports, 4, 3, config, dump, dump, &v) != 0)
		return;
	for (size_t k = 0; k < v.n; k++) {
		const struct sonic_pg *p = &v.pg[k];
		printable("a PG's held profile", p->held, sizeof(p->held));
		printable("a PG's entry", p->entry, sizeof(p->entry));
		if (p->state == SONIC_PG_HELD && (!p->held[0] || p->fig.xoff < 0))
			fail("held without a profile's figures", p->port);
		if (k == 1 && p->state != SONIC_PG_NO_INPUT)
			fail("a port without a cable judged", p->port);
		if (k == 3 && p->state != SONIC_PG_DOWN)
			fail("an admin-down port judged", p->port);
		if (p->state == SONIC_PG_OVER &&
		    (p->max_headroom <= 0 || p->port_headroom < p->max_headroom))
			fail("over without the numbers", p->port);
	}
	char err[2048];
	size_t n = sonic_verdict_refused(&v, 3, err, sizeof(err));
	if (n)
		printable("the refusal", err, sizeof(err));
	if (n < 1) /* Ethernet4 has no cable length: always refused */
		fail("the port without a cable not refused", "");
	struct qg_buf w = {0};
	sonic_verdict_notes(&v, &w);
	struct sonic_figures want = {19456, 30720, 50176};
	for (size_t k = 0; k < v.n; k++)
		sonic_headroom_compare(&v.pg[k], &want, 5, &w);
	if (w.len) /* qg_buf keeps a NUL after its text */
		printable("the warnings", w.data, w.len + 1);
	qg_buf_free(&w);
	sonic_verdict_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	check_version(text, size);
	struct qg_diags d;
	qg_diags_init(&d, NULL);
	cJSON *dump = NULL;
	if (sonic_dbdump_parse(text, size, &dump, &d) == 0) {
		for (const cJSON *e = dump->child; e; e = e->next) {
			if (!cJSON_IsObject(e) || strlen(e->string) > SONIC_DUMP_KEY_MAX)
				fail("a dump entry not a bounded object", e->string);
			for (const cJSON *f = e->child; f; f = f->next)
				if (!cJSON_IsString(f))
					fail("a field not a string", f->string);
		}
		cJSON *config = cJSON_Parse(config_text);
		if (config)
			check_verdict(config, dump);
		cJSON_Delete(config);
		cJSON_Delete(dump);
	}
	qg_diags_free(&d);
	return 0;
}
