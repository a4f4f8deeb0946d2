/* The project from the current directory: a session started in $HOME, above
 * it, or in a system directory (a terminal opened there, tmux's
 * default-command in a pane opened there) gets no writable project, says so
 * in one line, and still runs; --project names one explicitly. Judged from
 * outside: which marker files exist afterwards, and what the command
 * printed (it ran). As root and as the ordinary test user. */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "both.h"
#include "helpers.h"

/* Writes ./marker (failing silently where it may not), then says it ran. */
#define WRITE_AND_SAY "{ echo x > marker; } 2>/dev/null; echo ran-$((2+3))"
/* The same, in the directory d: a writable home, or a project above it,
 * takes no new name at its top (or on the way down to the home). */
#define WRITE_IN_D_AND_SAY "{ echo x > d/marker; } 2>/dev/null; echo ran-$((2+3))"

/* DIR/NAME exists (a link too); its content (NULL where missing). */
static bool present(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	struct stat st;
	bool r = lstat(p, &st) == 0;
	free(p);
	return r;
}

static char *content(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	char *s = read_file(p);
	free(p);
	return s;
}

static char *no_project_line(const char *dir, const char *why)
{
	char *s;
	cr_assert(asprintf(&s,
			   "cordon: %s %s; the session has no writable project — start cordon in "
			   "a project directory or pass --project DIR\n",
			   dir, why) > 0);
	return s;
}

/* The world's home is its project directory: cordon runs there with no
 * --project, as a terminal opened in ~ would. */
BOTH_USERS(project, cwd_home_is_not_the_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cwdhome", "");
	free(write_file(w.proj, "d/keep", "x"));
	world_give(&w);
	char *kv;
	asprintf(&kv, "HOME=%s", w.proj);
	world_setenv(&w, kv);
	char *marker = path_join(w.proj, "d/marker");

	struct run_result r = sh_in(&w, NULL, WRITE_IN_D_AND_SAY);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "ran-5") != NULL, "the command did not run: %s", r.err);
	cr_expect_not(file_exists(marker), "the home was writable");
	char *want = no_project_line(w.proj, "is your home directory");
	cr_expect_str_eq(r.err, want, "not the one line");
	run_free(&r);

	/* explain says the same. */
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, explain, w.proj);
	char *line;
	asprintf(&line, "project:        none (%s is your home directory", w.proj);
	cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
	run_free(&r);

	/* Control: named with --project, the home is the project, as before. */
	char *opt;
	asprintf(&opt, "--project %s", w.proj);
	r = sh_in(&w, opt, WRITE_IN_D_AND_SAY);
	cr_expect(strstr(r.out, "ran-5") != NULL, "%s", r.err);
	cr_expect(file_exists(marker), "--project $HOME: the marker was not written: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);
	free(opt);
	free(line);
	free(want);
	free(marker);
	free(kv);
	world_free(&w);
}

/* A dotfiles repository: the home's ~/.bashrc links into the directory
 * cordon starts in. What is written there runs outside at the next login,
 * so it is not taken for the project (one line, the command still runs);
 * --project names it on purpose (round 9 of the review). Judged from
 * outside: the marker and the linked bashrc. Control: --project writes. */
