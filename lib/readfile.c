/* SPDX-License-Identifier: MIT */
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Read fd to its end, at most max bytes, starting with room for hint bytes:
 * one more byte than max is asked for, so a longer input is caught.
 */
static char *read_all(int fd, size_t max, size_t hint, size_t *len, int *err)
{
	size_t cap = (hint < max ? hint : max) + 2, got = 0;
	char *buf = malloc(cap);
	if (!buf) {
		*err = ENOMEM;
		return NULL;
	}
	for (;;) {
		if (got == cap - 1) {
			if (got > max)
				break;
			size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			char *v = realloc(buf, ncap);
			if (!v) {
				free(buf);
				*err = ENOMEM;
				return NULL;
			}
			buf = v;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + got, cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got > max) {
		*err = EFBIG;
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	*err = 0;
	return buf;
}

char *qg_read_fd(int fd, size_t max, size_t *len, int *err)
{
	return read_all(fd, max, 64 * 1024, len, err);
}

char *qg_read_file(const char *path, size_t max, bool streams, size_t *len, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*err = errno;
		close(fd);
		return NULL;
	}
	bool stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode);
	if (!S_ISREG(st.st_mode) && !(streams && stream)) {
		*err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		*err = EFBIG;
		close(fd);
		return NULL;
	}
	/* Room for the size seen plus slack: a file that grew meanwhile still reads. */
	char *buf = read_all(fd, max, S_ISREG(st.st_mode) ? (size_t)st.st_size + 4096 : 64 * 1024,
			     len, err);
	close(fd);
	return buf;
}
