/* SPDX-License-Identifier: MIT */
/*
 * The files travel inside the payload as quoted here-documents ('EOF': no
 * expansion), each ended by a marker made from the file's own SHA-256, which
 * the file cannot contain as a line (checked anyway). Nothing from the host
 * reaches a command line: paths are fixed, built from the intent's
 * validated netdev name (model/names.c) and shell-quoted.
 */
#include "linux_persist.h"

#include "../../lib/escape.h"
#include "../../lib/hash.h"
#include "../common/host_script.h"
#include "linux.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A line of data equal to marker would end the here-document early. */
static bool holds_line(const char *data, size_t len, const char *marker)
{
	size_t ml = strlen(marker);
	for (size_t k = 0; k + ml <= len; k++)
		if ((k == 0 || data[k - 1] == '\n') && !memcmp(data + k, marker, ml) &&
		    (k + ml == len || data[k + ml] == '\n'))
			return true;
	return false;
}

/* CMD ARGS... <<'MARKER' DATA MARKER, the data ending with a newline. */
static int heredoc(struct qg_buf *out, const char *cmd, const struct qg_outfile *f, const char *tag)
{
	char sha[QG_SHA256_HEX], marker[64];
	if (qg_sha256_hex(f->data, f->len, sha) != 0)
		return -ENOMEM;
	snprintf(marker, sizeof(marker), "QOSGEN_%s_%.16s", tag, sha);
	if (holds_line(f->data, f->len, marker) || (f->len && f->data[f->len - 1] != '\n'))
		return -EINVAL;
	qg_buf_printf(out, "%s <<'%s'\n", cmd, marker);
	qg_buf_append(out, f->data, f->len);
	qg_buf_printf(out, "%s\n", marker);
	return 0;
}

static int install_one(struct qg_buf *body, const char *path, unsigned mode,
		       const struct qg_outfile *f)
{
	char sha[QG_SHA256_HEX], mode_s[8];
	if (!f || qg_sha256_hex(f->data, f->len, sha) != 0)
		return f ? -ENOMEM : -EINVAL;
	struct qg_buf cmd = {0};
	snprintf(mode_s, sizeof(mode_s), "%o", mode);
	qg_buf_puts(&cmd, "qg_persist_file ");
	qg_sh_word(&cmd, path);
	qg_buf_printf(&cmd, " %s %s", mode_s, sha);
	int rc = cmd.failed ? -ENOMEM : heredoc(body, cmd.data, f, "FILE");
	qg_buf_free(&cmd);
	return rc;
}

static void call_on(struct qg_buf *body, const char *fn, const char *path)
{
	qg_buf_puts(body, fn);
	qg_buf_puts(body, " ");
	qg_sh_word(body, path);
	qg_buf_puts(body, "\n");
}

static void remove_one(struct qg_buf *body, const char *path)
{
	call_on(body, "qg_persist_remove", path);
}

/* Host j is another intent host of host i's machine: the same SSH address and port. */
static bool same_machine(const struct qg_model *m, size_t i, size_t j)
{
	const struct qg_host *h = &m->hosts[i], *o = &m->hosts[j];
	return j != i && o->target == h->target && o->port == h->port &&
	       !strcmp(o->address, h->address);
}

/*
 * What no intent host of this machine installs any more goes (issue 35): a
 * NIC removed from the intent, a host of the machine removed, a host that
 * went from one NIC to several (roce-qos-NETDEV.sh to roce-qos.sh). The
 * files every other intent host of the machine installs (persist: true) are
 * named as kept, then the sweep removes the qosgen-shaped files of the
 * three folders that no one keeps: the install cannot otherwise tell a file
 * of another host of the same machine from a leftover.
 */
static void keep_and_sweep(const struct qg_model *m, size_t i, struct qg_buf *body)
{
	for (size_t j = 0; j < m->n_hosts; j++) {
		if (!same_machine(m, i, j) || !m->hosts[j].persist)
			continue;
		for (size_t k = 0; k < m->hosts[j].n_nics; k++) {
			struct linux_persist_paths q;
			linux_persist_paths(&m->hosts[j], k, &q);
			call_on(body, "qg_persist_keep", q.script);
			call_on(body, "qg_persist_keep", q.unit);
			call_on(body, "qg_persist_keep", q.rules);
		}
	}
	qg_buf_puts(body, "qg_persist_sweep\n");
}

