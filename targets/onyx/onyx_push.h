/* SPDX-License-Identifier: MIT */
/*
 * Push to an Onyx switch: the steps of the push engine (targets/engine.h)
 * over an Onyx CLI session (onyx_session.c).
 *
 *   read back     show running-config, parsed (onyx_config_parse)
 *   plan          onyx_config_judge, then onyx_config_diff: only the difference
 *   checkpoint    configuration write to qosgen-pre-DATE no-switch: a named
 *                 copy; no-switch keeps the active file active
 *   apply         configure terminal, one line at a time, exit
 *   roll back     from the latest read-back, every setting the push manages
 *                 back to what the first read-back showed (onyx_config_restore)
 *   save          configuration write, only once the read-back is in sync
 *
 * A refused line is said in the switch's own words; the lines before it
 * took effect, so the engine reads back and rolls back. A dropped session
 * may have applied its last line: the engine reconnects and reads back.
 */
#ifndef QG_ONYX_PUSH_H
#define QG_ONYX_PUSH_H

struct qg_driver;
extern const struct qg_driver qg_driver_onyx;

#endif
