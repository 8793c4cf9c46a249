/* SPDX-License-Identifier: MIT */
/*
 * The report lines of the generated host scripts, "[status] key: detail",
 * read back by the push: the keys are the targets' settings keys.
 */
#ifndef QG_REPORT_H
#define QG_REPORT_H

#include <stddef.h>

enum qg_report_status {
	QG_REPORT_OK,
	QG_REPORT_CHANGED,
	QG_REPORT_FAILED,
	QG_REPORT_MISSING,
	QG_REPORT_NA,
	QG_REPORT_REBOOT, /* "[reboot] ..." from an ESXi script: no key */
	QG_REPORT_DIFFERS, /* a dry run: would be changed */
};

struct qg_report_line {
	enum qg_report_status status;
	char key[96];
	char detail[256];
};

struct qg_report {
	struct qg_report_line *v;
	size_t n;
	size_t other_lines; /* output that is not a report line (a tool's stray message) */
};

/* Parse a script's output. 0 or -ENOMEM. */
int qg_report_parse(const char *text, struct qg_report *out);
void qg_report_free(struct qg_report *r);
const char *qg_report_status_name(enum qg_report_status s);

#endif
