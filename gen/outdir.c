/* SPDX-License-Identifier: MIT */
#include "outdir.h"
#include "errmsg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf, not following symlinks; our own temporary trees only. */
static void remove_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Create the parent directories of rel below root. */
static int make_parents(const char *root, const char *rel)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >= sizeof(path))
		return -1;
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

static int sync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

/* Is dir safe to replace: empty, or an earlier qosgen output? */
static int replaceable(const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return qg_errf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
	bool empty = true;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	char plan[4096];
	snprintf(plan, sizeof(plan), "%s/plan.json", dir);
	if (!empty && access(plan, F_OK) != 0)
		return qg_errf(err, errlen,
			    "refusing to replace '%s': it is not empty and holds no plan.json, so "
			    "it is not a qosgen output directory",
			    dir);
	return 0;
}

int qg_outdir_write(const char *dir, const struct qg_outset *o, char *err, size_t errlen)
{
	struct stat st;
	bool exists = lstat(dir, &st) == 0;
	if (exists && !S_ISDIR(st.st_mode))
		return qg_errf(err, errlen, "'%s' exists and is not a directory", dir);
	if (exists && replaceable(dir, err, errlen) != 0)
		return -1;

	/* The new tree is built beside dir, so the final rename stays on one filesystem. */
	char copy[4096], tmp[4096];
	if ((size_t)snprintf(copy, sizeof(copy), "%s", dir) >= sizeof(copy))
		return qg_errf(err, errlen, "output path too long");
	char *base = basename(copy);
	char basecopy[256];
	snprintf(basecopy, sizeof(basecopy), "%s", base);
	snprintf(copy, sizeof(copy), "%s", dir);
	char *parent = dirname(copy);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.qosgen-XXXXXX", parent, basecopy) >=
	    sizeof(tmp))
		return qg_errf(err, errlen, "output path too long");
	if (!mkdtemp(tmp))
		return qg_errf(err, errlen, "cannot create a directory beside '%s': %s", dir,
			    strerror(errno));
	/* mkdtemp makes 0700; an output tree is for reading, as the umask allows. */
	mode_t um = umask(0);
	umask(um);
	chmod(tmp, 0755 & ~um);

	for (size_t i = 0; i < o->n; i++) {
		const struct qg_outfile *f = &o->v[i];
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", tmp, f->path);
		if (make_parents(tmp, f->path) != 0) {
			qg_errf(err, errlen, "cannot create the directory for '%s': %s", f->path,
			     strerror(errno));
			goto undo;
		}
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, f->mode);
		if (fd < 0 || write_all(fd, f->data, f->len) != 0 || fsync(fd) != 0) {
			qg_errf(err, errlen, "cannot write '%s': %s", f->path, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto undo;
		}
		if (close(fd) != 0) {
			qg_errf(err, errlen, "cannot write '%s': %s", f->path, strerror(errno));
			goto undo;
		}
	}
	sync_path(tmp);

	if (exists) {
		/* Atomic swap; the old tree ends up at tmp and is removed. */
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) != 0) {
			qg_errf(err, errlen, "cannot replace '%s': %s", dir, strerror(errno));
			goto undo;
		}
	} else if (rename(tmp, dir) != 0) {
		qg_errf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
		goto undo;
	}
	sync_path(parent);
	remove_tree(tmp);
	return 0;
undo:
	remove_tree(tmp);
	return -1;
}

/* ---- --check ---- */

static char *read_file(const char *path, size_t *len, mode_t *mode)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		close(fd);
		return NULL;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (buf && got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (buf)
		buf[got] = '\0';
	*len = got;
	*mode = st.st_mode & 07777;
	return buf;
}

/* Show one difference with diff -u; diffutils is an essential Debian package. */
static int show_diff(FILE *out, const char *old_path, const char *new_path, const char *rel)
{
	char la[4200], lb[4200];
	snprintf(la, sizeof(la), "a/%s", rel);
	snprintf(lb, sizeof(lb), "b/%s", rel);
	char *argv[] = {"diff",		  "-u", "--label", la, "--label", lb, (char *)old_path,
			(char *)new_path, NULL};
	fflush(out);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), STDOUT_FILENO);
	pid_t pid;
	int rc = posix_spawnp(&pid, "diff", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) <= 1 ? 0 : -1;
}

struct extra_walk {
	const struct qg_outset *o;
	size_t root_len;
	FILE *out;
	int found;
};
static struct extra_walk *g_walk; /* nftw has no user pointer */

static int note_extra(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag != FTW_F && flag != FTW_SL)
		return 0;
	const char *rel = path + g_walk->root_len + 1;
	if (!qg_outset_find(g_walk->o, rel)) {
		fprintf(g_walk->out, "only in the output directory: %s\n", rel);
		g_walk->found = 1;
	}
	return 0;
}

int qg_outdir_check(const char *dir, const struct qg_outset *o, FILE *out, char *err, size_t errlen)
{
	int differs = 0;
	char tmp[4096];
	const char *tdir = getenv("TMPDIR");
	snprintf(tmp, sizeof(tmp), "%s/qosgen-check-XXXXXX", tdir && *tdir ? tdir : "/tmp");
	if (!mkdtemp(tmp))
		return qg_errf(err, errlen, "cannot create a temporary directory: %s",
			    strerror(errno));
	int rc = 0;
	for (size_t i = 0; i < o->n && rc == 0; i++) {
		const struct qg_outfile *f = &o->v[i];
		char path[4096], fresh[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, f->path);
		size_t len = 0;
		mode_t mode = 0;
		char *cur = read_file(path, &len, &mode);
		bool same = cur && len == f->len && memcmp(cur, f->data, len) == 0;
		free(cur);
		if (cur && same && (mode & 0111) != (f->mode & 0111)) {
			fprintf(out, "mode of %s: %04o, the intent gives %04o\n", f->path,
				(unsigned)mode, f->mode);
			differs = 1;
		}
		if (same)
			continue;
		differs = 1;
		/* Write what the intent gives to a scratch file for diff to read. */
		snprintf(fresh, sizeof(fresh), "%s/new", tmp);
		int fd = open(fresh, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || write_all(fd, f->data, f->len) != 0) {
			rc =
			    qg_errf(err, errlen, "cannot write a temporary file: %s", strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		close(fd);
		if (show_diff(out, access(path, F_OK) == 0 ? path : "/dev/null", fresh, f->path) !=
		    0)
			rc = qg_errf(err, errlen, "cannot run diff -u (diffutils)");
	}
	if (rc == 0) {
		struct extra_walk w = {.o = o, .root_len = strlen(dir), .out = out};
		g_walk = &w;
		struct stat st;
		if (stat(dir, &st) == 0)
			nftw(dir, note_extra, 16, FTW_PHYS);
		g_walk = NULL;
		differs |= w.found;
	}
	remove_tree(tmp);
	return rc ? -1 : differs;
}
