/* SPDX-License-Identifier: MIT */
/* The perftest OOB codec, against byte strings written out from the spec. */
#include "helpers.h"

#include "../../verbs/wire.h"

/* Field by field: structs have padding, which memcmp would compare too. */
static bool key_equal(const struct pt_key *a, const struct pt_key *b)
{
	return a->lid == b->lid && a->out_reads == b->out_reads && a->qpn == b->qpn &&
	       a->psn == b->psn && a->rkey == b->rkey && a->vaddr == b->vaddr &&
	       !memcmp(a->gid, b->gid, sizeof(a->gid)) && a->srqn == b->srqn;
}

static void test_version(void **state)
{
	(void)state;
	char v[PT_VERSION_LEN];
	pt_version_encode(PT_VERSION, v);
	assert_memory_equal(v, "6.06\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	assert_int_equal(pt_version_decode(v), 606);
	assert_int_equal(pt_version_decode("5.7\0\0\0\0\0\0\0\0\0\0\0\0\0"), 570);
	assert_int_equal(pt_version_decode("5.69\0\0\0\0\0\0\0\0\0\0\0\0"), 569);
	assert_int_equal(pt_version_decode("6.29\0\0\0\0\0\0\0\0\0\0\0\0"), 629);
	assert_int_equal(pt_version_decode("x.1\0\0\0\0\0\0\0\0\0\0\0\0\0"), -1);
	/*
	 * A hostile peer fills all 16 bytes with digits: 2^32 * 10^6 + 7 wraps a
	 * 32-bit int to 7 (undefined behaviour, and "7.00" would pass as a
	 * version). Not a version: refused without overflowing.
	 */
	char digits[PT_VERSION_LEN];
	memcpy(digits, "4294967296000007", PT_VERSION_LEN);
	assert_int_equal(pt_version_decode(digits), -1);
	memcpy(digits, "9999999999999999", PT_VERSION_LEN);
	assert_int_equal(pt_version_decode(digits), -1);
	/* A long minor part is read to two digits, never accumulated. */
	memcpy(digits, "6.99999999999999", PT_VERSION_LEN);
	assert_int_equal(pt_version_decode(digits), 699);
}

static void test_ints_and_mtu(void **state)
{
	(void)state;
	unsigned char b[8];
	pt_int32_encode(4096, b);
	assert_memory_equal(b, "\x00\x00\x10\x00", 4);
	assert_int_equal(pt_int32_decode(b), 4096);
	char m[2];
	pt_mtu_encode(5, m);
	assert_memory_equal(m, "5\0", 2);
	assert_int_equal(pt_mtu_decode(m), 5);
	assert_int_equal(pt_mtu_decode("7\0"), -1);
	assert_int_equal(pt_mtu_decode("5x"), -1);
	pt_u64_encode(65536, b);
	assert_memory_equal(b, "\x00\x00\x00\x00\x00\x01\x00\x00", 8);
	/* 1.0 is 0x3ff0000000000000: big-endian on the wire. */
	pt_double_encode(1.0, b);
	assert_memory_equal(b, "\x3f\xf0\x00\x00\x00\x00\x00\x00", 8);
	assert_true(pt_double_decode(b) == 1.0);
}

static void test_key_golden(void **state)
{
	(void)state;
	struct pt_key k = {.lid = 0,
			   .out_reads = 1,
			   .qpn = 0x11,
			   .psn = 0xabcdef,
			   .rkey = 0x1234,
			   .vaddr = 0x7f0000001000ull,
			   .gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1},
			   .srqn = 0};
	char out[PT_KEY_LEN_GID];
	pt_key_encode(&k, out);
	/* 107 characters and the NUL: the exact bytes a 4.5-0.17 peer reads. */
	static const char want[PT_KEY_LEN_GID] =
	    "0000:0001:000011:abcdef:00001234:00007f0000001000:"
	    "00:00:00:00:00:00:00:00:00:00:ff:ff:c0:00:02:01:00000000:";
	assert_int_equal(strlen(want), 107);
	assert_memory_equal(out, want, PT_KEY_LEN_GID);
	struct pt_key back;
	assert_true(pt_key_decode(out, &back));
	assert_true(key_equal(&back, &k));
	/* A reader must not rely on widths: perftest tokenises on ':'. */
	char loose[PT_KEY_LEN_GID] =
	    "0:1:11:abcdef:1234:7f0000001000:0:0:0:0:0:0:0:0:0:0:ff:ff:c0:0:2:1:0:";
	assert_true(pt_key_decode(loose, &back));
	assert_true(key_equal(&back, &k));
	/* Over-wide values are masked, never allowed to shift the fields. */
	k.qpn = 0x1000011;
	pt_key_encode(&k, out);
	assert_int_equal(strlen(out), 107);
	char bad[PT_KEY_LEN_GID] = "0000:0001:zz:abcdef:";
	assert_false(pt_key_decode(bad, &back));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version),
	    cmocka_unit_test(test_ints_and_mtu),
	    cmocka_unit_test(test_key_golden),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
