/* A developer's first day (issue 21): what a new user runs into, judged from
 * outside — files the command wrote (or did not), what it printed of its
 * environment, cordon's one-line messages and exit statuses. As root and as
 * the ordinary test user where that could differ. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape/both.h"
#include "cordon/error.h"
#include "helpers.h"

/* The world, with DIR/rw (read-write by the config), DIR/ro (read-only,
 * holding a copy of /bin/true) and DIR/rw2 (for --allow-write), made before
 * the files become the test user's. RW_BY: the config key that makes rw
 * read-write, "system" for system_paths.read_write, or "" for none. */
static void rw_world(struct world *w, const struct who *who, const char *tag, const char *rw_by)
{
	world_init(w, tag, "");
	char *rw = path_join(w->dir, "rw"), *rw2 = path_join(w->dir, "rw2"),
	     *ro = path_join(w->dir, "ro");
	cr_assert(mkdir(rw, 0755) == 0 && mkdir(rw2, 0755) == 0 && mkdir(ro, 0755) == 0);
	char *t = path_join(ro, "t");
	copy_exec("/bin/true", t);
	char *json;
	if (strcmp(rw_by, "system") == 0)
		json = fmt("{\"system_paths\": {\"read_write\": [\"/dev/null\", \"%s\"]},"
			   " \"additional_read_only_paths\": [\"%s\"]}",
			   rw, ro);
	else if (*rw_by)
		json = fmt("{" WORLD_BASE_RW ", \"%s\": [\"%s\"], \"additional_read_only_paths\": "
			   "[\"%s\"]}",
			   rw_by, rw, ro);
	else
		json = fmt("{" WORLD_BASE_RW ", \"additional_read_only_paths\": [\"%s\"]}", ro);
	free(write_file(w->proj, "cordon.json", json));
	free(json);
	free(t);
	free(rw);
	free(rw2);
	free(ro);
	if (who->user)
		world_as_user(w);
}

/* What a compiler does in /tmp (`gcc -o /tmp/a.out x.c && /tmp/a.out`, `go
 * run`): write an executable into a read-write directory and run it. Every
 * way of granting read-write grants execute; a read-only directory still
 * does not (the control). */
BOTH_USERS(firstday, built_program_runs_from_a_read_write_dir, .timeout = 90)
{
	const char *ways[] = {"additional_read_write_paths", "system", "--allow-write"};
	for (size_t i = 0; i < 3; i++) {
		struct world w;
		bool cli = strcmp(ways[i], "--allow-write") == 0;
		rw_world(&w, who, "rwexec", cli ? "" : ways[i]);
		char *rw = path_join(w.dir, cli ? "rw2" : "rw");
		char *opt = cli ? fmt("--allow-write %s", rw) : NULL;
		struct run_result r =
			sh_in(&w, opt,
			      "cp /bin/true '%s/a.out' && '%s/a.out' && echo built > ran-rw;"
			      "'%s/ro/t' && echo ran > ran-ro; true",
			      rw, rw, w.dir);
		char *ran_rw = path_join(w.proj, "ran-rw"), *ran_ro = path_join(w.proj, "ran-ro");
		cr_expect(contains(ran_rw, "built"),
			  "%s: a program built in a read-write dir did not run: %s", ways[i],
			  r.err);
		cr_expect_not(file_exists(ran_ro), "%s: a read-only dir let a program execute",
			      ways[i]);
		cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
		run_free(&r);
		free(ran_rw);
		free(ran_ro);
		free(opt);
		free(rw);
		world_free(&w);
	}
}

/* /usr/local/{bin,sbin,lib} are in the default executable list: `make
 * install`, pip and npm put programs there. */
