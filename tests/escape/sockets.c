/* Pathname unix sockets: a door to a process outside (a tmux server, D-Bus,
 * an agent, any daemon that takes commands), which Landlock before ABI 9
 * does not guard. From inside, only sockets whose listener the session
 * holds, and those the user allowed, can be reached. Every route is judged
 * from outside (did the listener get bytes, did the daemon run anything),
 * each with a control that succeeds unsandboxed, as root and as an ordinary
 * user (the "user" runs go through setpriv as cordon-test, tracked by the
 * subreaper keeper). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/session.h"
#include "both.h"
#include "helpers.h"

/* The probe, outside the sandbox (as W's user): the control. */
static struct run_result probe_outside(struct world *w, char *const args[])
{
	char *argv[16];
	argv[0] = CORDON_PROBE;
	int n = 1;
	for (int i = 1; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return world_run(w, argv, w->proj);
}

/* ARGS (a probe command line) must get bytes to L outside, and nothing from
 * inside the sandbox (OPTS for cordon run), where it fails with EACCES. */
static void expect_refused(struct world *w, struct listener *l, const char *opts, char *args[],
			   int msg_index)
{
	char *msg = args[msg_index];
	struct run_result r = probe_outside(w, args);
	char *got = received(l, 2000);
	cr_assert(strstr(got, msg) != NULL, "control: %s must reach the listener outside: %s %s",
		  args[1], r.out, r.err);
	free(got);
	run_free(&r);
	char inside[64];
	snprintf(inside, sizeof(inside), "%s-inside", msg);
	args[msg_index] = inside;
	r = run_in(w, opts, args);
	got = received(l, 300);
	cr_expect_null(strstr(got, inside), "%s %s reached a listener outside the session", args[1],
		       args[2]);
	cr_expect(strstr(r.err, "Permission denied") != NULL, "refused with EACCES: %s", r.err);
	args[msg_index] = msg;
	free(got);
	run_free(&r);
}

/* A listener in a directory outside every rule, in /tmp and in the user's
 * runtime directory (both read-write under the rules here), and in the
 * project itself (read-write-execute): none is reachable. */
BOTH_USERS(sockets, outside_listeners_get_nothing, .timeout = 90)
{
	struct world w;
	char extra[256];
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rt;
	runtime_dir_make(&rt, uid, gid);
	snprintf(extra, sizeof(extra), ", \"additional_read_write_paths\": [\"/tmp\", \"%s\"]",
		 rt.path);
	world_for(&w, who, "sockout", extra);
	char tmpdir[] = "/tmp/cordon-socktest-XXXXXX";
	cr_assert_not_null(mkdtemp(tmpdir));
	if (who->user)
		cr_assert_eq(chown(tmpdir, uid, gid), 0);
	char *paths[4];
	paths[0] = path_join(w.outside, "daemon.sock");
	paths[1] = path_join(tmpdir, "daemon.sock");
	asprintf(&paths[2], "%s/cordon-test-%d.sock", rt.path, (int)getpid());
	paths[3] = path_join(w.proj, "outside-made.sock");
	for (int i = 0; i < 4; i++) {
		struct listener l = listen_unix(&w, paths[i], true);
		char *args[] = {"cordon-probe", "unix", paths[i], "hello", NULL};
		expect_refused(&w, &l, NULL, args, 3);
		close(l.fd);
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(tmpdir);
	/* (Root's records of /tmp and the runtime directory, made writable
	 * here.) */
	sweep_forget("/tmp");
	sweep_forget(rt.path);
	runtime_dir_free(&rt);
	world_free(&w);
}

/* An unconnected datagram socket can send to any path, with sendto or with
 * sendmsg's msg_name: the supervisor judges both. */
BOTH_USERS(sockets, datagrams_outside_deliver_nothing, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockdgram", "");
	char *path = path_join(w.outside, "log.sock");
	struct listener l = listen_unix(&w, path, false);
	char *a1[] = {"cordon-probe", "dgram", path, "dgram-sendto", NULL};
	expect_refused(&w, &l, NULL, a1, 3);
	char *a2[] = {"cordon-probe", "dgrammsg", path, "dgram-sendmsg", NULL};
	expect_refused(&w, &l, NULL, a2, 3);
	close(l.fd);
	free(path);
	world_free(&w);
}

/* A daemon outside that runs what it is sent: a stand-in for tmux
 * run-shell, systemd-run, docker. Its child reads one line per connection
 * and runs it with /bin/sh; returns its pid. */
static pid_t command_daemon(const struct world *w, const char *path)
{
	struct listener l = listen_unix(w, path, true);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (w->as_user && (setgid(w->gid) < 0 || setuid(w->uid) < 0))
			_exit(1);
		alarm(60);
		int fl = fcntl(l.fd, F_GETFL);
		fcntl(l.fd, F_SETFL, fl & ~O_NONBLOCK);
		for (;;) {
			int c = accept4(l.fd, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			char line[512] = {0};
			ssize_t n = read(c, line, sizeof(line) - 1);
			close(c);
			if (n > 0 && fork() == 0)
				execl("/bin/sh", "sh", "-c", line, (char *)NULL);
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		}
	}
	close(l.fd);
	return pid;
}

BOTH_USERS(sockets, a_command_daemon_outside_runs_nothing, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockcmd", "");
	char *path = path_join(w.outside, "cmd.sock");
	pid_t daemon = command_daemon(&w, path);
	char *control = path_join(w.outside, "ran-control");
	char *marker = path_join(w.outside, "ran-inside");
	char *cmd;
	asprintf(&cmd, "touch %s", control);
	char *args[] = {"cordon-probe", "unix", path, cmd, NULL};
	struct run_result r = probe_outside(&w, args);
	cr_assert(wait_exists(control, 3000), "control: the daemon must run commands: %s", r.err);
	run_free(&r);
	free(cmd);
	asprintf(&cmd, "touch %s", marker);
	args[3] = cmd;
	r = run_in(&w, NULL, args);
	usleep(300000);
	cr_expect_not(file_exists(marker), "a command sent from inside ran outside");
	cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
	run_free(&r);
	stop_process(daemon);
	free(cmd);
	free(control);
	free(marker);
	free(path);
	world_free(&w);
}

/* The user's own tmux server, outside: driven from inside it would run any
 * command unsandboxed and outlive the session. Through its socket, a
 * symlink to it in the project, or a hard link: the window never opens. */
BOTH_USERS(sockets, a_tmux_server_outside_cannot_be_driven, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "socktmux", "");
	char *sock = path_join(w.outside, "tmux.sock");
	char *start[] = {
		"/usr/bin/tmux", "-f",        "/dev/null", "-S", sock, "new-session", "-d", "-s",
		"outer",         "sleep 120", NULL};
	struct run_result r = world_run(&w, start, w.proj);
	cr_assert_eq(r.status, 0, "tmux outside: %s", r.err);
	run_free(&r);
	char *control = path_join(w.outside, "window-control");
	char *win;
	asprintf(&win, "touch %s", control);
	char *drive[] = {"/usr/bin/tmux", "-S", sock, "new-window", "-t", "outer", win, NULL};
	r = world_run(&w, drive, w.proj);
	cr_assert(wait_exists(control, 3000), "control: tmux must run the window: %s", r.err);
	run_free(&r);
	free(win);

	char *soft = path_join(w.proj, "tmux-symlink");
	char *hard = path_join(w.proj, "tmux-hardlink");
	cr_assert_eq(symlink(sock, soft), 0);
	cr_assert_eq(link(sock, hard), 0, "link: %s", strerror(errno));
	const char *via[] = {sock, soft, hard};
	for (int i = 0; i < 3; i++) {
		char *marker;
		asprintf(&marker, "%s/window-inside-%d", w.outside, i);
		asprintf(&win, "touch %s", marker);
		char *inside[] = {"/usr/bin/tmux",
				  "-S",
				  (char *)via[i],
				  "new-window",
				  "-t",
				  "outer",
				  win,
				  NULL};
		r = run_in(&w, NULL, inside);
		usleep(300000);
		cr_expect_not(file_exists(marker), "tmux outside ran a window from inside (via %s)",
			      via[i]);
		cr_expect_neq(r.status, 0, "%s", r.err);
		run_free(&r);
		free(marker);
		free(win);
	}
	char *kill_srv[] = {"/usr/bin/tmux", "-S", sock, "kill-server", NULL};
	r = world_run(&w, kill_srv, w.proj);
	run_free(&r);
	free(soft);
	free(hard);
	free(control);
	free(sock);
	world_free(&w);
}

/* tmux started inside: a server in the session's socket directory
 * (TMUX_TMPDIR), new windows, listing; attached on a terminal below. */
BOTH_USERS(sockets, tmux_inside_works, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "socktmuxin", "");
	struct run_result r = sh_in(&w, NULL,
				    "tmux -f /dev/null new-session -d -s in 'sleep 30' && "
				    "tmux new-window -t in 'touch win' && sleep 0.5 && "
				    "tmux ls > ls.txt; tmux kill-server");
	cr_expect_eq(r.status, 0, "%s", r.err);
	char *win = path_join(w.proj, "win");
	char *ls = path_join(w.proj, "ls.txt");
	cr_expect(file_exists(win), "the window inside did not run: %s", r.err);
	cr_expect(contains(ls, "in: "), "tmux ls inside: %s", r.err);
	run_free(&r);
	free(win);
	free(ls);
	world_free(&w);
}

