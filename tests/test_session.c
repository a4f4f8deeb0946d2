/* Session tracking and cleanup: every process a session started dies with
 * it, however the session ends. Judged from outside: are the pids gone, is
 * the cgroup directory gone, is the watcher gone. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "cordon/session.h"
#include "helpers.h"

/* A session (as W's user) whose command sleeps and has started N escapees
 * by ESCAPEES (each appends its pid to W's "pids"); once they run, *ID is
 * the session's id. Returns the launcher's pid. */
static pid_t start_session_with(struct world *w, const char *escapees, size_t n, char **id)
{
	char *script = fmt("echo $CORDON_SESSION > sid;%sexec sleep 300", escapees);
	char *argv[] = {CORDON_BIN, "run", "--config", w->cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(w, argv, w->proj);
	char *pids = path_join(w->proj, "pids");
	pid_t esc[4];
	cr_assert_eq(wait_pids(pids, esc, n, 5000), n, "the session did not start");
	free(pids);
	free(script);
	*id = session_id(w);
	cr_assert_not_null(*id);
	return pid;
}

/* One setsid escapee that ignores HUP and TERM. */
#define ONE_ESCAPEE "(setsid sh -c 'trap \"\" HUP TERM; echo $$ >> pids; exec sleep 300' &);"

static pid_t start_sleeping_session(struct world *w, char **id)
{
	return start_session_with(w, ONE_ESCAPEE, 1, id);
}

Test(session, disabled_sessions_are_tracked_and_cleaned, .timeout = 60)
{
	struct world w;
	world_init(&w, "disabledtrack", ", \"enabled\": false");
	struct run_result r = sh_in(&w, NULL, "%s", ESCAPEES);
	cr_expect_eq(r.status, 0, "%s", r.err);
	expect_session_gone(&w, 5);
	run_free(&r);
	world_free(&w);
}

/* A command that is gone before the keeper blocks SIGCHLD, and reaped
 * before the launcher opens its pidfd (the test hook makes both look away
 * after the start): the keeper still sees it end, and the launcher takes
 * that as the end, not as an error. Before the fixes, ~1 launch in 100 of
 * `true` with "enabled": false hung here for ever, then ~1 in 60 ended
 * with "cordon: pidfd_open: No such process". Sandboxed and not. */
Test(session, a_command_that_ends_at_once_is_seen_to_end, .timeout = 60)
{
	static const char *const extras[] = {", \"enabled\": false", ""};
	for (size_t i = 0; i < sizeof(extras) / sizeof(extras[0]); i++) {
		struct world w;
		world_init(&w, "endsatonce", extras[i]);
		world_setenv(&w, "CORDON_TEST_LOOK_AWAY=1");
		long t0 = ms_now();
		struct run_result r = run_in(&w, NULL, (char *[]){"/bin/true", NULL});
		long took = ms_now() - t0;
		cr_expect_eq(r.status, 0, "config%s: status %d: %s", extras[i], r.status, r.err);
		cr_expect_lt(took, 5000, "config%s: the session took %ld ms to see true end",
			     extras[i], took);
		/* Control: the hook is there (the keeper did look away). */
		cr_expect_geq(took, 400, "config%s: the launcher did not wait (%ld ms)", extras[i],
			      took);
		run_free(&r);
		world_free(&w);
	}
}

/* A cordon started inside a session that is not sandboxed ("enabled":
 * false) makes its own cgroup beneath the session's; when the session ends,
 * the group kill ends that inner keeper before it can remove it. The
 * session's keeper removes it, then its own: before, the session's cgroup
 * was left behind (rmdir: EBUSY) with the inner one in it. */
Test(session, a_cordon_started_inside_leaves_no_cgroup, .timeout = 60)
{
	struct world w;
	world_init(&w, "innercg", ", \"enabled\": false");
	struct run_result r = sh_in(&w, NULL,
				    "echo $CORDON_SESSION > sid\n"
				    "%s run --config %s -- sh -c 'cat /proc/self/cgroup > innercg; "
				    "echo $CORDON_SESSION > inner; exec sleep 300' &\n"
				    "echo $! > pids\n"
				    "i=0; while [ ! -s inner ] && [ $i -lt 200 ]; do sleep 0.05; "
				    "i=$((i+1)); done\n",
				    CORDON_BIN, w.cfg);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	char *inner_file = path_join(w.proj, "inner");
	char *inner = read_file(inner_file);
	cr_assert(inner && inner[0], "control: the inner session did not start");
	inner[strcspn(inner, "\n")] = '\0';
	char *outer = session_id(&w);
	char *outer_cg = cgroup_of(outer);
	/* Control: the inner session's cgroup was made beneath the session's. */
	cr_assert(outer_cg, "no cgroup2 here");
	char *cg_file = path_join(w.proj, "innercg");
	char *cg = read_file(cg_file);
	char *want = fmt("/cordon-%s/cordon-%s\n", outer, inner);
	cr_assert(cg && strstr(cg, want), "control: the inner session is not beneath: %s",
		  cg ? cg : "(none)");
	free(want);
	free(cg);
	free(cg_file);
	expect_session_gone(&w, 1);
	char *nested = fmt("%s/cordon-%s", outer_cg, inner);
	cr_expect_not(file_exists(nested), "the inner session's cgroup %s was left behind", nested);
	struct cordon_session_info info;
	cr_expect_neq(cordon_registry_read(inner, &info, NULL), 0,
		      "the inner session's registry record was left behind");
	free(nested);
	free(outer_cg);
	free(outer);
	free(inner);
	free(inner_file);
	world_free(&w);
}

Test(session, four_hundred_processes_half_escaped, .timeout = 120)
{
	struct world w;
	world_init(&w, "fourhundred", "");
	struct run_result r = sh_in(
		&w, NULL,
		"echo $CORDON_SESSION > sid\n"
		"i=0; while [ $i -lt 200 ]; do sleep 300 & echo $! >> pids; setsid sleep 300 & echo $! >> pids; i=$((i+1)); done\n");
	cr_expect_eq(r.status, 0, "%s", r.err);
	expect_session_gone(&w, 400);
	run_free(&r);
	world_free(&w);
}

/* The terminal closes: the master side of the pty goes away. The shell and
 * an escapee both ignore SIGHUP, so only the watcher can end them. */
Test(session, terminal_close_ends_the_session, .timeout = 60)
{
	struct world w;
	world_init(&w, "ttyclose", "");
	char *argv[] = {CORDON_BIN,
			"run",
			"--config",
			w.cfg,
			"--",
			"/bin/sh",
			"-c",
			"trap '' HUP; echo $$ > shell; echo $CORDON_SESSION > sid;"
			"(setsid sh -c 'trap \"\" HUP TERM; echo $$ >> pids; exec sleep 300' &);"
			"exec sleep 300",
			NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	char *pids = path_join(w.proj, "pids"), *why = NULL;
	cr_assert(wait_started(pid, pids, 30000, &why), "the session did not start: %s", why);
	usleep(100000);
	close(master);
	cr_expect(wait_gone(pid, 5000), "the shell survived the terminal closing");
	int st;
	waitpid(pid, &st, 0);
	expect_session_gone(&w, 1);
	free(pids);
	free(name);
	world_free(&w);
}

/* The terminal closes while none of the launcher's stdio is it (round
 * 59a F3: `cordon run -- CMD </dev/null >log`, an agent harness's way,
 * outlived its tmux window): as the terminal's session leader, or in a
 * background job of a shell with job control (no SIGHUP reaches it; the
 * controlling terminal, watched, hangs up). And such a command cannot
 * open /dev/tty (59a F1: it was the caller's terminal, to read what was
 * typed there); control: with stdin the terminal, it can. As root
 * and as the test user; judged by the session's processes and cgroup. */
Test(session, a_terminal_closing_ends_a_session_with_no_terminal_stdio, .timeout = 90)
{
	static const char body[] =
		"trap '' HUP; echo $CORDON_SESSION > sid; "
		"if (exec 3</dev/tty) 2>/dev/null; then echo tty > ctty; else echo none > ctty; fi; "
		"(setsid sh -c 'trap \\\"\\\" HUP TERM; echo $$ >> pids; exec sleep 300' &); "
		"exec sleep 300";
	for (int as_user = 0; as_user < 2; as_user++)
		for (int how = 0; how < 3; how++) {
			struct world w;
			world_init(&w, "ttyclose2", "");
			if (as_user)
				world_as_user(&w);
			const char *bin = as_user ? w.user_cordon : CORDON_BIN;
			char *script =
				how == 0   ? fmt("exec %s run --config %s -- /bin/sh -c \"%s\" "
						   "</dev/null >/dev/null 2>&1",
						 bin, w.cfg, body)
				: how == 1 ? fmt("set -m; %s run --config %s -- /bin/sh -c \"%s\" "
						 "</dev/null >/dev/null 2>&1 & wait",
						 bin, w.cfg, body)
					   : fmt("exec %s run --config %s -- /bin/sh -c \"%s\" "
						 ">/dev/null 2>&1",
						 bin, w.cfg, body);
			char *argv[] = {"/bin/sh", "-c", script, NULL};
			int master;
			char *name;
			pid_t pid = world_pty_spawn(&w, argv, &master, &name);
			char *pids = path_join(w.proj, "pids"), *ctty = path_join(w.proj, "ctty");
			cr_assert(wait_exists(pids, 10000),
				  "user %d, %d: the session did not start", as_user, how);
			cr_assert(wait_exists(ctty, 5000), "user %d, %d: no ctty", as_user, how);
			char *got = read_file(ctty);
			cr_expect(got && strcmp(got, how == 2 ? "tty\n" : "none\n") == 0,
				  "user %d, %d: /dev/tty inside: %s", as_user, how,
				  got ? got : "?");
			free(got);
			usleep(100000);
			close(master);
			cr_expect(wait_gone(pid, 5000), "user %d, %d: the caller lived on", as_user,
				  how);
			int st;
			waitpid(pid, &st, 0);
			expect_session_gone(&w, 1);
			free(ctty);
			free(pids);
			free(name);
			free(script);
			world_free(&w);
		}
}

/* The caller's choice stands: `nohup cordon run -- CMD &` (SIGHUP ignored,
 * no terminal stdio) is not ended by its terminal closing (round 59d F1:
 * the watch of the controlling terminal ended it). Judged by the
 * session's process, alive after the close; the launcher then killed, the
 * session goes. */
Test(session, nohup_keeps_a_session_past_its_terminal, .timeout = 60)
{
	struct world w;
	world_init(&w, "nohupclose", "");
	char *script = fmt("nohup %s run --config %s -- /bin/sh -c 'echo $CORDON_SESSION > sid; "
			   "echo $$ >> pids; exec sleep 300' </dev/null >/dev/null 2>&1 & "
			   "echo $! > launcher; wait",
			   CORDON_BIN, w.cfg);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, w.env, w.proj, &master, &name);
	char *pids = path_join(w.proj, "pids"), *launcher = path_join(w.proj, "launcher");
	cr_assert(wait_exists(pids, 10000) && wait_exists(launcher, 5000), "did not start");
	usleep(100000);
	close(master);
	cr_expect(wait_gone(pid, 5000), "the caller lived on");
	int st;
	waitpid(pid, &st, 0);
	usleep(500000);
	pid_t inside[4];
	size_t n = read_pids(pids, inside, 4);
	cr_assert_eq(n, 1);
	cr_expect_eq(kill(inside[0], 0), 0, "nohup's session ended with its terminal");
	char *l = read_file(launcher);
	pid_t lp = l ? (pid_t)atoi(l) : 0;
	cr_assert_gt(lp, 0);
	kill(lp, SIGKILL);
	expect_session_gone(&w, 1);
	free(l);
	free(launcher);
	free(pids);
	free(name);
	free(script);
	world_free(&w);
}

/* Job control keeps working inside, where the supervisor now judges
 * setpgid and TIOCSPGRP (round 59a F2): an interactive bash on the
 * session's terminal, and one on a pty made inside (script: a session of
 * its own), run a background job and a pipeline, with no word of a
 * terminal process group it could not set. */
Test(session, job_control_works_inside, .timeout = 60)
{
	struct world w;
	world_init(&w, "jobctl", "");
	/* (Lines of their own: after a command ends the shell takes the
	 * terminal back from its ended job, round 59f F1.) */
	static const char lines[] = "ls -d /\nsleep 5 | cat & jobs; kill %1\n/bin/true\n"
				    "echo a | tr a b | tr b c; exit\n";
	for (int nested = 0; nested < 2; nested++) {
		char *argv_direct[] = {CORDON_BIN,  "run",    "--config", w.cfg, "--",
				       "/bin/bash", "--norc", "-i",       NULL};
		char *argv_nested[] = {CORDON_BIN,  "run",
				       "--config",  w.cfg,
				       "--",        "/usr/bin/script",
				       "-qc",       "/bin/bash --norc -i",
				       "/dev/null", NULL};
		int master;
		char *name;
		pid_t pid = pty_spawn(nested ? argv_nested : argv_direct, w.env, w.proj, &master,
				      &name);
		char buf[8192] = "";
		cr_assert(pty_read_until(master, "# ", 10000, buf, sizeof(buf), false),
			  "%d: no prompt: %s", nested, buf);
		cr_assert_eq(write(master, lines, sizeof(lines) - 1), (ssize_t)(sizeof(lines) - 1));
		/* (The pipeline's "c" on a line of its own: bash may say the
		 * killed job's end before or after it.) */
		pty_read_until(master, NULL, 10000, buf, sizeof(buf), true);
		bool done = strstr(buf, "\rc\r\n") || strstr(buf, "\nc\r\n");
		cr_expect(done, "%d: the pipeline did not run: %s", nested, buf);
		cr_expect_null(strstr(buf, "terminal process group"), "%d: %s", nested, buf);
		cr_expect_null(strstr(buf, "no job control"), "%d: %s", nested, buf);
		cr_expect(strstr(buf, "Running"), "%d: no job: %s", nested, buf);
		cr_expect(wait_gone(pid, 5000), "%d: bash did not exit", nested);
		int st;
		waitpid(pid, &st, 0);
		close(master);
		free(name);
	}
	world_free(&w);
}

/* Round 54b F1: a session names its own processes, and cordon ps prints
 * their command lines outside: an escape sequence (a title, OSC 52's
 * clipboard) or a line of its own must not reach the user's terminal
 * as such. */
Test(session, cordon_ps_shows_no_control_characters, .timeout = 60)
{
	struct world w;
	world_init(&w, "psesc", "");
	free(write_file(
		w.proj, "esc.py",
		"import os\nos.execv('/bin/sleep', ['x\\x1b]0;T\\x07\\n  4242 fake', '300'])\n"));
	world_give(&w);
	char *id;
	pid_t pid = start_session_with(
		&w, "(setsid sh -c 'echo $$ >> pids; exec python3 esc.py' &);", 1, &id);
	char *pids = path_join(w.proj, "pids");
	pid_t esc[1];
	cr_assert_eq(read_pids(pids, esc, 1), 1);
	char *cmdline = fmt("/proc/%d/cmdline", (int)esc[0]);
	for (int i = 0; i < 50; i++) {
		char *c = read_file(cmdline);
		bool renamed = c && c[0] == 'x';
		free(c);
		if (renamed)
			break;
		usleep(20000);
	}
	struct run_result r = run_cordon(w.env, w.proj, "ps", id, NULL);
	cr_expect(strstr(r.out, "x?]0;T??  4242 fake 300"), "ps does not show it: %s", r.out);
	cr_expect(!strchr(r.out, '\x1b') && !strstr(r.out, "\n  4242"),
		  "a control character reached the terminal: %s", r.out);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "kill", id, NULL);
	run_free(&r);
	cr_expect(wait_gone(pid, 5000), "the session survived cordon kill");
	int st;
	waitpid(pid, &st, 0);
	free(cmdline), free(pids), free(id);
	world_free(&w);
}