Test(firstday, usr_local_is_executable_by_default)
{
	struct world w;
	world_init(&w, "usrlocal", "");
	char *cfg = write_file(w.dir, "empty.json", "{}");
	struct run_result r =
		run_cordon(w.env, w.proj, "explain", "--config", cfg, "/usr/local/bin/x",
			   "/usr/local/sbin/x", "/usr/local/lib/x", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *dirs[] = {"bin", "sbin", "lib"};
	for (size_t i = 0; i < 3; i++) {
		char *want = fmt("/usr/local/%s/x\n  access: r-x", dirs[i]);
		cr_expect(strstr(r.out, want) != NULL, "%s\n%s", want, r.out);
		free(want);
	}
	run_free(&r);
	free(cfg);
	world_free(&w);
}

/* The environment a program prints: additional_env_vars adds a variable and
 * keeps PATH and HOME; TZ and LC_* pass by default; the proxies (which
 * often carry user:password) do not, and allowed_env_vars still replaces. */
BOTH_USERS(firstday, additional_env_vars_extend_the_defaults, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "addenv", ", \"additional_env_vars\": [\"SECRET_TOKEN\", \"MY_*\"]");
	world_setenv(&w, "TZ=Asia/Tokyo");
	world_setenv(&w, "LC_TIME=de_DE.UTF-8");
	world_setenv(&w, "MY_TOOL_HOME=/opt/my");
	world_setenv(&w, "NODE_EXTRA_CA_CERTS=/etc/corp-ca.pem");
	world_setenv(&w, "HTTPS_PROXY=http://user:pass@proxy:3128");
	char *out = path_join(w.proj, "env.txt");
	struct run_result r = sh_in(&w, NULL, "env > env.txt");
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *env = read_file(out);
	cr_assert_not_null(env);
	const char *want[] = {"SECRET_TOKEN=hunter2",
			      "MY_TOOL_HOME=/opt/my",
			      "\nPATH=",
			      "\nHOME=",
			      "TZ=Asia/Tokyo",
			      "LC_TIME=de_DE.UTF-8",
			      "NODE_EXTRA_CA_CERTS=/etc/corp-ca.pem"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(strstr(env, want[i]) != NULL, "%s missing:\n%s", want[i], env);
	cr_expect_null(strstr(env, "PROXY"), "a proxy with a password passed:\n%s", env);
	run_free(&r);
	free(env);

	/* allowed_env_vars replaces the list (additional_env_vars extends it).
	 * The world's config rewritten: a second --config is refused. */
	char *cfg = write_file(w.proj, "cordon.json",
			       "{" WORLD_BASE_RW ", \"allowed_env_vars\": [\"PATH\"],"
			       " \"additional_env_vars\": [\"TZ\"]}");
	cr_assert_str_eq(cfg, w.cfg);
	if (who->user)
		cr_assert_eq(chown(cfg, w.uid, w.gid), 0);
	r = sh_in(&w, NULL, "env > env.txt");
	cr_assert_eq(r.status, 0, "%s", r.err);
	env = read_file(out);
	cr_assert_not_null(env);
	cr_expect(strstr(env, "TZ=Asia/Tokyo") && strstr(env, "PATH="), "%s", env);
	cr_expect_null(strstr(env, "HOME="), "allowed_env_vars no longer replaces:\n%s", env);
	cr_expect_null(strstr(env, "SECRET_TOKEN"), "%s", env);
	run_free(&r);
	free(env);
	free(cfg);
	free(out);
	world_free(&w);
}

/* explain lists each directory once, not once more through a symlink to it
 * (/bin -> usr/bin, /lib -> usr/lib on a merged-/usr system). */
Test(firstday, explain_lists_each_directory_once)
{
	struct world w;
	world_init(&w, "explonce", "");
	char *cfg = write_file(w.dir, "empty.json", "{}");
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", cfg, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *dirs[] = {"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64"};
	for (size_t i = 0; i < 4; i++) {
		char *rule = fmt("     %s  (", dirs[i]);
		size_t count = 0;
		for (const char *p = r.out; (p = strstr(p, rule)); p++)
			count++;
		cr_expect_leq(count, 1, "%s listed %zu times:\n%s", dirs[i], count, r.out);
		free(rule);
	}
	run_free(&r);
	free(cfg);
	world_free(&w);
}

/* An agent harness closes stdin or stdout (`<&-`): the command runs all
 * the same (it was SIGKILLed, 137, before it ran), and starts with that
 * descriptor closed, as its caller meant. */
struct closed_case {
	char redir[8];
	char fd[4];
	bool user;
};
static struct closed_case closed_cases[] = {
	{"<&-", "0", false}, {">&-", "1", false}, {"2>&-", "2", false},
	{"<&-", "0", true},  {">&-", "1", true},  {"2>&-", "2", true},
};

ParameterizedTestParameters(firstday, closed_stdio_runs)
{
	return cr_make_param_array(struct closed_case, closed_cases,
				   sizeof(closed_cases) / sizeof(closed_cases[0]));
}

ParameterizedTest(struct closed_case *c, firstday, closed_stdio_runs, .timeout = 60)
{
	struct world w;
	struct who who = {c->user};
	world_for(&w, &who, "closed", "");
	/* Which of 0, 1 and 2 the command's shell has open, one per line (each
	 * looked at before the echo's own redirection). */
	char *script = fmt("'%s' run --config '%s' -- /bin/sh -c 'echo hi > out; for f in 0 1 2; "
			   "do [ -e /proc/$$/fd/$f ] && echo $f >> fds; done; true' %s; "
			   "echo \"rc=$?\" > rc",
			   w.as_user ? w.user_cordon : CORDON_BIN, w.cfg, c->redir);
	struct run_result r = sh_outside(&w, script);
	char *out = path_join(w.proj, "out"), *rc = path_join(w.proj, "rc"),
	     *fds = path_join(w.proj, "fds");
	char *got = read_file(out);
	cr_expect(got && strcmp(got, "hi\n") == 0, "%s: out is '%s'; rc: %s; stderr: %s", c->redir,
		  got ? got : "(none)", read_file(rc), r.err);
	cr_expect(contains(rc, "rc=0"), "%s", read_file(rc));
	char *list = read_file(fds);
	cr_assert_not_null(list);
	char *line = fmt("\n%s\n", c->fd);
	char *padded = fmt("\n%s", list);
	cr_expect_null(strstr(padded, line), "%s: fd %s is open in the command:\n%s", c->redir,
		       c->fd, list);
	run_free(&r);
	free(padded);
	free(line);
	free(list);
	free(got);
	free(out);
	free(rc);
	free(fds);
	free(script);
	world_free(&w);
}

/* cordon check parses the config a run would use (or --config FILE): a
 * broken one is said in one line and exits 125, where it used to say the
 * policy was fully enforceable. */
BOTH_USERS(firstday, check_parses_the_config, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "checkcfg", "");
	char *bad = write_file(w.dir, "bad.json", "{\"allow_network\": \"no\"}");
	char *good = write_file(w.dir, "good.json", "{\"allow_network\": false}");
	if (who->user)
		cr_assert(chown(bad, w.uid, w.gid) == 0 && chown(good, w.uid, w.gid) == 0);
	char *check_bad[] = {CORDON_BIN, "check", "--config", bad, NULL};
	struct run_result r = world_run(&w, check_bad, w.proj);
	cr_expect_eq(r.status, 125, "%s%s", r.out, r.err);
	char *want = fmt("cordon: %s: allow_network: expected true or false, got a string\n", bad);
	cr_expect_str_eq(r.err, want);
	cr_expect(strstr(r.out, "config:    does not parse") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "config:    none found"), "%s", r.out);
	run_free(&r);

	char *check_good[] = {CORDON_BIN, "check", "--config", good, NULL};
	r = world_run(&w, check_good, w.proj);
	cr_expect_neq(r.status, 125, "%s%s", r.out, r.err);
	char *line = fmt("config:    %s\n", good);
	cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
	cr_expect_str_eq(r.err, "");
	run_free(&r);

	/* The config found by discovery, as a terminal's `cordon run` finds it. */
	char *found = write_file(w.home, ".config/cordon/config.json", "{\"enabled\": 1}");
	if (who->user) {
		char *d1 = path_join(w.home, ".config"), *d2 = path_join(w.home, ".config/cordon");
		cr_assert(chown(d1, w.uid, w.gid) == 0 && chown(d2, w.uid, w.gid) == 0 &&
			  chown(found, w.uid, w.gid) == 0);
		free(d1);
		free(d2);
	}
	char *check[] = {CORDON_BIN, "check", NULL};
	r = world_run(&w, check, w.proj);
	cr_expect_eq(r.status, 125, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, found) && strstr(r.err, "enabled: expected true or false"), "%s",
		  r.err);
	run_free(&r);
	free(found);
	free(line);
	free(want);
	free(bad);
	free(good);
	world_free(&w);
}

