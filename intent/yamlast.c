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

/* libyaml's error as a diagnostic at its mark, with a note where its context starts. */
static void parse_error(const yaml_parser_t *parser, const char *text, size_t len,
			struct qg_diags *d)
{
	struct qg_pos pos = mark_pos(parser->problem_mark);
	size_t at = parser->problem_mark.index;
	/* libyaml says "found character that cannot start any token": name it. */
	if (at < len && text[at] == '\t') {
		qg_error(d, pos,
			 "a tab character: YAML indents with spaces only; replace the "
			 "tabs on this line with spaces");
	} else if (parser->context) {
		qg_error(d, pos, "yaml: %s %s", parser->problem ? parser->problem : "error",
			 parser->context);
		/* libyaml's context reads "while parsing a flow mapping". */
		const char *what = parser->context;
		if (!strncmp(what, "while parsing ", 14))
			what += 14;
		qg_note(d, mark_pos(parser->context_mark), "%s starts here", what);
	} else {
		qg_error(d, pos, "yaml: %s", parser->problem ? parser->problem : "cannot parse");
	}
}

/* A scalar event's node. NULL with an error in d. */
static struct qg_ynode *scalar_node(const yaml_event_t *ev, struct qg_pos pos, struct qg_diags *d)
{
	size_t vlen = ev->data.scalar.length;
	if (memchr(ev->data.scalar.value, '\0', vlen)) {
		qg_error(d, pos, "NUL character in a value");
		return NULL;
	}
	struct qg_ynode *n = node_new(QG_Y_SCALAR, pos);
	if (n)
		n->value = strndup((const char *)ev->data.scalar.value, vlen);
	if (!n || !n->value) {
		qg_yaml_free(n);
		d->oom = true;
		return NULL;
	}
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	return n;
}

/* Where qg_yaml_parse is in the event stream. */
struct parse_state {
	struct qg_ynode *stack[QG_YAML_MAX_DEPTH + 1]; /* the open containers */
	size_t depth;
	struct qg_ynode *root;
	int documents;
	bool done; /* the stream ended */
};

/*
 * One event: *out the node it opens (a scalar, a sequence, a mapping), or
 * NULL. false with an error in d when the intent cannot hold it.
 */
static bool event_node(struct parse_state *st, const yaml_event_t *ev, struct qg_ynode **out,
		       struct qg_diags *d)
{
	struct qg_pos pos = mark_pos(ev->start_mark);
	*out = NULL;
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		st->done = true;
		return true;
	case YAML_DOCUMENT_START_EVENT:
		if (++st->documents > 1) {
			qg_error(d, pos,
				 "a second YAML document; an intent file holds exactly one");
			return false;
		}
		return true;
	case YAML_ALIAS_EVENT:
		qg_error(d, pos,
			 "alias '*%s' is not allowed in an intent file; write the value out",
			 (const char *)ev->data.alias.anchor);
		return false;
	case YAML_SCALAR_EVENT:
		return (*out = scalar_node(ev, pos, d)) != NULL;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (st->depth == QG_YAML_MAX_DEPTH) {
			qg_error(d, pos, "nesting deeper than %d levels", QG_YAML_MAX_DEPTH);
			return false;
		}
		*out = node_new(ev->type == YAML_SEQUENCE_START_EVENT ? QG_Y_SEQ : QG_Y_MAP, pos);
		if (!*out)
			d->oom = true;
		return *out != NULL;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		/* The finished container was attached when it opened. */
		st->depth--;
		return true;
	default:
		return true;
	}
}

/* Attach n to its parent, or make it the root; a container becomes the parent. */
static bool node_attach(struct parse_state *st, struct qg_ynode *n, struct qg_diags *d)
{
	if (st->depth == 0) {
		st->root = n;
	} else {
		struct qg_ynode *parent = st->stack[st->depth - 1];
		if (parent->kind == QG_Y_MAP && parent->n_kids % 2 == 0 && n->kind != QG_Y_SCALAR) {
			qg_error(d, n->pos, "a mapping key must be a scalar");
			qg_yaml_free(n);
			return false;
		}
		if (!node_push(parent, n)) {
			qg_yaml_free(n);
			d->oom = true;
			return false;
		}
	}
	if (n->kind != QG_Y_SCALAR)
		st->stack[st->depth++] = n;
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

	struct parse_state st = {0};
	bool ok = true;
	while (ok && !st.done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			parse_error(&parser, text, len, d);
			ok = false;
			break;
		}
		struct qg_ynode *n;
		ok = event_node(&st, &ev, &n, d);
		yaml_event_delete(&ev);
		if (n)
			ok = node_attach(&st, n, d);
	}
	yaml_parser_delete(&parser);
	if (!ok) {
		qg_yaml_free(st.root);
		return NULL;
	}
	return st.root;
}
