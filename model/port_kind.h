/* SPDX-License-Identifier: MIT */
/*
 * Which kind of its model's ports each port of a switch is, and the speed
 * it runs at (issue 34). A model may have ports of two kinds (SN2410: 48
 * SFP28 ports of 25G, then 8 QSFP28 of 100G; model/switch_hw.h); a port's
 * front-panel number, which its switch's target reads from its name
 * (struct qg_port_syntax's panel), says which. The rule for the speed:
 *
 *   a role's speed_gbps, on the role's ports; else the switch's
 *   speed_gbps; else the port's kind's native speed (hwsku.json's
 *   default_brkout_mode).
 *
 * A given speed a port's kind does not take is an error at the key that
 * gives it; a port that is none of the model's front-panel ports is an
 * error at the switch's ports. Pure.
 */
#ifndef QG_PORT_KIND_H
#define QG_PORT_KIND_H

#include "diag.h"
#include "model.h"
#include "switch_hw.h"

#include <stdbool.h>
#include <stddef.h>

/* Switch s's hardware: NULL without a model. */
const struct qg_switch_hw *qg_switch_model_hw(const struct qg_switch *s);

/*
 * The kind of port k of switch s: NULL without a model, when its platform's
 * names say nothing of the front panel, or when the port is none of the
 * model's.
 */
const struct qg_port_kind *qg_port_kind(const struct qg_switch *s, size_t k);

/*
 * The speed port k runs at without its role's speed_gbps: the switch's
 * given speed, else its kind's native speed, else s->speed_gbps (the
 * model's first kind's, or 0 without a model).
 */
int qg_port_speed_default(const struct qg_switch *s, size_t k);

/* The speed port k runs at: its role's speed_gbps, else qg_port_speed_default(). */
int qg_port_speed(const struct qg_switch *s, size_t k);

/*
 * Whether every port of s that no role gives a speed runs at s->speed_gbps:
 * always where the intent gives speed_gbps; without it, where those ports'
 * kinds all have the first kind's native speed. Otherwise no one number is
 * the switch's speed (the model's JSON leaves it out, explain says each
 * kind's).
 */
bool qg_port_speed_uniform(const struct qg_switch *s);

/* Whether role r's speed_gbps is the speed each of its ports runs at without it. */
bool qg_role_speed_is_default(const struct qg_switch *s, size_t r);

/* Whether s's ports are of more than one kind of its model. */
bool qg_port_kinds_mixed(const struct qg_switch *s);

/*
 * The loader's rules, once s's ports, model, speeds and roles are read:
 * each port one of the model's, each given speed one its ports' kinds take.
 * path: "switches[NAME]".
 */
void qg_port_kinds_check(const struct qg_switch *s, const char *path, struct qg_diags *d);

/*
 * Ports v[0..n) of s (sorted) as its OS writes runs of them, ","-joined
 * into out; a list too long ends in ",...".
 */
void qg_ports_text(const struct qg_switch *s, const struct qg_port *v, size_t n, char *out,
		   size_t len);

#endif
