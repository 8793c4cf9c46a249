/* SPDX-License-Identifier: MIT */
/*
 * Cumulus Linux switch port names, as NVUE writes them: "swp1", a breakout
 * lane "swp1s0", and ranges "swp1-32", "swp1s0-3" (Cumulus Linux 5.x,
 * Switch Port Attributes: breakout ports are named swpNsM, lanes from 0).
 * In struct qg_port: module 1, port N, split M + 1 (0 = not broken out).
 */
#ifndef QG_CUMULUS_PORTS_H
#define QG_CUMULUS_PORTS_H

#include "../../model/target.h"

#define CUMULUS_PORT_MAX 128 /* front-panel ports: Spectrum switches have at most 128 */
#define CUMULUS_LANE_MAX 7   /* breakout lanes swpNs0..s7 */

int cumulus_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen);
void cumulus_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN]);
void cumulus_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN]);

extern const struct qg_port_syntax cumulus_port_syntax;

#endif
