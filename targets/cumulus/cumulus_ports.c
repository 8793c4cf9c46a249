/* SPDX-License-Identifier: MIT */
#include "cumulus_ports.h"

#include "../../lib/errmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHAPE                                                                                      \
	"'%s' is not a Cumulus switch port or range; expected swpN, swpNsM (a breakout lane), "    \
	"or a range such as swp1-32 or swp1s0-3"
#define LIMITS "port '%s' is out of range; swp1..swp128, lanes s0..s7"

/* A decimal of 1..3 digits without a leading zero at *s; its end, or NULL. */
static const char *number(const char *s, unsigned *v)
{
	const char *p = s;
	unsigned x = 0;
	while (*p >= '0' && *p <= '9' && p - s < 3)
		x = x * 10 + (unsigned)(*p++ - '0');
	if (p == s || (*s == '0' && p - s > 1) || (*p >= '0' && *p <= '9'))
		return NULL;
	*v = x;
	return p;
}

int cumulus_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen)
{
	unsigned port, first, last;
	bool lanes = false;
	const char *p = strncmp(s, "swp", 3) ? NULL : number(s + 3, &port);
	if (!p)
		return qg_errf(err, errlen, SHAPE, s);
	if (*p == 's') {
		lanes = true;
		if (!(p = number(p + 1, &first)))
			return qg_errf(err, errlen, SHAPE, s);
	} else {
		first = port;
	}
	last = first;
	if (*p == '-' && !(p = number(p + 1, &last)))
		return qg_errf(err, errlen, SHAPE, s);
	if (*p)
		return qg_errf(err, errlen, SHAPE, s);
	if (port < 1 || port > CUMULUS_PORT_MAX || (lanes && last > CUMULUS_LANE_MAX) ||
	    (!lanes && last > CUMULUS_PORT_MAX))
		return qg_errf(err, errlen, LIMITS, s);
	if (last < first)
		return qg_errf(err, errlen, "range '%s' runs backwards; write the lower port first",
			       s);
	size_t count = last - first + 1;
	struct qg_port *v = calloc(count, sizeof(*v));
	if (!v)
		return qg_errf(err, errlen, "out of memory expanding '%s'", s);
	for (size_t i = 0; i < count; i++)
		v[i] = lanes ? (struct qg_port){1, (uint8_t)port, (uint8_t)(first + i + 1)}
			     : (struct qg_port){1, (uint8_t)(first + i), 0};
	*out = v;
	*n = count;
	return 0;
}

void cumulus_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN])
{
	if (p->split)
		snprintf(out, QG_PORT_TEXT_LEN, "swp%us%u", p->port, p->split - 1u);
	else
		snprintf(out, QG_PORT_TEXT_LEN, "swp%u", p->port);
}

/* NVUE's range form: the prefix once, "swp1-32" and "swp1s0-3". */
void cumulus_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN])
{
	char a[QG_PORT_TEXT_LEN];
	cumulus_port_format(&r->first, a);
	if (qg_port_cmp(&r->first, &r->last) == 0)
		snprintf(out, QG_PORT_TEXT_LEN, "%s", a);
	else if (r->first.split)
		snprintf(out, QG_PORT_TEXT_LEN, "%s-%u", a, r->last.split - 1u);
	else
		snprintf(out, QG_PORT_TEXT_LEN, "%s-%u", a, r->last.port);
}

/*
 * swpN is front-panel port N ("swp is a switch front panel port": the
 * Cumulus Linux user guide, Switch Port Attributes), swpNsM a breakout of
 * it.
 */
static int cumulus_port_panel(const struct qg_port *p, const struct qg_switch_hw *hw)
{
	return qg_switch_hw_kind(hw, p->port) ? p->port : 0;
}

const struct qg_port_syntax cumulus_port_syntax = {
    .rule = "swpN, swpNsM (a breakout lane), or a range such as swp1-32 or swp1s0-3",
    .parse = cumulus_port_parse,
    .format = cumulus_port_format,
    .format_run = cumulus_port_run_format,
    .panel = cumulus_port_panel,
};