BOTH_USERS(project, cwd_dotfiles_repository_is_not_the_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cwddots", "");
	char *rc = write_file(w.proj, "bashrc", "# bashrc\n");
	char *link = path_join(w.home, ".bashrc");
	cr_assert_eq(symlink(rc, link), 0);
	world_give(&w);
	if (who->user)
		cr_assert_eq(lchown(link, w.uid, w.gid), 0);
	char *marker = path_join(w.proj, "marker");
	struct run_result r = sh_in(&w, NULL, WRITE_AND_SAY "; echo evil >> bashrc");
	cr_expect(strstr(r.out, "ran-5"), "the command did not run: %s", r.err);
	cr_expect_not(file_exists(marker), "the dotfiles repository was writable");
	char *want = no_project_line(w.proj, "is where your dotfiles come from (~/.bashrc links "
					     "into it): what is written there runs outside");
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	char *now = read_file(rc);
	cr_expect_str_eq(now, "# bashrc\n", "the linked bashrc was written");
	free(now);
	run_free(&r);
	/* Control: named with --project, it is the project (its linked bashrc
	 * still kept). */
	r = sh_in(&w, w.popt, WRITE_AND_SAY);
	cr_expect(file_exists(marker), "--project: the marker was not written: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);
	free(want);
	free(marker);
	free(link);
	free(rc);
	world_free(&w);
}

/* Round 10: a terminal opened in ~/.config/fish, or in a subdirectory of
 * the dotfiles repository ~/.bashrc links into, took it for a writable
 * project (fish's config and what bashrc sources through a variable
 * were written); a ~/.cache linked into a project (a CI layout) made
 * that project lose its writability. Judged by the marker each writes.
 * Control: a plain project directory writes. */
BOTH_USERS(project, cwd_in_config_or_a_dotfiles_subdirectory_is_not_the_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cwdcfg", "");
	char *fish = path_join(w.home, ".config/fish");
	free(write_file(fish, "config.fish", "# fish\n"));
	char *rc = write_file(w.proj, "dots/bashrc", "# bashrc\n");
	free(write_file(w.proj, "dots/bash/aliases.sh", "# aliases\n"));
	char *link = path_join(w.home, ".bashrc");
	cr_assert_eq(symlink(rc, link), 0);
	char *cache = path_join(w.proj, "ci/.cache");
	free(write_file(w.proj, "ci/keep", "x"));
	free(write_file(w.proj, "plain/keep", "x"));
	cr_assert_eq(mkdir(cache, 0755), 0);
	char *cache_link = path_join(w.home, ".cache");
	cr_assert_eq(symlink(cache, cache_link), 0);
	/* (Round 11: a subdirectory of a linked config directory, and the
	 * directory of a file ~/.local/bin links to.) */
	free(write_file(w.proj, "nvim/lua/plugins.lua", "-- plugins\n"));
	char *nvim = path_join(w.proj, "nvim"), *nvim_link = path_join(w.home, ".config/nvim");
	cr_assert_eq(symlink(nvim, nvim_link), 0);
	char *tool = write_file(w.proj, "tools/bin/foo", "#!/bin/sh\n");
	char *bin_link = path_join(w.home, ".local/bin/foo");
	free(write_file(w.home, ".local/bin/keep", ""));
	cr_assert_eq(symlink(tool, bin_link), 0);
	world_give(&w);
	if (who->user) {
		cr_assert_eq(lchown(link, w.uid, w.gid), 0);
		cr_assert_eq(lchown(cache_link, w.uid, w.gid), 0);
		cr_assert_eq(lchown(nvim_link, w.uid, w.gid), 0);
		cr_assert_eq(lchown(bin_link, w.uid, w.gid), 0);
	}
	/* (Round 13: ~/.local/bin, on PATH, was a project nothing could be
	 * written in, unsaid.) */
	static const char *const refused[] = {"fish", "dots/bash", "nvim/lua", "~/.local/bin"};
	char *dirs[] = {fish, path_join(w.proj, "dots/bash"), path_join(w.proj, "nvim/lua"),
			path_join(w.home, ".local/bin"), path_join(w.proj, "tools/bin")};
	for (size_t i = 0; i < 4; i++) {
		struct run_result r = sh_in_dir(&w, dirs[i], WRITE_AND_SAY);
		char *marker = path_join(dirs[i], "marker");
		cr_expect(strstr(r.out, "ran-5"), "%s: the command did not run: %s", refused[i],
			  r.err);
		cr_expect_not(file_exists(marker), "%s was a writable project: %s", refused[i],
			      r.err);
		cr_expect(strstr(r.err, "no writable project"), "%s: not said: %s", refused[i],
			  r.err);
		run_free(&r);
		free(marker);
	}
	/* A data link into a project refuses nothing: it writes. Nor does a
	 * ~/.local/bin link to a project's own script (round 12). */
	char *ci = path_join(w.proj, "ci");
	struct run_result r = sh_in_dir(&w, ci, WRITE_AND_SAY);
	char *marker = path_join(ci, "marker");
	cr_expect(file_exists(marker), "a ~/.cache link refused its project: %s", r.err);
	run_free(&r);
	free(marker);
	r = sh_in_dir(&w, dirs[4], WRITE_AND_SAY);
	marker = path_join(dirs[4], "marker");
	cr_expect(file_exists(marker), "a ~/.local/bin link refused its project: %s", r.err);
	run_free(&r);
	free(marker);
	/* Control: a plain project directory. */
	char *plain = path_join(w.proj, "plain");
	r = sh_in_dir(&w, plain, WRITE_AND_SAY);
	marker = path_join(plain, "marker");
	cr_expect(file_exists(marker), "control: a plain directory did not write: %s", r.err);
	run_free(&r);
	free(marker);
	free(plain);
	free(ci);
	free(dirs[1]);
	free(dirs[2]);
	free(dirs[3]);
	free(dirs[4]);
	free(nvim);
	free(nvim_link);
	free(tool);
	free(bin_link);
	free(cache_link);
	free(cache);
	free(link);
	free(rc);
	free(fish);
	world_free(&w);
}

/* A directory above $HOME: the project directory holds the home. */
BOTH_USERS(project, cwd_above_home_is_not_the_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cwdabove", "");
	char *home = path_join(w.proj, "me");
	cr_assert_eq(mkdir(home, 0755), 0);
	if (who->user)
		cr_assert_eq(chown(home, w.uid, w.gid), 0);
	char *kv;
	asprintf(&kv, "HOME=%s", home);
	world_setenv(&w, kv);
	free(write_file(w.proj, "d/keep", "x"));
	world_give(&w);
	char *marker = path_join(w.proj, "d/marker");
	char *in_home = path_join(home, "marker2");

	struct run_result r =
		sh_in(&w, NULL, WRITE_IN_D_AND_SAY "; { echo x > me/marker2; } 2>/dev/null");
	cr_expect(strstr(r.out, "ran-5") != NULL, "the command did not run: %s", r.err);
	cr_expect_not(file_exists(marker), "the directory above the home was writable");
	cr_expect_not(file_exists(in_home), "the home was writable");
	char *want = no_project_line(w.proj, "contains your home directory");
	cr_expect_str_eq(r.err, want);
	run_free(&r);

	char *opt;
	asprintf(&opt, "--project %s", w.proj);
	r = sh_in(&w, opt, WRITE_IN_D_AND_SAY);
	cr_expect(file_exists(marker), "--project: the marker was not written: %s", r.err);
	run_free(&r);
	/* The home beneath the project is closed (no new name at its top),
	 * and its directories take new files. */
	free(write_file(home, "work/keep", "x"));
	world_give(&w);
	char *in_work = path_join(home, "work/marker3"), *at_top = path_join(home, "marker4");
	r = sh_in(&w, opt, "echo x > me/work/marker3; echo x > me/marker4; true");
	cr_expect(file_exists(in_work), "a directory of the home took no file: %s", r.err);
	cr_expect_not(file_exists(at_top), "a new name was made at the home's top: %s", r.err);
	run_free(&r);
	free(in_work);
	free(at_top);
	free(opt);
	free(want);
	free(in_home);
	free(marker);
	free(home);
	free(kv);
	world_free(&w);
}

/* Started in /: it used to be refused (exit 125); now the command runs
 * without a project. Named with --project, / is still refused. */
BOTH_USERS(project, cwd_root_runs_without_a_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cwdroot", "");
	char *argv[] = {CORDON_BIN, "run",     "--config", w.cfg,
			"--",       "/bin/sh", "-c",       "echo ran-$((1+1)) $(pwd)",
			NULL};
	struct run_result r = world_run(&w, argv, "/");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "ran-2 /") != NULL, "%s", r.err);
	char *want = no_project_line("/", "is a system directory");
	cr_expect_str_eq(r.err, want);
	run_free(&r);
	char *named[] = {CORDON_BIN, "run", "--config",          w.cfg, "--project", "/", "--",
			 "/bin/sh",  "-c",  "echo ran-$((1+1))", NULL};
	r = world_run(&w, named, "/");
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect_null(strstr(r.out, "ran-2"));
	cr_expect(strstr(r.err, "project directory is /") != NULL, "%s", r.err);
	run_free(&r);
	free(want);
	world_free(&w);
}