Test(sockets, tmux_attach_inside_on_a_terminal, .timeout = 60)
{
	struct world w;
	world_init(&w, "socktmuxattach", "");
	char *script = "stty rows 24 cols 80; "
		       "tmux -f /dev/null new-session -d -s in 'sleep 30' 2> attach.err || exit 1; "
		       "(sleep 1; tmux detach-client -s in) & "
		       "tmux attach -t in 2>> attach.err; echo \"attach=$?\" > attached.txt; "
		       "tmux kill-server";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	free(pty_input_after(argv, w.env, w.proj));
	char *out = path_join(w.proj, "attached.txt");
	char *errf = path_join(w.proj, "attach.err");
	char *why = read_file(errf);
	cr_expect(contains(out, "attach=0"), "tmux attach inside failed: %s", why ? why : "");
	free(why);
	free(errf);
	free(out);
	world_free(&w);
}

/* dbus-send's ListNames to the bus at a socket: ARGV to run (BUS is its
 * malloc'd --bus argument, freed by dbus_call_free). */
struct dbus_call {
	char *bus;
	char *argv[7];
};

static void dbus_call_init(struct dbus_call *c, const char *sock)
{
	c->bus = fmt("--bus=unix:path=%s", sock);
	char *argv[] = {"/usr/bin/dbus-send",
			c->bus,
			"--print-reply",
			"--dest=org.freedesktop.DBus",
			"/org/freedesktop/DBus",
			"org.freedesktop.DBus.ListNames",
			NULL};
	memcpy(c->argv, argv, sizeof(argv));
}

static void dbus_call_free(struct dbus_call *c)
{
	free(c->bus);
}

/* ARGV run outside as W's user until it answers (status 0), for at most
 * 5 s: a dbus-daemon makes its socket before it takes calls, and under load
 * a first call could come in between. The last result. */
static struct run_result outside_once_up(struct world *w, char *const argv[])
{
	struct run_result r = world_run(w, argv, w->proj);
	for (long end = ms_now() + 5000; r.status != 0 && ms_now() < end;) {
		run_free(&r);
		usleep(50000);
		r = world_run(w, argv, w->proj);
	}
	return r;
}

/* A D-Bus bus outside: systemd-run, terminals and portals listen there. */
BOTH_USERS(sockets, a_dbus_bus_outside_cannot_be_reached, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockdbus", "");
	char *sock = path_join(w.outside, "bus");
	char *addr;
	asprintf(&addr, "--address=unix:path=%s", sock);
	char *daemon[] = {"/usr/bin/dbus-daemon", "--session", addr, "--nofork",
			  "--nopidfile",          NULL};
	pid_t pid = world_spawn(&w, daemon, w.proj);
	cr_assert(wait_exists(sock, 5000), "dbus-daemon did not start");
	struct dbus_call call;
	dbus_call_init(&call, sock);
	struct run_result r = outside_once_up(&w, call.argv);
	cr_assert(r.status == 0 && strstr(r.out, "array"), "control: the bus answers: %s", r.err);
	run_free(&r);
	r = run_in(&w, NULL, call.argv);
	cr_expect_neq(r.status, 0, "the bus answered from inside: %s", r.out);
	cr_expect_null(strstr(r.out, "array"), "%s", r.out);
	run_free(&r);
	stop_process(pid);
	dbus_call_free(&call);
	free(addr);
	free(sock);
	world_free(&w);
}

