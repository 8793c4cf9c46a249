/* SPDX-License-Identifier: MIT */
/*
 * VMwareDVSConfigSpec after the vSphere Web Services API reference (pyvmomi
 * docs/vim/DistributedVirtualSwitch/ConfigSpec.rst, shared/notes/targets.md §4).
 * Field order follows the vim25 schema's sequence: the DVSConfigSpec fields
 * (configVersion, ..., uplinkPortPolicy, ...) come before the
 * VMwareDVSConfigSpec extension fields (..., maxMtu, ...); a server that
 * validates against the WSDL rejects them out of order.
 *
 * Host membership needs the hosts' managed-object ids, which only vCenter
 * knows, so it is not in the request body: the push resolves it, and the
 * govc script does it with `dvs.add`.
 */
#include "dvs.h"
#include "../../gen/escape.h"
#include "dvs_push.h"

#include <errno.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dvs_settings(const struct qg_model *m, size_t i, struct qg_settings *out)
{
	const struct qg_dvs *s = &m->dvs[i];
	qg_settings_add(out, "vcenter", "%s", s->vcenter);
	qg_settings_add(out, "datacenter", "%s", s->datacenter);
	qg_settings_add(out, "maxMtu", "%d", s->mtu);
	qg_settings_add(out, "uplinks", "%d", s->uplinks);
	if (s->portgroup[0])
		qg_settings_add(out, "portgroup", "%s", s->portgroup);
	for (size_t k = 0; k < s->n_hosts; k++) {
		const struct qg_host *h = &m->hosts[s->hosts[k]];
		char key[QG_NAME_LEN + 8];
		snprintf(key, sizeof(key), "host.%s", h->name);
		qg_settings_add(out, key, "%s", h->uplink);
	}
	return out->oom ? -ENOMEM : 0;
}

#define X(s) ((const xmlChar *)(s))

/*
 * XML 1.0 (2.5) forbids "--" inside a comment and a comment ending in '-',
 * and escapes nothing there; libxml2 writes what it is given. The names
 * rules allow "a--b" for a fabric or a DVS, so every '-' that follows a '-'
 * is written "\x2d" (gen/escape.c's form for a byte), and a space closes a
 * trailing '-'. A name without "--" reads as it is; the file's own name
 * keeps the real one.
 */
static char *comment_text(const char *s)
{
	struct qg_buf b = {0};
	for (const char *p = s; *p; p++) {
		if (*p == '-' && p > s && p[-1] == '-')
			qg_buf_puts(&b, "\\x2d");
		else
			qg_buf_append(&b, p, 1);
	}
	if (b.len && b.data[b.len - 1] == '-')
		qg_buf_puts(&b, " ");
	return qg_buf_steal(&b, NULL);
}

char *dvs_reconfigure_xml(const struct qg_model *m, size_t i, const char *comment, size_t *len)
{
	const struct qg_dvs *s = &m->dvs[i];
	char *result = NULL;
	xmlDocPtr doc = xmlNewDoc(X("1.0"));
	xmlNodePtr env = doc ? xmlNewNode(NULL, X("Envelope")) : NULL;
	if (!env)
		goto out;
	xmlDocSetRootElement(doc, env);
	xmlNsPtr soap = xmlNewNs(env, X(DVS_NS_SOAP), X("soapenv"));
	xmlNsPtr xsi = xmlNewNs(env, X(DVS_NS_XSI), X("xsi"));
	xmlSetNs(env, soap);
	char *text = comment_text(comment);
	xmlNodePtr note = text ? xmlNewDocComment(doc, X(text)) : NULL;
	free(text);
	if (!note || !xmlAddPrevSibling(env, note))
		goto out;

	xmlNodePtr body = xmlNewChild(env, soap, X("Body"), NULL);
	xmlNodePtr op = body ? xmlNewChild(body, NULL, X("ReconfigureDvs_Task"), NULL) : NULL;
	if (!op)
		goto out;
	xmlNsPtr vim = xmlNewNs(op, X(DVS_NS_VIM), NULL);
	xmlSetNs(op, vim);
	xmlNodePtr self = xmlNewChild(op, vim, X("_this"), NULL);
	xmlNodePtr spec = xmlNewChild(op, vim, X("spec"), NULL);
	if (!self || !spec || !xmlNewNsProp(spec, xsi, X("type"), X("VMwareDVSConfigSpec")))
		goto out;
	if (!xmlNewChild(spec, vim, X("configVersion"), NULL))
		goto out;
	xmlNodePtr up = xmlNewChild(spec, vim, X("uplinkPortPolicy"), NULL);
	if (!up || !xmlNewNsProp(up, xsi, X("type"), X("DVSNameArrayUplinkPortPolicy")))
		goto out;
	for (int k = 1; k <= s->uplinks; k++) {
		/* vCenter's own names for uplinks: "Uplink 1", "Uplink 2", ... */
		char name[16];
		snprintf(name, sizeof(name), "Uplink %d", k);
		if (!xmlNewTextChild(up, vim, X("uplinkPortName"), X(name)))
			goto out;
	}
	char mtu[16];
	snprintf(mtu, sizeof(mtu), "%d", s->mtu);
	if (!xmlNewTextChild(spec, vim, X("maxMtu"), X(mtu)))
		goto out;

	xmlChar *mem = NULL;
	int size = 0;
	xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
	if (mem && size > 0) {
		result = malloc((size_t)size + 1);
		if (result) {
			memcpy(result, mem, (size_t)size);
			result[size] = '\0';
			*len = (size_t)size;
		}
	}
	xmlFree(mem);
out:
	xmlFreeDoc(doc);
	return result;
}

