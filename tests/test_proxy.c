/* Network by domain: cordon's proxy and the enforcement around it. Every
 * server here is the test's own, on 127.0.0.x, started and stopped by the
 * test; names reach them through the test-only name map (CORDON_TEST_HOSTS,
 * in CORDON_TEST_HOOKS builds). The verdict is what the servers received;
 * every refusal has its control (the same attempt allowed, or with the
 * network whole, gets through). As root and as the test user. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "linux/linux.h"
#include "linux/proxy.h"
#include "linux/seccomp-rules.h"

/* ---- a tiny HTTP server outside: logs every request head it gets -------- */

struct httpd {
	pid_t pid;
	int port;
	char *log; /* every byte received, appended */
};

/* ROOT: serve the files under it (GET only; a directory's index.html),
 * for clients that speak their own protocol over HTTP (git, npm, pip). */
static void httpd_serve_file(int c, const char *root, const char *head)
{
	char path[4096];
	size_t n = strncmp(head, "GET /", 5) == 0 ? strcspn(head + 4, " ?\r\n") : 0;
	int fd = -1;
	struct stat st;
	if (n && n < sizeof(path) - strlen(root) - 16 && !memmem(head + 4, n, "..", 2)) {
		snprintf(path, sizeof(path), "%s%.*s", root, (int)n, head + 4);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			strcat(path, "/index.html");
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		static const char nf[] = "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n"
					 "Connection: close\r\n\r\n";
		(void)!send(c, nf, sizeof(nf) - 1, MSG_NOSIGNAL);
		if (fd >= 0)
			close(fd);
		return;
	}
	const char *dot = strrchr(path, '.');
	const char *type =
		dot && strcmp(dot, ".html") == 0 ? "text/html" : "application/octet-stream";
	char hdr[256];
	int len = snprintf(hdr, sizeof(hdr),
			   "HTTP/1.0 200 OK\r\nContent-Length: %lld\r\nContent-Type: %s\r\n"
			   "Connection: close\r\n\r\n",
			   (long long)st.st_size, type);
	(void)!send(c, hdr, (size_t)len, MSG_NOSIGNAL);
	char buf[16384];
	ssize_t got;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		if (send(c, buf, (size_t)got, MSG_NOSIGNAL) != got)
			break;
	close(fd);
}

static void httpd_loop(int ls, const char *log, const char *root)
{
	for (;;) {
		int c = accept(ls, NULL, NULL);
		if (c < 0)
			continue;
		char buf[4096];
		size_t got = 0;
		struct pollfd p = {.fd = c, .events = POLLIN};
		while (got < sizeof(buf) - 1 && poll(&p, 1, 2000) > 0) {
			ssize_t n = read(c, buf + got, sizeof(buf) - 1 - got);
			if (n <= 0)
				break;
			got += (size_t)n;
			buf[got] = '\0';
			if (strstr(buf, "\r\n\r\n") || buf[0] == 0x16)
				break;
		}
		for (size_t i = 0; i < got; i++)
			if (buf[i] == '\0')
				buf[i] = '.'; /* a TLS hello, kept searchable */
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
		if (fd >= 0) {
			(void)!write(fd, buf, got);
			(void)!write(fd, "\n--\n", 4);
			close(fd);
		}
		static const char reply[] = "HTTP/1.0 200 OK\r\nContent-Length: 11\r\n"
					    "Connection: close\r\n\r\nhello-proxy";
		if (got && root)
			httpd_serve_file(c, root, buf);
		else if (got && buf[0] != 0x16)
			(void)!write(c, reply, sizeof(reply) - 1);
		close(c);
	}
}

static struct httpd httpd_files(const char *ip, const char *dir, const char *tag, const char *root)
{
	struct httpd h = {0};
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	inet_pton(AF_INET, ip, &a.sin_addr);
	int one = 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	cr_assert_eq(bind(ls, (struct sockaddr *)&a, sizeof(a)), 0, "bind %s: %s", ip,
		     strerror(errno));
	cr_assert_eq(listen(ls, 16), 0);
	socklen_t len = sizeof(a);
	getsockname(ls, (struct sockaddr *)&a, &len);
	h.port = ntohs(a.sin_port);
	h.log = path_join(dir, tag);
	pid_t parent = getpid();
	h.pid = fork();
	cr_assert_geq(h.pid, 0);
	if (h.pid == 0) {
		/* Gone with the test, even one that failed before httpd_stop. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		httpd_loop(ls, h.log, root);
		_exit(0);
	}
	close(ls);
	return h;
}

static struct httpd httpd_start(const char *ip, const char *dir, const char *tag)
{
	return httpd_files(ip, dir, tag, NULL);
}

static void httpd_stop(struct httpd *h)
{
	stop_process(h->pid);
	free(h->log);
}

/* Whether the server's log has NEEDLE (waiting a moment for its write). */
static bool httpd_got(const struct httpd *h, const char *needle, int ms)
{
	long end = ms_now() + ms;
	do {
		if (contains(h->log, needle))
			return true;
		usleep(20 * 1000);
	} while (ms_now() < end);
	return false;
}

/* A world limited to good.test (127.0.0.2) by --allow-domain, evil.test
 * mapped too (to the same server) but not allowed; as the test user when
 * AS_USER. */
static void proxy_world(struct world *w, const char *tag, bool as_user, int good_port)
{
	(void)good_port;
	world_init(w, tag, "");
	world_setenv(w, "CORDON_TEST_HOSTS=good.test=127.0.0.2,evil.test=127.0.0.2,"
			"tls.test=127.0.0.3,loop.test=127.0.0.1");
	if (as_user)
		world_as_user(w);
}

#define DOMAINS "--allow-domain good.test --allow-domain tls.test"

Test(proxy, built_with_the_test_name_map)
{
	/* Every test below relies on it: a build without it must fail here
	 * rather than pass below for the wrong reason. */
	struct world w;
	proxy_world(&w, "pxhooks", false, 0);
	struct run_result r = sh_in(&w, DOMAINS " -v", "true");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "network by domain, through cordon's proxy on 127.0.0.1:") != NULL,
		  "%s", r.err);
	run_free(&r);
	world_free(&w);
}