/* Takes each path in argv[1:] for a server of its own: removes what is
 * there (or renames it away), then binds. */
static const char squat_py[] = "import os, socket, sys\n"
			       "for p in sys.argv[1:]:\n"
			       "    for how in (os.unlink, lambda q: os.rename(q, q + '.old')):\n"
			       "        try:\n"
			       "            how(p); break\n"
			       "        except OSError as e:\n"
			       "            print(p, 'stays:', e.strerror)\n"
			       "    try:\n"
			       "        socket.socket(socket.AF_UNIX).bind(p); print(p, 'taken')\n"
			       "    except OSError as e:\n"
			       "        print(p, 'not taken:', e.strerror)\n";

/* W's config: read-write /dev/null, /dev/urandom and DIR, nothing else. */
static void rw_config(struct world *w, const char *dir)
{
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/urandom\", \"%s\"]}}",
		dir);
	cr_assert_eq(fclose(f), 0);
}

/* Two session buses outside (dbus-daemon) at SOCKS, started as W's user
 * and answering: their PIDS, and their sockets' INOS. */
static void buses_up(struct world *w, const char *const socks[2], pid_t pids[2], ino_t inos[2])
{
	for (size_t i = 0; i < 2; i++) {
		char *addr = fmt("--address=unix:path=%s", socks[i]);
		char *daemon[] = {"/usr/bin/dbus-daemon", "--session", addr, "--nofork",
				  "--nopidfile",          NULL};
		pids[i] = world_spawn(w, daemon, w->proj);
		cr_assert(wait_exists(socks[i], 5000), "dbus-daemon did not start at %s", socks[i]);
		struct stat st;
		cr_assert_eq(lstat(socks[i], &st), 0);
		inos[i] = st.st_ino;
		struct dbus_call ping;
		dbus_call_init(&ping, socks[i]);
		struct run_result up = outside_once_up(w, ping.argv);
		cr_assert_eq(up.status, 0, "dbus-daemon at %s does not answer: %s", socks[i],
			     up.err);
		run_free(&up);
		dbus_call_free(&ping);
		free(addr);
	}
}

/* Judged outside: each of SOCKS is still its bus's socket (INOS), which
 * answers there (DIAG: what the session said). */
static void expect_buses_kept(struct world *w, const char *const socks[2], const ino_t inos[2],
			      const char *diag)
{
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		cr_expect(lstat(socks[i], &st) == 0 && st.st_ino == inos[i],
			  "the server's socket at %s was removed or replaced\n%s", socks[i], diag);
		struct dbus_call call;
		dbus_call_init(&call, socks[i]);
		struct run_result r = world_run(w, call.argv, w->proj);
		cr_expect(r.status == 0 && strstr(r.out, "array"),
			  "outside, the bus at %s is not the real one: %s\n%s", socks[i], r.err,
			  diag);
		run_free(&r);
		dbus_call_free(&call);
	}
}

/* Servers the user runs outside often listen directly in /tmp (postgres's
 * .s.PGSQL.5432, mysql.sock) or in a directory of their own there (emacs's
 * /tmp/emacsUID/server): a server of the session's in one's place would
 * get what outside clients send (psql sends its password). Two real
 * dbus-daemons listen at such places; the session cannot remove or rename
 * their sockets, or bind in their place, and an outside client still
 * reaches each real bus. Nor does it bind at a name no server holds yet
 * (round 42c F1). Control: the same, unsandboxed, takes all three. */
BOTH_USERS(sockets, no_server_takes_a_tmp_servers_place, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "socktmp", "");
	rw_config(&w, "/tmp");
	/* Taken: a name no server has. */
	char *free_name = fmt("/tmp/cordon-test-free-%d-%u", (int)getpid(), (unsigned)uid);
	char *direct = fmt("/tmp/.s.CORDONTEST.%d.%u", (int)getpid(), (unsigned)uid);
	char *own_dir = fmt("/tmp/cordon-test-emacs-%d-%u", (int)getpid(), (unsigned)uid);
	cr_assert(mkdir(own_dir, 0700) == 0 && chown(own_dir, uid, gid) == 0);
	char *in_dir = fmt("%s/server", own_dir);
	const char *socks[] = {direct, in_dir};
	pid_t pids[2];
	ino_t inos[2];
	buses_up(&w, socks, pids, inos);
	char *squat[] = {"/usr/bin/python3", "-c", (char *)squat_py, direct, in_dir,
			 free_name,          NULL};
	struct run_result r = run_in(&w, NULL, squat);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	struct stat fst;
	cr_expect_neq(lstat(free_name, &fst), 0, "a socket was made at %s, where no server is\n%s",
		      free_name, diag);
	unlink(free_name);
	run_free(&r);
	expect_buses_kept(&w, socks, inos, diag);
	free(diag);

	r = world_run(&w, squat, w.proj);
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		cr_assert(lstat(socks[i], &st) == 0 && st.st_ino != inos[i],
			  "control: unsandboxed, %s was not taken: %s%s", socks[i], r.out, r.err);
	}
	cr_assert(lstat(free_name, &fst) == 0 && S_ISSOCK(fst.st_mode),
		  "control: unsandboxed, %s was not taken: %s%s", free_name, r.out, r.err);
	run_free(&r);
	for (size_t i = 0; i < 2; i++) {
		stop_process(pids[i]);
		unlink(socks[i]);
		char *old = fmt("%s.old", socks[i]);
		unlink(old);
		free(old);
	}
	unlink(free_name);
	rmdir(own_dir);
	free(free_name);
	free(in_dir);
	free(own_dir);
	free(direct);
	world_free(&w);
}

/* The ssh agent signs as the user: out of reach by default, reachable once
 * "$SSH_AUTH_SOCK" is allowed (the flag, and the config key). */