/* A root terminal opened below /run (/run/systemd, /run/udev: the unit
 * and rules directories systemd and udev load, every user's runtime
 * directory) took it for a writable project (round 50c F3). Now it gets
 * none, says so in one line, and a write there fails: judged outside, no
 * marker. Controls: named with --project, the same directory is written;
 * a directory of the same name outside /run is a project from the cwd. */
Test(project, cwd_below_run_is_not_the_project, .timeout = 60)
{
	struct world w;
	world_init(&w, "cwdrun", "");
	char top[] = "/run/cordon-test-cwdrun-XXXXXX";
	cr_assert_not_null(mkdtemp(top), "mkdtemp below /run: %s", strerror(errno));
	char *dir = path_join(top, "systemd"), *marker = path_join(dir, "marker");
	cr_assert_eq(mkdir(dir, 0755), 0);

	struct run_result r = sh_in_dir(&w, dir, WRITE_AND_SAY);
	cr_expect(strstr(r.out, "ran-5"), "the command did not run: %s", r.err);
	cr_expect_not(file_exists(marker), "a directory below /run was a writable project: %s",
		      r.err);
	char *want = no_project_line(dir, "is a system directory");
	cr_expect_str_eq(r.err, want, "not the one line");
	run_free(&r);

	/* Control: named with --project, it is the project. */
	char *named[] = {CORDON_BIN, "run",     "--config", w.cfg,         "--project", dir,
			 "--",       "/bin/sh", "-c",       WRITE_AND_SAY, NULL};
	r = world_run(&w, named, dir);
	cr_expect(strstr(r.out, "ran-5"), "%s", r.err);
	cr_expect(file_exists(marker), "control: --project did not write: %s", r.err);
	run_free(&r);
	/* Control: the same name outside /run is a project from the cwd. */
	char *plain = path_join(w.dir, "systemd"), *plain_marker = path_join(plain, "marker");
	cr_assert_eq(mkdir(plain, 0755), 0);
	r = sh_in_dir(&w, plain, WRITE_AND_SAY);
	cr_expect(file_exists(plain_marker), "control: a plain directory did not write: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);

	unlink(marker);
	sweep_forget(dir);
	sweep_forget(plain);
	cr_expect(rmdir(dir) == 0 && rmdir(top) == 0, "%s not removed: %s", top, strerror(errno));
	free(plain_marker), free(plain), free(want), free(marker), free(dir);
	world_free(&w);
}

/* A terminal opened in ~ (the login shell, no command): it says why once,
 * and the shell works; only the home is not writable. */
BOTH_USERS(project, terminal_in_home_stays_usable, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "termhome", "");
	char *kv;
	asprintf(&kv, "HOME=%s", w.proj);
	world_setenv(&w, kv);
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char buf[16384] = "";
	cr_assert(pty_read_until(master, "the session has no writable project", 5000, buf,
				 sizeof(buf), false),
		  "%s", buf);
	const char *cmd = "touch pmarker 2>/dev/null || echo denied-$((3+4)); "
			  "echo alive-$((6*7))\n";
	cr_assert_eq(write(master, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	cr_expect(pty_read_until(master, "alive-42", 5000, buf, sizeof(buf), false), "%s", buf);
	cr_expect(strstr(buf, "denied-7") != NULL, "%s", buf);
	cr_assert_eq(write(master, "exit\n", 5), 5);
	int st = 0;
	for (int i = 0; i < 500 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x: %s", st, buf);
	char *pmarker = path_join(w.proj, "pmarker");
	cr_expect_not(file_exists(pmarker));
	/* Said once. */
	char *first = strstr(buf, "no writable project");
	cr_expect(first && !strstr(first + 1, "no writable project"), "%s", buf);
	free(pmarker);
	close(master);
	free(name);
	free(kv);
	world_free(&w);
}

/* Standalone mode (LD_PRELOAD in a terminal profile, which usually starts
 * in ~): the cwd is the project, so the same rule holds. */
BOTH_USERS(project, standalone_mode_in_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "alonehome", "");
	char *kv;
	asprintf(&kv, "HOME=%s", w.proj);
	world_setenv(&w, kv);
	char *marker = path_join(w.proj, "marker");
	char *pre, *cfg;
	asprintf(&pre, "LD_PRELOAD=%s", CORDON_SHIM_SO);
	asprintf(&cfg, "CORDON_CONFIG=%s", w.cfg);
	char *argv[] = {"/usr/bin/env",
			pre,
			cfg,
			"/bin/sh",
			"-c",
			"echo sandbox=$CORDON_SANDBOX; " WRITE_AND_SAY,
			NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "sandbox=1") && strstr(r.out, "ran-5"), "%s %s", r.out, r.err);
	cr_expect_not(file_exists(marker), "the home was writable");
	char *want;
	asprintf(&want,
		 "cordon: %s is your home directory; the session has no writable project — start "
		 "the shell in a project directory\n",
		 w.proj);
	cr_expect_str_eq(r.err, want);
	run_free(&r);
	/* Control: in a directory below the home, that directory is the project. */
	char *sub = path_join(w.proj, "sub");
	cr_assert_eq(mkdir(sub, 0755), 0);
	if (who->user)
		cr_assert_eq(chown(sub, w.uid, w.gid), 0);
	char *submarker = path_join(sub, "marker");
	r = world_run(&w, argv, sub);
	cr_expect(strstr(r.out, "ran-5"), "%s", r.err);
	cr_expect(file_exists(submarker), "%s", r.err);
	cr_expect_str_eq(r.err, "");
	run_free(&r);
	free(submarker);
	free(sub);
	free(want);
	free(pre);
	free(cfg);
	free(marker);
	free(kv);
	world_free(&w);
}

/* Round 51b F1: a terminal opened in what a writable home keeps read-only
 * outside ~/.config (agents' and editors' settings: ~/.claude, its hooks,
 * ~/.vscode and an extension in it, ~/.cursor, ~/.vscode-server) was the
 * writable project: the agent's SessionStart hook and the extension's code
 * were written, and run outside. Nor is a directory of the home that
 * holds what it keeps (~/.local, ~/.cargo): what lies there beside the
 * kept names is the tools' too. Judged from outside: the files, and the
 * one line. Controls: an ordinary directory of the home is the project
 * from the cwd, and --project names one on purpose. */
BOTH_USERS(project, cwd_in_or_holding_what_a_writable_home_keeps_is_not_the_project, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "cwdkept", "");
	free(write_file(w.home, ".claude/settings.json", "{}\n"));
	free(write_file(w.home, ".claude/hooks/keep", "x"));
	free(write_file(w.home, ".vscode/extensions/me.ext/out/extension.js", "// ext\n"));
	free(write_file(w.home, ".cursor/mcp.json", "{}\n"));
	free(write_file(w.home, ".vscode-server/data/keep", "x"));
	free(write_file(w.home, ".local/share/jupyter/kernels/python3/kernel.json", "{}\n"));
	free(write_file(w.home, ".cargo/registry/src/keep", "x"));
	free(write_file(w.home, "src/app/keep", "x"));
	world_give(&w);
	static const char *const cwds[] = {
		".claude", ".claude/hooks",  ".vscode", ".vscode/extensions/me.ext",
		".cursor", ".vscode-server", ".local",  ".cargo"};
	char *plant =
		fmt("{ echo x > marker; echo '{\"hooks\":{}}' > %s/.claude/settings.json; "
		    "echo evil >> %s/.vscode/extensions/me.ext/out/extension.js; "
		    "echo evil > %s/.local/share/jupyter/kernels/python3/kernel.json; "
		    "echo evil > %s/.cargo/registry/src/lib.rs; } 2>/dev/null; echo ran-$((2+3))",
		    w.home, w.home, w.home, w.home);
	for (size_t i = 0; i < sizeof(cwds) / sizeof(*cwds); i++) {
		char *dir = path_join(w.home, cwds[i]), *marker = path_join(dir, "marker");
		struct run_result r = sh_in_dir(&w, dir, plant);
		cr_expect(strstr(r.out, "ran-5"), "~/%s: the command did not run: %s", cwds[i],
			  r.err);
		cr_expect_not(file_exists(marker), "~/%s was a writable project: %s", cwds[i],
			      r.err);
		cr_expect(strstr(r.err, "no writable project"), "~/%s: not said: %s", cwds[i],
			  r.err);
		run_free(&r);
		char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
		r = world_run(&w, explain, dir);
		char *line = fmt("project:        none (%s ", dir);
		cr_expect(strstr(r.out, line), "~/%s: explain: %s%s", cwds[i], r.out, r.err);
		run_free(&r);
		free(line);
		free(marker);
		free(dir);
	}
	char *settings = content(w.home, ".claude/settings.json"),
	     *ext = content(w.home, ".vscode/extensions/me.ext/out/extension.js"),
	     *kernel = content(w.home, ".local/share/jupyter/kernels/python3/kernel.json");
	cr_expect_str_eq(settings, "{}\n", "~/.claude/settings.json was written");
	cr_expect_str_eq(ext, "// ext\n", "the extension's code was written");
	cr_expect_str_eq(kernel, "{}\n", "the kernelspec was written");
	cr_expect_not(present(w.home, ".cargo/registry/src/lib.rs"),
		      "~/.cargo/registry was written");
	/* The one line says why. */
	char *claude = path_join(w.home, ".claude");
	struct run_result r = sh_in_dir(&w, claude, "true");
	char *want = no_project_line(claude, "is in ~/.claude, which holds what runs outside");
	cr_expect_str_eq(r.err, want, "not the one line");
	run_free(&r);
	char *local = path_join(w.home, ".local");
	r = sh_in_dir(&w, local, "true");
	cr_expect(strstr(r.err, " holds ~/.local/"), "not said what it holds: %s", r.err);
	run_free(&r);

	/* Control: an ordinary directory of the home is the project. */
	char *app = path_join(w.home, "src/app"), *app_marker = path_join(app, "marker");
	r = sh_in_dir(&w, app, WRITE_AND_SAY);
	cr_expect(file_exists(app_marker), "control: ~/src/app did not write: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);
	/* Control: named with --project, ~/.claude is the project. */
	char *claude_marker = path_join(claude, "marker");
	char *opt = fmt("--project %s", claude);
	r = sh_in(&w, opt, WRITE_AND_SAY);
	cr_expect(file_exists(claude_marker), "control: --project ~/.claude did not write: %s",
		  r.err);
	run_free(&r);
	sweep_forget_beneath(w.home);
	free(opt), free(claude_marker), free(app_marker), free(app), free(local), free(want);
	free(claude), free(settings), free(ext), free(kernel), free(plant);
	world_free(&w);
}

/* Round 51b F3: Jupyter's kernelspecs (a user kernel named python3
 * replaces the system's; the next notebook starts its argv), its notebook
 * and lab extensions, and the user site's etc/jupyter were writable in a
 * writable home. Kept read-only now. Its runtime directory is hidden
 * (round 60h H2: a server's token there let a session drive the server
 * outside): a Jupyter inside keeps its connection files where
 * JUPYTER_RUNTIME_DIR names, a directory of the session's own. Control:
 * outside, each write lands. */
BOTH_USERS(project, jupyter_s_kernels_stay_read_only_in_a_writable_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "jupyter", "");
	/* (/tmp shared, as by default: the session's own directory there.) */
	free(write_file(w.proj, "cordon.json", "{" WORLD_BASE_RW_WITH(", \"/tmp\"") "}"));
	free(write_file(w.home, ".local/share/jupyter/kernels/python3/kernel.json", "{}\n"));
	free(write_file(w.home, ".local/share/jupyter/nbextensions/keep", "x"));
	free(write_file(w.home, ".local/share/jupyter/labextensions/keep", "x"));
	free(write_file(w.home, ".local/share/jupyter/runtime/keep", "x"));
	free(write_file(w.home, ".local/etc/jupyter/keep", "x"));
	world_give(&w);
	static const char plant[] =
		"cd ~/.local || exit 1\n"
		"echo '{\"argv\":[\"touch\",\"/x\"]}' > share/jupyter/kernels/python3/kernel.json; "
		"echo kernel $?\n"
		"mkdir share/jupyter/kernels/k2; echo newkernel $?\n"
		"echo evil > share/jupyter/nbextensions/x.js; echo nbext $?\n"
		"echo evil > share/jupyter/labextensions/x.js; echo labext $?\n"
		"echo evil > etc/jupyter/jupyter_server_config.py; echo etc $?\n"
		"echo '{}' > share/jupyter/runtime/kernel-1.json; echo runtime $?\n"
		"mkdir -p \"$JUPYTER_RUNTIME_DIR\" && echo '{}' > \"$JUPYTER_RUNTIME_DIR/k.json\" && "
		"rm -r \"$JUPYTER_RUNTIME_DIR\"; echo own-runtime $?\n";
	char *opt = fmt("--project %s", w.home);
	struct run_result r = sh_in(&w, opt, "%s", plant);
	char *diag = fmt("(%d): %s%s", r.status, r.out, r.err);
	char *kernel = content(w.home, ".local/share/jupyter/kernels/python3/kernel.json");
	cr_expect_str_eq(kernel, "{}\n", "the kernelspec was written %s", diag);
	cr_expect_not(present(w.home, ".local/share/jupyter/kernels/k2"), "a kernel was made %s",
		      diag);
	cr_expect_not(present(w.home, ".local/share/jupyter/nbextensions/x.js"),
		      "an nbextension was made %s", diag);
	cr_expect_not(present(w.home, ".local/share/jupyter/labextensions/x.js"),
		      "a labextension was made %s", diag);
	cr_expect_not(present(w.home, ".local/etc/jupyter/jupyter_server_config.py"),
		      "jupyter's config was made %s", diag);
	cr_expect_not(present(w.home, ".local/share/jupyter/runtime/kernel-1.json"),
		      "the runtime directory was written %s", diag);
	cr_expect(strstr(r.out, "own-runtime 0"), "Jupyter's own runtime directory %s", diag);
	run_free(&r);
	/* Control: outside, each lands (what the session made, if it did,
	 * removed first). */
	char *again = fmt("rm -rf ~/.local/share/jupyter/kernels/k2; %s", plant);
	r = sh_outside(&w, again);
	free(again);
	for (const char *s = "kernel 0\nnewkernel 0\nnbext 0\nlabext 0\netc 0\n"; *s;) {
		const char *nl = strchr(s, '\n');
		char *step = strndup(s, (size_t)(nl - s + 1));
		cr_expect(strstr(r.out, step), "control: outside, not %s: %s%s", step, r.out,
			  r.err);
		free(step);
		s = nl + 1;
	}
	run_free(&r);
	free(kernel), free(diag), free(opt);
	world_free(&w);
}

