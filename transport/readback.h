/* SPDX-License-Identifier: MIT */
/*
 * The read-back limit: the most qosgen takes from a device as one answer,
 * whatever carries it (a saved running-config file, an SSH command's output,
 * the Onyx CLI's reply on the PTY, a vCenter SOAP answer, all the pages of
 * one vSphere property read). A switch's running-config is tens of KiB and a
 * vCenter answer rarely more than a few MiB; past the limit a device is
 * broken or hostile, and each transport stops reading and says which device
 * and which limit, instead of growing a buffer for as long as it sends.
 */
#ifndef QG_READBACK_H
#define QG_READBACK_H

#define QG_READBACK_MAX (16u << 20)
/* QG_READBACK_MAX as messages say it. */
#define QG_READBACK_MAX_TEXT "16 MiB"

#endif
