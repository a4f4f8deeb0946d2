/* The launcher stays as the session's parent: what a terminal, a job-control
 * shell and an agent harness see must not change. ^C reaches the command
 * once, ^Z stops the whole job and fg resumes it, signals sent to cordon go
 * on to the command, its exit status comes back (128+N for a signal), and
 * closed stdio is no obstacle. Also standalone mode (LD_PRELOAD without the
 * launcher), which forks a supervisor of its own. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape/both.h"
#include "helpers.h"

static void type(int master, const char *s)
{
	cr_assert_eq(write(master, s, strlen(s)), (ssize_t)strlen(s));
}

/* ^C goes to the terminal's foreground group, which holds the command and
 * cordon: the command gets it once (cordon does not pass on what the
 * terminal sent), and ^\ ends it with 128+SIGQUIT. */
Test(terminal, ctrl_c_reaches_the_command_once, .timeout = 60)
{
	struct world w;
	world_init(&w, "ctrlc", "");
	char *script = "echo $CORDON_SESSION > sid; trap 'echo INT >> ints' INT; echo ready; "
		       "while :; do sleep 0.05; done";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	char buf[8192] = "";
	cr_assert(pty_read_until(master, "ready", 5000, buf, sizeof(buf), true), "%s", buf);
	type(master, "\x03");
	char *ints = path_join(w.proj, "ints");
	cr_assert(wait_exists(ints, 3000), "^C did not reach the command");
	usleep(300000);
	char *got = read_file(ints);
	cr_expect_str_eq(got, "INT\n", "^C reached the command more than once");
	free(got);
	type(master, "\x1c"); /* ^\ */
	int st = 0;
	for (int i = 0; i < 500 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGQUIT, "status %#x", st);
	expect_session_gone(&w, 0);
	close(master);
	free(name);
	free(ints);
	world_free(&w);
}

/* A job-control shell outside runs cordon; ^Z stops the job (the shell says
 * so and gets its prompt back), fg resumes it, ^C ends it. Inside, a shell
 * of its own does the same with its jobs. */
