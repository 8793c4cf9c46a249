/* SPDX-License-Identifier: MIT */
/*
 * model/, the second floor (docs/architecture.md): what a fabric is, as data
 * and the rules that derive from it, with no file or device in sight: the
 * model, its derived values (derive, settings), the key table (keys), the
 * diagnostics and warning names (diag, warnings), the switch hardware and
 * headroom arithmetic (switch_hw, port_kind, headroom), port sets, OS
 * versions, the in-memory output set and templates, and the target
 * interface (target.h, the top of this floor), through which alone the
 * core knows targets. It includes lib/ and nothing above.
 *
 * The normalised intent: every default filled in, every reference resolved,
 * every value validated. Built once by intent_load(), read-only afterwards.
 * Build, diff/push, verify and the vSphere push all read this one model.
 *
 * Each field that has a default carries a "given" flag so that `qosgen
 * explain` can say which values came from the file and which from qosgen.
 * Positions are kept where a later stage (a target's check()) may need to
 * point back at the file.
 */
#ifndef QG_MODEL_H
#define QG_MODEL_H

#include "diag.h"
#include "osversion.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QG_NAME_LEN 64	 /* names: 1..63 characters */
#define QG_ADDR_LEN 254	 /* DNS names: at most 253 characters */
#define QG_USER_LEN 33	 /* POSIX login names: at most 32 */
#define QG_IFNAME_LEN 16 /* IFNAMSIZ */
#define QG_POOL_LEN 21	 /* Onyx: "String up to 20 characters" */
#define QG_LABEL_LEN 81	 /* vSphere datacenter / portgroup names, as qosgen accepts them */

enum qg_trust { QG_TRUST_DSCP, QG_TRUST_PCP };
enum qg_ets_mode { QG_ETS_UNSET, QG_ETS_STRICT, QG_ETS_WRR };

struct qg_ets {
	enum qg_ets_mode mode;
	int weight; /* 1..100 for wrr */
	bool given; /* false: the default below, the same on every switch OS */
	struct qg_pos pos;
};

/*
 * A class without ets (issue 34): NVIDIA's documented RoCE default, the
 * same on every switch OS, so that one intent schedules alike everywhere:
 * the lossless class WRR 50 %, CNPs strict (Cumulus Linux RoCE page,
 * "Default RoCE Configuration": "Traffic class 3 (RoCE) - WRR 50%",
 * "Traffic class 6 (CNP) - Strict"; the Onyx User Manual's `show roce`:
 * "RoCE WRR 50%", "CNP Strict", ../shared/fixtures/onyx/show_roce_doc_example.txt).
 * The other traffic classes share the rest as each OS can express it.
 */
#define QG_LOSSLESS_ETS_DEFAULT_WEIGHT 50

/* A traffic class of the policy: the lossless RoCE class or the CNP class. */
struct qg_class {
	int priority;	   /* switch-priority = PFC priority, 0..7 */
	int traffic_class; /* switch egress TC, 0..7 */
	bool tc_given;
	int dscp[64]; /* in the order given; dscp[0] is what hosts mark */
	int n_dscp;
	struct qg_ets ets;
	struct qg_pos pos, priority_pos, dscp_pos, tc_pos;
};

/*
 * qos.pfc_watchdog: absent, qosgen leaves each switch's watchdog as it is
 * (UNMANAGED); false, off on the intent's ports; true or a mapping, on with
 * these times (the defaults below for what the mapping leaves out).
 */
enum qg_pfcwd_state { QG_PFCWD_UNMANAGED, QG_PFCWD_OFF, QG_PFCWD_ON };

struct qg_pfc_watchdog {
	enum qg_pfcwd_state state;
	int detection_ms, restoration_ms, poll_ms;
	bool detection_given, restoration_given, poll_given;
	struct qg_pos pos, detection_pos, restoration_pos, poll_pos;
};

struct qg_qos {
	enum qg_trust trust;
	bool trust_given;
	struct qg_pos trust_pos;
	int mtu; /* host / VM / DVS MTU */
	bool mtu_given;
	int switch_mtu;
	bool switch_mtu_given;
	struct qg_pos mtu_pos, switch_mtu_pos;

	struct qg_class lossless;
	char pool_name[QG_POOL_LEN];
	int pool_percent_centi; /* memory percent x100: 50.00 -> 5000 */
	struct qg_pos pool_percent_pos;
	bool ecn; /* lossless.ecn given: ECN marking on the switch, DCQCN on hosts */
	int ecn_min_kb, ecn_max_kb;
	struct qg_pos ecn_pos; /* lossless.ecn's own key: where a target that lacks ECN says so */

	bool cnp; /* the cnp class is given */
	struct qg_class cnpc;

	struct qg_pfc_watchdog pfcwd;

