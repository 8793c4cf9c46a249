/* SPDX-License-Identifier: MIT */
#include "yamlast.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static struct qg_pos mark_pos(yaml_mark_t m)
{
	/* libyaml marks are 0-based and count characters, as editors do. */
	return (struct qg_pos){.line = (int)m.line + 1, .col = (int)m.column + 1};
}

static struct qg_ynode *node_new(enum qg_ykind kind, struct qg_pos pos)
{
	struct qg_ynode *n = calloc(1, sizeof(*n));
	if (n) {
		n->kind = kind;
		n->pos = pos;
	}
	return n;
}

void qg_yaml_free(struct qg_ynode *n)
{
	if (!n)
		return;
	/* Depth is bounded by QG_YAML_MAX_DEPTH, so recursion is safe here. */
	for (size_t i = 0; i < n->n_kids; i++)
		qg_yaml_free(n->kids[i]);
	free(n->kids);
	free(n->value);
	free(n);
}

static bool node_push(struct qg_ynode *parent, struct qg_ynode *kid)
{
	/* Grow by doubling; a capacity is not stored, so use powers of two. */
	size_t n = parent->n_kids;
	if ((n & (n - 1)) == 0) {
		size_t cap = n ? n * 2 : 4;
		struct qg_ynode **k = realloc(parent->kids, cap * sizeof(*k));
		if (!k)
			return false;
		parent->kids = k;
	}
	parent->kids[parent->n_kids++] = kid;
	return true;
}

struct qg_ynode *qg_yaml_parse(const char *text, size_t len, struct qg_diags *d)
{
	if (len > QG_YAML_MAX_BYTES) {
		qg_error(d, (struct qg_pos){0}, "intent file is %zu bytes; the limit is %u", len,
			 QG_YAML_MAX_BYTES);
		return NULL;
	}
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		d->oom = true;
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);

	struct qg_ynode *stack[QG_YAML_MAX_DEPTH + 1];
	size_t depth = 0;
	struct qg_ynode *root = NULL;
	int documents = 0;
	bool ok = true, done = false;

	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			struct qg_pos pos = mark_pos(parser.problem_mark);
			size_t at = parser.problem_mark.index;
			/* libyaml says "found character that cannot start any token": name it. */
			if (at < len && text[at] == '\t') {
				qg_error(
				    d, pos,
				    "a tab character: YAML indents with spaces only; replace the "
				    "tabs on this line with spaces");
			} else if (parser.context) {
				qg_error(d, pos, "yaml: %s %s",
					 parser.problem ? parser.problem : "error", parser.context);
				/* libyaml's context reads "while parsing a flow mapping". */
				const char *what = parser.context;
				if (!strncmp(what, "while parsing ", 14))
					what += 14;
				qg_note(d, mark_pos(parser.context_mark), "%s starts here", what);
			} else {
				qg_error(d, pos, "yaml: %s",
					 parser.problem ? parser.problem : "cannot parse");
			}
			ok = false;
			break;
		}
		struct qg_ynode *n = NULL;
		struct qg_pos pos = mark_pos(ev.start_mark);
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++documents > 1) {
				qg_error(
				    d, pos,
				    "a second YAML document; an intent file holds exactly one");
				ok = false;
			}
			break;
		case YAML_ALIAS_EVENT:
			qg_error(
			    d, pos,
			    "alias '*%s' is not allowed in an intent file; write the value out",
			    (const char *)ev.data.alias.anchor);
			ok = false;
			break;
		case YAML_SCALAR_EVENT: {
			size_t vlen = ev.data.scalar.length;
			if (memchr(ev.data.scalar.value, '\0', vlen)) {
				qg_error(d, pos, "NUL character in a value");
				ok = false;
				break;
			}
			n = node_new(QG_Y_SCALAR, pos);
			if (n)
				n->value = strndup((const char *)ev.data.scalar.value, vlen);
			if (!n || !n->value) {
				qg_yaml_free(n);
				n = NULL;
				d->oom = true;
				ok = false;
				break;
			}
			n->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			break;
		}
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == QG_YAML_MAX_DEPTH) {
				qg_error(d, pos, "nesting deeper than %d levels",
					 QG_YAML_MAX_DEPTH);
				ok = false;
				break;
			}
			n = node_new(ev.type == YAML_SEQUENCE_START_EVENT ? QG_Y_SEQ : QG_Y_MAP,
				     pos);
			if (!n) {
				d->oom = true;
				ok = false;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			/* The finished container was attached when it opened. */
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (!n)
			continue;

		/* Attach the new node to its parent, or make it the root. */
		if (depth == 0) {
			root = n;
		} else {
			struct qg_ynode *parent = stack[depth - 1];
			if (parent->kind == QG_Y_MAP && parent->n_kids % 2 == 0 &&
			    n->kind != QG_Y_SCALAR) {
				qg_error(d, n->pos, "a mapping key must be a scalar");
				qg_yaml_free(n);
				ok = false;
				break;
			}
			if (!node_push(parent, n)) {
				qg_yaml_free(n);
				d->oom = true;
				ok = false;
				break;
			}
		}
		if (n->kind != QG_Y_SCALAR)
			stack[depth++] = n;
	}
	yaml_parser_delete(&parser);
	if (!ok) {
		qg_yaml_free(root);
		return NULL;
	}
	return root;
}
