/* SPDX-License-Identifier: MIT */
/*
 * The SONiC driver: the steps of the push engine (targets/engine.h) as
 * SONiC's own CLI over SSH, one command a channel, as its operators run it
 * (sonic-utilities' generic config updater):
 *
 *   show version                             the release (sonic_version.h), first
 *   show runningconfiguration all            the read-back (config_db JSON)
 *   sudo -n config checkpoint NAME           the earlier configuration, kept
 *   sudo -n config apply-patch /dev/stdin    the JSON Patch, on the channel's stdin
 *   sonic-db-dump -n STATE_DB|APPL_DB ...    in sync: the buffer manager's verdict
 *                                            (sonic_verdict.h), waited for
 *   sudo -n config rollback NAME             back to the checkpoint
 *   sudo -n config save -y                   only once in sync and held
 *   sudo -n config delete-checkpoint NAME    only after success
 *
 * apply-patch validates the patched configuration against SONiC's YANG
 * models before it changes anything, so a refused patch leaves the switch
 * as it was: the read-back decides, at every path the patch touches. A
 * connection lost during apply-patch leaves the outcome unknown: the engine
 * rolls back to the checkpoint on a new connection. An apply-patch that
 * does not answer within --timeout is not a lost connection: it may still
 * be applying (GCU applies a change a second, and a switch's `show` reads
 * the database, not behind the apply), so only "in sync" is final then, and
 * nothing is rolled back under it. The checkpoint stays on the switch
 * whenever the switch may not be as it was, so `config rollback NAME` is
 * at hand. `sudo -n`: a sudo that wants a password fails at once instead of
 * waiting for one on a channel with no terminal. `--dry-run` runs
 * apply-patch's own dry run: the switch validates, nothing changes. A
 * configuration in sync that the buffer manager refuses (a lossless PG
 * over its port's headroom limit, kept in config_db, absent from APPL_DB)
 * is rolled back like any failure: the engine's verdict step.
 */
#ifndef QG_SONIC_PUSH_H
#define QG_SONIC_PUSH_H

struct qg_driver;
extern const struct qg_driver qg_driver_sonic;

#endif
