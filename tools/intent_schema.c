/* SPDX-License-Identifier: MIT */
/*
 * Writes the JSON Schema of the intent (docs/intent.schema.json) or, with
 * --man, the man page's key list (docs/qosgen.1, between its KEYS marks) to
 * stdout, from the key table and the registry's targets. tests/schema/run.sh
 * compares both with the committed files.
 */
#include "../lib/buf.h"
#include "../emit/keys_schema.h"
#include "../targets/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--man"))) {
		fprintf(stderr, "usage: intent-schema [--man]\n");
		return 2;
	}
	if (argc == 2) {
		struct qg_buf b = {0};
		qg_keys_man(qg_targets, &b);
		fwrite(b.data, 1, b.len, stdout);
		qg_buf_free(&b);
		return ferror(stdout) ? 3 : 0;
	}
	cJSON *s = qg_keys_schema(qg_targets);
	char *text = s ? cJSON_Print(s) : NULL;
	if (!text) {
		fprintf(stderr, "intent-schema: out of memory\n");
		return 3;
	}
	printf("%s\n", text);
	free(text);
	cJSON_Delete(s);
	return ferror(stdout) ? 3 : 0;
}
