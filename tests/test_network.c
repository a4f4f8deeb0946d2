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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/seccomp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "escape/both.h"
#include "helpers.h"
#include "linux/linux.h"
#include "linux/seccomp-rules.h"

static struct run_result probe_in(struct world *w, bool offline, char *const args[])
{
	return run_in(w, offline ? "--no-network" : NULL, args);
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
	/* A unix listener in the project, outside the sandbox, that the user
	 * allowed: it gets the bytes offline too. */
	char *path = path_join(w.proj, "sock");
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	cr_assert_eq(bind(s, (struct sockaddr *)&un, sizeof(un)), 0);
	cr_assert_eq(listen(s, 4), 0);
	char *args2[] = {"cordon-probe", "unix", path, "unix-hello", NULL};
	char *opt;
	asprintf(&opt, "--no-network --allow-socket %s", path);
	r = run_in(&w, opt, args2);
	free(opt);
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
	struct run_result r =
		run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--no-network", NULL);
	cr_expect(strstr(r.out, "network:        blocked") != NULL, "%s", r.out);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, NULL);
	cr_expect(strstr(r.out, "network:        allowed") != NULL, "%s", r.out);
	run_free(&r);
	/* The sandbox off: explain says what run says, never "blocked". */
	free(write_file(w.proj, "cordon.json",
			"{" WORLD_BASE_RW ", \"enabled\": false, \"allow_network\": false}"));
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--no-network", NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "cordon: --no-network: the sandbox is off") && strstr(r.err, w.cfg),
		  "%s", r.err);
	cr_expect_null(strstr(r.out, "blocked"), "%s", r.out);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "network:        allowed (sandbox off)") != NULL, "%s", r.out);
	run_free(&r);
	world_free(&w);
}

/* Whether the listener has a connection (or a datagram) waiting. */
static bool pending(const struct listener *l, int ms)
{
	struct pollfd p = {.fd = l->fd, .events = POLLIN};
	return poll(&p, 1, ms) > 0;
}

/* --no-network where the config turns the sandbox off (enabled: false, or
 * apply_to not covering the kind): nothing would block the network, so
 * cordon refuses with 125 before the command starts. The command would
 * first leave a marker, then connect and write to a listener outside. The
 * same command without --no-network reaches the listener (the probe
 * works), and with the sandbox on --no-network blocks it. */
BOTH_USERS(network, no_network_with_the_sandbox_off_is_refused, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nonetoff", ", \"enabled\": false");
	struct listener l = listen_on(AF_INET, true);
	char *marker = path_join(w.proj, "ran");
	char *script;
	asprintf(&script, "touch '%s'; echo probe-$$ > /dev/tcp/127.0.0.1/%d", marker, l.port);
	char *args[] = {"/bin/bash", "-c", script, NULL};

	struct run_result r = run_in(&w, "--no-network", args);
	cr_expect_eq(r.status, 125, "stderr: %s", r.err);
	char *want;
	asprintf(&want, "cordon: --no-network: the sandbox is off (%s: enabled is false)", w.cfg);
	cr_expect(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
	cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
	cr_expect_not(file_exists(marker), "the command ran");
	cr_expect_not(pending(&l, 300), "the listener got a connection");
	run_free(&r);
	free(want);

	/* apply_to "tool" for a terminal session: the same refusal. */
	free(write_file(w.proj, "cordon.json", "{" WORLD_BASE_RW ", \"apply_to\": \"tool\"}"));
	r = run_in(&w, "--no-network", args);
	cr_expect_eq(r.status, 125, "stderr: %s", r.err);
	cr_expect(
		strstr(r.err, "cordon: --no-network: the sandbox is off for a terminal session") &&
			strstr(r.err, "apply_to is \"tool\""),
		"%s", r.err);
	cr_expect_not(file_exists(marker), "the command ran");
	cr_expect_not(pending(&l, 300), "the listener got a connection");
	run_free(&r);

	/* Control: without --no-network the command runs and gets through. */
	r = run_in(&w, NULL, args);
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "probe-") != NULL, "the probe did not reach the listener: %s", r.err);
	cr_expect(file_exists(marker));
	run_free(&r);
	free(got);
	unlink(marker);

	/* The sandbox on: --no-network runs the command and blocks it. */
	free(write_file(w.proj, "cordon.json", "{" WORLD_BASE_RW "}"));
	r = run_in(&w, "--no-network", args);
	cr_expect(file_exists(marker), "the command did not run: %s", r.err);
	got = received(&l, 300);
	cr_expect_null(strstr(got, "probe-"), "got through with --no-network");
	run_free(&r);
	free(got);
	close(l.fd);
	free(script);
	free(marker);
	world_free(&w);
}

