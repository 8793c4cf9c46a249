/* SPDX-License-Identifier: MIT */
#include "build.h"
#include "settings.h"

#include "derive.h"
#include "handoff.h"
#include "hash.h"
#include "modeljson.h"
#include "target.h"
#include "version.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int qg_build_check(const struct qg_model *m, struct qg_diags *d)
{
	size_t before = d->errors;
	for (size_t t = 0; m->targets && m->targets[t]; t++)
		if (m->targets[t]->check && qg_target_used(m, m->targets[t]))
			m->targets[t]->check(m, d);
	return d->errors == before ? 0 : -1;
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

int qg_build(const struct qg_model *m, const struct qg_templates *t, struct qg_diags *d,
	     struct qg_outset *out)
{
	char hash[QG_SHA256_HEX];
	if (qg_model_hash(m, hash) != 0)
		return -ENOMEM;
	if (qg_build_check(m, d) != 0)
		return -1;

	struct qg_emit_ctx ctx = {
	    .templates = t, .generator = QG_GENERATOR, .intent_hash = hash, .d = d};
	cJSON *plan = cJSON_CreateObject();
	if (!plan)
		return -ENOMEM;
	cJSON_AddStringToObject(plan, "generator", QG_GENERATOR);
	cJSON_AddStringToObject(plan, "intent_sha256", hash);
	cJSON_AddStringToObject(plan, "fabric", m->fabric);
	cJSON_AddItemToObject(plan, "derived", derived_json(m));
	cJSON *devices = cJSON_AddArrayToObject(plan, "devices");

	int rc = 0;
	for (int kind = QG_DEVICE_SWITCH; kind <= QG_DEVICE_DVS && rc == 0; kind++) {
		for (size_t i = 0; i < qg_device_count(m, kind) && rc == 0; i++) {
			const struct qg_target *tg = qg_target_for(m, kind, i);
			if (!tg)
				continue;
			size_t first = out->n;
			rc = tg->emit(m, i, &ctx, out);
			if (rc)
				break;
			struct qg_settings set = {0};
			rc = tg->settings(m, i, &set);
			cJSON *dev = cJSON_CreateObject();
			cJSON_AddStringToObject(dev, "kind", kind_name[kind]);
			cJSON_AddStringToObject(dev, "name", qg_device_name(m, kind, i));
			cJSON_AddStringToObject(dev, "target", tg->name);
			cJSON *files = cJSON_AddArrayToObject(dev, "files");
			for (size_t f = first; f < out->n; f++)
				cJSON_AddItemToArray(files, file_json(&out->v[f]));
			cJSON *so = cJSON_AddObjectToObject(dev, "settings");
			for (size_t k = 0; k < set.n; k++)
				cJSON_AddItemToObject(so, set.v[k].key,
						      qg_setting_json(set.v[k].value));
			qg_settings_free(&set);
			cJSON_AddItemToArray(devices, dev);
		}
	}
	/*
	 * The fabric's files (the Ansible hand-off) belong to no one device:
	 * plan.json lists them in its own "files", after the devices.
	 */
	size_t fabric_first = out->n;
	if (rc == 0)
		rc = qg_handoff_emit(m, &ctx, out);
	if (rc == 0) {
		cJSON *files = cJSON_AddArrayToObject(plan, "files");
		for (size_t f = fabric_first; f < out->n; f++)
			cJSON_AddItemToArray(files, file_json(&out->v[f]));
		cJSON_AddItemToObject(plan, "intent", qg_model_json(m));
		char *text = cJSON_Print(plan);
		if (!text) {
			rc = -ENOMEM;
		} else {
			/* cJSON indents with tabs; a final newline keeps diffs and cat tidy. */
			size_t len = strlen(text);
			char *withnl = realloc(text, len + 2);
			if (!withnl) {
				free(text);
				rc = -ENOMEM;
			} else {
				withnl[len] = '\n';
				withnl[len + 1] = '\0';
				rc = qg_outset_add(out, "plan.json", withnl, len + 1, 0644);
			}
		}
	}
	cJSON_Delete(plan);
	if (rc == -EINVAL)
		return -1; /* a template problem, already reported */
	if (rc == 0)
		qg_outset_sort(out);
	return rc;
}
