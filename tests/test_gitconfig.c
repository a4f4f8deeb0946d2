/* shim/gitconfig.c, git's config syntax: judged against git itself (git
 * config --list on the same file), and the readers built on it (includes,
 * core.hooksPath) on the forms round 50h named: a key on its header's
 * line, a value a backslash carries on, quotes mid-value. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/gitconfig.h"
#include "cordon/guard.h"
#include "cordon/strv.h"
#include "helpers.h"

struct listing {
	char *s;
	size_t n;
};

static void put(struct listing *l, const char *s, size_t n)
{
	l->s = realloc(l->s, l->n + n + 1);
	cr_assert_not_null(l->s);
	memcpy(l->s + l->n, s, n);
	l->n += n;
	l->s[l->n] = '\0';
}

/* Each entry as git config --list --null prints it: "name\nvalue\0", or
 * "name\0" for a key alone. */
static int list_entry(const struct cordon_gitcfg_entry *e, void *arg)
{
	struct listing *l = arg;
	if (e->section[0] || e->sub) {
		put(l, e->section, strlen(e->section));
		put(l, ".", 1);
		if (e->sub) {
			put(l, e->sub, strlen(e->sub));
			put(l, ".", 1);
		}
	}
	put(l, e->key, strlen(e->key));
	if (e->value) {
		put(l, "\n", 1);
		put(l, e->value, strlen(e->value));
	}
	put(l, "", 1);
	return 0;
}

/* git config --list --null of FILE into L; whether git read it whole. */
static bool git_lists(const char *file, struct listing *l)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		dup2(fds[1], 1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		close(fds[0]);
		setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
		setenv("HOME", "/nonexistent", 1);
		execlp("git", "git", "config", "-f", file, "--no-includes", "--list", "--null",
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char buf[4096];
	for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;)
		put(l, buf, (size_t)n);
	close(fds[0]);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) != 127, "git did not run");
	return WEXITSTATUS(status) == 0;
}

/* Tabs within a value as spaces: git 2.39 (Debian 12's) turns each blank
 * inside an unquoted value into a space, later ones keep it as written. */
static void tabs_as_spaces(struct listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i] == '\t')
			l->s[i] = ' ';
}

static const char *const pieces[] = {"[core]",
				     "[Core]",
				     "[remote \"Or\\\"ig\"]",
				     "[remote.ORIG]",
				     "[include]",
				     "[includeIf\t\"gitdir:/x\"]",
				     "[a \"b\" ]",
				     "[ x]",
				     "[]",
				     "[a b]",
				     "path",
				     "hooksPath",
				     "Key-1",
				     "k",
				     "=",
				     " = ",
				     "\t",
				     "  ",
				     " ",
				     "\"",
				     "\\",
				     "\\\n",
				     "\\\r\n",
				     "\\t",
				     "\\n",
				     "\\b",
				     "\\x",
				     "#",
				     "; c",
				     "\n",
				     "\r\n",
				     "\r",
				     "a",
				     "B",
				     "/x/y",
				     "..",
				     "~/",
				     "Z",
				     ".",
				     "[s.Sub]",
				     "\v",
				     "\f",
				     "\xef\xbb\xbf"};

/* The reader lists what git lists, and refuses what git refuses, on
 * hand-picked files and 400 made at random from the pieces git's parser
 * turns on (a fixed seed: the same files each run). */
