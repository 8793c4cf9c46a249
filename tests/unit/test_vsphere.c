/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of the vSphere push: faults read namespace-aware (vcsim's
 * XMLSchema-instance:type prefix, as captured in shared/notes/vcsim), the
 * plan of a DVS and its hosts, and where credentials come from.
 */
#include "helpers.h"

#include "../../targets/dvs/dvs_push.h"
#include "../../vsphere/soap.h"

#include <libxml/parser.h>

static xmlNodePtr root_of(const char *xml, xmlDocPtr *doc)
{
	*doc = xmlReadMemory(xml, (int)strlen(xml), "t.xml", NULL, XML_PARSE_NONET);
	assert_non_null(*doc);
	return xmlDocGetRootElement(*doc);
}

static void test_faults(void **state)
{
	(void)state;
	char type[64], msg[256];
	xmlDocPtr doc;
	/* A task's error as vcsim sends it: the prefix is not "xsi". */
	xmlNodePtr val =
	    root_of("<val xmlns=\"urn:vim25\" "
		    "xmlns:XMLSchema-instance=\"http://www.w3.org/2001/XMLSchema-instance\" "
		    "XMLSchema-instance:type=\"LocalizedMethodFault\"><fault "
		    "XMLSchema-instance:type=\"ConcurrentAccess\"></fault><localizedMessage>*types."
		    "ConcurrentAccess</localizedMessage></val>",
		    &doc);
	vs_fault_of(val, type, sizeof(type), msg, sizeof(msg));
	assert_string_equal(type, "ConcurrentAccess");
	assert_string_equal(msg, "*types.ConcurrentAccess");
	xmlFreeDoc(doc);
	/* A SOAP fault with the type on the detail's element. */
	xmlNodePtr f = root_of(
	    "<soapenv:Fault xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
	    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><faultcode>ServerFaultCode</"
	    "faultcode><faultstring>Login failure</faultstring><detail><InvalidLoginFault "
	    "xmlns=\"urn:vim25\" xsi:type=\"InvalidLogin\"></InvalidLoginFault></detail></"
	    "soapenv:Fault>",
	    &doc);
	vs_fault_of(f, type, sizeof(type), msg, sizeof(msg));
	assert_string_equal(type, "InvalidLogin");
	assert_string_equal(msg, "Login failure");
	xmlFreeDoc(doc);
	/* No xsi:type at all: the element's name, less "Fault". */
	f = root_of("<Fault><faultstring>gone</faultstring><detail><ManagedObjectNotFoundFault/>"
		    "</detail></Fault>",
		    &doc);
	vs_fault_of(f, type, sizeof(type), msg, sizeof(msg));
	assert_string_equal(type, "ManagedObjectNotFound");
	xmlFreeDoc(doc);
	/* A plain "type" attribute is a moref's, never the xsi:type. */
	xmlNodePtr r = root_of("<val xmlns:x=\"http://www.w3.org/2001/XMLSchema-instance\" "
			       "x:type=\"ManagedObjectReference\" "
			       "type=\"OptionManager\">optionmanager-31</val>",
			       &doc);
	vs_attr(r, "type", type, sizeof(type));
	assert_string_equal(type, "OptionManager");
	vs_xsi_type(r, type, sizeof(type));
	assert_string_equal(type, "ManagedObjectReference");
	xmlFreeDoc(doc);
}

static void test_request_escapes(void **state)
{
	(void)state;
	xmlDocPtr doc;
	xmlNodePtr req = vs_request(&doc, "Login", "SessionManager", "SessionManager");
	assert_non_null(req);
	assert_non_null(vs_add(req, "password", "a<b&c</password><x>"));
	xmlChar *mem;
	int n;
	xmlDocDumpMemory(doc, &mem, &n);
	assert_non_null(
	    strstr((char *)mem, "<password>a&lt;b&amp;c&lt;/password&gt;&lt;x&gt;</password>"));
	assert_non_null(
	    strstr((char *)mem, "<_this type=\"SessionManager\">SessionManager</_this>"));
	xmlFree(mem);
	xmlFreeDoc(doc);
}