/* curl and python's urllib, by plain HTTP, CONNECT and SOCKS5: the allowed
 * name reaches the server, the refused one does not (the same server). */
static void allowed_and_refused(bool as_user)
{
	struct world w;
	proxy_world(&w, "pxallow", as_user, 0);
	struct httpd h = httpd_start("127.0.0.2", w.dir, "log");
	struct run_result r = sh_in(
		&w, DOMAINS,
		"curl -sS http://good.test:%d/curl-allowed; echo; "
		"curl -sS http://evil.test:%d/curl-refused; echo; "
		"curl -sS -p http://good.test:%d/connect-allowed; echo; "
		"curl -sS -p http://evil.test:%d/connect-refused; echo; "
		"curl -sS -x \"$ALL_PROXY\" http://good.test:%d/socks-allowed; echo; "
		"curl -sS -x \"$ALL_PROXY\" http://evil.test:%d/socks-refused; echo; "
		"curl -sS -x \"socks5://${ALL_PROXY#socks5h://}\" http://127.0.0.2:%d/socks-ip; echo; "
		"/usr/bin/python3 -c 'import urllib.request as u; "
		"print(u.urlopen(\"http://good.test:%d/py-allowed\").read())'; "
		"/usr/bin/python3 -c 'import urllib.request as u; "
		"print(u.urlopen(\"http://evil.test:%d/py-refused\").read())'; true",
		h.port, h.port, h.port, h.port, h.port, h.port, h.port, h.port, h.port);
	const char *ok[] = {"GET /curl-allowed", "GET /socks-allowed", "GET /py-allowed",
			    "GET /connect-allowed"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		cr_expect(httpd_got(&h, ok[i], 2000), "%s did not arrive: %s %s", ok[i], r.out,
			  r.err);
	cr_expect(strstr(r.out, "hello-proxy") != NULL, "%s", r.out);
	const char *no[] = {"curl-refused", "connect-refused", "socks-refused", "socks-ip",
			    "py-refused"};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		cr_expect(!httpd_got(&h, no[i], 10), "%s got through", no[i]);
	/* Said once, with the line that allows it. */
	const char *said = strstr(r.err, "cordon: evil.test: not in allowed_domains; to allow it");
	cr_expect(said != NULL, "%s", r.err);
	cr_expect(said && !strstr(said + 1, "cordon: evil.test: not in"), "said twice: %s", r.err);
	cr_expect(strstr(r.err, "--allow-domain evil.test") != NULL, "%s", r.err);
	run_free(&r);
	httpd_stop(&h);
	world_free(&w);
}

/* An allowed host the proxy cannot reach: the client only gets a 502, so
 * the session is told once why. The control: while a server listens there
 * the same request arrives and nothing is said. */
Test(proxy, allowed_but_unreachable_is_said_once)
{
	struct world w;
	world_init(&w, "pxdead", "");
	world_setenv(&w, "CORDON_TEST_HOSTS=dead.test=127.0.0.5");
	struct httpd h = httpd_start("127.0.0.5", w.dir, "log");
	int port = h.port;
	struct run_result r = sh_in(&w, "--allow-domain dead.test",
				    "curl -sS -p http://dead.test:%d/alive; echo", port);
	cr_assert(httpd_got(&h, "GET /alive", 2000), "control: %s %s", r.out, r.err);
	cr_expect_null(strstr(r.err, "cannot reach"), "%s", r.err);
	run_free(&r);
	httpd_stop(&h);
	r = sh_in(&w, "--allow-domain dead.test",
		  "curl -sS -p http://dead.test:%1$d/a; curl -sS http://dead.test:%1$d/b; true",
		  port);
	const char *said =
		strstr(r.err, "cordon: dead.test: allowed, but cordon's proxy cannot reach it: "
			      "connection refused");
	cr_expect(said != NULL, "%s", r.err);
	cr_expect(said && !strstr(said + 1, "cordon: dead.test: allowed"), "said twice: %s", r.err);
	run_free(&r);
	world_free(&w);
}

Test(proxy, allowed_name_passes_refused_does_not)
{
	allowed_and_refused(false);
}

Test(proxy, allowed_name_passes_refused_does_not_as_user)
{
	allowed_and_refused(true);
}

/* ---- git, npm and pip, each against a server of its own protocol ---------------- */

/* A client of the proxy: the files its server holds, and what it runs
 * inside. SCRIPT gets the host as $1, the server's port as $2 and the
 * attempt's label as $3; it leaves MADE under got-$3 when it got through. */
struct client {
	const char *name;  /* the allowed name */
	const char *stock; /* makes srv/ in the world's directory ($1: port, $2: name) */
	const char *script;
	const char *made;
	const char *want; /* in MADE; NULL: MADE is srv/SERVED byte for byte */
	const char *served;
	const char *first; /* a request the allowed attempt makes */
};

static const struct client git_client = {
	.name = "git.test",
	.stock =
		"git init -q src && cd src && echo cordon-proxy-commit > README && git add README && "
		"git -c user.name=cordon-tests -c user.email=tests@cordon.invalid commit -qm one && cd .. "
		"&& git clone -q --bare src srv/repo.git && git -C srv/repo.git update-server-info",
	.script = "git clone -q \"http://$1:$2/repo.git\" \"got-$3\"",
	.made = "README",
	.want = "cordon-proxy-commit",
	.served = NULL,
	.first = "GET /repo.git/info/refs?service=git-upload-pack",
};

/* A registry of one package: its metadata at /cordon-stub, its tarball
 * (made with tar, as npm pack would) at a URL on npm.test, the registry's
 * own name. */
static const struct client npm_client = {
	.name = "npm.test",
	.stock =
		"mkdir -p pkg/package srv/tarballs && "
		"echo '{\"name\": \"cordon-stub\", \"version\": \"1.0.0\"}' > pkg/package/package.json && "
		"tar czf srv/tarballs/cordon-stub-1.0.0.tgz -C pkg package && "
		"printf '{\"name\": \"cordon-stub\", \"dist-tags\": {\"latest\": \"1.0.0\"}, \"versions\": "
		"{\"1.0.0\": {\"name\": \"cordon-stub\", \"version\": \"1.0.0\", \"dist\": {\"tarball\": "
		"\"http://%s:%s/tarballs/cordon-stub-1.0.0.tgz\"}}}}' \"$2\" \"$1\" > srv/cordon-stub",
	.script =
		"mkdir -p \"got-$3\" && npm install --prefix \"got-$3\" --cache \"$PWD/npm-cache-$3\" "
		"--registry \"http://$1:$2/\" --no-audit --no-fund --no-update-notifier --fetch-retries 0 "
		"cordon-stub",
	.made = "node_modules/cordon-stub/package.json",
	.want = "\"version\": \"1.0.0\"",
	.served = NULL,
	.first = "GET /cordon-stub ",
};

/* A simple index (PEP 503) of one wheel, made with python's zipfile. */
static const struct client pip_client = {
	.name = "pypi.test",
	.stock =
		"mkdir -p whl/cordon_stub whl/cordon_stub-1.0.dist-info srv/simple/cordon-stub srv/files && "
		": > whl/cordon_stub/__init__.py && "
		"printf 'Metadata-Version: 2.1\\nName: cordon-stub\\nVersion: 1.0\\n' "
		"> whl/cordon_stub-1.0.dist-info/METADATA && "
		"printf 'Wheel-Version: 1.0\\nGenerator: cordon-tests\\nRoot-Is-Purelib: true\\n"
		"Tag: py3-none-any\\n' > whl/cordon_stub-1.0.dist-info/WHEEL && "
		": > whl/cordon_stub-1.0.dist-info/RECORD && "
		"(cd whl && /usr/bin/python3 -m zipfile -c ../srv/files/cordon_stub-1.0-py3-none-any.whl "
		"cordon_stub cordon_stub-1.0.dist-info) && "
		"echo '<a href=\"../../files/cordon_stub-1.0-py3-none-any.whl\">cordon_stub-1.0</a>' "
		"> srv/simple/cordon-stub/index.html",
	.script =
		"/usr/bin/python3 -m pip download --no-deps --no-cache-dir --disable-pip-version-check "
		"--retries 0 --timeout 5 --trusted-host \"$1\" --index-url \"http://$1:$2/simple/\" "
		"-d \"got-$3\" cordon-stub",
	.made = "cordon_stub-1.0-py3-none-any.whl",
	.want = NULL,
	.served = "files/cordon_stub-1.0-py3-none-any.whl",
	.first = "GET /simple/cordon-stub/ ",
};

/* C's script inside, on HOST, allowing ALLOW (and C's name). */
static struct run_result client_in(struct world *w, const struct client *c, const char *host,
				   int port, const char *label, const char *allow)
{
	char portstr[16];
	snprintf(portstr, sizeof(portstr), "%d", port);
	char *opts = fmt("--allow-domain %s%s%s", c->name, allow ? " --allow-domain " : "",
			 allow ? allow : "");
	char *cmd[] = {"/bin/sh",    "-c",    (char *)c->script, "sh",
		       (char *)host, portstr, (char *)label,     NULL};
	struct run_result r = run_in(w, opts, cmd);
	free(opts);
	return r;
}

/* Whether the files A and B exist and hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	while (same) {
		int x = getc(fa), y = getc(fb);
		same = x == y;
		if (x == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Whether C's attempt LABEL left what it fetches in the project. */
static bool client_made(const struct world *w, const struct client *c, const char *label)
{
	char *p = fmt("%s/got-%s/%s", w->proj, label, c->made);
	char *served = c->served ? fmt("%s/srv/%s", w->dir, c->served) : NULL;
	bool ok = served ? same_bytes(p, served) : contains(p, c->want);
	free(served);
	free(p);
	return ok;
}

/* C through the proxy to its own server on 127.0.0.4: its allowed name
 * gets through (what it fetched is in the project, the server logged the
 * request with that Host); evil.test, mapped to the same server but not
 * allowed, fails and the server never hears of it; the control is the
 * same attempt with evil.test allowed, which gets through. */
static void client_by_domain(const struct client *c, bool as_user)
{
	struct world w;
	world_init(&w, "pxclient", "");
	char *hosts = fmt("CORDON_TEST_HOSTS=%s=127.0.0.4,evil.test=127.0.0.4", c->name);
	world_setenv(&w, hosts);
	free(hosts);
	if (as_user)
		world_as_user(&w);
	/* The server's files: outside the project, made as root (the server
	 * reads them as root). */
	char *root = path_join(w.dir, "srv");
	struct httpd h = httpd_files("127.0.0.4", w.dir, "log", root);
	char portstr[16];
	snprintf(portstr, sizeof(portstr), "%d", h.port);
	char *home = fmt("HOME=%s", w.dir);
	char *stock_env[] = {"PATH=/usr/bin:/bin", home, "GIT_CONFIG_NOSYSTEM=1", NULL};
	char *stock[] = {"/bin/sh", "-c", (char *)c->stock, "sh", portstr, (char *)c->name, NULL};
	struct run_result r = run_cmd(stock, stock_env, w.dir, 20000);
	if (r.status != 0)
		httpd_stop(&h);
	cr_assert_eq(r.status, 0, "stocking the server: %s", r.err);
	run_free(&r);

	r = client_in(&w, c, c->name, h.port, "allowed", NULL);
	cr_expect_eq(r.status, 0, "%s: %s %s", c->name, r.out, r.err);
	cr_expect(client_made(&w, c, "allowed"), "%s: nothing fetched: %s", c->name, r.err);
	char *host_hdr = fmt("%s:%d", c->name, h.port);
	cr_expect(httpd_got(&h, c->first, 2000), "%s: no %s: %s", c->name, c->first, r.err);
	cr_expect(httpd_got(&h, host_hdr, 10), "%s: not named in the request", c->name);
	free(host_hdr);
	run_free(&r);

	r = client_in(&w, c, "evil.test", h.port, "refused", NULL);
	cr_expect_neq(r.status, 0, "evil.test: %s %s", r.out, r.err);
	cr_expect_not(client_made(&w, c, "refused"), "evil.test: fetched");
	cr_expect_not(httpd_got(&h, "evil.test", 300), "evil.test: the server got a request");
	cr_expect(strstr(r.err, "cordon: evil.test: not in allowed_domains") != NULL, "%s", r.err);
	run_free(&r);

	/* Control: the same attempt with evil.test allowed. */
	r = client_in(&w, c, "evil.test", h.port, "control", "evil.test");
	cr_expect_eq(r.status, 0, "control: %s %s", r.out, r.err);
	cr_expect(client_made(&w, c, "control"), "control: nothing fetched: %s", r.err);
	cr_expect(httpd_got(&h, "evil.test", 2000), "control: the server did not get it");
	run_free(&r);

	httpd_stop(&h);
	free(home);
	free(root);
	world_free(&w);
}

/* Skip where the world's PATH (/usr/bin:/bin) has no PROG. */
static void need_program(const char *prog)
{
	char *a = path_join("/usr/bin", prog), *b = path_join("/bin", prog);
	bool found = access(a, X_OK) == 0 || access(b, X_OK) == 0;
	free(a);
	free(b);
	if (!found)
		cr_skip_test("%s is not installed", prog);
}

static void need_pip(void)
{
	char *argv[] = {"/usr/bin/python3", "-m", "pip", "--version", NULL};
	struct run_result r = run_cmd(argv, NULL, NULL, 20000);
	int status = r.status;
	run_free(&r);
	if (status != 0)
		cr_skip_test("/usr/bin/python3 has no pip");
}

Test(proxy, git_http_by_domain, .timeout = 60)
{
	need_program("git");
	client_by_domain(&git_client, false);
}

Test(proxy, git_http_by_domain_as_user, .timeout = 60)
{
	need_program("git");
	client_by_domain(&git_client, true);
}

Test(proxy, npm_registry_by_domain, .timeout = 60)
{
	need_program("npm");
	client_by_domain(&npm_client, false);
}

Test(proxy, npm_registry_by_domain_as_user, .timeout = 60)
{
	need_program("npm");
	client_by_domain(&npm_client, true);
}

Test(proxy, pip_index_by_domain, .timeout = 60)
{
	need_pip();
	client_by_domain(&pip_client, false);
}

Test(proxy, pip_index_by_domain_as_user, .timeout = 60)
{
	need_pip();
	client_by_domain(&pip_client, true);
}

/* ---- bypasses ------------------------------------------------------------------ */

struct bypass {
	char kind[8];
	int family;
	bool stream;
	char host[16];
	bool as_user;
};

static struct bypass bypasses[] = {
	{"tcp", AF_INET, true, "127.0.0.1", false},   {"tcp", AF_INET6, true, "::1", false},
	{"udp", AF_INET, false, "127.0.0.1", false},  {"udp", AF_INET6, false, "::1", false},
	{"mptcp", AF_INET, true, "127.0.0.1", false}, {"tcp", AF_INET, true, "127.0.0.1", true},
	{"udp", AF_INET, false, "127.0.0.1", true},   {"tcp", AF_INET6, true, "::1", true},
};

ParameterizedTestParameters(proxy, direct_connections_refused)
{
	return cr_make_param_array(struct bypass, bypasses, sizeof(bypasses) / sizeof(bypasses[0]));
}

/* The proxy variables unset and a direct connection (TCP, UDP, MPTCP,
 * IPv4 and IPv6): refused; with the whole network, the same reaches the
 * listener (the control). */
ParameterizedTest(struct bypass *c, proxy, direct_connections_refused)
{
	struct world w;
	proxy_world(&w, "pxdirect", c->as_user, 0);
	for (int limited = 0; limited <= 1; limited++) {
		struct listener l = listen_on(c->family, c->stream);
		char *script;
		cr_assert(asprintf(&script,
				   "unset HTTP_PROXY HTTPS_PROXY ALL_PROXY http_proxy https_proxy "
				   "all_proxy; exec cordon-probe %s %s %d direct-%s-%d",
				   c->kind, c->host, l.port, c->kind, limited) > 0);
		char *args[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = run_in(&w, limited ? DOMAINS : NULL, args);
		char *got = received(&l, limited ? 300 : 2000);
		char want[32];
		snprintf(want, sizeof(want), "direct-%s-%d", c->kind, limited);
		if (limited)
			cr_expect_null(strstr(got, want), "%s got through: %s", want, r.err);
		else if (strcmp(c->kind, "mptcp") != 0 || strstr(r.out, "sent"))
			cr_expect(strstr(got, want) != NULL, "control: %s %s", r.out, r.err);
		if (limited && strcmp(c->kind, "mptcp") != 0)
			cr_expect(strstr(r.err, "only through cordon's proxy") != NULL, "%s",
				  r.err);
		run_free(&r);
		free(got);
		free(script);
		close(l.fd);
	}
	world_free(&w);
}

/* Through the proxy to places it must not lead: an IP literal not listed,
 * an IPv6 literal, a listed name that leads to a loopback service (here
 * the test map's loop.test on 127.0.0.1, which is refused as loopback is
 * the allowed-name's only way there; "localhost", which no list may
 * name), the proxy itself. Control: the same listener through an allowed name. */
static void through_the_proxy(bool as_user)
{
	struct world w;
	proxy_world(&w, "pxvia", as_user, 0);
	struct listener l4 = listen_on(AF_INET, true);
	struct listener l6 = listen_on(AF_INET6, true);
	struct run_result r =
		sh_in(&w, DOMAINS,
		      "curl --noproxy '' -sS -m 5 http://127.0.0.1:%d/ip-literal; "
		      "curl --noproxy '' -sS -m 5 -p http://127.0.0.1:%d/ip-literal-connect; "
		      "curl --noproxy '' -sS -m 5 'http://[::1]:%d/v6-literal'; "
		      "curl --noproxy '' -sS -m 5 -p 'http://[::1]:%d/v6-literal-connect'; "
		      "curl --noproxy '' -sS -m 5 -x \"$ALL_PROXY\" 'http://[::1]:%d/v6-socks'; "
		      "curl --noproxy '' -sS -m 5 http://localhost:%d/localhost; "
		      "curl --noproxy '' -sS -m 5 -p http://localhost:%d/localhost-connect; "
		      "curl --noproxy '' -sS -m 5 -p http://127.0.0.1:${HTTP_PROXY##*:}/self; "
		      "true",
		      l4.port, l4.port, l6.port, l6.port, l6.port, l4.port, l4.port);
	char *got4 = received(&l4, 300), *got6 = received(&l6, 100);
	cr_expect_eq(got4[0], '\0', "reached 127.0.0.1: %s / %s", got4, r.err);
	cr_expect_eq(got6[0], '\0', "reached ::1: %s / %s", got6, r.err);
	cr_expect(strstr(r.err, "127.0.0.1: not in allowed_domains") != NULL, "%s", r.err);
	free(got4);
	free(got6);
	run_free(&r);
	/* Control: the name map's loop.test, allowed, leads the proxy to the
	 * same listener (test-map names may be loopback). */
	r = sh_in(&w, "--allow-domain loop.test",
		  "curl -sS -m 5 http://loop.test:%d/control; "
		  "curl -sS -m 5 -p \"http://loop.test:${HTTP_PROXY##*:}/self\"; true",
		  l4.port);
	got4 = received(&l4, 2000);
	cr_expect(strstr(got4, "GET /control") != NULL, "control: %s / %s", got4, r.err);
	cr_expect(strstr(r.err, "loop.test: refused by cordon's proxy: that is cordon's proxy "
				"itself") != NULL,
		  "%s", r.err);
	free(got4);
	run_free(&r);
	close(l4.fd);
	close(l6.fd);
	world_free(&w);
}

Test(proxy, ip_literals_loopback_and_itself_refused)
{
	through_the_proxy(false);
}

Test(proxy, ip_literals_loopback_and_itself_refused_as_user)
{
	through_the_proxy(true);
}

/* A CONNECT (or a SOCKS5 CONNECT) to an allowed name, then a TLS
 * ClientHello naming another host: the server never sees it. Control:
 * the same with the right name. */
static void sni(bool as_user)
{
	struct world w;
	proxy_world(&w, "pxsni", as_user, 0);
	struct httpd h = httpd_start("127.0.0.3", w.dir, "log");
	static const char py[] =
		"import os, socket, ssl, sys\n"
		"p = os.environ['HTTP_PROXY'].rsplit(':', 1)\n"
		"s = socket.create_connection(('127.0.0.1', int(p[1])))\n"
		"if sys.argv[2] == 'socks':\n"
		"    s.sendall(b'\\x05\\x01\\x00'); print(s.recv(2))\n"
		"    s.sendall(b'\\x05\\x01\\x00\\x03\\x08tls.test' + (%d).to_bytes(2, 'big'))\n"
		"    print(s.recv(10))\n"
		"else:\n"
		"    s.sendall(b'CONNECT tls.test:%d HTTP/1.1\\r\\nHost: tls.test\\r\\n\\r\\n')\n"
		"    print(s.recv(100))\n"
		"c = ssl.create_default_context(); c.check_hostname = False; c.verify_mode = "
		"ssl.CERT_NONE\n"
		"try:\n"
		"    c.wrap_socket(s, server_hostname=sys.argv[1])\n"
		"except Exception as e:\n"
		"    print(e)\n";
	char *text;
	cr_assert(asprintf(&text, py, h.port, h.port) > 0);
	free(write_file(w.proj, "sni.py", text));
	free(text);
	struct run_result r =
		sh_in(&w, DOMAINS,
		      "for m in connect socks; do /usr/bin/python3 sni.py evil.test $m; "
		      "done; /usr/bin/python3 sni.py tls.test socks; true");
	/* The server gets the right hello (it names tls.test), never the other. */
	cr_expect(httpd_got(&h, "tls.test", 3000), "control hello did not arrive: %s %s", r.out,
		  r.err);
	cr_expect(!httpd_got(&h, "evil.test", 10), "a hello for evil.test got through");
	cr_expect(strstr(r.err, "SNI) differs from the CONNECT host") != NULL, "%s", r.err);
	run_free(&r);
	httpd_stop(&h);
	world_free(&w);
}

Test(proxy, sni_must_match_the_connect_host)
{
	sni(false);
}

Test(proxy, sni_must_match_the_connect_host_as_user)
{
	sni(true);
}

/* A name lookup from inside goes nowhere: a DNS query to a resolver the
 * test runs on loopback (UDP and TCP) never arrives; with the whole
 * network it does (the control). And a made-up name through the proxy is
 * refused before it is resolved (only allowed names are). */
Test(proxy, dns_lookups_refused)
{
	struct world w;
	proxy_world(&w, "pxdns", false, 0);
	for (int limited = 0; limited <= 1; limited++) {
		struct listener u = listen_on(AF_INET, false);
		struct listener t = listen_on(AF_INET, true);
		struct run_result r = sh_in(
			&w, limited ? DOMAINS : NULL,
			"/usr/bin/python3 -c \"import socket\n"
			"q = b'lookup secret-%d-xyz.example'\n"
			"try:\n"
			"    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(q, "
			"('127.0.0.1', %d))\n"
			"except Exception as e: print(e)\n"
			"try:\n"
			"    s = socket.create_connection(('127.0.0.1', %d)); s.sendall(q)\n"
			"except Exception as e: print(e)\n\"; "
			"%s",
			limited, u.port, t.port,
			/* Only where it cannot leave: the control has no proxy. */
			limited ? "curl -sS -m 5 http://secret-1-abc.example/" : "true");
		char *gu = received(&u, limited ? 300 : 2000),
		     *gt = received(&t, limited ? 100 : 2000);
		char want[32];
		snprintf(want, sizeof(want), "secret-%d-xyz", limited);
		if (limited) {
			cr_expect_null(strstr(gu, want), "UDP query got through");
			cr_expect_null(strstr(gt, want), "TCP query got through");
			cr_expect(strstr(r.err, "secret-1-abc.example: not in allowed_domains") !=
					  NULL,
				  "%s", r.err);
		} else {
			cr_expect(strstr(gu, want) != NULL, "control (UDP): %s", r.err);
			cr_expect(strstr(gt, want) != NULL, "control (TCP): %s", r.err);
		}
		free(gu);
		free(gt);
		run_free(&r);
		close(u.fd);
		close(t.fd);
	}
	world_free(&w);
}

/* denied_domains wins over allowed_domains; the config's list works
 * without the flag; explain shows the rules. */
Test(proxy, config_lists_and_explain)
{
	struct world w;
	world_init(&w, "pxcfg",
		   ", \"allowed_domains\": [\"*.test\"], \"denied_domains\": "
		   "[\"evil.test\"]");
	world_setenv(&w, "CORDON_TEST_HOSTS=good.test=127.0.0.2,evil.test=127.0.0.2");
	struct httpd h = httpd_start("127.0.0.2", w.dir, "log");
	struct run_result r = sh_in(&w, NULL,
				    "curl -sS http://good.test:%d/wild-allowed; "
				    "curl -sS http://evil.test:%d/denied; true",
				    h.port, h.port);
	cr_expect(httpd_got(&h, "GET /wild-allowed", 2000), "%s", r.err);
	cr_expect(!httpd_got(&h, "/denied", 10), "denied_domains did not win");
	cr_expect(strstr(r.err, "evil.test: refused by denied_domains") != NULL, "%s", r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, NULL);
	cr_expect(strstr(r.out, "network:        by domain") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "domains:        *.test") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "denied (wins):  evil.test") != NULL, "%s", r.out);
	run_free(&r);
	/* --no-network still means nothing at all. */
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--no-network", NULL);
	cr_expect(strstr(r.out, "network:        blocked") != NULL, "%s", r.out);
	run_free(&r);
	httpd_stop(&h);
	world_free(&w);
}

