/* SPDX-License-Identifier: MIT */
/* Shared by the unit tests: load intents from text or from examples/, read fixture files. */
#ifndef QG_TEST_HELPERS_H
#define QG_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../emit/build.h"
#include "../../intent/intent.h"
#include "../../lib/readfile.h"
#include "../../model/template.h"
#include "../../targets/common/host_script.h"
#include "../../targets/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A valid intent that the tests vary: the reference policy, no devices. */
#define BASE_QOS                                                                                   \
	"version: 1\n"                                                                             \
	"fabric: t\n"                                                                              \
	"qos:\n"                                                                                   \
	"  lossless:\n"                                                                            \
	"    priority: 3\n"                                                                        \
	"    dscp: [26]\n"                                                                         \
	"    pool: {name: roce, memory_percent: 50}\n"                                             \
	"    ecn: {min_kb: 150, max_kb: 1500}\n"                                                   \
	"  cnp: {priority: 6, dscp: 48, ets: strict}\n"

/* Load text; returns the load result; diagnostics stay in *d for inspection. */
static inline int load_text(const char *text, struct qg_diags *d, struct qg_model *m)
{
	qg_diags_init(d, "t.yaml");
	return qg_intent_load(text, strlen(text), qg_targets, d, m);
}

/* Load text that must be valid, with no diagnostics at all. */
static inline void load_ok(const char *text, struct qg_model *m)
{
	struct qg_diags d;
	int rc = load_text(text, &d, m);
	if (rc != 0 || d.n != 0)
		qg_diags_print(&d, stderr, false);
	assert_int_equal(rc, 0);
	qg_diags_free(&d);
}

/* True if some diagnostic's message contains needle. */
static inline bool diag_has(const struct qg_diags *d, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (strstr(d->v[i].msg, needle))
			return true;
	return false;
}

/* Load text that must fail with a diagnostic containing needle. */
static inline void load_fails_with(const char *text, const char *needle)
{
	struct qg_diags d;
	struct qg_model m;
	int rc = load_text(text, &d, &m);
	if (!diag_has(&d, needle)) {
		fprintf(stderr, "expected a diagnostic containing '%s', got:\n", needle);
		qg_diags_print(&d, stderr, false);
	}
	assert_int_equal(rc, -1);
	assert_true(diag_has(&d, needle));
	qg_diags_free(&d);
}

static inline void load_example(const char *name, struct qg_model *m)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/examples/%s", QG_SOURCE_DIR, name);
	struct qg_diags d;
	qg_diags_init(&d, path);
	int rc = qg_intent_load_file(path, qg_targets, &d, m, NULL, NULL);
	if (rc != 0)
		qg_diags_print(&d, stderr, false);
	assert_int_equal(rc, 0);
	qg_diags_free(&d);
}

/* A file under the source tree, read whole; must exist. */
static inline char *source_file(const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", QG_SOURCE_DIR, rel);
	size_t len;
	int err;
	char *text = qg_read_file(path, 1 << 20, false, &len, &err);
	if (!text)
		fprintf(stderr, "cannot read %s: %s\n", path, strerror(err));
	assert_non_null(text);
	return text;
}

/* Build a model with the built-in templates; the set must succeed. */
static inline void build_ok(const struct qg_model *m, struct qg_outset *out)
{
	struct qg_templates t;
	struct qg_diags d;
	qg_diags_init(&d, "t.yaml");
	assert_int_equal(qg_templates_load(&t, NULL, &d), 0);
	memset(out, 0, sizeof(*out));
	struct qg_checked ok;
	int rc = qg_build_check(m, &d, &ok);
	if (rc == 0)
		rc = qg_build(&ok, &t, &d, out);
	if (rc != 0)
		qg_diags_print(&d, stderr, false);
	assert_int_equal(rc, 0);
	qg_templates_free(&t);
	qg_diags_free(&d);
}

static inline const char *file_text(const struct qg_outset *o, const char *path)
{
	const struct qg_outfile *f = qg_outset_find(o, path);
	if (!f)
		fprintf(stderr, "no file %s in the build\n", path);
	assert_non_null(f);
	return f->data;
}

/*
 * The script host i runs (targets/common/host_script.h: its lib, part and
 * group body as one), kept in a buffer of the test's; freed at exit.
 */
static inline const char *host_script(const struct qg_model *m, size_t i, const struct qg_outset *o)
{
	static struct qg_buf b[8];
	static size_t next;
	struct qg_buf *x = &b[next++ % 8];
	qg_buf_free(x);
	assert_int_equal(host_script_assemble(m, i, o, x), 0);
	return x->data;
}

#endif
