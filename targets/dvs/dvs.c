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
#include "../../lib/escape.h"
#include "../../emit/handoff.h"

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
 * is written "\x2d" (lib/escape.c's form for a byte), and a space closes a
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

/*
 * The switch itself: created when missing, else its maxMtu read and set only
 * when it differs, and its uplink count checked (govc cannot change it).
 */
static void govc_switch(const struct qg_dvs *s, struct qg_buf *b)
{
	/*
	 * govc 0.24's dvs.create takes no uplink count (the script's earlier
	 * -num-uplinks was refused by it): vCenter's default count is read below
	 * like any switch's.
	 */
	qg_buf_printf(b,
		      "if ! qg_exists \"$dvs\"; then\n"
		      "\tif [ \"$dry\" = 1 ]; then\n"
		      "\t\techo \"[differs] dvs: absent -> $dvs\"\n"
		      "\telif govc dvs.create -mtu %d \"$dvs\" >&2; then\n"
		      "\t\techo \"[changed] dvs: absent -> $dvs\"\n"
		      "\telse\n"
		      "\t\techo \"[failed] dvs: absent: govc dvs.create refused\"\n"
		      "\t\trc=1\n"
		      "\tfi\n"
		      "fi\n",
		      s->mtu);
	/* A dry run on a missing switch reads nothing more: there is nothing to read. */
	qg_buf_printf(b,
		      "if qg_exists \"$dvs\"; then\n"
		      "\tmtu=$(qg_get config.maxMtu)\n"
		      "\tif [ \"$mtu\" = %d ]; then\n"
		      "\t\techo \"[ok] maxMtu: %d\"\n"
		      "\telif [ \"$dry\" = 1 ]; then\n"
		      "\t\techo \"[differs] maxMtu: $mtu -> %d\"\n"
		      "\telse\n"
		      "\t\tgovc dvs.change -mtu %d \"$dvs\" >&2 || true\n"
		      "\t\tnow=$(qg_get config.maxMtu)\n"
		      "\t\tif [ \"$now\" = %d ]; then\n"
		      "\t\t\techo \"[changed] maxMtu: $mtu -> %d\"\n"
		      "\t\telse\n"
		      "\t\t\techo \"[failed] maxMtu: $mtu -> %d asked, reads $now\"\n"
		      "\t\t\trc=1\n"
		      "\t\tfi\n"
		      "\tfi\n",
		      s->mtu, s->mtu, s->mtu, s->mtu, s->mtu, s->mtu, s->mtu);
	/* config.uplinkPortPolicy: the uplink names, comma-separated. */
	qg_buf_printf(b,
		      "\tn=$(qg_get config.uplinkPortPolicy | tr ',' '\\n' | grep -c .) || true\n"
		      "\tif [ \"$n\" -ge %d ]; then\n"
		      "\t\techo \"[ok] uplinks: $n\"\n"
		      "\telse\n"
		      "\t\techo \"[failed] uplinks: $n -> %d: govc cannot add uplinks to a switch; "
		      "qosgen push --dvs can\"\n"
		      "\t\trc=1\n"
		      "\tfi\n"
		      "fi\n",
		      s->uplinks, s->uplinks);
}

static void govc_portgroup(const struct qg_dvs *s, struct qg_buf *b)
{
	if (!s->portgroup[0])
		return;
	qg_buf_puts(b, "pg=");
	qg_sh_word(b, s->portgroup);
	qg_buf_puts(
	    b, "\nif qg_exists \"$pg\"; then\n"
	       "\techo \"[ok] portgroup: $pg\"\n"
	       "elif [ \"$dry\" = 1 ]; then\n"
	       "\techo \"[differs] portgroup: absent -> $pg\"\n"
	       "elif govc dvs.portgroup.add -dvs \"$dvs\" \"$pg\" >&2 && qg_exists \"$pg\"; then\n"
	       "\techo \"[changed] portgroup: absent -> $pg\"\n"
	       "else\n"
	       "\techo \"[failed] portgroup: absent -> $pg: not made\"\n"
	       "\trc=1\n"
	       "fi\n");
}

/*
 * A member host: looked up by the address vCenter knows it by, its NICs on
 * the switch read, and dvs.add only when it is not on it (dvs.add skips a
 * member silently, so a member lacking the NIC is reported, not "added").
 */
static void govc_host(const struct qg_host *h, struct qg_buf *b)
{
	qg_buf_puts(b, "addr=");
	qg_sh_word(b, h->address);
	qg_buf_puts(b, "\nnic=");
	qg_sh_word(b, h->uplink);
	qg_buf_printf(
	    b,
	    "\nhost=$(govc find / -type h -name \"$addr\")\n"
	    "ref=$(govc find -i / -type h -name \"$addr\")\n"
	    "if [ -z \"$host\" ] || [ -z \"$ref\" ]; then\n"
	    "\techo \"[failed] host.%s: no host $addr in the inventory\"\n"
	    "\trc=1\n"
	    "else\n"
	    "\tnics=$(qg_nics \"${ref#*:}\")\n"
	    "\tcase \",$nics,\" in\n"
	    "\t*,\"$nic\",*) echo \"[ok] host.%s: $nic\" ;;\n"
	    "\t,absent,)\n"
	    "\t\tif [ \"$dry\" = 1 ]; then\n"
	    "\t\t\techo \"[differs] host.%s: absent -> $nic\"\n"
	    "\t\telse\n"
	    "\t\t\tgovc dvs.add -dvs \"$dvs\" -pnic \"$nic\" \"$host\" >&2 || true\n"
	    "\t\t\tcase \",$(qg_nics \"${ref#*:}\"),\" in\n"
	    "\t\t\t*,\"$nic\",*) echo \"[changed] host.%s: absent -> $nic\" ;;\n"
	    "\t\t\t*)\n"
	    "\t\t\t\techo \"[failed] host.%s: not on $dvs with $nic after dvs.add\"\n"
	    "\t\t\t\trc=1\n"
	    "\t\t\t\t;;\n"
	    "\t\t\tesac\n"
	    "\t\tfi\n"
	    "\t\t;;\n"
	    "\t*)\n"
	    "\t\techo \"[failed] host.%s: $nics -> $nic: on $dvs without $nic; govc cannot "
	    "add a NIC to a member, qosgen push --dvs can\"\n"
	    "\t\trc=1\n"
	    "\t\t;;\n"
	    "\tesac\n"
	    "fi\n",
	    h->name, h->name, h->name, h->name, h->name, h->name);
}

/* The govc commands: the switch, its portgroup, its hosts; each read before it is changed. */
static void govc_body(const struct qg_model *m, size_t i, struct qg_buf *b)
{
	const struct qg_dvs *s = &m->dvs[i];
	govc_switch(s, b);
	govc_portgroup(s, b);
	for (size_t k = 0; k < s->n_hosts; k++)
		govc_host(&m->hosts[s->hosts[k]], b);
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
    .handoff = &qg_handoff_dvs_push,
};