static void test_plan(void **state)
{
	(void)state;
	struct qg_model m;
	load_ok(BASE_QOS "hosts:\n"
			 "  - {name: esx01, platform: esxi, address: esx01.lab, uplink: vmnic2, "
			 "pvrdma_vmknic: vmk1}\n"
			 "  - {name: esx02, platform: esxi, address: esx02.lab, uplink: vmnic2}\n"
			 "dvs:\n"
			 "  - {name: DVS0, vcenter: vc.lab, datacenter: DC0, mtu: 9000, hosts: "
			 "[esx01, esx02]}\n",
		&m);
	struct dvs_host_state hosts[2] = {
	    {.h = &m.hosts[0],
	     .found = true,
	     .member = true,
	     .vmknic_set = false,
	     .fw_known = true,
	     .fw_enabled = false},
	    {.h = &m.hosts[1], .found = false},
	};
	struct dvs_state st = {
	    .found = true, .max_mtu = 1500, .uplinks = -1, .hosts = hosts, .n_hosts = 2};
	struct qg_buf b = {0};
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 3);
	assert_string_equal(b.data, "[differs] maxMtu: 1500 -> 9000\n"
				    "[differs] host esx01: Net.PVRDMAVmknic: unset -> vmk1\n"
				    "[differs] host esx01: firewall ruleset pvrdma: disabled -> "
				    "enabled\n"
				    "[n/a] host esx02: not in this vCenter (looked for 'esx02.lab' "
				    "and 'esx02')\n");
	qg_buf_free(&b);
	/* In sync: nothing to send; a host without pvrdma_vmknic gets nothing. */
	st.max_mtu = 9000;
	hosts[0].vmknic_set = true;
	snprintf(hosts[0].vmknic, sizeof(hosts[0].vmknic), "vmk1");
	hosts[0].fw_enabled = true;
	hosts[1].found = hosts[1].member = true;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_null(b.data);
	/* A switch that is not there is a note, not a change push could make. */
	st.found = false;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_non_null(strstr(b.data, "[n/a] dvs: no switch named 'DVS0'"));
	qg_buf_free(&b);
	qg_model_free(&m);
}

static void test_endpoint(void **state)
{
	(void)state;
	struct qg_dvs d = {.vcenter = "vc.lab"};
	struct dvs_endpoint e;
	char err[256];
	unsetenv("GOVC_USERNAME");
	unsetenv("GOVC_PASSWORD");
	unsetenv("GOVC_INSECURE");
	unsetenv("GOVC_TLS_CA_CERTS");
	setenv("GOVC_URL", "https://admin:p%40ss@127.0.0.1:8989/sdk", 1);
	assert_int_equal(dvs_endpoint(&d, NULL, false, &e, err, sizeof(err)), 0);
	assert_string_equal(e.url, "https://127.0.0.1:8989/sdk"); /* no credentials in it */
	assert_string_equal(e.user, "admin");
	assert_string_equal(e.password, "p@ss");
	assert_false(e.insecure);
	dvs_endpoint_free(&e);
	/* govc's short form, GOVC_INSECURE, and the intent's vcenter when GOVC_URL is unset. */
	setenv("GOVC_URL", "vc2.lab", 1);
	setenv("GOVC_USERNAME", "u", 1);
	setenv("GOVC_PASSWORD", "p", 1);
	setenv("GOVC_INSECURE", "1", 1);
	assert_int_equal(dvs_endpoint(&d, "/ca.pem", false, &e, err, sizeof(err)), 0);
	assert_string_equal(e.url, "https://vc2.lab/sdk");
	assert_true(e.insecure);
	assert_string_equal(e.ca_file, "/ca.pem");
	dvs_endpoint_free(&e);
	unsetenv("GOVC_URL");
	unsetenv("GOVC_INSECURE");
	assert_int_equal(dvs_endpoint(&d, NULL, false, &e, err, sizeof(err)), 0);
	assert_string_equal(e.url, "https://vc.lab/sdk");
	dvs_endpoint_free(&e);
	unsetenv("GOVC_PASSWORD");
	assert_int_equal(dvs_endpoint(&d, NULL, false, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no vSphere credentials"));
	unsetenv("GOVC_USERNAME");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_faults),
	    cmocka_unit_test(test_request_escapes),
	    cmocka_unit_test(test_plan),
	    cmocka_unit_test(test_endpoint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
