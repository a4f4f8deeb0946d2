/* Shell history kept per project (issue 21): interactive bash, zsh and fish
 * on a terminal, judged from outside — the history files on disk after the
 * sessions, the user's own history, and what the shells printed. As root
 * and as the ordinary test user. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <glob.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape/both.h"
#include "helpers.h"

/* An interactive SHELL in a cordon session on a terminal (in W's project,
 * or in PROJECT with --project; --allow-write WRITABLE when not NULL):
 * types each of CMDS, waits for MARK (what the last prints), then exits.
 * Returns all the terminal showed. */
static char *session_w(struct world *w, const char *project, const char *writable,
		       const char *shell, const char *const *cmds, const char *mark)
{
	char *argv[12] = {CORDON_BIN, "run", "--config", w->cfg};
	size_t n = 4;
	if (project) {
		argv[n++] = "--project";
		argv[n++] = (char *)project;
	}
	if (writable) {
		argv[n++] = "--allow-write";
		argv[n++] = (char *)writable;
	}
	argv[n++] = "--";
	argv[n++] = (char *)shell;
	argv[n++] = "-i";
	argv[n] = NULL;
	int master;
	char *name;
	pid_t pid = world_pty_spawn(w, argv, &master, &name);
	size_t size = 1 << 16;
	char *out = calloc(1, size);
	pty_read_until(master, NULL, 800, out, size, false); /* its start-up */
	for (size_t i = 0; cmds[i]; i++)
		cr_assert_eq(write(master, cmds[i], strlen(cmds[i])), (ssize_t)strlen(cmds[i]));
	cr_expect(pty_read_until(master, mark, 15000, out, size, false), "%s: no \"%s\" in: %s",
		  shell, mark, out);
	cr_assert_eq(write(master, "exit\n", 5), 5);
	int st = 0;
	for (long end = ms_now() + 10000; ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
		pty_read_until(master, NULL, 50, out, size, false);
	cr_expect(WIFEXITED(st), "%s did not exit: %s", shell, out);
	close(master);
	free(name);
	return out;
}

static char *session(struct world *w, const char *project, const char *shell,
		     const char *const *cmds, const char *mark)
{
	return session_w(w, project, NULL, shell, cmds, mark);
}

/* The one file matching the pattern HOME/.local/state/cordon/history/REST. */
static char *state_file(struct world *w, const char *rest)
{
	char *pat;
	cr_assert(asprintf(&pat, "%s/.local/state/cordon/history/%s", w->home, rest) > 0);
	glob_t g;
	int r = glob(pat, 0, NULL, &g);
	cr_assert(r == 0 && g.gl_pathc == 1, "%s: %zu matches", pat, r == 0 ? g.gl_pathc : 0);
	char *path = strdup(g.gl_pathv[0]);
	globfree(&g);
	free(pat);
	return path;
}

/* FILE under W's home with CONTENT, W's user's. */
static char *home_file(struct world *w, const char *name, const char *content)
{
	char *path = write_file(w->home, name, content);
	if (w->as_user)
		cr_assert(lchown(path, w->uid, w->gid) == 0);
	return path;
}

static char *home_dir(struct world *w, const char *name)
{
	char *path = path_join(w->home, name);
	cr_assert(mkdir(path, 0755) == 0);
	if (w->as_user)
		cr_assert(chown(path, w->uid, w->gid) == 0);
	return path;
}

/* W, a world for WHO (TAG), where fish is installed (else skipped). */
static void fish_world(struct world *w, const struct who *who, const char *tag)
{
	if (access("/usr/bin/fish", X_OK) != 0)
		cr_skip_test("fish is not installed (scripts/setup installs it)");
	world_for(w, who, tag, "");
}

/* Two bash sessions in a row in one project: the second has the first's
 * command in its history, and the file holds both; a session in another
 * project does not see it; the user's own ~/.bash_history is untouched.
 * The directory is private (0700) and the user's. */
BOTH_USERS(history, bash_kept_per_project, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "hist-bash", "");
	char *own = home_file(&w, ".bash_history", "echo my-own-history\n");
	char *other = path_join(w.dir, "other");
	cr_assert(mkdir(other, 0755) == 0);
	if (w.as_user)
		cr_assert(chown(other, w.uid, w.gid) == 0);

	free(session(&w, NULL, "/bin/bash", (const char *const[]){"echo first-$((20+3))\n", NULL},
		     "first-23"));
	char *file = state_file(&w, "proj-*/bash_history");
	cr_expect(contains(file, "echo first-$((20+3))"), "%s lacks the first command", file);
	char *out =
		session(&w, NULL, "/bin/bash",
			(const char *const[]){"history; echo listed-$((1+1))\n", NULL}, "listed-2");
	cr_expect(strstr(out, "echo first-$((20+3))"),
		  "the second session's history lacks the first's command: %s", out);
	free(out);
	cr_expect(contains(file, "echo first-$((20+3))") && contains(file, "history; echo listed"),
		  "%s does not hold both sessions' commands", file);

	out = session(&w, other, "/bin/bash",
		      (const char *const[]){"history; echo other-$((2+2))\n", NULL}, "other-4");
	cr_expect(!strstr(out, "first-$((20+3))"), "another project sees the history: %s", out);
	free(out);
	char *file2 = state_file(&w, "other-*/bash_history");
	cr_expect(!contains(file2, "first-"), "%s holds the other project's history", file2);

	char *got = read_file(own);
	cr_expect_str_eq(got, "echo my-own-history\n", "~/.bash_history changed");
	free(got);
	char *dir = strdup(file);
	*strrchr(dir, '/') = '\0';
	struct stat st;
	cr_assert(stat(dir, &st) == 0);
	cr_expect_eq(st.st_mode & 07777, 0700, "%s: mode %o", dir, st.st_mode & 07777);
	cr_expect_eq(st.st_uid, w.as_user ? w.uid : 0, "%s: owner %u", dir, st.st_uid);
	cr_expect(strncmp(dir, w.proj, strlen(w.proj)) != 0, "history inside the project");
	free(dir);
	free(file);
	free(file2);
	free(own);
	free(other);
	world_free(&w);
}