/* `cordon run -- X` where nothing gives X execute: refused before X starts
 * (it used to run, its exec coming before the sandbox), 125, one line that
 * names X and the line to add. X found through PATH too; a static X (the
 * sandbox applied before its exec) the same. Controls: --allow-exec, and
 * an allowed command, run. */
BOTH_USERS(firstday, unexecutable_command_is_refused_up_front, .timeout = 60)
{
	struct world w;
	world_init(&w, "noexec", "");
	char *obin = path_join(w.outside, "bin");
	cr_assert_eq(mkdir(obin, 0755), 0);
	char *body = fmt("#!/bin/sh\necho ran > '%s/ran'\n", w.proj);
	char *script = write_file(obin, "marker.sh", body);
	cr_assert_eq(chmod(script, 0755), 0);
	char *stat_probe = path_join(obin, "pstatic");
	copy_exec(CORDON_PROBE_STATIC, stat_probe);
	if (who->user)
		world_as_user(&w);
	char *kv = fmt("PATH=%s:%s:/usr/bin:/bin", w.bin, obin);
	world_setenv(&w, kv);
	char *ran = path_join(w.proj, "ran");
	char *line = fmt("to allow it, add to your config: \"additional_executable_paths\": "
			 "[\"%s\"] (or pass --allow-exec %s)\n",
			 obin, obin);

	char *by_path[] = {script, NULL};
	struct run_result r = run_in(&w, NULL, by_path);
	cr_expect_eq(r.status, 125, "%s", r.err);
	char *head = fmt("cordon: %s: not executable in this session (%s: no rule gives it "
			 "execute); ",
			 script, script);
	cr_expect(strncmp(r.err, head, strlen(head)) == 0, "%s", r.err);
	cr_expect(strstr(r.err, line) != NULL, "%s", r.err);
	cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
	cr_expect_not(file_exists(ran), "the command ran");
	run_free(&r);

	char *by_name[] = {"marker.sh", NULL};
	r = run_in(&w, NULL, by_name);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strncmp(r.err, "cordon: marker.sh: not executable", 33) == 0, "%s", r.err);
	cr_expect(strstr(r.err, line) != NULL, "%s", r.err);
	cr_expect_not(file_exists(ran), "the command found in PATH ran");
	run_free(&r);

	char *stat_cmd[] = {"pstatic", "write", ran, "x", NULL};
	r = run_in(&w, NULL, stat_cmd);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "pstatic: not executable") != NULL, "%s", r.err);
	cr_expect_not(file_exists(ran), "the static command ran");
	run_free(&r);

	char *opt = fmt("--allow-exec %s", obin);
	r = run_in(&w, opt, by_name);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(contains(ran, "ran"), "allowed, it did not run: %s", r.err);
	run_free(&r);
	unlink(ran);
	r = sh_in(&w, NULL, "echo ran > ran");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(contains(ran, "ran"), "an allowed command did not run: %s", r.err);
	run_free(&r);
	free(opt);
	free(head);
	free(line);
	free(ran);
	free(kv);
	free(stat_probe);
	free(script);
	free(body);
	free(obin);
	world_free(&w);
}

