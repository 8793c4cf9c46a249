/* SPDX-License-Identifier: MIT */
#include "outdir.h"
#include "bounds.h"
#include "errmsg.h"
#include "escape.h"
#include "udiff.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The most of an output tree read back (--check: the files the intent
 * gives, together; the plan.json of a directory -o replaces): a build's
 * whole output is at most QG_OUTPUT_MAX (gen/bounds.h, enforced by
 * gen/build.c), so every tree qosgen wrote reads back whole, and anything
 * larger is not one of its trees. A fixed 64 MiB here once refused the
 * plan.json of a 140,000-host fabric qosgen itself had written.
 */
#define MAX_READ ((size_t)QG_OUTPUT_MAX)
/* Deeper than any output qosgen writes (target/file); a deeper tree is not one. */
#define MAX_DEPTH 16

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

/*
 * A path for a message, escaped: names in an output directory come from
 * whoever wrote it (a pull request), and a name holding an escape sequence
 * must not drive the terminal or the CI log that shows the error.
 */
static char *shown(const char *dir, const char *rel)
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
static int err_at(char *err, size_t errlen, const char *dir, const char *rel, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int err_at(char *err, size_t errlen, const char *dir, const char *rel, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	char *s = shown(dir, rel);
	qg_errf(err, errlen, "'%s' %s", s ? s : "?", what);
	free(s);
	return -1;
}

static const char link_refused[] =
    "is a symbolic link: an output directory is read without following links (one could "
    "print any file it points to); commit the file or directory itself";
static const char not_regular[] = "is not a regular file or directory";

/* The entries of an open directory, sorted, without . and ..; NULL-terminated, or NULL. */
static char **list_dir(int dfd, size_t *n)
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

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_list(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * Read regular file `name` of directory dfd, never through a link, never
 * blocking on a FIFO, at most max bytes (the rest of MAX_READ). Returns the
 * bytes (NUL-terminated), or NULL with err and *why: ELOOP (a link), EINVAL
 * (not a regular file), EFBIG (past max), or the call's errno.
 */
static char *read_at(int dfd, const char *dir, const char *rel, const char *name, size_t max,
		     size_t *len, mode_t *mode, int *why, char *err, size_t errlen)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = *why = errno;
		if (e == ELOOP)
			err_at(err, errlen, dir, rel, "%s", link_refused);
		else
			err_at(err, errlen, dir, rel, "cannot be opened: %s", strerror(e));
		return NULL;
	}
	struct stat st;
	char *buf = NULL;
	*why = 0;
	if (fstat(fd, &st) != 0) {
		*why = errno;
		err_at(err, errlen, dir, rel, "cannot be read: %s", strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		*why = EINVAL;
		err_at(err, errlen, dir, rel, "%s", not_regular);
	} else if ((uint64_t)st.st_size > max) {
		*why = EFBIG;
		err_at(err, errlen, dir, rel,
		       "is %jd bytes%s: more than any output of qosgen, which writes at most "
		       "%zu MiB in all (docs/intent.md, \"Bounds\")",
		       (intmax_t)st.st_size, max < MAX_READ ? " with the files read before it" : "",
		       MAX_READ >> 20);
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
				err_at(err, errlen, dir, rel, "cannot be read: %s",
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

/* ---- qg_outdir_write ---- */

/*
 * A build stopped by a signal (issue 24, item 9) once left its temporary
 * tree beside -o forever (131 MB for a large fabric). While one exists,
 * SIGINT, SIGTERM and SIGHUP only set `stop` (sig_atomic_t, the one thing a
 * handler may safely do here: removing a tree takes nftw and malloc, which
 * are not async-signal-safe), and qg_outdir_write checks it between files
 * and steps, removes the tree and returns; the caller then re-raises the
 * signal (qg_outdir_stopped). With no tree the handler re-raises at once,
 * with the default action restored: signal() and raise() are safe there.
 * A SIGKILL or a crash still leaves one: the next build removes it
 * (remove_stale), knowing it by its name and its marker file.
 */
static volatile sig_atomic_t stop, busy;

static void on_signal(int sig)
{
	if (!busy) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop = sig;
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

void qg_outdir_catch_signals(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction was;
		/* A signal ignored by whoever started us (nohup) stays ignored. */
		if (sigaction(caught[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
}

int qg_outdir_stopped(void)
{
	return stop;
}

/*
 * The marker file of a temporary tree, written first into it and removed
 * just before the swap: the tree's name pattern alone could be someone
 * else's (a user's `.out.qosgen-backup`), the marker with its text is not.
 */
#define MARKER ".qosgen-partial"
#define MARKER_TEXT "qosgen: a temporary output tree, being written by pid "

/* Is pid gone? A pid that exists (even another user's: EPERM) may be the build writing it. */
static bool pid_gone(const char *digits)
{
	if (!*digits || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 9)
		return false;
	long pid = strtol(digits, NULL, 10);
	return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Is entry `name` of parent (fd pfd) a stale temporary tree of ours for base? */
static bool stale_tree(int pfd, const char *name, const char *base)
{
	/* ".BASE.qosgen-XXXXXX", XXXXXX as mkdtemp makes them. */
	size_t bl = strlen(base), nl = strlen(name);
	if (nl != 1 + bl + strlen(".qosgen-") + 6 || name[0] != '.' ||
	    strncmp(name + 1, base, bl) || strncmp(name + 1 + bl, ".qosgen-", 8))
		return false;
	const char *x = name + 1 + bl + 8;
	for (int i = 0; i < 6; i++)
		if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z') ||
		      (x[i] >= '0' && x[i] <= '9')))
			return false;
	struct stat st;
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return false;
	int dfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return false;
	size_t len = 0;
	mode_t mode;
	int why;
	char ignored[256];
	char *text = read_at(dfd, name, MARKER, MARKER, 128, &len, &mode, &why, ignored,
			     sizeof(ignored));
	close(dfd);
	size_t ml = strlen(MARKER_TEXT);
	bool ours = text && len > ml + 1 && !strncmp(text, MARKER_TEXT, ml) &&
		    text[len - 1] == '\n' && strlen(text) == len;
	if (ours) {
		text[len - 1] = '\0';
		ours = pid_gone(text + ml);
	}
	free(text);
	return ours;
}

/* Remove the temporary trees an earlier build for base left in parent (killed, crashed). */
static void remove_stale(const char *parent, const char *base)
{
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return;
	size_t n = 0;
	char **names = list_dir(pfd, &n);
	for (size_t i = 0; names && i < n; i++) {
		if (!stale_tree(pfd, names[i], base))
			continue;
		char path[4096];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", parent, names[i]) < sizeof(path))
			remove_tree(path);
	}
	free_list(names);
	close(pfd);
}

/* Add the first path component of every file in a plan's files array; false if malformed. */
static bool plan_files_firsts(const cJSON *files, char ***firsts, size_t *n_firsts, size_t *cap)
{
	const cJSON *f;
	if (!cJSON_IsArray(files))
		return false;
	cJSON_ArrayForEach(f, files)
	{
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(f, "path");
		if (!cJSON_IsString(p) || !p->valuestring[0] || p->valuestring[0] == '/')
			return false;
		if (*n_firsts == *cap) {
			char **v = realloc(*firsts, (*cap = *cap ? *cap * 2 : 16) * sizeof(*v));
			if (!v)
				return false;
			*firsts = v;
		}
		char *s = strndup(p->valuestring, strcspn(p->valuestring, "/"));
		if (!s)
			return false;
		(*firsts)[(*n_firsts)++] = s;
	}
	return true;
}

/*
 * Is plan.json (text) one qosgen wrote? Checked by its shape, as build.c
 * writes it, not by its name: Terraform and others write a plan.json too.
 * On yes, *firsts gets the first component of every file it lists: each
 * device's, each group's ("groups", absent before issue 15) and the rest
 * ("files", absent before the Ansible hand-off).
 */
static bool plan_is_ours(const char *text, size_t len, char ***firsts, size_t *n_firsts)
{
	cJSON *j = cJSON_ParseWithLength(text, len);
	const cJSON *gen = cJSON_GetObjectItemCaseSensitive(j, "generator");
	const cJSON *sha = cJSON_GetObjectItemCaseSensitive(j, "intent_sha256");
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(j, "devices");
	const cJSON *fabric_files = cJSON_GetObjectItemCaseSensitive(j, "files");
	bool ok = cJSON_IsObject(j) && cJSON_IsString(gen) &&
		  !strncmp(gen->valuestring, "qosgen ", 7) && cJSON_IsString(sha) &&
		  strlen(sha->valuestring) == 64 &&
		  strspn(sha->valuestring, "0123456789abcdef") == 64 && cJSON_IsArray(devs);
	size_t cap = 0;
	*firsts = NULL;
	*n_firsts = 0;
	const cJSON *dev;
	cJSON_ArrayForEach(dev, devs)
	{
		if (!ok)
			break;
		ok = plan_files_firsts(cJSON_GetObjectItemCaseSensitive(dev, "files"), firsts,
				       n_firsts, &cap);
	}
	const cJSON *group;
	cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(j, "groups"))
	{
		if (!ok)
			break;
		ok = plan_files_firsts(cJSON_GetObjectItemCaseSensitive(group, "files"), firsts,
				       n_firsts, &cap);
	}
	if (ok && fabric_files)
		ok = plan_files_firsts(fabric_files, firsts, n_firsts, &cap);
	cJSON_Delete(j);
	if (!ok) {
		for (size_t i = 0; i < *n_firsts; i++)
			free((*firsts)[i]);
		free(*firsts);
		*firsts = NULL;
		*n_firsts = 0;
	}
	return ok;
}

/* "a, b/, c" of the entries of dfd (a / after a directory), at most 8 and a count. */
static void name_entries(int dfd, char **names, size_t n, bool (*pick)(const char *, void *),
			 void *arg, struct qg_buf *b)
{
	size_t shown_n = 0, more = 0;
	for (size_t i = 0; i < n; i++) {
		if (pick && !pick(names[i], arg))
			continue;
		if (shown_n == 8) {
			more++;
			continue;
		}
		struct stat st;
		bool isdir =
		    fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
		qg_buf_puts(b, shown_n++ ? ", " : "");
		qg_escape_append(b, names[i], strlen(names[i]));
		qg_buf_puts(b, isdir ? "/" : "");
	}
	if (more)
		qg_buf_printf(b, " and %zu more", more);
}

struct firsts {
	char **v;
	size_t n;
};

/* Not plan.json and no folder the plan lists files in: qosgen did not write it. */
static bool foreign(const char *name, void *arg)
{
	const struct firsts *f = arg;
	if (!strcmp(name, "plan.json"))
		return false;
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i], name))
			return false;
	return true;
}

/* Is dir safe to replace: empty, or an earlier qosgen output? */
static int replaceable(const char *dir, char *err, size_t errlen)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return qg_errf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
	size_t n = 0;
	char **names = list_dir(dfd, &n);
	if (!names) {
		close(dfd);
		return qg_errf(err, errlen, "cannot list '%s': %s", dir, strerror(errno));
	}
	if (n == 0) {
		free_list(names);
		close(dfd);
		return 0;
	}
	qsort(names, n, sizeof(*names), str_cmp);

	struct firsts f = {0};
	const char *why = NULL;
	char big[160];
	bool has_plan = false;
	for (size_t i = 0; i < n; i++)
		has_plan |= !strcmp(names[i], "plan.json");
	if (!has_plan) {
		why = "it holds no plan.json";
	} else {
		size_t len = 0;
		mode_t mode;
		int e = 0;
		char ignored[256];
		char *plan = read_at(dfd, dir, "plan.json", "plan.json", MAX_READ, &len, &mode, &e,
				     ignored, sizeof(ignored));
		/* The real reason: a plan.json of qosgen's own is never too large to read. */
		if (!plan && e == EFBIG) {
			snprintf(big, sizeof(big),
				 "its plan.json is larger than any qosgen output (at most %zu MiB "
				 "in all, docs/intent.md, \"Bounds\")",
				 MAX_READ >> 20);
			why = big;
		}
		else if (!plan && (e == EINVAL || e == ELOOP))
			why = "its plan.json is not a regular file";
		else if (!plan)
			why = "its plan.json cannot be read";
		else if (!plan_is_ours(plan, len, &f.v, &f.n))
			why = "its plan.json is not one qosgen wrote (no \"generator\": \"qosgen "
			      "...\" "
			      "with the intent's sha256 and the devices' files)";
		free(plan);
	}
	struct qg_buf found = {0};
	if (!why) {
		name_entries(dfd, names, n, foreign, &f, &found);
		if (found.len) {
			qg_buf_append(&found, "", 0);
			char *s = shown(dir, NULL);
			qg_errf(
			    err, errlen,
			    "refusing to replace '%s': it holds %s, which its plan.json does not "
			    "list, so it is not a qosgen output directory; qosgen replaces the "
			    "whole directory: move them out, or give -o an empty or new one",
			    s ? s : "?", found.failed ? "entries" : found.data);
			free(s);
		}
	} else {
		name_entries(dfd, names, n, NULL, NULL, &found);
		qg_buf_append(&found, "", 0);
		char *s = shown(dir, NULL);
		qg_errf(err, errlen,
			"refusing to replace '%s': %s, so it is not a qosgen output directory "
			"(found: %s); qosgen replaces the whole directory: give -o an empty or "
			"new one",
			s ? s : "?", why, found.failed ? "?" : found.data);
		free(s);
	}
	int rc = why || found.len ? -1 : 0;
	qg_buf_free(&found);
	for (size_t i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	free_list(names);
	close(dfd);
	return rc;
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
	remove_stale(parent, basecopy);
	busy = 1;
	if (!mkdtemp(tmp)) {
		busy = 0;
		return qg_errf(err, errlen, "cannot create a directory beside '%s': %s", dir,
			       strerror(errno));
	}
	/* Marked first, so that no moment leaves an unmarked tree a kill could strand. */
	char marker[4096];
	snprintf(marker, sizeof(marker), "%s/%s", tmp, MARKER);
	int mfd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	char mtext[96];
	int ml = snprintf(mtext, sizeof(mtext), "%s%ld\n", MARKER_TEXT, (long)getpid());
	if (mfd < 0 || write_all(mfd, mtext, (size_t)ml) != 0 || close(mfd) != 0) {
		qg_errf(err, errlen, "cannot write '%s': %s", marker, strerror(errno));
		goto undo;
	}
	/* mkdtemp makes 0700; an output tree is for reading, as the umask allows. */
	mode_t um = umask(0);
	umask(um);
	chmod(tmp, 0755 & ~um);

	for (size_t i = 0; i < o->n; i++) {
		const struct qg_outfile *f = &o->v[i];
		char path[4096];
		if (stop)
			goto stopped;
		snprintf(path, sizeof(path), "%s/%s", tmp, f->path);
		if (make_parents(tmp, f->path) != 0) {
			qg_errf(err, errlen, "cannot create the directory for '%s': %s", f->path,
				strerror(errno));
			goto undo;
		}
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, f->mode);
		if (fd < 0 || write_all(fd, f->data, f->len) != 0) {
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
	if (stop)
		goto stopped;
	/* The marker goes: the tree is about to be the output. */
	if (unlink(marker) != 0) {
		qg_errf(err, errlen, "cannot remove '%s': %s", marker, strerror(errno));
		goto undo;
	}
	/*
	 * Durable before it is swapped in, with one sync for the whole tree:
	 * syncfs flushes the new files and directories of tmp's filesystem and,
	 * since Linux 5.8, reports a failed writeback; an fsync per file cost
	 * 10,000 syncs for a fabric of 10,000 hosts.
	 */
	int tfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0 || syncfs(tfd) != 0) {
		qg_errf(err, errlen, "cannot make '%s' durable: %s", dir, strerror(errno));
		if (tfd >= 0)
			close(tfd);
		goto undo;
	}
	close(tfd);
	if (stop)
		goto stopped;

	if (exists) {
		/* Atomic swap; the old tree ends up at tmp and is removed. */
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) != 0) {
			qg_errf(err, errlen, "cannot replace '%s': %s", dir, strerror(errno));
			goto undo;
		}
		/* The old tree, at tmp now, marked too: a kill while it is removed strands none. */
		int ofd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (ofd >= 0) {
			write_all(ofd, mtext, (size_t)ml);
			close(ofd);
		}
	} else if (rename(tmp, dir) != 0) {
		qg_errf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
		goto undo;
	}
	sync_path(parent);
	/* The old tree, now at tmp: removed whatever signal comes meanwhile. */
	remove_tree(tmp);
	busy = 0;
	return 0;
stopped:
	qg_errf(err, errlen, "stopped by signal %d; '%s' is as it was", (int)stop, dir);
undo:
	remove_tree(tmp);
	busy = 0;
	return -1;
}

/* ---- --check: the committed tree, read without following links ---- */

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
			err_at(err, errlen, upto ? upto : path, NULL, "%s", link_refused);
		else if (e == ENOENT)
			rc = -ENOENT;
		else if (e == ENOTDIR)
			err_at(err, errlen, upto ? upto : path, NULL, "is not a directory");
		else
			err_at(err, errlen, upto ? upto : path, NULL, "cannot be opened: %s",
			       strerror(e));
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
	size_t left; /* of MAX_READ, for the files still to read */
	char *err;
	size_t errlen;
};