/* --allow-domain where the network is off (--no-network, or the config's
 * allow_network false): no host could be reached, and the flag went
 * unsaid (round 37c F5). run and explain refuse it (125, one line), and
 * the command never runs. Control: --allow-domain alone runs it. */
Test(network, allow_domain_with_the_network_off_is_refused, .timeout = 60)
{
	struct world w;
	world_init(&w, "domoff", "");
	char *marker = path_join(w.proj, "ran");
	char *script = fmt("touch '%s'", marker);
	char *args[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = run_in(&w, "--allow-domain example.test", args);
	cr_expect_eq(r.status, 0, "control: %s", r.err);
	cr_expect(file_exists(marker), "control: the command did not run: %s", r.err);
	run_free(&r);
	unlink(marker);
	static const char *const wants[] = {
		"cordon: --allow-domain: --no-network turns the network off",
		"cordon: --allow-domain: the network is off ("};
	for (int cfg = 0; cfg < 2; cfg++) {
		if (cfg)
			free(write_file(w.proj, "cordon.json",
					"{" WORLD_BASE_RW ", \"allow_network\": false}"));
		const char *opts = cfg ? "--allow-domain example.test"
				       : "--no-network --allow-domain example.test";
		r = run_in(&w, opts, args);
		cr_expect_eq(r.status, 125, "%s: %s", opts, r.err);
		cr_expect(strncmp(r.err, wants[cfg], strlen(wants[cfg])) == 0, "%s: %s", opts,
			  r.err);
		cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
		cr_expect_not(file_exists(marker), "%s: the command ran", opts);
		run_free(&r);
		r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--allow-domain",
			       "example.test", cfg ? NULL : "--no-network", NULL);
		cr_expect_eq(r.status, 125, "explain %s: %s", opts, r.err);
		cr_expect(strstr(r.err, wants[cfg]), "explain %s: %s", opts, r.err);
		run_free(&r);
	}
	free(script);
	free(marker);
	world_free(&w);
}

/* With the sandbox off, the widening flags change nothing: said in one
 * line by run and explain, and the command runs (round 37c F5: they went
 * unsaid). Control: with the sandbox on, nothing is said. */
Test(network, widening_flags_with_the_sandbox_off_are_said, .timeout = 60)
{
	struct world w;
	world_init(&w, "offflags", ", \"enabled\": false");
	char *marker = path_join(w.proj, "ran");
	char *script = fmt("touch '%s'", marker);
	char *args[] = {"/bin/sh", "-c", script, NULL};
	static const char want[] =
		"cordon: --allow-read/-write/-exec, --allow-socket, --toolchain: "
		"the sandbox is off for this session";
	struct run_result r =
		run_in(&w, "--allow-read /usr --allow-socket /tmp/x.sock --toolchain node", args);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(file_exists(marker), "the command did not run: %s", r.err);
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--allow-read", "/usr", NULL);
	cr_expect(strstr(r.err, "cordon: --allow-read/-write/-exec: the sandbox is off"),
		  "explain did not say: %s", r.err);
	run_free(&r);
	free(write_file(w.proj, "cordon.json", "{" WORLD_BASE_RW "}"));
	r = run_in(&w, "--allow-read /usr", args);
	cr_expect_null(strstr(r.err, "the sandbox is off"), "said with the sandbox on: %s", r.err);
	run_free(&r);
	free(script), free(marker);
	world_free(&w);
}