/* Config files that used to get the wrong message, or none. */
struct cfg_case {
	char name[40];
	char text[200];
	char want[100];
};
static struct cfg_case cfg_cases[] = {
	/* VS Code's settings.json with no sandbox block: plain, and with
	 * JSONC comments and trailing commas. */
	{"settings.json", "{\"editor.fontSize\": 14, \"files.autoSave\": \"off\"}",
	 "settings.json: no terminal.sandbox block"},
	{"settings.json",
	 "// VS Code\n{\n  \"editor.fontSize\": 14, /* big */\n  \"workbench.x\": 1,\n}\n",
	 "settings.json: no terminal.sandbox block"},
	{"config.json", "null", "config.json: (top level): expected an object, got null"},
};

ParameterizedTestParameters(firstday, config_errors_say_what_is_wrong)
{
	return cr_make_param_array(struct cfg_case, cfg_cases,
				   sizeof(cfg_cases) / sizeof(cfg_cases[0]));
}

ParameterizedTest(struct cfg_case *c, firstday, config_errors_say_what_is_wrong)
{
	struct world w;
	world_init(&w, "cfgmsg", "");
	char *cfg = write_file(w.dir, c->name, c->text);
	char *ran = path_join(w.proj, "ran");
	struct run_result r = run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/sh",
					 "-c", "echo x > ran", NULL);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, c->want) != NULL, "got '%s', want '%s'", r.err, c->want);
	cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
	cr_expect_not(file_exists(ran));
	run_free(&r);
	free(ran);
	free(cfg);
	world_free(&w);
}

/* A FIFO given as the config: refused at once (opening it waited for a
 * writer, forever), by run and by check. */
Test(firstday, fifo_config_is_refused_at_once, .timeout = 30)
{
	struct world w;
	world_init(&w, "fifo", "");
	char *fifo = path_join(w.dir, "config.json");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	char *run[] = {CORDON_BIN, "run", "--config", fifo, "--", "/bin/true", NULL};
	struct run_result r = run_cmd(run, w.env, w.proj, 5000);
	cr_expect_eq(r.status, 125, "status %d (137: it hung): %s", r.status, r.err);
	char *want = fmt("cordon: %s: not a regular file\n", fifo);
	cr_expect_str_eq(r.err, want);
	run_free(&r);
	char *check[] = {CORDON_BIN, "check", "--config", fifo, NULL};
	r = run_cmd(check, w.env, w.proj, 5000);
	cr_expect_eq(r.status, 125, "status %d (137: it hung): %s", r.status, r.err);
	cr_expect_str_eq(r.err, want);
	run_free(&r);
	free(want);
	free(fifo);
	world_free(&w);
}

