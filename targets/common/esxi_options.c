/* SPDX-License-Identifier: MIT */
#include "esxi_options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Defaults as the driver's manual states them, for the keys qosgen owns.
 * nmlx5_core ecn: "Enables the ECN feature", 1 enabled, 0 disabled
 * (Default): NVIDIA ConnectX-4/ConnectX-5 Native ESXi Driver for VMware
 * vSphere User Manual v4.17.15.16, Introduction, "nmlx5_core Module
 * Parameters". pfctx, pfcrx and trust_state are always written with the
 * intent's value, so their defaults never decide anything. nmlx5_rdma's
 * dscp_force and pcp_force: the one the intent's trust does not use is
 * ESXI_OPTION_UNSET (issue 35: with trust pcp after trust dscp, a
 * dscp_force left in the string is not what a fresh host given the same
 * intent has), so an unwritten one reads as that: whatever the driver does
 * when the string does not force it.
 * The host script's qg_opt_default (templates/esxi-lib.sh.in) holds the same.
 */
static const struct {
	const char *module, *key, *value;
} option_defaults[] = {
    {"nmlx5_core", "ecn", "0"},
    {"nmlx5_rdma", "dscp_force", ESXI_OPTION_UNSET},
    {"nmlx5_rdma", "pcp_force", ESXI_OPTION_UNSET},
};

const char *esxi_option_default(const char *module, const char *key)
{
	for (size_t i = 0; i < sizeof(option_defaults) / sizeof(option_defaults[0]); i++)
		if (!strcmp(option_defaults[i].module, module) &&
		    !strcmp(option_defaults[i].key, key))
			return option_defaults[i].value;
	return NULL;
}

size_t esxi_options_modules(const struct qg_settings *want, char (*names)[32], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < want->n; i++) {
		const char *dot = strchr(want->v[i].key, '.');
		size_t len = dot ? (size_t)(dot - want->v[i].key) : 0;
		/* Only driver modules: "Net.PVRDMAVmknic" and "vmk1.mtu" are not. */
		if (!len || len >= 32 || strncmp(want->v[i].key, "nmlx", 4))
			continue;
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strlen(names[k]) == len && !strncmp(names[k], want->v[i].key, len);
		if (!seen && n < max)
			snprintf(names[n++], 32, "%.*s", (int)len, want->v[i].key);
	}
	return n;
}

/* Whole-string numbers in C syntax (decimal, 0x hex), as the driver reads them. */
static bool number(const char *s, long *v)
{
	char *end;
	if (!*s)
		return false;
	errno = 0;
	*v = strtol(s, &end, 0);
	return !*end && !errno;
}

static bool same(const char *a, const char *b)
{
	long x, y;
	if (number(a, &x) && number(b, &y))
		return x == y;
	return !strcmp(a, b);
}

/*
 * The value of key in an option string, the last one if it is there twice
 * (the loader applies them in order); false if the key is not there.
 */
static bool lookup(const char *opts, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	bool found = false;
	for (const char *w = opts; *w;) {
		while (*w == ' ' || *w == '\t')
			w++;
		size_t wl = strcspn(w, " \t");
		if (wl > klen && !strncmp(w, key, klen) && w[klen] == '=') {
			snprintf(val, len, "%.*s", (int)(wl - klen - 1), w + klen + 1);
			found = true;
		}
		w += wl;
	}
	return found;
}

/* Append a word to out; false if it does not fit. */
static bool put(char *out, size_t outlen, size_t *used, const char *w, size_t wl)
{
	if (*used + (*used ? 1 : 0) + wl + 1 > outlen)
		return false;
	if (*used)
		out[(*used)++] = ' ';
	memcpy(out + *used, w, wl);
	*used += wl;
	out[*used] = '\0';
	return true;
}

int esxi_options_merge(const char *module, const char *live, const struct qg_settings *want,
		       char *out, size_t outlen, struct esxi_opt_change *changes,
		       size_t max_changes)
{
	size_t mlen = strlen(module);
	int n = 0;
	if (!outlen)
		return -1;
	out[0] = '\0';
	/* What differs, in the intent's order. */
	for (size_t i = 0; i < want->n; i++) {
		const char *k = want->v[i].key;
		if (strncmp(k, module, mlen) || k[mlen] != '.')
			continue;
		char have[64];
		bool set = lookup(live, k + mlen + 1, have, sizeof(have));
		if (set && same(have, want->v[i].value))
			continue;
		const char *dflt = esxi_option_default(module, k + mlen + 1);
		if (!set && dflt && same(dflt, want->v[i].value))
			continue; /* unwritten: the driver's default, already the intent's */
		if ((size_t)n >= max_changes)
			return -1;
		struct esxi_opt_change *c = &changes[n++];
		snprintf(c->key, sizeof(c->key), "%s", k + mlen + 1);
		snprintf(c->have, sizeof(c->have), "%s", set ? have : "");
		snprintf(c->want, sizeof(c->want), "%s", want->v[i].value);
	}
	/* Every live word whose key does not change, in place; then the changed ones. */
	size_t used = 0;
	for (const char *w = live; *w;) {
		while (*w == ' ' || *w == '\t')
			w++;
		size_t wl = strcspn(w, " \t");
		bool changed = false;
		for (int c = 0; c < n && !changed; c++) {
			size_t kl = strlen(changes[c].key);
			changed = wl > kl && !strncmp(w, changes[c].key, kl) && w[kl] == '=';
		}
		if (wl && !changed && !put(out, outlen, &used, w, wl))
			goto full;
		w += wl;
	}
	for (int c = 0; c < n; c++) {
		char word[130];
		if (!strcmp(changes[c].want, ESXI_OPTION_UNSET))
			continue; /* removed: the string no longer writes it */
		int wl = snprintf(word, sizeof(word), "%s=%s", changes[c].key, changes[c].want);
		if (!put(out, outlen, &used, word, (size_t)wl))
			goto full;
	}
	return n;
full:
	out[0] = '\0';
	return -1;
}
