/* SPDX-License-Identifier: MIT */
/*
 * The classes' WRR weights against every switch OS of the fabric, once
 * (issue 37): each OS leaves its other traffic classes something, each in
 * its own way (a target's ets_fits, model/target.h). One error, at the weight,
 * with the nearest weights every used target takes and which OS sets that
 * limit: not one error per OS, each with another limit.
 */
#ifndef QG_ETS_CHECK_H
#define QG_ETS_CHECK_H

#include "diag.h"
#include "model.h"

/* The error, when the weights do not fit a used target; true when it was said. */
bool qg_ets_check(const struct qg_model *m, struct qg_diags *d);

#endif