BOTH_USERS(sockets, ssh_agent_outside_only_when_allowed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockagent", "");
	char *sock = path_join(w.outside, "agent.sock");
	char *agent[] = {"/usr/bin/ssh-agent", "-D", "-a", sock, NULL};
	pid_t pid = world_spawn(&w, agent, w.proj);
	cr_assert(wait_exists(sock, 5000), "ssh-agent did not start");
	char *kv;
	asprintf(&kv, "SSH_AUTH_SOCK=%s", sock);
	world_setenv(&w, kv);
	char *list[] = {"/usr/bin/ssh-add", "-l", NULL};
	/* (The socket is there a moment before the agent listens on it: a CI
	 * run under load got "Connection refused".) */
	struct run_result r = world_run(&w, list, w.proj);
	for (int i = 0; i < 50 && !strstr(r.out, "no identities"); i++) {
		run_free(&r);
		usleep(100 * 1000);
		r = world_run(&w, list, w.proj);
	}
	cr_assert(strstr(r.out, "no identities") != NULL, "control: %s %s", r.out, r.err);
	run_free(&r);
	r = run_in(&w, NULL, list);
	cr_expect_null(strstr(r.out, "no identities"), "the agent answered from inside");
	cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
	run_free(&r);
	r = run_in(&w, "--allow-socket $SSH_AUTH_SOCK", list);
	cr_expect(strstr(r.out, "no identities") != NULL, "allowed by flag: %s %s", r.out, r.err);
	run_free(&r);
	/* The same in the config. */
	FILE *f = fopen(w.cfg, "w");
	fprintf(f, "{" WORLD_BASE_RW ", \"allowed_unix_sockets\": [\"$SSH_AUTH_SOCK\"]}");
	fclose(f);
	r = run_in(&w, NULL, list);
	cr_expect(strstr(r.out, "no identities") != NULL, "allowed by config: %s %s", r.out, r.err);
	run_free(&r);
	stop_process(pid);
	free(kv);
	free(sock);
	world_free(&w);
}

/* "$NAME" for a variable unset or empty in the launch environment allows
 * no socket: said at launch (one line naming the config, the key and the
 * variable) and in explain, and the session starts (a config keeping
 * "$SSH_AUTH_SOCK" is started where no agent runs: cron, an IDE's task);
 * nothing reaches the listener. Control: the variable set to the
 * listener's path, the probe's bytes arrive. Issue 20's last "$UNSET". */
BOTH_USERS(sockets, an_unset_socket_variable_is_said, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockunset", "");
	char *sock = path_join(w.outside, "daemon.sock");
	struct listener l = listen_unix(&w, sock, true);
	FILE *f = fopen(w.cfg, "w");
	fprintf(f, "{" WORLD_BASE_RW ", \"allowed_unix_sockets\": [\"$CORDON_T_SOCK\"]}");
	fclose(f);
	char *probe[] = {"cordon-probe", "unix", sock, "unset-bytes", NULL};
	char *line = fmt("cordon: warning: %s: allowed_unix_sockets: \"$CORDON_T_SOCK\": not set",
			 w.cfg);
	for (int empty = 0; empty < 2; empty++) {
		if (empty)
			world_setenv(&w, "CORDON_T_SOCK=");
		struct run_result r = run_in(&w, NULL, probe);
		char *got = received(&l, 300);
		cr_expect_null(strstr(got, "unset-bytes"), "the listener got bytes");
		cr_expect(strstr(r.err, empty ? "\"$CORDON_T_SOCK\": set but empty" : line),
			  "said at launch: %s", r.err);
		cr_expect(strstr(r.err, "Permission denied"), "%s", r.err);
		free(got);
		run_free(&r);
		char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
		r = world_run(&w, explain, w.proj);
		cr_expect(strstr(r.out, "warning: ") &&
				  strstr(r.out,
					 empty ? "set but empty" : "\"$CORDON_T_SOCK\": not set"),
			  "explain says it: %s", r.out);
		run_free(&r);
		/* (And on the command line.) */
		r = run_in(&w, "--allow-socket $CORDON_T_SOCK", probe);
		cr_expect(strstr(r.err, "cordon: warning: --allow-socket: \"$CORDON_T_SOCK\""),
			  "%s", r.err);
		got = received(&l, 300);
		cr_expect_null(strstr(got, "unset-bytes"), "the listener got bytes");
		free(got);
		run_free(&r);
	}
	/* Control: set, the bytes arrive, and nothing is said. */
	char *kv = fmt("CORDON_T_SOCK=%s", sock);
	world_setenv(&w, kv);
	probe[3] = "set-bytes";
	struct run_result r = run_in(&w, NULL, probe);
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "set-bytes"), "control: %s %s", r.out, r.err);
	cr_expect_null(strstr(r.err, "CORDON_T_SOCK"), "%s", r.err);
	free(got);
	run_free(&r);
	close(l.fd);
	free(kv);
	free(line);
	free(sock);
	world_free(&w);
}

/* An agent started inside is the session's own. */
BOTH_USERS(sockets, ssh_agent_inside_works, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockagentin", "");
	struct run_result r = sh_in(&w, NULL,
				    "eval \"$(ssh-agent -s -a \"$PWD/a.sock\")\" >/dev/null && "
				    "ssh-add -l; echo rc=$?; ssh-agent -k >/dev/null");
	cr_expect(strstr(r.out, "no identities") != NULL, "ssh-add inside: %s %s", r.out, r.err);
	cr_expect(strstr(r.out, "rc=1") != NULL, "%s", r.out);
	run_free(&r);
	world_free(&w);
}

/* A second thread rewrites the address between the supervisor's reading
 * and the kernel's, or dup2s another socket onto the fd: decided on one
 * copy and performed by the supervisor, neither reaches TARGET. ALLOWED
 * (a socket the user let in) is reached: the race did run. */
