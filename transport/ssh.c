/* SPDX-License-Identifier: MIT */
/*
 * libssh 0.10 client. Order of option processing follows OpenSSH: the
 * target's host first, then ~/.ssh/config (Host blocks match on it: HostName,
 * User, Port, IdentityFile), then what the intent states explicitly.
 */
#include "ssh.h"
#include "../lib/errmsg.h"
#include "readback.h"

#include <errno.h>
#include <fcntl.h>
#include <libssh/libssh.h>
#include <pthread.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct qg_ssh {
	ssh_session session;
	char peer[300];
	int command_timeout_s;
	int keepalive_s;
	char *identity; /* --identity's bytes, as checked (read_identity); scrubbed after login */
	size_t identity_len;
};

/* "SHA256:base64", as ssh-keygen -l prints it. */
static void key_fingerprint(ssh_key key, char *out, size_t len)
{
	unsigned char *hash = NULL;
	size_t hlen = 0;
	snprintf(out, len, "unknown");
	if (key && ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hlen) == 0) {
		char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hlen);
		if (fp)
			snprintf(out, len, "%s", fp);
		ssh_string_free_char(fp);
		ssh_clean_pubkey_hash(&hash);
	}
}

/*
 * The fingerprint known_hosts holds for this host. libssh returns the entry
 * only when it matches, so for a changed key read the file ourselves: the
 * message must show both keys.
 */
static void known_fingerprint(ssh_session ss, const char *file, char *out, size_t len)
{
	char *host = NULL, *expanded = NULL, name[300];
	unsigned int port = 22;
	ssh_options_get(ss, SSH_OPTIONS_HOST, &host);
	ssh_options_get_port(ss, &port);
	/* OpenSSH's known_hosts names a non-22 port as [host]:port. */
	if (port == 22)
		snprintf(name, sizeof(name), "%s", host ? host : "");
	else
		snprintf(name, sizeof(name), "[%s]:%u", host ? host : "", port);
	ssh_string_free_char(host);
	if (!file) {
		ssh_options_get(ss, SSH_OPTIONS_KNOWNHOSTS, &expanded);
		file = expanded;
	}
	FILE *f = file ? fopen(file, "r") : NULL;
	char line[8192];
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		struct ssh_knownhosts_entry *e = NULL;
		if (ssh_known_hosts_parse_line(name, line, &e) == SSH_OK && e) {
			key_fingerprint(e->publickey, out, len);
			ssh_knownhosts_entry_free(e);
			break;
		}
		ssh_knownhosts_entry_free(e);
	}
	if (f)
		fclose(f);
	ssh_string_free_char(expanded);
}

static int check_host_key(struct qg_ssh *s, const struct qg_ssh_opts *o, char *err, size_t errlen)
{
	ssh_key server = NULL;
	char got[128], expected[128] = "unknown";
	if (ssh_get_server_publickey(s->session, &server) != SSH_OK)
		return qg_errf(err, errlen, "%s: the server sent no host key", s->peer);
	key_fingerprint(server, got, sizeof(got));
	ssh_key_free(server);

	enum ssh_known_hosts_e state = ssh_session_is_known_server(s->session);
	switch (state) {
	case SSH_KNOWN_HOSTS_OK:
		return 0;
	case SSH_KNOWN_HOSTS_CHANGED:
	case SSH_KNOWN_HOSTS_OTHER:
		known_fingerprint(s->session, o->known_hosts, expected, sizeof(expected));
		return qg_errf(err, errlen,
			    "%s: host key mismatch (expected %s, got %s); refusing to connect. If "
			    "the device was really re-keyed, remove the old key (ssh-keygen -R) "
			    "from %s and verify the new one",
			    s->peer, expected, got,
			    o->known_hosts ? o->known_hosts : "~/.ssh/known_hosts");
	case SSH_KNOWN_HOSTS_NOT_FOUND:
	case SSH_KNOWN_HOSTS_UNKNOWN:
		if (!o->accept_new)
			return qg_errf(
			    err, errlen,
			    "%s: unknown host key %s; refusing to connect. Verify it and add "
			    "it to %s, or pass --accept-new to record it on first use",
			    s->peer, got, o->known_hosts ? o->known_hosts : "~/.ssh/known_hosts");
		if (ssh_session_update_known_hosts(s->session) != SSH_OK)
			return qg_errf(err, errlen, "%s: cannot record the host key %s: %s", s->peer,
				    got, ssh_get_error(s->session));
		return 0;
	default:
		return qg_errf(err, errlen, "%s: cannot check the host key: %s", s->peer,
			    ssh_get_error(s->session));
	}
}

