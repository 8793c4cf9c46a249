/* SPDX-License-Identifier: MIT */
/*
 * vSphere Distributed Switches: the ReconfigureDvs_Task request body that
 * `qosgen push` sends through the vSphere API, and the same settings as a
 * govc script.
 */
#ifndef QG_TARGET_DVS_H
#define QG_TARGET_DVS_H

#include "../../model/target.h"
#include "../../vsphere/soap.h"

extern const struct qg_target qg_target_dvs;

/* XML namespaces of the request: vsphere/soap.h's. */
#define DVS_NS_SOAP VS_NS_SOAP
#define DVS_NS_XSI VS_NS_XSI
#define DVS_NS_VIM VS_NS_VIM

/*
 * The SOAP envelope for ReconfigureDvs_Task, pretty-printed. `_this` and
 * `spec/configVersion` are left empty: the push reads both from vCenter just
 * before it sends (a stale configVersion is refused as ConcurrentAccess).
 * Returns a malloc'ed string, or NULL on allocation failure.
 */
char *dvs_reconfigure_xml(const struct qg_model *m, size_t i, const char *comment, size_t *len);

#endif
