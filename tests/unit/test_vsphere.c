/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of the vSphere push: faults read namespace-aware (vcsim's
 * XMLSchema-instance:type prefix, as captured in shared/notes/vcsim), the
 * plan of a DVS and its hosts, and where credentials come from.
 */
#include "helpers.h"

#include "../../targets/dvs/dvs_endpoint.h"
#include "../../targets/dvs/dvs_plan.h"
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
	load_ok(BASE_QOS
		"hosts:\n"
		"  - {name: esx01, platform: esxi, address: esx01.lab, uplink: vmnic2, "
		"pvrdma_vmknic: vmk1}\n"
		"  - {name: esx02, platform: esxi, address: esx02.lab, uplink: vmnic2}\n"
		"  - {name: esx03, platform: esxi, address: esx03.lab, uplink: vmnic2}\n"
		"dvs:\n"
		"  - {name: DVS0, vcenter: vc.lab, datacenter: DC0, mtu: 9000, uplinks: 2, "
		"portgroup: PG-1, hosts: [esx01, esx02, esx03]}\n",
		&m);
	struct dvs_host_state hosts[3] = {
	    {.h = &m.hosts[0],
	     .found = true,
	     .member = true,
	     .n_pnics = 1,
	     .pnics = {{.device = "vmnic0", .port_key = "16"}},
	     .vmknic_set = false,
	     .fw_known = true,
	     .fw_enabled = false,
	     .vnic = {.found = true, .mtu = 1500, .ip = "10.0.0.1"},
	     .vnic_mtu = 9000,
	     .n_mod = 2,
	     .mod = {{.name = "nmlx5_core",
		      .state = DVS_MODULE_READ,
		      .n_changes = 1,
		      .changes = {{.key = "pfctx", .have = "0", .want = "0x08"}}},
		     {.name = "nmlx5_rdma", .state = DVS_MODULE_NOT_LOADED}}},
	    {.h = &m.hosts[1],
	     .found = true,
	     .n_mod = 1,
	     .mod = {{.name = "nmlx5_core",
		      .state = DVS_MODULE_NO_API,
		      .why = "ManagedObjectNotFound"}}},
	    {.h = &m.hosts[2], .found = false},
	};
	struct dvs_state st = {
	    .found = true, .max_mtu = 1500, .uplinks = 1, .hosts = hosts, .n_hosts = 3};
	struct qg_buf b = {0};
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 9);
	assert_string_equal(
	    b.data, "[differs] maxMtu: 1500 -> 9000\n"
		    "[differs] uplinks: 1 -> 2\n"
		    "[differs] portgroup PG-1: absent -> made (static binding, 8 ports, growing as "
		    "needed)\n"
		    "[differs] host esx01: vmnic2 on the switch: no -> yes (keeps vmnic0)\n"
		    "[differs] host esx01: Net.PVRDMAVmknic: unset -> vmk1\n"
		    "[differs] host esx01: firewall ruleset pvrdma: disabled -> enabled\n"
		    "[differs] host esx01: vmk1.mtu: 1500 -> 9000\n"
		    "[differs] host esx01: nmlx5_core.pfctx: 0 -> 0x08\n"
		    "[n/a] host esx01: module nmlx5_rdma is not on this host\n"
		    "[reboot] host esx01: module options apply at its next reboot (maintenance "
		    "mode first)\n"
		    "[differs] host esx02: on the switch: no -> yes, with vmnic2\n"
		    "[n/a] host esx02: module options: the endpoint has no "
		    "HostKernelModuleSystem (ManagedObjectNotFound); the host script sets them "
		    "over SSH\n"
		    "[n/a] host esx03: not in this vCenter (looked for 'esx03.lab' and 'esx03')\n");
	qg_buf_free(&b);

	/* The switch's request: only what differs, the NICs a member has sent back as read. */
	hosts[1].member = true;
	snprintf(hosts[1].pnics[0].device, sizeof(hosts[1].pnics[0].device), "vmnic2");
	hosts[1].n_pnics = 1;
	snprintf(hosts[0].ref.type, sizeof(hosts[0].ref.type), "HostSystem");
	snprintf(hosts[0].ref.value, sizeof(hosts[0].ref.value), "host-21");
	snprintf(st.ref.type, sizeof(st.ref.type), "VmwareDistributedVirtualSwitch");
	snprintf(st.ref.value, sizeof(st.ref.value), "dvs-9");
	snprintf(st.version, sizeof(st.version), "7");
	snprintf(st.uplink_names[0], sizeof(st.uplink_names[0]), "Uplink 2");
	xmlDocPtr doc = dvs_switch_request(&m.dvs[0], &st);
	assert_non_null(doc);
	xmlChar *mem;
	int size;
	xmlDocDumpMemory(doc, &mem, &size);
	assert_non_null(strstr(
	    (char *)mem,
	    "<_this type=\"VmwareDistributedVirtualSwitch\">dvs-9</_this><spec "
	    "xsi:type=\"VMwareDVSConfigSpec\"><configVersion>7</configVersion>"
	    "<uplinkPortPolicy xsi:type=\"DVSNameArrayUplinkPortPolicy\"><uplinkPortName>Uplink "
	    "2</uplinkPortName><uplinkPortName>Uplink 3</uplinkPortName></uplinkPortPolicy>"
	    "<host><operation>edit</operation><host type=\"HostSystem\">host-21</host><backing "
	    "xsi:type=\"DistributedVirtualSwitchHostMemberPnicBacking\"><pnicSpec><pnicDevice>"
	    "vmnic0</pnicDevice><uplinkPortKey>16</uplinkPortKey></pnicSpec><pnicSpec>"
	    "<pnicDevice>vmnic2</pnicDevice></pnicSpec></backing></host>"
	    "<maxMtu>9000</maxMtu></spec>"));
	xmlFree(mem);
	xmlFreeDoc(doc);

	/* In sync: nothing to send. */
	st.max_mtu = 9000;
	st.portgroup = true;
	st.uplinks = 2;
	hosts[0].pnics[1] = hosts[1].pnics[0];
	hosts[0].n_pnics = 2;
	hosts[0].vmknic_set = true;
	snprintf(hosts[0].vmknic, sizeof(hosts[0].vmknic), "vmk1");
	hosts[0].fw_enabled = true;
	hosts[0].vnic.mtu = 9000;
	hosts[0].mod[0].n_changes = 0;
	hosts[1].mod[0].state = DVS_MODULE_READ;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_string_equal(b.data, "[n/a] host esx01: module nmlx5_rdma is not on this host\n"
				    "[n/a] host esx03: not in this vCenter (looked for "
				    "'esx03.lab' and 'esx03')\n");
	qg_buf_free(&b);
	/* A vmknic that is not there: push sets MTUs, it does not make NICs. */
	hosts[0].vnic.found = false;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_non_null(strstr(b.data, "[n/a] host esx01: no VMkernel NIC vmk1 (add it on the RoCE "
				       "portgroup; push sets the MTU of one that is there)\n"));
	qg_buf_free(&b);
	hosts[0].vnic.found = true;
	/* More uplinks than the intent's: push never removes one. */
	st.uplinks = 3;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_non_null(strstr(b.data, "[n/a] uplinks: 3, the intent says 2 (push adds uplinks, "
				       "never removes one: a NIC may be on it)\n"));
	qg_buf_free(&b);
	/* What vCenter sent reaches the terminal escaped: a NIC name, an option value. */
	hosts[0].vnic.found = true;
	hosts[0].n_pnics = 1;
	snprintf(hosts[0].pnics[0].device, sizeof(hosts[0].pnics[0].device), "vm\x1b[2Jnic0");
	hosts[0].mod[0].n_changes = 1;
	snprintf(hosts[0].mod[0].changes[0].have, sizeof(hosts[0].mod[0].changes[0].have),
		 "0\n[ok] forged");
	assert_true(dvs_plan(&m, 0, &st, &b) > 0);
	assert_null(strchr(b.data, 0x1b));
	assert_non_null(strstr(b.data, "(keeps vm\\x1b[2Jnic0)\n"));
	if (!strstr(b.data, "nmlx5_core.pfctx: 0\\n[ok] forged -> 0x08\n"))
		fprintf(stderr, "%s", b.data);
	assert_non_null(strstr(b.data, "nmlx5_core.pfctx: 0\\n[ok] forged -> 0x08\n"));
	assert_null(strstr(b.data, "\n[ok]"));
	qg_buf_free(&b);
	hosts[0].mod[0].n_changes = 0;
	/* A switch that is not there is a note, not a change push could make. */
	st.found = false;
	assert_int_equal(dvs_plan(&m, 0, &st, &b), 0);
	assert_non_null(strstr(b.data, "[n/a] dvs: no switch named 'DVS0'"));
	qg_buf_free(&b);
	qg_model_free(&m);
}

