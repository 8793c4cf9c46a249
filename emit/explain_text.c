/* SPDX-License-Identifier: MIT */
/*
 * `qosgen explain`'s text: the rows qg_explain_json() made, printed as they
 * are, but a group of alike hosts' rows once (issue 25).
 */
#include "explain_text.h"

#include "../lib/strmap.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_of(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/*
 * An object's members as "key=value", space-separated, those without a value
 * left out: a headroom row's figures (issue 34).
 */
static void object_text(const cJSON *v, char *buf, size_t len)
{
	size_t o = 0;
	const cJSON *c;
	buf[0] = '\0';
	cJSON_ArrayForEach(c, v)
	{
		if (o >= len)
			break;
		if (cJSON_IsNumber(c))
			o += (size_t)snprintf(buf + o, len - o, "%s%s=%.0f", o ? " " : "",
					      c->string, c->valuedouble);
		else if (cJSON_IsString(c))
			o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", o ? " " : "", c->string,
					      c->valuestring);
		else if (cJSON_IsBool(c))
			o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", o ? " " : "", c->string,
					      cJSON_IsTrue(c) ? "true" : "false");
	}
}

static void value_text(const cJSON *r, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "value");
	if (cJSON_IsString(v) || cJSON_IsRaw(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.0f", v->valuedouble);
	else if (cJSON_IsObject(v))
		object_text(v, buf, len);
	else
		snprintf(buf, len, "-");
}

static void print_row(struct qg_buf *out, const char *key, const char *value, const char *source,
		      const char *reason)
{
	if (reason && *reason)
		qg_buf_printf(out, "%-44s %-20s %-8s %s\n", key, value, source, reason);
	else
		qg_buf_printf(out, "%-44s %-20s %s\n", key, value, source);
}

static void print_header(struct qg_buf *out)
{
	qg_buf_printf(out, "%-44s %-20s %-8s %s\n", "KEY", "VALUE", "SOURCE", "REASON");
}

/* A host's key with its name as "*": "hosts.gpu1.port" -> "hosts.*.port". */
static void starred(const char *key, const char *name, char *buf, size_t len)
{
	const char *dot = strchr(key, '.');
	size_t ln = strlen(name);
	if (dot && !strncmp(dot + 1, name, ln) && dot[1 + ln] == '.')
		snprintf(buf, len, "%.*s.*%s", (int)(dot - key), key, dot + 1 + ln);
	else
		snprintf(buf, len, "%s", key);
}

/* One grouped host: its name and its rows, in the order explain made them. */
struct host_rows {
	const char *name;
	const cJSON **v;
	size_t n, cap;
};

/* Host h's row whose starred key is sk; at index j when the hosts' rows line up, as they do. */
static const cJSON *host_row(const struct host_rows *h, size_t j, const char *sk)
{
	char k[192];
	for (size_t i = 0; i <= h->n; i++) {
		size_t at = i == 0 ? j : i - 1;
		if (at >= h->n || (i > 0 && at == j))
			continue;
		starred(str_of(h->v[at], "key"), h->name, k, sizeof(k));
		if (!strcmp(k, sk))
			return h->v[at];
	}
	return NULL;
}

static bool row_same(const cJSON *a, const cJSON *b)
{
	char va[640], vb[640];
	if (!a || !b)
		return false;
	value_text(a, va, sizeof(va));
	value_text(b, vb, sizeof(vb));
	return !strcmp(va, vb) && !strcmp(str_of(a, "source"), str_of(b, "source")) &&
	       !strcmp(str_of(a, "reason"), str_of(b, "reason"));
}

static size_t width(size_t w, const char *s)
{
	size_t n = strlen(s);
	return n > w ? n : w;
}

/*
 * One group of alike hosts (issue 25): its rows once, with "*" for the
 * host's name, then its hosts one per line with their addresses. One per
 * line so that `grep NAME` finds a host's line and a host added is a line
 * added, at 64 hosts as at 10,000. A row that differs within the group
 * (user, port, persist: who a host is, not its settings) says "(per host)"
 * and becomes a column of the table.
 */
static void group_text(struct qg_buf *out, const cJSON *g, struct host_rows *h, size_t n)
{
	size_t n0 = n ? h[0].n : 0;
	bool *per = calloc(n0 ? n0 : 1, sizeof(*per));
	char(*sk)[192] = calloc(n0 ? n0 : 1, sizeof(*sk));
	if (!per || !sk) {
		out->failed = true;
		free(per);
		free(sk);
		return;
	}
	qg_buf_printf(out, "\nhosts of group %s (target %s): %zu host%s alike\n", str_of(g, "name"),
		      str_of(g, "target"), n, n == 1 ? "" : "s");
	print_header(out);
	char value[640];
	size_t cols = 0; /* the per-host columns after ADDRESS */
	for (size_t j = 0; j < n0; j++) {
		starred(str_of(h[0].v[j], "key"), h[0].name, sk[j], sizeof(sk[j]));
		/* The address is the table's; the group is this block. */
		if (!strcmp(sk[j], "hosts.*.address") || !strcmp(sk[j], "hosts.*.group"))
			continue;
		bool same = true, same_source = true;
		for (size_t k = 1; k < n; k++) {
			const cJSON *r = host_row(&h[k], j, sk[j]);
			same &= row_same(r, h[0].v[j]);
			same_source &=
			    r && !strcmp(str_of(r, "source"), str_of(h[0].v[j], "source"));
		}
		value_text(h[0].v[j], value, sizeof(value));
		if (!same) {
			per[j] = true;
			cols++;
		}
		char why[240];
		snprintf(why, sizeof(why), "differs within the group: the column %s below",
			 sk[j] + (strncmp(sk[j], "hosts.*.", 8) ? 0 : 8));
		print_row(out, sk[j], same ? value : "(per host)",
			  same_source ? str_of(h[0].v[j], "source") : "mixed",
			  same ? str_of(h[0].v[j], "reason") : why);
	}
	/* The table: HOST, ADDRESS and the per-host rows, each column as wide as its widest. */
	size_t wn = 4, wa = 7, *wc = calloc(n0 ? n0 : 1, sizeof(*wc));
	if (!wc) {
		out->failed = true;
		free(per);
		free(sk);
		return;
	}
	for (size_t j = 0; j < n0; j++)
		if (per[j])
			wc[j] = width(0, sk[j] + (strncmp(sk[j], "hosts.*.", 8) ? 0 : 8));
	for (size_t k = 0; k < n; k++) {
		wn = width(wn, h[k].name);
		const cJSON *a = host_row(&h[k], 0, "hosts.*.address");
		wa = width(wa, a ? str_of(a, "value") : "-");
		for (size_t j = 0; j < n0; j++) {
			const cJSON *r = per[j] ? host_row(&h[k], j, sk[j]) : NULL;
			if (r) {
				value_text(r, value, sizeof(value));
				wc[j] = width(wc[j], value);
			}
		}
	}
	/* Padded but the last column: no line ends in spaces. */
	size_t left = cols;
	qg_buf_printf(out, "%-*s %-*s", (int)wn, "HOST", left ? (int)wa : 0, "ADDRESS");
	for (size_t j = 0; j < n0; j++)
		if (per[j])
			qg_buf_printf(out, " %-*s", --left ? (int)wc[j] : 0,
				      sk[j] + (strncmp(sk[j], "hosts.*.", 8) ? 0 : 8));
	qg_buf_printf(out, "\n");
	for (size_t k = 0; k < n; k++) {
		const cJSON *a = host_row(&h[k], 0, "hosts.*.address");
		left = cols;
		qg_buf_printf(out, "%-*s %-*s", (int)wn, h[k].name, left ? (int)wa : 0,
			      a ? str_of(a, "value") : "-");
		for (size_t j = 0; j < n0; j++) {
			if (!per[j])
				continue;
			const cJSON *r = host_row(&h[k], j, sk[j]);
			if (r)
				value_text(r, value, sizeof(value));
			qg_buf_printf(out, " %-*s", --left ? (int)wc[j] : 0, r ? value : "-");
		}
		qg_buf_printf(out, "\n");
	}
	free(wc);
	free(per);
	free(sk);
}

void qg_explain_text(const cJSON *explain, struct qg_buf *out)
{
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(explain, "rows");
	const cJSON *groups = cJSON_GetObjectItemCaseSensitive(explain, "groups");
	qg_buf_printf(out, "fabric %s, intent sha256:%s\n\n", str_of(explain, "fabric"),
		      str_of(explain, "intent_sha256"));
	/* The grouped hosts, by name: their rows wait for their group's block. */
	size_t nh = 0;
	const cJSON *g, *r;
	cJSON_ArrayForEach(g, groups) nh +=
	    (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g, "hosts"));
	struct host_rows *h = calloc(nh ? nh : 1, sizeof(*h));
	struct qg_strmap by = {0}; /* host name -> index + 1 into h */
	if (!h) {
		out->failed = true;
		return;
	}
	size_t k = 0;
	cJSON_ArrayForEach(g, groups)
	{
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(g, "hosts"))
		{
			h[k].name = r->valuestring;
			if (qg_strmap_put(&by, h[k].name, (void *)(k + 1), NULL) < 0)
				out->failed = true;
			k++;
		}
	}
	print_header(out);
	char value[640];
	cJSON_ArrayForEach(r, rows)
	{
		const char *dev = str_of(r, "device");
		size_t at = dev ? (size_t)qg_strmap_get(&by, dev) : 0;
		if (at) {
			struct host_rows *x = &h[at - 1];
			if (x->n == x->cap) {
				size_t cap = x->cap ? 2 * x->cap : 16;
				const cJSON **v = realloc(x->v, cap * sizeof(*v));
				if (!v) {
					out->failed = true;
					continue;
				}
				x->v = v;
				x->cap = cap;
			}
			x->v[x->n++] = r;
			continue;
		}
		value_text(r, value, sizeof(value));
		print_row(out, str_of(r, "key"), value, str_of(r, "source"), str_of(r, "reason"));
	}
	k = 0;
	cJSON_ArrayForEach(g, groups)
	{
		size_t n = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g, "hosts"));
		group_text(out, g, &h[k], n);
		k += n;
	}
	for (k = 0; k < nh; k++)
		free(h[k].v);
	free(h);
	qg_strmap_free(&by);
}