Test(gitconfig, reads_what_git_reads, .timeout = 120)
{
	static const char *const picked[] = {
		"[include] path = ../.gitconfig-project\n",
		"[includeIf\t\"gitdir:/\"]\n\tpath = ../x\n",
		"[include]\n\tpath = ../.\"gitconfig\"-project\n",
		"[include]\n\tpath = ../.gitconfig\\\n-project\n",
		"[core]\r\n\thooksPath = \".git\\\\hooks\" # c\r\n",
		"[core]\n\thooksPath = a\\tb\\\"c\n",
		"[core] bare\n[core]fsmonitor=\"x\" ; y\n",
		"\xef\xbb\xbf[core]\n\tk = v\n",
		"[core]\n\tk = \"open\n",
		"[core]\n\tk = v\\q\n",
		"[a.B \"C\"]\n\tk = v\n",
		"k = v\n",
	};
	char *dir = tmp_dir("gitcfg");
	char *file = path_join(dir, "config");
	uint32_t seed = 51;
	for (int i = 0; i < (int)(sizeof(picked) / sizeof(picked[0])) + 400; i++) {
		char text[2048] = "";
		if (i < (int)(sizeof(picked) / sizeof(picked[0]))) {
			snprintf(text, sizeof(text), "%s", picked[i]);
		} else {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) & 1)
				strcat(text, "[sec]\n");
			for (int k = 1 + (int)((seed >> 8) % 25); k > 0; k--) {
				seed = seed * 1103515245u + 12345u;
				strcat(text,
				       pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))]);
			}
		}
		FILE *f = fopen(file, "w");
		cr_assert_not_null(f);
		fputs(text, f);
		cr_assert_eq(fclose(f), 0);
		struct listing git = {0}, ours = {0};
		put(&git, "", 0);
		put(&ours, "", 0);
		bool git_whole = git_lists(file, &git);
		int e = cordon_gitcfg_read(file, list_entry, &ours);
		tabs_as_spaces(&git);
		tabs_as_spaces(&ours);
		cr_expect(git_whole == (e == 0), "%d: git %s it, cordon %d: %s", i,
			  git_whole ? "read" : "refused", e, text);
		cr_expect(git.n == ours.n && memcmp(git.s, ours.s, git.n) == 0,
			  "%d: git and cordon differ on: %s", i, text);
		free(git.s);
		free(ours.s);
	}
	tmp_cleanup(dir);
	free(file);
	free(dir);
}

/* A path as git takes an include's or core.hooksPath's. */
Test(gitconfig, paths_as_git_takes_them)
{
	char out[256];
	cr_assert(cordon_gitcfg_path("~/x", "/h", "/b", out, sizeof(out)));
	cr_expect_str_eq(out, "/h/x");
	cr_assert(cordon_gitcfg_path("~", "/h", "/b", out, sizeof(out)));
	cr_expect_str_eq(out, "/h");
	cr_assert(cordon_gitcfg_path("~root/x", "/h", "/b", out, sizeof(out)));
	cr_expect_str_eq(out, "/root/x");
	cr_assert(cordon_gitcfg_path("rel/x", "/h", "/b", out, sizeof(out)));
	cr_expect_str_eq(out, "/b/rel/x");
	cr_assert(cordon_gitcfg_path("/abs", NULL, NULL, out, sizeof(out)));
	cr_expect_str_eq(out, "/abs");
	cr_expect_not(cordon_gitcfg_path("~no-such-user-cordon/x", "/h", "/b", out, sizeof(out)));
	cr_expect_not(cordon_gitcfg_path("~/x", NULL, "/b", out, sizeof(out)));
	cr_expect_not(cordon_gitcfg_path("%(prefix)/x", "/h", "/b", out, sizeof(out)));
	cr_expect_not(cordon_gitcfg_path("", "/h", "/b", out, sizeof(out)));
	cr_expect_not(cordon_gitcfg_path("rel", "/h", NULL, out, sizeof(out)));
	cr_expect_not(cordon_gitcfg_path("/long/enough", NULL, NULL, out, 5));
}

/* The files a config includes, in each form git reads (round 50h and
 * after: the include on its header's line, after a tab, quoted mid-way,
 * carried on by a backslash, with CRLF line ends, under another user's
 * home), and what they include; a line git refuses ends the reading. */
Test(gitconfig, includes_in_every_form_git_reads)
{
	char *dir = tmp_dir("gitinc");
	char *cfg = path_join(dir, "config");
	free(write_file(dir, "config",
			"[include] path = one\n"
			"[includeIf\t\"gitdir:/\"]\n\tpath = tw\"o\"\n"
			"[include]\r\n\tpath = thr\\\nee\r\n"
			"[INCLUDE]\n\tPath = ~root/four ; a comment\n"
			"[include \"x\"]\n\tpath = not-an-include\n"
			"[include]\n\tpath = \"fi\\\\ve\"\n"));
	free(write_file(dir, "one", "[include]\n\tpath = sub/six\n"));
	free(write_file(dir, "sub/six",
			"[include]\n\tpath = seven\n[bad\n[include]\n\tpath = no\n"));
	struct cordon_strv inc = {0};
	cr_assert_eq(cordon_git_includes(cfg, "/h", &inc), 0);
	char *want[] = {path_join(dir, "one"),       path_join(dir, "sub/six"),
			path_join(dir, "sub/seven"), path_join(dir, "two"),
			path_join(dir, "three"),     strdup("/root/four"),
			path_join(dir, "fi\\ve")};
	cr_expect_eq(inc.n, sizeof(want) / sizeof(want[0]), "%zu includes", inc.n);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cr_expect(cordon_strv_contains(&inc, want[i]), "%s not found", want[i]);
		free(want[i]);
	}
	cordon_strv_free(&inc);
	tmp_cleanup(dir);
	free(cfg);
	free(dir);
}

