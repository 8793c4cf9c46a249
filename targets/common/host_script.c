/* SPDX-License-Identifier: MIT */
#include "host_script.h"

#include "../../lib/escape.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void host_script_paths(const struct qg_model *m, size_t i, struct host_script_paths *p)
{
	const struct qg_host *h = &m->hosts[i];
	p->group_name[0] = '\0';
	if (h->target->group)
		h->target->group(m, i, p->group_name);
	snprintf(p->lib, sizeof(p->lib), "host/lib/%s.sh", h->target->name);
	snprintf(p->hosts, sizeof(p->hosts), "host/hosts/%s.sh", h->target->name);
	snprintf(p->group, sizeof(p->group), "host/groups/%s.sh", p->group_name);
}

static const struct {
	char code;
	const char *var;
} host_ids[] = {
    {HOST_ID_NAME[1], "qg_host"},
    {HOST_ID_NETDEV[1], "qg_netdev"},
    {HOST_ID_RDMA[1], "qg_rdma_device"},
    {HOST_ID_UPLINK[1], "qg_uplink"},
};

static const char *id_var(char code)
{
	for (size_t k = 0; k < sizeof(host_ids) / sizeof(host_ids[0]); k++)
		if (host_ids[k].code == code)
			return host_ids[k].var;
	return NULL;
}

void host_script_word(struct qg_buf *b, const char *s)
{
	if (!strchr(s, HOST_ID_NAME[0])) {
		qg_sh_word(b, s);
		return;
	}
	qg_buf_puts(b, "\"");
	for (const char *c = s; *c; c++) {
		const char *var = c[0] == HOST_ID_NAME[0] ? id_var(c[1]) : NULL;
		if (var) {
			c++;
			/* A name character after it would lengthen the variable's name. */
			char next = c[1];
			bool brace = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
				     (next >= '0' && next <= '9') || next == '_';
			qg_buf_printf(b, brace ? "${%s}" : "$%s", var);
			continue;
		}
		if (strchr("\"\\$`", *c))
			qg_buf_puts(b, "\\");
		qg_buf_append(b, c, 1);
	}
	qg_buf_puts(b, "\"");
}

static void assign(struct qg_buf *b, const char *var, const char *value)
{
	qg_buf_printf(b, "%s%s=", b->len ? " " : "", var);
	qg_sh_word(b, value);
}

int host_script_emit_row(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			 const char *hosts_template, const char *const *identity,
			 struct qg_outset *out)
{
	const struct qg_host *h = &m->hosts[i];
	struct host_script_paths p;
	host_script_paths(m, i, &p);

	/*
	 * The row: the host's variables as one line of assignments, qg_host
	 * first, so that the table header's by-hand command finds it: a fixed
	 * string at the line's start (awk's index), never a pattern, where the
	 * '.' of gpu.1 would match gpu-1's line too.
	 */
	struct qg_buf row = {0};
	assign(&row, "qg_host", h->name);
	assign(&row, "qg_group", p.group_name);
	for (size_t k = 0; identity[k]; k += 2)
		assign(&row, identity[k], identity[k + 1]);
	qg_buf_puts(&row, "\n");

	/*
	 * Each file is given only what it may hold: the table's header nothing
	 * of a host or a group (and, in host_script_emit_group(), the lib
	 * nothing of either, the group's body nothing of one host), so that a
	 * site's template naming {{host}} there is an unknown placeholder, not
	 * files that differ host by host.
	 */
	const struct qg_tvar hosts_vars[] = {
	    QG_TVARS_HEADER(ctx, m),
	    {"lib", p.lib},
	    {"hosts", p.hosts},
	};
	int rc = row.failed ? -ENOMEM
			    : qg_emit_template_row(ctx, hosts_template, hosts_vars,
						   sizeof(hosts_vars) / sizeof(hosts_vars[0]),
						   row.data, p.hosts, 0644, out);
	qg_buf_free(&row);
	return rc;
}

int host_script_prelude(const struct qg_emit_ctx *ctx, struct qg_buf *out)
{
	size_t start = out->len;
	if (qg_template_fill(ctx->templates, "prelude.sh", NULL, 0, out, ctx->d) != 0)
		return -EINVAL;
	if (out->len > start && out->data[out->len - 1] == '\n')
		out->data[--out->len] = '\0';
	return out->failed ? -ENOMEM : 0;
}

int host_script_emit_group(const struct qg_model *m, size_t i, const struct qg_emit_ctx *ctx,
			   const struct host_script_text *x, struct qg_outset *out)
{
	struct host_script_paths p;
	host_script_paths(m, i, &p);
	struct qg_buf prelude = {0};
	int rc = host_script_prelude(ctx, &prelude);
	if (rc) {
		qg_buf_free(&prelude);
		return rc;
	}
	const struct qg_tvar lib_vars[] = {QG_TVARS_HEADER(ctx, m),
					   {"prelude", prelude.data ? prelude.data : ""}};
	const struct qg_tvar group_vars[] = {
	    QG_TVARS_HEADER(ctx, m), {"group", p.group_name}, {"lib", p.lib},
	    {"hosts", p.hosts},	     {"flavour", x->flavour}, {"body", x->body},
	};
#define N(v) (sizeof(v) / sizeof(v[0]))
	rc = qg_emit_template_owned(ctx, x->lib_template, lib_vars, N(lib_vars), p.lib, 0644,
				    QG_FILE_SHARED, out);
	qg_buf_free(&prelude);
	if (!rc)
		rc = qg_emit_template_owned(ctx, x->group_template, group_vars, N(group_vars),
					    p.group, 0644, QG_FILE_GROUP, out);
#undef N
	return rc;
}

int host_script_assemble(const struct qg_model *m, size_t i, const struct qg_outset *files,
			 struct qg_buf *out)
{
	struct host_script_paths p;
	host_script_paths(m, i, &p);
	const struct qg_outfile *f[] = {qg_outset_find(files, p.lib),
					qg_outset_find(files, p.hosts),
					qg_outset_find(files, p.group)};
	for (size_t k = 0; k < 3; k++)
		if (!f[k])
			return -EINVAL;
	/* Of the table, this host's row alone (files holds host i's emit()). */
	qg_buf_append(out, f[0]->data, f[0]->len);
	qg_buf_append(out, f[1]->data + f[1]->head, f[1]->len - f[1]->head);
	qg_buf_append(out, f[2]->data, f[2]->len);
	return out->failed ? -ENOMEM : 0;
}
