/* SPDX-License-Identifier: MIT */
/*
 * Reading an output tree back (outread.h), for `build --check` and for the
 * directory -o would replace: never through a link, never past a bound, a
 * name from the tree escaped before it reaches a message.
 */
#include "outread.h"

#include "../lib/errmsg.h"
#include "../lib/escape.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A path for a message, escaped: names in an output directory come from
 * whoever wrote it (a pull request), and a name holding an escape sequence
 * must not drive the terminal or the CI log that shows the error.
 */
char *qg_outread_shown(const char *dir, const char *rel)
{
	struct qg_buf b = {0};
	qg_escape_append(&b, dir, strlen(dir));
	if (rel) {
		if (b.len && b.data[b.len - 1] != '/')
			qg_buf_puts(&b, "/");
		qg_escape_append(&b, rel, strlen(rel));
	}
	qg_buf_append(&b, "", 0);
	if (b.failed) {
		qg_buf_free(&b);
		return strdup("?");
	}
	return b.data;
}

/* "'DIR/REL' WHAT", the path escaped; returns -1. */
int qg_outread_err(char *err, size_t errlen, const char *dir, const char *rel, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	char *s = qg_outread_shown(dir, rel);
	qg_errf(err, errlen, "'%s' %s", s ? s : "?", what);
	free(s);
	return -1;
}

const char qg_outread_link_refused[] =
    "is a symbolic link: an output directory is read without following links (one could "
    "print any file it points to); commit the file or directory itself";
const char qg_outread_not_regular[] = "is not a regular file or directory";

/* The entries of an open directory, sorted, without . and ..; NULL-terminated, or NULL. */
char **qg_outread_list(int dfd, size_t *n)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	size_t cap = 16;
	char **v = malloc(cap * sizeof(*v));
	*n = 0;
	struct dirent *e;
	while (v && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n + 1 == cap) {
			char **w = realloc(v, (cap *= 2) * sizeof(*v));
			if (!w) {
				for (size_t i = 0; i < *n; i++)
					free(v[i]);
				free(v);
				v = NULL;
				break;
			}
			v = w;
		}
		if (!(v[*n] = strdup(e->d_name))) {
			for (size_t i = 0; i < *n; i++)
				free(v[i]);
			free(v);
			v = NULL;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (!v)
		return NULL;
	v[*n] = NULL;
	return v;
}

int qg_outread_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void qg_outread_list_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * Read regular file `name` of directory dfd, never through a link, never
 * blocking on a FIFO, at most max bytes (the rest of QG_OUTREAD_MAX). Returns the
 * bytes (NUL-terminated), or NULL with err and *why: ELOOP (a link), EINVAL
 * (not a regular file), EFBIG (past max), or the call's errno.
 */
char *qg_outread_file(const struct qg_outread_req *rq, size_t *len, mode_t *mode, int *why,
		      char *err, size_t errlen)
{
	const char *dir = rq->dir, *rel = rq->rel;
	size_t max = rq->max;
	int fd =
	    openat(rq->dfd, rq->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = *why = errno;
		if (e == ELOOP)
			qg_outread_err(err, errlen, dir, rel, "%s", qg_outread_link_refused);
		else
			qg_outread_err(err, errlen, dir, rel, "cannot be opened: %s", strerror(e));
		return NULL;
	}
	struct stat st;
	char *buf = NULL;
	*why = 0;
	if (fstat(fd, &st) != 0) {
		*why = errno;
		qg_outread_err(err, errlen, dir, rel, "cannot be read: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		*why = EINVAL;
		qg_outread_err(err, errlen, dir, rel, "%s", qg_outread_not_regular);
	} else if ((uint64_t)st.st_size > max) {
		*why = EFBIG;
		qg_outread_err(
		    err, errlen, dir, rel,
		    "is %jd bytes%s: more than any output of qosgen, which writes at most "
		    "%zu MiB in all (docs/intent.md, \"Bounds\")",
		    (intmax_t)st.st_size,
		    max < QG_OUTREAD_MAX ? " with the files read before it" : "",
		    QG_OUTREAD_MAX >> 20);
	} else if (!(buf = malloc((size_t)st.st_size + 1))) {
		qg_errf(err, errlen, "out of memory");
	} else {
		size_t got = 0;
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				*why = errno;
				qg_outread_err(err, errlen, dir, rel, "cannot be read: %s",
					       strerror(errno));
				free(buf);
				buf = NULL;
				break;
			}
			if (r == 0)
				break;
			got += (size_t)r;
		}
		if (buf) {
			buf[got] = '\0';
			*len = got;
			*mode = st.st_mode & 07777;
		}
	}
	close(fd);
	return buf;
}