/* SCRIPT (no single quote in it) in a session started in DIR, with HOME
 * the world's home, in a private mount namespace where the passwd entry
 * of W's user names REAL as its home (a bind over /etc/passwd there only;
 * the machine's is never changed). OPTS: more options of cordon run. */
static struct run_result in_passwd_home(struct world *w, const char *real, const char *dir,
					const char *opts, const char *script)
{
	const char *name = w->as_user ? "cordon-test" : "root";
	char *passwd = path_join(w->dir, "passwd");
	char *make = fmt("awk -F: -v OFS=: -v u=%s -v h=%s '$1==u{$6=h}1' /etc/passwd > %s && "
			 "chmod 644 %s",
			 name, real, passwd, passwd);
	cr_assert_eq(system(make), 0, "%s", make);
	char *drop = w->as_user ? fmt("/usr/bin/setpriv --reuid=%u --regid=%u --clear-groups --",
				      (unsigned)w->uid, (unsigned)w->gid)
				: strdup("");
	char *inner =
		fmt("mount --bind %s /etc/passwd && exec %s %s run --config %s %s -- "
		    "/bin/sh -c '%s'",
		    passwd, drop, w->as_user ? w->user_cordon : CORDON_BIN, w->cfg, opts, script);
	char *argv[] = {"/usr/bin/unshare", "-m", "--propagation", "private",
			"/bin/sh",          "-c", inner,           NULL};
	struct run_result r = run_cmd(argv, w->env, dir, 20000);
	free(inner), free(drop), free(make), free(passwd);
	return r;
}

