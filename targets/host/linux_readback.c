/* SPDX-License-Identifier: MIT */
/*
 * Formats after shared/notes/targets.md §2: mlnx_qos's pretty_print() of
 * mlnx-tools (and its history), and iproute2's dcb man pages. Unknown lines
 * are skipped, so a newer tool that adds lines still parses.
 */
#include "linux_readback.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line starting with prefix (after leading spaces), or NULL. */
static const char *find_line(const char *text, const char *prefix, size_t *len)
{
	size_t pl = strlen(prefix);
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, prefix, pl)) {
			*len = (end ? (size_t)(end - p) : strlen(p));
			return p;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

int linux_readback_mlnx_qos(const char *text, struct qg_settings *out)
{
	size_t len;
	const char *l = find_line(text, "Priority trust state:", &len);
	if (!l)
		return -EINVAL;
	char trust[16] = "";
	sscanf(l, "Priority trust state: %15s", trust);
	qg_settings_add(out, "trust", "%s", trust);

	/* PFC configuration: the row "enabled   0   0   0   1 ..." under "priority". */
	l = find_line(text, "enabled", &len);
	if (!l)
		return -EINVAL;
	char vec[16];
	int n = 0;
	for (const char *p = l + strlen("enabled"); p < l + len && n < 8; p++) {
		if (*p == '0' || *p == '1') {
			vec[2 * n] = *p;
			vec[2 * n + 1] = n == 7 ? '\0' : ',';
			n++;
		} else if (!isspace((unsigned char)*p)) {
			return -EINVAL;
		}
	}
	if (n != 8)
		return -EINVAL;
	qg_settings_add(out, "pfc", "%s", vec);

	l = find_line(text, "DCBX mode:", &len);
	if (l) {
		char mode[64];
		snprintf(mode, sizeof(mode), "%.*s", (int)len, l);
		qg_settings_add(out, "dcbx", "%s", strstr(mode, "OS controlled") ? "os" : "fw");
	}
	return out->oom ? -ENOMEM : 0;
}

int linux_readback_dcb_pfc(const char *text, struct qg_settings *out)
{
	size_t len;
	const char *l = find_line(text, "prio-pfc", &len);
	if (!l)
		return -EINVAL;
	char vec[16] = "0,0,0,0,0,0,0,0";
	int seen = 0;
	char copy[256];
	snprintf(copy, sizeof(copy), "%.*s", (int)len, l);
	for (char *t = strtok(copy + strlen("prio-pfc"), " "); t; t = strtok(NULL, " ")) {
		int prio;
		char state[8];
		if (sscanf(t, "%d:%7s", &prio, state) != 2 || prio < 0 || prio > 7)
			return -EINVAL;
		if (!strcmp(state, "on"))
			vec[2 * prio] = '1';
		else if (strcmp(state, "off"))
			return -EINVAL;
		seen |= 1 << prio;
	}
	if (seen != 0xff)
		return -EINVAL;
	qg_settings_add(out, "pfc", "%s", vec);
	return out->oom ? -ENOMEM : 0;
}

/* DSCP by number or by the names dcb prints without -N (RFC 2474, 2597, 3246). */
static int dscp_value(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end != s && *end == '\0')
		return v >= 0 && v <= 63 ? (int)v : -1;
	if (!strncmp(s, "CS", 2) && s[2] >= '0' && s[2] <= '7' && !s[3])
		return (s[2] - '0') * 8;
	if (!strncmp(s, "AF", 2) && s[2] >= '1' && s[2] <= '4' && s[3] >= '1' && s[3] <= '3' &&
	    !s[4])
		return (s[2] - '0') * 8 + (s[3] - '0') * 2;
	if (!strcmp(s, "EF"))
		return 46;
	return -1;
}

static int pair_cmp(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

int linux_readback_dcb_app(const char *text, struct qg_settings *out)
{
	size_t len;
	const char *l = find_line(text, "dscp-prio", &len);
	if (!l)
		return -EINVAL;
	char copy[1024];
	snprintf(copy, sizeof(copy), "%.*s", (int)len, l);
	int pairs[64 * 8][2];
	size_t n = 0;
	for (char *t = strtok(copy + strlen("dscp-prio"), " "); t && n < 64 * 8;
	     t = strtok(NULL, " ")) {
		char *colon = strchr(t, ':');
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		int d = dscp_value(t), p = atoi(colon + 1);
		if (d < 0 || p < 0 || p > 7)
			return -EINVAL;
		pairs[n][0] = d;
		pairs[n][1] = p;
		n++;
	}
	qsort(pairs, n, sizeof(pairs[0]), pair_cmp);
	char v[1024];
	size_t used = 0;
	v[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof(v); i++)
		used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%d:%d", i ? " " : "",
					 pairs[i][0], pairs[i][1]);
	qg_settings_add(out, "dscp_prio", "%s", v);
	return out->oom ? -ENOMEM : 0;
}

int linux_readback_dcb_apptrust(const char *text, struct qg_settings *out)
{
	size_t len;
	const char *l = find_line(text, "order:", &len);
	if (!l)
		return -EINVAL;
	const char *v = l + strlen("order:");
	while (*v == ' ')
		v++;
	qg_settings_add(out, "trust", "%.*s", (int)(len - (size_t)(v - l)), v);
	return out->oom ? -ENOMEM : 0;
}
