/* SPDX-License-Identifier: MIT */
/*
 * The unified diff of two texts in memory, in the format of `diff -u`: what
 * `build --check` prints. It runs on committed text a pull request controls,
 * so it reads no path and starts no program (a symlink or a file name could
 * not lead it anywhere), and it is bounded (MAX_EDITS) so no file can make it
 * use unbounded memory. Myers' O(ND) algorithm (E. W. Myers, "An O(ND)
 * Difference Algorithm and Its Variations", 1986), checked against GNU diff
 * and patch in tests/unit/test_outdir.c.
 */
#include "udiff.h"
#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Lines of context around a change, as diff -u. */
#define CONTEXT 3
/*
 * Myers' algorithm keeps (D+1)^2 positions for D differing lines; past this
 * many the rest of the middle is shown as removed then added (still a
 * correct diff, not a minimal one), so a hostile file cannot exhaust memory.
 */
#define MAX_EDITS 2000

struct line {
	const char *p;
	size_t len; /* with its '\n', if it has one: "a" and "a\n" differ, as in diff */
	uint64_t hash;
};

static struct line *split_lines(const char *s, size_t len, size_t *n)
{
	size_t count = 0;
	for (size_t i = 0; i < len; i++)
		count += s[i] == '\n';
	count += len && s[len - 1] != '\n';
	struct line *v = malloc((count + 1) * sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (s + i)) + 1 : len - i;
		uint64_t h = 1469598103934665603ull; /* FNV-1a */
		for (size_t k = 0; k < l; k++)
			h = (h ^ (unsigned char)s[i + k]) * 1099511628211ull;
		v[(*n)++] = (struct line){.p = s + i, .len = l, .hash = h};
		i += l;
	}
	return v;
}