Test(session, cordon_list_ps_and_kill, .timeout = 60)
{
	struct world w;
	world_init(&w, "kill", "");
	char *id;
	pid_t pid = start_sleeping_session(&w, &id);
	char *pids = path_join(w.proj, "pids");
	usleep(50000);

	struct run_result r = run_cordon(w.env, w.proj, "list", NULL);
	cr_expect(strstr(r.out, id) && strstr(r.out, w.proj), "list: %s", r.out);
	run_free(&r);
	pid_t esc[4];
	cr_assert_eq(read_pids(pids, esc, 4), 1);
	r = run_cordon(w.env, w.proj, "ps", id, NULL);
	char want[32];
	snprintf(want, sizeof(want), "%8d sleep 300", esc[0]);
	cr_expect(strstr(r.out, want) != NULL, "ps shows the escapee: %s", r.out);
	run_free(&r);

	/* The watcher, for the check that it goes too. */
	struct cordon_session_info info;
	cr_assert_eq(cordon_registry_read(id, &info, NULL), 0);
	r = run_cordon(w.env, w.proj, "kill", id, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	cr_expect(wait_gone(pid, 5000), "the shell survived cordon kill");
	int st;
	waitpid(pid, &st, 0);
	expect_session_gone(&w, 1);
	cr_expect(wait_gone(info.watcher, 5000), "the watcher outlived its session");
	r = run_cordon(w.env, w.proj, "kill", id, NULL);
	cr_expect_eq(r.status, 125, "killing an ended session is an error");
	run_free(&r);
	free(id);
	free(pids);
	world_free(&w);
}

/* Session ID's record, once the session is listed. */
static struct cordon_session_info listed(const char *id)
{
	struct cordon_session_info info;
	for (int i = 0; i < 500 && cordon_registry_read(id, &info, NULL) < 0; i++)
		usleep(10000);
	cr_assert_eq(cordon_registry_read(id, &info, NULL), 0, "the session was never listed");
	cr_assert_gt(info.keeper, 0);
	return info;
}

/* Both processes outside the session killed outright (as root can; nothing
 * inside can signal them): the keeper held still first so that it cannot end
 * the session when the supervisor goes. The command dies with its parent;
 * what it started is left with nothing to end it. LAUNCHER is the
 * supervisor's pid, reaped here. */
static void orphan_session(const char *id, pid_t launcher)
{
	struct cordon_session_info info = listed(id);
	cr_assert_eq(info.watcher, launcher);
	hold_still(info.keeper);
	cr_assert_eq(kill(info.watcher, SIGKILL), 0);
	int st;
	waitpid(launcher, &st, 0);
	kill_held(info.keeper);
	cr_assert(wait_gone(info.keeper, 5000));
}

/* The supervisor killed outright: the keeper ends the session at once, and
 * removes the cgroup and the record the supervisor would have. */
Test(session, killing_the_supervisor_ends_the_session, .timeout = 60)
{
	struct world w;
	world_init(&w, "killsup", "");
	char *id;
	pid_t pid = start_sleeping_session(&w, &id);
	struct cordon_session_info info = listed(id);
	cr_assert_eq(info.watcher, pid);
	cr_assert_eq(kill(pid, SIGKILL), 0);
	int st;
	waitpid(pid, &st, 0);
	cr_expect(wait_gone(info.shell, 5000), "the command outlived its supervisor");
	cr_expect(wait_gone(info.keeper, 5000), "the keeper outlived the session");
	expect_session_gone(&w, 1);
	free(id);
	world_free(&w);
}

/* cordon list shows such a session as orphaned and cordon kill ends it:
 * processes, cgroup, record. */
Test(session, an_orphaned_session_is_listed_and_killed, .timeout = 60)
{
	struct world w;
	world_init(&w, "orphan", "");
	char *id;
	pid_t pid = start_sleeping_session(&w, &id);
	orphan_session(id, pid);

	struct run_result r = run_cordon(w.env, w.proj, "list", NULL);
	char *line = strstr(r.out, id);
	cr_expect(line && strstr(line, "orphaned"), "list: %s", r.out);
	run_free(&r);
	pid_t esc[1];
	char *pids = path_join(w.proj, "pids");
	cr_assert_eq(read_pids(pids, esc, 1), 1);
	cr_expect(kill(esc[0], 0) == 0, "the escapee should still be there");
	r = run_cordon(w.env, w.proj, "kill", id, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	cr_expect(wait_gone(esc[0], 5000), "the escapee survived cordon kill");
	expect_session_gone(&w, 1);
	/* Not a check: what a failed run left must not outlive the test. */
	char *cg = cgroup_of(id);
	if (cg && file_exists(cg))
		(void)cordon_cgroup_destroy(cg, NULL);
	free(cg);
	free(pids);
	free(id);
	world_free(&w);
}

/* The ordinary user W's record of session ID (in HOME's registry): the
 * number FIELD names there, or -1. */
static long long user_record_field(const struct world *w, const char *id, const char *field)
{
	char *path = fmt("%s/.local/state/cordon/sessions/%s.json", w->home, id);
	char *text = read_file(path), *key = fmt("\"%s\":", field);
	char *at = text ? strstr(text, key) : NULL;
	long long v = at ? strtoll(at + strlen(key), NULL, 10) : -1;
	free(key);
	free(text);
	free(path);
	return v;
}

/* Whether the file at PATH grows within half a second. */
static bool growing(const char *path)
{
	struct stat a = {0}, b = {0};
	(void)stat(path, &a);
	usleep(500000);
	(void)stat(path, &b);
	return b.st_size > a.st_size;
}

static bool runs(pid_t pid)
{
	char state = cordon_proc_state(pid);
	return state && state != 'Z' && state != 'X';
}

/* An ordinary user's session is tracked without a cgroup here (none is
 * delegated): with its launcher and keeper both killed, its processes
 * went to init and nothing named them again (the next launch called the
 * session ended). Its user namespace, which none of them can leave, finds
 * them: cordon list shows it orphaned, ps its processes (one in a user
 * namespace of its own below), the next launch says so, and cordon kill
 * ends them. Control: both run on until then. */
Test(session, an_ordinary_user_s_orphaned_session_is_found_and_killed, .timeout = 60)
{
	struct world w;
	world_init(&w, "userorphan", "");
	world_as_user(&w);
	char *id;
	/* (One whose pid changes all the time: each runs the next and exits.) */
	free(write_file(w.proj, "hop.sh", "echo . >> hops; sleep 0.02; sh ./hop.sh &\n"));
	world_give(&w);
	pid_t pid = start_session_with(
		&w,
		ONE_ESCAPEE "(setsid sh -c 'echo $$ >> pids; exec unshare -U sleep 300' &);"
			    "(setsid cordon-probe lexit lexit.log &);(setsid sh ./hop.sh &);"
			    "(setsid cordon-probe hop fast.log &);",
		2, &id);
	char *pids = path_join(w.proj, "pids");
	pid_t esc[2];
	cr_assert_eq(read_pids(pids, esc, 2), 2);
	char *lexit = path_join(w.proj, "lexit.log"), *hops = path_join(w.proj, "hops");
	char *fast = path_join(w.proj, "fast.log");
	for (int i = 0; i < 500 && user_record_field(&w, id, "keeper") <= 0; i++)
		usleep(10000);
	pid_t keeper = (pid_t)user_record_field(&w, id, "keeper");
	cr_assert_gt(keeper, 0, "no keeper in the record");
	cr_assert_eq(user_record_field(&w, id, "watcher"), pid);
	cr_assert_gt(user_record_field(&w, id, "userns"), 0, "no user namespace in the record");
	hold_still(keeper);
	cr_assert_eq(kill(pid, SIGKILL), 0);
	int st;
	waitpid(pid, &st, 0);
	kill_held(keeper);
	cr_assert(wait_gone(keeper, 5000));
	usleep(100000);
	cr_assert(runs(esc[0]) && runs(esc[1]) && growing(lexit) && growing(hops) && growing(fast),
		  "control: the session's processes should run on");

	char *list[] = {CORDON_BIN, "list", NULL};
	struct run_result r = world_run(&w, list, w.proj);
	char *line = strstr(r.out, id);
	cr_expect(line && strstr(line, "orphaned"), "list: %s%s", r.out, r.err);
	run_free(&r);
	char *ps[] = {CORDON_BIN, "ps", id, NULL};
	r = world_run(&w, ps, w.proj);
	for (int i = 0; i < 2; i++) {
		char *want = fmt("%8d ", (int)esc[i]);
		cr_expect(strstr(r.out, want), "ps does not show %d: %s%s", (int)esc[i], r.out,
			  r.err);
		free(want);
	}
	run_free(&r);
	char *again[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/true", NULL};
	r = world_run(&w, again, w.proj);
	cr_expect(strstr(r.err, "lost its cordon") && strstr(r.err, id),
		  "the next launch called it ended: %s", r.err);
	run_free(&r);

	char *kill_it[] = {CORDON_BIN, "kill", id, NULL};
	r = world_run(&w, kill_it, w.proj);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	for (int i = 0; i < 2; i++)
		cr_expect(wait_gone(esc[i], 5000), "process %d survived cordon kill", (int)esc[i]);
	/* (A process whose leader exited reads as a zombie: judged by what
	 * it writes; so is one whose pid changes.) */
	cr_expect_not(growing(lexit), "the process whose leader exited survived cordon kill");
	cr_expect_not(growing(hops), "the process that changes its pid survived cordon kill");
	cr_expect_not(growing(fast), "the process that changes its pid every 500 us survived");
	cr_expect_eq(user_record_field(&w, id, "watcher"), -1, "the record stays");
	for (int i = 0; i < 2; i++) /* not a check: nothing outlives the test */
		if (runs(esc[i]))
			(void)kill(esc[i], SIGKILL);
	char *lexit_pid = path_join(w.proj, "lexit.log.pid");
	pid_t lp[1];
	if (growing(lexit) && read_pids(lexit_pid, lp, 1) == 1)
		(void)kill(lp[0], SIGKILL);
	free(lexit_pid);
	free(lexit), free(hops), free(fast);
	free(pids);
	free(id);
	world_free(&w);
}

/* A record is a file: one naming the user's own user namespace (every
 * process of theirs lives in it or below) finds nothing and kills
 * nothing. Control: the user's process outside lives in that namespace. */
Test(session, a_record_naming_the_user_s_own_namespace_kills_nothing, .timeout = 60)
{
	struct world w;
	world_init(&w, "ownns", "");
	world_as_user(&w);
	char *sleeper[] = {"/bin/sleep", "300", NULL};
	pid_t outside = world_spawn(&w, sleeper, w.proj);
	char *nspath = fmt("/proc/%d/ns/user", (int)outside), *mine = fmt("/proc/self/ns/user");
	struct stat a, b;
	wait_exec(outside, "/usr/bin/sleep");
	cr_assert(stat(nspath, &a) == 0 && stat(mine, &b) == 0);
	cr_assert(a.st_ino == b.st_ino, "control: the process outside is in the user's namespace");
	int fd = open(nspath, O_RDONLY | O_CLOEXEC);
	unsigned long long own = 0;
	cr_assert(fd >= 0 && ioctl(fd, _IOR(0xb7, 13, unsigned long long), &own) == 0,
		  "no NS_GET_ID here");
	close(fd);
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	int st;
	waitpid(dead, &st, 0);
	char *list[] = {CORDON_BIN, "list", NULL};
	struct run_result r = world_run(&w, list, w.proj); /* (makes the registry) */
	run_free(&r);
	char *dir = fmt("%s/.local/state/cordon/sessions", w.home);
	const char *id = "0d0e0a0d0b0e0e0f";
	char *json = fmt("{\"id\":\"%s\",\"shell\":%d,\"watcher\":%d,\"keeper\":0,\"started\":%lld,"
			 "\"cgroup\":\"\",\"project\":\"%s\",\"sockets\":\"\",\"userns\":%llu}",
			 id, (int)dead, (int)dead, (long long)time(NULL), w.proj, own);
	char *name = fmt("%s.json", id);
	for (int round = 0; round < 2; round++) {
		char *rec = write_file(dir, name, json);
		cr_assert_eq(chown(rec, w.uid, w.gid), 0);
		char *kill_it[] = {CORDON_BIN, "kill", (char *)id, NULL};
		r = world_run(&w, round ? kill_it : list, w.proj);
		cr_expect(strstr(r.out, id) == NULL, "listed: %s", r.out);
		run_free(&r);
		usleep(100000);
		cr_expect(runs(outside), "a planted record's cordon %s ended the user's process",
			  round ? "kill" : "list");
		(void)unlink(rec);
		free(rec);
	}
	(void)kill(outside, SIGKILL);
	waitpid(outside, &st, 0);
	free(name);
	free(json);
	free(dir);
	free(nspath);
	free(mine);
	world_free(&w);
}

/* Orphaned, then the session's processes ended some other way: the cgroup
 * stays, empty. cordon list drops the record and removes it. */
Test(session, list_clears_an_ended_session_a_killed_watcher_left, .timeout = 60)
{
	struct world w;
	world_init(&w, "orphanended", "");
	char *id;
	pid_t pid = start_sleeping_session(&w, &id);
	orphan_session(id, pid);
	char *cg = cgroup_of(id);
	cr_assert_not_null(cg);
	cr_assert_eq(cordon_cgroup_kill(cg, NULL), 0);
	pid_t esc[1];
	char *pids = path_join(w.proj, "pids");
	cr_assert_eq(read_pids(pids, esc, 1), 1);
	free(pids);
	cr_expect(wait_gone(esc[0], 5000), "the escapee survived cgroup.kill");
	/* cgroup.kill is asynchronous: the shell may still be on its way out
	 * when the escapee is gone, and list rightly shows it then (a CI run
	 * caught that moment). "Ended" means the cgroup holds nothing. */
	cr_expect(wait_cgroup_empty(cg, 5000), "the session's processes survived cgroup.kill");
	cr_expect(file_exists(cg), "nothing should have removed the cgroup yet");

	struct run_result r = run_cordon(w.env, w.proj, "list", NULL);
	cr_expect(strstr(r.out, id) == NULL, "an ended session is listed: %s", r.out);
	run_free(&r);
	expect_session_gone(&w, 1);
	if (file_exists(cg)) /* not a check: nothing outlives the test */
		(void)cordon_cgroup_destroy(cg, NULL);
	free(cg);
	free(id);
	world_free(&w);
}

/* A launcher killed while it wrote its record leaves "<id>.json.tmp":
 * cordon list removes one older than a minute, and leaves a fresh one
 * (a launcher writing it now) alone. */
Test(session, list_clears_a_record_a_killed_launcher_left_half_written, .timeout = 30)
{
	struct world w;
	world_init(&w, "halfrecord", "");
	char *dir = NULL;
	cr_assert_eq(cordon_registry_dir(&dir, NULL), 0);
	char name[64];
	snprintf(name, sizeof(name), "%08x0a1d.json.tmp", (unsigned)getpid());
	char *old = write_file(dir, name, "");
	snprintf(name, sizeof(name), "%08x0f5e.json.tmp", (unsigned)getpid());
	char *fresh = write_file(dir, name, "");
	struct timespec ago[2] = {{.tv_sec = time(NULL) - 120}, {.tv_sec = time(NULL) - 120}};
	cr_assert_eq(utimensat(AT_FDCWD, old, ago, 0), 0);

	struct run_result r = run_cordon(w.env, w.proj, "list", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	cr_expect(!file_exists(old), "a record a launcher left half-written a while ago stays");
	cr_expect(file_exists(fresh), "a record being written now was removed");
	(void)unlink(old);
	(void)unlink(fresh);
	free(old);
	free(fresh);
	free(dir);
	world_free(&w);
}

/* The promise behind the ack: if the shim does not confirm, nothing runs on
 * unsandboxed. A library that loads but does nothing stands in for it. */
Test(session, unconfirmed_sandbox_kills_the_session, .timeout = 60)
{
	struct world w;
	world_init(&w, "noack", "");
	char *shim;
	asprintf(&shim, "CORDON_SHIM=%s", CORDON_FAKESHIM);
	world_setenv(&w, shim);
	world_setenv(&w, "CORDON_ACK_TIMEOUT_MS=300");
	char *marker = path_join(w.outside, "ran-unsandboxed");
	struct run_result r =
		sh_in(&w, NULL, "echo $CORDON_SESSION > sid; echo $$ >> pids; sleep 3; touch '%s'",
		      marker);
	cr_expect_not(file_exists(marker), "the command ran on without a confirmed sandbox");
	cr_expect(strstr(r.err, "not confirmed") != NULL, "the user must see why: %s", r.err);
	cr_expect_eq(r.status, 125, "%s", r.err);
	expect_session_gone(&w, 1);
	run_free(&r);
	free(marker);
	free(shim);
	world_free(&w);
}

/* Code that runs instead of the shim (a program the shim never loaded
 * into) holds the channel and can say "applied, no supervisor needed"
 * itself: where the sandbox has a supervisor, that hand-over is refused
 * and the session killed, so the command never runs on. A library that
 * sends it stands in. Control: the same command, unsandboxed, writes. */
Test(session, a_confirmation_without_the_supervisor_is_refused, .timeout = 60)
{
	struct world w;
	world_init(&w, "forged", "");
	char *shim = fmt("CORDON_SHIM=%s", CORDON_FORGEDSHIM);
	world_setenv(&w, shim);
	char *marker = path_join(w.outside, "ran-unsandboxed");
	char *script = fmt("touch '%s'", marker);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	cr_expect_not(file_exists(marker), "the command ran on a forged confirmation");
	cr_expect(strstr(r.err, "without the supervisor's end") != NULL, "not said: %s", r.err);
	cr_expect_eq(r.status, 125, "%s", r.err);
	run_free(&r);
	/* A forged "failed" (round 39e H2: the channel closed before the kill). */
	char *failed = fmt("CORDON_SHIM=%s", CORDON_FORGEDFAILED);
	world_setenv(&w, failed);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect_not(file_exists(marker), "the command ran on after a forged failure: %s", r.err);
	cr_expect_eq(r.status, 125, "%s", r.err);
	run_free(&r);
	free(failed);
	world_setenv(&w, shim);
	char *ctl[] = {"/bin/sh", "-c", script, NULL};
	r = run_cmd(ctl, w.env, w.proj, 20000);
	cr_expect(file_exists(marker), "control: outside, it did not write: %s", r.err);
	run_free(&r);
	free(script);
	free(marker);
	free(shim);
	world_free(&w);
}

/* The path for kernels without cgroup.kill (before 5.14), tested directly:
 * this kernel has cgroup.kill, so cordon itself never takes it here. */
Test(session, freeze_and_kill_without_cgroup_kill, .timeout = 60)
{
	char id[CORDON_SESSION_ID_LEN + 1], *cg;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_session_id(id), 0);
	cr_assert_eq(cordon_cgroup_create(id, &cg, &err), 0, "%s", err.msg);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		if (cordon_cgroup_enter(cg, 0, &err) < 0)
			_exit(1);
		execl("/bin/sh", "sh", "-c",
		      "i=0; while [ $i -lt 50 ]; do sleep 300 & setsid sleep 300 & i=$((i+1)); done;"
		      "(sh -c 'trap \"\" TERM HUP; exec sleep 300' &); exec sleep 300",
		      (char *)NULL);
		_exit(127);
	}
	pid_t *pids = NULL;
	size_t n = 0;
	for (int i = 0; i < 500 && n < 102; i++) {
		free(pids);
		pids = NULL;
		usleep(10000);
		cr_assert_eq(cordon_cgroup_pids(cg, &pids, &n, &err), 0, "%s", err.msg);
	}
	cr_assert_geq(n, 102, "the tree did not start: %zu", n);
	/* Repeat passes until empty, as the watcher does. */
	for (int pass = 0; pass < 20; pass++) {
		cr_assert_eq(cordon_cgroup_freeze_kill(cg, &err), 0, "%s", err.msg);
		size_t left;
		pid_t *rest;
		cr_assert_eq(cordon_cgroup_pids(cg, &rest, &left, &err), 0);
		free(rest);
		if (left == 0)
			break;
		usleep(20000);
	}
	waitpid(child, NULL, 0);
	for (size_t i = 0; i < n; i++)
		cr_expect(wait_gone(pids[i], 5000), "pid %d survived freeze + kill", pids[i]);
	char *frozen = path_join(cg, "cgroup.freeze");
	char *state = read_file(frozen);
	cr_expect(state && state[0] == '0', "the cgroup was left frozen");
	for (int i = 0; i < 500 && rmdir(cg) < 0; i++)
		usleep(10000);
	cr_expect_not(file_exists(cg), "cgroup %s left behind", cg);
	free(state);
	free(frozen);
	free(pids);
	free(cg);
}

/* Without pidfd_open (Linux < 5.3) the subreaper supervisor could not see
 * its command end: cordon must refuse up front, not hang or run untracked. */
Test(session, subreaper_without_pidfd_refuses, .timeout = 30)
{
	struct world w;
	world_init(&w, "nopidfd", "");
	char *marker = path_join(w.proj, "ran");
	char *argv[] = {CORDON_NOLANDLOCK, "--enosys", "pidfd_open", CORDON_BIN,  "run",
			"--config",        w.cfg,      "--tracking", "subreaper", "--",
			"/usr/bin/touch",  marker,     NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "cordon: pidfd_open") != NULL, "%s", r.err);
	cr_expect_not(file_exists(marker),
		      "the command ran without a supervisor that can follow it");
	run_free(&r);
	free(marker);
	world_free(&w);
}

/* The watcher is started before the launcher resolves its policy; a launcher
 * that gives up before entering the session's cgroup (a broken config, a
 * command that is not there) must not leave the leaf behind. Judged in a
 * parent cgroup of the test's own: empty afterwards. */
static size_t subgroups(const char *dir)
{
	size_t n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_type == DT_DIR && e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Start ARGV in the cgroup CG (moved there before the exec), in CWD, with
 * ENVP (NULL: ours), its output discarded, its stderr ERR (-1: discarded). */
static pid_t spawn_in_cgroup_with(const char *cg, char *const argv[], char *const envp[],
				  const char *cwd, int err)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char *procs = path_join(cg, "cgroup.procs");
		int fd = open(procs, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(99);
		close(fd);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(err >= 0 ? err : null, 2);
		if (chdir(cwd) < 0)
			_exit(98);
		execve(argv[0], argv, envp ? envp : environ);
		_exit(97);
	}
	return pid;
}

static pid_t spawn_in_cgroup(const char *cg, char *const argv[], const char *cwd)
{
	return spawn_in_cgroup_with(cg, argv, NULL, cwd, -1);
}

/* A test's own parent cgroup below the runner's, for sessions to start in:
 * cordon-test-TAG-PID. NULL (the test skipped) without cgroup2. */
static char *test_parent_cgroup(const char *tag)
{
	char *mount, *own, *parent;
	struct cordon_error err = {0};
	if (cordon_cgroup_locate(&mount, &own, &err) < 0)
		cr_skip_test("no cgroup2: %s", err.msg);
	cr_assert(asprintf(&parent, "%s%s/cordon-test-%s-%d", mount, strcmp(own, "/") ? own : "",
			   tag, (int)getpid()) > 0);
	cr_assert_eq(mkdir(parent, 0755), 0, "%s: %s", parent, strerror(errno));
	free(mount);
	free(own);
	return parent;
}

Test(session, a_launcher_that_gives_up_leaves_no_cgroup, .timeout = 60)
{
	char *parent = test_parent_cgroup("giveup");
	struct world w;
	world_init(&w, "giveup", "");
	char *broken = path_join(w.proj, "broken.json");
	FILE *f = fopen(broken, "w");
	fputs("{\"enabled\": ", f);
	fclose(f);
	char *const cases[][6] = {
		{CORDON_BIN, "run", "--config", broken, "--", "/bin/true"},
		{CORDON_BIN, "run", "--", "/nonexistent/command", NULL, NULL},
	};
	const int want[] = {125, 127};
	for (size_t c = 0; c < 2; c++) {
		pid_t pid = spawn_in_cgroup(parent, cases[c], w.proj);
		int st = 0;
		waitpid(pid, &st, 0);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == want[c], "case %zu: status %d", c,
			  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		for (int i = 0; i < 500 && subgroups(parent) > 0; i++)
			usleep(10000);
		cr_expect_eq(subgroups(parent), 0, "case %zu: a session cgroup was left in %s", c,
			     parent);
	}
	for (int i = 0; i < 100 && rmdir(parent) < 0; i++)
		usleep(10000);
	world_free(&w);
	free(broken);
	free(parent);
}

/* A launcher whose stderr is a pipe nobody reads any more (`cordon run -v
 * ... 2>&1 | grep -m1 ...` once grep has its line): its words, and the
 * shim's, fail there. Before, SIGPIPE killed the launcher at its first one;
 * said later, between making the session's cgroup and socket directory and
 * arming the keeper, it left both behind. Judged from outside: the command
 * ran, the launcher ended with its status, no cgroup and no socket
 * directory are left, and the command started with SIGPIPE as the
 * launcher's caller left it: at its default, or ignored (`trap "" PIPE`). */
Test(session, a_launcher_whose_stderr_is_gone_ends_its_session_whole, .timeout = 60)
{
	char *parent = test_parent_cgroup("epipe");
	for (int ignored = 0; ignored < 2; ignored++) {
		struct world w;
		world_init(&w, "epipe", "");
		int p[2];
		cr_assert_eq(pipe(p), 0);
		close(p[0]);
		char *run =
			fmt("%s%s run -v --config %s -- /bin/sh -c 'echo $CORDON_SESSION > sid;"
			    " echo $TMUX_TMPDIR > sockdir; grep SigIgn /proc/self/status > sigign'",
			    ignored ? "trap '' PIPE; exec " : "exec ", CORDON_BIN, w.cfg);
		char *argv[] = {"/bin/sh", "-c", run, NULL};
		pid_t pid = spawn_in_cgroup_with(parent, argv, w.env, w.proj, p[1]);
		close(p[1]);
		int st = 0;
		waitpid(pid, &st, 0);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "case %d: the launcher ended %s %d", ignored,
			  WIFSIGNALED(st) ? "by signal" : "with status",
			  WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		char *id = session_id(&w);
		cr_expect(id && id[0], "case %d: the command never ran", ignored);
		char *sockdir_file = path_join(w.proj, "sockdir");
		char *sockdir = read_file(sockdir_file);
		if (sockdir)
			sockdir[strcspn(sockdir, "\n")] = '\0';
		cr_expect(sockdir && strstr(sockdir, "/cordon-"),
			  "case %d: no socket directory was set: %s", ignored,
			  sockdir ? sockdir : "(none)");
		for (int i = 0; i < 500 && subgroups(parent) > 0; i++)
			usleep(10000);
		cr_expect_eq(subgroups(parent), 0, "case %d: the session's cgroup was left in %s",
			     ignored, parent);
		cr_expect(!sockdir || !file_exists(sockdir),
			  "case %d: the socket directory %s was left", ignored, sockdir);
		char *ign_file = path_join(w.proj, "sigign");
		char *ign = read_file(ign_file);
		char *hex = ign ? strchr(ign, ':') : NULL;
		cr_expect(hex, "case %d: no SigIgn line: %s", ignored, ign ? ign : "(none)");
		if (hex)
			cr_expect_eq(!!(strtoull(hex + 1, NULL, 16) & (1ULL << (SIGPIPE - 1))),
				     ignored, "case %d: the command started with SIGPIPE %s: %s",
				     ignored, ignored ? "at its default" : "ignored", ign);
		free(ign);
		free(ign_file);
		free(sockdir);
		free(sockdir_file);
		free(id);
		free(run);
		world_free(&w);
	}
	for (int i = 0; i < 100 && rmdir(parent) < 0; i++)
		usleep(10000);
	free(parent);
}

/* Set the modification time of PATH to AGO seconds in the past. */
static void age_by(const char *path, long ago)
{
	struct timespec t[2] = {{.tv_nsec = UTIME_OMIT}, {.tv_sec = time(NULL) - ago}};
	cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0, "%s: %s", path, strerror(errno));
}

