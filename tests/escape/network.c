/* Escape routes to the network, abstract unix sockets and the terminal. Listeners run outside on
 * loopback; every offline case first runs online (the control), so a listener
 * that never receives anything cannot make a test pass. */
#include <netinet/in.h>
#include <stddef.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "both.h"
#include "helpers.h"

/* What the session says, once, at the first internet socket refused offline. */
#define OFFLINE_SAID "cordon: the network is off in this session"

static struct run_result probe_in(struct world *w, bool offline, char *const args[])
{
	return run_in(w, offline ? "--no-network" : NULL, args);
}

struct net_case {
	char kind[8];
	int family;
	bool stream; /* what the listener is */
	char host[16];
};

static struct net_case net_cases[] = {
	{"tcp", AF_INET, true, "127.0.0.1"},   {"tcp", AF_INET6, true, "::1"},
	{"udp", AF_INET, false, "127.0.0.1"},  {"udp", AF_INET6, false, "::1"},
	{"mptcp", AF_INET, true, "127.0.0.1"},
};

ParameterizedTestParameters(escape, offline_means_offline)
{
	return cr_make_param_array(struct net_case, net_cases,
				   sizeof(net_cases) / sizeof(net_cases[0]));
}

ParameterizedTest(struct net_case *c, escape, offline_means_offline)
{
	struct world w;
	world_init(&w, "net", "");
	for (int offline = 0; offline <= 1; offline++) {
		struct listener l = listen_on(c->family, c->stream);
		char port[16], msg[64];
		snprintf(port, sizeof(port), "%d", l.port);
		snprintf(msg, sizeof(msg), "hello-%s-%d", c->kind, offline);
		char *args[] = {"cordon-probe", c->kind, c->host, port, msg, NULL};
		struct run_result r = probe_in(&w, offline, args);
		char *got = received(&l, offline ? 300 : 2000);
		if (offline) {
			cr_expect_null(strstr(got, msg), "%s to %s got through offline", c->kind,
				       c->host);
			cr_expect(strstr(r.err, OFFLINE_SAID) != NULL, "not said: %s", r.err);
			cr_expect(strstr(r.err, "Permission denied") ||
					  strstr(r.err, "Operation not permitted"),
				  "a refused call fails at once with EACCES/EPERM: %s", r.err);
			cr_expect_lt(r.status, 128, "the probe was killed, not refused");
		} else {
			cr_expect(strstr(got, msg) != NULL, "%s to %s must work online: %s",
				  c->kind, c->host, r.err);
			cr_expect_null(strstr(r.err, OFFLINE_SAID), "said online: %s", r.err);
		}
		run_free(&r);
		free(got);
		close(l.fd);
	}
	world_free(&w);
}

/* io_uring creates, connects and sends on sockets without the system calls
 * the filter sees (a connect to an outside unix socket included): refused,
 * online too. The control: the same probe outside cordon gets through. */
Test(escape, io_uring_refused_online_and_offline)
{
	struct world w;
	world_init(&w, "uring", "");
	struct listener l = listen_on(AF_INET, false);
	char port[16];
	snprintf(port, sizeof(port), "%d", l.port);
	char *plain[] = {CORDON_PROBE, "uring", "127.0.0.1", port, "uring-outside", NULL};
	struct run_result r = run_cmd(plain, w.env, w.proj, 20000);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "uring-outside") != NULL, "control: io_uring must work: %s", r.err);
	run_free(&r);
	free(got);
	for (int offline = 0; offline <= 1; offline++) {
		char msg[32];
		snprintf(msg, sizeof(msg), "uring-inside-%d", offline);
		char *args[] = {"cordon-probe", "uring", "127.0.0.1", port, msg, NULL};
		r = probe_in(&w, offline, args);
		got = received(&l, 300);
		cr_expect_null(strstr(got, msg), "io_uring got through (offline=%d)", offline);
		cr_expect(strstr(r.err, "Operation not permitted") != NULL, "%s", r.err);
		run_free(&r);
		free(got);
	}
	close(l.fd);
	world_free(&w);
}

/* A raw ICMP socket outside sees every ICMP packet on the host, loopback
 * too. Raw and packet sockets need CAP_NET_RAW, which a root session no
 * longer has (it would sniff the host's traffic): refused online and
 * offline; the control, the same probe outside, is seen. */
