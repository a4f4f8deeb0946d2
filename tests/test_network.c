/* The network switch and the syscall filter. Listeners run outside the
 * sandbox, on loopback, started and stopped by the test; the verdict is what
 * they received. Every offline case first runs online, so a listener that
 * would never receive anything cannot make a test pass. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "helpers.h"

struct listener {
	int fd;
	int port;
	bool stream;
};

static struct listener listen_on(int family, bool stream)
{
	struct listener l = {.stream = stream};
	l.fd = socket(family, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	cr_assert_geq(l.fd, 0, "listener socket: %s", strerror(errno));
	struct sockaddr_storage ss = {0};
	socklen_t len;
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	}
	cr_assert_eq(bind(l.fd, (struct sockaddr *)&ss, len), 0, "bind: %s", strerror(errno));
	if (stream)
		cr_assert_eq(listen(l.fd, 16), 0);
	cr_assert_eq(getsockname(l.fd, (struct sockaddr *)&ss, &len), 0);
	l.port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					 : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return l;
}

/* Everything the listener got within WAIT_MS (connections already queued
 * are accepted and drained). */
static char *received(struct listener *l, int wait_ms)
{
	char *out = calloc(1, 8192);
	size_t len = 0;
	struct pollfd p = {.fd = l->fd, .events = POLLIN};
	while (poll(&p, 1, wait_ms) > 0) {
		if (l->stream) {
			int c = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				break;
			struct pollfd pc = {.fd = c, .events = POLLIN};
			while (poll(&pc, 1, 500) > 0) {
				ssize_t n = read(c, out + len, 8191 - len);
				if (n <= 0)
					break;
				len += (size_t)n;
			}
			close(c);
		} else {
			ssize_t n = recv(l->fd, out + len, 8191 - len, 0);
			if (n <= 0)
				break;
			len += (size_t)n;
		}
		wait_ms = 50;
	}
	out[len] = '\0';
	return out;
}

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
	{"mptcp", AF_INET, true, "127.0.0.1"}, {"uring", AF_INET, false, "127.0.0.1"},
};

ParameterizedTestParameters(network, offline_means_offline)
{
	return cr_make_param_array(struct net_case, net_cases, sizeof(net_cases) / sizeof(net_cases[0]));
}

ParameterizedTest(struct net_case *c, network, offline_means_offline)
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
			cr_expect_null(strstr(got, msg), "%s to %s got through offline", c->kind, c->host);
			cr_expect(strstr(r.err, "Permission denied") || strstr(r.err, "Operation not permitted"),
				  "a refused call fails at once with EACCES/EPERM: %s", r.err);
			cr_expect_lt(r.status, 128, "the probe was killed, not refused");
		} else {
			cr_expect(strstr(got, msg) != NULL, "%s to %s must work online: %s", c->kind, c->host, r.err);
		}
		run_free(&r);
		free(got);
		close(l.fd);
	}
	world_free(&w);
}

Test(network, bash_dev_tcp)
{
	struct world w;
	world_init(&w, "devtcp", "");
	for (int offline = 0; offline <= 1; offline++) {
		struct listener l = listen_on(AF_INET, true);
		char *script;
		asprintf(&script, "echo devtcp-%d > /dev/tcp/127.0.0.1/%d", offline, l.port);
		char *args[] = {"/bin/bash", "-c", script, NULL};
		struct run_result r = probe_in(&w, offline, args);
		char *got = received(&l, offline ? 300 : 2000);
		char want[32];
		snprintf(want, sizeof(want), "devtcp-%d", offline);
		if (offline)
			cr_expect_null(strstr(got, want), "bash /dev/tcp got through offline");
		else
			cr_expect(strstr(got, want) != NULL, "online: %s", r.err);
		run_free(&r);
		free(got);
		free(script);
		close(l.fd);
	}
	world_free(&w);
}