/*
 * ssh_userauth_publickey_auto on a key file with no .pub beside it reads the
 * private key and writes KEY.pub (libssh 0.10). A second session of this
 * process that looks for KEY.pub meanwhile reads it half-written, gets
 * SSH_AUTH_ERROR and fails its host: one host of a parallel push, on the
 * first run after the key was installed (seen in the soft-RoCE VM; made
 * certain in tests/e2e/ssh.c by slowing the write). So the first automatic
 * authentication of the process runs alone; once it has returned, KEY.pub is
 * whole (or was never written) and the others run in parallel, as before.
 * A KEY.pub deleted while a push runs is not covered, and need not be.
 */
static pthread_mutex_t auto_gate = PTHREAD_MUTEX_INITIALIZER;
static bool auto_done;

static int publickey_auto(ssh_session ss)
{
	pthread_mutex_lock(&auto_gate);
	if (auto_done) {
		pthread_mutex_unlock(&auto_gate);
		return ssh_userauth_publickey_auto(ss, NULL, NULL);
	}
	int rc = ssh_userauth_publickey_auto(ss, NULL, NULL);
	auto_done = true;
	pthread_mutex_unlock(&auto_gate);
	return rc;
}

/*
 * A private key others may read or write is refused, as OpenSSH refuses it
 * (sshkey_perm_ok: "UNPROTECTED PRIVATE KEY FILE! ... This private key will
 * be ignored"): a key the user owns with any group or other permission bit.
 * A key another user owns is that user's business, as for ssh; one anyone
 * may write is not, since anyone could swap in their own. libssh does not
 * check. As OpenSSH does, the open file is checked and read, so the bytes
 * used are the bytes checked; and before connecting, so that a key qosgen
 * will not use does not wait for a server to say so.
 */
#define IDENTITY_MAX (1u << 20) /* a private key file is a few KiB */

static int read_identity(struct qg_ssh *s, const char *file, char *err, size_t errlen)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return qg_errf(err, errlen, "%s: cannot read the key file %s: %s", s->peer, file,
			       strerror(e));
	}
	unsigned mode = (unsigned)st.st_mode & 0777;
	if ((st.st_uid == getuid() && (mode & 077)) || (mode & 002)) {
		close(fd);
		return qg_errf(
		    err, errlen,
		    "%s: the key file %s is accessible by others (permissions 0%03o are "
		    "too open; OpenSSH refuses it as an UNPROTECTED PRIVATE KEY FILE, and "
		    "so does qosgen): chmod 600 %s",
		    s->peer, file, mode, file);
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 || (size_t)st.st_size > IDENTITY_MAX) {
		close(fd);
		return qg_errf(err, errlen, "%s: the key file %s is not a private key file",
			       s->peer, file);
	}
	s->identity = malloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (s->identity && got < (size_t)st.st_size) {
		ssize_t n = read(fd, s->identity + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!s->identity)
		return qg_errf(err, errlen, "%s: out of memory", s->peer);
	s->identity[got] = '\0';
	s->identity_len = got;
	return 0;
}

/* The key's bytes are a secret: not left in freed memory. */
static void drop_identity(struct qg_ssh *s)
{
	if (s->identity) {
		explicit_bzero(s->identity, s->identity_len);
		free(s->identity);
	}
	s->identity = NULL;
	s->identity_len = 0;
}