/* Module option strings: merged, never clobbered, as the host script does it. */
static void test_module_merge(void **state)
{
	(void)state;
	struct qg_settings want = {0};
	qg_settings_add(&want, "nmlx5_core.pfctx", "0x08");
	qg_settings_add(&want, "Net.PVRDMAVmknic", "vmk1");
	qg_settings_add(&want, "nmlx5_core.pfcrx", "0x08");
	qg_settings_add(&want, "nmlx5_core.trust_state", "2");
	qg_settings_add(&want, "nmlx5_rdma.dscp_force", "26");
	qg_settings_add(&want, "vmk1.mtu", "9000");
	char names[4][32];
	assert_int_equal(esxi_options_modules(&want, names, 4), 2);
	assert_string_equal(names[0], "nmlx5_core");
	assert_string_equal(names[1], "nmlx5_rdma");

	char out[256];
	struct esxi_opt_change c[4];
	/* The host script's merge over SSH gives the same string (tests/scripts/run.sh). */
	assert_int_equal(
	    esxi_options_merge("nmlx5_core", "max_vfs=4 pfctx=8", &want, out, sizeof(out), c, 4),
	    2);
	assert_string_equal(out, "max_vfs=4 pfctx=8 pfcrx=0x08 trust_state=2");
	/* Others' options stay in place; 8 is 0x08; what differs moves to the end. */
	assert_int_equal(esxi_options_merge("nmlx5_core", "DRSS=4 pfcrx=8  trust_state=1 RSS=2",
					    &want, out, sizeof(out), c, 4),
			 2);
	assert_string_equal(out, "DRSS=4 pfcrx=8 RSS=2 pfctx=0x08 trust_state=2");
	assert_string_equal(c[0].key, "pfctx");
	assert_string_equal(c[0].have, "");
	assert_string_equal(c[1].have, "1");
	assert_string_equal(c[1].want, "2");
	/* In sync: nothing to change, the string as it was. */
	assert_int_equal(esxi_options_merge("nmlx5_core", "pfctx=0x8 pfcrx=0x08 trust_state=2",
					    &want, out, sizeof(out), c, 4),
			 0);
	assert_string_equal(out, "pfctx=0x8 pfcrx=0x08 trust_state=2");
	/* A key written twice: the loader keeps the last, so does the compare; both go. */
	assert_int_equal(esxi_options_merge("nmlx5_rdma", "dscp_force=26 dscp_force=0", &want, out,
					    sizeof(out), c, 4),
			 1);
	assert_string_equal(out, "dscp_force=26");
	/* Too long to write: an error, and no half string. */
	assert_int_equal(esxi_options_merge("nmlx5_core", "DRSS=4", &want, out, 12, c, 4), -1);
	assert_string_equal(out, "");
	assert_int_equal(esxi_options_merge("nmlx5_core", "", &want, out, sizeof(out), c, 1), -1);
	qg_settings_free(&want);

	/*
	 * nmlx5_core ecn (issue 23): the driver's documented default is 0, so
	 * an unwritten ecn is in sync with an intent without ECN (no change,
	 * no reboot), written ecn=1 is turned off, and the intent's ecn=1 is
	 * written where the string has none.
	 */
	assert_string_equal(esxi_option_default("nmlx5_core", "ecn"), "0");
	assert_null(esxi_option_default("nmlx5_core", "pfctx"));
	assert_null(esxi_option_default("nmlx5_rdma", "ecn"));
	struct qg_settings off = {0};
	qg_settings_add(&off, "nmlx5_core.pfctx", "0x08");
	qg_settings_add(&off, "nmlx5_core.ecn", "0");
	assert_int_equal(
	    esxi_options_merge("nmlx5_core", "pfctx=0x08 max_vfs=2", &off, out, sizeof(out), c, 4),
	    0);
	assert_string_equal(out, "pfctx=0x08 max_vfs=2");
	assert_int_equal(esxi_options_merge("nmlx5_core", "ecn=1 pfctx=0x08 max_vfs=2", &off, out,
					    sizeof(out), c, 4),
			 1);
	assert_string_equal(out, "pfctx=0x08 max_vfs=2 ecn=0");
	assert_string_equal(c[0].have, "1");
	assert_string_equal(c[0].want, "0");
	qg_settings_free(&off);
	struct qg_settings on = {0};
	qg_settings_add(&on, "nmlx5_core.ecn", "1");
	/* The fixture's string (tests/fixtures/esxi), as the script test merges it. */
	assert_int_equal(esxi_options_merge("nmlx5_core",
					    "pfctx=0x08 pfcrx=0x08 trust_state=2 max_vfs=<value>",
					    &on, out, sizeof(out), c, 4),
			 1);
	assert_string_equal(out, "pfctx=0x08 pfcrx=0x08 trust_state=2 max_vfs=<value> ecn=1");
	assert_string_equal(c[0].have, "");
	qg_settings_free(&on);
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
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), 0);
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
	assert_int_equal(
	    dvs_endpoint(&d, &(struct qg_tls_opts){.ca_file = "/ca.pem"}, &e, err, sizeof(err)), 0);
	assert_string_equal(e.url, "https://vc2.lab/sdk");
	assert_true(e.insecure);
	assert_string_equal(e.ca_file, "/ca.pem");
	dvs_endpoint_free(&e);
	unsetenv("GOVC_URL");
	unsetenv("GOVC_INSECURE");
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), 0);
	assert_string_equal(e.url, "https://vc.lab/sdk");
	dvs_endpoint_free(&e);
	unsetenv("GOVC_PASSWORD");
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no vSphere credentials"));
	unsetenv("GOVC_USERNAME");
}

