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
			/* The session's own loopback (netns.c), where nothing
			 * listens: the host's listener gets nothing. */
			cr_expect_null(strstr(got, msg), "%s to %s got through offline", c->kind,
				       c->host);
			cr_expect(!c->stream || strstr(r.err, "Connection refused"),
				  "a connect to the session's own loopback fails at once: %s",
				  r.err);
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

/* A stream listener outside at the abstract name @NAME. */
static struct listener abstract_listener(const char *name)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	memcpy(un.sun_path + 1, name, strlen(name));
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
	cr_assert_eq(bind(s, (struct sockaddr *)&un, len), 0, "bind @%s: %s", name,
		     strerror(errno));
	cr_assert_eq(listen(s, 4), 0);
	return (struct listener){.fd = s, .stream = true};
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
	struct listener l = abstract_listener(name);
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
	close(l.fd);
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
	/* (Offline, a connect to the internet too, TEST-NET-1's 192.0.2.1:
	 * whatever name server the machine has, one is refused.) */
	asprintf(&script,
		 "getent hosts example.invalid; python3 -c 'import socket, sys; "
		 "sys.argv[1:] and socket.create_connection((\"192.0.2.1\", 9), timeout=1)' "
		 "$OFF; python3 -c 'import socket; "
		 "s = socket.create_connection((\"127.0.0.1\", %d), timeout=2); "
		 "s.sendall(b\"reached\")'; getent hosts other.invalid; echo done",
		 l.port);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "reached") != NULL, "control: online, nothing arrived: %s", r.err);
	cr_expect_null(strstr(r.err, OFFLINE_SAID), "said online: %s", r.err);
	free(got);
	run_free(&r);
	r = sh_in(&w, "--no-network", "OFF=1; %s", script);
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

/* Servers of the session's own on its loopback (127.0.0.1 and ::1, TCP and
 * UDP), reached by its clients; then a connect to the port of a listener
 * outside (argv[1]), which sends "reached". */
static const char own_loopback_py[] =
	"import socket, sys\n"
	"for fam, host in ((socket.AF_INET, '127.0.0.1'), (socket.AF_INET6, '::1')):\n"
	"    try:\n"
	"        s = socket.socket(fam); s.bind((host, 0)); s.listen(1)\n"
	"        c = socket.create_connection((host, s.getsockname()[1]), timeout=2)\n"
	"        a, _ = s.accept(); c.sendall(b'x'); a.recv(1); print(host, 'tcp ok')\n"
	"        u = socket.socket(fam, socket.SOCK_DGRAM); u.bind((host, 0))\n"
	"        socket.socket(fam, socket.SOCK_DGRAM).sendto(b'x', u.getsockname())\n"
	"        u.settimeout(2); u.recv(1); print(host, 'udp ok')\n"
	"    except OSError as e:\n"
	"        print(host, e)\n"
	"try:\n"
	"    c = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=2)\n"
	"    c.sendall(b'reached'); print('outside reached')\n"
	"except OSError as e:\n"
	"    print('outside', e.strerror)\n";

/* Offline, the session has a network namespace of its own with its loopback
 * up (netns.c): a test suite's servers on 127.0.0.1 and ::1 work, and
 * nothing of the host's is reached, its loopback listeners included; no
 * "network is off" line for that. Judged outside: the listener got
 * nothing. Control: online, the same client reaches it. */
BOTH_USERS(escape, offline_the_session_s_own_loopback_answers, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ownlo", "");
	struct listener l = listen_on(AF_INET, true);
	char port[16];
	snprintf(port, sizeof(port), "%d", l.port);
	char *argv[] = {"/usr/bin/python3", "-c", (char *)own_loopback_py, port, NULL};
	struct run_result r = run_in(&w, NULL, argv);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "reached"), "control: online, the listener got nothing: %s%s", r.out,
		  r.err);
	free(got);
	run_free(&r);
	r = run_in(&w, "--no-network", argv);
	got = received(&l, 300);
	cr_expect_null(strstr(got, "reached"), "the host's loopback was reached offline: %s",
		       r.out);
	const char *works[] = {"127.0.0.1 tcp ok", "127.0.0.1 udp ok", "::1 tcp ok", "::1 udp ok"};
	for (size_t i = 0; i < sizeof(works) / sizeof(works[0]); i++)
		cr_expect(strstr(r.out, works[i]), "offline, not \"%s\": %s%s", works[i], r.out,
			  r.err);
	cr_expect(strstr(r.out, "outside Connection refused"), "%s%s", r.out, r.err);
	/* Nothing refused: the session's loopback is its own; the refused
	 * connect to the machine's listener's port is explained, once (45d
	 * N1: it read as a server that is down). */
	cr_expect_null(strstr(r.err, OFFLINE_SAID " (--no-network"), "said for the loopback: %s",
		       r.err);