	/*
	 * With trust dscp, the switch-priority of every DSCP: the lossless DSCPs
	 * to the lossless priority, the CNP DSCP to the CNP priority, the rest
	 * to DSCP/8 (what Onyx and mlx5 apply by default). A target that can
	 * program a map writes it; one that cannot refuses, in its check(), a
	 * map other than its default (qg_check_fixed_dscp_map).
	 */
	uint8_t dscp_prio[64];
	/*
	 * Trust dscp and every switch of the fabric programs its whole DSCP map
	 * (no switch target with QG_FIXED_DSCP_MAP): then only the classes'
	 * DSCPs are lossless on the switches, the rest of their DSCP/8 blocks
	 * lossy (qg_dscp_map_exact). Set by the loader once the switches are read.
	 */
	bool dscp_exact;
};

struct qg_target; /* model/target.h: what a device's platform names */

enum qg_device_kind { QG_DEVICE_SWITCH, QG_DEVICE_HOST, QG_DEVICE_DVS };

/*
 * A front-panel port: module, port, and its breakout lane (split 0 = not
 * split). What the numbers are written as is the target's (Onyx 1/N/M,
 * Cumulus swpNsM): see struct qg_port_syntax.
 */
struct qg_port {
	uint8_t module;
	uint8_t port;
	uint8_t split;
};

/*
 * A role's ECN thresholds replace qos.lossless.ecn's on its ports; the MTU
 * is the fabric's, one for every port (issue 28).
 */
struct qg_port_role {
	char name[QG_NAME_LEN];
	bool ecn_given; /* ecn: given: its thresholds, else the policy's */
	int ecn_min_kb, ecn_max_kb;
	int cable_m;	/* 0: not given */
	int speed_gbps; /* 0: not given, the switch's (issue 34) */
	/* The role's name, its cable_length_m and its ecn: where a target lacking them says so. */
	struct qg_pos pos, cable_pos, ecn_pos, speed_pos;
};

struct qg_switch {
	char name[QG_NAME_LEN];
	const struct qg_target *target; /* from `platform:` */
	char address[QG_ADDR_LEN];
	int port; /* SSH port */
	bool port_given;
	char user[QG_USER_LEN]; /* "" = from ~/.ssh/config, else the local user */
	struct qg_port *ports;	/* sorted, unique */
	size_t n_ports;
	/*
	 * cable_length_m: each port's cable length in meters, parallel to ports;
	 * NULL when the intent gives none (the switch keeps its own), 0 for a
	 * port a mapping without `default` leaves out.
	 */
	int *cable_m;
	/*
	 * roles (issue 28): named sets of the switch's ports with their own ECN
	 * thresholds and cable length, e.g. the ports to hosts and those to
	 * spines. port_role is parallel to ports: the index of its role plus
	 * one, 0 for a port in no role (it takes the policy's). NULL and 0 when
	 * the intent gives no roles. A role's cable length lands in cable_m.
	 */
	struct qg_port_role *roles;
	size_t n_roles;
	uint8_t *port_role;
	/*
	 * os_version (issue 34): the OS version the switch runs, whose dialect
	 * its files are written in; when not given, its target's newest
	 * (model/osversion.h), "" for a target that declares no versions.
	 */
	char os_version[QG_VERSION_LEN];
	bool os_version_given;
	/*
	 * model (issue 34): the switch's hardware, an index of
	 * qg_switch_models (model/switch_hw.h), for its headroom. speed_gbps:
	 * its ports' speed, given or, with a model, the model's native speed;
	 * 0 without either. A role's speed_gbps replaces it on its ports.
	 */
	int model;
	bool model_given;
	int speed_gbps;
	bool speed_given;
	struct qg_pos pos, ports_pos, cable_pos, roles_pos, os_version_pos, model_pos, speed_pos;
};

enum qg_qos_tool { QG_TOOL_MLNX_QOS, QG_TOOL_DCB };
enum qg_function { QG_FN_PF, QG_FN_VF };

/*
 * One RoCE NIC of a host (issue 28): its netdev, its RDMA device, and what
 * shapes its calls. A GPU server has one per rail; the one-NIC shorthand
 * (netdev, rdma_device, function, qos_tool on the host entry) is nics[0].
 */
struct qg_nic {
	char netdev[QG_IFNAME_LEN];
	char rdma_device[QG_NAME_LEN];
	enum qg_qos_tool qos_tool;
	bool qos_tool_given;
	enum qg_function function;
	bool function_given;
	struct qg_pos pos;
};

struct qg_host {
	char name[QG_NAME_LEN];
	const struct qg_target *target; /* from `platform:` */
	char address[QG_ADDR_LEN];
	int port; /* SSH port */
	bool port_given;
	char user[QG_USER_LEN];
	/*
	 * The platform keys: which a target takes is its keys list. nics: the
	 * host's RoCE NICs in the order given, at least one for a target that
	 * takes netdev (linux), none otherwise. The hosts of one host list share
	 * one array (the model's nic_blocks own it). nics_listed: given as
	 * `nics:`, not as the one-NIC shorthand. nics_refused: that list was
	 * refused (said there), so nics holds a stand-in that nothing else may
	 * judge, such as verify's rails (one cause, one message: issue 37).
	 */
	const struct qg_nic *nics;
	size_t n_nics;
	bool nics_listed, nics_refused;
	struct qg_pos nics_pos;
	char uplink[QG_IFNAME_LEN];
	char pvrdma_vmknic[QG_IFNAME_LEN]; /* "" = not given */
	/* Installed on the host so its settings come back after a reset (linux: default true). */
	bool persist;
	bool persist_given;
	struct qg_pos pos, pvrdma_vmknic_pos;
};

