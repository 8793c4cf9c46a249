/* SPDX-License-Identifier: MIT */
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pt_version_encode(const char *version, char out[PT_VERSION_LEN])
{
	memset(out, 0, PT_VERSION_LEN);
	memcpy(out, version, strnlen(version, PT_VERSION_LEN - 1));
}

int pt_version_decode(const char in[PT_VERSION_LEN])
{
	/*
	 * Digits, one point, digits: what atof reads in practice, without the
	 * locale. The peer fills all 16 bytes as it likes: the major part stops
	 * counting past 1000 (no version is that high) instead of overflowing an
	 * int, and the minor part keeps two digits.
	 */
	int major = 0, minor = 0, minor_digits = 0, i = 0;
	if (in[0] < '0' || in[0] > '9')
		return -1;
	while (i < PT_VERSION_LEN && in[i] >= '0' && in[i] <= '9') {
		major = major * 10 + (in[i++] - '0');
		if (major > 1000)
			return -1;
	}
	if (i < PT_VERSION_LEN && in[i] == '.') {
		i++;
		while (i < PT_VERSION_LEN && in[i] >= '0' && in[i] <= '9') {
			if (minor_digits < 2) {
				minor = minor * 10 + (in[i] - '0');
				minor_digits++;
			}
			i++;
		}
	}
	if (minor_digits == 1)
		minor *= 10;
	return major * 100 + minor;
}

void pt_int32_encode(int32_t v, unsigned char out[4])
{
	uint32_t u = (uint32_t)v;
	for (int i = 0; i < 4; i++)
		out[i] = (unsigned char)(u >> (24 - 8 * i));
}

int32_t pt_int32_decode(const unsigned char in[4])
{
	uint32_t u = 0;
	for (int i = 0; i < 4; i++)
		u = u << 8 | in[i];
	return (int32_t)u;
}

void pt_mtu_encode(int mtu_enum, char out[PT_MTU_LEN])
{
	out[0] = (char)('0' + (mtu_enum >= 1 && mtu_enum <= 5 ? mtu_enum : 0));
	out[1] = '\0';
}

int pt_mtu_decode(const char in[PT_MTU_LEN])
{
	if (in[0] < '1' || in[0] > '5' || in[1] != '\0')
		return -1;
	return in[0] - '0';
}

void pt_key_encode(const struct pt_key *k, char out[PT_KEY_LEN_GID])
{
	/* Masked to the field widths: a wider value would shift every later field. */
	int n =
	    snprintf(out, PT_KEY_LEN_GID, "%04x:%04x:%06x:%06x:%08x:%016llx:", k->lid, k->out_reads,
		     k->qpn & 0xffffff, k->psn & 0xffffff, k->rkey, (unsigned long long)k->vaddr);
	for (int i = 0; i < 16; i++)
		n += snprintf(out + n, (size_t)(PT_KEY_LEN_GID - n), "%02x:", k->gid[i]);
	snprintf(out + n, (size_t)(PT_KEY_LEN_GID - n), "%08x:", k->srqn);
}

bool pt_key_decode(const char in[PT_KEY_LEN_GID], struct pt_key *k)
{
	char buf[PT_KEY_LEN_GID + 1];
	memcpy(buf, in, PT_KEY_LEN_GID);
	buf[PT_KEY_LEN_GID] = '\0';
	unsigned long long v[23];
	int n = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ":", &save); t && n < 23; t = strtok_r(NULL, ":", &save)) {
		char *end;
		v[n] = strtoull(t, &end, 16);
		if (*end || end == t)
			return false;
		n++;
	}
	if (n != 23 || v[0] > 0xffff || v[1] > 0xffff || v[2] > 0xffffff || v[3] > 0xffffff ||
	    v[4] > 0xffffffffull || v[22] > 0xffffffffull)
		return false;
	k->lid = (uint16_t)v[0];
	k->out_reads = (uint16_t)v[1];
	k->qpn = (uint32_t)v[2];
	k->psn = (uint32_t)v[3];
	k->rkey = (uint32_t)v[4];
	k->vaddr = v[5];
	for (int i = 0; i < 16; i++) {
		if (v[6 + i] > 0xff)
			return false;
		k->gid[i] = (uint8_t)v[6 + i];
	}
	k->srqn = (uint32_t)v[22];
	return true;
}

void pt_u64_encode(uint64_t v, unsigned char out[8])
{
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(v >> (56 - 8 * i));
}

uint64_t pt_u64_decode(const unsigned char in[8])
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | in[i];
	return v;
}

void pt_double_encode(double v, unsigned char out[8])
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	pt_u64_encode(bits, out);
}

double pt_double_decode(const unsigned char in[8])
{
	uint64_t bits = pt_u64_decode(in);
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}
