/* SPDX-License-Identifier: MIT */
#ifndef QG_VERSION_H
#define QG_VERSION_H
#define QG_VERSION "0.1.0"
#define QG_GENERATOR "qosgen " QG_VERSION
#endif