/* denied_domains alone limits nothing (the proxy runs only for an allowed
 * list): the session reached the denied host, and explain said "network:
 * allowed" (round 35 T1). Refused instead, one line naming the file and
 * the key, 125, nothing ran; as root and as the ordinary user. Controls:
 * with --allow-domain the same config runs and refuses the denied host;
 * with --no-network nothing is open to refuse. */
Test(proxy, denied_domains_alone_is_refused, .timeout = 60)
{
	for (int as_user = 0; as_user < 2; as_user++) {
		struct world w;
		world_init(&w, "pxdeny", ", \"denied_domains\": [\"evil.test\"]");
		if (as_user)
			world_as_user(&w);
		world_setenv(&w, "CORDON_TEST_HOSTS=good.test=127.0.0.2,evil.test=127.0.0.2");
		struct httpd h = httpd_start("127.0.0.2", w.dir, "log");
		char *marker = path_join(w.proj, "ran");
		char *script = fmt("touch %s; curl -sS http://evil.test:%d/denied; "
				   "curl -sS http://good.test:%d/allowed; true",
				   marker, h.port, h.port);
		char *want = fmt("cordon: %s: denied_domains: refuses nothing without "
				 "allowed_domains",
				 w.cfg);
		struct run_result r = sh_in(&w, NULL, "%s", script);
		cr_expect_eq(r.status, 125, "as user %d: %s", as_user, r.err);
		cr_expect(strncmp(r.err, want, strlen(want)) == 0 &&
				  strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
			  "as user %d: %s", as_user, r.err);
		cr_expect_not(file_exists(marker), "as user %d: the command ran", as_user);
		cr_expect(!httpd_got(&h, "/denied", 300), "as user %d: reached", as_user);
		run_free(&r);
		char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
		r = world_run(&w, explain, w.proj);
		cr_expect(r.status == 125 && strncmp(r.err, want, strlen(want)) == 0,
			  "as user %d: explain: %d %s%s", as_user, r.status, r.out, r.err);
		run_free(&r);
		explain[1] = "check"; /* (round 35b U4: it said "fully enforceable") */
		r = world_run(&w, explain, w.proj);
		cr_expect(r.status == 125 && strstr(r.err, want) &&
				  strstr(r.out, "config:    refused"),
			  "as user %d: check: %d %s%s", as_user, r.status, r.out, r.err);
		run_free(&r);

		r = sh_in(&w, "--allow-domain good.test", "%s", script);
		cr_expect(file_exists(marker), "as user %d: control: %s", as_user, r.err);
		cr_expect(httpd_got(&h, "GET /allowed", 2000), "as user %d: control: %s", as_user,
			  r.err);
		cr_expect(!httpd_got(&h, "/denied", 10) &&
				  strstr(r.err, "evil.test: refused by denied_domains"),
			  "as user %d: control: %s", as_user, r.err);
		run_free(&r);
		unlink(marker);
		r = sh_in(&w, "--no-network", "%s", script);
		cr_expect(file_exists(marker), "as user %d: --no-network: %s", as_user, r.err);
		run_free(&r);
		httpd_stop(&h);
		free(marker), free(script), free(want);
		world_free(&w);
	}
}

