/* Escape tests: a session against the user's terminal through the launcher
 * that relays it (shim/linux/ptyrelay.h), as root and as the test user. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "both.h"
#include "helpers.h"

/* LINE typed to the shell on MASTER, and what it prints for MS read into
 * BUF (appended). */
static void shell_says(int master, const char *line, int ms, char *buf, size_t size)
{
	cr_assert_eq(write(master, line, strlen(line)), (ssize_t)strlen(line));
	size_t len = strlen(buf);
	pty_read_until(master, NULL, ms, buf + len, size - len, false);
}

/* With stty tostop, the kernel stops a job in the background that writes
 * to the terminal; the launcher, whose SIGTTOU is blocked (it takes the
 * job's stop signals by signalfd), was let through, and a session in the
 * background wrote over the user's shell all the same.
 * Judged outside: what the session wrote does not reach the terminal, the
 * job shows stopped, the text comes after fg (as it would from a
 * program outside cordon), and kill %1 ends such a job. Control: without
 * tostop the text comes at once. */
BOTH_USERS(escape, own_terminal_a_background_session_keeps_tostop, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "owntostop", "");
	world_give(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		static char buf[65536];
		buf[0] = '\0';
		pty_read_until(master, NULL, 800, buf, sizeof(buf), false); /* its start-up */
		/* (stderr elsewhere: cordon's own words before the session
		 * would stop the launcher itself, as the kernel stops any
		 * writer.) The text is put together as it is written: the
		 * shell's echo of the line does not hold it. */
		char *job =
			fmt("%s%s run --config %s -- /bin/sh -c 'sleep 0.5; printf \"L%%sK\\n\" "
			    "EA' 2>/dev/null &\n",
			    ctl ? "" : "stty tostop; ", bin, w.cfg);
		buf[0] = '\0';
		shell_says(master, job, 300, buf, sizeof(buf));
		if (ctl) {
			cr_expect(pty_read_until(master, "LEAK", 15000, buf, sizeof(buf), true),
				  "control: the background session's text did not come: %s", buf);
		} else {
			bool stopped = false;
			for (int i = 0; i < 30 && !stopped; i++) {
				shell_says(master, "jobs\n", 500, buf, sizeof(buf));
				stopped = strstr(buf, "Stopped") != NULL;
			}
			cr_expect(stopped && !strstr(buf, "LEAK"),
				  "a session in the background wrote to a tostop terminal: %s",
				  buf);
			buf[0] = '\0';
			cr_expect(stopped && (shell_says(master, "fg\n", 0, buf, sizeof(buf)),
					      pty_read_until(master, "LEAK", 10000, buf,
							     sizeof(buf), true)),
				  "its text did not come after fg: %s", buf);
			/* Stopped so, a job still ends at kill %1 (SIGTERM, then
			 * SIGCONT): it is not stopped again for what it wrote. */
			free(job);
			job = fmt(
				"%s run --config %s -- /bin/sh -c 'sleep 0.5; echo one; sleep 60' "
				"2>/dev/null &\n",
				bin, w.cfg);
			buf[0] = '\0';
			shell_says(master, job, 300, buf, sizeof(buf));
			stopped = false;
			for (int i = 0; i < 30 && !stopped; i++) {
				shell_says(master, "jobs\n", 500, buf, sizeof(buf));
				stopped = strstr(buf, "Stopped") != NULL;
			}
			cr_expect(stopped, "the second job did not stop: %s", buf);
			shell_says(master, "kill %1\n", 300, buf, sizeof(buf));
			bool ended = false;
			for (int i = 0; i < 20 && !ended; i++) {
				buf[0] = '\0';
				shell_says(master, "jobs; echo J\"\"OBS\n", 500, buf, sizeof(buf));
				ended = strstr(buf, "JOBS") && !strstr(buf, "Stopped") &&
					!strstr(buf, "Running");
			}
			cr_expect(ended, "kill %%1 did not end a job stopped by tostop: %s", buf);
		}
		end_shell(pid, master);
		free(job), free(name);
	}
	world_free(&w);
}

/* Whether FILE holds TEXT. */
static bool holds(const char *file, const char *text)
{
	char *s = read_file(file);
	bool r = s && strstr(s, text);
	free(s);
	return r;
}