/* A watcher killed outright (SIGKILL, or gdb's breakpoints in its shared
 * memory) leaves its session's empty cgroup. The next session to end beside
 * it removes it; not a young one (a launcher may be between its mkdir and its
 * move), not one with a process in it, not one named unlike a session. */
Test(session, an_ending_session_removes_what_killed_watchers_left, .timeout = 60)
{
	char *parent = test_parent_cgroup("sweep");
	char *stale = path_join(parent, "cordon-0123456789abcdef");
	char *young = path_join(parent, "cordon-fedcba9876543210");
	char *busy = path_join(parent, "cordon-00000000000000aa");
	char *other = path_join(parent, "cordon-notasession0000");
	char *const dirs[] = {stale, young, busy, other};
	for (size_t i = 0; i < 4; i++)
		cr_assert_eq(mkdir(dirs[i], 0755), 0, "%s: %s", dirs[i], strerror(errno));
	age_by(stale, 7200);
	age_by(busy, 7200);
	age_by(other, 7200);
	char *const sleeper_argv[] = {"/bin/sleep", "300", NULL};
	pid_t sleeper = spawn_in_cgroup(busy, sleeper_argv, "/");
	wait_exec(sleeper, "/usr/bin/sleep");
	age_by(busy, 7200); /* the move may have touched it */

	struct world w;
	world_init(&w, "sweep", "");
	char *const run[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/true", NULL};
	int st = 0;
	waitpid(spawn_in_cgroup(parent, run, w.proj), &st, 0);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "cordon run: status %d", st);
	/* The session's own cgroup goes, then the watcher sweeps. */
	for (int i = 0; i < 500 && (subgroups(parent) > 3 || file_exists(stale)); i++)
		usleep(10000);
	cr_expect_not(file_exists(stale), "the stale session cgroup was left");
	cr_expect(file_exists(young), "a young session cgroup was removed");
	cr_expect(file_exists(busy), "a session cgroup with a process in it was removed");
	cr_expect(file_exists(other), "a cgroup not named like a session was removed");
	cr_expect_eq(kill(sleeper, 0), 0, "the process in the busy cgroup is gone");
	cr_expect_eq(subgroups(parent), 3, "the session's own cgroup was left");

	stop_process(sleeper);
	for (size_t i = 0; i < 4; i++)
		for (int k = 0; k < 100 && rmdir(dirs[i]) < 0 && errno == EBUSY; k++)
			usleep(10000);
	for (int i = 0; i < 100 && rmdir(parent) < 0; i++)
		usleep(10000);
	world_free(&w);
	for (size_t i = 0; i < 4; i++)
		free(dirs[i]);
	free(parent);
}