Test(terminal, ctrl_z_and_fg, .timeout = 60)
{
	struct world w;
	world_init(&w, "ctrlz", "");
	char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	char buf[16384] = "";
	char *cmd;
	asprintf(&cmd, "%s run --config %s -- /bin/sleep 30\n", CORDON_BIN, w.cfg);
	type(master, "PS1='$ '\n");
	type(master, cmd);
	usleep(500000);
	type(master, "\x1a"); /* ^Z */
	cr_expect(pty_read_until(master, "Stopped", 5000, buf, sizeof(buf), true),
		  "no job stopped: %s", buf);
	type(master, "echo outer-$((2+3))\n");
	cr_expect(pty_read_until(master, "outer-5", 5000, buf, sizeof(buf), true),
		  "the shell did not get the terminal back: %s", buf);
	buf[0] = '\0';
	type(master, "fg\n");
	usleep(300000);
	type(master, "\x03");
	type(master, "echo after-$((3+4))\n");
	cr_expect(pty_read_until(master, "after-7", 5000, buf, sizeof(buf), true), "%s", buf);
	/* Inside: the sandboxed shell's own job control. */
	buf[0] = '\0';
	free(cmd);
	asprintf(&cmd, "%s run --config %s -- /bin/bash --norc --noprofile -i\n", CORDON_BIN,
		 w.cfg);
	type(master, cmd);
	type(master, "PS1='in$ '; sleep 30\n");
	usleep(700000);
	type(master, "\x1a");
	cr_expect(pty_read_until(master, "Stopped", 5000, buf, sizeof(buf), true), "inside: %s",
		  buf);
	type(master, "echo inner-$((4+5))\n");
	cr_expect(pty_read_until(master, "inner-9", 5000, buf, sizeof(buf), true), "inside: %s",
		  buf);
	type(master, "kill %1; exit\n");
	type(master, "exit\n");
	int st;
	for (int i = 0; i < 500 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(master);
	free(cmd);
	free(name);
	world_free(&w);
}

/* An agent harness: the signal it sends cordon reaches the command (its
 * handler runs and sets the status), a command killed by a signal gives
 * 128+N, and closed stdin or stdout do not stop the command from running. */
Test(terminal, harness_signals_statuses_and_closed_stdio, .timeout = 60)
{
	struct world w;
	world_init(&w, "harness", "");
	char *argv[] = {
		CORDON_BIN, "run",
		"--config", w.cfg,
		"--",       "/bin/sh",
		"-c",       "trap 'echo term > got; exit 3' TERM; echo $$ > pids; sleep 30 & wait",
		NULL};
	pid_t pid = spawn_cmd(argv, w.env, w.proj);
	char *pids = path_join(w.proj, "pids");
	cr_assert(wait_exists(pids, 5000));
	usleep(100000);
	cr_assert_eq(kill(pid, SIGTERM), 0);
	int st;
	waitpid(pid, &st, 0);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %#x", st);
	char *got = path_join(w.proj, "got");
	cr_expect(contains(got, "term"), "the command's handler did not run");

	struct run_result r = sh_in(&w, NULL, "kill -9 $$");
	cr_expect_eq(r.status, 128 + SIGKILL, "%s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "exit 42");
	cr_expect_eq(r.status, 42);
	run_free(&r);

	/* Closed stdin, then closed stdout. */
	char *marker = path_join(w.proj, "ran");
	char *script;
	asprintf(&script, "exec %s run --config %s -- /bin/sh -c 'touch %s' %s", CORDON_BIN, w.cfg,
		 marker, "<&-");
	char *sh1[] = {"/bin/sh", "-c", script, NULL};
	r = run_cmd(sh1, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 0, "closed stdin: %s", r.err);
	cr_expect(file_exists(marker), "closed stdin: nothing ran: %s", r.err);
	run_free(&r);
	unlink(marker);
	free(script);
	asprintf(&script, "exec %s run --config %s -- /bin/sh -c 'touch %s' %s", CORDON_BIN, w.cfg,
		 marker, ">&-");
	char *sh2[] = {"/bin/sh", "-c", script, NULL};
	r = run_cmd(sh2, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 0, "closed stdout: %s", r.err);
	cr_expect(file_exists(marker), "closed stdout: nothing ran: %s", r.err);
	run_free(&r);
	free(script);
	free(marker);
	free(got);
	free(pids);
	world_free(&w);
}

/* Standalone mode: the shim in LD_PRELOAD, no launcher. The shell's own
 * process becomes the supervisor, and its sandboxed child is refused an
 * outside socket (the control: the same probe unsandboxed gets through). */
Test(terminal, standalone_mode_mediates_sockets, .timeout = 60)
{
	struct world w;
	world_init(&w, "standalone", "");
	char *sock = path_join(w.outside, "daemon.sock");
	struct listener l = listen_unix(&w, sock, true);
	char *pre, *cfg, *cmd;
	asprintf(&pre, "LD_PRELOAD=%s", CORDON_SHIM_SO);
	asprintf(&cfg, "CORDON_CONFIG=%s", w.cfg);
	asprintf(&cmd,
		 "echo $CORDON_SANDBOX > mark; cordon-probe unix %s standalone-inside; "
		 "cordon-probe socketpair",
		 sock);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	char *envp[] = {w.env[0], w.env[1], w.env[2], w.env[3], pre, cfg, NULL};
	char *ctl[] = {CORDON_PROBE, "unix", sock, "standalone-control", NULL};
	struct run_result r = run_cmd(ctl, w.env, w.proj, 20000);
	char *got = received(&l, 2000);
	cr_assert(strstr(got, "standalone-control"), "control: %s", r.err);
	free(got);
	run_free(&r);
	r = run_cmd(argv, envp, w.proj, 20000);
	got = received(&l, 300);
	char *mark = path_join(w.proj, "mark");
	cr_expect(contains(mark, "1"), "not sandboxed: %s", r.err);
	cr_expect_null(strstr(got, "standalone-inside"),
		       "standalone mode reached an outside socket");
	cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
	cr_expect(strstr(r.out, "pair ok") != NULL, "socketpair must work: %s", r.out);
	cr_expect_eq(r.status, 0, "%s", r.err);
	free(got);
	run_free(&r);
	close(l.fd);
	free(mark);
	free(cmd);
	free(pre);
	free(cfg);
	free(sock);
	world_free(&w);
}

/* Round 59e F2: tcflow(TCOOFF) on the shared terminal left the shell after
 * it unable to write (its prompt hung; ^Q and ^C did not help); F1: a
 * virtual console's own calls (KD*, PIO_*, VT_*) outlived the session.
 * Inside, TCXONC and the console families are refused: what the shell
 * writes after the session arrives (judged on the terminal's master), and
 * a console call gets EPERM where outside the driver answers (ENOTTY on a
 * pty). Control: the same tcflow outside suspends the output. */
Test(terminal, the_terminal_s_flow_and_console_stay_the_user_s, .timeout = 60)
{
	struct world w;
	world_init(&w, "tcflow", "");
	static const char py[] = "import fcntl, termios\n"
				 "try:\n fcntl.ioctl(0, 0x4B33, 0); print('kd ok')\n"
				 "except OSError as e:\n print('kd %d' % e.errno)\n"
				 "try:\n termios.tcflow(0, termios.TCOOFF); print('flow ok')\n"
				 "except Exception as e:\n print('flow %d' % e.args[0])\n";
	char *prog = write_file(w.proj, "flow.py", py);
	for (int ctl = 0; ctl < 2; ctl++) {
		char *script = ctl ? fmt("/usr/bin/python3 %s; echo after-the-session", prog)
				   : fmt("%s run --config %s -- /usr/bin/python3 %s; "
					 "echo after-the-session",
					 CORDON_BIN, w.cfg, prog);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		int master;
		char *name;
		pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
		char buf[8192] = "";
		bool after = pty_read_until(master, "after-the-session", ctl ? 2000 : 15000, buf,
					    sizeof(buf), false);
		if (ctl) {
			cr_expect(!after && strstr(buf, "kd 25"),
				  "control: the output was not suspended, or no driver answered: "
				  "%s",
				  buf);
		} else {
			cr_expect(after, "the shell's output after the session hung: %s", buf);
			cr_expect(strstr(buf, "kd 1") && strstr(buf, "flow 1"), "%s", buf);
		}
		end_shell(pid, master);
		free(name);
		free(script);
	}
	free(prog);
	world_free(&w);
}

/* Round 59h M1: a command that stops itself (bash's suspend, kill -STOP
 * $$) stopped alone, and the user's shell, waiting for cordon, never got
 * the terminal back. Now cordon stops as the job with it, and fg goes on
 * with both. Control: the same commands without cordon. */
BOTH_USERS(terminal, a_command_that_stops_itself_stops_the_job, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "selfstop", "");
	world_give(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		char *run = ctl ? fmt("%s", "") : fmt("%s run --config %s -- ", bin, w.cfg);
		char *inner = fmt("inner-%d", ctl), *resumed = fmt("resumed-%d", ctl);
		char *inner_at = path_join(w.proj, inner), *resumed_at = path_join(w.proj, resumed);
		type(master, "PS1='out$ '\n");
		char *job = fmt("%s/bin/bash --norc --noprofile -i\n", run);
		type(master, job);
		type(master, "PS1='in$ '\n");
		cr_expect(pty_read_until(master, "in$ ", 15000, buf, sizeof(buf), true),
			  "%d: no inner prompt: %s", ctl, buf);
		type(master, "suspend -f\n");
		cr_expect(pty_read_until(master, "Stopped", 10000, buf, sizeof(buf), true),
			  "%d: the job did not stop: %s", ctl, buf);
		type(master, "echo outer-$((2+3))\n");
		cr_expect(pty_read_until(master, "outer-5", 5000, buf, sizeof(buf), true),
			  "%d: the shell did not get the terminal back: %s", ctl, buf);
		type(master, "fg\n");
		usleep(500000);
		char *line = fmt("echo yes > %s; exit\n", inner);
		type(master, line);
		cr_expect(wait_exists(inner_at, 10000), "%d: the inner shell did not go on: %s",
			  ctl, buf);
		cr_expect(pty_read_until(master, "out$ ", 10000, buf, sizeof(buf), true),
			  "%d: the outer shell did not come back: %s", ctl, buf);
		/* A command without a shell of its own, stopped by itself. */
		free(job);
		job = fmt("%s/bin/sh -c 'kill -STOP $$; echo yes > %s'\n", run, resumed);
		buf[0] = '\0';
		type(master, job);
		cr_expect(pty_read_until(master, "Stopped", 10000, buf, sizeof(buf), true),
			  "%d: the job did not stop: %s", ctl, buf);
		type(master, "echo outer-$((3+4))\n");
		cr_expect(pty_read_until(master, "outer-7", 5000, buf, sizeof(buf), true),
			  "%d: the shell did not get the terminal back: %s", ctl, buf);
		cr_expect(!file_exists(resumed_at), "%d: it went on before fg", ctl);
		type(master, "fg\n");
		cr_expect(wait_exists(resumed_at, 10000), "%d: fg did not continue it: %s", ctl,
			  buf);
		end_shell(pid, master);
		free(line), free(job), free(run), free(name);
		free(inner), free(resumed), free(inner_at), free(resumed_at);
	}
	world_free(&w);
}

/* Round 60a left: cordon started by a sh -c (in the job's group with
 * it), its command stopping itself: cordon stopped alone, the sh went on
 * waiting, and the user's shell never said Stopped. Now the whole group
 * stops, as the terminal's ^Z would stop it, and fg goes on with it.
 * (Without cordon the sh -c keeps waiting too: nothing to compare.) */
BOTH_USERS(terminal, a_self_stop_under_sh_c_stops_the_job, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "selfstopsh", "");
	world_give(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char buf[16384] = "";
	char *resumed = path_join(w.proj, "resumed");
	char *job = fmt("/bin/sh -c '%s run --config %s -- /bin/sh -c \"kill -STOP \\$\\$; "
			"echo yes > %s\"; echo af\"\"ter'\n",
			bin, w.cfg, resumed);
	type(master, job);
	cr_expect(pty_read_until(master, "Stopped", 10000, buf, sizeof(buf), true),
		  "the job did not stop: %s", buf);
	type(master, "echo outer-$((3+4))\n");
	cr_expect(pty_read_until(master, "outer-7", 5000, buf, sizeof(buf), true),
		  "the shell did not get the terminal back: %s", buf);
	cr_expect(!file_exists(resumed), "it went on before fg");
	type(master, "fg\n");
	cr_expect(wait_exists(resumed, 10000), "fg did not continue it: %s", buf);
	cr_expect(pty_read_until(master, "after", 10000, buf, sizeof(buf), true),
		  "the sh did not go on: %s", buf);
	end_shell(pid, master);
	free(job), free(name), free(resumed);
	world_free(&w);
}

/* Round 59e F3: terminal modes a session changed (stty -isig -echo raw)
 * stayed on the user's terminal after it; now they are as they were when
 * it began, whether the command exits or is killed. Control: the same
 * without cordon leaves them changed. */
BOTH_USERS(terminal, modes_a_session_changed_are_put_back, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ttymodes", "");
	world_give(&w);
	for (int how = 0; how < 3; how++) {
		const char *body =
			how == 1 ? "stty -isig -echo raw; kill -KILL $$" : "stty -isig -echo raw";
		char *script =
			how == 2 ? fmt("/bin/sh -c '%s'; stty -a; echo after-the-session", body)
				 : fmt("%s run --config %s -- /bin/sh -c '%s'; stty -a; "
				       "echo after-the-session",
				       CORDON_BIN, w.cfg, body);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		bool after =
			pty_read_until(master, "after-the-session", 15000, buf, sizeof(buf), false);
		cr_expect(after, "%d: the shell did not go on: %s", how, buf);
		if (how == 2)
			cr_expect(strstr(buf, "-isig") && strstr(buf, "-echo "),
				  "control: the modes were not left changed: %s", buf);
		else
			cr_expect(strstr(buf, "isig icanon") && strstr(buf, "iexten echo ") &&
					  !strstr(buf, "-isig") && !strstr(buf, "-echo "),
				  "%d: the session's modes stayed: %s", how, buf);
		end_shell(pid, master);
		free(name);
		free(script);
	}
	world_free(&w);
}

/* Round 59e F6: a session that leaves SGR attributes on (conceal) hid
 * cordon's closing lines; where stderr is a terminal they now begin with a
 * reset. Into a file (or pipe), no escape is written. */
BOTH_USERS(terminal, closing_lines_are_not_hidden_by_the_session_s_colours, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "sgrclose", "");
	world_give(&w);
#define PLANT(d)                                                                                   \
	"printf '\\033[8m\\033[30;40m'; mkdir -p " d " && git init -q " d "/r && printf "          \
	"'#!/bin/sh\\n' > " d "/r/.git/hooks/pre-commit && chmod +x " d "/r/.git/hooks/pre-commit"
	/* stderr a file: the closing line, no escape in it. */
	char *in_file = PLANT("u"), *in_tty = PLANT("v");
	struct run_result r = sh_in(&w, NULL, "%s", in_file);
	cr_assert(strstr(r.err, "so cordon moved it"), "control: no closing line: %s", r.err);
	cr_expect_null(strchr(r.err, '\033'), "an escape went into a file: %s", r.err);
	run_free(&r);
	/* stderr the terminal. */
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", in_tty, NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char buf[16384] = "";
	pty_read_until(master, NULL, 8000, buf, sizeof(buf), false);
	char *conceal = strstr(buf, "\033[8m"), *line = strstr(buf, "so cordon moved it");
	cr_assert(conceal && line, "no conceal, or no closing line: %s", buf);
	char *reset = strstr(conceal, "\033[0m\033(Bcordon: ");
	cr_expect(reset && reset < line, "no reset before the closing line: %s", buf);
	int st;
	waitpid(pid, &st, 0);
	close(master);
	free(name);
	world_free(&w);
}

