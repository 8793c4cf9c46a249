/* SPDX-License-Identifier: MIT */
/*
 * The out-of-band messages of perftest 4.5-0.17 (Debian 12's ib_write_bw,
 * version string "6.06"), encoded and decoded byte for byte as
 * shared/notes/perftest.md §1 describes them. Pure: buffers in, buffers out.
 */
#ifndef QG_WIRE_H
#define QG_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What we announce: a 4.5-0.17 peer then takes exactly the branches described. */
#define PT_VERSION "6.06"
#define PT_VERSION_LEN 16
#define PT_DEFAULT_PORT 18515
#define PT_KEY_LEN_GID 108 /* RoCE: always the form with a GID */
#define PT_KEY_LEN 59	   /* native IB without a GID */
#define PT_MTU_LEN 2
#define PT_DONE "done"

/* One QP's connection data (perftest's struct pingpong_dest, as printed). */
struct pt_key {
	uint16_t lid;	    /* 0 on RoCE */
	uint16_t out_reads; /* 1 for WRITE */
	uint32_t qpn;	    /* 24 bits */
	uint32_t psn;	    /* 24 bits */
	uint32_t rkey;
	uint64_t vaddr;
	uint8_t gid[16]; /* network order */
	uint32_t srqn;	 /* 0 unless XRC/DC */
};

/* The report fields the client sends after the test (steps 9-13). */
struct pt_report {
	uint64_t size;
	uint64_t iters;
	double bw_peak;
	double bw_avg;
	double msg_rate;
};

/* "6.06" NUL-padded to 16 bytes. */
void pt_version_encode(const char *version, char out[PT_VERSION_LEN]);
/*
 * The peer's version as hundredths ("6.06" -> 606, "5.7" -> 570), parsed
 * from the NUL-padded field; -1 when it is not a version.
 */
int pt_version_decode(const char in[PT_VERSION_LEN]);
/* perftest refuses peers older than 5.70. */
#define PT_VERSION_MIN 570

void pt_int32_encode(int32_t v, unsigned char out[4]);
int32_t pt_int32_decode(const unsigned char in[4]);

/* enum ibv_mtu (1..5 for 256..4096) as ASCII and a NUL: "5\0". */
void pt_mtu_encode(int mtu_enum, char out[PT_MTU_LEN]);
/* 1..5, or -1 when the message is not one. */
int pt_mtu_decode(const char in[PT_MTU_LEN]);

/* The 108-byte key with a GID: exact widths, since the peer reads 108 bytes. */
void pt_key_encode(const struct pt_key *k, char out[PT_KEY_LEN_GID]);
/* Tokenised on ':' as perftest reads it; false when a field is missing or bad. */
bool pt_key_decode(const char in[PT_KEY_LEN_GID], struct pt_key *k);

void pt_u64_encode(uint64_t v, unsigned char out[8]);
uint64_t pt_u64_decode(const unsigned char in[8]);
/* IEEE-754 doubles, byte-swapped to big-endian (perftest's bswap_double). */
void pt_double_encode(double v, unsigned char out[8]);
double pt_double_decode(const unsigned char in[8]);

#endif