/* The first cgroup2 mount point in mountinfo (octal escapes left alone:
 * none on the machines this runs on), or NULL. */
static char *first_cgroup2_in_mountinfo(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *found = NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) != 0)
			continue;
		char *save = NULL, *tok = strtok_r(line, " ", &save);
		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		found = tok ? strdup(tok) : NULL;
	}
	if (f)
		fclose(f);
	return found;
}

/* cordon_cgroup_locate's mount point, found in a child; with HIDE_LISTMOUNT
 * (non-NULL) the child's seccomp filter makes listmount fail with ENOSYS, as
 * on a kernel before 6.8 (or under a container's filter). */
static void locate(void *hide_listmount, int out)
{
	if (hide_listmount) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 458 /* listmount */, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
			_exit(2);
	}
	char *mount = NULL, *own = NULL;
	struct cordon_error err = {0};
	if (cordon_cgroup_locate(&mount, &own, &err) < 0)
		_exit(1);
	(void)!write(out, mount, strlen(mount));
}

/* listmount/statmount (Linux 6.8+) find the mount point mountinfo lists first
 * for cgroup2; without listmount, mountinfo itself is read. */
Test(session, cgroup2_mount_found_with_and_without_listmount)
{
	char *want = first_cgroup2_in_mountinfo();
	cr_assert_not_null(want, "no cgroup2 mount on this machine");
	char *fast = child_output(locate, NULL, "locate");
	char *slow = child_output(locate, "hide", "locate without listmount");
	cr_expect_str_eq(fast, want);
	cr_expect_str_eq(slow, want);
	free(want);
	free(fast);
	free(slow);
}