BOTH_USERS(sockets, races_never_reach_outside, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "sockrace", "");
	char *target = path_join(w.outside, "target.sock");
	char *allowed = path_join(w.outside, "allowed.sock");
	struct listener t = listen_unix(&w, target, true);
	struct listener a = listen_unix(&w, allowed, true);
	struct listener tcp = listen_on(AF_INET, true);
	char opt[512], port[16];
	snprintf(opt, sizeof(opt), "--allow-socket %s", allowed);
	snprintf(port, sizeof(port), "%d", tcp.port);
	/* The listeners are drained meanwhile, or the backlogs fill. */
	pid_t drain = fork();
	cr_assert_geq(drain, 0);
	if (drain == 0) {
		alarm(60);
		for (;;) {
			struct pollfd p[2] = {{.fd = a.fd, .events = POLLIN},
					      {.fd = tcp.fd, .events = POLLIN}};
			if (poll(p, 2, -1) <= 0)
				continue;
			for (int i = 0; i < 2; i++) {
				int c = accept4(p[i].fd, NULL, NULL, SOCK_CLOEXEC);
				if (c >= 0)
					close(c);
			}
		}
	}
	char *r1[] = {"cordon-probe", "race-addr", allowed, target, "3", NULL};
	struct run_result r = run_in(&w, opt, r1);
	unsigned long tries = 0, ok = 0;
	cr_expect(sscanf(r.out, "attempts %lu connected %lu", &tries, &ok) == 2, "status %d: %s %s",
		  r.status, r.out, r.err);
	cr_expect_gt(tries, 1000, "the race hardly ran: %s", r.out);
	cr_expect_gt(ok, 0, "no connect to the allowed socket succeeded: %s", r.out);
	char *got = received(&t, 200);
	cr_expect_eq(got[0], '\0', "the address race reached the target outside: %s", got);
	free(got);
	run_free(&r);
	char *r2[] = {"cordon-probe", "race-fd", port, target, "3", NULL};
	r = run_in(&w, opt, r2);
	cr_expect(sscanf(r.out, "attempts %lu connected %lu", &tries, &ok) == 2, "status %d: %s %s",
		  r.status, r.out, r.err);
	cr_expect_gt(tries, 1000, "the race hardly ran: %s", r.out);
	got = received(&t, 200);
	cr_expect_eq(got[0], '\0', "the fd race reached the target outside: %s", got);
	free(got);
	run_free(&r);
	stop_process(drain);
	close(t.fd);
	close(a.fd);
	close(tcp.fd);
	free(target);
	free(allowed);
	world_free(&w);
}

/* Kill the supervisor (the keeper held still meanwhile, so that the session
 * lives on): no call it would have judged goes anywhere (ENOSYS: no copy of
 * its listener is left), and once the keeper moves the session ends. */
BOTH_USERS(sockets, a_dead_supervisor_leaves_nothing_connectable, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sockdead", "");
	char *sock = path_join(w.outside, "allowed.sock");
	char *go = path_join(w.proj, "go");
	char *out = path_join(w.proj, "late.txt");
	struct listener l = listen_unix(&w, sock, true);
	char *script;
	asprintf(&script,
		 "echo $CORDON_SESSION > sid; echo $$ >> pids; "
		 "cordon-probe wait-connect '%s' '%s' > '%s' 2>&1; sleep 300",
		 go, sock, out);
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--allow-socket", sock, "--",
			"/bin/sh",  "-c",  script,     NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	char *pids = path_join(w.proj, "pids");
	/* The supervisor is our child; its keeper, the shell's parent. */
	pid_t shell[1];
	cr_assert_eq(wait_pids(pids, shell, 1, 5000), 1, "the session did not start");
	char *id = session_id(&w);
	char stat[64];
	snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)shell[0]);
	char *st = read_file(stat);
	cr_assert_not_null(st);
	int keeper = 0;
	cr_assert_eq(sscanf(strrchr(st, ')') + 2, "%*c %d", &keeper), 1);
	free(st);
	hold_still(keeper);
	cr_assert_eq(kill(pid, SIGKILL), 0);
	int status;
	waitpid(pid, &status, 0);
	free(write_file(w.proj, "go", ""));
	cr_expect(wait_exists(out, 5000), "the late connect never finished");
	usleep(100000);
	cr_expect(contains(out, "ENOSYS"), "a connect after the supervisor died: %s",
		  read_file(out));
	char *got = received(&l, 300);
	cr_expect_eq(got[0], '\0', "the socket was reached without a supervisor: %s", got);
	free(got);
	let_go(keeper);
	cr_expect(wait_gone(keeper, 5000), "the keeper outlived its supervisor");
	cr_expect(wait_gone(shell[0], 5000), "the session outlived its supervisor");
	close(l.fd);
	free(id);
	free(pids);
	free(script);
	free(out);
	free(go);
	free(sock);
	world_free(&w);
}

/* An abstract socket made inside is the session's own; Landlock's scope no
 * longer sees these connects (the supervisor makes them), so the supervisor
 * asks who listens. */