/* zsh whose ~/.zshrc runs plain compinit and saves history: compinit says
 * nothing (it could not write ~/.zcompdump: ~30 lines), ~/.zshrc is still
 * read, and the history is kept in the project's directory; the dump is
 * not (every session of the project writes it, and compinit sources it),
 * nor left in cordon's state once the session is gone. */
BOTH_USERS(history, zsh_compinit_quiet_and_history_kept, .timeout = 120)
{
	if (access("/usr/bin/zsh", X_OK) != 0)
		cr_skip_test("zsh is not installed (scripts/setup installs it)");
	struct world w;
	world_for(&w, who, "hist-zsh", "");
	free(home_file(&w, ".zshrc",
		       "autoload -U compinit; compinit\nHISTSIZE=100 SAVEHIST=100\n"
		       "echo zshrc-$((3+4))\n"));
	char *out = session(&w, NULL, "/usr/bin/zsh",
			    (const char *const[]){"echo zed-$((5+5))\n", NULL}, "zed-10");
	cr_expect(strstr(out, "zshrc-7"), "~/.zshrc was not read: %s", out);
	cr_expect(!strstr(out, "compdump") && !strstr(out, "zcompdump") &&
			  !strstr(out, "ermission denied") && !strstr(out, "no such file"),
		  "zsh complained: %s", out);
	free(out);
	char *hist = state_file(&w, "proj-*/zsh_history");
	cr_expect(contains(hist, "echo zed-$((5+5))"), "%s lacks the command", hist);
	char *hist_dir = strdup(hist);
	*strrchr(hist_dir, '/') = '\0';
	char *dump = path_join(hist_dir, "zcompdump");
	cr_expect(!file_exists(dump), "compinit's dump is in the history directory: %s", dump);
	free(dump);
	free(hist_dir);
	char *own = fmt("%s/.local/state/cordon/shell", w.home);
	char *left = fmt("find %s -mindepth 1", own);
	struct run_result r =
		run_cmd((char *const[]){"/bin/sh", "-c", left, NULL}, NULL, NULL, 5000);
	cr_expect_str_eq(r.out, "", "the session's own directory is left: %s", r.out);
	run_free(&r);
	free(left);
	free(own);
	char *home_dump = path_join(w.home, ".zcompdump");
	cr_expect(!file_exists(home_dump), "compinit wrote into the home");
	free(home_dump);
	free(hist);
	world_free(&w);
}

