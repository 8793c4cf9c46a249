/* SPDX-License-Identifier: MIT */
/*
 * Port sets as numbers, whatever a switch OS calls them (the names are the
 * target's: struct qg_port_syntax): order, and runs of consecutive ports,
 * which every OS prints as one range.
 */
#ifndef QG_PORTS_H
#define QG_PORTS_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

int qg_port_cmp(const struct qg_port *a, const struct qg_port *b);

/* Consecutive ports: the same module, and the next port, or the next lane of one port. */
struct qg_port_run {
	struct qg_port first, last;
};

/*
 * Split sorted, unique ports into runs of consecutive ports. runs must hold n
 * entries; returns how many were written.
 */
size_t qg_port_runs(const struct qg_port *p, size_t n, struct qg_port_run *runs);

#endif
