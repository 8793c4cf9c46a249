/* SPDX-License-Identifier: MIT */
#include "build.h"
#include "../model/bounds.h"
#include "../model/settings.h"

#include "../model/derive.h"
#include "../model/ets_check.h"
#include "handoff.h"
#include "headroom_report.h"
#include "../lib/hash.h"
#include "modeljson.h"
#include "../model/target.h"
#include "../lib/strmap.h"
#include "../lib/version.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int qg_build_check(const struct qg_model *m, struct qg_diags *d, struct qg_checked *ok)
{
	size_t before = d->errors;
	qg_handoff_check(m, d);
	qg_features_check(m, d);
	qg_ets_check(m, d);
	/* Two targets refusing one thing for one reason say it once (issue 37). */
	size_t from = d->n, n_names = 0;
	const char *names[32];
	for (size_t t = 0; m->targets && m->targets[t]; t++) {
		if (n_names < 32)
			names[n_names++] = m->targets[t]->name;
		if (m->targets[t]->check && qg_target_used(m, m->targets[t]))
			m->targets[t]->check(m, d);
	}
	qg_diags_merge_targets(d, from, names, n_names);
	/* Issue 34: every switch's lossless headroom against its budget, with its OS's figures. */
	qg_headroom_check(m, d);
	bool passed = d->errors == before;
	if (ok)
		ok->m = passed ? m : NULL;
	return passed ? 0 : -1;
}

static const char *const kind_name[] = {"switch", "host", "dvs"};

/* The derived values, once more in machine form, for push and verify. */
static cJSON *derived_json(const struct qg_model *m)
{
	const struct qg_qos *q = &m->qos;
	char pfc[16], bitmap[8];
	qg_pfc_vector(q->lossless.priority, pfc);
	snprintf(bitmap, sizeof(bitmap), "0x%02x", qg_pfc_bitmap(q->lossless.priority));
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "host_dscp", qg_host_dscp(q));
	cJSON_AddNumberToObject(o, "roce_tos", qg_roce_tos(q));
	cJSON_AddNumberToObject(o, "roce_tos_without_ecn", qg_roce_tos_without_ecn(q));
	cJSON_AddStringToObject(o, "pfc_vector", pfc);
	cJSON_AddStringToObject(o, "pfc_bitmap", bitmap);
	cJSON_AddNumberToObject(o, "roce_path_mtu", qg_roce_path_mtu(q->mtu));
	return o;
}

static cJSON *file_json(const struct qg_outfile *f)
{
	char hex[QG_SHA256_HEX], mode[8];
	qg_sha256_hex(f->data, f->len, hex);
	snprintf(mode, sizeof(mode), "%04o", f->mode);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", f->path);
	cJSON_AddStringToObject(o, "sha256", hex);
	cJSON_AddNumberToObject(o, "bytes", (double)f->len);
	cJSON_AddStringToObject(o, "mode", mode);
	return o;
}

/* Where a device's row of a table went: the table's index in out, the row's offset and length. */
struct row_at {
	size_t file, off, len;
};

/* A device's row of a table (QG_FILE_ROW): the table's path, the row's digest and length. */
static cJSON *row_json(const struct qg_outfile *f)
{
	char hex[QG_SHA256_HEX];
	qg_sha256_hex(f->data + f->head, f->len - f->head, hex);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "path", f->path);
	cJSON_AddStringToObject(o, "row_sha256", hex);
	cJSON_AddNumberToObject(o, "row_bytes", (double)(f->len - f->head));
	return o;
}

/*
 * A group of devices (struct qg_target's group()): its settings once, the
 * number of its devices, and its own files as plan.json lists them.
 */
struct group {
	char name[QG_GROUP_LEN];
	const struct qg_target *target;
	size_t n;
	struct qg_settings set;
	cJSON *files;
};

struct groups {
	struct group **v;
	size_t n, cap;
	struct qg_strmap by_name; /* keys: each group's own name */
};

static void groups_free(struct groups *g)
{
	for (size_t k = 0; k < g->n; k++) {
		qg_settings_free(&g->v[k]->set);
		cJSON_Delete(g->v[k]->files);
		free(g->v[k]);
	}
	free(g->v);
	qg_strmap_free(&g->by_name);
}