/* A raw ICMP socket outside sees every ICMP packet on the host, loopback too. */
Test(network, raw_icmp)
{
	int mon = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (mon < 0)
		cr_skip_test("a raw socket needs CAP_NET_RAW outside: %s", strerror(errno));
	struct world w;
	world_init(&w, "raw", "");
	struct listener l = {.fd = mon, .stream = false};
	for (int offline = 0; offline <= 1; offline++) {
		char msg[32];
		snprintf(msg, sizeof(msg), "rawping-%d-%d", getpid(), offline);
		char *args[] = {"cordon-probe", "raw", "127.0.0.1", msg, NULL};
		struct run_result r = probe_in(&w, offline, args);
		char *got = calloc(1, 1);
		/* Packets hold NULs: search the raw bytes. */
		char buf[2048];
		bool seen = false;
		struct pollfd p = {.fd = mon, .events = POLLIN};
		while (poll(&p, 1, offline ? 300 : 1000) > 0) {
			ssize_t n = recv(mon, buf, sizeof(buf), 0);
			if (n <= 0)
				break;
			seen |= memmem(buf, (size_t)n, msg, strlen(msg)) != NULL;
		}
		if (offline)
			cr_expect_not(seen, "a raw ICMP packet left the sandbox offline");
		else
			cr_expect(seen, "online a raw ping must be seen: %s", r.err);
		free(got);
		run_free(&r);
	}
	close(l.fd);
	world_free(&w);
}

Test(network, online_loopback_and_name_lookup_work)
{
	struct world w;
	world_init(&w, "online", "");
	char *args[] = {"/usr/bin/getent", "hosts", "localhost", NULL};
	struct run_result r = probe_in(&w, false, args);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "127.0.0.1") || strstr(r.out, "::1"), "%s", r.out);
	run_free(&r);
	world_free(&w);
}

Test(network, unix_sockets_and_netlink_work_offline)
{
	struct world w;
	world_init(&w, "unix", "");
	char *args[] = {"cordon-probe", "socketpair", NULL};
	struct run_result r = probe_in(&w, true, args);
	cr_expect(strstr(r.out, "pair ok") != NULL, "socketpair offline: %s", r.err);
	run_free(&r);
	/* A unix listener in the project, outside the sandbox: it gets the bytes. */
	char *path = path_join(w.proj, "sock");
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	cr_assert_eq(bind(s, (struct sockaddr *)&un, sizeof(un)), 0);
	cr_assert_eq(listen(s, 4), 0);
	char *args2[] = {"cordon-probe", "unix", path, "unix-hello", NULL};
	r = probe_in(&w, true, args2);
	struct listener l = {.fd = s, .stream = true};
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "unix-hello") != NULL, "unix socket offline: %s", r.err);
	run_free(&r);
	free(got);
	close(s);
	/* Netlink: iproute2 lists the interfaces. */
	char *args3[] = {"/usr/sbin/ip", "-o", "link", "show", "lo", NULL};
	r = probe_in(&w, true, args3);
	cr_expect(strstr(r.out, "lo:") != NULL, "netlink offline: %s", r.err);
	run_free(&r);
	free(path);
	world_free(&w);
}

Test(network, explain_shows_the_network_state)
{
	struct world w;
	world_init(&w, "netexplain", "");
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--no-network", NULL);
	cr_expect(strstr(r.out, "network:        blocked") != NULL, "%s", r.out);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, NULL);
	cr_expect(strstr(r.out, "network:        allowed") != NULL, "%s", r.out);
	run_free(&r);
	world_free(&w);
}

/* Run ARGV with a new pty as its controlling terminal (stdin/out/err); after
 * it exits, return whatever is waiting in the terminal's input queue — what
 * a shell reading the terminal would take as typed. */