#define OWN_LOOPBACK "cordon: offline, 127.0.0.1 and ::1 are the session's own loopback"
	const char *own = strstr(r.err, OWN_LOOPBACK);
	cr_expect(own && !strstr(own + strlen(OWN_LOOPBACK), OWN_LOOPBACK), "%s", r.err);
	free(got);
	run_free(&r);
	/* The same under "on_unsupported": "warn" (45c F2: the ruleset the
	 * launcher prepared still refused TCP there). */
	char *warn =
		write_file(w.dir, "warn.json", "{" WORLD_BASE_RW ", \"on_unsupported\": \"warn\"}");
	world_give(&w);
	char *wargv[] = {CORDON_BIN, "run",   "--config", warn, "--no-network", "--", argv[0],
			 argv[1],    argv[2], argv[3],    NULL};
	r = world_run(&w, wargv, w.proj);
	got = received(&l, 300);
	cr_expect_null(strstr(got, "reached"), "warn: the host's loopback was reached: %s", r.out);
	cr_expect(strstr(r.out, "127.0.0.1 tcp ok"), "warn: %s%s", r.out, r.err);
	free(got);
	run_free(&r);
	free(warn);
	close(l.fd);
	world_free(&w);
}

/* A server inside at an abstract name (argv[1], stream, and argv[1].dg, a
 * datagram socket): it reaches itself from inside ("inside ok"), makes
 * "ready", and once "go" is there prints what a client outside sent it. */
static const char abstract_server_py[] =
	"import os, socket, sys, time\n"
	"n = b'\\0' + sys.argv[1].encode()\n"
	"s = socket.socket(socket.AF_UNIX); s.bind(n); s.listen(8)\n"
	"d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); d.bind(n + b'.dg')\n"
	"c = socket.socket(socket.AF_UNIX)\n"
	"try:\n"
	"    c.connect(n); s.accept(); print('inside ok')\n"
	"except OSError as e:\n"
	"    print('inside', e.strerror)\n"
	"s.setblocking(False); d.setblocking(False)\n"
	"sys.stdout.flush()\n"
	"open('ready', 'w').close()\n"
	"while not os.path.exists('go'): time.sleep(0.05)\n"
	"try:\n"
	"    a, _ = s.accept(); a.settimeout(1); print('got', a.recv(64))\n"
	"except OSError:\n"
	"    pass\n"
	"try:\n"
	"    print('got', d.recv(64))\n"
	"except OSError:\n"
	"    pass\n";

/* The client outside: connects to @argv[1] and sends to @argv[1].dg. */
static const char abstract_client_py[] =
	"import socket, sys\n"
	"n = b'\\0' + sys.argv[1].encode()\n"
	"c = socket.socket(socket.AF_UNIX)\n"
	"try:\n"
	"    c.connect(n); c.send(b'secret-abs'); print('stream REACHED')\n"
	"except OSError as e:\n"
	"    print('stream not connected:', e.strerror)\n"
	"d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
	"try:\n"
	"    d.sendto(b'secret-abs', n + b'.dg'); print('datagram REACHED')\n"
	"except OSError as e:\n"
	"    print('datagram not sent:', e.strerror)\n";

/* An abstract name has no file to guard: any process may bind one nobody
 * holds yet (an X display with no server, a bus address), and a client
 * outside that looks there would reach the session's server. The session
 * lives in a network namespace of its own, where its abstract names stay;
 * its own clients still reach them. Judged outside: the client's connect
 * and send fail, the server got nothing. Control: the same server
 * unsandboxed gets the client's secret. */
