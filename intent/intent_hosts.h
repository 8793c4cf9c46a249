/* SPDX-License-Identifier: MIT */
/*
 * The intent's hosts: common keys, each platform's own keys (struct
 * qg_target's keys), host lists expanded into one host per name, and
 * references to a host by name (dvs.hosts, verify.pairs).
 */
#ifndef QG_INTENT_HOSTS_H
#define QG_INTENT_HOSTS_H

#include "intent_walk.h"

/* hosts: each entry into m->hosts, host lists expanded. */
void intent_hosts_load(struct walk *w, const struct qg_ynode *n);
/*
 * A host named by a reference: its index, or -1 after reporting (absent, or
 * of a platform without the capability want, QG_CAN_*, which role names).
 */
long intent_host_ref(struct walk *w, const struct qg_ynode *n, const char *path, unsigned want,
		     const char *role);

#endif
