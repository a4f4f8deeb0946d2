/* Network by domain's proxy as macOS builds it (issue 22): shim/proxy.c
 * with the portable relay (shim/proxy-relay.c) and the portable socket
 * calls, run by cordon-proxy-portable (tests/proxy_portable.c). Each test
 * starts its own servers on 127.0.0.2 and 127.0.0.3 and its own proxy;
 * names reach the servers through the test-only name map
 * (CORDON_TEST_HOSTS). The verdict is what the servers logged: every byte
 * each connection sent them. Each refusal has its allowed twin on the same
 * server. No sandbox is involved (the Seatbelt side is macOS's): the
 * clients are this test, as root. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

#define HOSTS                                                                                      \
	"CORDON_TEST_HOSTS=good.test=127.0.0.2,evil.test=127.0.0.2,yes.x.test=127.0.0.2,"          \
	"no.x.test=127.0.0.2,tls.test=127.0.0.3,bulk.test=127.0.0.3"
#define BULK (16u << 20)

/* ---- servers: each logs every byte each connection sent ----------------- */

struct server {
	pid_t pid;
	int port;
	char *log;
};

static void log_append(const char *log, const char *buf, size_t len)
{
	int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	(void)!write(fd, buf, len); /* one write per connection */
	close(fd);
}

/* Read until the connection ends or 3 s of silence; answer "pong" once,
 * after the first bytes, unless they are a TLS record; log what came and
 * "\n--\n". */
static void serve_log(int c, const char *log)
{
	size_t cap = 1 << 16, got = 0;
	char *buf = malloc(cap + 4);
	bool answered = false;
	struct pollfd p = {.fd = c, .events = POLLIN};
	while (buf && got < cap && poll(&p, 1, 3000) > 0) {
		ssize_t n = read(c, buf + got, cap - got);
		if (n <= 0)
			break;
		if (!answered && buf[0] != 0x16)
			answered = write(c, "pong\n", 5) == 5;
		got += (size_t)n;
	}
	if (buf) {
		memcpy(buf + got, "\n--\n", 4);
		log_append(log, buf, got + 4);
	}
	free(buf);
}

/* The bulk streams: byte 0 is 'B' (no TLS record to judge), then
 * xorshift64* from SEED; their FNV-1a hashes are compared. */
struct stream {
	uint64_t state;
	size_t n;
};

static void stream_fill(struct stream *s, unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++, s->n++) {
		if (s->n == 0) {
			buf[i] = 'B';
			continue;
		}
		s->state ^= s->state >> 12;
		s->state ^= s->state << 25;
		s->state ^= s->state >> 27;
		buf[i] = (unsigned char)((s->state * 0x2545F4914F6CDD1DULL) >> 56);
	}
}

