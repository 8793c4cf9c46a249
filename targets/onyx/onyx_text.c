/* SPDX-License-Identifier: MIT */
/*
 * Is this text a running-config at all? A failed capture (an empty file, a
 * file PowerShell's `>` wrote as UTF-16, binary junk, an error page) must not
 * look like a factory-default switch, which would get the full from-scratch
 * plan. Pure: the text in, a verdict and a diagnostic out.
 */
#include "onyx_text.h"

#include <errno.h>
#include <string.h>

/*
 * First words of Onyx's top-level commands as `show running-config` prints
 * them (the reference configuration in shared/seeds/000, the fixtures in
 * shared/fixtures/onyx, and the real configurations in tests/onyx/real/). One
 * such line, or a "## " header, is what every running-config has.
 */
static const char *const onyx_words[] = {
    "aaa",	"advanced",    "banner",	"cli",	    "clock",	     "configuration",
    "dcb",	"hostname",    "interface",	"ip",	    "ipv6",	     "lacp",
    "ldap",	"lldp",	       "logging",	"mlag",	    "mlag-vip",	     "no",
    "ntp",	"pool",	       "port-channel",	"protocol", "qos",	     "radius-server",
    "roce",	"snmp-server", "spanning-tree", "ssh",	    "tacacs-server", "traffic",
    "username", "vlan",	       "web",
};

static bool onyx_known_line(const char *line, size_t len)
{
	if (len >= 3 && !memcmp(line, "## ", 3))
		return true;
	size_t w = 0;
	while (w < len && line[w] != ' ' && line[w] != '\t' && line[w] != '\r')
		w++;
	for (size_t i = 0; i < sizeof(onyx_words) / sizeof(onyx_words[0]); i++)
		if (strlen(onyx_words[i]) == w && !memcmp(line, onyx_words[i], w))
			return true;
	return false;
}

/* Control bytes a terminal capture may hold besides \t \n \r: BS, VT, FF, ESC. */
static bool text_byte(unsigned char c)
{
	return c >= 0x20 ? c != 0x7f
			 : c == '\t' || c == '\n' || c == '\r' || c == '\b' || c == '\v' ||
			       c == '\f' || c == 0x1b;
}

int onyx_text_check(const char *text, size_t len, size_t *skip, struct qg_diags *d)
{
	const unsigned char *t = (const unsigned char *)text;
	*skip = 0;
	if (len >= 2 && ((t[0] == 0xff && t[1] == 0xfe) || (t[0] == 0xfe && t[1] == 0xff))) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back is UTF-16 text (byte-order mark %02X %02X), not a "
			 "running-config as a switch prints it; save it as UTF-8 or ASCII (in "
			 "PowerShell: Out-File -Encoding utf8, or ssh ... > FILE from cmd)",
			 t[0], t[1]);
		return -EINVAL;
	}
	/* A UTF-8 byte-order mark (Windows editors write one) is skipped. */
	if (len >= 3 && t[0] == 0xef && t[1] == 0xbb && t[2] == 0xbf)
		*skip = 3;
	int line = 1, col = 1;
	bool seen_text = false, onyx = false;
	size_t start = *skip;
	for (size_t i = *skip; i < len; i++, col++) {
		if (!text_byte(t[i])) {
			/* ASCII as UTF-16: every other byte NUL ("h\0o\0s\0t\0"). */
			bool utf16 = t[i] == 0 && i + 2 < len && t[i + 1] != 0 && t[i + 2] == 0;
			qg_error(d, (struct qg_pos){line, col},
				 "byte 0x%02X at offset %zu: the read-back is not text%s; a "
				 "running-config is ASCII lines",
				 t[i], i,
				 t[i] != 0 ? " (binary data?)"
				 : utf16   ? " (a NUL byte; UTF-16 without a byte-order mark?)"
					   : " (a NUL byte)");
			return -EINVAL;
		}
		if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n')
			seen_text = true;
		if (t[i] == '\n' || i + 1 == len) {
			size_t end = t[i] == '\n' ? i : i + 1;
			size_t s = start;
			while (s < end && (text[s] == ' ' || text[s] == '\t'))
				s++;
			onyx = onyx || onyx_known_line(text + s, end - s);
			start = i + 1;
			line++;
			col = 0;
		}
	}
	if (!seen_text) {
		qg_error(d, (struct qg_pos){1, 1},
			 "the read-back is empty%s: no running-config was captured",
			 len > *skip ? " (white space only)" : "");
		return -EINVAL;
	}
	if (!onyx) {
		qg_error(d, (struct qg_pos){1, 1},
			 "no Onyx running-config in the read-back: no '## ' header and no Onyx "
			 "configuration command (hostname, interface, traffic pool, ...) on any of "
			 "its %d lines; is it the output of 'show running-config'?",
			 line - 1 + (len > 0 && text[len - 1] != '\n'));
		return -EINVAL;
	}
	return 0;
}
