/* SPDX-License-Identifier: MIT */
/*
 * Key order for the JSON trees targets build as their configuration model
 * (NVUE's, SONiC's config_db): natural order, so that "swp2" comes before
 * "swp10" and DSCP "3" before "26", and the same intent gives the same
 * bytes. Pure.
 */
#ifndef QG_JSONSORT_H
#define QG_JSONSORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Runs of digits compare by value, everything else byte by byte. */
int qg_natural_cmp(const char *a, const char *b);

/* Sort the keys of every object in the tree, recursively; false out of memory. */
bool qg_json_sort(cJSON *o);

#endif
