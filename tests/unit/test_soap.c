/* SPDX-License-Identifier: MIT */
/*
 * vsphere/soap.c and vim.c against a hostile vCenter: a fake HTTP server on
 * 127.0.0.1 (a thread of this test) that answers every SOAP call the way an
 * attacker who controls the endpoint, or the path to a plain-HTTP one, would:
 * a DOCTYPE with an entity bomb, an answer larger than any read-back, a
 * continuation token that never ends, a fault that writes to the terminal.
 */
#include "helpers.h"

#include "../../lib/errmsg.h"
#include "../../transport/readback.h"
#include "../../vsphere/vim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

enum mode { ANSWER_DOCTYPE, ANSWER_HUGE, ANSWER_TOKENS, ANSWER_FAULT, ANSWER_PLAIN };

struct fake {
	enum mode mode;
	int listen_fd, port;
	pthread_t tid;
	int pages;     /* RetrievePropertiesEx and ContinueRetrievePropertiesEx answered */
	int max_pages; /* the server gives up sending tokens after this many (a test's guard) */
	int requests;
};

#define ENV_OPEN                                                                                   \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                             \
	"<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "           \
	"xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body>"
#define ENV_CLOSE "</soapenv:Body></soapenv:Envelope>"

static const char service_content[] =
    ENV_OPEN "<RetrieveServiceContentResponse xmlns=\"urn:vim25\"><returnval>"
	     "<rootFolder type=\"Folder\">group-d1</rootFolder>"
	     "<propertyCollector type=\"PropertyCollector\">propertyCollector</propertyCollector>"
	     "<viewManager type=\"ViewManager\">ViewManager</viewManager>"
	     "<sessionManager type=\"SessionManager\">SessionManager</sessionManager>"
	     "</returnval></RetrieveServiceContentResponse>" ENV_CLOSE;

static bool send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* Head and body in one write: two would meet Nagle and delayed ACKs (40 ms a call). */
static bool answer(int fd, const char *body)
{
	struct qg_buf b = {0};
	qg_buf_printf(&b,
		      "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n"
		      "Content-Length: %zu\r\n\r\n%s",
		      strlen(body), body);
	bool ok = !b.failed && send_all(fd, b.data, b.len);
	qg_buf_free(&b);
	return ok;
}

/* One 200 KB entity used 2,000 times: 400 MB if anyone expands it. */
static bool answer_doctype(int fd)
{
	struct qg_buf b = {0};
	qg_buf_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE soapenv:Envelope [\n<!ENTITY big \"");
	for (int i = 0; i < 200 * 1024 / 8; i++)
		qg_buf_puts(&b, "ABCDEFGH");
	qg_buf_puts(&b, "\">\n]>\n<soapenv:Envelope "
			"xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
			"<RetrieveServiceContentResponse xmlns=\"urn:vim25\"><returnval>"
			"<rootFolder type=\"Folder\">");
	for (int i = 0; i < 2000; i++)
		qg_buf_puts(&b, "&big;");
	qg_buf_puts(&b, "</rootFolder><propertyCollector type=\"PropertyCollector\">pc"
			"</propertyCollector><viewManager type=\"ViewManager\">vm</viewManager>"
			"<sessionManager type=\"SessionManager\">sm</sessionManager></returnval>"
			"</RetrieveServiceContentResponse>" ENV_CLOSE);
	bool ok = !b.failed && answer(fd, b.data);
	qg_buf_free(&b);
	return ok;
}

/* A well-formed answer one byte over the limit, without a Content-Length (read to the close). */
static bool answer_huge(int fd)
{
	static const char head[] =
	    "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nConnection: close\r\n\r\n";
	static const char open[] = ENV_OPEN "<RetrieveServiceContentResponse xmlns=\"urn:vim25\">"
					    "<returnval><rootFolder type=\"Folder\">";
	static const char close_[] =
	    "</rootFolder><propertyCollector type=\"PropertyCollector\">pc</propertyCollector>"
	    "<viewManager type=\"ViewManager\">vm</viewManager><sessionManager "
	    "type=\"SessionManager\">sm</sessionManager></returnval>"
	    "</RetrieveServiceContentResponse>" ENV_CLOSE;
	if (!send_all(fd, head, strlen(head)) || !send_all(fd, open, strlen(open)))
		return false;
	static char chunk[65536];
	memset(chunk, 'x', sizeof(chunk));
	size_t total = strlen(open) + strlen(close_), pad = QG_READBACK_MAX + 1 - total;
	for (size_t sent = 0; sent < pad;) {
		size_t n = pad - sent < sizeof(chunk) ? pad - sent : sizeof(chunk);
		if (!send_all(fd, chunk, n))
			return false;
		sent += n;
	}
	send_all(fd, close_, strlen(close_));
	return false; /* close the connection: that ends this answer */
}