/* Bad names: one line naming the key (or flag) and the value, 125, and
 * nothing ran. */
Test(proxy, bad_names_refused)
{
	struct world w;
	world_init(&w, "pxbad", ", \"allowed_domains\": [\"ok.example\", \"bad name\"]");
	char *ran = path_join(w.proj, "ran");
	struct run_result r = sh_in(&w, NULL, "echo ran > ran");
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "allowed_domains[1]") && strstr(r.err, "\"bad name\""), "%s",
		  r.err);
	cr_expect(!file_exists(ran));
	run_free(&r);
	/* (And hosts the proxy never reaches, round 58c F3: listed, they
	 * let nothing through.) */
	const char *bad[] = {"*",          "a.*.example",    "[::1]",
			     "::1",        "x.example:443",  "EXAMPLE.com",
			     "-a.example", "*.10.0.0.1",     "127.1",
			     "localhost",  "a.localhost",    "127.0.0.1",
			     "0.0.0.0",    "169.254.169.254"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *opt;
		cr_assert(asprintf(&opt, "--allow-domain %s", bad[i]) > 0);
		r = sh_in(&w, opt, "echo ran > ran");
		cr_expect_eq(r.status, 125, "%s accepted", bad[i]);
		cr_expect(strstr(r.err, "--allow-domain") != NULL, "%s: %s", bad[i], r.err);
		run_free(&r);
		free(opt);
	}
	/* A URL pasted in is told as one (45b F2: it was told of IPv6 and ports). */
	r = sh_in(&w, "--allow-domain https://registry.npmjs.org/", "echo ran > ran");
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "a URL: give the host name alone (\"registry.npmjs.org\")"), "%s",
		  r.err);
	run_free(&r);
	r = sh_in(&w, "--allow-domain registry.npmjs.org/", "echo ran > ran");
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "a path: give the host name alone (\"registry.npmjs.org\")"), "%s",
		  r.err);
	run_free(&r);
	cr_expect(!file_exists(ran));
	free(ran);
	world_free(&w);
	world_init(&w, "pxbadlo", ", \"allowed_domains\": [\"ok.example\", \"127.0.0.1\"]");
	ran = path_join(w.proj, "ran");
	r = sh_in(&w, NULL, "echo ran > ran");
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "allowed_domains[1]") && strstr(r.err, "never reaches"), "%s",
		  r.err);
	cr_expect(!file_exists(ran));
	run_free(&r);
	free(ran);
	world_free(&w);
}

