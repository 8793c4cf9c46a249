/* SPDX-License-Identifier: MIT */
/*
 * Onyx ethernet port names: "1/N", "1/N/M" (split), and ranges "1/1-1/32",
 * "1/3/1-1/3/4", as the Onyx User Manual writes them and its running-config
 * prints them ("interface ethernet 1/7-1/8 ...").
 */
#include "onyx_ports.h"

#include "../../lib/errmsg.h"
#include "../../model/ports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse "M/P" or "M/P/S" exactly; returns the number of parts or 0 on error. */
static int port_parse_one(const char *s, size_t len, struct qg_port *p)
{
	unsigned v[3] = {0, 0, 0};
	int parts = 0;
	size_t i = 0;
	while (parts < 3) {
		size_t start = i;
		unsigned x = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 4)
			x = x * 10 + (unsigned)(s[i++] - '0');
		if (i == start || (s[start] == '0' && i - start > 1))
			return 0; /* empty, or a leading zero: "01/1" is not how Onyx names ports */
		v[parts++] = x;
		if (i == len)
			break;
		if (s[i] != '/')
			return 0;
		i++;
	}
	if (i != len || parts < 2)
		return 0;
	if (v[0] > QG_PORT_MODULE_MAX || v[1] > QG_PORT_NUMBER_MAX || v[2] > QG_PORT_SPLIT_MAX)
		return -1;
	p->module = (uint8_t)v[0];
	p->port = (uint8_t)v[1];
	p->split = (uint8_t)v[2];
	return parts;
}

#define SHAPE                                                                                      \
	"'%s' is not an Onyx ethernet port or range; expected 1/N, 1/N/M (split), or a range "     \
	"such as 1/1-1/32 or 1/3/1-1/3/4"
#define LIMITS "port '%s' is out of range; module 1..8, port 1..128, split 1..8"

int onyx_port_parse(const char *s, struct qg_port **out, size_t *n, char *err, size_t errlen)
{
	const char *dash = strchr(s, '-');
	struct qg_port a, b;
	size_t alen = dash ? (size_t)(dash - s) : strlen(s);

	int pa = port_parse_one(s, alen, &a);
	if (pa < 0)
		return qg_errf(err, errlen, LIMITS, s);
	if (pa == 0)
		return qg_errf(err, errlen, SHAPE, s);
	if (!dash) {
		b = a;
	} else {
		int pb = port_parse_one(dash + 1, strlen(dash + 1), &b);
		if (pb < 0)
			return qg_errf(err, errlen, LIMITS, s);
		if (pb == 0)
			return qg_errf(err, errlen, SHAPE, s);
		if (pa != pb)
			return qg_errf(
			    err, errlen,
			    "range '%s' mixes a split and an unsplit port; both ends must "
			    "have the same shape",
			    s);
		if (a.module != b.module)
			return qg_errf(err, errlen,
				       "range '%s' spans two modules; a range stays in one", s);
		if (a.split && a.port != b.port)
			return qg_errf(
			    err, errlen,
			    "range '%s' spans two split ports; a split range stays in one "
			    "port (1/3/1-1/3/4)",
			    s);
		if (qg_port_cmp(&a, &b) > 0)
			return qg_errf(err, errlen,
				       "range '%s' runs backwards; write the lower port first", s);
	}
	if (a.module == 0 || a.port == 0 || (pa == 3 && (a.split == 0 || b.split == 0)))
		return qg_errf(err, errlen, LIMITS, s);

	size_t count = a.split ? (size_t)(b.split - a.split + 1) : (size_t)(b.port - a.port + 1);
	struct qg_port *v = calloc(count, sizeof(*v));
	if (!v)
		return qg_errf(err, errlen, "out of memory expanding '%s'", s);
	for (size_t i = 0; i < count; i++) {
		v[i] = a;
		if (a.split)
			v[i].split = (uint8_t)(a.split + i);
		else
			v[i].port = (uint8_t)(a.port + i);
	}
	*out = v;
	*n = count;
	return 0;
}

void onyx_port_format(const struct qg_port *p, char out[QG_PORT_TEXT_LEN])
{
	if (p->split)
		snprintf(out, QG_PORT_TEXT_LEN, "%u/%u/%u", p->module, p->port, p->split);
	else
		snprintf(out, QG_PORT_TEXT_LEN, "%u/%u", p->module, p->port);
}

void onyx_port_run_format(const struct qg_port_run *r, char out[QG_PORT_TEXT_LEN])
{
	char a[QG_PORT_TEXT_LEN], b[QG_PORT_TEXT_LEN];
	onyx_port_format(&r->first, a);
	if (qg_port_cmp(&r->first, &r->last) == 0) {
		snprintf(out, QG_PORT_TEXT_LEN, "%s", a);
		return;
	}
	onyx_port_format(&r->last, b);
	snprintf(out, QG_PORT_TEXT_LEN, "%s-%s", a, b);
}

/*
 * 1/N is front-panel port N of the switch's one module (the Onyx User
 * Manual's "interface ethernet <slot>/<port>[/<subport>]"), 1/N/M a split
 * of it; a Spectrum switch has no module 2.
 */
static int onyx_port_panel(const struct qg_port *p, const struct qg_switch_hw *hw)
{
	return p->module == 1 && qg_switch_hw_kind(hw, p->port) ? p->port : 0;
}

const struct qg_port_syntax onyx_port_syntax = {
    .rule = "1/N, 1/N/M (split), or a range such as 1/1-1/32 or 1/3/1-1/3/4",
    .parse = onyx_port_parse,
    .format = onyx_port_format,
    .format_run = onyx_port_run_format,
    .panel = onyx_port_panel,
};