/* Group `name` of target t, made if new (*fresh then true); NULL when out of memory. */
static struct group *group_of(struct groups *g, const struct qg_target *t, const char *name,
			      bool *fresh)
{
	struct group *x = qg_strmap_get(&g->by_name, name);
	*fresh = !x;
	if (x)
		return x;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 8;
		struct group **v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		g->v = v;
		g->cap = cap;
	}
	x = calloc(1, sizeof(*x));
	if (!x || !(x->files = cJSON_CreateArray())) {
		free(x);
		return NULL;
	}
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->target = t;
	if (qg_strmap_put(&g->by_name, x->name, x, NULL) < 0) {
		cJSON_Delete(x->files);
		free(x);
		return NULL;
	}
	g->v[g->n++] = x;
	return x;
}

static bool settings_equal(const struct qg_settings *a, const struct qg_settings *b)
{
	if (a->n != b->n)
		return false;
	for (size_t k = 0; k < a->n; k++)
		if (strcmp(a->v[k].key, b->v[k].key) || strcmp(a->v[k].value, b->v[k].value))
			return false;
	return true;
}

static cJSON *settings_json(const struct qg_settings *set)
{
	cJSON *so = cJSON_CreateObject();
	for (size_t k = 0; k < set->n; k++)
		cJSON_AddItemToObject(so, set->v[k].key, qg_setting_json(set->v[k].value));
	return so;
}

/* Where build_devices() puts what it makes: out, plan.json's devices and its other parts. */
struct build_state {
	struct qg_outset *out;
	cJSON *devices;
	struct groups groups;
	size_t *shared, n_shared; /* out's indexes of the shared files */
	size_t bytes;		  /* written so far, against QG_OUTPUT_MAX */
	struct row_at *row_at[QG_DEVICE_DVS + 1];
	struct qg_handoff_row *rows[QG_DEVICE_DVS + 1];
};

/* Where one device's files go: its name (in messages), group, plan.json list, table row. */
struct device_place {
	const char *name;
	struct group *grp;
	cJSON *files;
	struct row_at *row;
};

/*
 * Move the files device `name` emitted (own) into out. Its own go into
 * `files` (plan.json's list under the device); a group's or a shared file is
 * added the first time and must be byte-identical every other time, its
 * index appended to *shared (a shared one) or its entry to grp->files. A
 * table's row is appended to the table, the header checked like a shared
 * file's, and listed under the device.
 * 0, -ENOMEM, -EEXIST (two devices' own files at one path) or -EINVAL (a
 * shared file that differs: a target's bug, reported to d).
 */
