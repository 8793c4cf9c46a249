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

/* What a revision's state word says of its apply. */
enum cumulus_rev_end {
	CUMULUS_REV_APPLIED, /* applied in whole */
	CUMULUS_REV_REFUSED, /* ended without applying anything: the applied revision as it was */
	CUMULUS_REV_GOING,   /* not known to have ended: it may still apply */
};

/*
 * The end state (NULL: none given) names, as NVIDIA documents them (the
 * Cumulus Linux 5.14 NVUE API page): "applied" ("Make a Configuration
 * Change", step 5); "invalid" and "ays_fail" ("Troubleshoot Configuration
 * Changes": the apply failed, nothing applied). NVIDIA's pages give no list
 * of the other states: "pending", "apply" and any other word, documented or
 * not, is GOING, so that a revision is never taken as refused while it may
 * still apply (issue 36, finding 1).
 */
enum cumulus_rev_end cumulus_revision_end(const char *state);

#endif
