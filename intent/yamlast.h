/* SPDX-License-Identifier: MIT */
/*
 * The intent file as a tree of YAML nodes, each with its position.
 *
 * We build our own tree from libyaml's event stream rather than use its
 * document API: aliases are refused where they stand (a shared node would
 * otherwise be walked once per reference: the "billion laughs"), nesting depth
 * is bounded without recursion, and every node keeps the mark that
 * diagnostics need.
 */
#ifndef QG_YAMLAST_H
#define QG_YAMLAST_H

#include "../model/diag.h"

#include <stdbool.h>
#include <stddef.h>

enum qg_ykind { QG_Y_SCALAR, QG_Y_SEQ, QG_Y_MAP };

struct qg_ynode {
	enum qg_ykind kind;
	struct qg_pos pos;
	/* scalar */
	char *value; /* NUL-terminated; NUL inside a value is rejected */
	bool plain;  /* written without quotes: only plain scalars are numbers */
	/* sequence: kids[i]; mapping: kids[2i] is a key (scalar), kids[2i+1] its value */
	struct qg_ynode **kids;
	size_t n_kids;
};

/*
 * Largest intent file accepted. A fabric of 5,000 switches and 100,000 hosts
 * written one device per line is about 12 MB; 32 MiB leaves room for longer
 * lines and comments, and bounds what a file can make `check` hold: the
 * tree and model cost about 18 times the text (218 MB for those 12 MB),
 * so about 600 MB at the limit.
 */
#define QG_YAML_MAX_BYTES (32u << 20)
/* Deepest nesting accepted; the intent schema needs 5. */
#define QG_YAML_MAX_DEPTH 32

/*
 * Parse one YAML document. Returns the root (NULL for an empty document or on
 * error); problems go to d as errors.
 */
struct qg_ynode *qg_yaml_parse(const char *text, size_t len, struct qg_diags *d);
void qg_yaml_free(struct qg_ynode *n);

static inline size_t qg_ymap_len(const struct qg_ynode *m)
{
	return m->n_kids / 2;
}

#endif
