/* SPDX-License-Identifier: MIT */
/*
 * SONiC's own verdict on a push (issue 34): whether its buffer manager
 * holds the headroom of each lossless priority group qosgen wrote. Pure:
 * the driver (sonic_push.c) runs the commands and waits.
 *
 * qosgen writes BUFFER_PG|<port>|<pg> profile "NULL": the dynamic buffer
 * model's buffermgrd (sonic-swss cfgmgr/buffermgrdyn.cpp) computes the
 * PG's headroom from the port's speed, cable length and MTU
 * (buffer_headroom_<vendor>.lua), names the profile
 * pg_lossless_<speed>_<cable>[_mtu<mtu>]..._profile (getDynamicProfileName;
 * the MTU only when it is not 9100), checks the port's accumulated headroom
 * against STATE_DB BUFFER_MAX_PARAM_TABLE|<port> max_headroom_size
 * (isHeadroomResourceValid, buffer_check_headroom_<vendor>.lua, the limit
 * the vendor's SAI gives as SAI_PORT_ATTR_QOS_MAXIMUM_HEADROOM_SIZE,
 * orchagent portsorch.cpp initializePortBufferMaximumParameters) and only
 * then writes APPL_DB BUFFER_PG_TABLE:<port>:<pg> {profile} and
 * BUFFER_PROFILE_TABLE:<profile> {xon, xoff, size, pool, dynamic_th}
 * (updateBufferObjectToDb, updateBufferProfileToDb). A PG over the limit is
 * refused in the log only (refreshPgsForPort: "Update speed (...) and cable
 * length (...) for port ... failed, accumulative headroom size exceeds the
 * limit"): config_db keeps the row, APPL_DB gets no entry for it, or keeps
 * the one it had (sonic-mgmt tests/qos/test_buffer.py test_exceeding_headroom
 * checks exactly that). So the verdict reads APPL_DB, not config_db:
 *
 *   sonic-db-dump -n APPL_DB -k 'BUFFER_P[GR]*' -y     the PGs and profiles
 *   sonic-db-dump -n STATE_DB -k 'BUFFER_MAX_PARAM_TABLE|*' -y   the limits
 *
 * sonic-db-dump (sonic-py-swsssdk, sonic_db_dump_load.py over redisdl)
 * prints with -y one JSON object, keys sorted, indent 2: each key
 * {"type": "hash", "value": {field: value}} and, on SONiC's redis-py,
 * "ttl" and "expireat" (sonic-net/SONiC doc/bfd/"BFD HW Offload for BGP
 * session HLD.md" shows one). Redis's glob [GR] keeps the pattern to
 * BUFFER_PG_TABLE and BUFFER_PROFILE_TABLE (and their producer's _KEY_SET
 * sets, which are skipped: not hashes).
 */
#ifndef QG_SONIC_VERDICT_H
#define QG_SONIC_VERDICT_H

#include "../../lib/buf.h"
#include "../../model/diag.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define SONIC_DUMP_APPL "sonic-db-dump -n APPL_DB -k 'BUFFER_P[GR]*' -y"
#define SONIC_DUMP_LIMITS "sonic-db-dump -n STATE_DB -k 'BUFFER_MAX_PARAM_TABLE|*' -y"

/*
 * The longest key and field name taken from a dump (SONiC's buffer keys are
 * tens of bytes), and the longest value: a field may list a whole
 * capability (STATE_DB COPP_TRAP_CAPABILITY_TABLE's trap_ids is 400 bytes).
 */
#define SONIC_DUMP_KEY_MAX 256
#define SONIC_DUMP_VALUE_MAX 65536

/*
 * sonic-db-dump -y's output into *out: {key: {field: value}} for each hash
 * (entries of other types are skipped). -EINVAL with an error in d, at the
 * text's line and column, when it is not that (not JSON, a hash whose
 * value is not an object of strings, a key past SONIC_DUMP_KEY_MAX or
 * named twice, a value past SONIC_DUMP_VALUE_MAX); 0 or -ENOMEM otherwise.
 */
