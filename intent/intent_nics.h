/* SPDX-License-Identifier: MIT */
/*
 * A host's `nics:` (issue 28): a GPU server's RoCE NICs, one per rail, each
 * a {netdev, rdma_device} mapping whose two names may be bracket ranges
 * expanded pairwise ("ens[1-8]f0np0" with "mlx5_[0-7]" is eight NICs).
 */
#ifndef QG_INTENT_NICS_H
#define QG_INTENT_NICS_H

#include "../model/bounds.h"
#include "intent_walk.h"

/* The row of target t's list of NICs (a LIST row with items), or NULL. */
const struct qg_key *intent_nics_row(const struct qg_target *t);

/*
 * Read n, the value of `nics` at path ("hosts[gpu-001].nics"), with the
 * rows of row's items into out, each NIC starting as def (the host's
 * function and qos_tool). Names are checked with each row's rule and must
 * be unique in the host; the NICs are at most QG_NICS_MAX. Returns how many
 * NICs out holds, 0 after reporting any problem.
 */
/*
 * How many NICs n, the value of `nics` with row's items, gives once read,
 * counted from its text without expanding a range: each item the larger
 * count of its names (a name that is no range, or not a valid one, counts
 * 1: reading reports it). n not a list: 1. Saturates at SIZE_MAX.
 */
size_t intent_nics_count(const struct qg_ynode *n, const struct qg_key *row);

size_t intent_nics_read(struct walk *w, const struct qg_ynode *n, const char *path,
			const struct qg_key *row, const struct qg_nic *def,
			struct qg_nic out[QG_NICS_MAX]);

#endif