/* An option missing its value is named ("(null): missing argument"). */
Test(firstday, missing_option_value_is_named)
{
	struct world w;
	world_init(&w, "missarg", "");
	const char *opts[] = {"-p", "--project", "-c", "--config"};
	for (size_t i = 0; i < 4; i++) {
		struct run_result r = run_cordon(w.env, w.proj, "run", opts[i], NULL);
		cr_expect_eq(r.status, 125);
		char *want = fmt("cordon: %s: missing argument\n", opts[i]);
		cr_expect_str_eq(r.err, want);
		free(want);
		run_free(&r);
	}
	world_free(&w);
}

/* An error about a 10 kB path keeps what is wrong: the path is cut in its
 * middle, and the message still ends with the reason. */
Test(firstday, long_path_error_keeps_the_reason)
{
	struct world w;
	world_init(&w, "longpath", "");
	size_t n = 10 * 1024;
	char *path = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		path[i] = i % 64 == 0 ? '/' : (char)('a' + i % 26);
	path[n] = '\0';
	struct run_result r =
		run_cordon(w.env, w.proj, "run", "--config", path, "--", "/bin/true", NULL);
	cr_expect_eq(r.status, 125);
	/* ENAMETOOLONG: "File name too long" (glibc), "Filename too long" (musl). */
	const char *tail = " too long\n";
	size_t len = strlen(r.err);
	cr_expect(len > strlen(tail) && strcmp(r.err + len - strlen(tail), tail) == 0 &&
			  strstr(r.err, ": config file given by --config: "),
		  "the reason was cut: ...%s", len > 200 ? r.err + len - 200 : r.err);
	char *head = fmt("cordon: %.190s", path);
	cr_expect(strncmp(r.err, head, strlen(head)) == 0 && strstr(r.err, "\xe2\x80\xa6"),
		  "%.300s", r.err);
	free(head);
	cr_expect_lt(len, 1100);
	cr_expect_eq(strchr(r.err, '\n'), r.err + len - 1, "one line");
	run_free(&r);

	/* The same for the library's messages in general. */
	struct cordon_error err = {0};
	cordon_err(&err, ENOENT, "%s: cannot open: %s", path, strerror(ENOENT));
	cr_expect(strlen(err.msg) < sizeof(err.msg));
	const char *why = ": cannot open: No such file or directory";
	cr_expect_str_eq(err.msg + strlen(err.msg) - strlen(why), why);
	cr_expect(strncmp(err.msg, path, 200) == 0, "the path's beginning is kept");
	/* Two long words: each is cut, the short ones between stay. */
	cordon_err(&err, EINVAL, "%s and %s: both wrong", path, path);
	cr_expect(strstr(err.msg, " and ") && strstr(err.msg, ": both wrong"), "%s", err.msg);
	/* Short messages are as they were. */
	cordon_err(&err, EINVAL, "%s: %s", "/short", "fine");
	cr_expect_str_eq(err.msg, "/short: fine");
	free(path);
	world_free(&w);
}

/* A terminal whose config is broken: the message stays on the screen until
 * Enter (tmux closed every pane at once, before it could be read); then
 * 125. With a command, or without a terminal (an agent), no wait. */
Test(firstday, broken_config_in_a_terminal_waits_for_enter, .timeout = 60)
{
	struct world w;
	world_init(&w, "holdtty", "");
	char *bad = write_file(w.dir, "bad.json", "{\"allow_network\": ");
	char *argv[] = {CORDON_BIN, "run", "--config", bad, NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char out[8192] = "";
	cr_expect(pty_read_until(master, "press Enter", 10000, out, sizeof(out), false), "%s", out);
	cr_expect(strstr(out, bad) != NULL, "the error names the file: %s", out);
	bool held = false;
	int st = pty_held_until_enter(pid, master, out, sizeof(out), &held);
	cr_expect(held, "closed before Enter: %s", out);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 125, "status %d: %s", st, out);
	close(master);
	free(name);

	/* No terminal: at once, no prompt. */
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect_null(strstr(r.err, "press Enter"), "%s", r.err);
	run_free(&r);
	/* A command in a terminal: no wait either. */
	char *cmd[] = {CORDON_BIN, "run", "--config", bad, "--", "/bin/true", NULL};
	pid = world_pty_spawn(&w, cmd, &master, &name);
	out[0] = '\0';
	st = 0;
	for (long end = ms_now() + 10000; ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
		pty_read_until(master, NULL, 50, out, sizeof(out), false);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 125, "status %d: %s", st, out);
	cr_expect_null(strstr(out, "press Enter"), "%s", out);
	close(master);
	free(name);
	free(bad);
	world_free(&w);
}