/* Every page names one host that is not the one looked for, and a token for more. */
static bool answer_page(struct fake *f, int fd)
{
	char body[1024];
	f->pages++;
	bool more = f->pages < f->max_pages;
	snprintf(body, sizeof(body),
		 ENV_OPEN "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval>%s%d%s"
			  "<objects><obj type=\"HostSystem\">host-%d</obj><propSet><name>name"
			  "</name><val xsi:type=\"xsd:string\">other-%d</val></propSet></objects>"
			  "</returnval></RetrievePropertiesExResponse>" ENV_CLOSE,
		 more ? "<token>" : "<!--", f->pages, more ? "</token>" : "-->", f->pages,
		 f->pages);
	return answer(fd, body);
}

static bool answer_fault(int fd)
{
	/* A newline and a C1 CSI (U+009B: "ESC [" to many terminals) are legal XML 1.0. */
	return answer(fd, ENV_OPEN "<soapenv:Fault><faultcode>ServerFaultCode</faultcode>"
				   "<faultstring>Login failure&#10;[PASS] forged line\xc2\x9b"
				   "2J</faultstring><detail><InvalidLoginFault xmlns=\"urn:vim25\" "
				   "xsi:type=\"InvalidLogin\"></InvalidLoginFault></detail>"
				   "</soapenv:Fault>" ENV_CLOSE);
}

/* What the request asks for; every answer of a well-behaved vCenter but the hostile one. */
static bool serve_one(struct fake *f, int fd, const char *req)
{
	f->requests++;
	if (strstr(req, "<RetrieveServiceContent")) {
		if (f->mode == ANSWER_DOCTYPE)
			return answer_doctype(fd);
		if (f->mode == ANSWER_HUGE)
			return answer_huge(fd);
		if (f->mode == ANSWER_FAULT)
			return answer_fault(fd);
		return answer(fd, service_content);
	}
	if (strstr(req, "<CreateContainerView"))
		return answer(fd, ENV_OPEN "<CreateContainerViewResponse xmlns=\"urn:vim25\">"
					   "<returnval type=\"ContainerView\">session[1]view-1"
					   "</returnval></CreateContainerViewResponse>" ENV_CLOSE);
	if (strstr(req, "RetrievePropertiesEx"))
		return answer_page(f, fd);
	/* Login, DestroyView, Logout: an empty response element is all a client reads. */
	return answer(fd, ENV_OPEN "<Response xmlns=\"urn:vim25\"/>" ENV_CLOSE);
}

/* Requests on one connection (libcurl keeps it alive): headers, Content-Length, body. */
static void serve_conn(struct fake *f, int fd)
{
	struct qg_buf in = {0};
	char buf[8192];
	for (;;) {
		char *end = in.data ? strstr(in.data, "\r\n\r\n") : NULL;
		if (end) {
			const char *cl = strcasestr(in.data, "Content-Length:");
			size_t body = cl && cl < end ? strtoul(cl + 15, NULL, 10) : 0;
			size_t need = (size_t)(end + 4 - in.data) + body;
			if (in.len >= need) {
				bool keep = serve_one(f, fd, end + 4);
				memmove(in.data, in.data + need, in.len - need + 1);
				in.len -= need;
				if (!keep)
					break;
				continue;
			}
		}
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		qg_buf_append(&in, buf, (size_t)n);
	}
	qg_buf_free(&in);
	close(fd);
}

static void *serve(void *arg)
{
	struct fake *f = arg;
	for (;;) {
		int fd = accept(f->listen_fd, NULL, NULL);
		if (fd < 0)
			return NULL;
		serve_conn(f, fd);
	}
}

