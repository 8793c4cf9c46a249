/* SPDX-License-Identifier: MIT */
/* What an ESXi host prints about the nmlx5 driver and pause settings, parsed. Pure. */
#ifndef QG_ESXI_READBACK_H
#define QG_ESXI_READBACK_H

#include "../../model/settings.h"

/*
 * `esxcfg-module -g MODULE`: "MODULE enabled = 1 options = 'k=v k=v'" gives
 * one setting per option, keyed "MODULE.k" as the esxi target's settings.
 * 0, -EINVAL (not that shape), -ENOMEM.
 */
int esxi_readback_module(const char *text, struct qg_settings *out);

/*
 * `esxcli network nic pauseParams list`: per NIC "<nic>.pause_rx" and
 * "<nic>.pause_tx" (true/false). Columns are found by their header names,
 * not positions. 0, -EINVAL, -ENOMEM.
 */
int esxi_readback_pause(const char *text, struct qg_settings *out);

#endif
