/* SPDX-License-Identifier: MIT */
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

char *qg_read_file(const char *path, size_t max, size_t *len, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		return NULL;
	}
	if ((size_t)st.st_size > max) {
		*err = EFBIG;
		close(fd);
		return NULL;
	}
	/*
	 * Room for the size seen plus slack, at most max + 1 bytes: a file that
	 * grew past max meanwhile is caught, one that grew a little still reads.
	 */
	size_t want = (size_t)st.st_size + 4096;
	if (want > max + 1)
		want = max + 1;
	size_t cap = want + 1, got = 0;
	char *buf = malloc(cap);
	if (!buf) {
		*err = ENOMEM;
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r = read(fd, buf + got, cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0 || (got += (size_t)r) == cap - 1)
			break;
	}
	close(fd);
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