/* fish (its configuration made by a first run outside, as a fish user's
 * is) starts without "can not save history", and keeps it per project. */
BOTH_USERS(history, fish_kept_without_errors, .timeout = 120)
{
	struct world w;
	fish_world(&w, who, "hist-fish");
	free(home_dir(&w, ".config"));
	char *argv[] = {"/usr/bin/fish", "-i", NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char buf[8192] = "";
	pty_read_until(master, NULL, 1500, buf, sizeof(buf), false);
	cr_assert_eq(write(master, "exit\n", 5), 5);
	int st = 0;
	for (long end = ms_now() + 10000; ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
		pty_read_until(master, NULL, 50, buf, sizeof(buf), false);
	close(master);
	free(name);

	char *out = session(&w, NULL, "/usr/bin/fish",
			    (const char *const[]){"echo fishy-(math 6 + 6)\n", NULL}, "fishy-12");
	cr_expect(!strstr(out, "can not save history") && !strstr(out, "ermission denied"),
		  "fish complained: %s", out);
	free(out);
	char *hist = state_file(&w, "proj-*/fish/fish_history");
	cr_expect(contains(hist, "echo fishy-(math 6 + 6)"), "%s lacks the command", hist);
	free(hist);
	world_free(&w);
}

/* A directory outside that W's user (and so a session with --allow-write
 * for it) may write, and a session without one may not. */
static char *victim_dir(struct world *w)
{
	char *victim = path_join(w->outside, "b-only");
	cr_assert(mkdir(victim, 0755) == 0);
	if (w->as_user)
		cr_assert(chown(victim, w->uid, w->gid) == 0);
	return victim;
}

/* What one session writes in the project's history directory runs in no
 * later one (round 37a F5): session A, narrower (--no-network), leaves a
 * complete compinit dump with a line of its own there (and in its own
 * dump); session B, wider (--allow-write VICTIM), starts interactive zsh,
 * whose ~/.zshrc runs compinit: the line does not run. The control: the
 * dump as A left it runs its line when compinit reads it, outside. */
BOTH_USERS(history, zsh_dump_planted_runs_in_no_later_session, .timeout = 180)
{
	if (access("/usr/bin/zsh", X_OK) != 0)
		cr_skip_test("zsh is not installed (scripts/setup installs it)");
	struct world w;
	world_for(&w, who, "hist-zplant", "");
	free(home_file(&w, ".zshrc", "autoload -Uz compinit; compinit\necho zshrc-$((3+4))\n"));
	char *victim = victim_dir(&w);
	char *planted = path_join(victim, "PLANTED");
	char *b_wrote = path_join(victim, "B-WROTE");

	/* A first session makes its dump, as a user's first day would. */
	free(session(&w, NULL, "/usr/bin/zsh", (const char *const[]){"echo made-$((1+1))\n", NULL},
		     "made-2"));
	char *plant = fmt("autoload -Uz compinit\n"
			  "for d in $CORDON_HISTORY_DIR/zcompdump ${CORDON_ZCOMPDUMP-}; do\n"
			  "  [[ -s $d ]] || compinit -d $d\n"
			  "  print -r -- 'touch %s' >> $d && echo planted-$d\n"
			  "done\n",
			  planted);
	struct run_result a =
		run_in(&w, "--no-network", (char *const[]){"/usr/bin/zsh", "-c", plant, NULL});
	cr_assert(strstr(a.out, "planted-"), "A planted nothing: %s %s", a.out, a.err);
	cr_assert(!file_exists(planted), "A itself wrote the victim: %s", a.err);
	run_free(&a);

	char *dump = state_file(&w, "proj-*/zcompdump");
	char *control = fmt("autoload -Uz compinit; compinit -d %s", dump);
	struct run_result c =
		world_run(&w, (char *const[]){"/usr/bin/zsh", "-f", "-c", control, NULL}, w.home);
	cr_assert(file_exists(planted), "control: compinit outside did not run the plant in %s: %s",
		  dump, c.err);
	run_free(&c);
	cr_assert(unlink(planted) == 0);

	char *touch = fmt("touch %s; echo b-$((2+3))\n", b_wrote);
	char *out = session_w(&w, NULL, victim, "/usr/bin/zsh", (const char *const[]){touch, NULL},
			      "b-5");
	cr_expect(strstr(out, "zshrc-7"), "~/.zshrc was not read: %s", out);
	cr_expect(file_exists(b_wrote), "B could not write %s: the probe proves nothing: %s",
		  victim, out);
	cr_expect(!file_exists(planted),
		  "session B ran what session A planted in compinit's dump (%s): %s", dump, out);
	free(out);
	free(touch);
	free(control);
	free(dump);
	free(plant);
	free(b_wrote);
	free(planted);
	free(victim);
	world_free(&w);
}

/* The same for fish: session A leaves a vendor_conf.d snippet (sourced at
 * every start) and a vendor_functions.d fish_prompt (autoloaded at the
 * first prompt) in the history directory's fish data, where fish in a
 * session read them, and in its own; session B, wider, starts fish -i:
 * neither runs. History stays shared (B's command is in the project's
 * fish_history). The control: fish outside with that data directory runs
 * the snippet. */
BOTH_USERS(history, fish_data_planted_runs_in_no_later_session, .timeout = 180)
{
	struct world w;
	fish_world(&w, who, "hist-fplant");
	free(home_dir(&w, ".config"));
	char *victim = victim_dir(&w);
	char *planted = path_join(victim, "PLANTED");
	char *prompted = path_join(victim, "PROMPTED");
	char *b_wrote = path_join(victim, "B-WROTE");

	char *plant =
		fmt("for d in $CORDON_HISTORY_DIR $XDG_DATA_HOME\n"
		    "  mkdir -p $d/fish/vendor_conf.d $d/fish/vendor_functions.d\n"
		    "  and echo 'touch %s' > $d/fish/vendor_conf.d/plant.fish\n"
		    "  and printf 'function fish_prompt\\n touch %s\\n echo \\'> \\'\\nend\\n'"
		    " > $d/fish/vendor_functions.d/fish_prompt.fish\n"
		    "  and echo planted-$d\n"
		    "end\n",
		    planted, prompted);
	struct run_result a =
		run_in(&w, "--no-network", (char *const[]){"/usr/bin/fish", "-c", plant, NULL});
	cr_assert(strstr(a.out, "planted-"), "A planted nothing: %s %s", a.out, a.err);
	cr_assert(!file_exists(planted), "A itself wrote the victim: %s", a.err);
	run_free(&a);

	char *conf = state_file(&w, "proj-*/fish/vendor_conf.d/plant.fish");
	char *data = strdup(conf);
	*strstr(data, "/fish/vendor_conf.d/") = '\0';
	char *xdg = fmt("XDG_DATA_HOME=%s", data);
	struct run_result c = world_run(
		&w, (char *const[]){"/usr/bin/env", xdg, "/usr/bin/fish", "-c", "true", NULL},
		w.home);
	cr_assert(file_exists(planted), "control: fish outside did not run %s: %s", conf, c.err);
	run_free(&c);
	cr_assert(unlink(planted) == 0);

	char *touch = fmt("touch %s; echo fishb-(math 2 + 3)\n", b_wrote);
	char *out = session_w(&w, NULL, victim, "/usr/bin/fish", (const char *const[]){touch, NULL},
			      "fishb-5");
	cr_expect(file_exists(b_wrote), "B could not write %s: the probe proves nothing: %s",
		  victim, out);
	cr_expect(!file_exists(planted), "session B ran what session A planted in %s: %s", conf,
		  out);
	cr_expect(!file_exists(prompted), "session B ran the fish_prompt session A planted: %s",
		  out);
	free(out);
	char *hist = state_file(&w, "proj-*/fish/fish_history");
	cr_expect(contains(hist, "echo fishb-(math 2 + 3)"), "%s lacks B's command", hist);
	free(hist);
	free(touch);
	free(xdg);
	free(data);
	free(conf);
	free(plant);
	free(b_wrote);
	free(prompted);
	free(planted);
	free(victim);
	world_free(&w);
}

/* A link an earlier session laid at the history directory's fish/ (to a
 * directory the session cannot write): the next fish session's launcher
 * made fish_history where it led, outside the sandbox, as root perhaps
 * (round 37d F5). It follows no link there now; fish still runs. */
BOTH_USERS(history, a_link_laid_at_fish_s_history_is_not_followed, .timeout = 60)
{
	struct world w;
	fish_world(&w, who, "hist-flink");
	char *lure = path_join(w.outside, "lure");
	cr_assert_eq(mkdir(lure, 0755), 0);
	if (w.as_user)
		cr_assert_eq(chown(lure, w.uid, w.gid), 0);
	char *lay =
		fmt("rm -rf \"$CORDON_HISTORY_DIR/fish\" && ln -s %s \"$CORDON_HISTORY_DIR/fish\" "
		    "&& echo laid; touch %s/direct 2>/dev/null || echo refused",
		    lure, lure);
	struct run_result a = run_in(&w, NULL, (char *const[]){"/bin/sh", "-c", lay, NULL});
	cr_assert(strstr(a.out, "laid") && strstr(a.out, "refused"),
		  "control: the link was not laid, or the lure was writable inside: %s %s", a.out,
		  a.err);
	run_free(&a);
	struct run_result b =
		run_in(&w, NULL, (char *const[]){"/usr/bin/fish", "-c", "echo fish-ran", NULL});
	cr_expect(strstr(b.out, "fish-ran"), "fish did not run: %s %s", b.out, b.err);
	char *made = path_join(lure, "fish_history");
	cr_expect_not(file_exists(made), "the launcher made %s through the session's link: %s",
		      made, b.err);
	run_free(&b);
	free(made);
	free(lay);
	free(lure);
	world_free(&w);
}

/* W (fish_world, a fish user's ~/.config) after a first fish session
 * in its project, which made its history directory: the project's
 * fish_history (malloc'd). */
static char *fish_first_session(struct world *w, const struct who *who, const char *tag)
{
	fish_world(w, who, tag);
	free(home_dir(w, ".config"));
	free(session(w, NULL, "/usr/bin/fish", (const char *const[]){"echo a-(math 1 + 1)\n", NULL},
		     "a-2"));
	return state_file(w, "proj-*/fish/fish_history");
}

/* The N commands a long fish session types (fish rewrites its history
 * file about one save in 25), each its own: CMDS (N + 1, NULL-ended). */
enum { FISH_N = 30 };
static void fish_cmds(const char *cmds[FISH_N + 1])
{
	for (int i = 0; i < FISH_N; i++)
		cmds[i] = fmt("echo long%d-(math %d + 100)\n", i, i);
	cmds[FISH_N] = NULL;
}

static void fish_cmds_free(const char *cmds[FISH_N + 1])
{
	for (int i = 0; i < FISH_N; i++)
		free((char *)cmds[i]);
}

/* How many of fish_cmds' commands the file HIST lacks. */
static int fish_missing(const char *hist)
{
	int missing = 0;
	for (int i = 0; i < FISH_N; i++) {
		char *want = fmt("- cmd: echo long%d-(math %d + 100)\n", i, i);
		if (!contains(hist, want))
			missing++;
		free(want);
	}
	return missing;
}

static char *fish_last(void)
{
	return fmt("long%d-%d", FISH_N - 1, FISH_N - 1 + 100);
}

/* fish rewrites its history file about one save in 25 (a new file in its
 * data directory, renamed over the old): in a session that rename crossed
 * into another mount of the session's view (EXDEV) and fish dropped that
 * save's commands. A session of 30 commands keeps every one. */
BOTH_USERS(history, fish_keeps_every_command_of_a_long_session, .timeout = 120)
{
	struct world w;
	fish_world(&w, who, "hist-flong");
	free(home_dir(&w, ".config"));
	const char *cmds[FISH_N + 1];
	fish_cmds(cmds);
	char *last = fish_last();
	free(session(&w, NULL, "/usr/bin/fish", cmds, last));
	char *hist = state_file(&w, "proj-*/fish/fish_history");
	int missing = fish_missing(hist);
	cr_expect_eq(missing, 0, "%d of %d commands missing from %s", missing, FISH_N, hist);
	char *own = fmt("find %s/.local/state/cordon/shell -mindepth 1", w.home);
	struct run_result r =
		run_cmd((char *const[]){"/bin/sh", "-c", own, NULL}, NULL, NULL, 5000);
	cr_expect_str_eq(r.out, "", "the session's own directory is left: %s", r.out);
	run_free(&r);
	free(own);
	free(hist);
	free(last);
	fish_cmds_free(cmds);
	world_free(&w);
}

/* What fish saved in its own directory after a rewrite, where the
 * session's launcher was killed (kill -9, its keeper then ended fish):
 * the next launch, sweeping that directory, first adds it to the
 * project's history (round 39a L1: it removed it, commands and all).
 * Control: before that launch the project's file lacked some. */
BOTH_USERS(history, fish_keeps_what_a_killed_launcher_s_session_saved, .timeout = 120)
{
	struct world w;
	fish_world(&w, who, "hist-fkill");
	free(home_dir(&w, ".config"));
	const char *cmds[FISH_N + 1];
	fish_cmds(cmds);
	char *last = fish_last();
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/usr/bin/fish", "-i", NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	size_t size = 1 << 16;
	char *out = calloc(1, size);
	pty_read_until(master, NULL, 800, out, size, false);
	for (size_t i = 0; cmds[i]; i++)
		cr_assert_eq(write(master, cmds[i], strlen(cmds[i])), (ssize_t)strlen(cmds[i]));
	cr_assert(pty_read_until(master, last, 15000, out, size, false), "no %s in: %s", last, out);
	usleep(300000); /* (fish saves after the command) */
	cr_assert_eq(kill(pid, SIGKILL), 0);
	waitpid(pid, NULL, 0);
	close(master);
	char *hist = state_file(&w, "proj-*/fish/fish_history");
	int before = fish_missing(hist);
	cr_assert_gt(before, 0, "control: the project's history lacked nothing before the sweep");
	/* (A directory is swept once a minute old: made so.) */
	char *dir = state_file(&w, "../shell/*/fish/..");
	struct timespec old[2] = {{time(NULL) - 120, 0}, {time(NULL) - 120, 0}};
	for (int i = 0; i < 50 && utimensat(AT_FDCWD, dir, old, 0) == 0; i++) {
		char *lock = fmt("flock -n %s true", dir); /* (the keeper's end: gone) */
		struct run_result l =
			run_cmd((char *const[]){"/bin/sh", "-c", lock, NULL}, NULL, NULL, 5000);
		bool free_now = l.status == 0;
		run_free(&l);
		free(lock);
		if (free_now)
			break;
		usleep(100000);
	}
	struct run_result r = run_in(&w, NULL, (char *const[]){"/bin/bash", "-c", "true", NULL});
	run_free(&r);
	int missing = fish_missing(hist);
	cr_expect_eq(missing, 0, "%d of %d commands still missing from %s (%d before)", missing,
		     FISH_N, hist, before);
	free(dir);
	free(hist);
	free(out);
	free(name);
	free(last);
	fish_cmds_free(cmds);
	world_free(&w);
}

/* The project's history larger than a merge reads whole (16 MiB): only
 * what it gained since the session started is read, so a session's
 * commands still go back (round 39a L2: one past the bound refused every
 * later merge, and a session could make it so). */
BOTH_USERS(history, fish_merges_into_a_large_project_history, .timeout = 120)
{
	struct world w;
	char *hist = fish_first_session(&w, who, "hist-fbig");
	FILE *f = fopen(hist, "a");
	cr_assert_not_null(f);
	for (int i = 0; i < 300000; i++)
		fprintf(f, "- cmd: echo old-%06d-padding-padding-padding\n  when: 1000\n", i);
	cr_assert_eq(fclose(f), 0);
	struct stat st;
	cr_assert(stat(hist, &st) == 0 && st.st_size > (16L << 20), "control: %s is small", hist);
	const char *cmds[FISH_N + 1];
	fish_cmds(cmds);
	char *last = fish_last();
	char *out = session(&w, NULL, "/usr/bin/fish", cmds, last);
	cr_expect_null(strstr(out, "not kept"), "the merge was refused: %s", out);
	free(out);
	int missing = fish_missing(hist);
	cr_expect_eq(missing, 0, "%d of %d commands missing from %s", missing, FISH_N, hist);
	free(hist);
	free(last);
	fish_cmds_free(cmds);
	world_free(&w);
}

/* What fish saved in the session's own directory goes back to the
 * project's history as the session ends: a link laid there instead (to a
 * file of the user's the session cannot read, made to look like history)
 * is not read, and a FIFO holds nothing up. */
BOTH_USERS(history, what_is_laid_at_fish_s_own_history_is_not_read, .timeout = 60)
{
	struct world w;
	fish_world(&w, who, "hist-fown");
	char *secret = path_join(w.outside, "secret");
	free(write_file(w.outside, "secret", "- cmd: echo SECRET-5150\n  when: 1\n"));
	if (w.as_user)
		cr_assert_eq(chown(secret, w.uid, w.gid), 0);
	cr_assert_eq(chmod(secret, 0600), 0);
	struct run_result c = world_run(&w, (char *const[]){"/bin/cat", secret, NULL}, w.home);
	cr_assert(strstr(c.out, "SECRET-5150"), "control: the user cannot read %s: %s", secret,
		  c.err);
	run_free(&c);

	char *lay = fmt("set h $XDG_DATA_HOME/fish/fish_history; rm -f $h; and ln -s %s $h; "
			"and echo laid; cat %s 2>/dev/null; or echo unread",
			secret, secret);
	struct run_result a = run_in(&w, NULL, (char *const[]){"/usr/bin/fish", "-c", lay, NULL});
	cr_expect(strstr(a.out, "laid") && strstr(a.out, "unread"),
		  "control: no link laid, or the secret readable inside: %s %s", a.out, a.err);
	run_free(&a);
	char *hist = state_file(&w, "proj-*/fish/fish_history");
	cr_expect_not(contains(hist, "SECRET-5150"), "the launcher merged %s into %s", secret,
		      hist);

	long start = ms_now();
	struct run_result f =
		run_in(&w, NULL,
		       (char *const[]){"/usr/bin/fish", "-c",
				       "set h $XDG_DATA_HOME/fish/fish_history; rm -f $h; "
				       "and mkfifo $h; and echo fifo",
				       NULL});
	cr_expect(strstr(f.out, "fifo"), "control: no FIFO made: %s %s", f.out, f.err);
	cr_expect_lt(ms_now() - start, 20000, "the session's end waited on the FIFO");
	run_free(&f);
	free(hist);
	free(lay);
	free(secret);
	world_free(&w);
}

/* A killed launcher's session's fish note (SHELL/ID.fish: where its own
 * directory's history goes) names a directory of this state directory's
 * history only: one naming any DIR had the sweep append a session's
 * entries to DIR/fish/fish_history, the user's own fish's too (round 39d
 * G3, where a session could write the note). Control: the same note
 * naming the project's history directory is merged. */
BOTH_USERS(history, a_fish_note_names_only_this_state_s_history, .timeout = 60)
{
	struct world w;
	char *hist = fish_first_session(&w, who, "hist-fnote");
	char *proj = strdup(hist);
	*strstr(proj, "/fish/fish_history") = '\0';
	char *victim = path_join(w.outside, "d/fish/fish_history");
	free(write_file(w.outside, "d/fish/fish_history", "- cmd: mine\n  when: 1\n"));
	char *shell = fmt("%s/.local/state/cordon/shell", w.home);
	const char *ids[2] = {"abcdef0123456789", "abcdef0123456788"};
	const char *to[2] = {NULL, proj};
	char *d = path_join(w.outside, "d");
	to[0] = d;
	for (int k = 0; k < 2; k++) {
		char *own = fmt("%s/%s", shell, ids[k]);
		char *rel = fmt("%s/fish/fish_history", ids[k]);
		char *entry = fmt("- cmd: echo planted-%d\n  when: 99999999999\n", k);
		free(write_file(shell, rel, entry));
		char *note = fmt("%s.fish", ids[k]);
		char *text = fmt("cordon-fish 1\n0\n0\n%s", to[k]);
		free(write_file(shell, note, text));
		if (w.as_user) {
			char *own_it = fmt("chown -R %u:%u %s %s.fish", w.uid, w.gid, own, own);
			cr_assert_eq(system(own_it), 0);
			free(own_it);
		}
		struct timespec old[2] = {{time(NULL) - 120, 0}, {time(NULL) - 120, 0}};
		cr_assert_eq(utimensat(AT_FDCWD, own, old, 0), 0);
		free(own), free(rel), free(entry), free(note), free(text);
	}
	struct run_result r = run_in(&w, NULL, (char *const[]){"/bin/bash", "-c", "true", NULL});
	run_free(&r);
	cr_expect_not(contains(victim, "planted-0"), "the sweep appended to %s", victim);
	cr_expect(contains(hist, "planted-1"), "control: the note naming %s was not merged", proj);
	free(d), free(shell), free(victim), free(proj), free(hist);
	world_free(&w);
}
