/* SPDX-License-Identifier: MIT */
/*
 * The DVS push's own logic as an adapter of targets/engine.c (dvs_plan.c):
 * whether a read-back is back at the checkpoint (the engine's QG_AT_BEFORE,
 * the proof of RESTORED), with every value a push changes moved in turn,
 * and the ReconfigureDvs_Task that puts the switch back from a read-back
 * part-way (a failed step after the reconfigure) to the checkpoint.
 */
#include "helpers.h"

#include "../../targets/dvs/dvs_plan.h"

#include <libxml/tree.h>

static struct qg_host hosts[2];

/*
 * The checkpoint of a switch with maxMtu 1500, 2 uplinks and the portgroup;
 * esx01 on it with vmnic2 on port 1 and its settings as read; esx02 not on it.
 */
static struct dvs_host_state was_hosts[2], now_hosts[2];
static struct dvs_state was, now;

static void setup_states(void)
{
	memset(hosts, 0, sizeof(hosts));
	snprintf(hosts[0].name, sizeof(hosts[0].name), "esx01");
	snprintf(hosts[1].name, sizeof(hosts[1].name), "esx02");
	snprintf(hosts[0].pvrdma_vmknic, sizeof(hosts[0].pvrdma_vmknic), "vmk1");
	memset(was_hosts, 0, sizeof(was_hosts));
	for (int k = 0; k < 2; k++) {
		struct dvs_host_state *h = &was_hosts[k];
		h->h = &hosts[k];
		h->found = true;
		snprintf(h->ref.type, sizeof(h->ref.type), "HostSystem");
		snprintf(h->ref.value, sizeof(h->ref.value), "host-%d", 21 + k);
		h->fw_known = true;
		h->n_mod = 1;
		snprintf(h->mod[0].name, sizeof(h->mod[0].name), "nmlx5_core");
		h->mod[0].state = DVS_MODULE_READ;
		snprintf(h->mod[0].live, sizeof(h->mod[0].live), "DRSS=4");
		h->vnic = (struct dvs_vnic){.found = true, .mtu = 1500, .ip = "10.0.0.1"};
	}
	was_hosts[0].member = true;
	was_hosts[0].n_pnics = 1;
	was_hosts[0].pnics[0] =
	    (struct dvs_pnic){.device = "vmnic2", .port_key = "1", .portgroup_key = "pg-up"};
	memset(&was, 0, sizeof(was));
	was.found = true;
	snprintf(was.ref.type, sizeof(was.ref.type), "DistributedVirtualSwitch");
	snprintf(was.ref.value, sizeof(was.ref.value), "dvs-9");
	was.max_mtu = 1500;
	snprintf(was.version, sizeof(was.version), "4");
	was.uplinks = 2;
	snprintf(was.uplink_names[0], sizeof(was.uplink_names[0]), "up-a");
	snprintf(was.uplink_names[1], sizeof(was.uplink_names[1]), "up-b");
	was.portgroup = true;
	was.hosts = was_hosts;
	was.n_hosts = 2;
	memcpy(now_hosts, was_hosts, sizeof(now_hosts));
	now = was;
	now.hosts = now_hosts;
	snprintf(now.version, sizeof(now.version), "7");
}

/* A read-back part-way: what a push did before its last call was refused. */
static void part_way(void)
{
	now.max_mtu = 9000;
	now.uplinks = 4;
	snprintf(now.uplink_names[2], sizeof(now.uplink_names[2]), "Uplink 3");
	now_hosts[0].n_pnics = 2;
	now_hosts[0].pnics[1] = (struct dvs_pnic){.device = "vmnic3", .port_key = "2"};
	now_hosts[1].member = true;
	now_hosts[1].n_pnics = 1;
	now_hosts[1].pnics[0] = (struct dvs_pnic){.device = "vmnic3", .port_key = "3"};
}

static void not_before(const char *why)
{
	char got[256] = "";
	assert_false(dvs_at_before(&was, &now, got, sizeof(got)));
	if (strcmp(got, why))
		fprintf(stderr, "why: %s\nwanted: %s\n", got, why);
	assert_string_equal(got, why);
	setup_states();
}

