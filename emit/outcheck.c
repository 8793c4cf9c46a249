/* SPDX-License-Identifier: MIT */
/*
 * `build --check` (outcheck.h): the committed tree, read without following
 * links, compared with the file set in memory.
 */
#include "outcheck.h"

#include "../lib/errmsg.h"
#include "../lib/escape.h"
#include "outread.h"
#include "../lib/udiff.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than any output qosgen writes (target/file); a deeper tree is not one. */
#define MAX_DEPTH 16

/*
 * Open directory path one component at a time with O_NOFOLLOW, from / or
 * the working directory: a pull request can turn any directory of the
 * checkout into a link, so no component is resolved by the kernel on our
 * behalf. Returns the fd; -ENOENT when a component does not exist; -1 with
 * err on a link or any other error.
 */
static int open_dir_nofollow(const char *path, char *err, size_t errlen)
{
	char *copy = strdup(path);
	if (!copy)
		return qg_errf(err, errlen, "out of memory");
	int fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		free(copy);
		return qg_errf(err, errlen, "cannot open the directory '%s': %s",
			       path[0] == '/' ? "/" : ".", strerror(errno));
	}
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		int nfd = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd >= 0) {
			close(fd);
			fd = nfd;
			continue;
		}
		int e = errno, rc = -1;
		/* The path as given, up to this component, for the message. */
		char *upto = strndup(path, (size_t)(c - copy) + strlen(c));
		struct stat st;
		if (fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
			qg_outread_err(err, errlen, upto ? upto : path, NULL, "%s",
				       qg_outread_link_refused);
		else if (e == ENOENT)
			rc = -ENOENT;
		else if (e == ENOTDIR)
			qg_outread_err(err, errlen, upto ? upto : path, NULL, "is not a directory");
		else
			qg_outread_err(err, errlen, upto ? upto : path, NULL,
				       "cannot be opened: %s", strerror(e));
		free(upto);
		free(copy);
		close(fd);
		return rc;
	}
	free(copy);
	return fd;
}

/* A committed file the intent names, as read. */
struct have {
	char *data;
	size_t len;
	mode_t mode;
};

struct tree {
	const struct qg_outset *o;
	const char *dir;
	struct have *have; /* per o->v index; data NULL: not in the directory */
	char **extra;	   /* files the intent does not give */
	size_t n_extra, cap_extra;
	size_t left; /* of QG_OUTREAD_MAX, for the files still to read */
	char *err;
	size_t errlen;
};

static int walk_dir(struct tree *t, int dfd, const char *prefix, int depth)
{
	if (depth > MAX_DEPTH)
		return qg_outread_err(t->err, t->errlen, t->dir, prefix,
				      "is nested deeper than any qosgen output");
	size_t n = 0;
	char **names = qg_outread_list(dfd, &n);
	if (!names)
		return qg_outread_err(t->err, t->errlen, t->dir, prefix, "cannot be listed: %s",
				      strerror(errno));
	qsort(names, n, sizeof(*names), qg_outread_name_cmp);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *rel = NULL;
		if (asprintf(&rel, "%s%s%s", prefix ? prefix : "", prefix ? "/" : "", names[i]) <
		    0) {
			rc = qg_errf(t->err, t->errlen, "out of memory");
			break;
		}
		struct stat st;
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = qg_outread_err(t->err, t->errlen, t->dir, rel, "cannot be read: %s",
					    strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			rc = qg_outread_err(t->err, t->errlen, t->dir, rel, "%s",
					    qg_outread_link_refused);
		} else if (S_ISDIR(st.st_mode)) {
			int sub =
			    openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				rc = qg_outread_err(t->err, t->errlen, t->dir, rel, "%s",
						    errno == ELOOP || errno == ENOTDIR
							? qg_outread_link_refused
							: "cannot be opened");
			else
				rc = walk_dir(t, sub, rel, depth + 1);
			if (sub >= 0)
				close(sub);
		} else if (!S_ISREG(st.st_mode)) {
			rc = qg_outread_err(t->err, t->errlen, t->dir, rel, "%s",
					    qg_outread_not_regular);
		} else {
			const struct qg_outfile *f = qg_outset_find(t->o, rel);
			if (f) {
				struct have *h = &t->have[f - t->o->v];
				int why;
				h->data =
				    qg_outread_file(&(struct qg_outread_req){.dfd = dfd,
									     .dir = t->dir,
									     .rel = rel,
									     .name = names[i],
									     .max = t->left},
						    &h->len, &h->mode, &why, t->err, t->errlen);
				rc = h->data ? 0 : -1;
				if (h->data)
					t->left -= h->len;
			} else if (t->n_extra == t->cap_extra) {
				size_t cap = t->cap_extra ? t->cap_extra * 2 : 16;
				char **v = realloc(t->extra, cap * sizeof(*v));
				if (!v) {
					rc = qg_errf(t->err, t->errlen, "out of memory");
				} else {
					t->extra = v;
					t->cap_extra = cap;
				}
			}
			if (!f && rc == 0) {
				t->extra[t->n_extra++] = rel;
				rel = NULL;
			}
		}
		free(rel);
	}
	qg_outread_list_free(names);
	return rc;
}