static int take_files(struct build_state *s, const struct device_place *place,
		      struct qg_outset *own, struct qg_diags *d)
{
	struct qg_outset *out = s->out;
	const char *name = place->name;
	struct group *grp = place->grp;
	cJSON *files = place->files;
	struct row_at *row = place->row;
	for (size_t k = 0; k < own->n; k++) {
		struct qg_outfile *f = &own->v[k];
		const struct qg_outfile *had = f->owner ? qg_outset_find(out, f->path) : NULL;
		if (had && f->owner == QG_FILE_ROW) {
			/* The table's header, as its first row wrote it; then this row. */
			if (had->owner != f->owner || had->head != f->head ||
			    memcmp(had->data, f->data, f->head) || had->mode != f->mode) {
				qg_error(d, (struct qg_pos){0},
					 "internal error: %s's %s has a header other than an "
					 "earlier device's; please report it",
					 name, f->path);
				return -EINVAL;
			}
			*row = (struct row_at){(size_t)(had - out->v), had->len, f->len - f->head};
			int rc = qg_outset_append(out, row->file, f->data + f->head, row->len);
			if (rc)
				return rc;
			s->bytes += row->len;
			cJSON_AddItemToArray(files, row_json(f));
			continue;
		}
		if (had) {
			if (had->owner != f->owner || had->len != f->len ||
			    memcmp(had->data, f->data, f->len) || had->mode != f->mode) {
				qg_error(d, (struct qg_pos){0},
					 "internal error: %s's %s differs from the one an earlier "
					 "device of the same %s wrote; please report it",
					 name, f->path,
					 f->owner == QG_FILE_GROUP ? "group" : "kind");
				return -EINVAL;
			}
			continue;
		}
		if (f->owner == QG_FILE_GROUP && !grp) {
			qg_error(d, (struct qg_pos){0},
				 "internal error: %s's %s is its group's, but it has no group; "
				 "please report it",
				 name, f->path);
			return -EINVAL;
		}
		int rc = qg_outset_add(out, f->path, f->data, f->len, f->mode);
		f->data = NULL; /* out owns it now, whatever rc says */
		if (rc)
			return rc;
		s->bytes += f->len;
		size_t at = out->n - 1;
		out->v[at].owner = f->owner;
		out->v[at].head = f->head;
		if (f->owner == QG_FILE_ROW) {
			*row = (struct row_at){at, f->head, out->v[at].len - f->head};
			cJSON_AddItemToArray(files, row_json(&out->v[at]));
		}
		if (f->owner == QG_FILE_DEVICE) {
			cJSON_AddItemToArray(files, file_json(&out->v[at]));
		} else if (f->owner == QG_FILE_GROUP) {
			cJSON_AddItemToArray(grp->files, file_json(&out->v[at]));
		} else {
			size_t *v = realloc(s->shared, (s->n_shared + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			s->shared = v;
			v[s->n_shared++] = at;
		}
	}
	return 0;
}

/*
 * Device i of a kind: its files into out, its entry into devices, its
 * settings into its group (the same as the group's first device's, or a
 * target's bug) or its entry.
 */
static int build_device(const struct qg_model *m, enum qg_device_kind kind, size_t i,
			const struct qg_emit_ctx *ctx, struct build_state *s)
{
	const struct qg_target *tg = qg_target_for(m, kind, i);
	const char *name = qg_device_name(m, kind, i);
	struct qg_outset own = {0};
	struct qg_settings set = {0};
	struct group *grp = NULL;
	bool fresh = false;
	int rc = 0;
	if (tg->group) {
		char gname[QG_GROUP_LEN] = "";
		tg->group(m, i, gname);
		grp = group_of(&s->groups, tg, gname, &fresh);
		rc = grp ? 0 : -ENOMEM;
	}
	if (rc == 0)
		rc = tg->emit(m, i, ctx, &own);
	/* A group's files once, from its first device: the same from any of them. */
	if (rc == 0 && tg->emit_group && (!grp || fresh))
		rc = tg->emit_group(m, i, ctx, &own);
	if (rc == 0)
		rc = tg->settings(m, i, &set);
	cJSON *dev = cJSON_CreateObject();
	cJSON_AddStringToObject(dev, "kind", kind_name[kind]);
	cJSON_AddStringToObject(dev, "name", name);
	cJSON_AddStringToObject(dev, "target", tg->name);
	if (grp)
		cJSON_AddStringToObject(dev, "group", grp->name);
	cJSON *files = cJSON_AddArrayToObject(dev, "files");
	cJSON_AddItemToArray(s->devices, dev);
	if (rc == 0)
		rc = take_files(s, &(struct device_place){name, grp, files, &s->row_at[kind][i]},
				&own, ctx->d);
	if (rc == 0 && !grp) {
		cJSON_AddItemToObject(dev, "settings", settings_json(&set));
	} else if (rc == 0 && fresh) {
		grp->set = set;
		set = (struct qg_settings){0};
	} else if (rc == 0 && !settings_equal(&grp->set, &set)) {
		qg_error(ctx->d, (struct qg_pos){0},
			 "internal error: %s's settings differ from those of group %s; please "
			 "report it",
			 name, grp->name);
		rc = -EINVAL;
	}
	/* Issue 34: a switch's headroom, so that a pull request shows a change of it. */
	if (rc == 0 && kind == QG_DEVICE_SWITCH)
		cJSON_AddItemToObject(dev, "headroom", qg_headroom_json(m, i));
	if (grp && rc == 0)
		grp->n++;
	qg_settings_free(&set);
	qg_outset_free(&own);
	return rc;
}

static int group_cmp(const void *a, const void *b)
{
	return strcmp((*(struct group *const *)a)->name, (*(struct group *const *)b)->name);
}

static cJSON *groups_json(struct groups *g)
{
	if (g->n > 1)
		qsort(g->v, g->n, sizeof(g->v[0]), group_cmp);
	cJSON *a = cJSON_CreateArray();
	for (size_t k = 0; k < g->n; k++) {
		struct group *x = g->v[k];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", x->name);
		cJSON_AddStringToObject(o, "target", x->target->name);
		cJSON_AddNumberToObject(o, "devices", (double)x->n);
		cJSON_AddItemToObject(o, "files", x->files);
		x->files = NULL;
		cJSON_AddItemToObject(o, "settings", settings_json(&x->set));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/*
 * An output past QG_OUTPUT_MAX (model/bounds.h), named at the device whose
 * files passed it (pos) or, for plan.json, at no line: -EINVAL, reported.
 * The intent's bounds keep a real fabric far below it; names and values at
 * their longest can still get there, and qosgen reads back no more than it.
 */
static int output_over(struct qg_diags *d, struct qg_pos pos, const char *name, size_t bytes)
{
	if (name)
		qg_error(d, pos,
			 "the output passes %u MiB at %s (%zu bytes so far); a build writes "
			 "at most %u MiB, which keeps it bounded (docs/intent.md, \"Bounds\")",
			 QG_OUTPUT_MAX >> 20, name, bytes, QG_OUTPUT_MAX >> 20);
	else
		qg_error(d, pos,
			 "the output with plan.json is %zu bytes; a build writes at most %u MiB, "
			 "which keeps it bounded (docs/intent.md, \"Bounds\")",
			 bytes, QG_OUTPUT_MAX >> 20);
	return -EINVAL;
}

static struct qg_pos device_pos(const struct qg_model *m, enum qg_device_kind kind, size_t i)
{
	return kind == QG_DEVICE_SWITCH ? m->switches[i].pos
	       : kind == QG_DEVICE_HOST ? m->hosts[i].pos
					: m->dvs[i].pos;
}

static int file_ptr_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct qg_outfile *const *)a)->path,
		      (*(const struct qg_outfile *const *)b)->path);
}