static bool line_eq(const struct line *a, const struct line *b)
{
	return a->hash == b->hash && a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/*
 * The edit script of a[0..n) into b[0..m) ('=' keep, '-' remove, '+' add)
 * into ops, which has room for n + m; returns its length. Myers 1986, the
 * greedy forward search with every step's furthest reach kept for the walk
 * back. Returns 0 with *oom on an allocation failure.
 */
static size_t myers(const struct line *a, size_t n, const struct line *b, size_t m, char *ops,
		    bool *oom)
{
	size_t max = n + m < MAX_EDITS ? n + m : MAX_EDITS;
	long off = (long)max + 1;
	long *v = calloc(2 * (size_t)off + 1, sizeof(*v));
	long *trace = calloc((max + 1) * (max + 1), sizeof(*trace));
	size_t len = 0;
	long d_end = -1;
	if (!v || !trace) {
		*oom = true;
		goto out;
	}
	for (long d = 0; d <= (long)max && d_end < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x = k == -d || (k != d && v[off + k - 1] < v[off + k + 1])
				     ? v[off + k + 1]
				     : v[off + k - 1] + 1;
			long y = x - k;
			while (x < (long)n && y < (long)m && line_eq(&a[x], &b[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= (long)n && y >= (long)m)
				d_end = d;
		}
		memcpy(&trace[d * d], &v[off - d], (size_t)(2 * d + 1) * sizeof(*v));
	}
	if (d_end < 0) {
		/* Too different: everything removed, then everything added. */
		memset(ops, '-', n);
		memset(ops + n, '+', m);
		len = n + m;
		goto out;
	}
	/* Walk back from (n, m), writing the script from its end. */
	long x = (long)n, y = (long)m;
	size_t w = n + m;
	for (long d = d_end; d > 0; d--) {
		const long *prev = &trace[(d - 1) * (d - 1)] + (d - 1); /* prev[k], |k| < d */
		long k = x - y;
		bool down = k == -d || (k != d && prev[k - 1] < prev[k + 1]);
		long pk = down ? k + 1 : k - 1;
		long px = prev[pk], py = px - pk;
		while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) {
			ops[--w] = '=';
			x--, y--;
		}
		ops[--w] = down ? '+' : '-';
		x = px;
		y = py;
	}
	while (x > 0 && y > 0) {
		ops[--w] = '=';
		x--, y--;
	}
	len = n + m - w;
	memmove(ops, ops + w, len);
out:
	free(v);
	free(trace);
	return len;
}

/* One line of a hunk: its mark, its text escaped (tabs kept), and diff's EOF note. */
static void hunk_line(struct qg_buf *out, char mark, const struct line *l)
{
	bool nl = l->len && l->p[l->len - 1] == '\n';
	size_t len = l->len - nl;
	qg_buf_append(out, &mark, 1);
	for (size_t i = 0; i < len;) {
		const char *tab = memchr(l->p + i, '\t', len - i);
		size_t seg = tab ? (size_t)(tab - (l->p + i)) : len - i;
		qg_escape_append(out, l->p + i, seg);
		i += seg;
		if (tab) {
			qg_buf_puts(out, "\t");
			i++;
		}
	}
	qg_buf_puts(out, nl ? "\n" : "\n\\ No newline at end of file\n");
}

/* diff's hunk range: "L" for one line, "L,N" otherwise, the line before for none. */
static void hunk_range(struct qg_buf *out, char sign, size_t start, size_t count)
{
	if (count == 1)
		qg_buf_printf(out, "%c%zu", sign, start + 1);
	else
		qg_buf_printf(out, "%c%zu,%zu", sign, count ? start + 1 : start, count);
}

static void emit_hunks(struct qg_buf *out, const char *ops, size_t n_ops, const struct line *a,
		       const struct line *b)
{
	size_t i = 0, ai = 0, bi = 0; /* the op, and the lines of a and b it is at */
	while (i < n_ops) {
		size_t j = i, aj = ai, bj = bi;
		while (j < n_ops && ops[j] == '=')
			j++, aj++, bj++;
		if (j == n_ops)
			break;
		size_t back = j - i < CONTEXT ? j - i : CONTEXT;
		size_t hs = j - back, has = aj - back, hbs = bj - back;
		/* Changes at most 2 * CONTEXT equal lines apart share a hunk, as in diff. */
		size_t e = j;
		for (;;) {
			while (e < n_ops && ops[e] != '=')
				e++;
			size_t k = e;
			while (k < n_ops && ops[k] == '=')
				k++;
			if (k < n_ops && k - e <= 2 * CONTEXT) {
				e = k;
				continue;
			}
			e += k - e < CONTEXT ? k - e : CONTEXT;
			break;
		}
		size_t na = 0, nb = 0;
		for (size_t x = hs; x < e; x++) {
			na += ops[x] != '+';
			nb += ops[x] != '-';
		}
		qg_buf_puts(out, "@@ ");
		hunk_range(out, '-', has, na);
		qg_buf_puts(out, " ");
		hunk_range(out, '+', hbs, nb);
		qg_buf_puts(out, " @@\n");
		/* In each run of changes, the removed lines first, then the added ones. */
		size_t pa = has, pb = hbs;
		for (size_t x = hs; x < e;) {
			if (ops[x] == '=') {
				hunk_line(out, ' ', &a[pa]);
				pa++, pb++, x++;
				continue;
			}
			size_t r = x;
			while (r < e && ops[r] != '=')
				r++;
			for (size_t y = x; y < r; y++)
				if (ops[y] == '-')
					hunk_line(out, '-', &a[pa++]);
			for (size_t y = x; y < r; y++)
				if (ops[y] == '+')
					hunk_line(out, '+', &b[pb++]);
			x = r;
		}
		i = e;
		ai = has + na;
		bi = hbs + nb;
	}
}

void qg_udiff(struct qg_buf *out, const struct qg_udiff_side *sa, const struct qg_udiff_side *sb)
{
	const char *label_a = sa->label, *a = sa->text, *label_b = sb->label, *b = sb->text;
	size_t alen = sa->len, blen = sb->len;
	if (alen == blen && !memcmp(a, b, alen))
		return;
	size_t n = 0, m = 0;
	struct line *la = split_lines(a, alen, &n), *lb = split_lines(b, blen, &m);
	char *ops = malloc(n + m + 1);
	if (!la || !lb || !ops) {
		out->failed = true;
		goto out;
	}
	/* The common head and tail need no search; most changes are a few lines. */
	size_t pre = 0, suf = 0;
	while (pre < n && pre < m && line_eq(&la[pre], &lb[pre]))
		pre++;
	while (suf < n - pre && suf < m - pre && line_eq(&la[n - 1 - suf], &lb[m - 1 - suf]))
		suf++;
	memset(ops, '=', pre);
	bool oom = false;
	size_t mid = myers(la + pre, n - pre - suf, lb + pre, m - pre - suf, ops + pre, &oom);
	if (oom) {
		out->failed = true;
		goto out;
	}
	memset(ops + pre + mid, '=', suf);
	qg_buf_printf(out, "--- %s\n+++ %s\n", label_a, label_b);
	emit_hunks(out, ops, pre + mid + suf, la, lb);
out:
	free(la);
	free(lb);
	free(ops);
}