BOTH_USERS(escape, an_abstract_name_bound_inside_is_out_of_reach_outside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "absin", "");
	char *name = fmt("cordon-test-absin-%d-%d", (int)getpid(), (int)who->user);
	free(write_file(w.proj, "server.py", abstract_server_py));
	char *client = write_file(w.outside, "client.py", abstract_client_py);
	char *out = path_join(w.outside, "client.out");
	char *cl = fmt("/usr/bin/python3 %s %s > %s 2>&1", client, name, out);
	char *body = fmt("/usr/bin/python3 server.py %s", name);
	struct run_result r = world_while_outside(&w, w.cfg, body, cl);
	char *seen = read_file(out);
	char *diag = fmt("inside (%d): %s%s\noutside: %s", r.status, r.out, r.err,
			 seen ? seen : "(nothing)");
	cr_expect(strstr(r.out, "inside ok"), "the session's own client did not reach it\n%s",
		  diag);
	cr_expect(seen && strstr(seen, "not connected") && strstr(seen, "not sent"),
		  "a client outside reached the session's abstract name\n%s", diag);
	cr_expect_null(strstr(r.out, "secret-abs"), "the session got the client's secret\n%s",
		       diag);
	run_free(&r);
	free(diag);
	free(seen);
	unlink(out);

	/* Control: unsandboxed, the client reaches both. */
	char *ctl_body = fmt("cd %s && %s > server.out 2>&1", w.proj, body);
	char *server_argv[] = {"/bin/sh", "-c", ctl_body, NULL};
	pid_t server = world_spawn(&w, server_argv, w.proj);
	char *ready = path_join(w.proj, "ready"), *go = path_join(w.proj, "go");
	cr_assert(wait_exists(ready, 10000), "control: the server did not start");
	char *cl_argv[] = {"/bin/sh", "-c", cl, NULL};
	struct run_result c = world_run(&w, cl_argv, w.home);
	run_free(&c);
	free(write_file(w.proj, "go", ""));
	int status;
	cr_assert_eq(waitpid(server, &status, 0), server);
	char *server_out_path = path_join(w.proj, "server.out");
	char *server_out = read_file(server_out_path);
	seen = read_file(out);
	cr_assert(seen && server_out && strstr(seen, "stream REACHED") &&
			  strstr(seen, "datagram REACHED") && strstr(server_out, "secret-abs"),
		  "control: unsandboxed, the client outside did not reach the server:\n%s\n%s",
		  seen ? seen : "", server_out ? server_out : "");
	unlink(ready);
	unlink(go);
	unlink(out);
	unlink(server_out_path);
	free(server_out);
	free(server_out_path);
	free(seen);
	free(ready);
	free(go);
	free(ctl_body);
	free(body);
	free(cl);
	free(out);
	free(client);
	free(name);
	world_free(&w);
}

/* Outside: a unix socket made here, passed in as fd 3 (--pass-fd), and the
 * command argv[1:] run with it. */
static const char pass_socket_py[] = "import os, socket, subprocess, sys\n"
				     "s = socket.socket(socket.AF_UNIX)\n"
				     "if s.fileno() != 3:\n"
				     "    os.dup2(s.fileno(), 3)\n"
				     "os.set_inheritable(3, True)\n"
				     "subprocess.run(sys.argv[1:], pass_fds=(3,))\n";

/* Inside: a listener at @argv[1] of the session's own, so that the name
 * is held inside; then the socket passed in connects there. */
static const char passed_connect_py[] =
	"import socket, sys\n"
	"n = b'\\0' + sys.argv[1].encode()\n"
	"try:\n"
	"    l = socket.socket(socket.AF_UNIX); l.bind(n); l.listen(1)\n"
	"except OSError as e:\n"
	"    print('own listener:', e.strerror)\n"
	"s = socket.socket(fileno=3)\n"
	"try:\n"
	"    s.connect(n); s.send(b'passed-secret'); print('passed: connected')\n"
	"except OSError as e:\n"
	"    print('passed:', e.strerror)\n";

/* A socket handed in from outside belongs to the host's network namespace:
 * an abstract name it connects to is the host's, whatever the session holds
 * of that name in its own. With a listener of the session's at the same
 * name as one outside, the connect must not reach the outside one. Judged
 * outside: the listener got nothing. Control: unsandboxed, it gets the
 * bytes. */
