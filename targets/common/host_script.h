/* SPDX-License-Identifier: MIT */
/*
 * What a host runs, as three parts (issue 15, item 3: output a reviewer can
 * read at fleet scale), shared by the Linux and ESXi targets:
 *
 *   host/lib/<platform>.sh     the helper functions, the same for every host
 *                              of the platform (QG_FILE_SHARED);
 *   host/hosts/<platform>.sh   who each host is, one line per host: its name,
 *                              its group, its devices (netdev, RDMA device,
 *                              uplink) as shell assignments (QG_FILE_ROW);
 *   host/groups/<group>.sh     what its group gets: the calls, with the policy
 *                              values literal and the devices as those
 *                              variables (QG_FILE_GROUP: one per group of
 *                              hosts whose settings are the same).
 *
 * Each platform's lib starts with the prelude (host_script_prelude()). A
 * host's script is the lib, its line and its group's file, in that order,
 * byte for byte; it is what push sends, what persistence installs and what
 * Ansible runs. A policy change (MTU, lossless priority) then touches the
 * group files alone, a new host one line: not one file per host, whose
 * creation alone cost a build of 10,000 hosts a second. Pure: no I/O.
 */
#ifndef QG_HOST_SCRIPT_H
#define QG_HOST_SCRIPT_H

#include "../../lib/buf.h"
#include "../../model/target.h"

struct host_script_paths {
	char lib[32];		       /* host/lib/linux.sh */
	char hosts[32];		       /* host/hosts/linux.sh */
	char group[QG_GROUP_LEN + 16]; /* host/groups/linux-pf-mlnx_qos.sh */
	char group_name[QG_GROUP_LEN]; /* linux-pf-mlnx_qos */
};
/* The three files of host i (its target names the lib and table, its group() the group). */
void host_script_paths(const struct qg_model *m, size_t i, struct host_script_paths *p);

/*
 * The group body names a host's devices by variable. A target writes it by
 * walking a copy of the host whose device names are these markers (bytes no
 * validated name holds, model/names.c); host_script_word() writes a word
 * holding one double-quoted, with the variable in its place:
 * "/sys/class/net/\001n/ecn" becomes "/sys/class/net/$qg_netdev/ecn".
 */
#define HOST_ID_NAME "\001h"   /* $qg_host */
#define HOST_ID_NETDEV "\001n" /* $qg_netdev */
#define HOST_ID_RDMA "\001r"   /* $qg_rdma_device */
#define HOST_ID_UPLINK "\001u" /* $qg_uplink */

/* s as one shell word: single-quoted (qg_sh_word), or double-quoted around markers. */
void host_script_word(struct qg_buf *b, const char *s);

/*
 * Host i's row of its platform's table (the target's emit()): from template
 * hosts_template ("linux-hosts.sh", the table's header), its variables
 * qg_host, qg_group, then identity (NULL-terminated name, value pairs).
 */
int host_script_emit_row(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			 const char *hosts_template, const char *const *identity,
			 struct qg_outset *out);

/*
 * The prelude every host script starts with (templates/prelude.sh.in: the
 * report and apply helpers, written once), appended to out for a template's
 * {{prelude}}: the lib's of each platform and the persistence script's. It
 * is given no variables: it knows nothing of an intent. Its last newline is
 * left out, the template's own after the placeholder ending its line. 0, or
 * -EINVAL with a diagnostic in ctx->d.
 */
int host_script_prelude(const struct qg_emit_ctx *ctx, struct qg_buf *out);

/* What a target fills in for its group's files; the rest (group, paths) is known. */
struct host_script_text {
	const char *lib_template;   /* "linux-lib.sh" */
	const char *group_template; /* "linux-group.sh" */
	const char *flavour;	    /* a line for the group's header: "PF, QoS through mlnx_qos." */
	const char *body;	    /* the group's calls, one a line */
};

/*
 * The files host i shares (the target's emit_group()): its platform's lib
 * and its group's body, the same for every host of the group.
 */
int host_script_emit_group(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			   const struct host_script_text *x, struct qg_outset *out);

/*
 * The script host i runs, from files (what its target's emit() gave for it):
 * the lib, its row of the table and its group's body, appended to out. 0, -EINVAL (one of
 * them is not in files) or -ENOMEM.
 */
int host_script_assemble(const struct qg_model *m, size_t i, const struct qg_outset *files,
			 struct qg_buf *out);

#endif