static void test_at_before(void **state)
{
	(void)state;
	char why[256] = "";
	setup_states();
	/* The configVersion moves with every reconfigure: not a difference. */
	assert_true(dvs_at_before(&was, &now, why, sizeof(why)));
	/* Each value a push changes, moved alone. */
	now.max_mtu = 9000;
	not_before("maxMtu 9000, was 1500");
	now.uplinks = 4;
	not_before("4 uplinks, was 2");
	now.portgroup = false;
	not_before("the portgroup is gone");
	now_hosts[1].member = true;
	not_before("host esx02: its NICs on the switch differ");
	now_hosts[0].pnics[0] = (struct dvs_pnic){.device = "vmnic3"};
	not_before("host esx01: its NICs on the switch differ");
	snprintf(now_hosts[0].mod[0].live, sizeof(now_hosts[0].mod[0].live), "DRSS=4 ecn=1");
	not_before("host esx01: module nmlx5_core options differ");
	now_hosts[0].vmknic_set = true;
	snprintf(now_hosts[0].vmknic, sizeof(now_hosts[0].vmknic), "vmk1");
	not_before("host esx01: Net.PVRDMAVmknic differs");
	now_hosts[0].fw_enabled = true;
	not_before("host esx01: firewall ruleset pvrdma differs");
	now_hosts[0].vnic.mtu = 9000;
	not_before("host esx01: its pvrdma VMkernel NIC differs");
	now_hosts[0].vnic.ip[0] = '\0'; /* a server that clobbers the address */
	not_before("host esx01: its pvrdma VMkernel NIC differs");
	now_hosts[0].vnic.found = false;
	not_before("host esx01: its pvrdma VMkernel NIC differs");
	/* An option never set, put back as "" (it cannot be removed): ESXi's default, the same. */
	now_hosts[0].vmknic_set = true;
	assert_true(dvs_at_before(&was, &now, why, sizeof(why)));
	/* A host not found is not judged. */
	setup_states();
	was_hosts[1].found = now_hosts[1].found = false;
	now_hosts[1].member = true;
	assert_true(dvs_at_before(&was, &now, why, sizeof(why)));
	/* A module that was not read (no HostKernelModuleSystem) is not judged either. */
	setup_states();
	was_hosts[0].mod[0].state = now_hosts[0].mod[0].state = DVS_MODULE_NO_API;
	now_hosts[0].mod[0].live[0] = '\0';
	assert_true(dvs_at_before(&was, &now, why, sizeof(why)));
}

static char *request_text(xmlDocPtr doc)
{
	xmlChar *text;
	int len;
	assert_non_null(doc);
	xmlDocDumpMemory(doc, &text, &len);
	xmlFreeDoc(doc);
	char *s = strdup((const char *)text);
	xmlFree(text);
	return s;
}

static void has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fprintf(stderr, "request: %s\nwanted: %s\n", text, part);
	assert_non_null(strstr(text, part));
}

static void test_restore_request(void **state)
{
	(void)state;
	setup_states();
	assert_false(dvs_switch_restore_differs(&was, &now));
	part_way();
	assert_true(dvs_switch_restore_differs(&was, &now));
	char *s = request_text(dvs_restore_request(&was, &now));
	/* The live version: the checkpoint's is stale after the push's reconfigure. */
	has(s, "<configVersion>7</configVersion>");
	/* The uplink names as they were, none added. */
	has(s, "<uplinkPortName>up-a</uplinkPortName><uplinkPortName>up-b</uplinkPortName>"
	       "</uplinkPortPolicy>");
	/* esx01 back to vmnic2 alone, on its own port; esx02, which joined, removed. */
	has(s, "<operation>edit</operation><host type=\"HostSystem\">host-21</host>");
	has(s, "<pnicDevice>vmnic2</pnicDevice><uplinkPortKey>1</uplinkPortKey>"
	       "<uplinkPortgroupKey>pg-up</uplinkPortgroupKey></pnicSpec></backing>");
	assert_null(strstr(s, "vmnic3"));
	has(s, "<operation>remove</operation><host type=\"HostSystem\">host-22</host></host>");
	has(s, "<maxMtu>1500</maxMtu>");
	free(s);

	/* An unset maxMtu cannot be sent back: left out, and the proof then says it differs. */
	setup_states();
	was.max_mtu = 0;
	now.max_mtu = 9000;
	assert_false(dvs_switch_restore_differs(&was, &now));
	s = request_text(dvs_restore_request(&was, &now));
	assert_null(strstr(s, "maxMtu"));
	assert_null(strstr(s, "uplinkPortPolicy"));
	assert_null(strstr(s, "<host>"));
	free(s);
	char why[256];
	assert_false(dvs_at_before(&was, &now, why, sizeof(why)));

	/* A member that the read-back no longer shows is added back with its NICs. */
	setup_states();
	now_hosts[0].member = false;
	now_hosts[0].n_pnics = 0;
	s = request_text(dvs_restore_request(&was, &now));
	has(s, "<operation>add</operation><host type=\"HostSystem\">host-21</host>");
	has(s, "<pnicDevice>vmnic2</pnicDevice>");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_at_before),
	    cmocka_unit_test(test_restore_request),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