static char *pty_input_after(char *const argv[], char *const envp[], const char *cwd)
{
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, envp, cwd, &master, &name);
	int slave = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	cr_assert_geq(slave, 0);
	/* Drain the child's output so it never blocks on a full pty. */
	int st;
	char sink[4096];
	for (int i = 0; i < 400 && waitpid(pid, &st, WNOHANG) == 0; i++) {
		struct pollfd p = {.fd = master, .events = POLLIN};
		if (poll(&p, 1, 25) > 0)
			(void)!read(master, sink, sizeof(sink));
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	struct termios t;
	tcgetattr(slave, &t);
	t.c_lflag &= ~(tcflag_t)ICANON;
	tcsetattr(slave, TCSANOW, &t);
	char *out = calloc(1, 4096);
	ssize_t n = read(slave, out, 4095);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	close(slave);
	close(master);
	free(name);
	return out;
}

Test(terminal, tiocsti_cannot_type_into_the_terminal)
{
	struct world w;
	world_init(&w, "tiocsti", "");
	char *probe = path_join(w.bin, "cordon-probe");
	/* Unsandboxed, the same probe does inject: the test can fail. */
	char *plain[] = {probe, "tiocsti", "echo PWNED-OUTSIDE\n", NULL};
	char *got = pty_input_after(plain, w.env, w.proj);
	cr_assert(strstr(got, "PWNED-OUTSIDE") != NULL, "control: TIOCSTI should work unsandboxed, got '%s'", got);
	free(got);
	char *sandboxed[] = {CORDON_BIN, "run", "--config", w.cfg, "--", probe, "tiocsti", "echo PWNED-INSIDE\n", NULL};
	got = pty_input_after(sandboxed, w.env, w.proj);
	cr_expect_null(strstr(got, "PWNED-INSIDE"), "a sandboxed process typed into the terminal: '%s'", got);
	free(got);
	free(probe);
	world_free(&w);
}

struct sys_case {
	char name[24];
};

static struct sys_case sys_cases[] = {
	{"kexec_load"}, {"kexec_file_load"}, {"init_module"}, {"finit_module"}, {"delete_module"},
	{"bpf"}, {"userfaultfd"}, {"reboot"}, {"swapon"}, {"swapoff"}, {"mount"}, {"umount2"},
	{"pivot_root"}, {"move_mount"}, {"open_tree"}, {"fsopen"}, {"fsmount"},
};

ParameterizedTestParameters(syscalls, blocklisted_return_eperm)
{
	return cr_make_param_array(struct sys_case, sys_cases, sizeof(sys_cases) / sizeof(sys_cases[0]));
}

ParameterizedTest(struct sys_case *c, syscalls, blocklisted_return_eperm)
{
	struct world w;
	world_init(&w, "sys", "");
	char *probe = path_join(w.bin, "cordon-probe");
	char want[64];
	snprintf(want, sizeof(want), "%s: EPERM", c->name);
	/* Control: outside, the harmless arguments give another answer. */
	char *plain[] = {probe, "syscall", c->name, NULL};
	struct run_result r = run_cmd(plain, w.env, w.proj, 20000);
	cr_assert_null(strstr(r.out, want), "control: %s already refused outside: %s", c->name, r.out);
	run_free(&r);
	char *args[] = {"cordon-probe", "syscall", c->name, NULL};
	r = probe_in(&w, false, args);
	cr_expect(strstr(r.out, want) != NULL, "inside: %s %s", r.out, r.err);
	run_free(&r);
	free(probe);
	world_free(&w);
}

Test(syscalls, debuggers_still_work_inside, .timeout = 60)
{
	struct world w;
	world_init(&w, "debug", "");
	free(write_file(w.proj, "t.c", "int main(void){return 3;}\n"));
	/* The built-in defaults (gcc needs /tmp). */
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c",
		"gcc -g -o t t.c && strace -f -o trace.txt ./t; "
		"gdb -q -batch -ex run ./t > gdb.txt 2>&1", NULL);
	char *trace = path_join(w.proj, "trace.txt");
	char *gdb = path_join(w.proj, "gdb.txt");
	cr_expect(contains(trace, "exit_group(3)"), "strace inside: %s", r.err);
	cr_expect(contains(gdb, "exited with code 03"), "gdb inside: %s", r.err);
	run_free(&r);
	free(trace);
	free(gdb);
	world_free(&w);
}