/* The persistence script around body, starting with the host scripts' prelude. */
static int fill_persist(const struct qg_model *m, const struct qg_host *host,
			const struct qg_emit_ctx *ctx, const char *body, struct qg_buf *out)
{
	struct qg_buf prelude = {0};
	int rc = host_script_prelude(ctx, &prelude);
	const struct qg_tvar vars[] = {
	    QG_TVARS_HEADER(ctx, m),
	    {"host", host->name},
	    {"prelude", prelude.data ? prelude.data : ""},
	    {"body", body},
	};
	if (rc == 0 && qg_template_fill(ctx->templates, "linux-persist.sh", vars,
					sizeof(vars) / sizeof(vars[0]), out, ctx->d) != 0)
		rc = -EINVAL;
	qg_buf_free(&prelude);
	return rc;
}

int linux_persist_payload(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			  const struct qg_outset *files, enum linux_persist_op op, bool run_script,
			  struct qg_buf *out)
{
	const struct qg_host *host = &m->hosts[i];
	/* The script the host runs: host_script.h's three files as one. */
	struct qg_buf assembled = {0};
	int rc = host_script_assemble(m, i, files, &assembled);
	if (rc) {
		qg_buf_free(&assembled);
		return rc;
	}
	const struct qg_outfile script_file = {.data = assembled.data, .len = assembled.len};
	const struct qg_outfile *script = &script_file;
	if (op == LINUX_PERSIST_NONE) {
		qg_buf_append(out, script->data, script->len);
		qg_buf_free(&assembled);
		return out->failed ? -ENOMEM : 0;
	}
	/* The script is the host's, one for all its NICs; a unit and a rule per NIC. */
	struct linux_persist_paths p;
	linux_persist_paths(host, 0, &p);
	struct qg_buf body = {0};
	if (op == LINUX_PERSIST_INSTALL) {
		/* The script first: the units and the rules name it. */
		rc = install_one(&body, p.script, 0755, script);
		for (size_t k = 0; rc == 0 && k < host->n_nics; k++) {
			char service[LINUX_PERSIST_FILE_LEN], rules[LINUX_PERSIST_FILE_LEN];
			linux_persist_files(host, k, service, rules);
			linux_persist_paths(host, k, &p);
			rc = install_one(&body, p.unit, 0644, qg_outset_find(files, service));
			if (!rc)
				rc =
				    install_one(&body, p.rules, 0644, qg_outset_find(files, rules));
		}
		keep_and_sweep(m, i, &body);
		qg_buf_puts(&body, "qg_persist_end\n");
	} else {
		/* The rules first: nothing may start the script while it goes. */
		for (size_t k = 0; k < host->n_nics; k++) {
			linux_persist_paths(host, k, &p);
			remove_one(&body, p.rules);
			remove_one(&body, p.unit);
		}
		remove_one(&body, p.script);
		/*
		 * qosgen's lines in NCCL's and UCX's files, unless another intent
		 * host of this machine still has them (they are the machine's).
		 */
		bool alone = true;
		for (size_t j = 0; j < m->n_hosts; j++)
			alone &= !same_machine(m, i, j);
		for (size_t k = 0; alone && k < LINUX_JOB_CONFS; k++) {
			qg_buf_puts(&body, "qg_persist_conf_unset ");
			qg_sh_word(&body, linux_job_conf[k].file);
			qg_buf_puts(&body, " ");
			qg_sh_word(&body, linux_job_conf[k].var);
			qg_buf_puts(&body, "\n");
		}
		qg_buf_puts(&body, "qg_persist_removed ");
		char dir[sizeof(p.script)];
		snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(p.script, '/') - p.script),
			 p.script);
		qg_sh_word(&body, dir);
		qg_buf_puts(&body, "\n");
	}
	if (rc == 0 && body.failed)
		rc = -ENOMEM;
	if (rc == 0)
		rc = fill_persist(m, host, ctx, body.data, out);
	qg_buf_free(&body);
	if (rc == 0 && run_script) {
		/*
		 * The exit status a push judges: the script's, made worse by the
		 * persist line (1 failed, 2 missing) as a setting of its own would.
		 */
		rc = heredoc(out, "sh -s", script, "SCRIPT");
		qg_buf_puts(out, "qg_rc=$?\n"
				 "if [ \"$qg_rc\" -le 2 ] && [ \"$qg_persist_failed\" = 1 ]; then\n"
				 "\tqg_rc=1\n"
				 "elif [ \"$qg_rc\" = 0 ]; then\n"
				 "\tqg_rc=$qg_persist_failed\n"
				 "fi\n"
				 "exit \"$qg_rc\"\n");
	} else if (rc == 0) {
		qg_buf_puts(out, "exit \"$qg_persist_failed\"\n");
	}
	qg_buf_free(&assembled);
	return rc == 0 && out->failed ? -ENOMEM : rc;
}
