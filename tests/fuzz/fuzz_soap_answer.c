/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a vCenter SOAP answer, through the parser
 * every answer takes (vs_answer_parse) and the readers the push uses on it
 * (faults, managed-object references, text, xsi:type, paths). A vCenter,
 * or anyone on the path to a plain-HTTP one, chooses these bytes.
 *
 * Asserted, not just "no crash": an answer with a DTD is never accepted;
 * no text read from a document is longer than the answer (nothing expands);
 * a fault's type and message carry no byte a terminal obeys.
 */
#include "../../vsphere/vim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No C0 control, DEL, or C1 control (UTF-8 C2 80..9F): lib/escape.c's promise. */
static void printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			abort();
}

static void walk(xmlNodePtr n, size_t size, int depth)
{
	for (xmlNodePtr k = n; k && depth < 64; k = k->next) {
		if (k->type == XML_ENTITY_REF_NODE || k->type == XML_DTD_NODE ||
		    k->type == XML_ENTITY_DECL)
			abort(); /* no DTD, so no entity can be there */
		if (k->type != XML_ELEMENT_NODE)
			continue;
		char *t = vs_text(k);
		if (!t || strlen(t) > size)
			abort();
		free(t);
		char type[64], msg[400], path[128];
		vs_fault_of(k, type, sizeof(type), msg, sizeof(msg));
		printable(type);
		printable(msg);
		vs_xsi_type(k, type, sizeof(type));
		vs_attr(k, "type", type, sizeof(type));
		struct vim_ref r;
		vim_ref_of(k, &r);
		vim_path_text(k, "returnval.token", path, sizeof(path));
		walk(k->children, size, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xmlDocPtr doc;
	char err[256];
	int rc = vs_answer_parse((const char *)data, size, &doc, err, sizeof(err));
	if (rc != 0) {
		if (doc || !err[0])
			abort(); /* refused: no document, and a reason */
		return 0;
	}
	if (!doc || doc->intSubset || doc->extSubset)
		abort();
	xmlNodePtr root = xmlDocGetRootElement(doc);
	walk(root, size, 0);
	xmlNodePtr body = vs_child(root, "Body"), first = vs_child(body, NULL);
	for (xmlNodePtr k = first; k; k = vs_next(k, NULL))
		(void)vs_child(k, "returnval");
	xmlFreeDoc(doc);
	return 0;
}
