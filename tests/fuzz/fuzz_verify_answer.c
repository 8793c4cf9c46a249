/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as what a host prints to `qosgen verify`: the
 * facts script's answer (verbs/remote.c: vr_facts_parse), the traffic tool's
 * result (qosgen probe's JSON line, or ib_write_bw's report:
 * vr_result_parse), and the output's last lines quoted in a message
 * (vr_output_tail), and the default-path probe's lines (vr_defpath_parse).
 * The host is the one being verified; it may be broken or hostile.
 *
 * Asserted: every number taken is in its range (and none was converted
 * from out of range: the sanitizers stop on a float-to-int overflow); the
 * address is a dotted quad; counter names and quoted lines carry no byte a
 * terminal obeys.
 */
#include "../../verbs/remote.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			abort();
}

static void in_range(int v, int lo, int hi)
{
	if (v != -1 && (v < lo || v > hi))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char err[256];

	struct vr_facts f;
	if (vr_facts_parse(text, &f, err, sizeof(err)) == 0) {
		in_range(f.netdev_mtu, 68, 65536);
		in_range(f.active_mtu, 256, 4096);
		in_range(f.gid_index, 0, 65535);
		in_range(f.roce_tos, 0, 255);
		in_range(f.traffic_class, 0, 255);
		for (const char *c = f.ipv4; *c; c++)
			if ((*c < '0' || *c > '9') && *c != '.')
				abort();
		for (size_t i = 0; i < f.counters.n; i++)
			printable(f.counters.v[i].name);
		vr_facts_free(&f);
	}

	struct vr_result r;
	if (vr_result_parse(text, &r, err, sizeof(err)) == 0) {
		if (!r.ok || !isfinite(r.gbps) || r.gbps < 0)
			abort();
		in_range(r.active_mtu, 256, 4096);
		in_range(r.path_mtu, 256, 4096);
		in_range(r.tclass, 0, 255);
		in_range(r.gid_index, 0, 65535);
	}

	/* The default-path probe's lines (issue 35): every ToS a byte, at most 8 of them. */
	struct vr_defpath dp;
	if (vr_defpath_parse(text, &dp, err, sizeof(err)) == 0) {
		in_range(dp.tclass, 0, 255);
		if (dp.n_tos < 0 || dp.n_tos > 8 || dp.sent < 0 || dp.received < 0)
			abort();
		for (int k = 0; k < dp.n_tos; k++)
			if (dp.tos[k] < -1 || dp.tos[k] > 255)
				abort();
	}

	char tail[300];
	vr_output_tail(text, size, tail, sizeof(tail));
	printable(tail);
	free(text);
	return 0;
}