static void fake_start(struct fake *f, enum mode mode)
{
	memset(f, 0, sizeof(*f));
	f->mode = mode;
	f->max_pages = 20000;
	f->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(f->listen_fd >= 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof(a);
	assert_int_equal(bind(f->listen_fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(f->listen_fd, 4), 0);
	assert_int_equal(getsockname(f->listen_fd, (struct sockaddr *)&a, &alen), 0);
	f->port = ntohs(a.sin_port);
	assert_int_equal(pthread_create(&f->tid, NULL, serve, f), 0);
}

static void fake_stop(struct fake *f)
{
	shutdown(f->listen_fd, SHUT_RDWR);
	close(f->listen_fd);
	pthread_join(f->tid, NULL);
}

static struct vs_conn_opts opts_for(const struct fake *f, char *url, size_t len)
{
	snprintf(url, len, "http://127.0.0.1:%d/sdk", f->port);
	return (struct vs_conn_opts){.url = url, .allow_http = true, .timeout_s = 30};
}

/* RetrieveServiceContent, as vim_connect sends it first. */
static int service_call(const struct vs_conn_opts *o, char *fault, char *err, size_t errlen)
{
	struct vs_conn *c;
	if (vs_conn_open(o, &c, err, errlen) != 0)
		return -1;
	xmlDocPtr doc, resp = NULL;
	xmlNodePtr ret;
	assert_non_null(
	    vs_request(&doc, "RetrieveServiceContent", "ServiceInstance", "ServiceInstance"));
	int rc = vs_call(c, doc, &resp, &ret, fault, 64, err, errlen);
	xmlFreeDoc(resp);
	vs_conn_close(c);
	return rc;
}

static void test_doctype_refused(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, ANSWER_DOCTYPE);
	char url[64], fault[64], err[512];
	struct vs_conn_opts o = opts_for(&f, url, sizeof(url));
	double t0 = qg_monotonic_s();
	assert_int_equal(service_call(&o, fault, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "DOCTYPE"));
	assert_non_null(strstr(err, url));
	assert_string_equal(fault, "");
	/* Refused before any entity is read, let alone expanded. */
	assert_true(qg_monotonic_s() - t0 < 5);
	fake_stop(&f);
}

static void test_answer_over_limit_refused(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, ANSWER_HUGE);
	char url[64], fault[64], err[512];
	struct vs_conn_opts o = opts_for(&f, url, sizeof(url));
	assert_int_equal(service_call(&o, fault, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "read-back limit"));
	assert_non_null(strstr(err, "16 MiB"));
	assert_non_null(strstr(err, url));
	fake_stop(&f);
}

static void test_endless_tokens_bounded(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, ANSWER_TOKENS);
	char url[64], err[512];
	struct vs_conn_opts o = opts_for(&f, url, sizeof(url));
	struct vim *v;
	assert_int_equal(vim_connect(&o, "u", "p", &v, err, sizeof(err)), 0);
	struct vim_ref ref;
	assert_int_equal(vim_find(v, "HostSystem", "esx01", &ref, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "continuation"));
	assert_true(f.pages <= VIM_MAX_PAGES);
	vim_close(v);
	fake_stop(&f);
}

static void test_fault_escaped(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, ANSWER_FAULT);
	char url[64], fault[64], err[512];
	struct vs_conn_opts o = opts_for(&f, url, sizeof(url));
	assert_int_equal(service_call(&o, fault, err, sizeof(err)), -1);
	assert_string_equal(fault, "InvalidLogin");
	assert_string_equal(err, "InvalidLogin: Login failure\\n[PASS] forged line\\u009b2J");
	fake_stop(&f);
}

/* http:// only when asked for by name: the Login would carry the password in clear. */
static void test_plain_http_refused(void **state)
{
	(void)state;
	struct fake f;
	fake_start(&f, ANSWER_PLAIN);
	char url[64], fault[64], err[512];
	struct vs_conn_opts o = opts_for(&f, url, sizeof(url));
	o.allow_http = false;
	assert_int_equal(service_call(&o, fault, err, sizeof(err)), -1);
	assert_int_equal(f.requests, 0);
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "clear text"));
	assert_non_null(strstr(err, "--allow-http"));
	o.allow_http = true;
	assert_int_equal(service_call(&o, fault, err, sizeof(err)), 0);
	assert_int_equal(f.requests, 1);
	fake_stop(&f);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_doctype_refused),
	    cmocka_unit_test(test_answer_over_limit_refused),
	    cmocka_unit_test(test_endless_tokens_bounded),
	    cmocka_unit_test(test_fault_escaped),
	    cmocka_unit_test(test_plain_http_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