/* The launcher's child in the job: PID's child (the outer shell's). */
static pid_t child_of(pid_t pid)
{
	char *path = fmt("/proc/%d/task/%d/children", (int)pid, (int)pid);
	char *text = read_file(path);
	pid_t child = text ? (pid_t)atoi(text) : 0;
	free(text);
	free(path);
	return child;
}

/* A terminal of the session's own (the default, shim/linux/ptyrelay.h):
 * another terminal than the user's inside, of the user's size and
 * following its changes (SIGWINCH), the user's modes as they were once the
 * session ends, and put back by the keeper where the launcher was killed
 * outright in the middle (raw, the user's shell would be left unusable).
 * Control: with share_terminal, the session's terminal is the user's. */
Test(terminal, a_terminal_of_its_own_follows_the_user_s, .timeout = 60)
{
	struct world w;
	world_init(&w, "owntty", "");
	char *shared = world_shared_terminal_config(&w);
	char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	struct winsize ws = {.ws_row = 33, .ws_col = 101};
	cr_assert_eq(ioctl(master, TIOCSWINSZ, &ws), 0);
	int user = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_assert_geq(user, 0, "%s", name);
	char buf[16384] = "";
	type(master, "PS1='$ '\n");
	cr_assert(pty_read_until(master, "$ ", 5000, buf, sizeof(buf), true), "%s", buf);
	usleep(200000);
	struct termios before, after;
	cr_assert_eq(tcgetattr(user, &before), 0);
	char *mine = fmt("%s\r\n", name);
	char *cmd = fmt("%s run --config %s -- /bin/sh -c 'tty; stty size; trap \"stty size; exit "
			"0\" WINCH; echo rea\"\"dy; while :; do sleep 0.1; done'\n",
			CORDON_BIN, w.cfg);
	buf[0] = '\0';
	type(master, cmd);
	cr_assert(pty_read_until(master, "ready", 10000, buf, sizeof(buf), false), "%s", buf);
	cr_expect(strstr(buf, "\n/dev/pts/") && !strstr(buf, mine),
		  "the session's terminal is not its own (yours: %s): %s", name, buf);
	cr_expect(strstr(buf, "33 101"), "the session's terminal is not your size: %s", buf);
	ws = (struct winsize){.ws_row = 40, .ws_col = 120};
	cr_assert_eq(ioctl(master, TIOCSWINSZ, &ws), 0);
	cr_expect(pty_read_until(master, "40 120", 5000, buf, sizeof(buf), true),
		  "the new size did not reach the session: %s", buf);
	cr_expect(pty_read_until(master, "$ ", 5000, buf, sizeof(buf), true), "%s", buf);
	usleep(200000);
	cr_assert_eq(tcgetattr(user, &after), 0);
	cr_expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag &&
			  after.c_oflag == before.c_oflag,
		  "your terminal's modes changed: lflag %o -> %o, iflag %o -> %o, oflag %o -> %o",
		  before.c_lflag, after.c_lflag, before.c_iflag, after.c_iflag, before.c_oflag,
		  after.c_oflag);
	/* Killed outright while it relays: the keeper puts the modes back. */
	free(cmd);
	cmd = fmt("%s run --config %s -- /bin/sh -c 'echo sta\"\"rted; exec sleep 30'\n",
		  CORDON_BIN, w.cfg);
	buf[0] = '\0';
	type(master, cmd);
	cr_assert(pty_read_until(master, "started", 10000, buf, sizeof(buf), true), "%s", buf);
	struct termios raw;
	cr_assert_eq(tcgetattr(user, &raw), 0);
	cr_expect_eq(raw.c_oflag & OPOST, 0u, "control: your terminal is not raw while relayed");
	pid_t launcher = child_of(pid);
	cr_assert_gt(launcher, 1);
	cr_assert_eq(kill(launcher, SIGKILL), 0);
	struct termios back = raw;
	for (int i = 0; i < 100 && !(back.c_oflag & OPOST); i++) {
		usleep(20000);
		cr_assert_eq(tcgetattr(user, &back), 0);
	}
	cr_expect_neq(back.c_oflag & OPOST, 0u, "a killed launcher left your terminal raw");
	/* Control: shared, the session's terminal is yours. */
	free(cmd);
	cmd = fmt("%s run --config %s -- /usr/bin/tty\n", CORDON_BIN, shared);
	buf[0] = '\0';
	type(master, cmd);
	cr_expect(pty_read_until(master, mine, 10000, buf, sizeof(buf), true),
		  "control: a shared terminal is not yours (%s): %s", name, buf);
	close(user);
	end_shell(pid, master);
	free(cmd), free(mine), free(name), free(shared);
	world_free(&w);
}

