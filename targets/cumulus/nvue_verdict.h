/* SPDX-License-Identifier: MIT */
/*
 * NVUE's own verdict on a state qosgen's read-back shows in sync (issue 34):
 * what NVUE made operational of the lossless-RoCE state it applied, judged
 * from its operational view rather than the configuration. The views are
 * NVUE's RoCE status: `nv show qos roce` (GET /nvue_v1/qos/roce?rev=
 * operational: mode, pfc pfc-priority / rx-enabled / tx-enabled,
 * congestion-control enabled-tc) and `nv show interface <if> qos roce
 * status` (GET /nvue_v1/interface/<if>/qos/roce/status: its pfc), as the
 * RoCE page prints them ("Verify RoCE Configuration", Cumulus Linux 5.6 to
 * 5.16). Pure: the driver (cumulus_push.c) reads the views and calls these.
 */
#ifndef QG_NVUE_VERDICT_H
#define QG_NVUE_VERDICT_H

#include "../../lib/buf.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The switch-wide RoCE status against want (the tree qosgen applied): 0
 * when NVUE runs want's RoCE mode with PFC on want's lossless priority
 * (sending and receiving as want says) and ECN on want's lossless traffic
 * class where want marks it; else -1 with the first difference in err, in
 * NVUE's words: the status path, what was applied and what NVUE shows.
 */
int nvue_verdict_roce(const cJSON *want, const cJSON *roce, char *err, size_t errlen);

/* One port's RoCE status (port one of want's interfaces): its PFC as for nvue_verdict_roce. */
int nvue_verdict_port(const cJSON *want, const char *port, const cJSON *status, char *err,
		      size_t errlen);

/* Does NVUE's list text ("3", "0,3", "0-2,4") or number hold n? */
bool nvue_list_has(const cJSON *list, int n);

/*
 * The headroom comparison of issue 34: where the switch shows the headroom
 * it reserved for a port's lossless priority group (shown_bytes), against
 * the figure qosgen computes for it (expected_bytes, model/headroom.h's
 * qg_headroom_port() once it lands): a line in warnings when they differ
 * by more than tolerance_pct of the expected figure. Not an error: NVUE
 * sized the headroom itself and holds it. Nothing yet passes the switch's
 * figure in: NVUE documents its per-port buffer view only as a table
 * (`nv show interface <if> qos buffer`, "HR"), not as the API's JSON.
 */
struct nvue_headroom {
	const char *port;
	long expected_bytes, shown_bytes;
};
void nvue_headroom_compare(const struct nvue_headroom *h, size_t n, int tolerance_pct,
			   struct qg_buf *warnings);

#endif