struct qg_dvs {
	char name[QG_LABEL_LEN];
	const struct qg_target *target; /* the registry's one DVS target */
	char vcenter[QG_ADDR_LEN];
	char datacenter[QG_LABEL_LEN];
	int mtu;
	bool mtu_given;
	int uplinks;
	char portgroup[QG_LABEL_LEN]; /* "" = none */
	size_t *hosts;		      /* indices into model.hosts, in the order given */
	size_t n_hosts;
	struct qg_pos pos;
};

/*
 * A verify pair: client's NIC k talks to server's NIC k for each rail k it
 * names (issue 28). rails: indices into both hosts' nics, ascending; a pair
 * that names none (n_rails 0, rails_given false) runs rail 0 alone, the
 * one-NIC behaviour; `rails: all` is every rail of the host with fewer.
 */
struct qg_pair {
	size_t client, server;	/* indices into model.hosts */
	int64_t min_gbps_centi; /* Gb/s x100 */
	size_t *rails;
	size_t n_rails;
	bool rails_given, rails_all;
	struct qg_pos pos, rails_pos;
};

struct qg_verify {
	struct qg_pair *pairs;
	size_t n_pairs;
	int message_size;
	bool message_size_given;
	int duration_s;
	bool duration_given;
};

/*
 * acknowledge: a warning the intent keeps on purpose (issue 25), by name
 * (model/warnings.h): not printed, not failing --strict, listed by explain.
 */
#define QG_BECAUSE_LEN 201 /* because: 1..200 bytes */
struct qg_ack {
	enum qg_warning_id warning;
	char because[QG_BECAUSE_LEN]; /* "" when the intent gives no reason */
	struct qg_pos pos;
};

struct qg_model {
	/* The registry the intent was read with (NULL-terminated), in emit order. */
	const struct qg_target *const *targets;
	/*
	 * The intent file as the user named it (qg_intent_load_file; NULL when
	 * read from text), for a diagnostic found later at one of its lines: a
	 * read-back's ports the switch lacks, at the intent's `ports:`.
	 */
	const char *file;
	int version;
	char fabric[QG_NAME_LEN];
	struct qg_qos qos;
	struct qg_switch *switches;
	size_t n_switches;
	struct qg_host *hosts;
	size_t n_hosts;
	/* The hosts' nics arrays, one per hosts entry that has NICs: freed with the model. */
	struct qg_nic **nic_blocks;
	size_t n_nic_blocks;
	struct qg_dvs *dvs;
	size_t n_dvs;
	struct qg_verify verify;
	struct qg_ack *acks;
	size_t n_acks;
	/*
	 * The feature warnings' names (ignored-by-<platform>-<feature>), made
	 * from targets when the intent is loaded (model/warnings.h): what a
	 * feature warning's id and an acknowledgement's mean in this model.
	 */
	struct qg_warning_set warnings;
};

void qg_model_free(struct qg_model *m);

/* Defaults, in one place; docs/intent.md lists the same. */
#define QG_DEFAULT_MTU 9000
#define QG_DEFAULT_SWITCH_MTU 9216
#define QG_DEFAULT_SSH_PORT 22
#define QG_DEFAULT_MESSAGE_SIZE 65536
#define QG_DEFAULT_DURATION_S 5
#define QG_DEFAULT_DVS_UPLINKS 1
/* cable_length_m's range: NVUE's cable-length, 1..100000 m, the widest of the switch OSes. */
#define QG_CABLE_M_MAX 100000
/*
 * pfc_watchdog: SONiC's defaults (sonic-utilities pfcwd/main.py:
 * DEFAULT_DETECTION_TIME, DEFAULT_RESTORATION_TIME, DEFAULT_POLL_INTERVAL,
 * 200 ms each). The ranges are the intent's: the widest of the switch OSes
 * that take them, each target checking its own (SONiC's sonic-pfcwd.yang:
 * targets/sonic/sonic.c). poll_ms: NVUE's polling-interval 100..5000;
 * detection_ms: NVUE's polling-interval x robustness (1..1000), at most
 * 5000 x 1000; restoration_ms: SONiC's, the one OS that has it. The rule
 * that detection and restoration are at least poll_ms is the watchdog's own
 * (intent/intent_qos.c).
 */
#define QG_PFCWD_DETECTION_MS 200
#define QG_PFCWD_RESTORATION_MS 200
#define QG_PFCWD_POLL_MS 200
#define QG_PFCWD_POLL_MIN 100
#define QG_PFCWD_POLL_MAX 5000
#define QG_PFCWD_DETECTION_MIN 100
#define QG_PFCWD_DETECTION_MAX 5000000
#define QG_PFCWD_RESTORATION_MIN 100
#define QG_PFCWD_RESTORATION_MAX 60000

static inline const char *qg_trust_name(enum qg_trust t)
{
	return t == QG_TRUST_DSCP ? "dscp" : "pcp";
}

#endif
