/* SPDX-License-Identifier: MIT */
/*
 * Putting a built file set on disk, all or nothing (outdir.h). The other
 * way, `build --check`, is outcheck.c; what both read back, outread.c.
 */
#include "outdir.h"

#include "../lib/buf.h"
#include "../lib/errmsg.h"
#include "../lib/escape.h"
#include "outread.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	char *text = qg_outread_file(
	    &(struct qg_outread_req){
		.dfd = dfd, .dir = name, .rel = MARKER, .name = MARKER, .max = 128},
	    &len, &mode, &why, ignored, sizeof(ignored));
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
	char **names = qg_outread_list(pfd, &n);
	for (size_t i = 0; names && i < n; i++) {
		if (!stale_tree(pfd, names[i], base))
			continue;
		char path[4096];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", parent, names[i]) < sizeof(path))
			remove_tree(path);
	}
	qg_outread_list_free(names);
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
	char **names = qg_outread_list(dfd, &n);
	if (!names) {
		close(dfd);
		return qg_errf(err, errlen, "cannot list '%s': %s", dir, strerror(errno));
	}
	if (n == 0) {
		qg_outread_list_free(names);
		close(dfd);
		return 0;
	}
	qsort(names, n, sizeof(*names), qg_outread_name_cmp);

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
		char *plan = qg_outread_file(&(struct qg_outread_req){.dfd = dfd,
								      .dir = dir,
								      .rel = "plan.json",
								      .name = "plan.json",
								      .max = QG_OUTREAD_MAX},
					     &len, &mode, &e, ignored, sizeof(ignored));
		/* The real reason: a plan.json of qosgen's own is never too large to read. */
		if (!plan && e == EFBIG) {
			snprintf(big, sizeof(big),
				 "its plan.json is larger than any qosgen output (at most %zu MiB "
				 "in all, docs/intent.md, \"Bounds\")",
				 QG_OUTREAD_MAX >> 20);
			why = big;
		} else if (!plan && (e == EINVAL || e == ELOOP))
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
			char *s = qg_outread_shown(dir, NULL);
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
		char *s = qg_outread_shown(dir, NULL);
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
	qg_outread_list_free(names);
	close(dfd);
	return rc;
}

/* The temporary tree qg_outdir_write builds beside dir, and its marker. */
struct tmp_tree {
	char parent[4096]; /* dir's parent: where the tree is made, synced after the swap */
	char base[256];	   /* dir's last component */
	char path[4096];   /* PARENT/.BASE.qosgen-XXXXXX, then mkdtemp's name */
	char marker[4096]; /* PATH/MARKER */
	char mtext[96];	   /* MARKER_TEXT and our pid */
	int mlen;
};

/* Name the tree beside dir, so the final rename stays on one filesystem. */
static int tmp_tree_name(struct tmp_tree *t, const char *dir, char *err, size_t errlen)
{
	char copy[4096];
	if ((size_t)snprintf(copy, sizeof(copy), "%s", dir) >= sizeof(copy))
		return qg_errf(err, errlen, "output path too long");
	snprintf(t->base, sizeof(t->base), "%s", basename(copy));
	snprintf(copy, sizeof(copy), "%s", dir);
	snprintf(t->parent, sizeof(t->parent), "%s", dirname(copy));
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/.%s.qosgen-XXXXXX", t->parent,
			     t->base) >= sizeof(t->path))
		return qg_errf(err, errlen, "output path too long");
	return 0;
}

