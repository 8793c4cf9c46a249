/* SPDX-License-Identifier: MIT */
/*
 * vSphere Distributed Switches: the ReconfigureDvs_Task request body that
 * `qosgen push` sends through the vSphere API, and the same settings as a
 * govc script.
 */
#ifndef QG_TARGET_DVS_H
#define QG_TARGET_DVS_H

#include "../../gen/target.h"

extern const struct qg_target qg_target_dvs;

/* XML namespaces of the request. */
#define DVS_NS_SOAP "http://schemas.xmlsoap.org/soap/envelope/"
#define DVS_NS_XSI "http://www.w3.org/2001/XMLSchema-instance"
#define DVS_NS_VIM "urn:vim25"

/*
 * The SOAP envelope for ReconfigureDvs_Task, pretty-printed. `_this` and
 * `spec/configVersion` are left empty: the push reads both from vCenter just
 * before it sends (a stale configVersion is refused as ConcurrentAccess).
 * Returns a malloc'ed string, or NULL on allocation failure.
 */
char *dvs_reconfigure_xml(const struct qg_model *m, size_t i, const char *comment, size_t *len);

#endif