/* The launcher told the user's terminal at fd 1 and 2 from the one at fd
 * 0 by device number, and /dev/tty has one of its own for every terminal:
 * `cordon run cmd </dev/tty` (xargs -o, a script's exec </dev/tty) handed
 * the command the user's terminal itself at fd 1 and 2, and a process of
 * the session in a session of its own read there what the user typed to
 * the shell while the job ran in the background. Judged outside: the line
 * typed reaches the shell (its marker) and the reader logged none of it.
 * Control: the same reader outside cordon reads the line. */
BOTH_USERS(escape, own_terminal_stdin_by_dev_tty_hands_over_no_terminal, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "owndevtty0", "");
	world_give(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *log = fmt("%s/reader-%d.log", w.proj, ctl);
		char *marker = fmt("%s/typed-%d", w.proj, ctl);
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[4096] = "";
		pty_read_until(master, NULL, 800, buf, sizeof(buf), false); /* its start-up */
		char *script = fmt("cordon-probe held-reader timer %s 0<&1 & wait", log);
		char *job = ctl ? fmt("/bin/sh -c '%s' </dev/tty &\n", script)
				: fmt("%s run --config %s -- /bin/sh -c '%s' </dev/tty &\n", bin,
				      w.cfg, script);
		cr_assert_eq(write(master, job, strlen(job)), (ssize_t)strlen(job));
		for (int i = 0; i < 200 && !holds(log, "began"); i++)
			usleep(50000);
		cr_assert(holds(log, "began"), "%d: the reader did not start", ctl);
		usleep(300000);
		char *line = fmt("touch %s\n", marker);
		cr_assert_eq(write(master, line, strlen(line)), (ssize_t)strlen(line));
		for (int i = 0; i < 40 && !file_exists(marker) && !holds(log, "read touch"); i++)
			usleep(50000);
		usleep(500000);
		if (ctl)
			cr_expect(holds(log, "read touch"),
				  "control: the reader read nothing typed");
		else
			cr_expect(file_exists(marker) && !holds(log, "read touch"),
				  "the session read the shell's line from the user's terminal");
		end_shell(pid, master);
		free(line), free(script), free(job), free(name), free(marker), free(log);
	}
	world_free(&w);
}

/* Keys typed ahead while a session ends are given back to the user's
 * shell, but only whole lines the session's terminal left as typed:
 * review 61c found the first give-back took the session's queue, which a
 * session edits with keys of its own (stty kill &: "false && touch X"
 * became " touch X"), and the user's shell ran it. Judged outside: the
 * edited line's marker is not made, while a line typed ahead plainly
 * still reaches the shell (its marker). Control: with share_terminal the
 * same edit reaches the shell (its marker is made). */
BOTH_USERS(escape, own_terminal_gives_back_only_lines_as_typed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "giveback", "");
	char *shared = world_shared_terminal_config(&w);
	world_give(&w);
	const char *bin = w.as_user ? w.user_cordon : CORDON_BIN;
	for (int ctl = 0; ctl < 2; ctl++) {
		char *argv[] = {"/bin/bash", "--norc", "--noprofile", "-i", NULL};
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char buf[16384] = "";
		char *edited = fmt("%s/edited-%d", w.proj, ctl),
		     *plain = fmt("%s/plain-%d", w.proj, ctl);
		char *job = fmt("%s run --config %s -- /bin/sh -c 'stty kill \\&; sleep 1.5'\n",
				bin, ctl ? shared : w.cfg);
		shell_says(master, job, 700, buf, sizeof(buf));
		char *line = fmt("false && touch %s\r", edited);
		shell_says(master, line, 2500, buf, sizeof(buf));
		free(job);
		free(line);
		if (ctl) {
			cr_expect(file_exists(edited), "control: the edited line did not run: %s",
				  buf);
		} else {
			cr_expect(!file_exists(edited), "an edited line was given back and ran");
			job = fmt("%s run --config %s -- /bin/sleep 1.5\n", bin, w.cfg);
			shell_says(master, job, 700, buf, sizeof(buf));
			line = fmt("touch %s\r", plain);
			shell_says(master, line, 2500, buf, sizeof(buf));
			cr_expect(file_exists(plain), "a line typed ahead was lost: %s", buf);
			free(job);
			free(line);
		}
		end_shell(pid, master);
		free(edited), free(plain), free(name);
	}
	free(shared);
	world_free(&w);
}
