/* SPDX-License-Identifier: MIT */
/*
 * Schema walk over the YAML tree. The shape and every rule follow
 * docs/intent.md (grown from shared/spec/intent.md); where that page says a
 * rule exists, a test in tests/golden/errors/ pins its diagnostic.
 *
 * Style of the walk: each load function takes a node and a path for
 * messages, reports everything wrong with it, and fills what it can, so that
 * one run reports every problem. Cross-references (dvs.hosts, verify.pairs)
 * are resolved after all hosts are read, whatever the key order in the file.
 * The walk is split along the intent's sections: intent_walk.c (keys and
 * scalars), intent_qos.c, intent_entry.c (what every device entry starts
 * with), intent_switches.c, intent_hosts.c, intent_dvs.c, intent_verify.c;
 * this file holds the top level and acknowledge.
 */
#include "intent.h"

#include "../model/bounds.h"
#include "intent_dvs.h"
#include "intent_entry.h"
#include "intent_hosts.h"
#include "intent_qos.h"
#include "intent_switches.h"
#include "intent_verify.h"
#include "intent_walk.h"
#include "../model/keys.h"
#include "../model/names.h"
#include "../lib/readfile.h"
#include "../model/warnings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * because: text for people, printed by explain as it is, so no control
 * character (C0, DEL, or C1 in UTF-8: some terminals obey those like ESC).
 */
static bool because_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f ||
		    (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f))
			return false;
	return n > 0 && n < QG_BECAUSE_LEN;
}

/* One acknowledge entry's warning name: a warning the intent can trigger (model/warnings.h). */
static enum qg_warning_id read_ack_name(struct walk *w, const struct qg_ynode *v, const char *path)
{
	if (!walk_expect_kind(w, v, QG_Y_SCALAR, path))
		return QG_W_NONE;
	char names[1024];
	qg_warning_acknowledgeable(names, sizeof(names));
	enum qg_warning_id id = qg_warnings_resolve(&w->m->warnings, v->value);
	const struct qg_warning_info *info = qg_warning_set_info(&w->m->warnings, id);
	if (!info) {
		char nearest[QG_WARNING_NAME_LEN];
		const char *near = qg_warning_nearest(v->value, nearest, sizeof(nearest));
		qg_error(w->d, v->pos,
			 "%s: unknown warning '%s'%s%s%s; the warnings an intent can "
			 "acknowledge: %s",
			 path, v->value, near ? " (did you mean '" : "", near ? near : "",
			 near ? "'?)" : "", names);
		return QG_W_NONE;
	}
	if (info->scope != QG_WS_INTENT) {
		qg_error(w->d, v->pos,
			 "%s: '%s' cannot be acknowledged: %s; the warnings an intent can "
			 "acknowledge: %s",
			 path, v->value,
			 info->scope == QG_WS_READBACK
			     ? "it is about a device's read-back, not the intent"
			     : "remove the acknowledgement it warns about instead",
			 names);
		return QG_W_NONE;
	}
	return id;
}

/*
 * acknowledge: a list of warning names, each a name or {warning: NAME,
 * because: TEXT}. Errors are not named, so none can be acknowledged.
 */
static void load_acknowledge(struct walk *w, const struct qg_ynode *n)
{
	struct qg_model *m = w->m;
	size_t count = 0;
	/* The row's text, by the check above: a struct qg_ack is no landing of the table's. */
	struct qg_key because = *qg_key_find("acknowledge[].because");
	because.ok = because_ok;
	because.size = sizeof(m->acks->because);
	if (!(m->acks = entry_alloc_list(w, n, "acknowledge", sizeof(*m->acks), &count)))
		return;
	for (size_t i = 0; i < n->n_kids; i++) {
		const struct qg_ynode *item = n->kids[i], *name = item, *why = NULL;
		char path[PATH_LEN], sub[PATH_LEN];
		snprintf(path, sizeof(path), "acknowledge[%zu]", i);
		snprintf(sub, sizeof(sub), "%s", path);
		if (item->kind == QG_Y_MAP) {
			walk_check_table_keys(w, item, path);
			walk_join(sub, path, "warning");
			name = walk_require(w, item, "warning", path);
			why = walk_get(item, "because");
		} else if (item->kind != QG_Y_SCALAR) {
			qg_error(w->d, item->pos,
				 "%s: expected a warning name or a mapping of warning and because, "
				 "got %s",
				 path, walk_kind_name(item));
			continue;
		}
		struct qg_ack a = {.pos = item->pos};
		if (!name || (a.warning = read_ack_name(w, name, sub)) == QG_W_NONE)
			continue;
		char bsub[PATH_LEN];
		walk_join(bsub, path, "because");
		if (why && !walk_read_str(w, why, bsub, &because, a.because))
			continue;
		bool twice = false;
		for (size_t k = 0; k < m->n_acks && !twice; k++) {
			if (m->acks[k].warning != a.warning)
				continue;
			twice = true;
			qg_error(w->d, name->pos, "%s: '%s' is acknowledged twice", sub,
				 name->value);
			qg_note(w->d, m->acks[k].pos, "first acknowledged here");
		}
		if (!twice)
			m->acks[m->n_acks++] = a;
	}
}