/* The ClientHello parser on every prefix and every one-byte corruption of
 * a real hello: never past its bounds (ASan builds check), and the SNI
 * found only in the whole one. */
Test(proxy, sni_parser_bounds)
{
	/* A minimal ClientHello with server_name "good.test". */
	unsigned char h[] = {
		0x16, 0x03, 0x01, 0x00, 0x41, /* record, 65 bytes */
		0x01, 0x00, 0x00, 0x3d,       /* ClientHello, 61 bytes */
		0x03, 0x03,                   /* version */
		0,    0,    0,    0,    0,    0,   0,   0,   0,   0, 0, 0, 0, 0, 0, 0, /* random */
		0,    0,    0,    0,    0,    0,   0,   0,   0,   0, 0, 0, 0, 0, 0, 0, /* */
		0x00,                         /* session id */
		0x00, 0x02, 0x13, 0x01,       /* suites */
		0x01, 0x00,                   /* compression */
		0x00, 0x12,                   /* extensions: 18 */
		0x00, 0x00, 0x00, 0x0e,       /* server_name, 14 */
		0x00, 0x0c, 0x00, 0x00, 0x09, /* list, host_name, 9 */
		'g',  'o',  'o',  'd',  '.',  't', 'e', 's', 't',
	};
	char out[64];
	cr_assert_eq(cordon_tls_sni(h, sizeof(h), out, sizeof(out)), 1);
	cr_expect_str_eq(out, "good.test");
	for (size_t n = 0; n < sizeof(h); n++) {
		unsigned char *cut = malloc(n ? n : 1);
		memcpy(cut, h, n);
		int r = cordon_tls_sni(cut, n, out, sizeof(out));
		cr_expect(r == -EAGAIN || r == -EINVAL, "prefix %zu: %d", n, r);
		free(cut);
	}
	for (size_t i = 0; i < sizeof(h); i++)
		for (int b = 0; b < 256; b += 17) {
			unsigned char *c = malloc(sizeof(h));
			memcpy(c, h, sizeof(h));
			c[i] = (unsigned char)b;
			(void)cordon_tls_sni(c, sizeof(h), out, sizeof(out));
			free(c);
		}
}