int sonic_dbdump_parse(const char *text, size_t len, cJSON **out, struct qg_diags *d);

/* A lossless PG's headroom, in bytes; -1 where unknown. */
struct sonic_figures {
	long xon, xoff, size;
};

enum sonic_pg_state {
	SONIC_PG_HELD,	   /* in APPL_DB on a profile for the port's speed, cable and MTU */
	SONIC_PG_PENDING,  /* not in APPL_DB, or on a profile of other inputs: not (yet) applied */
	SONIC_PG_NO_INPUT, /* config_db gives no speed or cable length (or 0m): never applied */
	SONIC_PG_OVER,	   /* held, but the port's PGs hold its max_headroom_size or more */
	SONIC_PG_DOWN,	   /* the port is admin down: buffermgrd reclaims its buffers */
};

/* One lossless PG of the intent, as the switch holds it. Device text made printable. */
struct sonic_pg {
	char port[64];
	int pg;
	enum sonic_pg_state state;
	char speed[16], cable[16], mtu[16]; /* config_db's ("" none; mtu "" is 9100) */
	char entry[96];			    /* APPL_DB's PG entry covering it ("Ethernet0:3-4") */
	char held[96];			    /* that entry's profile, "" none */
	struct sonic_figures fig;	    /* that profile's */
	long port_headroom;		    /* the port's PGs in APPL_DB: sizes x PGs */
	long max_headroom;		    /* STATE_DB's max_headroom_size, -1 none */
};

struct sonic_verdict {
	struct sonic_pg *pg; /* one per port, in the ports' order */
	size_t n;
};

/*
 * The verdict on PG pg of each of ports[0..n) from config (the read-back,
 * in sync), appl and limits (sonic_dbdump_parse of the two dumps; limits
 * may be NULL). 0 or -ENOMEM. Time linear in the inputs.
 */
int sonic_verdict_judge(const char *const *ports, size_t n, int pg, const cJSON *config,
			const cJSON *appl, const cJSON *limits, struct sonic_verdict *v);
void sonic_verdict_free(struct sonic_verdict *v);

/* Whether buffermgrd may still be at work: a PG pending. */
bool sonic_verdict_pending(const struct sonic_verdict *v);

/*
 * The PGs the switch does not hold (pending ones waited on for waited_s
 * seconds): their number, and in err what the first is and why, in
 * buffermgrd's terms, with the numbers and the fixes; the others' ports
 * named after it.
 */
size_t sonic_verdict_refused(const struct sonic_verdict *v, int waited_s, char *err, size_t errlen);

/* What the verdict cannot judge but the operator should know (admin-down ports), as lines. */
void sonic_verdict_notes(const struct sonic_verdict *v, struct qg_buf *warnings);

/*
 * The switch's figures of a held PG against qosgen's own (want), each of
 * xoff, xon and size: a warning line in warnings, naming both, when one
 * differs by more than tolerance_pct percent of qosgen's. 1 when warned,
 * else 0 (-1 figures are not compared).
 */
int sonic_headroom_compare(const struct sonic_pg *p, const struct sonic_figures *want,
			   int tolerance_pct, struct qg_buf *warnings);

/*
 * Why figures differ when they do (issue 34): the switch's own
 * LOSSLESS_TRAFFIC_PATTERN in config (its "AZURE" row, which qosgen does not
 * own) against the mtu and small_packet_percentage qosgen's figures take
 * (SONiC's template's: model/headroom.h). A warning line when they differ:
 * buffermgrd's Lua sizes every lossless PG from them, so the switch's
 * figures differ from qosgen's by them, and so may its budget.
 */
void sonic_pattern_note(const cJSON *config, int mtu, int small_pct, struct qg_buf *warnings);

#endif