/* A session whose processes all closed its terminal, then opened it
 * again by /dev/tty: what they write then still reaches the user's
 * terminal (the relay looks at the session's side again now and then,
 * and once more as the session ends). */
Test(terminal, a_terminal_closed_then_opened_again_is_still_copied, .timeout = 30)
{
	struct world w;
	world_init(&w, "ttyagain", "");
	char *argv[] = {CORDON_BIN,
			"run",
			"--config",
			w.cfg,
			"--",
			"/bin/sh",
			"-c",
			"exec </dev/null >/dev/null 2>&1; sleep 0.6; echo first-line > /dev/tty; "
			"sleep 0.6; echo second-line > /dev/tty",
			NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	char buf[4096] = "";
	cr_expect(pty_read_until(master, "first-line", 10000, buf, sizeof(buf), false),
		  "what the session wrote while it ran was lost: %s", buf);
	cr_expect(pty_read_until(master, "second-line", 10000, buf, sizeof(buf), false),
		  "what the session wrote as it ended was lost: %s", buf);
	int st;
	waitpid(pid, &st, 0);
	close(master);
	free(name);
	world_free(&w);
}

/* A terminal the user may use but not open by its name: root's, as su,
 * runuser or sudo -u leave it (a pts node is 0620). The relay opened the
 * user's terminal again by /proc/self/fd and refused to start (EACCES);
 * it takes /dev/tty, the same terminal, instead. Control: with
 * share_terminal, the same command in the same terminal runs. */
Test(terminal, a_terminal_the_user_may_not_open_by_name_is_relayed, .timeout = 60)
{
	struct world w;
	world_init(&w, "rootpty", "");
	world_as_user(&w);
	world_give(&w);
	char *shared = world_shared_terminal_config(&w);
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {CORDON_BIN, "run",     "--config", ctl ? shared : w.cfg,
				"--",       "/bin/sh", "-c",       "tty; echo ran-$((6*7))",
				NULL};
		char **args = world_argv(&w, argv);
		int master;
		char *name;
		/* (pty_spawn: the terminal stays root's.) */
		pid_t pid = pty_spawn(args, w.env, w.proj, &master, &name);
		char buf[8192] = "";
		bool ran = pty_read_until(master, "ran-42", 15000, buf, sizeof(buf), true);
		int st = -1;
		for (int i = 0; i < 500 && waitpid(pid, &st, WNOHANG) == 0; i++)
			usleep(10000);
		cr_expect(ran, "%s: the command did not run: %s", ctl ? "control" : "relayed", buf);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%d: status %#x: %s", ctl, st,
			  buf);
		if (!ctl)
			cr_expect(strstr(buf, "/dev/pts/") && !strstr(buf, name),
				  "the session's terminal is not its own (yours: %s): %s", name,
				  buf);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		close(master);
		free(name);
		free(args);
	}
	free(shared);
	world_free(&w);
}