static int authenticate(struct qg_ssh *s, const struct qg_ssh_opts *o, char *err, size_t errlen)
{
	ssh_session ss = s->session;
	int rc = ssh_userauth_none(ss, NULL);
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc == SSH_AUTH_ERROR)
		return qg_errf(err, errlen, "%s: authentication failed: %s", s->peer,
			    ssh_get_error(ss));
	int methods = ssh_userauth_list(ss, NULL);
	char tried[300] = "";
	if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
		if (o->identity) {
			ssh_key key = NULL;
			/* The bytes read_identity checked, imported as libssh imports a file. */
			if (!s->identity || ssh_pki_import_privkey_base64(s->identity, NULL, NULL,
									  NULL, &key) != SSH_OK)
				return qg_errf(err, errlen, "%s: cannot read the key file %s", s->peer,
					    o->identity);
			rc = ssh_userauth_publickey(ss, NULL, key);
			ssh_key_free(key);
		} else {
			/* ssh-agent first, then the default key files, as ssh does. */
			rc = publickey_auto(ss);
		}
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		/* An error is not a refusal: say what libssh met (a key it could not read). */
		snprintf(tried, sizeof(tried), "publickey%s%s", rc == SSH_AUTH_ERROR ? ": " : "",
			 rc == SSH_AUTH_ERROR ? ssh_get_error(ss) : "");
	}
	const char *var = o->password_env ? o->password_env : "QOSGEN_SSH_PASSWORD";
	const char *password = o->password ? o->password : getenv(var);
	if (password && *password && (methods & SSH_AUTH_METHOD_PASSWORD)) {
		rc = ssh_userauth_password(ss, NULL, password);
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		size_t n = strlen(tried);
		snprintf(tried + n, sizeof(tried) - n, "%spassword", n ? ", " : "");
	}
	char *user = NULL;
	ssh_options_get(ss, SSH_OPTIONS_USER, &user);
	qg_errf(err, errlen,
	     "%s: authentication failed for user '%s' (tried: %s); give a key with ssh-agent, "
	     "IdentityFile in ~/.ssh/config or --identity, or a password in $%s",
	     s->peer, user ? user : "?", tried[0] ? tried : "none the server allows", var);
	ssh_string_free_char(user);
	return -1;
}

int qg_ssh_connect(const struct qg_ssh_target *t, const struct qg_ssh_opts *o, struct qg_ssh **out,
		   char *err, size_t errlen)
{
	*out = NULL;
	struct qg_ssh *s = calloc(1, sizeof(*s));
	if (!s || !(s->session = ssh_new())) {
		free(s);
		return qg_errf(err, errlen, "%s: out of memory", t->host);
	}
	ssh_session ss = s->session;
	s->command_timeout_s = o->command_timeout_s > 0 ? o->command_timeout_s : 120;
	s->keepalive_s = o->keepalive_s > 0 ? o->keepalive_s : 15;
	int verbosity = SSH_LOG_NOLOG;
	bool no = false;
	long timeout = o->connect_timeout_s > 0 ? o->connect_timeout_s : 10;
	ssh_options_set(ss, SSH_OPTIONS_LOG_VERBOSITY, &verbosity);
	/* We read the config ourselves, so that explicit values can override it. */
	ssh_options_set(ss, SSH_OPTIONS_PROCESS_CONFIG, &no);
	ssh_options_set(ss, SSH_OPTIONS_HOST, t->host);
	if (!o->config) {
		ssh_options_parse_config(ss, NULL);
	} else if (*o->config) {
		/* libssh skips a file it cannot open; ssh -F refuses it, and so do we. */
		if (access(o->config, R_OK) != 0 || ssh_options_parse_config(ss, o->config) != 0) {
			qg_errf(err, errlen, "%s: cannot read the ssh config %s", t->host, o->config);
			qg_ssh_close(s);
			return -1;
		}
	}
	if (t->port > 0) {
		unsigned int port = (unsigned int)t->port;
		ssh_options_set(ss, SSH_OPTIONS_PORT, &port);
	}
	if (t->user && *t->user)
		ssh_options_set(ss, SSH_OPTIONS_USER, t->user);
	if (o->known_hosts)
		ssh_options_set(ss, SSH_OPTIONS_KNOWNHOSTS, o->known_hosts);
	ssh_options_set(ss, SSH_OPTIONS_TIMEOUT, &timeout);

	char *host = NULL;
	unsigned int port = 22;
	ssh_options_get(ss, SSH_OPTIONS_HOST, &host);
	ssh_options_get_port(ss, &port);
	snprintf(s->peer, sizeof(s->peer), "%s%s%s:%u", host && strchr(host, ':') ? "[" : "",
		 host ? host : t->host, host && strchr(host, ':') ? "]" : "", port);
	ssh_string_free_char(host);

	if (o->identity && read_identity(s, o->identity, err, errlen) != 0) {
		qg_ssh_close(s);
		return -1;
	}
	if (ssh_connect(ss) != SSH_OK) {
		/* libssh's words, in the user's terms where they are known ones. */
		const char *e = ssh_get_error(ss);
		if (strstr(e, "Timeout") || strstr(e, "timed out"))
			qg_errf(err, errlen,
				"%s: timed out after %ld s connecting or in the SSH handshake "
				"(--timeout)",
				s->peer, timeout);
		else if (strstr(e, "Connection refused"))
			qg_errf(err, errlen, "%s: connection refused: nothing listens there", s->peer);
		else if (strstr(e, "disconnected"))
			qg_errf(err, errlen,
				"%s: the server closed the connection before the SSH handshake "
				"finished (%s)",
				s->peer, e);
		else
			qg_errf(err, errlen, "%s: cannot connect: %s", s->peer, e);
		qg_ssh_close(s);
		return -1;
	}
	int rc = check_host_key(s, o, err, errlen) != 0 || authenticate(s, o, err, errlen) != 0;
	drop_identity(s);
	if (rc) {
		qg_ssh_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

char *qg_ssh_ask_password(const char *prompt, char *err, size_t errlen)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		qg_errf(err, errlen,
		     "cannot ask for a password: no terminal (set QOSGEN_SSH_PASSWORD, "
		     "or QOSGEN_NVUE_PASSWORD for a Cumulus switch)");
		return NULL;
	}
	struct termios old, quiet;
	bool restore = tcgetattr(fd, &old) == 0;
	if (restore) {
		quiet = old;
		quiet.c_lflag &= (tcflag_t)~ECHO;
		tcsetattr(fd, TCSAFLUSH, &quiet);
	}
	if (write(fd, prompt, strlen(prompt)) < 0) {
		/* the prompt is a courtesy; read anyway */
	}
	char buf[512];
	size_t n = 0;
	char c;
	while (n + 1 < sizeof(buf) && read(fd, &c, 1) == 1 && c != '\n' && c != '\r')
		buf[n++] = c;
	buf[n] = '\0';
	if (restore)
		tcsetattr(fd, TCSAFLUSH, &old);
	if (write(fd, "\n", 1) < 0) {
		/* nothing to do */
	}
	close(fd);
	char *pw = strdup(buf);
	/* Do not leave the password in a stack buffer. */
	explicit_bzero(buf, sizeof(buf));
	if (!pw)
		qg_errf(err, errlen, "out of memory");
	return pw;
}