BOTH_USERS(escape, a_socket_passed_in_reaches_no_abstract_name_outside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "abspass", "");
	char name[64];
	snprintf(name, sizeof(name), "cordon-test-abspass-%d-%d", (int)getpid(), (int)who->user);
	struct listener l = abstract_listener(name);
	char *pass = write_file(w.outside, "pass.py", pass_socket_py);
	free(write_file(w.proj, "connect.py", passed_connect_py));
	char *plain[] = {"/usr/bin/python3", pass, "/usr/bin/python3", "connect.py", name, NULL};
	struct run_result r = world_run(&w, plain, w.proj);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "passed-secret") != NULL, "control: %s%s", r.out, r.err);
	run_free(&r);
	free(got);
	char *inside[] = {"/usr/bin/python3",
			  pass,
			  CORDON_BIN,
			  "run",
			  "--config",
			  w.cfg,
			  "--pass-fd",
			  "3",
			  "--",
			  "/usr/bin/python3",
			  "connect.py",
			  name,
			  NULL};
	r = world_run(&w, inside, w.proj);
	got = received(&l, 300);
	cr_expect_null(strstr(got, "passed-secret"),
		       "a socket passed in reached the abstract name outside: %s%s", r.out, r.err);
	cr_expect(strstr(r.out, "passed:") != NULL, "the probe did not run: %s%s", r.out, r.err);
	run_free(&r);
	free(got);
	close(l.fd);
	free(pass);
	world_free(&w);
}

/* Inside: the interfaces seen (netlink, made by the supervisor in the
 * host's namespace) and a TCP listener on loopback, whose port goes to
 * "port"; once "go" is there, what a client outside sent it. */
static const char host_net_py[] =
	"import os, socket, sys, time\n"
	"print('interfaces', sorted(n for _, n in socket.if_nameindex()))\n"
	"s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(4)\n"
	"open('port', 'w').write(str(s.getsockname()[1]))\n"
	"sys.stdout.flush()\n"
	"open('ready', 'w').close()\n"
	"while not os.path.exists('go'): time.sleep(0.05)\n"
	"s.settimeout(2)\n"
	"try:\n"
	"    a, _ = s.accept(); a.settimeout(2); print('got', a.recv(64))\n"
	"except OSError as e:\n"
	"    print('nothing', e)\n";

/* Online, the session's network is the host's, though its unix sockets
 * live in a namespace of their own: it sees the host's interfaces (what
 * name lookups with AI_ADDRCONFIG ask, and Node's os.networkInterfaces()),
 * offline and by domain too, and a server it starts on loopback (a dev
 * server) is reached from outside. The control is the same script's
 * interface list outside. */
BOTH_USERS(escape, online_the_session_s_network_is_the_host_s, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hostnet", "");
	free(write_file(w.proj, "net.py", host_net_py));
	char *port_path = path_join(w.proj, "port");
	char *cl = fmt("/usr/bin/python3 -c 'import socket; c = socket.create_connection("
		       "(\"127.0.0.1\", int(open(\"%s\").read())), timeout=2); "
		       "c.send(b\"hello-dev\")'",
		       port_path);
	struct run_result r = world_while_outside(&w, w.cfg, "/usr/bin/python3 net.py", cl);
	char *ctl_argv[] = {"/usr/bin/python3", "-c",
			    "import socket; print('interfaces', "
			    "sorted(n for _, n in socket.if_nameindex()))",
			    NULL};
	struct run_result c = world_run(&w, ctl_argv, w.proj);
	cr_assert(strstr(c.out, "interfaces ['"), "control: %s%s", c.out, c.err);
	cr_expect(strstr(r.out, c.out) != NULL, "inside sees other interfaces: %s%s\noutside: %s",
		  r.out, r.err, c.out);
	/* Offline and by domain too (netlink's routing family is the
	 * supervisor's there as well: review 44b F3). */
	const char *modes[] = {"--no-network", "--allow-domain example.invalid"};
	for (size_t i = 0; i < 2; i++) {
		struct run_result m = run_in(&w, modes[i], ctl_argv);
		cr_expect(strcmp(m.out, c.out) == 0, "%s: inside sees other interfaces: %s%s",
			  modes[i], m.out, m.err);
		run_free(&m);
	}
	cr_expect(strstr(r.out, "got b'hello-dev'") != NULL,
		  "a server inside on loopback was not reached from outside: %s%s", r.out, r.err);
	run_free(&c);
	run_free(&r);
	unlink(port_path);
	free(port_path);
	free(cl);
	world_free(&w);
}

/* Outside: one end of a socket pair of TYPE (argv[1]: dgram or stream) as
 * the command's stdin and fd 3 (argv[3:]); once the command says it tried,
 * the same name (argv[2]) bound here, outside, in the host's namespace. */
