/* SPDX-License-Identifier: MIT */
/*
 * RDMA port counters, read before and after a traffic test. The names are
 * whatever the device offers: the directories are listed, never assumed
 * (mlx5 has out_of_sequence and np_cnp_sent, rxe has out_of_seq_request and
 * rcvd_seq_err; see docs/internals.md).
 */
#ifndef QG_COUNTERS_H
#define QG_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vc_counter {
	char name[64];
	uint64_t value;
};

struct vc_counters {
	struct vc_counter *v; /* sorted by name */
	size_t n;
};

/*
 * Every numeric file in ROOT/class/infiniband/DEV/ports/PORT/counters and
 * .../hw_counters (ROOT is "/sys" on a host, a fixture tree in tests).
 * 0, or -1 with err when the port does not exist.
 */
int vc_counters_read(const char *root, const char *dev, int port, struct vc_counters *out,
		     char *err, size_t errlen);

/* `rdma statistic show link DEV/PORT`: "link rxe0/1 sent_pkts 16043 ...". Pure. 0 or -1. */
int vc_counters_parse_rdma_statistic(const char *text, struct vc_counters *out);

/* after - before, for the names in both (a counter that went backwards gives 0). */
int vc_counters_delta(const struct vc_counters *before, const struct vc_counters *after,
		      struct vc_counters *delta);

/* Build a set by hand (a remote read-back): add, then sort once. 0 or -1 (memory). */
int vc_counters_add(struct vc_counters *c, const char *name, uint64_t value);
void vc_counters_sort(struct vc_counters *c);

const struct vc_counter *vc_counter_find(const struct vc_counters *c, const char *name);
void vc_counters_free(struct vc_counters *c);

#endif