/*
 * GOVC_URL=http://user:pass@... would send the password in clear text:
 * refused, with what to do, unless asked for by name (--allow-http).
 */
static void test_endpoint_plain_http(void **state)
{
	(void)state;
	struct qg_dvs d = {.vcenter = "vc.lab"};
	struct dvs_endpoint e;
	char err[512];
	unsetenv("GOVC_USERNAME");
	unsetenv("GOVC_PASSWORD");
	setenv("GOVC_URL", "http://admin:s3cret@vc.lab/sdk", 1);
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "http://vc.lab/sdk"));
	assert_non_null(strstr(err, "https://"));
	assert_non_null(strstr(err, "--allow-http"));
	assert_null(strstr(err, "s3cret"));
	/* Asked for by name: taken, and said to be plain (dvs_push warns loudly). */
	assert_int_equal(
	    dvs_endpoint(&d, &(struct qg_tls_opts){.allow_http = true}, &e, err, sizeof(err)), 0);
	assert_true(e.plain_http);
	assert_string_equal(e.url, "http://vc.lab/sdk");
	assert_string_equal(e.password, "s3cret");
	dvs_endpoint_free(&e);
	setenv("GOVC_URL", "https://admin:s3cret@vc.lab/sdk", 1);
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), 0);
	assert_false(e.plain_http);
	dvs_endpoint_free(&e);
	/* A scheme that is neither: refused too. */
	setenv("GOVC_URL", "ftp://admin:s3cret@vc.lab/sdk", 1);
	assert_int_equal(dvs_endpoint(&d, &(struct qg_tls_opts){0}, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'ftp'"));
	unsetenv("GOVC_URL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_faults),   cmocka_unit_test(test_request_escapes),
	    cmocka_unit_test(test_plan),     cmocka_unit_test(test_module_merge),
	    cmocka_unit_test(test_endpoint), cmocka_unit_test(test_endpoint_plain_http),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