/* Round 51b F2: with HOME naming another directory than the account's
 * passwd home (sudo -E, a harness's or CI's HOME), a terminal opened in
 * the passwd home's .config took it for the writable project, and a
 * session wrote {"enabled": false} into its cordon/config.json: the next
 * ordinary launch ran unsandboxed. The passwd home's kept paths were not
 * kept with --project naming it either. Judged from outside: the config
 * file, and the one line. Controls: a directory of the passwd home is the
 * project from the cwd (it writes); with --project naming the passwd
 * home, its other files are written. */
BOTH_USERS(project, the_passwd_home_s_config_is_not_the_project_with_another_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "pwcfg", "");
	char *real = path_join(w.dir, "realhome");
	char *config = write_file(real, ".config/cordon/config.json", "{}\n");
	free(write_file(real, "src/app/keep", "x"));
	world_give(&w);
	chmod(real, 0755);
	static const char plant[] = "{ echo x > marker; echo \"{\\\"enabled\\\": false}\" > "
				    "%s/.config/cordon/config.json; } 2>/dev/null; "
				    "echo ran-$((2+3))";
	char *script = fmt(plant, real);
	char *cfgdir = path_join(real, ".config"), *cfg_marker = path_join(cfgdir, "marker");
	struct run_result r = in_passwd_home(&w, real, cfgdir, "", script);
	cr_expect(strstr(r.out, "ran-5"), "the command did not run: %s%s", r.out, r.err);
	cr_expect_not(file_exists(cfg_marker), "the passwd home's .config was the project: %s",
		      r.err);
	char *now = read_file(config);
	cr_expect_str_eq(now, "{}\n", "cordon's config in the passwd home was written: %s", r.err);
	free(now);
	cr_expect(strstr(r.err, "no writable project"), "not said: %s", r.err);
	run_free(&r);

	/* Named with --project, the passwd home keeps its ~/.config; its
	 * other files are the project's. */
	char *opt = fmt("--project %s", real);
	char *home_marker = path_join(real, "marker");
	char *in_home = fmt(plant, real);
	r = in_passwd_home(&w, real, real, opt, in_home);
	cr_expect(file_exists(home_marker), "control: --project did not write: %s%s", r.out, r.err);
	now = read_file(config);
	cr_expect_str_eq(now, "{}\n",
			 "--project: cordon's config in the passwd home was written: %s", r.err);
	free(now);
	run_free(&r);

	/* Control: a directory of the passwd home is the project. */
	char *app = path_join(real, "src/app"), *app_marker = path_join(app, "marker");
	r = in_passwd_home(&w, real, app, "", script);
	cr_expect(file_exists(app_marker),
		  "control: a directory of the passwd home did not write: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);
	sweep_forget(app);
	sweep_forget(real);
	free(app), free(app_marker), free(in_home), free(home_marker), free(opt);
	free(cfg_marker), free(cfgdir), free(script), free(config), free(real);
	world_free(&w);
}

