/* SPDX-License-Identifier: MIT */
/*
 * Derived values. Each one is computed here and nowhere else, so that the
 * switch, the hosts, the ESXi driver and `qosgen explain` cannot disagree.
 */
#ifndef QG_DERIVE_H
#define QG_DERIVE_H

#include "model.h"

/* ECN codepoint ECT(0) (RFC 3168): the low two bits of the ToS byte = 10b. */
#define QG_ECT0 2

/*
 * RoCEv2 overhead the kernel subtracts from the netdev MTU before choosing
 * the IB MTU (iboe_get_mtu in include/rdma/ib_addr.h): GRH 40 + UDP 8 +
 * BTH 12 + XRC ext 4 + AtomicETH 28 + ICRC 4.
 */
#define QG_ROCE_MTU_OVERHEAD 96

/* The DSCP that hosts put on RoCE packets: the first of lossless.dscp. */
int qg_host_dscp(const struct qg_qos *q);
/* ToS / traffic-class byte for RoCE: dscp << 2 | ECT(0) when ECN is on. */
int qg_roce_tos(const struct qg_qos *q);
/* The same byte without the ECN bits, for explain (users confuse the two). */
int qg_roce_tos_without_ecn(const struct qg_qos *q);
/* PFC enable vector as mlnx_qos takes it: "0,0,0,1,0,0,0,0" for priority 3. */
void qg_pfc_vector(int priority, char out[16]);
/* The same as an 8-bit bitmap (ESXi nmlx5_core pfctx/pfcrx): 0x08 for priority 3. */
unsigned qg_pfc_bitmap(int priority);
/* Largest IB MTU (256..4096) that fits a netdev MTU; 0 if none does. */
int qg_roce_path_mtu(int netdev_mtu);
/* Netdev MTU needed for a RoCE path MTU of 4096. */
#define QG_MTU_FOR_ROCE_4096 (4096 + QG_ROCE_MTU_OVERHEAD)
/*
 * ECN thresholds: the intent's kB (qos.ecn.min_kb, max_kb; Onyx takes them
 * as they are, in KB) in bytes, for the OSes that take bytes (NVUE's
 * min-threshold/max-threshold, SONiC's WRED_PROFILE green_min/max_threshold,
 * sonic-wred-profile.yang: units bytes). kB as 1000 bytes: NVIDIA's RoCE
 * defaults are 150 and 1500 on Onyx and 150000 and 1500000 bytes on Cumulus
 * Linux, the same setting.
 */
long qg_ecn_bytes(int kb);
/*
 * What the least switch port MTU adds to the host's IP MTU: the Ethernet
 * header (14 bytes) and the FCS (4), an untagged frame's 18. A trust-pcp
 * fabric's 802.1Q tag adds 4 more: the default switch MTU (9216) leaves
 * room for it. The vendors do not say alike whether their port MTU counts
 * the header and FCS (docs/intent.md), so this is a floor, not a size.
 */
#define QG_SWITCH_MTU_OVERHEAD 18
/* The DSCP-to-priority map that Onyx and mlx5 apply by default: DSCP/8. */
static inline int qg_default_dscp_priority(int dscp)
{
	return dscp >> 3;
}

/*
 * The DSCP map a target that programs the whole map writes (issue 23):
 * each class's DSCPs to its priority; every other DSCP to DSCP/8, except,
 * with q->dscp_exact, where DSCP/8 is a class's priority: those go to the
 * lowest priority no class holds, a lossy one. So `dscp: [26]` makes DSCP
 * 26 lossless, not 24..31. Without dscp_exact (a switch of the fabric
 * programs no map) it is m->qos.dscp_prio, DSCP/8 for the rest, so every
 * hop classifies alike. The hosts keep DSCP/8 for the rest in any case:
 * a host cannot tell which switch it is cabled to, and its map only
 * decides which of its own queues a DSCP it sends takes.
 */
void qg_dscp_map_exact(const struct qg_qos *q, uint8_t out[64]);
/* The lowest priority no class holds: where qg_dscp_map_exact sends the rest. */
int qg_lossy_priority(const struct qg_qos *q);

/*
 * The egress traffic class of every switch-priority, one rule on every
 * switch OS (issue 34, docs/intent.md "One intent, one behaviour on every
 * OS"): the classes' priorities to their traffic classes (lossless_tc, and
 * cnp_tc, -1 without a CNP class: the target's own, which may differ from
 * the intent's where its OS reserves one), every other priority p to TC p,
 * Onyx's default switch-priority-to-TC map, which the onyx target keeps (it
 * cites no remap command), so that the DSCPs of no class keep their DSCP/8
 * classes on every OS; where a class holds TC p, to the lowest TC that
 * neither a class nor another priority holds (the one a class's priority
 * leaves), so every priority of no class keeps a queue of its own and none
 * shares a class's.
 */
void qg_priority_tcs(const struct qg_qos *q, int lossless_tc, int cnp_tc, int out[8]);
/*
 * The k-th (0-based) of n shares of rest split as evenly as integers allow,
 * the first ones taking the odd units: the traffic classes of no class
 * share what the classes' WRR weights leave (50 among six: 9 9 8 8 8 8).
 */
static inline int qg_even_share(int rest, int n, int k)
{
	return n > 0 ? rest / n + (k < rest % n ? 1 : 0) : 0;
}

struct qg_model;
struct qg_diags;
/*
 * For a target that programs no DSCP map: an error at each class's DSCPs
 * that m->qos.dscp_prio sends elsewhere than DSCP/8, naming the target and
 * the DSCPs that would work. Nothing with trust pcp.
 */
void qg_check_fixed_dscp_map(const struct qg_model *m, const char *target, struct qg_diags *d);

#endif
