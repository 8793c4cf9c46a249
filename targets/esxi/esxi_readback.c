/* SPDX-License-Identifier: MIT */
/* Formats from shared/fixtures/esxi (captures from the SmartX VMware guide). */
#include "esxi_readback.h"
#include "../common/esxi_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int esxi_readback_module(const char *text, struct qg_settings *out)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		char buf[2048];
		snprintf(buf, sizeof(buf), "%.*s", (int)(end ? (size_t)(end - line) : strlen(line)),
			 line);
		line = end ? end + 1 : NULL;
		char module[64];
		char *open = strstr(buf, "options = '");
		if (buf[0] == '#' || !open || sscanf(buf, "%63s enabled", module) != 1)
			continue;
		char *opts = open + strlen("options = '");
		char *close = strrchr(opts, '\'');
		if (!close)
			return -EINVAL;
		*close = '\0';
		for (char *t = strtok(opts, " "); t; t = strtok(NULL, " ")) {
			char *eq = strchr(t, '=');
			if (!eq)
				continue;
			*eq = '\0';
			char key[160];
			snprintf(key, sizeof(key), "%s.%s", module, t);
			qg_settings_add(out, key, "%s", eq + 1);
		}
		/*
		 * The state in effect: an owned key the string does not write is
		 * the driver's documented default (nmlx5_core ecn 0), so that the
		 * model compares with the target's settings, which always name it.
		 */
		static const char *const owned[] = {"ecn", "dscp_force", "pcp_force"};
		for (size_t k = 0; k < sizeof(owned) / sizeof(owned[0]); k++) {
			const char *dflt = esxi_option_default(module, owned[k]);
			char key[160];
			snprintf(key, sizeof(key), "%s.%s", module, owned[k]);
			if (dflt && !qg_settings_get(out, key))
				qg_settings_add(out, key, "%s", dflt);
		}
		return out->oom ? -ENOMEM : 0;
	}
	return -EINVAL;
}

/* Column starts from a header line: a column begins after two or more spaces. */
static size_t header_columns(const char *h, size_t *start, const char **name, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; h[i] && h[i] != '\n' && n < max;) {
		start[n] = i;
		name[n] = h + i;
		n++;
		while (h[i] && h[i] != '\n' && !(h[i] == ' ' && h[i + 1] == ' '))
			i++;
		while (h[i] == ' ')
			i++;
	}
	return n;
}

static bool column_is(const char *name, const char *want)
{
	size_t n = strlen(want);
	return !strncmp(name, want, n) && (name[n] == ' ' || name[n] == '\n' || !name[n]);
}

int esxi_readback_pause(const char *text, struct qg_settings *out)
{
	const char *h = strstr(text, "NIC ");
	if (!h)
		return -EINVAL;
	size_t start[16];
	const char *name[16];
	size_t nc = header_columns(h, start, name, 16);
	int rx = -1, tx = -1;
	for (size_t c = 0; c < nc; c++) {
		if (column_is(name[c], "Pause RX"))
			rx = (int)c;
		if (column_is(name[c], "Pause TX"))
			tx = (int)c;
	}
	if (rx < 0 || tx < 0)
		return -EINVAL;
	/* Rows: the NIC name first, then the values, right-aligned under their headers. */
	for (const char *line = strchr(h, '\n'); line && *++line;) {
		const char *end = strchr(line, '\n');
		char row[512];
		snprintf(row, sizeof(row), "%.*s", (int)(end ? (size_t)(end - line) : strlen(line)),
			 line);
		line = end;
		if (strncmp(row, "vmnic", 5))
			continue;
		char *words[16];
		size_t nw = 0;
		for (char *t = strtok(row, " "); t && nw < 16; t = strtok(NULL, " "))
			words[nw++] = t;
		if (nw != nc)
			return -EINVAL;
		char key[64];
		snprintf(key, sizeof(key), "%s.pause_rx", words[0]);
		qg_settings_add(out, key, "%s", words[rx]);
		snprintf(key, sizeof(key), "%s.pause_tx", words[0]);
		qg_settings_add(out, key, "%s", words[tx]);
	}
	return out->oom ? -ENOMEM : 0;
}