Test(sockets, abstract_socket_inside_works, .timeout = 60)
{
	struct world w;
	world_init(&w, "sockabs", "");
	char *py = "import socket\n"
		   "s=socket.socket(socket.AF_UNIX); s.bind('\\0cordon-test-abstract-inside')\n"
		   "s.listen(1)\n"
		   "c=socket.socket(socket.AF_UNIX); c.connect('\\0cordon-test-abstract-inside')\n"
		   "c.send(b'ok'); a,_=s.accept(); print('got', a.recv(2).decode())\n";
	char *args[] = {"/usr/bin/python3", "-c", py, NULL};
	struct run_result r = run_in(&w, NULL, args);
	cr_expect(strstr(r.out, "got ok") != NULL, "%s %s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* Binds a listening unix socket at each of argv[1:], printing "PATH ok"
 * or "PATH <error>". */
static const char bind_py[] = "import socket, sys\n"
			      "for p in sys.argv[1:]:\n"
			      "    s = socket.socket(socket.AF_UNIX)\n"
			      "    try:\n"
			      "        s.bind(p); s.listen(1); print(p, 'ok')\n"
			      "    except OSError as e:\n"
			      "        print(p, e.strerror)\n";

/* Binds a socket in a directory made in argv[2], then moves that directory
 * into argv[1] as "pulse" and links argv[1]/bus to the socket. */
static const char moves_py[] =
	"import os, socket, sys\n"
	"d, t = sys.argv[1], sys.argv[2]\n"
	"os.mkdir(t + '/d')\n"
	"s = socket.socket(socket.AF_UNIX); s.bind(t + '/d/native'); s.listen(1)\n"
	"print('bound ok')\n"
	"for name, f in [('symlink', lambda: os.symlink(t + '/d/native', d + '/bus')),\n"
	"                ('move', lambda: os.rename(t + '/d', d + '/pulse'))]:\n"
	"    try:\n"
	"        f(); print(name, 'ok')\n"
	"    except OSError as e:\n"
	"        print(name, e.strerror)\n";

/* Where servers outside listen, no server of the session's takes their
 * place: an outside client would reach it instead (a tmux client sends it
 * its terminal; D-Bus clients, what they store in the keyring). In the
 * runtime directory (/run/user/UID: D-Bus, Wayland, gpg-agent) and in /tmp
 * no socket is made at all, nor a symlink to one of the session's, nor a
 * directory holding one moved in; tmux's directory is made 0700 when
 * missing; the project, the session's socket directory and its TMPDIR take
 * sockets (test suites, multiprocessing). Judged from outside: is there a
 * socket at the path afterwards? Control: the same binds unsandboxed. (The
 * test makes the runtime directory where the machine has none, and removes
 * what it made.) */
BOTH_USERS(sockets, no_server_takes_an_outside_servers_place, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir runtime;
	runtime_dir_make(&runtime, uid, gid);
	const char *rt = runtime.path;
	char *tmux = fmt("/tmp/tmux-%u", (unsigned)uid);
	struct stat st;
	bool had_tmux = stat(tmux, &st) == 0;
	struct world w;
	world_for(&w, who, "sockplace", "");
	char *rt_dir = fmt("%s/cordon-test-%d", rt, (int)getpid());
	cr_assert(mkdir(rt_dir, 0700) == 0 && chown(rt_dir, uid, gid) == 0);
	char *agent_sock =
		fmt("/tmp/cordon-test-agent-%d-%u/agent.1", (int)getpid(), (unsigned)uid);
	char *agent_d = strdup(agent_sock);
	*strrchr(agent_d, '/') = '\0';
	cr_assert(mkdir(agent_d, 0700) == 0 && chown(agent_d, uid, gid) == 0);
	FILE *f = fopen(w.cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", "
		"\"/dev/ptmx\", \"/dev/urandom\", \"/dev/zero\", \"/tmp\", \"%s\"]}}",
		rt);
	cr_assert_eq(fclose(f), 0);
	char *kv = fmt("SSH_AUTH_SOCK=%s", agent_sock);
	world_setenv(&w, kv);
	/* The session's socket directory in the runtime directory, as on a
	 * desktop: one file system, so only Landlock stops a move from it. */
	char *xdg = fmt("XDG_RUNTIME_DIR=%s", rt);
	world_setenv(&w, xdg);
	/* Refused inside: the runtime directory, tmux's, the agent's. */
	char *in_rt = fmt("%s/bus", rt_dir),
	     *in_tmux = fmt("%s/cordon-test-%d", tmux, (int)getpid());
	char *in_agent = fmt("%s/agent.2", agent_d);
	/* And /tmp itself (round 42c F1). */
	char *in_tmp = fmt("/tmp/cordon-test-%d-%u.sock", (int)getpid(), (unsigned)uid);
	char *script[] = {
		"/usr/bin/python3", "-c", (char *)bind_py, in_rt, in_tmux, in_agent, in_tmp, NULL};
	struct run_result r = run_in(&w, NULL, script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	const char *refused[] = {in_rt, in_tmux, in_agent, in_tmp};
	for (size_t i = 0; i < 4; i++)
		cr_expect_neq(lstat(refused[i], &st), 0, "a socket was made at %s\n%s", refused[i],
			      diag);
	cr_expect(stat(tmux, &st) == 0 && (st.st_mode & 0777) == 0700,
		  "tmux's directory was not made 0700\n%s", diag);
	run_free(&r);
	unlink(in_tmp);

	/* A socket's place taken without making one there: a symlink to one
	 * of the session's, or a directory holding one moved in. */
	free(write_file(w.proj, "moves.py", moves_py));
	char *moved = fmt("%s/pulse", rt_dir), *linked = fmt("%s/bus", rt_dir);
	r = sh_in(&w, NULL, "/usr/bin/python3 moves.py %s \"$TMUX_TMPDIR\"", rt_dir);
	char *mdiag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "bound ok"), "no socket in the session's directory\n%s", mdiag);
	cr_expect_neq(lstat(moved, &st), 0, "a directory holding a socket was moved in\n%s", mdiag);
	cr_expect_neq(lstat(linked, &st), 0, "a symlink took a socket's place\n%s", mdiag);
	run_free(&r);
	char *src = fmt("%s/cordon-test-src-%d", rt, (int)getpid());
	char *ctl = fmt("mkdir -p %s && /usr/bin/python3 moves.py %s %s", src, rt_dir, src);
	r = sh_outside(&w, ctl);
	free(ctl);
	cr_assert(lstat(moved, &st) == 0 && lstat(linked, &st) == 0,
		  "control: the move and the link failed unsandboxed: %s%s", r.out, r.err);
	run_free(&r);
	unlink(linked);
	char *native = fmt("%s/native", moved);
	unlink(native);
	rmdir(moved);
	rmdir(src);
	free(native);
	free(src);
	free(mdiag);
	free(moved);
	free(linked);

	r = world_run(&w, script, w.proj);
	for (size_t i = 0; i < 4; i++)
		cr_assert(lstat(refused[i], &st) == 0 && S_ISSOCK(st.st_mode),
			  "control: no socket at %s unsandboxed: %s%s", refused[i], r.out, r.err);
	run_free(&r);
	for (size_t i = 0; i < 4; i++)
		unlink(refused[i]);
	rmdir(rt_dir);
	rmdir(agent_d);
	if (!had_tmux)
		rmdir(tmux);
	runtime_dir_free(&runtime);
	free(diag);
	free(in_rt);
	free(in_tmux);
	free(in_agent);
	free(in_tmp);
	free(kv);
	free(xdg);
	free(agent_sock);
	free(agent_d);
	free(rt_dir);
	free(tmux);
	world_free(&w);
}

/* One session's socket directory is out of every other session's reach.
 * With no runtime directory set they lay in /tmp, which every session may
 * write, and one session removed another live one's: its tmux server was
 * cut off (round 40h F2); in the runtime directory (read-write by default)
 * the same, and with XDG_RUNTIME_DIR a directory in /tmp, a session moved
 * that directory away with every session's in it (41a F1). Judged
 * outside: the other session's tmux server still answers, nothing was
 * planted or made beside it, and a session's directory the test made
 * beside it is still there. Control: that one goes unsandboxed. Each
 * session still writes its own. */
BOTH_USERS(sockets, another_session_s_socket_directory_is_out_of_reach, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir runtime = {0};
	struct world w;
	world_for(&w, who, "sockothers", "");
	FILE *f = fopen(w.cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", "
		"\"/dev/ptmx\", \"/dev/urandom\", \"/dev/zero\", \"/tmp\", \"/run/user/%u\"]}}",
		(unsigned)uid);
	cr_assert_eq(fclose(f), 0);
	char *bdir_file = path_join(w.proj, "bdir"), *stop = path_join(w.proj, "stop");
	/* (A runtime directory the caller set in /tmp, then the one the
	 * system makes.) */
	char *tmp_xdg = fmt("/tmp/cordon-test-xdg-%d-%u", (int)getpid(), (unsigned)uid);
	char *tmp_xdg_old = fmt("%s.old", tmp_xdg);
	cr_assert(mkdir(tmp_xdg, 0700) == 0 && chown(tmp_xdg, uid, gid) == 0);
	for (int xdg = 0; xdg < 2; xdg++) {
		if (xdg)
			runtime_dir_make(&runtime, uid, gid);
		char *kv = fmt("XDG_RUNTIME_DIR=%s", xdg ? runtime.path : tmp_xdg);
		world_setenv(&w, kv);
		free(kv);
		unlink(bdir_file);
		unlink(stop);
		char *b_script = "tmux -f /dev/null new-session -d -s b 'sleep 60' && "
				 "echo \"$TMUX_TMPDIR\" > bdir.tmp && mv bdir.tmp bdir && "
				 "while [ ! -e stop ]; do sleep 0.05; done";
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  b_script,   NULL};
		pid_t b = world_spawn(&w, argv, w.proj);
		cr_assert(wait_exists(bdir_file, 20000), "session B did not start its tmux server");
		char *bdir = read_file(bdir_file);
		*strchrnul(bdir, '\n') = '\0';
		char *parent = strdup(bdir);
		*strrchr(parent, '/') = '\0';
		char *sock = fmt("%s/tmux-%u/default", bdir, (unsigned)uid);
		char *has[] = {"/usr/bin/tmux", "-S", sock, "has-session", "-t", "b", NULL};
		struct run_result r = world_run(&w, has, w.proj);
		cr_assert_eq(r.status, 0, "control: B's tmux server must answer: %s", r.err);
		run_free(&r);
		/* Beside it: what another session's looks like. */
		char *sib = fmt("%s/cordon-%016llx", parent, (unsigned long long)getpid());
		cr_assert_eq(mkdir(sib, 0700), 0, "%s: %s", sib, strerror(errno));
		free(write_file(sib, "x", "x"));
		char *sib_x = path_join(sib, "x");
		cr_assert(lchown(sib, uid, gid) == 0 && lchown(sib_x, uid, gid) == 0);
		struct stat before, after;
		cr_assert_eq(stat(parent, &before), 0);
		char *made = fmt("%s/cordon-0123456789abcdef", parent);
		/* (Its mode changed only where it is cordon's own: not /tmp or
		 * the runtime directory themselves, on a build that put it
		 * there.) */
		char *chmod_it =
			strstr(parent, "cordon") ? fmt("chmod 777 %s;", parent) : strdup("");
		r = sh_in(&w, NULL,
			  "for d in %s %s; do rm -rf \"$d\"/* \"$d\"; mv \"$d\" \"$d.gone\";"
			  " mkdir -p \"$d\"; touch \"$d/planted\"; done; %s mkdir %s;"
			  " mv \"$XDG_RUNTIME_DIR\" %s; touch \"$TMUX_TMPDIR/mine\" && echo own-ok;"
			  " chmod 711 \"$XDG_RUNTIME_DIR\"",
			  bdir, sib, chmod_it, made, tmp_xdg_old);
		char *diag = fmt("(%s) inside (%d): %s%s", xdg ? "runtime directory" : "/tmp",
				 r.status, r.out, r.err);
		cr_expect(strstr(r.out, "own-ok"), "the session could not write its own %s", diag);
		run_free(&r);
		r = world_run(&w, has, w.proj);
		cr_expect_eq(r.status, 0, "B's tmux server was cut off: %s\n%s", r.err, diag);
		run_free(&r);
		char *planted = path_join(bdir, "planted"), *gone = fmt("%s.gone", bdir);
		cr_expect_not(file_exists(planted), "a name was made in B's directory %s", diag);
		cr_expect_not(file_exists(gone), "B's directory was moved %s", diag);
		cr_expect(file_exists(sib_x), "the directory beside it was removed %s", diag);
		cr_expect_not(file_exists(made), "a directory was made beside it %s", diag);
		cr_expect(stat(parent, &after) == 0 && after.st_mode == before.st_mode,
			  "the directory holding it changed mode %s", diag);
		/* A session started after: the same place (a runtime directory
		 * made unfit from inside moved every later one to where the
		 * first could write, review 41c F1). */
		r = sh_in(&w, NULL, "echo \"$TMUX_TMPDIR\"");
		char *later = fmt("%s/cordon-", parent);
		cr_expect(strncmp(r.out, later, strlen(later)) == 0,
			  "a later session's directory is elsewhere: %s %s", r.out, diag);
		run_free(&r);
		free(later);
		if (xdg)
			(void)chmod(runtime.path, 0700);
		/* Control: the same removal, unsandboxed. */
		char *ctl = fmt("rm -rf %s", sib);
		r = sh_outside(&w, ctl);
		cr_expect_not(file_exists(sib_x), "control: the removal failed unsandboxed: %s",
			      r.err);
		run_free(&r);
		free(ctl);
		/* (What a failing run left: gone with the test.) */
		char *sib_planted = path_join(sib, "planted");
		unlink(sib_x), unlink(sib_planted), rmdir(sib), rmdir(made);
		free(write_file(w.proj, "stop", ""));
		int st;
		cr_expect_eq(waitpid(b, &st, 0), b);
		/* (Its keeper removes it once the session's processes are gone,
		 * which may be after the launcher has returned: under load, a
		 * moment later.) */
		for (int i = 0; i < 500 && file_exists(bdir); i++)
			usleep(10 * 1000);
		cr_expect_not(file_exists(bdir), "B's directory stayed after B ended");
		free(sib_planted);
		free(planted), free(gone), free(made), free(chmod_it), free(diag);
		free(sib), free(sib_x), free(sock), free(parent), free(bdir);
	}
	free(bdir_file), free(stop);
	struct run_result r = run_cmd((char *[]){"/bin/rm", "-rf", tmp_xdg, tmp_xdg_old, NULL},
				      NULL, NULL, 10000);
	run_free(&r);
	free(tmp_xdg), free(tmp_xdg_old);
	world_free(&w);
	runtime_dir_free(&runtime);
}