static int walk_dir(struct tree *t, int dfd, const char *prefix, int depth)
{
	if (depth > MAX_DEPTH)
		return err_at(t->err, t->errlen, t->dir, prefix,
			      "is nested deeper than any qosgen output");
	size_t n = 0;
	char **names = list_dir(dfd, &n);
	if (!names)
		return err_at(t->err, t->errlen, t->dir, prefix, "cannot be listed: %s",
			      strerror(errno));
	qsort(names, n, sizeof(*names), str_cmp);
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
			rc = err_at(t->err, t->errlen, t->dir, rel, "cannot be read: %s",
				    strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			rc = err_at(t->err, t->errlen, t->dir, rel, "%s", link_refused);
		} else if (S_ISDIR(st.st_mode)) {
			int sub =
			    openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				rc =
				    err_at(t->err, t->errlen, t->dir, rel, "%s",
					   errno == ELOOP || errno == ENOTDIR ? link_refused
									      : "cannot be opened");
			else
				rc = walk_dir(t, sub, rel, depth + 1);
			if (sub >= 0)
				close(sub);
		} else if (!S_ISREG(st.st_mode)) {
			rc = err_at(t->err, t->errlen, t->dir, rel, "%s", not_regular);
		} else {
			const struct qg_outfile *f = qg_outset_find(t->o, rel);
			if (f) {
				struct have *h = &t->have[f - t->o->v];
				int why;
				h->data = read_at(dfd, t->dir, rel, names[i], t->left, &h->len,
						  &h->mode, &why, t->err, t->errlen);
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
	free_list(names);
	return rc;
}

int qg_outdir_check(const char *dir, const struct qg_outset *o, FILE *out, char *err, size_t errlen)
{
	struct tree t = {.o = o, .dir = dir, .err = err, .errlen = errlen, .left = MAX_READ};
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
			qg_udiff(&b, la, h->data ? h->data : "", h->data ? h->len : 0, lb, f->data,
				 f->len);
		free(la);
		free(lb);
	}
	if (rc == 0 && t.n_extra) {
		qsort(t.extra, t.n_extra, sizeof(*t.extra), str_cmp);
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