struct sys_case {
	char name[24];
};

static struct sys_case sys_cases[] = {
	{"kexec_load"},   {"kexec_file_load"}, {"init_module"},
	{"finit_module"}, {"delete_module"},   {"bpf"},
	{"userfaultfd"},  {"reboot"},          {"swapon"},
	{"swapoff"},      {"mount"},           {"umount2"},
	{"pivot_root"},   {"move_mount"},      {"open_tree"},
	{"fsopen"},       {"fsmount"},         {"keyctl"},
	{"add_key"},      {"request_key"},     {"fanotify_init"},
};

ParameterizedTestParameters(syscalls, blocklisted_return_eperm)
{
	return cr_make_param_array(struct sys_case, sys_cases,
				   sizeof(sys_cases) / sizeof(sys_cases[0]));
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
	cr_assert_null(strstr(r.out, want), "control: %s already refused outside: %s", c->name,
		       r.out);
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
					 "gdb -q -batch -ex run ./t > gdb.txt 2>&1",
					 NULL);
	char *trace = path_join(w.proj, "trace.txt");
	char *gdb = path_join(w.proj, "gdb.txt");
	cr_expect(contains(trace, "exit_group(3)"), "strace inside: %s", r.err);
	cr_expect(contains(gdb, "exited with code 03"), "gdb inside: %s", r.err);
	run_free(&r);
	free(trace);
	free(gdb);
	world_free(&w);
}

/* The shim loads a BPF program compiled at build time: it must be exactly
 * what libseccomp makes of the rules now, for both network settings, with
 * and without the supervisor. */
void expect_embedded(unsigned flags, const struct sock_fprog *prog)
{
	const char *what = "";
	int errnum = 0;
	scmp_filter_ctx ctx = cordon_seccomp_rules(flags, &what, &errnum);
	cr_assert_not_null(ctx, "%s: %s", what, strerror(errnum));
	FILE *tmp = tmpfile();
	cr_assert_not_null(tmp);
	cr_assert_eq(seccomp_export_bpf(ctx, fileno(tmp)), 0);
	seccomp_release(ctx);
	long size = lseek(fileno(tmp), 0, SEEK_END);
	cr_assert_gt(prog->len, 20, "a filter of %u instructions", prog->len);
	/* seccomp-gen's instructions ahead of libseccomp's program. */
	struct sock_filter ahead[CORDON_SECCOMP_AHEAD_MAX];
	size_t na = 0;
#if defined(__x86_64__)
	na = cordon_seccomp_ahead(ahead);
#endif
	cr_assert_eq(size + (long)(na * sizeof(*ahead)),
		     (long)(prog->len * sizeof(struct sock_filter)),
		     "flags=%u: %ld bytes from libseccomp, %u instructions embedded", flags, size,
		     prog->len);
	cr_expect_eq(memcmp(ahead, prog->filter, na * sizeof(*ahead)), 0, "flags=%u: ahead", flags);
	struct sock_filter *fresh = malloc((size_t)size);
	cr_assert_eq(pread(fileno(tmp), fresh, (size_t)size, 0), size);
	cr_expect_eq(memcmp(fresh, prog->filter + na, (size_t)size), 0, "flags=%u differs", flags);
	free(fresh);
	fclose(tmp);
}

