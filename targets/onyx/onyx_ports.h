/* SPDX-License-Identifier: MIT */
/*
 * Onyx ethernet port lists: parsing "1/1-1/32" and "1/3/1-1/3/4" into single
 * ports, and printing sets of ports back as the ranges Onyx prints in its
 * running-config: one range per run of consecutive ports within a module
 * ("interface ethernet 1/7-1/8 ..."), a lone port as "1/32".
 */
#ifndef QG_ONYX_PORTS_H
#define QG_ONYX_PORTS_H

#include "../../model/target.h"

#include <stddef.h>

#define QG_PORT_MODULE_MAX 8
#define QG_PORT_NUMBER_MAX 128
#define QG_PORT_SPLIT_MAX 8

/*
 * Parse one list item: "1/N", "1/N/M", or a range "a-b" of two ports of the
 * same shape in the same module (and the same port, when split).
 * On success returns 0 and a malloc'ed array of the ports in order.
 * On error returns -1 and writes what is wrong to err.
 */
int onyx_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen);
void onyx_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN]);
/* "1/1-1/32", or "1/5" for a run of one port. */
void onyx_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN]);

extern const struct qg_port_syntax onyx_port_syntax;

#endif
