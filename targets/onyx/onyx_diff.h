/* SPDX-License-Identifier: MIT */
/*
 * Onyx command texts: the command list, the diff from a read-back to the
 * desired state, the generated file, and the pieces the rollback shares.
 */
#ifndef QG_ONYX_DIFF_H
#define QG_ONYX_DIFF_H

#include "onyx_config.h"

/*
 * A command list: lines "<section>\t<command>\n", section an enum
 * onyx_section, in running-config order. onyx_cmds_next() is the one place
 * that reads it: it sets *section and the command (line, len bytes, no
 * newline), advances *cursor, and is false at the end.
 */
bool onyx_cmds_next(const char **cursor, int *section, const char **line, size_t *len);

/*
 * The commands that take `have` to exactly `want` for everything `want`
 * manages, fewest first: ports that need the same command share one line,
 * their ranges compressed as Onyx prints them; priorities mapped to the pool
 * beyond want's are unmapped, and want's priority is unmapped from any other
 * pool. A command list (above); nothing is appended when in sync. Call
 * onyx_config_judge() first.
 */
void onyx_config_diff(const struct onyx_config *want, const struct onyx_config *have,
		      struct qg_buf *cmds);

/*
 * Every line `want` manages, as the switch prints them: the generated file.
 * It is the diff against a switch where nothing matches, so the file, the
 * diff and the rollback share one set of command texts.
 */
void onyx_config_emit(const struct onyx_config *want, struct qg_buf *cmds);

/* Ports that need the same command, in port order. */
struct onyx_group {
	char what[128];
	struct qg_port *ports;
	size_t n;
};

/*
 * As many groups as distinct commands: a rollback may need one per port (20
 * ports, 20 earlier MTUs), so there is no fixed cap to fall off.
 */
struct onyx_groups {
	struct onyx_group *v;
	size_t n, cap;
	bool oom;
};

/* Add port id to the group of command what (out of memory: g->oom). */
void onyx_groups_add(struct onyx_groups *g, const char *what, const struct qg_port *id);

/*
 * Print and empty the groups, as command-list lines of section: one line per
 * run of ports, as onyx.c prints them. out->failed on out of memory.
 */
void onyx_groups_flush(struct onyx_groups *g, int section, struct qg_buf *out);
void onyx_groups_free(struct onyx_groups *g);

/* Does congestion control, or the scheduler, of a traffic class differ? */
bool onyx_tc_cc_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have);
bool onyx_tc_ets_differs(const struct onyx_tc_cfg *want, const struct onyx_tc_cfg *have);

/* "traffic pool NAME [no ]map switch-priority P ...": nothing when mask is 0. */
void onyx_pool_map_line(struct qg_buf *out, const char *name, bool no, uint8_t mask);

/*
 * The per-port command texts (after "interface ethernet PORTS "), one
 * formatter each, shared by the diff and the rollback. A value at its default
 * gives the "no" form.
 */
void onyx_mtu_text(char *what, size_t len, int mtu);
void onyx_trust_text(char *what, size_t len, const char *trust);
void onyx_cc_text(char *what, size_t len, int tc, const struct onyx_tc_cfg *t);
void onyx_ets_text(char *what, size_t len, int tc, const struct onyx_tc_cfg *t);

#endif