/* The embedded program for network by domain is what the rules compile to. */
Test(proxy, embedded_filter_matches_the_rules)
{
	struct sock_fprog prog;
	cordon_seccomp_program_supervised(true, false, true, false, false, &prog);
	expect_embedded(CORDON_SECCOMP_NETWORK | CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_DOMAINS,
			&prog);
}

/* A TCP listener inside would let anyone in, and the project out: by
 * domain, bind is refused and so is listen (which binds a socket that is
 * not, on every address). Judged from outside: the test connects to the
 * port the listener got and sends bytes, which the listener inside would
 * write to a file. Control: with the network whole the same listener gets
 * them. A unix listener keeps working. */
static void no_tcp_listener(bool as_user)
{
	struct world w;
	proxy_world(&w, "pxlisten", as_user, 0);
	const char *py =
		"import socket,sys,os\n"
		"port=os.path.join(sys.argv[1],'port'); got=os.path.join(sys.argv[1],'got')\n"
		"s=socket.socket()\n"
		"try:\n"
		"  s.bind(('127.0.0.1',0)) if sys.argv[2]=='bind' else None\n"
		"  s.listen(1)\n"
		"except OSError as e:\n"
		"  print('refused', e); sys.exit(0)\n"
		"open(port+'.tmp','w').write(str(s.getsockname()[1])); os.rename(port+'.tmp',port)\n"
		"s.settimeout(10); c,_=s.accept(); open(got,'wb').write(c.recv(64))\n";
	char *pyfile = write_file(w.proj, "listen.py", py);
	char *u = path_join(w.proj, "u.sock");
	char *script = NULL;
	cr_assert(asprintf(&script,
			   "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); "
			   "s.bind(sys.argv[1]); s.listen(1); print(\"unix-ok\")' %s",
			   u) > 0);
	if (as_user)
		world_give(&w);
	const char *modes[] = {"bind", "listen"};
	for (size_t m = 0; m < 2; m++)
		for (int limited = 0; limited <= 1; limited++) {
			char *portf = path_join(w.proj, "port"), *gotf = path_join(w.proj, "got");
			unlink(portf);
			unlink(gotf);
			char *args[] = {"/usr/bin/python3", pyfile, w.proj, (char *)modes[m], NULL};
			char *full[] = {CORDON_BIN,       "run",       "--config", w.cfg,
					"--allow-domain", "good.test", "--",       args[0],
					args[1],          args[2],     args[3],    NULL};
			if (!limited) {
				full[4] = "--";
				for (int i = 5; i < 9; i++)
					full[i] = args[i - 5];
				full[9] = NULL;
			}
			pid_t pid = world_spawn(&w, full, w.proj);
			/* Listening, or refused and gone. */
			bool listening = false;
			for (long end = ms_now() + 8000;
			     !listening && ms_now() < end && !wait_gone(pid, 0);)
				listening = wait_exists(portf, 50);
			listening = listening || file_exists(portf);
			if (listening) {
				char *p = read_file(portf);
				struct sockaddr_in sa = {.sin_family = AF_INET,
							 .sin_port = htons((uint16_t)atoi(p)),
							 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
				int fd = socket(AF_INET, SOCK_STREAM, 0);
				if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
					(void)!write(fd, "came-in", 7);
				close(fd);
				free(p);
				wait_exists(gotf, 5000);
			}
			wait_gone(pid, 15000);
			if (limited)
				cr_expect_not(contains(gotf, "came-in"),
					      "%s: a listener inside took a "
					      "connection by domain",
					      modes[m]);
			else
				cr_expect(contains(gotf, "came-in"),
					  "control (%s): the listener "
					  "did not get the bytes",
					  modes[m]);
			free(portf);
			free(gotf);
		}
	char *args[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = run_in(&w, DOMAINS, args);
	cr_expect(strstr(r.out, "unix-ok") != NULL, "a unix listener by domain: %s", r.err);
	run_free(&r);
	free(script);
	free(u);
	free(pyfile);
	world_free(&w);
}

Test(proxy, no_tcp_listener_by_domain, .timeout = 90)
{
	no_tcp_listener(false);
}

Test(proxy, no_tcp_listener_by_domain_as_user, .timeout = 90)
{
	no_tcp_listener(true);
}

/* learn lists the host the proxy refused, with the allowed_domains line;
 * an allowed one is not listed. */
Test(proxy, learn_lists_refused_hosts, .timeout = 60)
{
	struct world w;
	proxy_world(&w, "pxlearn", false, 0);
	struct httpd h = httpd_start("127.0.0.2", w.dir, "pxlearn");
	char *script;
	cr_assert(asprintf(&script,
			   "curl -s -m 5 http://good.test:%d/ok >/dev/null; "
			   "curl -s -m 5 http://evil.test:%d/no >/dev/null; true",
			   h.port, h.port) > 0);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--allow-domain", "good.test", "--",
			"/bin/sh",  "-c",    script,     NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(httpd_got(&h, "GET /ok", 3000), "control: the allowed host: %s", r.err);
	cr_expect_not(httpd_got(&h, "GET /no", 300), "the refused host got the request");
	cr_expect(strstr(r.err, "network: refused evil.test  → allowed_domains") != NULL, "%s",
		  r.err);
	cr_expect(strstr(r.err, "\"allowed_domains\": [ \"evil.test\" ]") != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "refused good.test"), "%s", r.err);
	run_free(&r);
	free(script);
	httpd_stop(&h);
	world_free(&w);
}

/* Round 53b F1: a listed address (or a name leading to it) that is one of
 * this machine's own interfaces' (its LAN address): a service listening
 * on all addresses answered through the proxy. In a network namespace of
 * the test's own, whose loopback interface also holds 10.253.7.1 (which
 * no rule on 127/8 covers; this kernel has no dummy interfaces), and a
 * listener there. Control: outside, the listener is reached. */
static void own_interface(bool as_user)
{
	cr_assert_eq(unshare(CLONE_NEWNET), 0, "unshare: %s", strerror(errno));
	cr_assert_eq(system("ip link set lo up && ip addr add 10.253.7.1/32 dev lo"), 0);
	struct listener l = {.stream = true};
	l.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);
	cr_assert_eq(inet_pton(AF_INET, "10.253.7.1", &a.sin_addr), 1);
	cr_assert_eq(bind(l.fd, (struct sockaddr *)&a, len), 0, "bind: %s", strerror(errno));
	cr_assert_eq(listen(l.fd, 16), 0);
	cr_assert_eq(getsockname(l.fd, (struct sockaddr *)&a, &len), 0);
	l.port = ntohs(a.sin_port);
	struct world w;
	proxy_world(&w, "pxown", as_user, 0);
	struct run_result r = sh_in(&w, "--allow-domain 10.253.7.1",
				    "curl -sS -m 5 -p http://10.253.7.1:%d/own-connect; "
				    "curl -sS -m 5 http://10.253.7.1:%d/own-get; true",
				    l.port, l.port);
	char *got = received(&l, 300);
	cr_expect_eq(got[0], '\0', "reached the machine's own address: %s / %s", got, r.err);
	cr_expect(strstr(r.err, "10.253.7.1: refused by cordon's proxy: it resolves to an "
				"address of this machine") != NULL,
		  "%s", r.err);
	free(got);
	run_free(&r);
	char *control = fmt("curl -sS -m 5 http://10.253.7.1:%d/control; true", l.port);
	char *argv[] = {"/bin/sh", "-c", control, NULL};
	r = world_run(&w, argv, w.proj);
	got = received(&l, 2000);
	cr_expect(strstr(got, "GET /control") != NULL, "control: %s / %s", got, r.err);
	free(got);
	free(control);
	run_free(&r);
	world_free(&w);
	close(l.fd);
}

Test(proxy, the_machine_s_own_addresses_refused)
{
	own_interface(false);
}

Test(proxy, the_machine_s_own_addresses_refused_as_user)
{
	own_interface(true);
}