/* `cordon run -- make | tee log`: the relay made the user's terminal raw
 * for the keys it takes, and what the rest of the pipeline wrote there
 * meanwhile came out as stairs ("\n" with no "\r"). Where stdout is not
 * the user's terminal, it stays raw for what is typed only. Control: with
 * share_terminal, the same pipeline's lines end in "\r\n". */
BOTH_USERS(terminal, a_pipeline_after_the_session_writes_lines_not_stairs, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "stairs", "");
	world_give(&w);
	char *shared = world_shared_terminal_config(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *mark = fmt("started-%d", ctl);
		char *script =
			fmt("%s run --config %s -- /bin/sh -c 'echo err-one >&2; echo "
			    "err-two >&2; touch %s; sleep 1' | { while [ ! -e %s ]; do "
			    "sleep 0.05; done; sleep 0.3; echo piped-one; echo piped-two; cat; "
			    "}; echo all-do\"\"ne",
			    bin, ctl ? shared : w.cfg, mark, mark);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		bool done = pty_read_until(master, "all-done", 15000, buf, sizeof(buf), false);
		cr_expect(done, "%d: the pipeline did not end: %s", ctl, buf);
		cr_expect(strstr(buf, "piped-one\r\npiped-two\r\n"),
			  "%d: the pipeline's lines are stairs: %s", ctl, buf);
		cr_expect(strstr(buf, "err-one\r\nerr-two\r\n"), "%d: the session's lines: %s", ctl,
			  buf);
		end_shell(pid, master);
		free(name);
		free(script);
		free(mark);
	}
	free(shared);
	world_free(&w);
}

