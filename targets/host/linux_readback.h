/* SPDX-License-Identifier: MIT */
/*
 * What a Linux host prints about its QoS state, parsed into the linux
 * target's settings keys (trust, pfc, dscp_prio). Pure: the text comes from
 * the commands named on each function, run over SSH or captured.
 */
#ifndef QG_LINUX_READBACK_H
#define QG_LINUX_READBACK_H

#include "../../model/settings.h"

/*
 * `mlnx_qos -i IF`: "trust" (pcp|dscp), "pfc" ("0,0,0,1,0,0,0,0"), "dcbx"
 * (os|fw). Every known format generation is accepted: with or without the
 * receive-buffer lines (older MLNX_OFED), total_size= or max_buffer_size=
 * (before and after 2023-05), with or without "default priority:" (before
 * 2024-11). Returns 0, -EINVAL when the text is not mlnx_qos output, -ENOMEM.
 */
int linux_readback_mlnx_qos(const char *text, struct qg_settings *out);

/* `dcb pfc show dev IF` (or `... prio-pfc`): "pfc". 0, -EINVAL, -ENOMEM. */
int linux_readback_dcb_pfc(const char *text, struct qg_settings *out);

/*
 * `dcb app show dev IF dscp-prio`, numeric (-N) or symbolic (CS3, AF41, EF):
 * "dscp_prio" as sorted "dscp:prio" pairs. 0, -EINVAL, -ENOMEM.
 */
int linux_readback_dcb_app(const char *text, struct qg_settings *out);

/* `dcb apptrust show dev IF`: "trust" = the order ("dscp", "port pcp ethtype"). */
int linux_readback_dcb_apptrust(const char *text, struct qg_settings *out);

#endif