static uint64_t fnv(uint64_t h, const unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ buf[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV0      0xcbf29ce484222325ULL
#define SEED_UP   0x9e3779b97f4a7c15ULL
#define SEED_DOWN 0xd1b54a32d192ed03ULL

/* The hash of BULK bytes of the stream from SEED. */
static uint64_t stream_hash(uint64_t seed)
{
	struct stream s = {.state = seed};
	unsigned char *buf = malloc(1 << 16);
	uint64_t h = FNV0;
	for (size_t done = 0; done < BULK; done += 1 << 16) {
		stream_fill(&s, buf, 1 << 16);
		h = fnv(h, buf, 1 << 16);
	}
	free(buf);
	return h;
}

struct sender {
	int fd;
	uint64_t seed;
	size_t sent;
};

/* Send BULK bytes of SEED's stream on FD, then shut its writing side. */
static void *send_stream(void *arg)
{
	struct sender *s = arg;
	struct stream st = {.state = s->seed};
	unsigned char *buf = malloc(1 << 16);
	while (buf && s->sent < BULK) {
		stream_fill(&st, buf, 1 << 16);
		size_t off = 0;
		while (off < 1 << 16) {
			ssize_t n = send(s->fd, buf + off, (1 << 16) - off, MSG_NOSIGNAL);
			if (n <= 0)
				goto out;
			off += (size_t)n;
		}
		s->sent += 1 << 16;
	}
out:
	free(buf);
	(void)shutdown(s->fd, SHUT_WR);
	return NULL;
}

/* Everything FD sends until it ends: how many bytes, their hash. */
static size_t recv_all(int fd, uint64_t *hash)
{
	unsigned char *buf = malloc(1 << 16);
	size_t got = 0;
	*hash = FNV0;
	for (ssize_t n; buf && (n = recv(fd, buf, 1 << 16, 0)) > 0; got += (size_t)n)
		*hash = fnv(*hash, buf, (size_t)n);
	free(buf);
	return got;
}

/* Both ways at once: BULK bytes of SEED_DOWN out, all that comes in
 * counted and hashed; logged as "bulk got N HASH sent N". */
static void serve_bulk(int c, const char *log)
{
	struct sender s = {.fd = c, .seed = SEED_DOWN};
	pthread_t t;
	if (pthread_create(&t, NULL, send_stream, &s) != 0)
		return;
	uint64_t h;
	size_t got = recv_all(c, &h);
	pthread_join(t, NULL);
	char line[128];
	int n = snprintf(line, sizeof(line), "bulk got %zu %016llx sent %zu\n", got,
			 (unsigned long long)h, s.sent);
	log_append(log, line, (size_t)n);
}

/* A server on IP (an ephemeral port): a process of its own, a child per
 * connection; BULK: serve_bulk, else serve_log. */
static struct server server_start(const char *ip, const char *dir, const char *name, bool bulk)
{
	struct server s = {.log = path_join(dir, name)};
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	inet_pton(AF_INET, ip, &a.sin_addr);
	cr_assert_eq(bind(ls, (struct sockaddr *)&a, sizeof(a)), 0, "bind %s: %s", ip,
		     strerror(errno));
	cr_assert_eq(listen(ls, 16), 0);
	socklen_t len = sizeof(a);
	getsockname(ls, (struct sockaddr *)&a, &len);
	s.port = ntohs(a.sin_port);
	s.pid = fork();
	cr_assert_geq(s.pid, 0);
	if (s.pid == 0) {
		setpgid(0, 0);
		signal(SIGCHLD, SIG_IGN);
		for (;;) {
			int c = accept(ls, NULL, NULL);
			if (c < 0)
				continue;
			if (fork() == 0) {
				close(ls);
				if (bulk)
					serve_bulk(c, s.log);
				else
					serve_log(c, s.log);
				_exit(0);
			}
			close(c);
		}
	}
	setpgid(s.pid, s.pid);
	close(ls);
	return s;
}

static void server_stop(struct server *s)
{
	kill(-s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	free(s->log);
}

/* Whether the server's log holds NEEDLE (bytes, NULs and all), waiting up
 * to MS for it. */
static bool logged(const struct server *s, const char *needle, int ms)
{
	long end = ms_now() + ms;
	for (;;) {
		bool found = false;
		FILE *f = fopen(s->log, "r");
		if (f) {
			char *buf = malloc(1 << 20);
			size_t n = buf ? fread(buf, 1, 1 << 20, f) : 0;
			found = n && memmem(buf, n, needle, strlen(needle));
			free(buf);
			fclose(f);
		}
		if (found || ms_now() >= end)
			return found;
		usleep(10 * 1000);
	}
}

/* How many connections the server has logged (each ends "\n--\n"). */
static size_t connections(const struct server *s)
{
	char *log = read_file(s->log);
	size_t n = 0;
	for (const char *p = log; p && (p = strstr(p, "\n--\n")); p += 4)
		n++;
	free(log);
	return n;
}

/* ---- the proxy: cordon-proxy-portable, as its own process -------------- */

struct proxy {
	pid_t pid;
	int in; /* its stdin: closed, it ends */
	unsigned port;
	char relay[16], hooks[16];
	char *err; /* where its stderr goes */
};

/* The proxy for RULES ("--deny" RULE for a denied one; first "--fork": served
 * by a child, as macOS's watcher serves it), with HOSTS mapped. */
static struct proxy proxy_start(const char *dir, const char *const rules[])
{
	struct proxy px = {.err = path_join(dir, "proxy.err")};
	int in[2], out[2];
	cr_assert_eq(pipe2(in, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
	int err = open(px.err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	cr_assert_geq(err, 0);
	const char *argv[16] = {CORDON_PROXY_PORTABLE_BIN};
	for (size_t i = 0; rules[i]; i++) {
		cr_assert_lt(i + 2, sizeof(argv) / sizeof(argv[0]));
		argv[i + 1] = rules[i];
	}
	char *envp[] = {HOSTS, "PATH=/usr/bin:/bin", NULL};
	px.pid = fork();
	cr_assert_geq(px.pid, 0);
	if (px.pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err, 2);
		execve(argv[0], (char *const *)(uintptr_t)argv, envp);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err);
	px.in = in[1];
	char line[128] = {0};
	size_t got = 0;
	struct pollfd p = {.fd = out[0], .events = POLLIN};
	while (got < sizeof(line) - 1 && !memchr(line, '\n', got) && poll(&p, 1, 5000) > 0) {
		ssize_t n = read(out[0], line + got, sizeof(line) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(out[0]);
	char *said = read_file(px.err);
	cr_assert_eq(sscanf(line, "%u %15s %15s", &px.port, px.relay, px.hooks), 3,
		     "cordon-proxy-portable said \"%s\": %s", line, said ? said : "");
	free(said);
	return px;
}

static void proxy_stop(struct proxy *px)
{
	close(px->in);
	stop_process(px->pid);
	free(px->err);
}

/* A client connection to the proxy (5 s to answer each read). */
static int to_proxy(const struct proxy *px)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)px->port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0, "%s", strerror(errno));
	struct timeval tv = {.tv_sec = 5};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static void send_str(int fd, const char *s)
{
	(void)!send(fd, s, strlen(s), MSG_NOSIGNAL);
}

/* The status code of the HTTP answer on FD (its head read, not more), or
 * -1. */
static int http_status(int fd)
{
	char head[1024];
	size_t got = 0;
	while (got < sizeof(head) - 1) {
		ssize_t n = recv(fd, head + got, 1, 0);
		if (n <= 0)
			return -1;
		got += (size_t)n;
		head[got] = '\0';
		if (strstr(head, "\r\n\r\n"))
			break;
	}
	int code = -1;
	return sscanf(head, "HTTP/1.1 %d", &code) == 1 ? code : -1;
}

/* A CONNECT to HOST:PORT: the connection, its answer's status in *CODE. */
static int tunnel(const struct proxy *px, const char *host, int port, int *code)
{
	int fd = to_proxy(px);
	char req[256];
	snprintf(req, sizeof(req), "CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n", host, port,
		 host, port);
	send_str(fd, req);
	*code = http_status(fd);
	return fd;
}

/* Send WHAT through a CONNECT to HOST:PORT (also when refused: it must go
 * nowhere); the status; "pong" awaited when it was 200. */
static int through_connect(const struct proxy *px, const char *host, int port, const char *what)
{
	int code;
	int fd = tunnel(px, host, port, &code);
	send_str(fd, what);
	if (code == 200) {
		char buf[8] = {0};
		cr_expect_eq(recv(fd, buf, 5, MSG_WAITALL), 5, "%s: no answer", what);
		cr_expect_str_eq(buf, "pong\n");
	}
	close(fd);
	return code;
}

static const char *const RULES[] = {"good.test", "tls.test",  "bulk.test", "*.x.test",
				    "--deny",    "no.x.test", NULL};

Test(proxy_portable, built_portable_with_the_name_map)
{
	/* Every test below relies on both: without them they would pass or
	 * fail for the wrong reason. */
	char *dir = tmp_dir("pxpbuild");
	struct proxy px = proxy_start(dir, RULES);
	cr_expect_str_eq(px.relay, "poll", "the proxy under test is not the portable one");
	cr_expect_str_eq(px.hooks, "hooks", "built without CORDON_TEST_HOOKS (scripts/build)");
	proxy_stop(&px);
	tmp_cleanup(dir);
	free(dir);
}

/* CONNECT: the allowed name reaches the server, the refused one does not
 * (not listed; listed under *.x.test but denied), and each refusal is said
 * once with what allows it. */
Test(proxy_portable, connect_allowed_passes_refused_does_not)
{
	char *dir = tmp_dir("pxpconn");
	struct server s = server_start("127.0.0.2", dir, "log", false);
	struct proxy px = proxy_start(dir, RULES);
	cr_expect_eq(through_connect(&px, "good.test", s.port, "PING connect-allowed"), 200);
	cr_expect_eq(through_connect(&px, "yes.x.test", s.port, "PING wildcard-allowed"), 200);
	cr_expect_eq(through_connect(&px, "evil.test", s.port, "PING connect-refused"), 403);
	cr_expect_eq(through_connect(&px, "evil.test", s.port, "PING connect-refused"), 403);
	cr_expect_eq(through_connect(&px, "no.x.test", s.port, "PING denied-refused"), 403);
	cr_expect(logged(&s, "PING connect-allowed", 3000), "the allowed CONNECT did not arrive");
	cr_expect(logged(&s, "PING wildcard-allowed", 3000), "*.x.test did not arrive");
	cr_expect(!logged(&s, "refused", 0), "a refused CONNECT got through");
	cr_expect_eq(connections(&s), 2, "a refused CONNECT reached the server");
	char *said = read_file(px.err);
	cr_assert(said);
	const char *one = strstr(said, "cordon: evil.test: not in allowed_domains; to allow it");
	cr_expect(one && !strstr(one + 1, "cordon: evil.test:"), "not said once: %s", said);
	cr_expect(strstr(said, "cordon: no.x.test: refused by denied_domains") != NULL, "%s", said);
	free(said);
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* A minimal TLS ClientHello naming NAME into OUT (at least 80 + its
 * length bytes); its length. */
static size_t client_hello(const char *name, unsigned char *out)
{
	size_t nl = strlen(name);
	unsigned char *p = out + 9; /* after the record's and the handshake's headers */
	*p++ = 3;
	*p++ = 3;
	memset(p, 0x5a, 32); /* random */
	p += 32;
	*p++ = 0;                                 /* session id */
	memcpy(p, "\x00\x02\x13\x01\x01\x00", 6); /* one suite; no compression */
	p += 6;
	size_t ext = 4 + 2 + 3 + nl; /* server_name: header, list, one host_name */
	*p++ = (unsigned char)(ext >> 8);
	*p++ = (unsigned char)ext;
	*p++ = 0;
	*p++ = 0;
	*p++ = (unsigned char)((ext - 4) >> 8);
	*p++ = (unsigned char)(ext - 4);
	*p++ = (unsigned char)((3 + nl) >> 8);
	*p++ = (unsigned char)(3 + nl);
	*p++ = 0;
	*p++ = (unsigned char)(nl >> 8);
	*p++ = (unsigned char)nl;
	memcpy(p, name, nl);
	p += nl;
	size_t hs = (size_t)(p - out) - 9;
	unsigned char head[9] = {0x16,
				 3,
				 1,
				 (unsigned char)((hs + 4) >> 8),
				 (unsigned char)(hs + 4),
				 1,
				 0,
				 (unsigned char)(hs >> 8),
				 (unsigned char)hs};
	memcpy(out, head, sizeof(head));
	return (size_t)(p - out);
}

/* A CONNECT to tls.test, then a ClientHello naming another host: the server
 * never sees it. Control: the same with the right name. */
Test(proxy_portable, sni_must_match_the_connect_host)
{
	char *dir = tmp_dir("pxpsni");
	struct server s = server_start("127.0.0.3", dir, "log", false);
	struct proxy px = proxy_start(dir, RULES);
	unsigned char hello[512];
	const char *names[] = {"evil.test", "tls.test"};
	for (size_t i = 0; i < 2; i++) {
		int code;
		int fd = tunnel(&px, "tls.test", s.port, &code);
		cr_expect_eq(code, 200);
		size_t n = client_hello(names[i], hello);
		cr_expect_eq(send(fd, hello, n, MSG_NOSIGNAL), (ssize_t)n);
		if (i == 0) { /* refused: the proxy closes, nothing comes */
			char c;
			cr_expect_leq(recv(fd, &c, 1, 0), 0);
		} else { /* the server logs what came once the connection ends */
			shutdown(fd, SHUT_WR);
			cr_expect(logged(&s, "tls.test", 3000), "the right hello did not arrive");
		}
		close(fd);
	}
	cr_expect(!logged(&s, "evil.test", 0), "a hello naming evil.test got through");
	char *said = read_file(px.err);
	cr_expect(said && strstr(said, "SNI) differs from the CONNECT host"), "%s", said);
	free(said);
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* Plain HTTP: the request line reaches the server in origin form when the
 * Host header names the URL's host; not when it names another, nor for a
 * refused name. */
Test(proxy_portable, plain_http_host_must_match)
{
	char *dir = tmp_dir("pxphttp");
	struct server s = server_start("127.0.0.2", dir, "log", false);
	struct proxy px = proxy_start(dir, RULES);
	struct {
		const char *url_host, *host, *path;
		int code;
	} c[] = {
		{"good.test", "good.test", "host-ok", 200},
		{"good.test", "evil.test", "host-mismatch", 403},
		{"evil.test", "evil.test", "http-refused", 403},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int fd = to_proxy(&px);
		char req[256];
		snprintf(req, sizeof(req), "GET http://%s:%d/%s HTTP/1.1\r\nHost: %s:%d\r\n\r\n",
			 c[i].url_host, s.port, c[i].path, c[i].host, s.port);
		send_str(fd, req);
		/* The server's "pong", or the proxy's refusal and its close. */
		char buf[512] = {0};
		size_t got = 0;
		ssize_t n;
		while (got < sizeof(buf) - 1 && !strstr(buf, "pong") &&
		       (n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0)) > 0)
			got += (size_t)n;
		if (c[i].code == 200)
			cr_expect(strstr(buf, "pong"), "%s: %s", c[i].path, buf);
		else
			cr_expect(strncmp(buf, "HTTP/1.1 403", 12) == 0, "%s: %s", c[i].path, buf);
		close(fd);
	}
	cr_expect(logged(&s, "GET /host-ok HTTP/1.1\r\nHost: good.test:", 3000),
		  "the matching request did not arrive in origin form");
	cr_expect(!logged(&s, "host-mismatch", 0), "a Host that differs got through");
	cr_expect(!logged(&s, "http-refused", 0), "a refused name got through");
	cr_expect_eq(connections(&s), 1, "a refused request reached the server");
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* SOCKS5 CONNECT to NAME:PORT (ATYP 3), or to the IPv4 address IP (ATYP 1)
 * when NAME is NULL; the reply's code (0 granted), -1 when none came.
 * Granted: WHAT sent and "pong" awaited. */
static int through_socks(const struct proxy *px, const char *name, const char *ip, int port,
			 const char *what)
{
	int fd = to_proxy(px);
	unsigned char req[300] = {5, 1, 0}, r[10];
	cr_expect_eq(send(fd, req, 3, MSG_NOSIGNAL), 3);
	cr_expect_eq(recv(fd, r, 2, MSG_WAITALL), 2);
	cr_expect(r[0] == 5 && r[1] == 0, "method %u %u", r[0], r[1]);
	size_t n = 4;
	req[1] = 1; /* CONNECT */
	if (name) {
		req[3] = 3;
		req[n++] = (unsigned char)strlen(name);
		memcpy(req + n, name, strlen(name));
		n += strlen(name);
	} else {
		req[3] = 1;
		inet_pton(AF_INET, ip, req + n);
		n += 4;
	}
	req[n++] = (unsigned char)(port >> 8);
	req[n++] = (unsigned char)port;
	cr_expect_eq(send(fd, req, n, MSG_NOSIGNAL), (ssize_t)n);
	int code = recv(fd, r, 10, MSG_WAITALL) == 10 ? r[1] : -1;
	send_str(fd, what);
	if (code == 0) {
		char buf[8] = {0};
		cr_expect_eq(recv(fd, buf, 5, MSG_WAITALL), 5, "%s: no answer", what);
		cr_expect_str_eq(buf, "pong\n");
	}
	close(fd);
	return code;
}

Test(proxy_portable, socks5_allowed_passes_refused_does_not)
{
	char *dir = tmp_dir("pxpsocks");
	struct server s = server_start("127.0.0.2", dir, "log", false);
	struct proxy px = proxy_start(dir, RULES);
	cr_expect_eq(through_socks(&px, "good.test", NULL, s.port, "PING socks-allowed"), 0);
	cr_expect_eq(through_socks(&px, "evil.test", NULL, s.port, "PING socks-refused"), 2);
	cr_expect_eq(through_socks(&px, "no.x.test", NULL, s.port, "PING socks-denied-refused"), 2);
	/* An address not listed as such: refused (and loopback besides). */
	cr_expect_eq(through_socks(&px, NULL, "127.0.0.2", s.port, "PING socks-ip-refused"), 2);
	cr_expect(logged(&s, "PING socks-allowed", 3000), "the allowed SOCKS5 did not arrive");
	cr_expect(!logged(&s, "refused", 0), "a refused SOCKS5 request got through");
	cr_expect_eq(connections(&s), 1, "a refused SOCKS5 request reached the server");
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* 16 MiB each way at once through a CONNECT tunnel, intact: the server's
 * count and hash of what it received, and the client's of what came back. */
Test(proxy_portable, relays_16_mib_both_ways_intact, .timeout = 60)
{
	char *dir = tmp_dir("pxpbulk");
	struct server s = server_start("127.0.0.3", dir, "log", true);
	struct proxy px = proxy_start(dir, RULES);
	int code;
	int fd = tunnel(&px, "bulk.test", s.port, &code);
	cr_assert_eq(code, 200);
	struct timeval tv = {.tv_sec = 30};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	struct sender up = {.fd = fd, .seed = SEED_UP};
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, send_stream, &up), 0);
	uint64_t down_hash;
	size_t down = recv_all(fd, &down_hash);
	pthread_join(t, NULL);
	close(fd);
	cr_expect_eq(up.sent, BULK);
	char *want = fmt("bulk got %u %016llx sent %u\n", BULK,
			 (unsigned long long)stream_hash(SEED_UP), BULK);
	cr_expect(logged(&s, want, 10000), "the server did not log \"%s\"", want);
	cr_expect_eq(down, BULK, "%zu bytes came back", down);
	cr_expect_eq(down_hash, stream_hash(SEED_DOWN), "what came back differs");
	free(want);
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* As macOS's session runs it: the socket made in one process (the
 * launcher), served by a forked child (the watcher) after the first closed
 * its copy. The same verdicts, and bytes both ways. */
Test(proxy_portable, served_by_a_forked_process)
{
	char *dir = tmp_dir("pxpfork");
	struct server s = server_start("127.0.0.2", dir, "log", false);
	const char *rules[] = {"--fork", "good.test", NULL};
	struct proxy px = proxy_start(dir, rules);
	cr_expect_str_eq(px.relay, "poll");
	cr_expect_eq(through_connect(&px, "good.test", s.port, "PING fork-allowed"), 200);
	cr_expect_eq(through_socks(&px, "good.test", NULL, s.port, "PING fork-socks-allowed"), 0);
	cr_expect_eq(through_connect(&px, "evil.test", s.port, "PING fork-refused"), 403);
	cr_expect(logged(&s, "PING fork-allowed", 3000), "the allowed CONNECT did not arrive");
	cr_expect(logged(&s, "PING fork-socks-allowed", 3000), "the allowed SOCKS5 did not arrive");
	cr_expect(!logged(&s, "refused", 0), "a refused CONNECT got through");
	proxy_stop(&px);
	server_stop(&s);
	tmp_cleanup(dir);
	free(dir);
}