const char *qg_ssh_peer(const struct qg_ssh *s)
{
	return s->peer;
}

static int write_all(ssh_channel ch, const char *data, size_t len)
{
	while (len > 0) {
		uint32_t chunk = len > 32768 ? 32768 : (uint32_t)len;
		int w = ssh_channel_write(ch, data, chunk);
		if (w <= 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

int qg_ssh_run(struct qg_ssh *s, const char *cmd, const char *input, size_t input_len,
	       struct qg_buf *out, struct qg_buf *errout, int *status, char *err, size_t errlen)
{
	*status = -1;
	ssh_channel ch = ssh_channel_new(s->session);
	if (!ch || ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, cmd) != SSH_OK) {
		qg_errf(err, errlen, "%s: cannot start a command: %s", s->peer,
		     ssh_get_error(s->session));
		if (ch)
			ssh_channel_free(ch);
		return -1;
	}
	int rc = 0;
	if ((input && write_all(ch, input, input_len) != 0) || ssh_channel_send_eof(ch) != SSH_OK)
		rc = qg_errf(err, errlen, "%s: the connection dropped while sending: %s", s->peer,
			  ssh_get_error(s->session));

	double start = qg_monotonic_s(), last_keepalive = start;
	char buf[16384];
	size_t kept = 0; /* stdout and stderr together: one read-back */
	while (rc == 0) {
		bool got = false;
		for (int is_err = 0; is_err < 2; is_err++) {
			int n = ssh_channel_read_timeout(ch, buf, sizeof(buf), is_err,
							 is_err ? 0 : 200);
			if (n == SSH_ERROR) {
				rc = qg_errf(err, errlen, "%s: the connection dropped: %s", s->peer,
					  ssh_get_error(s->session));
				break;
			}
			if (n > 0) {
				got = true;
				struct qg_buf *b = is_err ? errout : out;
				if (b && (size_t)n > QG_READBACK_MAX - kept) {
					rc = qg_errf(err, errlen,
						     "%s: '%s' sent more than the read-back limit "
						     "of " QG_READBACK_MAX_TEXT
						     "; stopped reading it",
						     s->peer, cmd);
					break;
				}
				if (b) {
					qg_buf_append(b, buf, (size_t)n);
					kept += (size_t)n;
				}
			}
		}
		if (rc || (!got && ssh_channel_is_eof(ch)))
			break;
		double t = qg_monotonic_s();
		if (t - start > s->command_timeout_s) {
			qg_errf(err, errlen, "%s: '%s' did not finish within %d s", s->peer, cmd,
				s->command_timeout_s);
			rc = QG_SSH_TIMED_OUT;
			break;
		}
		if (t - last_keepalive > s->keepalive_s) {
			ssh_send_ignore(s->session, "keepalive");
			last_keepalive = t;
		}
	}
	if (rc == 0) {
		*status = ssh_channel_get_exit_status(ch);
		if (*status < 0)
			*status = 255;
	}
	ssh_channel_close(ch);
	ssh_channel_free(ch);
	return rc;
}

struct qg_ssh_shell {
	struct qg_ssh *s;
	ssh_channel ch;
};

int qg_ssh_shell_open(struct qg_ssh *s, struct qg_ssh_shell **out, char *err, size_t errlen)
{
	*out = NULL;
	struct qg_ssh_shell *sh = calloc(1, sizeof(*sh));
	if (!sh)
		return qg_errf(err, errlen, "%s: out of memory", s->peer);
	sh->s = s;
	sh->ch = ssh_channel_new(s->session);
	if (!sh->ch || ssh_channel_open_session(sh->ch) != SSH_OK ||
	    ssh_channel_request_pty_size(sh->ch, "vt100", 200, 50) != SSH_OK ||
	    ssh_channel_request_shell(sh->ch) != SSH_OK) {
		qg_errf(err, errlen, "%s: cannot open an interactive shell: %s", s->peer,
		     ssh_get_error(s->session));
		qg_ssh_shell_close(sh);
		return -1;
	}
	*out = sh;
	return 0;
}

int qg_ssh_shell_write(struct qg_ssh_shell *sh, const char *data, size_t len, char *err,
		       size_t errlen)
{
	if (write_all(sh->ch, data, len) != 0)
		return qg_errf(err, errlen, "%s: the connection dropped while sending: %s",
			    sh->s->peer, ssh_get_error(sh->s->session));
	return 0;
}

int qg_ssh_shell_read_until(struct qg_ssh_shell *sh, struct qg_buf *out,
			    bool (*done)(const char *text, size_t len, void *ctx), void *ctx,
			    char *err, size_t errlen)
{
	double start = qg_monotonic_s(), last_keepalive = start;
	char buf[16384];
	while (!done(out->data ? out->data : "", out->len, ctx)) {
		int n = ssh_channel_read_timeout(sh->ch, buf, sizeof(buf), 0, 200);
		if (n == SSH_ERROR || (n == 0 && ssh_channel_is_eof(sh->ch)))
			return qg_errf(err, errlen, "%s: the connection dropped%s%s", sh->s->peer,
				    n == SSH_ERROR ? ": " : "",
				    n == SSH_ERROR ? ssh_get_error(sh->s->session) : "");
		if (n > 0 && (size_t)n > QG_READBACK_MAX - out->len)
			return qg_errf(err, errlen,
				       "%s: the reply is larger than the read-back limit "
				       "of " QG_READBACK_MAX_TEXT
				       " with no prompt yet; stopped reading it",
				       sh->s->peer);
		if (n > 0)
			qg_buf_append(out, buf, (size_t)n);
		double t = qg_monotonic_s();
		if (t - start > sh->s->command_timeout_s)
			return qg_errf(err, errlen, "%s: no prompt within %d s", sh->s->peer,
				    sh->s->command_timeout_s);
		if (t - last_keepalive > sh->s->keepalive_s) {
			ssh_send_ignore(sh->s->session, "keepalive");
			last_keepalive = t;
		}
	}
	return out->failed ? qg_errf(err, errlen, "%s: out of memory", sh->s->peer) : 0;
}

void qg_ssh_shell_close(struct qg_ssh_shell *sh)
{
	if (!sh)
		return;
	if (sh->ch) {
		ssh_channel_close(sh->ch);
		ssh_channel_free(sh->ch);
	}
	free(sh);
}

void qg_ssh_close(struct qg_ssh *s)
{
	if (!s)
		return;
	drop_identity(s);
	if (s->session) {
		if (ssh_is_connected(s->session))
			ssh_disconnect(s->session);
		ssh_free(s->session);
	}
	free(s);
}
