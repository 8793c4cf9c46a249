/* SPDX-License-Identifier: MIT */
/*
 * The one configuration model of a Cumulus Linux switch: the part of NVUE's
 * object tree that qosgen owns, as NVUE's own JSON (the REST API's shape:
 * {"qos": {...}, "interface": {"swp1": {...}}}). The generated startup.yaml
 * fragment, the `nv set` commands, the settings, the read-back diff and the
 * push's merge patch are all read off this one tree. Pure: no I/O.
 *
 * What qosgen writes, after NVIDIA's Cumulus Linux 5.x docs (Quality of
 * Service and RoCE pages): the whole lossless-RoCE state it owns (issue 23;
 * the table in docs/intent.md, "What qosgen owns on a switch ... cumulus"),
 * in the default-global profiles (they apply to every port; NVUE's
 * egress-queue-mapping has no other): trust, all 64 DSCP and 8 PCP map
 * entries, all 8 switch-priorities' traffic class, all 8 traffic classes'
 * scheduling (DWRR shares adding up to 100), PFC tx and rx on exactly the
 * lossless switch priority, the roce-lossless traffic pool (NVUE's pool
 * names are a fixed set) with the rest of the buffer and every other
 * priority in default-lossy, ECN on the lossless traffic class in bytes
 * with RED off and every other class's unset (a null in the tree: owned,
 * removed where the switch has it), RoCE mode lossless (its on switch in
 * the words of the switch's release: nvue_dialect.h), and the link MTU of
 * the intent's ports; with qos.pfc_watchdog, each intent port's
 * pfc-watchdog state (enable, or disable when false) and, when on, the
 * switch's pfc-watchdog polling-interval and robustness (the Quality of
 * Service page, PFC Watchdog; NVUE 5.6's `nv set qos pfc-watchdog
 * polling-interval 100-5000`, `robustness 1-1000`, `nv set interface <id>
 * qos pfc-watchdog state enable|disable`).
 */
#ifndef QG_NVUE_CONFIG_H
#define QG_NVUE_CONFIG_H

#include "../../lib/buf.h"
#include "../../model/diag.h"
#include "../../model/model.h"
#include "../../model/settings.h"

#include <cjson/cJSON.h>

/* The tree's users: nvue_patch.h, nvue_readback.h, nvue_text.h, each included where it is used. */

/* NVUE's fixed pool names (Quality of Service, Traffic Pools). */
#define NVUE_POOL_LOSSLESS "roce-lossless"
#define NVUE_POOL_LOSSY "default-lossy"
#define NVUE_PROFILE "default-global"
#define NVUE_ECN_PROBABILITY 100 /* NVIDIA's RoCE default: mark every packet above min */
/* ECN thresholds in bytes: qg_ecn_bytes() (model/derive.h). */

/*
 * default-global's PFC cable-length: the longest cable_length_m of the
 * switch's ports that no role's PFC profile holds (without roles, all its
 * ports); 0 when the intent gives none.
 */
int nvue_cable_length(const struct qg_switch *s);

/*
 * A switch's port roles (issue 28) as NVUE port groups: a role's own
 * profiles are named NVUE_ROLE_PREFIX + its name, in congestion-control
 * (a role with ecn) and in pfc (a role with cable_length_m). Every profile
 * and interface binding that carries the prefix is qosgen's: a profile whose
 * role is gone is removed, and a binding the intent no longer makes is
 * unset (nvue_config_patch).
 */
#define NVUE_ROLE_PREFIX "qosgen-"
/*
 * NVUE's profile names: the API schema's "generic-name", whose pattern the
 * docs do not print; the NVUE simulator takes 1..63 of letters, digits and
 * _ . : - (tests/sim/NVUE.md), which every role name (model/names.h) is made of.
 */
#define NVUE_PROFILE_NAME_LEN 64
/* The profile name of role r in out; false when it would pass 63 characters. */
bool nvue_role_profile(const struct qg_port_role *r, char out[NVUE_PROFILE_NAME_LEN]);
/* The role of the switch's port k, NULL for a port in no role. */
const struct qg_port_role *nvue_port_role(const struct qg_switch *s, size_t k);
/* Does role r (NULL: none) have a congestion-control profile? A PFC profile? */
bool nvue_role_has_ecn(const struct qg_qos *q, const struct qg_port_role *r);
bool nvue_role_has_pfc(const struct qg_port_role *r);

/* NVUE's ranges (nv set qos pfc-watchdog ...). */
#define NVUE_PFCWD_POLL_MAX 5000
#define NVUE_PFCWD_ROBUSTNESS_MAX 1000

/*
 * NVUE's polling-interval and robustness for the intent's watchdog: detection
 * = poll x robustness, nearest detection_ms, with NVUE's default robustness
 * (3) or more where its 100 ms floor allows (the rule in nvue_config.c).
 */
void nvue_pfcwd_times(const struct qg_pfc_watchdog *wd, int *poll, int *robustness);

/* The share `nv set qos roce mode lossless` gives the RoCE class (RoCE page: "WRR 50%"). */
#define NVUE_ROCE_DEFAULT_SHARE 50

/*
 * The traffic class whose egress buffer NVUE's RoCE mode reserves for RoCE
 * (`qos roce mode lossless`, which qosgen turns on): the RoCE page's pool
 * tables (`nv show qos roce`, "RoCE pool config": roce-reserved-egress,
 * traffic class 3, size inf) and its "Change RoCE Configuration", which
 * moves the RoCE switch-priority from 3 to 2 and keeps it on traffic class 3
 * (`nv set qos egress-queue-mapping default-global switch-priority 2
 * traffic-class 3`, the old priority 3 to traffic class 0). A lossless class
 * on another traffic class would egress through the lossy pool.
 */
#define NVUE_ROCE_TC 3
/*
 * A class's traffic class on NVUE (cnp: the CNP class's, else the lossless
 * one's): the lossless class on NVUE_ROCE_TC whatever its priority (check()
 * refuses another traffic_class given); the CNP class on its traffic_class,
 * but where that is NVUE_ROCE_TC by default (CNP priority 3), on the one the
 * lossless priority leaves (the two trade traffic classes).
 */
int nvue_class_tc(const struct qg_qos *q, bool cnp);
/* The traffic class qosgen maps each switch-priority to (all eight are written; model/derive.h). */
void nvue_priority_tcs(const struct qg_qos *q, int out[8]);
int nvue_priority_tc(const struct qg_qos *q, int sp);
/* The traffic classes the switch-priorities of no class map to (lossy[tc]); how many. */
int nvue_lossy_tcs(const struct qg_qos *q, bool lossy[8]);
/* What they share: 100 minus the classes' DWRR weights (less than one each: check() refuses). */
int nvue_lossy_share(const struct qg_qos *q);

/* One traffic class of the egress scheduler qosgen writes: strict, or DWRR with a share. */
struct nvue_tc_sched {
	bool strict;
	int share;
};
/* All eight traffic classes' scheduling; the DWRR shares add up to exactly 100. */
void nvue_scheduler(const struct qg_qos *q, struct nvue_tc_sched out[8]);

/* The desired tree of switch i, keys sorted, one key per interface. NULL: out of memory. */
cJSON *nvue_config_from_model(const struct qg_model *m, size_t i);

#endif