static void build_state_free(struct build_state *s)
{
	free(s->shared);
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS; kind++) {
		free(s->row_at[kind]);
		free(s->rows[kind]);
	}
	groups_free(&s->groups);
}

/*
 * Every device of every kind, in the model's order: its files into out, its
 * entry into devices; then each device's row of a table, now that no table
 * grows, for the hand-off (each host its own).
 */
static int build_devices(const struct qg_model *m, const struct qg_emit_ctx *ctx,
			 struct build_state *s)
{
	int rc = 0;
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS && rc == 0; kind++) {
		size_t n = qg_device_count(m, kind);
		s->row_at[kind] = calloc(n ? n : 1, sizeof(*s->row_at[kind]));
		s->rows[kind] = calloc(n ? n : 1, sizeof(*s->rows[kind]));
		if (!s->row_at[kind] || !s->rows[kind])
			rc = -ENOMEM;
		for (size_t i = 0; i < n && rc == 0; i++) {
			if (!qg_target_for(m, kind, i))
				continue;
			rc = build_device(m, kind, i, ctx, s);
			/* Stopped as soon as it passes: the bound is on memory and time too. */
			if (rc == 0 && s->bytes > QG_OUTPUT_MAX)
				rc = output_over(ctx->d, device_pos(m, kind, i),
						 qg_device_name(m, kind, i), s->bytes);
		}
	}
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS && rc == 0; kind++)
		for (size_t i = 0; i < qg_device_count(m, kind); i++)
			if (s->row_at[kind][i].len)
				s->rows[kind][i] = (struct qg_handoff_row){
				    s->out->v[s->row_at[kind][i].file].data +
					s->row_at[kind][i].off,
				    s->row_at[kind][i].len - 1};
	return rc;
}

/*
 * plan.json's "files": the files of no one device, the shared ones (out's
 * indexes in shared) and the fabric's (out's from fabric_first on), sorted
 * by path. out no longer grows until plan.json: pointers into it hold.
 */
