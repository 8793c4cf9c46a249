/* SPDX-License-Identifier: MIT */
/* What every driver shares: the one-line result, and a device's SSH address. */
#include "driver.h"

#include "../model/names.h"

#include <stdarg.h>
#include <stdio.h>

void qg_push_say(struct qg_push_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
}

/* The intent's port only when given: else ~/.ssh/config may name one, else 22. */
struct qg_ssh_target qg_switch_ssh_target(const struct qg_switch *s)
{
	return (struct qg_ssh_target){.host = s->address,
				      .port = s->port_given ? s->port : 0,
				      .user = s->user[0] ? s->user : NULL};
}

struct qg_ssh_target qg_host_ssh_target(const struct qg_host *h)
{
	return (struct qg_ssh_target){.host = h->address,
				      .port = h->port_given ? h->port : 0,
				      .user = h->user[0] ? h->user : NULL};
}

bool qg_push_hostname_ok(const struct qg_access *a, const struct qg_switch *sw,
			 const char *hostname, struct qg_push_result *r)
{
	if (a->accept_hostname || qg_hostname_matches(hostname, sw->name, sw->address))
		return true;
	qg_push_say(r,
		    "refused: the switch at %s says its hostname is '%s', not '%s'; nothing "
		    "sent (check the intent's address, or --accept-hostname to go on)",
		    sw->address, hostname ? hostname : "", sw->name);
	return false;
}