int qg_outdir_check(const char *dir, const struct qg_outset *o, FILE *out, char *err, size_t errlen)
{
	struct tree t = {.o = o, .dir = dir, .err = err, .errlen = errlen, .left = QG_OUTREAD_MAX};
	t.have = calloc(o->n + 1, sizeof(*t.have));
	if (!t.have)
		return qg_errf(err, errlen, "out of memory");
	int rc = 0;
	int dfd = open_dir_nofollow(dir, err, errlen);
	if (dfd >= 0) {
		rc = walk_dir(&t, dfd, NULL, 0);
		close(dfd);
	} else if (dfd != -ENOENT) {
		rc = -1; /* a missing directory is not an error: every file differs */
	}

	/* Everything is read and judged before anything is printed. */
	struct qg_buf b = {0};
	int differs = 0;
	for (size_t i = 0; i < o->n && rc == 0; i++) {
		const struct qg_outfile *f = &o->v[i];
		const struct have *h = &t.have[i];
		if (h->data && h->len == f->len && memcmp(h->data, f->data, f->len) == 0) {
			if ((h->mode & 0111) != (f->mode & 0111)) {
				qg_buf_printf(&b, "mode of %s: %04o, the intent gives %04o\n",
					      f->path, (unsigned)h->mode, f->mode);
				differs = 1;
			}
			continue;
		}
		differs = 1;
		char *la = NULL, *lb = NULL;
		if (asprintf(&la, "a/%s", f->path) < 0 || asprintf(&lb, "b/%s", f->path) < 0)
			b.failed = true;
		else
			qg_udiff(
			    &b,
			    &(struct qg_udiff_side){.label = la,
						    .text = h->data ? h->data : "",
						    .len = h->data ? h->len : 0},
			    &(struct qg_udiff_side){.label = lb, .text = f->data, .len = f->len});
		free(la);
		free(lb);
	}
	if (rc == 0 && t.n_extra) {
		qsort(t.extra, t.n_extra, sizeof(*t.extra), qg_outread_name_cmp);
		for (size_t i = 0; i < t.n_extra; i++) {
			qg_buf_puts(&b, "only in the output directory: ");
			qg_escape_append(&b, t.extra[i], strlen(t.extra[i]));
			qg_buf_puts(&b, "\n");
		}
		differs = 1;
	}
	if (rc == 0 && b.failed)
		rc = qg_errf(err, errlen, "out of memory");
	if (rc == 0 && b.len && (fwrite(b.data, 1, b.len, out) != b.len || fflush(out) != 0))
		rc = qg_errf(err, errlen, "cannot write the differences: %s", strerror(errno));
	qg_buf_free(&b);
	for (size_t i = 0; i < o->n; i++)
		free(t.have[i].data);
	free(t.have);
	for (size_t i = 0; i < t.n_extra; i++)
		free(t.extra[i]);
	free(t.extra);
	return rc ? -1 : differs;
}