/* A server outside with its socket in the runtime directory (read-write by
 * default: D-Bus's bus, Wayland's, PulseAudio's pulse/native): no socket
 * is made there inside, but one could be removed, and the user's desktop
 * lost its servers until they started again (round 42c F2). Judged
 * outside: the socket is the same inode and the bus still answers there.
 * Control: unsandboxed, rm removes them. */
BOTH_USERS(sockets, a_runtime_directory_server_s_socket_stays, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir runtime;
	runtime_dir_make(&runtime, uid, gid);
	const char *rt = runtime.path;
	struct world w;
	world_for(&w, who, "sockrt", "");
	rw_config(&w, rt);
	char *direct = fmt("%s/cordon-test-bus-%d", rt, (int)getpid());
	char *own_dir = fmt("%s/cordon-test-pulse-%d", rt, (int)getpid());
	cr_assert(mkdir(own_dir, 0700) == 0 && chown(own_dir, uid, gid) == 0);
	char *in_dir = fmt("%s/native", own_dir);
	const char *socks[] = {direct, in_dir};
	pid_t pids[2];
	ino_t inos[2];
	buses_up(&w, socks, pids, inos);
	char *rm = fmt("rm -f %s %s; ls -la %s %s", direct, in_dir, rt, own_dir);
	struct run_result r = sh_in(&w, NULL, "%s", rm);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	expect_buses_kept(&w, socks, inos, diag);
	free(diag);
	r = sh_outside(&w, rm);
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		cr_assert_neq(lstat(socks[i], &st), 0, "control: unsandboxed, %s stayed: %s%s",
			      socks[i], r.out, r.err);
	}
	run_free(&r);
	for (size_t i = 0; i < 2; i++)
		stop_process(pids[i]);
	rmdir(own_dir);
	runtime_dir_free(&runtime);
	free(rm);
	free(in_dir);
	free(own_dir);
	free(direct);
	world_free(&w);
}

