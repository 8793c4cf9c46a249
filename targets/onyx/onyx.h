/* SPDX-License-Identifier: MIT */
/*
 * NVIDIA Onyx (MLNX-OS) switches: CLI lines in the shape Onyx prints its
 * running-config, so that the generated file, the switch's own
 * `show running-config` and `qosgen diff` read alike.
 */
#ifndef QG_TARGET_ONYX_H
#define QG_TARGET_ONYX_H

#include "../../lib/buf.h"
#include "../../model/target.h"

extern const struct qg_target qg_target_onyx;

/* The running-config sections qosgen writes, in the order Onyx prints them. */
enum onyx_section {
	ONYX_SEC_INTERFACE, /* "Interface Ethernet configuration" */
	ONYX_SEC_BUFFER,    /* "Interface Ethernet buffer configuration" */
	ONYX_SEC_QOS,	    /* "QoS switch configuration" */
	ONYX_SEC_ETS,	    /* "DCBX ETS configuration" */
	ONYX_SEC_COUNT,
};
extern const char *const onyx_section_title[ONYX_SEC_COUNT];

#endif
