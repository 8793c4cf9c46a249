/* SPDX-License-Identifier: MIT */
/*
 * What one intent may ask of a build (issue 24, item 10). An intent arrives
 * in pull requests and CI builds it: 330 bytes of `gpu-[1-1000000]` once took
 * 22 s, 3.9 GB and wrote 793 MB. These bounds keep a build of the largest
 * accepted intent within what bench/bounds.sh measures and docs/intent.md
 * ("Bounds") states, and leave real fabrics (bench/build.sh: 5,000 switches
 * and 100,000 hosts) buildable. intent/intent.c refuses an intent beyond them
 * at the line that passes them; emit/build.c refuses an output beyond
 * QG_OUTPUT_MAX at the device whose files pass it.
 */
#ifndef QG_BOUNDS_H
#define QG_BOUNDS_H

/* Hosts, after host lists are expanded. */
#define QG_HOSTS_MAX 150000u
/*
 * RoCE NICs of one host, bracket ranges expanded (issue 28): a GPU server
 * has one per rail, 8 today; each NIC is a run of its host's script.
 */
#define QG_NICS_MAX 32u
/*
 * RoCE NICs of the whole fabric: each host's NICs, ranges expanded, summed
 * over the hosts, host lists expanded (issue 36, finding 2). The two bounds
 * above alone let 150,000 hosts of 32 NICs (an 18.5 MB intent) run 17.8 s
 * and 3.6 GB before the output bound refused them. A NIC faces a switch
 * port, and a fabric has at most QG_PORTS_MAX ports: 150,000 hosts of one
 * NIC, or 5,120 of 32, fit. Counted on the intent's text, before any range
 * or host list is expanded (intent/intent_hosts.c).
 */
#define QG_FABRIC_NICS_MAX 163840u
/* Switches. */
#define QG_SWITCHES_MAX 10000u
/*
 * Ports, summed over all switches: a switch's cost grows linearly with its
 * ports (bench/sonic_ports.sh; SONiC's ports cost the most). 5,000
 * switches of 32 ports are 160,000.
 */
#define QG_PORTS_MAX 163840u
/*
 * Port roles of one switch (issue 28): the ports to hosts, to spines, to a
 * storage rail; a switch has a handful. A port's role is kept in a byte
 * (struct qg_switch's port_role).
 */
#define QG_ROLES_MAX 16u
/*
 * A build's output, every file and plan.json together: the largest intent
 * the bounds above accept writes 401 MB since issue 23 (a SONiC port
 * owns its queues, buffers and schedulers), so 256 MiB refused an intent
 * they let through. It is also the most
 * qosgen reads back of an output tree (emit/outread.c: `build --check`, the
 * plan.json of a directory -o replaces): no file of an output qosgen wrote
 * can be larger, so a larger one is not qosgen's, and an output qosgen
 * wrote is always read back whole.
 */
#define QG_OUTPUT_MAX (512u << 20)

#endif
