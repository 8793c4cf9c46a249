/* SPDX-License-Identifier: MIT */
#include "names.h"

#include "diag.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* s is 1..max characters, first alnum (lower only if lower_only), rest from alnum + extra. */
static bool charset_ok(const char *s, size_t max, bool lower_only, const char *extra)
{
	size_t n = strlen(s);
	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool ok = lower_only ? is_lower_alnum(c) : is_alnum(c);
		if (!ok && (i == 0 || !strchr(extra, c)))
			return false;
	}
	return true;
}

bool qg_name_ok(const char *s)
{
	return charset_ok(s, 63, true, "._-");
}

bool qg_dvs_name_ok(const char *s)
{
	return charset_ok(s, 80, false, "._-");
}

bool qg_label_ok(const char *s)
{
	size_t n = strlen(s);
	return charset_ok(s, 80, false, "._- ") && s[n - 1] != ' ';
}

bool qg_user_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 32)
		return false;
	if (!(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z')))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_lower_alnum(s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}

/* RFC 1123 host name: labels of 1..63 letters, digits and inner hyphens. */
static bool dns_name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 253)
		return false;
	size_t label = 0;
	for (size_t i = 0; i <= n; i++) {
		char c = s[i];
		if (c == '.' || c == '\0') {
			if (label == 0 || s[i - 1] == '-')
				return false;
			/* A trailing dot (FQDN root) ends the name. */
			if (c == '.' && s[i + 1] == '\0')
				return true;
			label = 0;
			continue;
		}
		if (!is_alnum(c) && !(c == '-' && label > 0))
			return false;
		if (++label > 63)
			return false;
	}
	return true;
}

bool qg_address_ok(const char *s)
{
	unsigned char addr[16];
	if (inet_pton(AF_INET, s, addr) == 1 || inet_pton(AF_INET6, s, addr) == 1)
		return true;
	/* A name made only of digits and dots that inet_pton refused is a bad IPv4. */
	if (strspn(s, "0123456789.") == strlen(s))
		return false;
	return dns_name_ok(s);
}

void qg_address_key(const char *address, int port, char *out, size_t cap)
{
	unsigned char addr[16];
	char text[INET6_ADDRSTRLEN];
	const char *a = address;
	size_t len = strlen(address);
	if (inet_pton(AF_INET6, address, addr) == 1 &&
	    inet_ntop(AF_INET6, addr, text, sizeof(text)))
		a = text;
	else if (inet_pton(AF_INET, address, addr) == 1 &&
		 inet_ntop(AF_INET, addr, text, sizeof(text)))
		a = text;
	else if (len > 1 && address[len - 1] == '.')
		len--;
	if (a == text)
		len = strlen(text);
	size_t o = (size_t)snprintf(out, cap, "%.*s", (int)len, a);
	for (size_t i = 0; i < o && i < cap; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
	if (o < cap)
		snprintf(out + o, cap - o, " port %d", port);
}

bool qg_netdev_ok(const char *s)
{
	return charset_ok(s, 15, false, "_.-");
}

bool qg_rdma_device_ok(const char *s)
{
	return charset_ok(s, 63, false, "_.-");
}

static bool prefixed_number_ok(const char *s, const char *prefix)
{
	size_t p = strlen(prefix);
	if (strncmp(s, prefix, p) != 0)
		return false;
	size_t digits = strlen(s + p);
	return digits >= 1 && digits <= 4 && strspn(s + p, "0123456789") == digits;
}

bool qg_vmnic_ok(const char *s)
{
	return prefixed_number_ok(s, "vmnic");
}

bool qg_vmknic_ok(const char *s)
{
	return prefixed_number_ok(s, "vmk");
}

bool qg_pool_name_ok(const char *s)
{
	return charset_ok(s, 20, false, "_-");
}

void qg_device_path(char *out, size_t cap, const char *list, const char *name, size_t index)
{
	if (!name || !name[0])
		snprintf(out, cap, "%s[%zu]", list, index);
	else if (strspn(name, "0123456789") == strlen(name))
		snprintf(out, cap, "%s['%s']", list, name);
	else
		snprintf(out, cap, "%s[%s]", list, name);
}

size_t qg_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 32 || lb > 32)
		return 99;
	size_t row[33];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

bool qg_hostname_matches(const char *hostname, const char *name, const char *address)
{
	if (!hostname[0] || !strcasecmp(hostname, name))
		return true;
	/* A DNS name's first label; a dotted quad or an IPv6 address has none. */
	size_t label = strcspn(address, ".");
	bool dns = address[label] == '.' && strspn(address, "0123456789.") != strlen(address);
	return dns && strlen(hostname) == label && !strncasecmp(hostname, address, label);
}

void qg_warn_other_host(struct qg_diags *d, const char *hostname, const char *name,
			const char *address, const char *what)
{
	if (!qg_hostname_matches(hostname, name, address))
		qg_warning(d, (struct qg_pos){0}, QG_W_READBACK_OTHER_HOSTNAME,
			   "the read-back's hostname is '%s', not switch '%s' (address %s): is it "
			   "another switch's %s?",
			   hostname, name, address, what);
}