/* git reads $XDG_CONFIG_HOME/git/config (~/.config/git/config) before
 * ~/.gitconfig, and a known config directory's (an earlier launch's
 * XDG_CONFIG_HOME) in its place: the value git ends with, the last one,
 * is ~/.gitconfig's where both set one (the guards make the last one
 * when missing: they made the other, and the session planted in the one
 * git used). */
Test(gitconfig, the_home_s_gitconfig_is_read_last)
{
	char *dir = tmp_dir("githo");
	char *home = path_join(dir, "home"), *known = path_join(dir, "known");
	free(write_file(home, ".gitconfig", "[core]\n\thooksPath = .b\n"));
	free(write_file(home, ".config/git/config", "[core]\n\thooksPath = .a\n"));
	free(write_file(known, "git/config", "[core]\n\thooksPath = .k\n"));
	char *kv = NULL;
	cr_assert(asprintf(&kv, CORDON_GITCFG_KNOWN_HOME "=%s", known) > 0);
	struct cordon_strv env = {0}, values = {0}, none = {0};
	cr_assert_eq(cordon_strv_push_take(&env, kv), 0);
	unsetenv("XDG_CONFIG_HOME");
	cordon_gitcfg_env_from(&env);
	cr_assert_eq(cordon_git_hooks_values(home, &none, &values), 0);
	cordon_gitcfg_env_from(NULL);
	cr_assert_eq(values.n, 3, "%zu values", values.n);
	cr_expect_str_eq(values.v[0], ".k");
	cr_expect_str_eq(values.v[1], ".a");
	cr_expect_str_eq(values.v[2], ".b");
	cordon_strv_free(&values);
	cordon_strv_free(&env);
	tmp_cleanup(dir);
	free(known), free(home), free(dir);
}

/* core.hooksPath as git reads it, in the file GIT_CONFIG_GLOBAL names
 * too (a terminal that exports it: git outside reads that one), and in
 * GIT_CONFIG_COUNT's pairs. */
Test(gitconfig, hooks_paths_in_every_form_and_file)
{
	char *dir = tmp_dir("githp");
	char *home = path_join(dir, "home");
	free(write_file(home, ".gitconfig", "[core]\n\thooksPath = .git\\\nhooks1\n"));
	free(write_file(dir, "global", "[core] hooksPath = ~root/.\"hooks2\"\n"));
	char *global = path_join(dir, "global");
	setenv("GIT_CONFIG_GLOBAL", global, 1);
	setenv("GIT_CONFIG_COUNT", "2", 1);
	setenv("GIT_CONFIG_KEY_0", "user.name", 1);
	setenv("GIT_CONFIG_VALUE_0", "x", 1);
	setenv("GIT_CONFIG_KEY_1", "Core.HooksPath", 1);
	setenv("GIT_CONFIG_VALUE_1", ".envhooks", 1);
	/* (What git -c hands its children: both its forms.) */
	setenv("GIT_CONFIG_PARAMETERS",
	       "'core.hooksPath'='.p'\\''1' 'user.name=x'  'Core.HooksPath=.p2' 'a.b'=", 1);
	struct cordon_strv values = {0}, none = {0};
	cr_assert_eq(cordon_git_hooks_values(home, &none, &values), 0);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("GIT_CONFIG_COUNT");
	unsetenv("GIT_CONFIG_PARAMETERS");
	cr_expect(cordon_strv_contains(&values, ".p'1"),
		  "GIT_CONFIG_PARAMETERS' new form not read");
	cr_expect(cordon_strv_contains(&values, ".p2"), "GIT_CONFIG_PARAMETERS' old form not read");
	cr_expect(cordon_strv_contains(&values, ".envhooks"), "GIT_CONFIG_COUNT's pairs not read");
	cr_expect(cordon_strv_contains(&values, ".githooks1"), "the carried-on value not read");
	cr_expect(cordon_strv_contains(&values, "~root/.hooks2"),
		  "GIT_CONFIG_GLOBAL's file not read");
	struct cordon_strv paths = {0};
	cr_assert_eq(cordon_git_hooks_resolve(home, "/w", &values, &paths), 0);
	cr_expect(cordon_strv_contains(&paths, "/w/.githooks1"));
	cr_expect(cordon_strv_contains(&paths, "/root/.hooks2"));
	cordon_strv_free(&values);
	cordon_strv_free(&paths);
	tmp_cleanup(dir);
	free(global);
	free(home);
	free(dir);
}