static const char stdin_socket_py[] =
	"import os, socket, subprocess, sys\n"
	"typ = {'dgram': socket.SOCK_DGRAM, 'stream': socket.SOCK_STREAM}[sys.argv[1]]\n"
	"name = b'\\0' + sys.argv[2].encode()\n"
	"a, b = socket.socketpair(socket.AF_UNIX, typ)\n"
	"p = subprocess.Popen(sys.argv[3:], stdin=a.fileno(), stdout=subprocess.PIPE,\n"
	"                     pass_fds=(a.fileno(),))\n"
	"a.close()\n"
	"print('inside:', p.stdout.readline().decode().strip(), flush=True)\n"
	"o = socket.socket(socket.AF_UNIX, typ)\n"
	"try:\n"
	"    o.bind(name); print('outside bind: ok')\n"
	"except OSError as e:\n"
	"    print('outside bind:', e.strerror)\n"
	"b.close()\n"
	"p.wait(timeout=30)\n";

/* Inside: binds its stdin (a socket handed in) at @argv[1], says so, and
 * holds it a moment. */
static const char bind_stdin_py[] =
	"import socket, sys, time\n"
	"s = socket.socket(fileno=0)\n"
	"try:\n"
	"    s.bind(b'\\0' + sys.argv[1].encode()); print('bound', flush=True)\n"
	"except OSError as e:\n"
	"    print('bind:', e.strerror, flush=True)\n"
	"time.sleep(1)\n";

/* A unix socket handed in (stdin as one end of a socket pair, as Node's
 * child_process gives its children; a --pass-fd) was made in the host's
 * network namespace: bound inside at an abstract name, it would hold that
 * name there, where a datagram server is reached from outside once its peer
 * closes and a stream one keeps an outside server from its name (review
 * 44a F1-F3). Before the command runs, each such socket with no name gets
 * one of the kernel's choosing. Judged outside: the name stays free for an
 * outside server. Control: unsandboxed, the command holds it. */
BOTH_USERS(escape, a_socket_handed_in_takes_no_abstract_name, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "absstdin", "");
	char *outer = write_file(w.outside, "outer.py", stdin_socket_py);
	free(write_file(w.proj, "bind.py", bind_stdin_py));
	const char *types[] = {"dgram", "stream"};
	for (size_t i = 0; i < 2; i++) {
		char *name = fmt("cordon-test-absstdin-%d-%d-%s", (int)getpid(), (int)who->user,
				 types[i]);
		char *plain[] = {"/usr/bin/python3",
				 outer,
				 (char *)types[i],
				 name,
				 "/usr/bin/python3",
				 "bind.py",
				 name,
				 NULL};
		struct run_result r = world_run(&w, plain, w.proj);
		cr_assert(strstr(r.out, "inside: bound") && strstr(r.out, "Address already in use"),
			  "control (%s): unsandboxed, the command did not hold the name: %s%s",
			  types[i], r.out, r.err);
		run_free(&r);
		char *inside[] = {"/usr/bin/python3",
				  outer,
				  (char *)types[i],
				  name,
				  CORDON_BIN,
				  "run",
				  "--config",
				  w.cfg,
				  "--pass-fd",
				  "3",
				  "--",
				  "/usr/bin/python3",
				  "bind.py",
				  name,
				  NULL};
		r = world_run(&w, inside, w.proj);
		cr_expect(strstr(r.out, "inside: ") && strstr(r.out, "outside bind: ok"),
			  "%s: a socket handed in held an abstract name outside: %s%s", types[i],
			  r.out, r.err);
		run_free(&r);
		free(name);
	}
	free(outer);
	world_free(&w);
}

/* libcordon.so is preloaded into programs that are not cordon's: it
 * exports no symbol, so none of theirs (nor of their C library) is
 * replaced by one of its own. Read from its dynamic symbol table (nm). */
Test(escape, the_shim_exports_nothing)
{
	char *argv[] = {"/usr/bin/nm", "-D", "--defined-only", CORDON_SHIM_SO, NULL};
	struct run_result r = run_cmd(argv, NULL, "/", 10000);
	cr_assert_eq(r.status, 0, "nm: %s", r.err);
	cr_expect_eq(strlen(r.out), 0, "libcordon.so exports: %s", r.out);
	run_free(&r);
}