/* A session started in the background (`cordon run ... &`, then fg) had
 * the kernel's default modes on its terminal, not the user's: `stty erase
 * ^H` or another intr key did nothing inside, and without iutf8 a backspace
 * in a line read split a UTF-8 character. Now the user's keys and iutf8
 * are its. Control: with share_terminal, the session's terminal is the
 * user's. */
BOTH_USERS(terminal, a_session_started_in_the_background_has_the_user_s_keys, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "bgkeys", "");
	world_give(&w);
	char *shared = world_shared_terminal_config(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		type(master, "PS1='$ '; stty iutf8 erase ^H intr ^G\n");
		char *job = fmt("%s run --config %s -- /bin/sh -c 'sleep 0.5; stty -a; echo "
				"mo\"\"des-said' &\n",
				bin, ctl ? shared : w.cfg);
		type(master, job);
		usleep(200000);
		type(master, "fg\n");
		bool said = pty_read_until(master, "modes-said", 10000, buf, sizeof(buf), true);
		cr_expect(said, "%d: no modes: %s", ctl, buf);
		/* (stty -a's, not the echo of the line typed.) */
		const char *a = strstr(buf, "speed ");
		cr_expect(a && strstr(a, "intr = ^G") && strstr(a, "erase = ^H") &&
				  strstr(a, " iutf8") && !strstr(a, "-iutf8"),
			  "%d: the session's terminal has not your keys: %s", ctl, buf);
		end_shell(pid, master);
		free(job), free(name);
	}
	free(shared);
	world_free(&w);
}

