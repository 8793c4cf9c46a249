/* SPDX-License-Identifier: MIT */
/*
 * Push of a vSphere Distributed Switch and its ESXi hosts' vSphere-side
 * settings through the vSphere API (vsphere/vim.c): the switch's maxMtu
 * (ReconfigureDvs_Task with the configVersion just read), and on each host
 * of dvs.hosts that names a pvrdma_vmknic, the advanced option
 * Net.PVRDMAVmknic (OptionManager) and the pvrdma firewall ruleset
 * (HostFirewallSystem). The read-back and the plan are separate from the I/O
 * so that the plan is unit-tested.
 */
#ifndef QG_DVS_PUSH_H
#define QG_DVS_PUSH_H

#include "../../gen/buf.h"
#include "../../gen/model.h"
#include "../../gen/target.h"
#include "../../vsphere/vim.h"

struct dvs_host_state {
	const struct qg_host *h;
	bool found;
	struct vim_ref ref, options, firewall;
	char vmknic[64]; /* Net.PVRDMAVmknic */
	bool vmknic_set; /* false: the key does not exist yet (InvalidName) */
	bool fw_known, fw_enabled;
	bool member; /* on the switch (config.host) */
};

struct dvs_state {
	bool found;
	struct vim_ref ref;
	int max_mtu; /* 0: unset */
	char version[64];
	int uplinks;
	int members;		      /* hosts on the switch */
	char member_ids[2048];	      /* their HostSystem ids, " id id ... " */
	struct dvs_host_state *hosts; /* one per dvs.hosts entry */
	size_t n_hosts;
};

/*
 * What differs, one "[differs] KEY: HAVE -> WANT" line each (hosts that were
 * not found, and uplinks, are "[n/a]" notes: push does not create them).
 * Returns the number of differences. Pure.
 */
int dvs_plan(const struct qg_model *m, size_t i, const struct dvs_state *st, struct qg_buf *out);

/* Where and as whom to log in: $GOVC_URL and friends, as govc reads them. */
struct dvs_endpoint {
	char url[512]; /* https://HOST/sdk, credentials removed */
	char user[256];
	char *password; /* malloc'ed; scrubbed and freed by dvs_endpoint_free */
	const char *ca_file;
	bool insecure;
};

/*
 * From the environment (GOVC_URL, which may carry user:password@,
 * GOVC_USERNAME, GOVC_PASSWORD, GOVC_INSECURE, GOVC_TLS_CA_CERTS) and the
 * intent's vcenter when GOVC_URL is unset; ca_file and insecure from the
 * command line win. 0 or -1 with err (no secret in it).
 */
int dvs_endpoint(const struct qg_dvs *d, const char *ca_file, bool insecure,
		 struct dvs_endpoint *out, char *err, size_t errlen);
void dvs_endpoint_free(struct dvs_endpoint *e);

int dvs_push(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
	     const struct qg_ssh_opts *o, bool dry_run, struct qg_push_result *r);

#endif
