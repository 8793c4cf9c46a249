/* SPDX-License-Identifier: MIT */
/*
 * SONiC port names, as config_db's PORT table keys them: "EthernetN", N the
 * port's first lane (so a 32 x 100G switch has Ethernet0, Ethernet4, ...,
 * Ethernet124, a 64 x 400G one Ethernet0, Ethernet8, ..., and breaking
 * Ethernet0 out into four gives Ethernet0..Ethernet3). Which numbers exist
 * is the platform's, so a range says its step: "Ethernet0-124/4" is every
 * fourth number from 0 to 124; "Ethernet0-124" alone is refused, since
 * either reading (every number, or every port that exists) would guess.
 * In struct qg_port: N as module N / 256 and port N % 256, split 0, so the
 * core's order is N's order. Which front-panel port a name is, with a
 * model, is its platform.json's (SN2201 numbers its 1G ports one by one):
 * sonic_port_syntax's panel.
 */
#ifndef QG_SONIC_PORTS_H
#define QG_SONIC_PORTS_H

#include "../../model/target.h"

/* 1024 lanes: twice the largest SONiC switch's 512 (64 x 8-lane ports). */
#define SONIC_PORT_MAX 1023
#define SONIC_STEP_MAX 8 /* the widest port has 8 lanes */

int sonic_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen);
/* N of a parsed port. */
unsigned sonic_port_number(const struct qg_port *p);
void sonic_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN]);
void sonic_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN]);

extern const struct qg_port_syntax sonic_port_syntax;

#endif