int qg_intent_load(const char *text, size_t len, const struct qg_target *const *targets,
		   struct qg_diags *d, struct qg_model *m)
{
	memset(m, 0, sizeof(*m));
	struct qg_ynode *root = qg_yaml_parse(text, len, d);
	if (!root) {
		if (d->errors == 0 && !d->oom)
			qg_error(d, (struct qg_pos){0},
				 "the intent file is empty; it needs at least version, fabric and "
				 "qos");
		return -1;
	}
	m->targets = targets;
	struct walk w = {.d = d, .m = m, .targets = targets};
	if (!walk_expect_kind(&w, root, QG_Y_MAP, "the intent file")) {
		qg_yaml_free(root);
		return -1;
	}
	/* The feature warnings' names, the model's own (model/warnings.h). */
	if (qg_warnings_make(&m->warnings, targets) != 0)
		d->oom = true;
	walk_check_table_keys(&w, root, "the intent file");
	const struct qg_ynode *v;
	if ((v = walk_require(&w, root, "version", "the intent file"))) {
		long ver;
		if (!walk_scalar_int(v, &ver) && walk_quoted_number(v) && !strcmp(v->value, "1"))
			qg_error(d, v->pos,
				 "version: got the quoted string '1'; quotes make a YAML value "
				 "text: write version: 1");
		else if (!walk_scalar_int(v, &ver) || ver != 1)
			qg_error(d, v->pos, "version: '%s' is not supported; the only version is 1",
				 v->kind == QG_Y_SCALAR ? v->value : walk_kind_name(v));
		else
			m->version = 1;
	}
	walk_load_key(&w, root, "the intent file", "fabric", m);
	if ((v = walk_require(&w, root, "qos", "the intent file")))
		intent_qos_load(&w, v, &m->qos);
	if ((v = walk_get(root, "switches")))
		intent_switches_load(&w, v);
	if (w.qos_read) {
		intent_qos_settle_switch_mtu(&w, &m->qos);
		m->qos.dscp_exact = m->qos.trust == QG_TRUST_DSCP && !qg_fabric_fixed_dscp_map(m);
	}
	if ((v = walk_get(root, "hosts")))
		intent_hosts_load(&w, v);
	if ((v = walk_get(root, "dvs")))
		intent_dvs_load(&w, v);
	intent_verify_load(&w, walk_get(root, "verify"));
	intent_qos_settle_pool(&w);
	if ((v = walk_get(root, "acknowledge")))
		load_acknowledge(&w, v);
	walk_settle_consequences(&w);
	/* The parse's own warnings; the targets' check()s' are the caller's (model/warnings.h). */
	qg_warnings_acknowledge(m, d, false);
	qg_strmap_free(&w.poisoned);
	free(w.patterns);
	qg_strmap_free(&w.names);
	qg_strmap_free(&w.hosts);
	qg_strmap_free(&w.endpoints);
	free(w.endpoint_keys);
	free(w.address_pos);
	free(w.uses);
	qg_yaml_free(root);
	if (d->errors || d->oom) {
		qg_model_free(m);
		return -1;
	}
	return 0;
}

int qg_intent_load_file(const char *path, const struct qg_target *const *targets,
			struct qg_diags *d, struct qg_model *m, char **text_out, size_t *len_out)
{
	memset(m, 0, sizeof(*m));
	size_t len = 0;
	int err = 0;
	char *text = qg_read_file(path, QG_YAML_MAX_BYTES, false, &len, &err);
	if (!text) {
		if (err == EFBIG) {
			qg_error(d, (struct qg_pos){0}, "intent file is larger than %u bytes",
				 QG_YAML_MAX_BYTES);
			return -1;
		}
		qg_error(d, (struct qg_pos){0}, "cannot read: %s",
			 err == EINVAL ? "not a regular file" : strerror(err));
		return -2;
	}
	int rc = qg_intent_load(text, len, targets, d, m);
	if (rc == 0)
		m->file = path;
	if (text_out && rc == 0) {
		*text_out = text;
		*len_out = len;
	} else {
		free(text);
	}
	return rc;
}