Test(syscalls, embedded_filter_matches_the_rules)
{
	/* v & 8: the supervised ones with metadata left to the kernel. */
	for (int v = 0; v < 16; v++) {
		bool online = v & 1, supervised = v & 2, kunix = v & 4, kmeta = v & 8;
		if (kunix || kmeta)
			supervised = true;
		if ((v & 6) == 6)
			continue; /* the same as without 2 */
		unsigned flags = (online ? CORDON_SECCOMP_NETWORK : 0) |
				 (supervised ? CORDON_SECCOMP_SUPERVISED : 0) |
				 (kunix ? CORDON_SECCOMP_UNIX_IN_KERNEL : 0) |
				 (kmeta ? CORDON_SECCOMP_META_IN_KERNEL : 0);
		struct sock_fprog prog;
		if (supervised)
			cordon_seccomp_program_supervised(online, kunix, false, kmeta, false,
							  &prog);
		else
			cordon_seccomp_program(online, false, &prog);
		expect_embedded(flags, &prog);
	}
	/* By domain, both ways. */
	for (int kmeta = 0; kmeta < 2; kmeta++) {
		struct sock_fprog prog;
		cordon_seccomp_program_supervised(true, false, true, kmeta, false, &prog);
		expect_embedded(CORDON_SECCOMP_NETWORK | CORDON_SECCOMP_SUPERVISED |
					CORDON_SECCOMP_DOMAINS |
					(kmeta ? CORDON_SECCOMP_META_IN_KERNEL : 0),
				&prog);
	}
	/* Offline in the session's own network namespace, both ways each. */
	for (int v = 0; v < 4; v++) {
		bool kunix = v & 1, kmeta = v & 2;
		struct sock_fprog prog;
		cordon_seccomp_program_supervised(false, kunix, false, kmeta, true, &prog);
		expect_embedded(CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_OWN_NETNS |
					(kunix ? CORDON_SECCOMP_UNIX_IN_KERNEL : 0) |
					(kmeta ? CORDON_SECCOMP_META_IN_KERNEL : 0),
				&prog);
	}
	/* Offline adds the socket-family and io_uring rules; the supervised
	 * programs add the traps. */
	struct sock_fprog on, off, on_sup;
	cordon_seccomp_program(true, false, &on);
	cordon_seccomp_program(false, false, &off);
	cordon_seccomp_program(true, true, &on_sup);
	cr_expect_gt(off.len, on.len + 60);
	cr_expect_gt(on_sup.len, on.len);
	/* Under the read-only view chmod, chown and utimes are not trapped
	 * (but a chown to root, round 53g G1, which its argument checks
	 * make longer: escape/other_users_files_in_tmp_... judges it). */
	struct sock_fprog on_kmeta;
	cordon_seccomp_program_supervised(true, false, false, true, false, &on_kmeta);
	cr_expect_neq(on_kmeta.len, on_sup.len);
}

/* What an offline filter does with a connect and an addressed send on an
 * internet socket, in a child that loads it with no listener: a call for
 * the supervisor fails with ENOSYS there; one left to the kernel is
 * performed. 'N' notified, 'K' the kernel's, '?' otherwise. */
static char offline_fate(bool kunix, bool own_netns, bool send)
{
	int udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(udp, 0);
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(9)};
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct sock_fprog prog;
		cordon_seccomp_program_supervised(false, kunix, false, false, own_netns, &prog);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			_exit(2);
		long r = send ? sendto(udp, "x", 1, 0, (struct sockaddr *)&to, sizeof(to))
			      : connect(udp, (struct sockaddr *)&to, sizeof(to));
		_exit(r < 0 && errno == ENOSYS ? 'N' : r >= 0 ? 'K' : 3);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	close(udp);
	return WIFEXITED(st) && (WEXITSTATUS(st) == 'N' || WEXITSTATUS(st) == 'K')
		       ? (char)WEXITSTATUS(st)
		       : '?';
}

/* Offline, a connect or an addressed send on an internet socket always goes
 * to the supervisor, with unix sockets the kernel's (Landlock ABI 9) too:
 * there one passed in from the host's network namespace would reach any
 * address, the host's loopback services included (review 45c F1; this
 * machine's ABI 7 never picks that program, so it is loaded here). */
