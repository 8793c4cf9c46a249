/* SPDX-License-Identifier: MIT */
/*
 * The first gate of an Onyx read-back: is the text a running-config at all?
 */
#ifndef QG_ONYX_TEXT_H
#define QG_ONYX_TEXT_H

#include "../../model/diag.h"

#include <stddef.h>

/*
 * 0 when text (len bytes, NULs included) reads as a running-config, with
 * *skip the length of a UTF-8 byte-order mark to pass over (0 or 3). Else
 * -EINVAL and one error in d saying what was read: empty, UTF-16, a NUL or
 * other binary byte (with its line and column), or no Onyx line at all.
 */
int onyx_text_check(const char *text, size_t len, size_t *skip, struct qg_diags *d);

#endif
