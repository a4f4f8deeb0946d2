/* Shell history kept per project (issue 21): interactive bash, zsh and fish
 * on a terminal, judged from outside — the history files on disk after the
 * sessions, the user's own history, and what the shells printed. As root
 * and as the ordinary test user. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <glob.h>
#include <poll.h>
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
 * or in PROJECT with --project): types each of CMDS, waits for MARK (what
 * the last prints), then exits. Returns all the terminal showed. */
static char *session(struct world *w, const char *project, const char *shell,
		     const char *const *cmds, const char *mark)
{
	char *argv[] = {CORDON_BIN,      "run", "--config",    w->cfg, project ? "--project" : "--",
			(char *)project, "--",  (char *)shell, "-i",   NULL};
	if (!project) { /* no --project: shift the command left */
		argv[4] = "--";
		argv[5] = (char *)shell;
		argv[6] = "-i";
		argv[7] = NULL;
	}
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
 * read, and the history is kept in the project's directory. */
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
	free(hist);
	char *dump = state_file(&w, "proj-*/zcompdump");
	free(dump);
	char *home_dump = path_join(w.home, ".zcompdump");
	cr_expect(!file_exists(home_dump), "compinit wrote into the home");
	free(home_dump);
	world_free(&w);
}

/* fish (its configuration made by a first run outside, as a fish user's
 * is) starts without "can not save history", and keeps it per project. */
BOTH_USERS(history, fish_kept_without_errors, .timeout = 120)
{
	if (access("/usr/bin/fish", X_OK) != 0)
		cr_skip_test("fish is not installed (scripts/setup installs it)");
	struct world w;
	world_for(&w, who, "hist-fish", "");
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