static int plan_files(cJSON *plan, const struct qg_outset *out, const size_t *shared,
		      size_t n_shared, size_t fabric_first)
{
	size_t n_files = n_shared + (out->n - fabric_first);
	const struct qg_outfile **v = calloc(n_files ? n_files : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t k = 0; k < n_shared; k++)
		v[k] = &out->v[shared[k]];
	for (size_t k = fabric_first; k < out->n; k++)
		v[n_shared + k - fabric_first] = &out->v[k];
	qsort(v, n_files, sizeof(*v), file_ptr_cmp);
	cJSON *files = cJSON_AddArrayToObject(plan, "files");
	for (size_t k = 0; k < n_files; k++)
		cJSON_AddItemToArray(files, file_json(v[k]));
	free(v);
	return 0;
}

/* plan.json itself into out, the last file, within QG_OUTPUT_MAX with the others. */
static int plan_add(const cJSON *plan, struct qg_outset *out, size_t bytes, struct qg_diags *d)
{
	char *text = cJSON_Print(plan);
	if (!text)
		return -ENOMEM;
	/* cJSON indents with tabs; a final newline keeps diffs and cat tidy. */
	size_t len = strlen(text);
	char *withnl = realloc(text, len + 2);
	if (!withnl) {
		free(text);
		return -ENOMEM;
	}
	withnl[len] = '\n';
	withnl[len + 1] = '\0';
	int rc = qg_outset_add(out, "plan.json", withnl, len + 1, 0644);
	bytes += len + 1;
	if (rc == 0 && bytes > QG_OUTPUT_MAX)
		rc = output_over(d, (struct qg_pos){0}, NULL, bytes);
	return rc;
}

int qg_build(const struct qg_checked *c, const struct qg_templates *t, struct qg_diags *d,
	     struct qg_outset *out)
{
	const struct qg_model *m = c->m;
	if (!m)
		return -1;
	char hash[QG_SHA256_HEX];
	cJSON *intent = qg_model_json(m);
	if (qg_model_json_hash(intent, hash) != 0) {
		cJSON_Delete(intent);
		return -ENOMEM;
	}

	struct qg_emit_ctx ctx = {
	    .templates = t, .generator = QG_GENERATOR, .intent_hash = hash, .d = d, .built = out};
	cJSON *plan = cJSON_CreateObject();
	if (!plan) {
		cJSON_Delete(intent);
		return -ENOMEM;
	}
	cJSON_AddStringToObject(plan, "generator", QG_GENERATOR);
	cJSON_AddStringToObject(plan, "intent_sha256", hash);
	cJSON_AddStringToObject(plan, "fabric", m->fabric);
	cJSON_AddItemToObject(plan, "derived", derived_json(m));
	cJSON *devices = cJSON_AddArrayToObject(plan, "devices");

	struct build_state s = {.out = out, .devices = devices};
	int rc = build_devices(m, &ctx, &s);
	/*
	 * Groups (hosts alike but for who they are) with their settings and
	 * files, when the intent has any; then the files of no one device: the
	 * shared ones (a target's helper library) and the fabric's (the Ansible
	 * hand-off), sorted by path.
	 */
	if (rc == 0 && s.groups.n)
		cJSON_AddItemToObject(plan, "groups", groups_json(&s.groups));
	size_t fabric_first = out->n;
	if (rc == 0)
		rc = qg_handoff_emit(m, &ctx, s.rows, out);
	for (size_t k = fabric_first; rc == 0 && k < out->n; k++)
		s.bytes += out->v[k].len;
	if (rc == 0)
		rc = plan_files(plan, out, s.shared, s.n_shared, fabric_first);
	if (rc == 0) {
		cJSON_AddItemToObject(plan, "intent", intent);
		intent = NULL;
		rc = plan_add(plan, out, s.bytes, d);
	}
	build_state_free(&s);
	cJSON_Delete(intent);
	cJSON_Delete(plan);
	if (rc == -EINVAL)
		return -1; /* a template problem or a target's bug, already reported */
	if (rc == 0)
		qg_outset_sort(out);
	return rc;
}