/* Round 51d F1: the user's config lives in ~/cfg (XDG_CONFIG_HOME=~/cfg in
 * their profile), and one launch starts without that variable (an IDE's
 * task, cron) in ~/cfg: it took it for the writable project, and the
 * session wrote git's config there (core.fsmonitor, run by git outside)
 * and cordon's own ({"enabled": false}: the next launch ran unsandboxed).
 * A directory below the home that holds cordon/config.json, or two of what
 * a config directory holds (git/config, fish/config.fish, ...), is no
 * project from the cwd, nor is one in it; in a project named with
 * --project (at its top or one below), its cordon/, git/ and fish/ stay
 * read-only. Judged from outside: the files,
 * explain's project line and the one line. Controls: --project writes its
 * other files; a repository with a git/config of its own (one name alone)
 * is the project, and writes it. */
BOTH_USERS(project, a_config_directory_by_another_name_is_not_the_project, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "xdgsplit", "");
	free(write_file(w.home, "cfg/cordon/config.json", "{}\n"));
	free(write_file(w.home, "cfg/git/config", "\n"));
	free(write_file(w.home, "cfg2/git/config", "\n"));
	free(write_file(w.home, "cfg2/fish/config.fish", "\n"));
	free(write_file(w.home, "src/tool/git/config", "\n"));
	world_give(&w);
	static const char *const cwds[] = {"cfg", "cfg/git", "cfg2", "cfg2/fish"};
	char *plant = fmt("{ echo x > marker; "
			  "printf '[core]\\n\\tfsmonitor = touch /x\\n' > %s/cfg/git/config; "
			  "echo '{\"enabled\": false}' > %s/cfg/cordon/config.json; "
			  "printf '[core]\\n\\tfsmonitor = touch /x\\n' > %s/cfg2/git/config; "
			  "echo evil > %s/cfg2/fish/config.fish; } 2>/dev/null; "
			  "echo ran-$((2+3))",
			  w.home, w.home, w.home, w.home);
	for (size_t i = 0; i < sizeof(cwds) / sizeof(*cwds); i++) {
		char *dir = path_join(w.home, cwds[i]), *marker = path_join(dir, "marker");
		struct run_result r = sh_in_dir(&w, dir, plant);
		cr_expect(strstr(r.out, "ran-5"), "~/%s: the command did not run: %s", cwds[i],
			  r.err);
		cr_expect_not(file_exists(marker), "~/%s was a writable project: %s", cwds[i],
			      r.err);
		cr_expect(strstr(r.err, "no writable project"), "~/%s: not said: %s", cwds[i],
			  r.err);
		run_free(&r);
		char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
		r = world_run(&w, explain, dir);
		char *line = fmt("project:        none (%s ", dir);
		cr_expect(strstr(r.out, line), "~/%s: explain: %s%s", cwds[i], r.out, r.err);
		run_free(&r);
		free(line), free(marker), free(dir);
	}
	static const struct {
		const char *path, *was;
	} kept[] = {{"cfg/cordon/config.json", "{}\n"},
		    {"cfg/git/config", "\n"},
		    {"cfg2/git/config", "\n"},
		    {"cfg2/fish/config.fish", "\n"}};
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++) {
		char *now = content(w.home, kept[i].path);
		cr_expect_str_eq(now, kept[i].was, "~/%s was written", kept[i].path);
		free(now);
	}
	/* The one line says why. */
	char *cfg = path_join(w.home, "cfg");
	struct run_result r = sh_in_dir(&w, cfg, "true");
	cr_expect(strstr(r.err, "cordon/config.json"), "not said what it holds: %s", r.err);
	run_free(&r);

	/* Named with --project, ~/cfg is the project: its other files are
	 * written, cordon's config and git's stay as they were. */
	char *opt = fmt("--project %s", cfg), *cfg_marker = path_join(cfg, "marker");
	r = sh_in(&w, opt, "%s", plant);
	cr_expect(file_exists(cfg_marker), "control: --project ~/cfg did not write: %s", r.err);
	for (size_t i = 0; i < 2; i++) {
		char *now = content(w.home, kept[i].path);
		cr_expect_str_eq(now, kept[i].was, "--project ~/cfg: ~/%s was written: %s",
				 kept[i].path, r.err);
		free(now);
	}
	run_free(&r);
	/* Named with --project ~, one level down: ~/cfg's and ~/cfg2's stay as
	 * they were, what lies beside them is written. */
	char *home_opt = fmt("--project %s", w.home);
	char *beside = fmt("%s; echo x > %s/src/beside", plant, w.home);
	r = sh_in(&w, home_opt, "%s", beside);
	cr_expect(present(w.home, "src/beside"), "control: --project ~ did not write: %s", r.err);
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++) {
		char *now = content(w.home, kept[i].path);
		cr_expect_str_eq(now, kept[i].was, "--project ~: ~/%s was written: %s",
				 kept[i].path, r.err);
		free(now);
	}
	run_free(&r);
	free(beside), free(home_opt);

	/* Control: a repository that holds git/config (one name alone) is the
	 * project, and writes it. */
	char *tool = path_join(w.home, "src/tool"), *tool_marker = path_join(tool, "marker");
	r = sh_in_dir(&w, tool, "echo x > marker; echo evil > git/config; echo ran-$((2+3))");
	cr_expect(file_exists(tool_marker), "control: ~/src/tool did not write: %s", r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	char *tool_cfg = content(tool, "git/config");
	cr_expect_str_eq(tool_cfg, "evil\n", "control: its git/config was not written: %s", r.err);
	run_free(&r);
	sweep_forget_beneath(w.home);
	free(opt), free(cfg_marker);
	free(tool_cfg), free(tool_marker), free(tool), free(cfg), free(plant);
	world_free(&w);
}