/* Write the marker into the tree (again, into the old tree after the swap). */
static int tmp_tree_mark(const struct tmp_tree *t, int flags)
{
	int fd = open(t->marker, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -1;
	if (write_all(fd, t->mtext, (size_t)t->mlen) != 0) {
		int e = errno;
		close(fd);
		errno = e; /* for the caller's message */
		return -1;
	}
	return close(fd);
}

/* Every file of o into the tree. 0, -1 with err, or 1 when a signal stopped it. */
static int tmp_tree_fill(const struct tmp_tree *t, const struct qg_outset *o, char *err,
			 size_t errlen)
{
	for (size_t i = 0; i < o->n; i++) {
		const struct qg_outfile *f = &o->v[i];
		char path[4096];
		if (stop)
			return 1;
		snprintf(path, sizeof(path), "%s/%s", t->path, f->path);
		if (make_parents(t->path, f->path) != 0)
			return qg_errf(err, errlen, "cannot create the directory for '%s': %s",
				       f->path, strerror(errno));
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, f->mode);
		if (fd < 0 || write_all(fd, f->data, f->len) != 0) {
			qg_errf(err, errlen, "cannot write '%s': %s", f->path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (close(fd) != 0)
			return qg_errf(err, errlen, "cannot write '%s': %s", f->path,
				       strerror(errno));
	}
	return 0;
}

/*
 * Durable before it is swapped in, with one sync for the whole tree:
 * syncfs flushes the new files and directories of the tree's filesystem and,
 * since Linux 5.8, reports a failed writeback; an fsync per file cost
 * 10,000 syncs for a fabric of 10,000 hosts.
 */
static int tmp_tree_sync(const struct tmp_tree *t, const char *dir, char *err, size_t errlen)
{
	int fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd) != 0) {
		qg_errf(err, errlen, "cannot make '%s' durable: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* The tree becomes dir; an existing dir's old tree ends up at the tree's path. */
static int tmp_tree_swap(const struct tmp_tree *t, const char *dir, bool exists, char *err,
			 size_t errlen)
{
	if (exists) {
		/* Atomic swap; the old tree ends up at tmp and is removed. */
		if (renameat2(AT_FDCWD, t->path, AT_FDCWD, dir, RENAME_EXCHANGE) != 0)
			return qg_errf(err, errlen, "cannot replace '%s': %s", dir,
				       strerror(errno));
		/* The old tree, at tmp now, marked too: a kill while it is removed strands none. */
		tmp_tree_mark(t, O_TRUNC);
	} else if (rename(t->path, dir) != 0) {
		return qg_errf(err, errlen, "cannot create '%s': %s", dir, strerror(errno));
	}
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

	struct tmp_tree t;
	if (tmp_tree_name(&t, dir, err, errlen) != 0)
		return -1;
	remove_stale(t.parent, t.base);
	busy = 1;
	if (!mkdtemp(t.path)) {
		busy = 0;
		return qg_errf(err, errlen, "cannot create a directory beside '%s': %s", dir,
			       strerror(errno));
	}
	/* Marked first, so that no moment leaves an unmarked tree a kill could strand. */
	snprintf(t.marker, sizeof(t.marker), "%s/%s", t.path, MARKER);
	t.mlen = snprintf(t.mtext, sizeof(t.mtext), "%s%ld\n", MARKER_TEXT, (long)getpid());
	if (tmp_tree_mark(&t, O_EXCL) != 0) {
		qg_errf(err, errlen, "cannot write '%s': %s", t.marker, strerror(errno));
		goto undo;
	}
	/* mkdtemp makes 0700; an output tree is for reading, as the umask allows. */
	mode_t um = umask(0);
	umask(um);
	chmod(t.path, 0755 & ~um);

	int rc = tmp_tree_fill(&t, o, err, errlen);
	if (rc < 0)
		goto undo;
	if (rc > 0 || stop)
		goto stopped;
	/* The marker goes: the tree is about to be the output. */
	if (unlink(t.marker) != 0) {
		qg_errf(err, errlen, "cannot remove '%s': %s", t.marker, strerror(errno));
		goto undo;
	}
	if (tmp_tree_sync(&t, dir, err, errlen) != 0)
		goto undo;
	if (stop)
		goto stopped;
	if (tmp_tree_swap(&t, dir, exists, err, errlen) != 0)
		goto undo;
	sync_path(t.parent);
	/* The old tree, now at tmp: removed whatever signal comes meanwhile. */
	remove_tree(t.path);
	busy = 0;
	return 0;
stopped:
	qg_errf(err, errlen, "stopped by signal %d; '%s' is as it was", (int)stop, dir);
undo:
	remove_tree(t.path);
	busy = 0;
	return -1;
}