/* ^C in a session's own terminal holds the keys after it for a moment
 * (pause_keys); a command that survives ^C (a shell inside, its sleep
 * interrupted) still gets them, all and in order: the command line typed
 * with the ^C, and one typed just after it. Judged by the file the shell
 * inside writes (with its session's id, which the user's shell has not).
 * Control: with share_terminal the same keys give the same file. */
BOTH_USERS(terminal, keys_after_ctrl_c_reach_a_shell_that_survives_it, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ctrlckeys", "");
	world_give(&w);
	char *shared = world_shared_terminal_config(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		char *out = fmt("%s/order-%d", w.proj, ctl);
		char *job = fmt("%s run --config %s -- /bin/bash --norc --noprofile -i\n", bin,
				ctl ? shared : w.cfg);
		type(master, job);
		type(master, "PS1='in''side$ '\r");
		cr_assert(pty_read_until(master, "inside$ ", 10000, buf, sizeof(buf), true),
			  "%d: no shell inside: %s", ctl, buf);
		type(master, "sleep 30\r");
		usleep(500000);
		char *keys = fmt("\x03"
				 "echo $CORDON_SESSION-1 >> %s; echo two >> %s\r",
				 out, out);
		type(master, keys);
		usleep(50000);
		char *more = fmt("echo three >> %s\r", out);
		type(master, more);
		char *got = NULL;
		for (int i = 0; i < 60; i++) {
			free(got);
			got = read_file(out);
			if (got && strstr(got, "three"))
				break;
			usleep(50000);
		}
		cr_expect(got && got[0] && got[0] != '-' && strstr(got, "-1\ntwo\nthree\n"),
			  "%d: keys after ^C lost, out of order or run outside: %s", ctl,
			  got ? got : "(none)");
		free(got);
		type(master, "exit\r");
		usleep(300000);
		end_shell(pid, master);
		free(out), free(job), free(keys), free(more), free(name);
	}
	free(shared);
	world_free(&w);
}

