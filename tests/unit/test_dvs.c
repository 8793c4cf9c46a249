/* SPDX-License-Identifier: MIT */
#include "helpers.h"

#include "../../targets/dvs/dvs.h"

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* Evaluate an XPath with the request's namespaces bound to our own prefixes. */
static xmlXPathObjectPtr xp(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathRegisterNs(ctx, BAD_CAST "s", BAD_CAST DVS_NS_SOAP);
	xmlXPathRegisterNs(ctx, BAD_CAST "v", BAD_CAST DVS_NS_VIM);
	xmlXPathRegisterNs(ctx, BAD_CAST "i", BAD_CAST DVS_NS_XSI);
	xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	xmlXPathFreeContext(ctx);
	return r;
}

static char *xp_string(xmlDocPtr doc, const char *expr)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "string(%s)", expr);
	xmlXPathObjectPtr r = xp(doc, buf);
	char *s = strdup((const char *)r->stringval);
	xmlXPathFreeObject(r);
	return s;
}

static void test_reconfigure_request(void **state)
{
	(void)state;
	struct qg_model m;
	load_example("bitfusion-pvrdma.yaml", &m);
	size_t len = 0;
	char *xml = dvs_reconfigure_xml(&m, 0, " test ", &len);
	assert_non_null(xml);
	assert_int_equal(len, strlen(xml));
	/* Parsed namespace-aware: prefixes are the server's business, URIs are not. */
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "dvs.xml", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	char *s = xp_string(doc, "/s:Envelope/s:Body/v:ReconfigureDvs_Task/v:spec/@i:type");
	assert_string_equal(s, "VMwareDVSConfigSpec");
	free(s);
	s = xp_string(doc, "//v:spec/v:maxMtu");
	assert_string_equal(s, "9000");
	free(s);
	s = xp_string(doc, "//v:spec/v:configVersion");
	assert_string_equal(s, "");
	free(s);
	s = xp_string(doc, "//v:uplinkPortPolicy/@i:type");
	assert_string_equal(s, "DVSNameArrayUplinkPortPolicy");
	free(s);
	xmlXPathObjectPtr r = xp(doc, "//v:uplinkPortPolicy/v:uplinkPortName");
	assert_int_equal(r->nodesetval->nodeNr, 4);
	xmlXPathFreeObject(r);
	/* Schema order: configVersion, uplinkPortPolicy, then maxMtu. */
	s = xp_string(doc, "name(//v:spec/*[1])");
	assert_string_equal(s, "configVersion");
	free(s);
	s = xp_string(doc, "name(//v:spec/*[last()])");
	assert_string_equal(s, "maxMtu");
	free(s);
	xmlFreeDoc(doc);
	free(xml);
	qg_model_free(&m);
}

static void test_govc_script(void **state)
{
	(void)state;
	struct qg_model m;
	struct qg_outset o;
	load_example("k8s-pvrdma.yaml", &m);
	build_ok(&m, &o);
	const char *s = file_text(&o, "dvs/rdma-dvs.govc.sh");
	assert_non_null(strstr(s, ": \"${GOVC_URL:=https://sc2vc03.example.net/sdk}\"\n"));
	assert_non_null(strstr(s, "GOVC_DATACENTER='SC2-DC'\n"));
	/* govc 0.24's dvs.create has no -num-uplinks: the count is read like any switch's */
	assert_non_null(strstr(s, "govc dvs.create -mtu 9000 \"$dvs\" >&2; then\n"));
	/* read before changed (issue 17): never "[ok] ... maxMtu set" after changing it */
	assert_non_null(strstr(s, "\tmtu=$(qg_get config.maxMtu)\n"));
	assert_non_null(strstr(s, "echo \"[changed] maxMtu: $mtu -> 9000\"\n"));
	assert_null(strstr(s, "maxMtu set"));
	/* membership checked before dvs.add, and after it */
	assert_non_null(strstr(s, "nic='vmnic2'\n"));
	assert_non_null(strstr(s, "\tnics=$(qg_nics \"${ref#*:}\")\n"));
	assert_non_null(
	    strstr(s, "govc dvs.add -dvs \"$dvs\" -pnic \"$nic\" \"$host\" >&2 || true\n"));
	assert_non_null(strstr(s, "echo \"[changed] host.sc2esx24: absent -> $nic\""));
	assert_non_null(strstr(s, "exit \"$rc\"\n"));
	assert_null(strstr(s, "PASSWORD="));
	assert_non_null(qg_outset_find(&o, "dvs/rdma-dvs.xml"));
	qg_outset_free(&o);
	qg_model_free(&m);
}

/*
 * XML 1.0 forbids "--" inside a comment (and a comment ending in "-"), and
 * the names rules allow "a--b" for a fabric or a DVS: the file must still be
 * well-formed XML, which libxml2 refuses otherwise ("Double hyphen within
 * comment"), with the names still readable in it.
 */
static void test_comment_with_double_hyphen(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok("version: 1\n"
		"fabric: f--x\n"
		"qos:\n"
		"  lossless:\n"
		"    priority: 3\n"
		"    dscp: [26]\n"
		"    pool: {name: roce, memory_percent: 50}\n"
		"    ecn: {min_kb: 150, max_kb: 1500}\n"
		"  cnp: {priority: 6, dscp: 48, ets: strict}\n"
		"hosts:\n"
		"  - {name: esx01, platform: esxi, address: esx01.lab, uplink: vmnic2}\n"
		"dvs:\n"
		"  - {name: DVS---0-, vcenter: vc.lab, datacenter: DC0, mtu: 9000, uplinks: 2, "
		"hosts: [esx01]}\n",
		&m);
	struct qg_outset o;
	build_ok(&m, &o);
	const struct qg_outfile *f = qg_outset_find(&o, "dvs/DVS---0-.xml");
	assert_non_null(f);
	xmlDocPtr doc = xmlReadMemory(f->data, (int)f->len, "dvs.xml", NULL, XML_PARSE_NONET);
	if (!doc)
		fprintf(stderr, "ill-formed:\n%.*s\n", (int)f->len, f->data);
	assert_non_null(doc);
	xmlNodePtr c = doc->children;
	assert_int_equal(c->type, XML_COMMENT_NODE);
	assert_null(strstr((const char *)c->content, "--"));
	assert_non_null(
	    strstr((const char *)c->content, "for DVS DVS-\\x2d\\x2d0-, fabric f-\\x2dx\n"));
	xmlFreeDoc(doc);
	/* Any comment the emitter is given, even one ending in '-'. */
	size_t len;
	char *xml = dvs_reconfigure_xml(&m, 0, "a -- b --- c-", &len);
	assert_non_null(xml);
	doc = xmlReadMemory(xml, (int)len, "dvs.xml", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	xmlFreeDoc(doc);
	free(xml);
	qg_outset_free(&o);
	qg_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reconfigure_request),
	    cmocka_unit_test(test_govc_script),
	    cmocka_unit_test(test_comment_with_double_hyphen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