/* Round 51e F2: the user's XDG_CONFIG_HOME is ~/work/dotfiles/config (a
 * dotfiles repository's directory, used in place), and one launch starts
 * without the variable (an IDE's task, cron) in ~/work: the config
 * directory lay two levels below the project, where nothing the launch
 * could see told it for one, and the session wrote git's config there
 * (core.fsmonitor, run by git outside) and cordon's ({"enabled": false}).
 * A launch notes the XDG directories it had (cordon_sweep_note_xdg), and a
 * later one without them guards them as its own: ~/work is no project from
 * the cwd, and with --project its config files stay as they were. Judged
 * from outside: the files, and git status outside with the user's
 * variable. Controls: the same writes outside land and the fsmonitor runs;
 * --project writes the rest. */
BOTH_USERS(project, a_config_directory_an_earlier_launch_had_is_kept, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "xdgknown", "");
	char *work = path_join(w.home, "work"), *cfg = path_join(w.home, "work/dotfiles/config");
	char *repo = path_join(w.home, "repo");
	free(write_file(cfg, "cordon/config.json", "{}\n"));
	free(write_file(cfg, "git/config", "\n"));
	free(write_file(cfg, "fish/config.fish", "\n"));
	free(write_file(repo, "README", "r\n"));
	world_give(&w);
	char *xdg = fmt("XDG_CONFIG_HOME=%s", cfg);
	/* (Its state directory in the dotfiles too: round 52a F1, the test
	 * user, with no passwd home on disk, kept the note only there, where
	 * a launch without the variable did not look; F2, that launch wrote
	 * cordon's state there, which the launches with it use.) */
	char *state = path_join(w.home, "work/dotfiles/state");
	char *xdg_state = fmt("XDG_STATE_HOME=%s", state);
	char *ran = path_join(w.dir, "fsmonitor-ran");
	char *plant = fmt("{ echo x > marker; "
			  "printf '[core]\\n\\tfsmonitor = touch %s; false\\n' >> %s/git/config; "
			  "echo '{\"enabled\": false}' > %s/cordon/config.json; "
			  "echo x > %s/cordon/planted; } 2>/dev/null; "
			  "echo ran-$((2+3))",
			  ran, cfg, cfg, state);
	char *planted = path_join(state, "cordon/planted");
	char *status =
		fmt("cd %s && git init -q . && %s git status >/dev/null 2>&1; true", repo, xdg);

	world_xdg_notes_apart(&w, who);
	/* The user's own launch, with the variables. */
	world_setenv(&w, xdg);
	world_setenv(&w, xdg_state);
	struct run_result r = sh_in_dir(&w, repo, "true");
	cr_expect_eq(r.status, 0, "the launch with XDG_CONFIG_HOME failed: %s", r.err);
	run_free(&r);
	/* Another with them, the home its project: the notes below ~ that a
	 * launch without them reads stay as they are (round 52c F2: removed,
	 * the next launch without them knew nothing). */
	char *home_state = path_join(w.home, ".local/state/cordon");
	char *notes = path_join(home_state, "sessions/xdg-homes");
	char *wiped = path_join(home_state, "wiped");
	char *home_opt = fmt("--project %s", w.home);
	r = sh_in(&w, home_opt, "rm -f %s/sessions/*; echo x > %s; echo ran-$((2+3))", home_state,
		  wiped);
	cr_expect(strstr(r.out, "ran-5"), "--project ~: did not run: %s", r.err);
	run_free(&r);
	cr_expect_not(file_exists(wiped), "--project ~ wrote ~/.local/state/cordon");
	if (who->user)
		cr_expect(file_exists(notes), "--project ~ removed the notes below ~");
	/* One without them, in ~/work. */
	world_setenv(&w, "XDG_CONFIG_HOME=");
	world_setenv(&w, "XDG_STATE_HOME=");
	r = sh_in_dir(&w, work, plant);
	cr_expect(strstr(r.out, "ran-5"), "the command did not run: %s", r.err);
	cr_expect_not(present(work, "marker"), "~/work was a writable project: %s", r.err);
	cr_expect(strstr(r.err, "no writable project"), "not said: %s", r.err);
	run_free(&r);
	char *now = content(cfg, "cordon/config.json");
	cr_expect_str_eq(now, "{}\n", "cordon's config was written");
	free(now);
	now = content(cfg, "git/config");
	cr_expect_str_eq(now, "\n", "git's config was written");
	free(now);
	cr_expect_not(file_exists(planted), "cordon's state of the launches with it was written");
	r = sh_outside(&w, status);
	run_free(&r);
	cr_expect_not(file_exists(ran), "git outside ran the session's fsmonitor");

	/* Named with --project, ~/work is the project: the rest is written,
	 * the config directory's files stay as they were. */
	char *opt = fmt("--project %s", work);
	char *beside = fmt("%s; echo x > %s/marker", plant, work);
	r = sh_in(&w, opt, "%s", beside);
	cr_expect(present(work, "marker"), "control: --project did not write: %s", r.err);
	run_free(&r);
	now = content(cfg, "cordon/config.json");
	cr_expect_str_eq(now, "{}\n", "--project: cordon's config was written");
	free(now);
	now = content(cfg, "git/config");
	cr_expect_str_eq(now, "\n", "--project: git's config was written");
	free(now);
	cr_expect_not(file_exists(planted), "--project: cordon's state was written");

	/* Control: the same writes outside land, and git outside runs them. */
	r = sh_outside(&w, plant);
	run_free(&r);
	now = content(cfg, "cordon/config.json");
	cr_expect_str_neq(now, "{}\n", "control: the write outside did not land");
	free(now);
	r = sh_outside(&w, status);
	run_free(&r);
	cr_expect(file_exists(ran), "control: git outside ran no fsmonitor");
	cr_expect(file_exists(planted), "control: cordon's state was not written outside");
	sweep_forget_beneath(w.home);
	free(home_opt), free(wiped), free(notes), free(home_state);
	free(planted), free(xdg_state), free(state);
	free(beside), free(opt), free(status), free(plant), free(ran), free(xdg);
	free(repo), free(cfg), free(work);
	world_free(&w);
}