/* The govc commands: create or change the switch, its portgroup, its hosts. */
static void govc_body(const struct qg_model *m, size_t i, struct qg_buf *b)
{
	const struct qg_dvs *s = &m->dvs[i];
	qg_buf_printf(b,
		      "if qg_exists \"$dvs\"; then\n"
		      "\tgovc dvs.change -mtu %d \"$dvs\"\n"
		      "\techo \"[ok] dvs: $dvs exists; maxMtu set to %d\"\n"
		      "else\n"
		      "\tgovc dvs.create -mtu %d -num-uplinks %d \"$dvs\"\n"
		      "\techo \"[changed] dvs: created $dvs\"\n"
		      "fi\n",
		      s->mtu, s->mtu, s->mtu, s->uplinks);
	if (s->portgroup[0]) {
		qg_buf_puts(b, "pg=");
		qg_sh_word(b, s->portgroup);
		qg_buf_puts(b, "\nif qg_exists \"$pg\"; then\n"
			       "\techo \"[ok] portgroup: $pg exists\"\n"
			       "else\n"
			       "\tgovc dvs.portgroup.add -dvs \"$dvs\" \"$pg\"\n"
			       "\techo \"[changed] portgroup: created $pg\"\n"
			       "fi\n");
	}
	for (size_t k = 0; k < s->n_hosts; k++) {
		const struct qg_host *h = &m->hosts[s->hosts[k]];
		/* The host's inventory name is the address vCenter knows it by. */
		qg_buf_puts(b, "host=$(govc find / -type h -name ");
		qg_sh_word(b, h->address);
		qg_buf_puts(b, ")\nif [ -z \"$host\" ]; then\n\techo \"[failed] host.");
		qg_buf_puts(b, h->name);
		qg_buf_puts(b, ": no host ");
		qg_buf_puts(b, h->address);
		qg_buf_puts(
		    b, " in the inventory\" >&2\n\texit 1\nfi\ngovc dvs.add -dvs \"$dvs\" -pnic ");
		qg_sh_word(b, h->uplink);
		qg_buf_puts(b, " \"$host\"\necho \"[ok] host.");
		qg_buf_puts(b, h->name);
		qg_buf_puts(b, ": ");
		qg_buf_puts(b, h->uplink);
		qg_buf_puts(b, " on $dvs\"\n");
	}
}

static int dvs_emit(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
		    struct qg_outset *out)
{
	const struct qg_dvs *s = &m->dvs[i];
	char comment[512], path[QG_LABEL_LEN + 16];
	snprintf(comment, sizeof(comment),
		 " %s: ReconfigureDvs_Task for DVS %s, fabric %s\n"
		 "     intent sha256:%s\n"
		 "     Generated: edit the intent, not this file. qosgen push fills in _this and\n"
		 "     configVersion from vCenter just before it sends the request. ",
		 ctx->generator, s->name, m->fabric, ctx->intent_hash);
	size_t len = 0;
	char *xml = dvs_reconfigure_xml(m, i, comment, &len);
	if (!xml)
		return -ENOMEM;
	snprintf(path, sizeof(path), "dvs/%s.xml", s->name);
	int rc = qg_outset_add(out, path, xml, len, 0644);
	if (rc)
		return rc;

	struct qg_buf body = {0}, url = {0}, dc = {0}, name = {0};
	govc_body(m, i, &body);
	/* An IPv6 literal goes in brackets in a URL. */
	bool v6 = strchr(s->vcenter, ':') != NULL;
	qg_buf_printf(&url, "https://%s%s%s/sdk", v6 ? "[" : "", s->vcenter, v6 ? "]" : "");
	qg_sh_word(&dc, s->datacenter);
	qg_sh_word(&name, s->name);
	rc = -ENOMEM;
	if (!body.failed && !url.failed && !dc.failed && !name.failed) {
		const struct qg_tvar vars[] = {
		    QG_TVARS_HEADER(ctx, m), {"dvs", s->name},		{"dvs_word", name.data},
		    {"datacenter", dc.data}, {"vcenter_url", url.data}, {"body", body.data},
		};
		snprintf(path, sizeof(path), "dvs/%s.govc.sh", s->name);
		rc = qg_emit_template(ctx, "govc.sh", vars, sizeof(vars) / sizeof(vars[0]), path,
				      0755, out);
	}
	qg_buf_free(&body);
	qg_buf_free(&url);
	qg_buf_free(&dc);
	qg_buf_free(&name);
	return rc;
}

const struct qg_target qg_target_dvs = {
    .name = "dvs",
    .summary = "vSphere Distributed Switch (ReconfigureDvs_Task body and govc script)",
    .kind = QG_DEVICE_DVS,
    .settings = dvs_settings,
    .emit = dvs_emit,
};
