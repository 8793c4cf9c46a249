/* SPDX-License-Identifier: MIT */
/* What the Cumulus driver (cumulus_push.c) checks in the switch's answers before using them. */
#ifndef QG_CUMULUS_PUSH_H
#define QG_CUMULUS_PUSH_H

#include <stdbool.h>

/*
 * Is id a revision id as NVUE names them, safe to put in a URL path and
 * query? NVUE's documented ids are numbers ("1", "2": the Cumulus Linux
 * 5.14 API page, "Make a Configuration Change") and changesets
 * ("changeset/cumulus/2021-11-02_16.09.18_5Z1K": the 5.0 NVUE page, "NVUE
 * REST API"), so: segments joined by '/', each of letters, digits, '_',
 * '-' and '.', none empty and none starting with '.', at most 255 bytes in
 * all. "." and ".." would be dot segments: a URL library resolves
 * /revision/.. to the API's root (RFC 3986, 5.2.4) and an apply would
 * PATCH the whole configuration (issue 24, finding 8).
 */
bool cumulus_revision_id_ok(const char *id);

#define CUMULUS_REVISION_ID_MAX 255

#endif