Test(escape, raw_icmp)
{
	int mon = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (mon < 0)
		cr_skip_test("a raw socket needs CAP_NET_RAW outside: %s", strerror(errno));
	struct world w;
	world_init(&w, "raw", "");
	for (int round = 0; round < 3; round++) {
		char msg[32];
		snprintf(msg, sizeof(msg), "rawping-%d-%d", getpid(), round);
		char *args[] = {"cordon-probe", "raw", "127.0.0.1", msg, NULL};
		char *plain[] = {CORDON_PROBE, "raw", "127.0.0.1", msg, NULL};
		struct run_result r = round == 0 ? run_cmd(plain, w.env, w.proj, 20000)
						 : probe_in(&w, round == 2, args);
		/* Packets hold NULs: search the raw bytes. */
		char buf[2048];
		bool seen = false;
		struct pollfd p = {.fd = mon, .events = POLLIN};
		while (poll(&p, 1, round ? 300 : 1000) > 0) {
			ssize_t n = recv(mon, buf, sizeof(buf), 0);
			if (n <= 0)
				break;
			seen |= memmem(buf, (size_t)n, msg, strlen(msg)) != NULL;
		}
		if (round == 0)
			cr_assert(seen, "control: a raw ping outside must be seen: %s", r.err);
		else
			cr_expect_not(seen, "a raw ICMP packet left the sandbox (offline=%d)",
				      round == 2);
		run_free(&r);
	}
	close(mon);
	world_free(&w);
}

Test(escape, tiocsti_cannot_type_into_the_terminal)
{
	struct world w;
	world_init(&w, "tiocsti", "");
	char *probe = path_join(w.bin, "cordon-probe");
	/* Unsandboxed, the same probe does inject: the test can fail. */
	char *plain[] = {probe, "tiocsti", "echo PWNED-OUTSIDE\n", NULL};
	char *got = pty_input_after(plain, w.env, w.proj);
	cr_assert(strstr(got, "PWNED-OUTSIDE") != NULL,
		  "control: TIOCSTI should work unsandboxed, got '%s'", got);
	free(got);
	char *sandboxed[] = {CORDON_BIN, "run", "--config", w.cfg,
			     "--",       probe, "tiocsti",  "echo PWNED-INSIDE\n",
			     NULL};
	got = pty_input_after(sandboxed, w.env, w.proj);
	cr_expect_null(strstr(got, "PWNED-INSIDE"),
		       "a sandboxed process typed into the terminal: '%s'", got);
	free(got);
	free(probe);
	world_free(&w);
}

/* Abstract unix sockets have no file to put a Landlock rule on: a listener
 * outside (a D-Bus bus, an X server, a debugger) is reachable by name from
 * anywhere unless Landlock's scoping (ABI 6) closes it. */
Test(escape, abstract_unix_socket_outside)
{
	struct world w;
	world_init(&w, "abstract", "");
	char name[64];
	snprintf(name, sizeof(name), "cordon-test-%d", getpid());
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	memcpy(un.sun_path + 1, name, strlen(name));
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
	cr_assert_eq(bind(s, (struct sockaddr *)&un, len), 0, "bind @%s: %s", name,
		     strerror(errno));
	cr_assert_eq(listen(s, 4), 0);
	struct listener l = {.fd = s, .stream = true};
	/* Control: unsandboxed, the bytes arrive. */
	char *probe = path_join(w.bin, "cordon-probe");
	char *plain[] = {probe, "abstract", name, "abstract-outside", NULL};
	struct run_result r = run_cmd(plain, w.env, w.proj, 20000);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "abstract-outside") != NULL, "control: %s", r.err);
	run_free(&r);
	free(got);
	for (int offline = 0; offline <= 1; offline++) {
		char *args[] = {"cordon-probe", "abstract", name, "abstract-inside", NULL};
		r = probe_in(&w, offline, args);
		got = received(&l, 300);
		cr_expect_null(strstr(got, "abstract-inside"),
			       "reached an abstract socket outside (offline=%d)", offline);
		run_free(&r);
		free(got);
	}
	close(s);
	free(probe);
	world_free(&w);
}

/* Offline, name lookups and connects fail at once, and the session says
 * why exactly once, however many sockets are refused (a lookup's failure
 * alone looks like flaky DNS). Online (the control), a loopback listener
 * gets the connection and nothing is said. */
BOTH_USERS(escape, offline_is_said_once, .timeout = 30)
{
	struct world w;
	world_for(&w, who, "netsaid", "");
	struct listener l = listen_on(AF_INET, true);
	char *script;
	asprintf(&script,
		 "getent hosts example.invalid; python3 -c 'import socket; "
		 "s = socket.create_connection((\"127.0.0.1\", %d), timeout=2); "
		 "s.sendall(b\"reached\")'; getent hosts other.invalid; echo done",
		 l.port);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "reached") != NULL, "control: online, nothing arrived: %s", r.err);
	cr_expect_null(strstr(r.err, OFFLINE_SAID), "said online: %s", r.err);
	free(got);
	run_free(&r);
	r = sh_in(&w, "--no-network", "%s", script);
	got = received(&l, 300);
	cr_expect_null(strstr(got, "reached"), "connected offline");
	cr_expect(strstr(r.out, "done") != NULL, "the script did not finish: %s", r.err);
	const char *first = strstr(r.err, OFFLINE_SAID);
	cr_expect(first != NULL, "not said: %s", r.err);
	cr_expect(!first || !strstr(first + 1, OFFLINE_SAID), "said more than once: %s", r.err);
	free(got);
	run_free(&r);
	free(script);
	close(l.fd);
	world_free(&w);
}
