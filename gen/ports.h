/* SPDX-License-Identifier: MIT */
/*
 * Onyx ethernet port lists: parsing "1/1-1/32" and "1/3/1-1/3/4" into single
 * ports, and printing sets of ports back as the ranges Onyx prints in its
 * running-config: one range per run of consecutive ports within a module
 * ("interface ethernet 1/7-1/8 ..."), a lone port as "1/32".
 */
#ifndef QG_PORTS_H
#define QG_PORTS_H

#include "model.h"

#include <stddef.h>

#define QG_PORT_MODULE_MAX 8
#define QG_PORT_NUMBER_MAX 128
#define QG_PORT_SPLIT_MAX 8
/* "1/128/8-1/128/8" and a NUL */
#define QG_PORT_TEXT_LEN 24

/*
 * Parse one list item: "1/N", "1/N/M", or a range "a-b" of two ports of the
 * same shape in the same module (and the same port, when split).
 * On success returns 0 and a malloc'ed array of the ports in order.
 * On error returns -1 and writes what is wrong to err.
 */
int qg_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen);

int qg_port_cmp(const struct qg_port *a, const struct qg_port *b);
void qg_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN]);

struct qg_port_run {
	struct qg_port first, last;
};

/*
 * Split sorted, unique ports into runs of consecutive ports. runs must hold n
 * entries; returns how many were written.
 */
size_t qg_port_runs(const struct qg_port *p, size_t n, struct qg_port_run *runs);
/* "1/1-1/32", or "1/5" for a run of one port. */
void qg_port_run_format(const struct qg_port_run *r, char out[2 * QG_PORT_TEXT_LEN]);

#endif