/* ^Z in a session's own terminal, and a command line typed with it (^Z,
 * then `bg` or the next command at once): outside cordon the kernel
 * leaves those keys to the shell, which reads next. The relay held them
 * (pause_keys) and then typed them into the stopped session's terminal:
 * the shell never ran the line, and the program inside got it at fg.
 * Judged by the file the line makes, from the user's shell (no session
 * id in it). Control: with share_terminal the same. */
BOTH_USERS(terminal, keys_typed_with_ctrl_z_go_to_the_shell, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ctrlzkeys", "");
	world_give(&w);
	char *shared = world_shared_terminal_config(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		char *out = fmt("%s/after-z-%d", w.proj, ctl);
		char *job = fmt("%s run --config %s -- /bin/sh -c 'echo st''arted; sleep 30'\n",
				bin, ctl ? shared : w.cfg);
		type(master, job);
		cr_assert(pty_read_until(master, "started", 10000, buf, sizeof(buf), true),
			  "%d: %s", ctl, buf);
		usleep(200000);
		char *keys = fmt("\x1a"
				 "echo \"[$CORDON_SESSION]\" > %s\r",
				 out);
		type(master, keys);
		char *got = NULL;
		for (int i = 0; i < 60 && !got; i++) {
			usleep(50000);
			got = read_file(out);
		}
		cr_expect(got && strcmp(got, "[]\n") == 0,
			  "%d: the line typed with ^Z did not reach the user's shell: %s", ctl,
			  got ? got : "(none)");
		free(got);
		type(master, "kill -9 %1\r");
		usleep(300000);
		end_shell(pid, master);
		free(out), free(job), free(keys), free(name);
	}
	free(shared);
	world_free(&w);
}