Test(syscalls, offline_internet_sends_always_reach_the_supervisor)
{
	for (int v = 0; v < 8; v++) {
		bool kunix = v & 1, own = v & 2, send = v & 4;
		cr_expect_eq(offline_fate(kunix, own, send), 'N', "kunix=%d own_netns=%d %s", kunix,
			     own, send ? "sendto" : "connect");
	}
}

/* Offline, the package managers that retry for minutes on a refused lookup
 * (npm retried every error for 70 s) are told to work offline: they use
 * their caches and fail at once otherwise. Online nothing is added; a value
 * the user lets through (a local GOPROXY) wins. */
Test(network, offline_tells_package_managers_to_work_offline)
{
	static const char *const said[] = {
		"npm_config_offline=true", "CARGO_NET_OFFLINE=true", "GOPROXY=off",
		"PIP_RETRIES=0",           "UV_OFFLINE=1",           "YARN_ENABLE_OFFLINE_MODE=1"};
	struct world w;
	world_init(&w, "offenv", "");
	char *args[] = {"/usr/bin/env", NULL};
	for (int offline = 0; offline <= 1; offline++) {
		struct run_result r = probe_in(&w, offline, args);
		cr_assert_eq(r.status, 0, "%s", r.err);
		for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
			char *line;
			cr_assert(asprintf(&line, "\n%s\n", said[i]) > 0);
			if (offline)
				cr_expect(strstr(r.out, line) != NULL, "offline: %s missing",
					  said[i]);
			else
				cr_expect_null(strstr(r.out, line), "online: %s set", said[i]);
			free(line);
		}
		run_free(&r);
	}
	world_setenv(&w, "GOPROXY=file:///srv/goproxy");
	struct run_result r = run_in(&w, "--no-network --allow-env GOPROXY", args);
	cr_expect(strstr(r.out, "\nGOPROXY=file:///srv/goproxy\n") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "GOPROXY=off"), "%s", r.out);
	run_free(&r);
	world_free(&w);
}

/* npm itself, where it is installed: offline it fails at once from its
 * (empty) cache and never tries the registry; online (the control) it asks
 * the registry, a listener here that never answers (once: no retries). */
Test(network, offline_npm_fails_at_once, .timeout = 120)
{
	if (access("/usr/bin/npm", X_OK) != 0)
		cr_skip_test("npm is not installed");
	struct world w;
	world_init(&w, "offnpm", "");
	write_file(w.proj, "package.json",
		   "{\"name\": \"x\", \"version\": \"1.0.0\", \"dependencies\": {\"left-pad\": "
		   "\"1.3.0\"}}\n");
	struct listener l = listen_on(AF_INET, true);
	for (int offline = 1; offline >= 0; offline--) {
		struct run_result r = sh_in(
			&w,
			offline ? "--no-network --allow-env npm_config_*"
				: "--allow-env npm_config_*",
			"npm_config_registry=http://127.0.0.1:%d/ npm_config_cache=%s/.npmcache "
			"npm_config_fetch_timeout=3000 %s timeout 20 npm install --loglevel=http 2>&1",
			l.port, w.proj, offline ? "" : "npm_config_fetch_retries=0");
		char *got = received(&l, offline ? 300 : 3000);
		if (offline) {
			cr_expect(strstr(r.out, "ENOTCACHED") != NULL, "npm offline: %s", r.out);
			cr_expect_null(strstr(r.out, "attempt 2"), "npm retried offline: %s",
				       r.out);
			cr_expect_null(strstr(got, "left-pad"), "npm reached the registry offline");
		} else {
			cr_expect(strstr(got, "left-pad") != NULL,
				  "control: npm must ask the registry: %s", r.out);
		}
		free(got);
		run_free(&r);
	}
	close(l.fd);
	world_free(&w);
}