/* Round 51d F2: what ~/.bashrc runs at every start, as installers write it,
 * lay in directories of the home cordon did not keep: oh-my-bash's
 * (sourced through "$OSH", which cordon cannot follow), conda's base (its
 * hook runs Python: a .pth in its site-packages ran at the next bash
 * outside), fzf's, atuin's, ghcup's, opam's, elan's, and Zed's data
 * (extensions, language servers). Kept read-only in a writable home now,
 * and no project from the cwd. Judged from outside: the files. Controls:
 * the session wrote the home beside them; outside, each write lands. */
BOTH_USERS(project, shell_frameworks_and_conda_stay_read_only_in_a_writable_home, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "shelldirs", "");
	static const char *const files[] = {".oh-my-bash/lib/base.sh",
					    "miniconda3/bin/conda",
					    "miniconda3/lib/python3.11/site-packages/keep.py",
					    "miniconda3/etc/conda/activate.d/env.sh",
					    "miniforge3/bin/conda",
					    ".conda/envs/x/bin/python",
					    ".local/share/zed/extensions/work/x/ext.wasm",
					    ".fzf/shell/key-bindings.bash",
					    ".atuin/bin/env",
					    ".ghcup/env",
					    ".opam/opam-init/init.sh",
					    ".elan/env"};
	const size_t n = sizeof(files) / sizeof(*files);
	for (size_t i = 0; i < n; i++)
		free(write_file(w.home, files[i], "# code\n"));
	free(write_file(w.home, "src/keep", "x"));
	world_give(&w);
	char *plant = strdup("cd ~ || exit 1; echo x > src/marker; "
			     "echo 'import os' > miniconda3/lib/python3.11/site-packages/z.pth");
	for (size_t i = 0; i < n; i++) {
		char *more = fmt("%s; echo 'touch /x' >> %s", plant, files[i]);
		free(plant);
		plant = more;
	}
	char *script = fmt("{ %s; } 2>/dev/null; echo ran-$((2+3))", plant);
	char *opt = fmt("--project %s", w.home);
	struct run_result r = sh_in(&w, opt, "%s", script);
	char *diag = fmt("(%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "ran-5"), "the command did not run %s", diag);
	cr_expect(present(w.home, "src/marker"), "control: the home was not written %s", diag);
	for (size_t i = 0; i < n; i++) {
		char *now = content(w.home, files[i]);
		cr_expect_str_eq(now, "# code\n", "~/%s was written %s", files[i], diag);
		free(now);
	}
	cr_expect_not(present(w.home, "miniconda3/lib/python3.11/site-packages/z.pth"),
		      "a .pth was made in conda's site-packages %s", diag);
	run_free(&r);

	/* From the cwd, none is the project. */
	static const char *const cwds[] = {".oh-my-bash", "miniconda3", ".local/share/zed", ".fzf",
					   ".ghcup"};
	for (size_t i = 0; i < sizeof(cwds) / sizeof(*cwds); i++) {
		char *dir = path_join(w.home, cwds[i]);
		char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
		r = world_run(&w, explain, dir);
		char *line = fmt("project:        none (%s ", dir);
		cr_expect(strstr(r.out, line), "~/%s: explain: %s%s", cwds[i], r.out, r.err);
		run_free(&r);
		free(line), free(dir);
	}

	/* Control: outside, each write lands. */
	r = sh_outside(&w, plant);
	for (size_t i = 0; i < n; i++) {
		char *now = content(w.home, files[i]);
		cr_expect_str_eq(now, "# code\ntouch /x\n", "control: ~/%s not written: %s",
				 files[i], r.err);
		free(now);
	}
	cr_expect(present(w.home, "miniconda3/lib/python3.11/site-packages/z.pth"),
		  "control: no .pth made: %s", r.err);
	run_free(&r);
	sweep_forget_beneath(w.home);
	free(diag), free(opt), free(script), free(plant);
	world_free(&w);
}
