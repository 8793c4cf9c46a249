/* SPDX-License-Identifier: MIT */
/*
 * Onyx's operational state (issue 34), as its `| json-print` shows print it:
 * what the switch holds, not the configuration qosgen wrote. Pure parsers
 * (no I/O), each bounded by its text's length, in the shapes of the real
 * captures in tests/fixtures/onyx/ (mellanox.onyx's unit-test fixtures):
 *
 *   show traffic pool NAME | json-print          onyx_buffer_pool.cfg
 *   show dcb ets interface ethernet X | json-print   onyx_show_dcb_ets_interface.cfg
 *   show dcb priority-flow-control | json-print   onyx_pfc_interface_enabled.cfg
 *
 * Each takes the reply as the CLI printed it: the JSON document starts at
 * the first line that opens with '{' or '[' (as mellanox.onyx's
 * _parse_json_output finds it), so a line before it does no harm.
 */
#ifndef QG_ONYX_OPER_H
#define QG_ONYX_OPER_H

#include "../../model/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ONYX_OPER_WORD 24 /* a value as Onyx printed it, for messages */

/* One traffic pool: `show traffic pool NAME | json-print`. */
struct onyx_oper_pool {
	char type[ONYX_OPER_WORD];	 /* "Type": "lossless"; "" when not printed */
	bool priorities_shown;		 /* "Switch Priorities" printed */
	uint8_t priority_mask;		 /* bit p: switch-priority p */
	char priorities[ONYX_OPER_WORD]; /* as printed */
	int64_t percent_centi;		 /* "Memory [%]" x100; -1 when not printed */
	char percent[ONYX_OPER_WORD];
	/*
	 * "Memory actual": what the switch gave the pool, in bytes ("5.9M";
	 * K, M and G read as 2^10, 2^20, 2^30: Onyx does not say which, and
	 * a comparison within a tolerance does not depend on it); -1 when
	 * not printed or "N/A".
	 */
	int64_t actual_bytes;
	char actual[ONYX_OPER_WORD];
};

/* The pool named name in text. 0, or -1 with why in err. */
int onyx_oper_pool_parse(const char *text, size_t len, const char *name, struct onyx_oper_pool *out,
			 char *err, size_t errlen);

/* One traffic class's scheduler in "ETS per TC". */
struct onyx_oper_tc {
	bool shown;
	enum qg_ets_mode mode; /* "S.Mode": Strict or WRR; QG_ETS_UNSET when another word */
	char mode_text[ONYX_OPER_WORD]; /* "S.Mode" as printed */
	int weight;			/* "W"; -1 when not a number */
};

struct onyx_oper_ets {
	struct onyx_oper_tc tc[8];
};

/*
 * Interface ifname's ("Eth1/1", "Eth1/16/2") scheduler in
 * `show dcb ets interface ethernet X | json-print`. 0, or -1 with why.
 */
int onyx_oper_ets_parse(const char *text, size_t len, const char *ifname, struct onyx_oper_ets *out,
			char *err, size_t errlen);

/* One interface of `show dcb priority-flow-control`. */
struct onyx_oper_pfc_port {
	char name[ONYX_OPER_WORD]; /* "Eth1/1", "Po1" */
	char admin[ONYX_OPER_WORD], oper[ONYX_OPER_WORD];
};

#define ONYX_OPER_PFC_PORTS 1024 /* more interfaces than any switch has: refused */

struct onyx_oper_pfc {
	struct onyx_oper_pfc_port *ports;
	size_t n;
	bool enabled_shown; /* a "Priority Enabled List" that reads as priorities */
	uint8_t enabled_mask;
	char enabled[ONYX_OPER_WORD];
};

/*
 * `show dcb priority-flow-control | json-print`, in either shape
 * mellanox.onyx's onyx_pfc_interface reads: from 3.6.6000 a list whose
 * third element holds the interfaces, before it an object with them (or
 * with them under "Table 2"). 0, or -1 with why; free with
 * onyx_oper_pfc_free() either way.
 */
int onyx_oper_pfc_parse(const char *text, size_t len, struct onyx_oper_pfc *out, char *err,
			size_t errlen);
void onyx_oper_pfc_free(struct onyx_oper_pfc *p);

/* The interface named name, or NULL. */
const struct onyx_oper_pfc_port *onyx_oper_pfc_port(const struct onyx_oper_pfc *p,
						    const char *name);

#endif