/* Each path: its directory renamed aside and made again, then a socket
 * bound at the path (a server's place taken one level up). */
static const char dirsquat_py[] =
	"import os, socket, sys\n"
	"for p in sys.argv[1:]:\n"
	"    d = os.path.dirname(p)\n"
	"    try:\n"
	"        os.rename(d, d + '.old'); os.mkdir(d, 0o700)\n"
	"        socket.socket(socket.AF_UNIX).bind(p); print(p, 'taken')\n"
	"    except OSError as e:\n"
	"        print(p, 'stays:', e.strerror)\n";

/* A server outside whose socket lies below what the scan of /tmp looks
 * through: in a 0755 directory of the user's, and two levels down in 0700
 * ones (Neovim's nvim.USER/XXXXXX/). Review 42e F1 renamed the directory
 * aside, made it again and listened at the same path: the user's client
 * then sent its password to the session. Judged outside: each socket is
 * still its bus's, which answers there. Control: unsandboxed, both are
 * taken. */
BOTH_USERS(sockets, a_server_deeper_in_tmp_keeps_its_place, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "sockdeep", "");
	rw_config(&w, "/tmp");
	char *open_dir = fmt("/tmp/cordon-test-open-%d-%u", (int)getpid(), (unsigned)uid);
	char *deep_top = fmt("/tmp/cordon-test-deep-%d-%u", (int)getpid(), (unsigned)uid);
	char *deep_dir = fmt("%s/XXYYZZ", deep_top);
	cr_assert(mkdir(open_dir, 0755) == 0 && chown(open_dir, uid, gid) == 0 &&
		  mkdir(deep_top, 0700) == 0 && chown(deep_top, uid, gid) == 0 &&
		  mkdir(deep_dir, 0700) == 0 && chown(deep_dir, uid, gid) == 0);
	char *a = fmt("%s/bus", open_dir), *b = fmt("%s/nvim.77.0", deep_dir);
	const char *socks[] = {a, b};
	pid_t pids[2];
	ino_t inos[2];
	buses_up(&w, socks, pids, inos);
	char *squat[] = {"/usr/bin/python3", "-c", (char *)dirsquat_py, a, b, NULL};
	struct run_result r = run_in(&w, NULL, squat);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	expect_buses_kept(&w, socks, inos, diag);
	free(diag);
	r = world_run(&w, squat, w.proj);
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		cr_assert(lstat(socks[i], &st) == 0 && st.st_ino != inos[i],
			  "control: unsandboxed, %s was not taken: %s%s", socks[i], r.out, r.err);
	}
	run_free(&r);
	for (size_t i = 0; i < 2; i++)
		stop_process(pids[i]);
	char *rm = fmt("rm -rf %s %s.old %s %s.old", open_dir, open_dir, deep_top, deep_dir);
	char *argv[] = {"/bin/sh", "-c", rm, NULL};
	struct run_result c = run_cmd(argv, NULL, "/", 10000);
	run_free(&c);
	free(rm);
	free(a);
	free(b);
	free(deep_dir);
	free(deep_top);
	free(open_dir);
	world_free(&w);
}
