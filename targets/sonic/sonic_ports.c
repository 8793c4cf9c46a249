/* SPDX-License-Identifier: MIT */
#include "sonic_ports.h"

#include "../../lib/errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE                                                                                       \
	"EthernetN (N the port's first lane, as config_db's PORT table names it), or a range "     \
	"with its step, such as Ethernet0-124/4"
#define SHAPE "'%s' is not a SONiC port or range; expected " RULE
#define LIMITS "port '%s' is out of range; Ethernet0..Ethernet%d"

/* A decimal of 1..4 digits without a leading zero at *s; its end, or NULL. */
static const char *number(const char *s, unsigned *v)
{
	const char *p = s;
	unsigned x = 0;
	while (*p >= '0' && *p <= '9' && p - s < 4)
		x = x * 10 + (unsigned)(*p++ - '0');
	if (p == s || (*s == '0' && p - s > 1) || (*p >= '0' && *p <= '9'))
		return NULL;
	*v = x;
	return p;
}

static struct qg_port port_of(unsigned n)
{
	return (struct qg_port){(uint8_t)(n >> 8), (uint8_t)(n & 0xff), 0};
}

unsigned sonic_port_number(const struct qg_port *p)
{
	return (unsigned)p->module << 8 | p->port;
}

int sonic_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen)
{
	unsigned first, last, step = 1;
	const char *p = strncmp(s, "Ethernet", 8) ? NULL : number(s + 8, &first);
	if (!p)
		return qg_errf(err, errlen, SHAPE, s);
	last = first;
	bool range = *p == '-';
	if (range && !(p = number(p + 1, &last)))
		return qg_errf(err, errlen, SHAPE, s);
	if (range && *p == '/' && !(p = number(p + 1, &step)))
		return qg_errf(err, errlen, SHAPE, s);
	if (*p == '/' && !range)
		return qg_errf(err, errlen,
			       "'%s': a step belongs to a range, such as Ethernet0-124/4", s);
	if (*p)
		return qg_errf(err, errlen, SHAPE, s);
	if (last > SONIC_PORT_MAX)
		return qg_errf(err, errlen, LIMITS, s, SONIC_PORT_MAX);
	if (range && !strchr(s, '/'))
		/* SONiC numbers ports by lane: the step is the intent's to say, never a guess. */
		return qg_errf(
		    err, errlen,
		    "range '%s' needs its step: SONiC numbers ports by their first lane, "
		    "so write %s/4 for 4-lane ports, /8 for 8-lane ports, /1 for every "
		    "number (breakout ports)",
		    s, s);
	if (step < 1 || step > SONIC_STEP_MAX)
		return qg_errf(err, errlen, "range '%s': the step is 1..%d (lanes per port)", s,
			       SONIC_STEP_MAX);
	if (last < first)
		return qg_errf(err, errlen, "range '%s' runs backwards; write the lower port first",
			       s);
	if ((last - first) % step)
		return qg_errf(err, errlen,
			       "range '%s' does not end on a port of its step: %u is not %u plus "
			       "a multiple of %u",
			       s, last, first, step);
	size_t count = (last - first) / step + 1;
	struct qg_port *v = calloc(count, sizeof(*v));
	if (!v)
		return qg_errf(err, errlen, "out of memory expanding '%s'", s);
	for (size_t i = 0; i < count; i++)
		v[i] = port_of(first + (unsigned)i * step);
	*out = v;
	*n = count;
	return 0;
}

void sonic_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN])
{
	snprintf(out, QG_PORT_TEXT_LEN, "Ethernet%u", sonic_port_number(p));
}

/* The core's runs are consecutive numbers: breakout ports, a range of step 1. */
void sonic_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN])
{
	unsigned a = sonic_port_number(&r->first), b = sonic_port_number(&r->last);
	if (a == b)
		snprintf(out, QG_PORT_TEXT_LEN, "Ethernet%u", a);
	else
		snprintf(out, QG_PORT_TEXT_LEN, "Ethernet%u-%u/1", a, b);
}

/*
 * EthernetN is the port the model's platform.json names so, or a breakout
 * of it: each kind's names run from name_first by name_step, and a
 * breakout's N lies between its port's and the next's (Ethernet0's
 * "2x50G" ports are Ethernet0 and Ethernet2).
 */
static int sonic_port_panel(const struct qg_port *p, const struct qg_switch_hw *hw)
{
	int n = (int)sonic_port_number(p);
	for (int k = 0; k < hw->n_kinds; k++) {
		const struct qg_port_kind *kind = &hw->kinds[k];
		if (n >= kind->name_first && n < kind->name_first + kind->count * kind->name_step)
			return kind->first + (n - kind->name_first) / kind->name_step;
	}
	return 0;
}

const struct qg_port_syntax sonic_port_syntax = {
    .rule = RULE,
    .parse = sonic_port_parse,
    .format = sonic_port_format,
    .format_run = sonic_port_run_format,
    .panel = sonic_port_panel,
};
