/* The cordon command end to end: exit statuses, config errors that stop the
 * command before it runs (judged by a marker file it would have written), the
 * environment the command sees. */
#include <criterion/criterion.h>
#include <pwd.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "helpers.h"

Test(cli, command_exit_status_is_passed_through)
{
	struct world w;
	world_init(&w, "status", "");
	struct run_result r =
		run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c", "exit 42", NULL);
	cr_expect_eq(r.status, 42, "stderr: %s", r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "run", "true", NULL);
	cr_expect_eq(r.status, 0, "a command found in PATH, no --: %s", r.err);
	run_free(&r);
	world_free(&w);
}

Test(cli, not_found_is_127_not_executable_is_126)
{
	struct world w;
	world_init(&w, "notfound", "");
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", "no-such-command-xyz", NULL);
	cr_expect_eq(r.status, 127);
	cr_expect(strstr(r.err, "cordon: no-such-command-xyz: command not found") != NULL, "%s",
		  r.err);
	run_free(&r);
	char *f = write_file(w.proj, "notexec.sh", "#!/bin/sh\ntouch ran\n");
	r = run_cordon(w.env, w.proj, "run", "--", f, NULL);
	cr_expect_eq(r.status, 126, "%s", r.err);
	char *marker = path_join(w.proj, "ran");
	cr_expect_not(file_exists(marker));
	run_free(&r);
	r = run_cordon(w.env, w.proj, "run", "--", w.proj, NULL);
	cr_expect_eq(r.status, 126, "a directory is not executable: %s", r.err);
	run_free(&r);
	free(f);
	free(marker);
	world_free(&w);
}

struct bad_cfg {
	char json[128];
	char key[64];
};

static struct bad_cfg bad_cfgs[] = {
	{"{", "malformed JSON"},
	{"{\"allow_network\": \"no\"}", "allow_network: expected true or false"},
	{"{\"colour\": true}", "colour: unknown key"},
	{"{\"apply_to\": \"everything\"}", "apply_to: expected"},
	{"{\"system_paths\": {\"read_only\": [true]}}",
	 "system_paths.read_only[0]: expected a string"},
	{"{} trailing", "line 1, column 4: malformed JSON"},
	/* Before, json-c kept the last value: the sandbox went off. */
	{"{\"enabled\": true,\n \"allow_network\": false,\n \"enabled\": false}",
	 "enabled: duplicate key (line 3)"},
	/* Read as "enabled" before: the sandbox went off. */
	{"{\"enabled\\u0000 (ignore me)\": false}",
	 "enabled: key contains a NUL character (\\u0000) (line 1)"},
	/* An editor's file: the first block, with allow_network false, was
	 * dropped without a word behind the editor's own repeated key. */
	{"{\"editor.a\": 1, \"terminal.sandbox\": {\"allow_network\": false},\n\"editor.a\": 2,\n"
	 "\"terminal.sandbox\": {}}",
	 "terminal.sandbox: duplicate key (line 3)"},
	{"{\"terminal\": {\"sandbox\": {\"allow_network\": false}}, \"terminal.sandbox\": {}}",
	 "both \"terminal.sandbox\" and \"terminal\": {\"sandbox\": ...}"},
	{"{\"allow_network\": false, \"terminal.sandbox\": {}}",
	 "allow_network: outside the terminal.sandbox block"},
	/* (Round 58c F1: beside the nested block, the network stayed on.) */
	{"{\"terminal\": {\"sandbox\": {}, \"allow_network\": false}}",
	 "terminal.allow_network: outside the terminal.sandbox block"},
	{"{\"additional_env_vars\": [\"LD_PRELOAD\"]}",
	 "additional_env_vars[0]: LD_PRELOAD never passes into a session"},
	{"{\"toolchains\": [\"go\", \"go\"]}", "toolchains[1]: \"go\" is given twice"},
	/* (Round 58c F2: the lists were dropped unsaid.) */
	{"{\"allow_network\": false, \"allowed_domains\": [\"example.com\"]}",
	 "allowed_domains: the network is off"},
	{"{\"allow_network\": false, \"denied_domains\": [\"example.com\"]}",
	 "denied_domains: the network is off"},
};

ParameterizedTestParameters(cli, bad_config_stops_everything)
{
	return cr_make_param_array(struct bad_cfg, bad_cfgs,
				   sizeof(bad_cfgs) / sizeof(bad_cfgs[0]));
}

ParameterizedTest(struct bad_cfg *c, cli, bad_config_stops_everything)
{
	struct world w;
	world_init(&w, "badcfg", "");
	char *cfg = write_file(w.dir, "config.json", c->json);
	char *marker = path_join(w.proj, "ran");
	char *script;
	asprintf(&script, "touch '%s'", marker);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/sh",
					 "-c", script, NULL);
	cr_expect_eq(r.status, 125, "stderr: %s", r.err);
	cr_expect_not(file_exists(marker), "the command ran despite a bad config");
	char *want;
	asprintf(&want, "cordon: %s: ", cfg);
	cr_expect(strncmp(r.err, want, strlen(want)) == 0, "message names the file: %s", r.err);
	cr_expect(strstr(r.err, c->key) != NULL, "message names the key: %s", r.err);
	cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
	run_free(&r);
	free(want);
	free(script);
	free(marker);
	free(cfg);
	world_free(&w);
}

Test(cli, bad_config_found_by_discovery_also_stops)
{
	struct world w;
	world_init(&w, "baddisc", "");
	char *cfg = write_file(w.home, ".config/cordon/config.json", "{\"enabled\": 1}");
	char *marker = path_join(w.proj, "ran");
	char *script;
	asprintf(&script, "touch '%s'", marker);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c", script, NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, cfg) && strstr(r.err, "enabled: expected true or false"), "%s",
		  r.err);
	cr_expect_not(file_exists(marker));
	run_free(&r);
	/* $CORDON_CONFIG naming a missing file is an error too, not "defaults". */
	world_setenv(&w, "CORDON_CONFIG=/nonexistent/cordon.json");
	r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c", script, NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "/nonexistent/cordon.json") != NULL, "%s", r.err);
	cr_expect_not(file_exists(marker));
	run_free(&r);
	/* Set but empty: not the defaults either (round 58c F8). */
	world_setenv(&w, "CORDON_CONFIG=");
	r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c", script, NULL);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "CORDON_CONFIG is set but empty") != NULL, "%s", r.err);
	cr_expect_not(file_exists(marker));
	run_free(&r);
	free(script);
	free(marker);
	free(cfg);
	world_free(&w);
}

Test(cli, oversized_config_stops_everything)
{
	struct world w;
	world_init(&w, "bigcfg", "");
	size_t n = 2 * 1024 * 1024;
	char *big = malloc(n + 1);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	big[n] = 0;
	char *cfg = write_file(w.dir, "big.json", big);
	struct run_result r =
		run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/true", NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "too large") != NULL, "%s", r.err);
	run_free(&r);
	free(big);
	free(cfg);
	world_free(&w);
}

/* Run by sh and by bash: bash interposes getenv/setenv/unsetenv and reads
 * main's envp, so the shim must edit the environment array in place. */
struct shell_case {
	char path[32];
};
static struct shell_case shells[] = {{"/bin/sh"}, {"/bin/bash"}};

ParameterizedTestParameters(cli, environment_is_filtered)
{
	return cr_make_param_array(struct shell_case, shells, sizeof(shells) / sizeof(shells[0]));
}

ParameterizedTest(struct shell_case *sh, cli, environment_is_filtered)
{
	struct world w;
	world_init(&w, "env", "");
	world_setenv(&w, "LD_PRELOAD=/nonexistent-preload.so");
	char *out = path_join(w.proj, "env.txt");
	char *script;
	/* The first process and a grandchild both write what they see. */
	asprintf(&script, "env > '%s'; sh -c 'env' >> '%s'", out, out);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", sh->path, "-c", script, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "libcordon.so"), "a child tried to load the shim again: %s",
		       r.err);
	char *env = read_file(out);
	cr_assert_not_null(env);
	cr_expect_null(strstr(env, "SECRET_TOKEN"), "%s", env);
	cr_expect_null(strstr(env, "LD_PRELOAD"), "%s", env);
	cr_expect_null(strstr(env, "CORDON_CONFIG_FD"), "%s", env);
	cr_expect(strstr(env, "HOME=") != NULL);
	cr_expect(strstr(env, "TERM=xterm") != NULL);
	cr_expect(strstr(env, "CORDON_SANDBOX=1") != NULL);
	cr_expect(strstr(env, "CORDON_SESSION=") != NULL);
	run_free(&r);
	/* --allow-env adds a name. */
	r = run_cordon(w.env, w.proj, "run", "--allow-env", "SECRET_TOKEN", "--", sh->path, "-c",
		       script, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	free(env);
	env = read_file(out);
	cr_expect(strstr(env, "SECRET_TOKEN=hunter2") != NULL, "%s", env);
	run_free(&r);
	free(env);
	free(script);
	free(out);
	world_free(&w);
}

Test(cli, disabled_still_runs_with_marker)
{
	struct world w;
	world_init(&w, "disabled", "");
	char *cfg = write_file(w.dir, "c.json", "{\"enabled\": false}");
	char *out = path_join(w.proj, "env.txt");
	char *script;
	asprintf(&script, "env > '%s'", out);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/sh",
					 "-c", script, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *env = read_file(out);
	cr_assert_not_null(env);
	cr_expect(strstr(env, "CORDON_SANDBOX=0") != NULL, "%s", env);
	cr_expect(strstr(env, "SECRET_TOKEN=hunter2") != NULL, "no restrictions: %s", env);
	cr_expect(strstr(env, "CORDON_SESSION=") != NULL);
	run_free(&r);
	free(env);
	free(script);
	free(out);
	free(cfg);
	world_free(&w);
}

Test(cli, default_command_is_login_shell)
{
	struct world w;
	world_init(&w, "shell", "");
	char *marker = path_join(w.proj, "args.txt");
	char *body;
	asprintf(&body, "#!/bin/sh\necho \"$0 $*\" > '%s'\n", marker);
	char *shell = write_file(w.proj, "myshell", body);
	chmod(shell, 0755);
	char *kv;
	asprintf(&kv, "SHELL=%s", shell);
	world_setenv(&w, kv);
	free(kv);
	struct run_result r = run_cordon(w.env, w.proj, "run", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	char *got = read_file(marker);
	cr_assert_not_null(got, "the login shell did not run: %s", r.err);
	cr_expect(strstr(got, "myshell -l") != NULL, "%s", got);
	run_free(&r);
	free(got);
	free(shell);
	free(body);
	free(marker);
	world_free(&w);
}

/* No usable $SHELL: the login shell comes from /etc/passwd (read directly:
 * the launcher is static). */
Test(cli, default_shell_from_passwd_without_SHELL)
{
	struct passwd *pw = getpwuid(getuid());
	cr_assert(pw && pw->pw_shell && pw->pw_shell[0] == '/');
	struct world w;
	world_init(&w, "pwshell", "");
	world_setenv(&w, "SHELL=");
	struct run_result r = run_cordon(w.env, w.proj, "run", "-v", NULL);
	char want[512];
	snprintf(want, sizeof(want), ": %s", pw->pw_shell);
	cr_expect(strstr(r.err, want) != NULL, "%s not started:\n%s", pw->pw_shell, r.err);
	run_free(&r);
	world_free(&w);
}

Test(cli, project_option_moves_the_shell)
{
	struct world w;
	world_init(&w, "projopt", "");
	char *out = path_join(w.proj, "pwd.txt");
	char *script;
	asprintf(&script, "pwd > '%s'", out);
	struct run_result r = run_cordon(w.env, w.home, "run", "--project", w.proj, "--", "/bin/sh",
					 "-c", script, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	char *pwd = read_file(out);
	cr_assert_not_null(pwd);
	cr_expect(strncmp(pwd, w.proj, strlen(w.proj)) == 0, "%s", pwd);
	run_free(&r);
	r = run_cordon(w.env, w.home, "run", "--project", "/nonexistent-proj", "--", "/bin/true",
		       NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "cordon: /nonexistent-proj: project directory") != NULL, "%s",
		  r.err);
	run_free(&r);
	free(pwd);
	free(script);
	free(out);
	world_free(&w);
}

Test(cli, usage_and_help)
{
	struct world w;
	world_init(&w, "help", "");
	struct run_result r = run_cordon(w.env, w.proj, "--help", NULL);
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "Usage: cordon COMMAND") != NULL, "%s", r.out);
	run_free(&r);
	const char *cmds[] = {"run", "explain", "check"};
	for (int i = 0; i < 3; i++) {
		r = run_cordon(w.env, w.proj, cmds[i], "--help", NULL);
		cr_expect_eq(r.status, 0);
		char want[64];
		snprintf(want, sizeof(want), "Usage: cordon %s", cmds[i]);
		cr_expect(strstr(r.out, want) != NULL, "%s", r.out);
		run_free(&r);
	}
	r = run_cordon(w.env, w.proj, NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "Usage:") != NULL);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "run", "--bogus", NULL);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "cordon: unknown option '--bogus'") != NULL, "%s", r.err);
	run_free(&r);
	world_free(&w);
}

/* A path longer than any file's name in a rule (round 8: run refused it
 * with a line naming no key, explain took it): run skips it as explain
 * does, and runs; explain lists it as skipped. */
/* --allow-read /dev/stdin and --allow-write /dev/stdout where they are
 * pipes: Landlock takes no rule on a pipe (EBADFD) and judges no open of
 * one; the launch must not fail on it (round 34c S3: exit 125). */
Test(cli, a_rule_on_a_descriptor_s_name_onto_a_pipe_runs)
{
	for (int as_user = 0; as_user < 2; as_user++) {
		struct world w;
		world_init(&w, "stdpipe", "");
		if (as_user)
			world_as_user(&w);
		char *script =
			fmt("echo IN | %s run --config %s --allow-read /dev/stdin "
			    "--allow-write /dev/stdout --allow-write /dev/stderr -- "
			    "/bin/sh -c 'cat /dev/stdin >/dev/stdout; echo OUT >/dev/stdout; "
			    "echo ERR >/dev/stderr' 2>&1 | cat",
			    as_user ? w.user_cordon : CORDON_BIN, w.cfg);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		cr_expect_eq(r.status, 0, "as user %d: %s%s", as_user, r.out, r.err);
		cr_expect(strstr(r.out, "IN\nOUT\n") && strstr(r.out, "ERR\n") &&
				  !strstr(r.out, "/dev/std") && !strstr(r.out, "landlock"),
			  "as user %d: the pipes read and written, no rule said: %s%s", as_user,
			  r.out, r.err);
		run_free(&r);
		free(script);
		world_free(&w);
	}
}

Test(cli, a_path_too_long_is_skipped_by_run_and_explain)
{
	struct world w;
	world_init(&w, "longpath", "");
	char long_path[5002];
	long_path[0] = '/';
	memset(long_path + 1, 'a', 5000);
	long_path[5001] = '\0';
	char *json = fmt("{\"additional_read_only_paths\": [\"%s\"]}", long_path);
	char *cfg = write_file(w.dir, "c.json", json);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/sh",
					 "-c", "echo ran", NULL);
	cr_expect(strstr(r.out, "ran"), "run: %d %s%s", r.status, r.out, r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", cfg, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "(additional_read_only_paths): File") && strstr(r.out, "too long"),
		  "not listed as skipped");
	run_free(&r);
	free(cfg);
	free(json);
	world_free(&w);
}

Test(cli, explain_lists_rules_and_paths)
{
	struct world w;
	world_init(&w, "explain", "");
	char *cfg = write_file(w.dir, "c.json",
			       "{\"additional_read_only_paths\": [\"~/docs\", \"~/gone\"]}");
	char *docs = path_join(w.home, "docs");
	mkdir(docs, 0755);
	char *other = path_join(w.dir, "notes.txt");
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", cfg, "/usr/bin/ls",
					 "/root/.ssh/id_rsa", docs, other, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, cfg) != NULL, "names the config: %s", r.out);
	cr_expect(strstr(r.out, "rwx     ") && strstr(r.out, "(project)"), "%s", r.out);
	cr_expect(strstr(r.out, "r-x     /usr/bin  (system_paths.executable (default))") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "~/gone (additional_read_only_paths)") != NULL,
		  "skipped path listed: %s", r.out);
	cr_expect(strstr(r.out, "/usr/bin/ls\n  access: r-x") != NULL, "%s", r.out);
	/* (Root's passwd home's ~/.ssh is a hidden path: never proposed, made
	 * or not, 45b F3.) */
	cr_expect(strstr(r.out, "/root/.ssh/id_rsa\n  access: ---") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "[\"/root/.ssh/id_rsa\"]"), "%s", r.out);
	char *line = fmt("\"additional_read_only_paths\": [\"%s\"]", other);
	cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
	free(line);
	run_free(&r);
	/* A file at the top of the home, readable: writing it is not
	 * proposed, for the home's reason (round 58c F9 told it as "a system
	 * directory"). */
	char *top = path_join(w.home, "todo.txt");
	free(write_file(w.home, "todo.txt", "x"));
	r = run_cordon(w.env, w.proj, "explain", "--allow-read", w.home, top, NULL);
	cr_expect(strstr(r.out, "cordon does not propose writing it: it is in your home directory"),
		  "%s%s", r.out, r.err);
	run_free(&r);
	free(top);
	free(other);
	free(docs);
	free(cfg);
	world_free(&w);
}

/* A write rule that a guard would leave writing nothing is refused (round
 * 58c F6: --allow-write PROJ/.git/hooks was listed rwx and wrote nothing,
 * unsaid), as root and as the test user; explain says REFUSED. The
 * control: the same session without that rule runs. */
Test(cli, a_write_rule_a_guard_would_void_is_refused)
{
	for (int as_user = 0; as_user < 2; as_user++) {
		struct world w;
		world_init(&w, "voided", "");
		if (as_user)
			world_as_user(&w);
		char *git[] = {"/usr/bin/git", "init", "-q", w.proj, NULL};
		struct run_result r = world_run(&w, git, w.proj);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		char *own = path_join(w.home, ".config/cordon");
		char *made[] = {"/bin/mkdir", "-p", own, NULL};
		r = world_run(&w, made, w.proj);
		run_free(&r);
		char *mark = path_join(w.proj, "ran");
		r = sh_in(&w, "", "touch %s", mark);
		cr_assert(file_exists(mark), "as user %d: the control runs: %s", as_user, r.err);
		run_free(&r);
		unlink(mark);
		const char *voided[] = {".git/hooks", ".git/hooks/x", ".git/config"};
		for (size_t i = 0; i < 3; i++) {
			char *opt = fmt("--allow-write %s/%s", w.proj, voided[i]);
			r = sh_in(&w, opt, "touch %s", mark);
			cr_expect_eq(r.status, 125, "as user %d, %s: %s", as_user, opt, r.err);
			cr_expect(
				strstr(r.err, "would write nothing") &&
					strstr(r.err, "stays read-only inside (protected_paths") &&
					strstr(r.err, "take the entry out of protected_paths"),
				"as user %d, %s: %s", as_user, opt, r.err);
			cr_expect_not(file_exists(mark), "as user %d, %s: the command ran", as_user,
				      opt);
			run_free(&r);
			free(opt);
		}
		char *opt = fmt("--allow-write %s", own);
		r = sh_in(&w, opt, "touch %s", mark);
		cr_expect_eq(r.status, 125, "as user %d: %s", as_user, r.err);
		cr_expect(strstr(r.err, "it stays read-only inside (cordon's config)"),
			  "as user %d: %s", as_user, r.err);
		cr_expect_not(file_exists(mark), "as user %d: the command ran", as_user);
		run_free(&r);
		free(opt);
		/* Another repository's hooks (round 59d F8: written, they ran at
		 * its next git checkout outside); control: the repository
		 * itself is writable (its protected files kept). */
		char *other = path_join(w.dir, "other");
		char *git2[] = {"/usr/bin/git", "init", "-q", other, NULL};
		r = world_run(&w, git2, w.proj);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		char *oopt = fmt("--allow-write %s/.git/hooks", other);
		r = sh_in(&w, oopt, "touch %s", mark);
		cr_expect_eq(r.status, 125, "as user %d: %s", as_user, r.err);
		cr_expect(strstr(r.err, "would write a repository's .git/hooks"), "as user %d: %s",
			  as_user, r.err);
		cr_expect_not(file_exists(mark), "as user %d: the command ran", as_user);
		run_free(&r);
		free(oopt);
		oopt = fmt("--allow-write %s", other);
		r = sh_in(&w, oopt, "touch %s", mark);
		cr_expect(file_exists(mark), "as user %d: control: %s", as_user, r.err);
		unlink(mark);
		run_free(&r);
		free(oopt);
		free(other);
		char *hooks = path_join(w.proj, ".git/hooks");
		r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--allow-write", hooks,
			       NULL);
		cr_expect(strstr(r.out, "REFUSED: ") && strstr(r.out, "would write nothing"),
			  "%s%s", r.out, r.err);
		run_free(&r);
		free(hooks);
		free(mark);
		free(own);
		world_free(&w);
	}
}

/* explain's table gives what a rule's path gets from the rules above it
 * too (round 58c F7: a read-only rule beneath the project was listed r--
 * alone), and a new name at the top of a writable home as what it is:
 * none is made there (58c F5 said rwx). Judged against a session. */
Test(cli, explain_tells_what_rules_above_give_and_the_closed_home)
{
	struct world w;
	world_init(&w, "explainmore", "");
	char *sub = path_join(w.proj, "sub");
	mkdir(sub, 0755);
	struct run_result r =
		run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--allow-read", sub, NULL);
	char *row = fmt("r--     %s  (--allow-read; rwx there: %s (project) covers it too)", sub,
			w.proj);
	cr_expect(strstr(r.out, row), "%s%s", r.out, r.err);
	run_free(&r);
	free(row);
	char *in_sub = path_join(sub, "made");
	r = sh_in(&w, "", "touch %s", in_sub);
	cr_expect(file_exists(in_sub), "the session writes there, as explain says: %s", r.err);
	run_free(&r);
	char *fresh = path_join(w.home, "fresh-name");
	char *popt = fmt("--project %s", w.home);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--project", w.home, fresh,
		       NULL);
	char *says = fmt("%s\n  access: none to make it (the home is closed", fresh);
	cr_expect(strstr(r.out, says), "%s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, popt, "touch %s; echo made=$?", fresh);
	cr_expect(strstr(r.out, "made=1"), "%s%s", r.out, r.err);
	cr_expect_not(file_exists(fresh), "made in the home's top");
	run_free(&r);
	/* Beneath a missing name there, and written with a slash (round 59d
	 * F4). */
	char *deep = fmt("%s/missing-dir/x", w.home), *slashed = fmt("%s/new-dir/", w.home);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--project", w.home, deep,
		       slashed, NULL);
	char *deep_says = fmt("%s\n  access: none to make it", deep),
	     *slashed_says = fmt("%s\n  access: none to make it", slashed);
	cr_expect(strstr(r.out, deep_says) && strstr(r.out, slashed_says), "%s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, popt, "mkdir -p %s; echo made=$?", deep);
	cr_expect(strstr(r.out, "made=1") && !file_exists(deep), "%s%s", r.out, r.err);
	run_free(&r);
	free(deep_says), free(slashed_says), free(deep), free(slashed);
	/* (The control: a name in a directory of the home is made.) */
	char *deeper = path_join(w.home, "dir");
	mkdir(deeper, 0755);
	char *in_deeper = path_join(deeper, "fresh-name");
	r = sh_in(&w, popt, "touch %s", in_deeper);
	cr_expect(file_exists(in_deeper), "%s", r.err);
	run_free(&r);
	free(in_deeper);
	free(deeper);
	free(says);
	/* A write rule on /dev or /sys: the session's view keeps them
	 * read-only (round 59c F2: explain said rwx); nothing is made there. */
	char *dev_name = fmt("/dev/cordon-explain-%d", (int)getpid());
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--allow-write", "/dev",
		       "--allow-write", "/sys", dev_name, "/sys/kernel/mm", NULL);
	char *dev_says = fmt("%s\n  access: r-x (from --allow-write: /dev; the session's view "
			     "keeps it read-only",
			     dev_name);
	cr_expect(strstr(r.out, dev_says), "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "/sys/kernel/mm\n  access: r-x (from --allow-write: /sys; the "
				"session's view keeps it read-only"),
		  "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "rwx     /dev  (--allow-write; the session's view keeps /dev "
				"read-only"),
		  "%s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, "--allow-write /dev", "touch %s; echo made=$?", dev_name);
	cr_expect(strstr(r.out, "made=1"), "%s%s", r.out, r.err);
	cr_expect_not(file_exists(dev_name), "made in /dev");
	if (file_exists(dev_name))
		unlink(dev_name);
	run_free(&r);
	/* A directory of /dev's own (devtmpfs says tmpfs: round 59d F5, a
	 * writable copy of the host's /dev, and a file made in it). */
	struct stat net;
	if (stat("/dev/net", &net) == 0 && S_ISDIR(net.st_mode)) {
		char *in_net = fmt("/dev/net/cordon-explain-%d", (int)getpid());
		r = sh_in(&w, "--allow-write /dev/net", "touch %s; echo made=$?", in_net);
		cr_expect(strstr(r.out, "made=1"), "%s%s", r.out, r.err);
		cr_expect_not(file_exists(in_net), "made in /dev/net");
		if (file_exists(in_net))
			unlink(in_net);
		run_free(&r);
		free(in_net);
	}
	free(dev_says);
	free(dev_name);
	free(popt);
	free(fresh);
	free(in_sub);
	free(sub);
	world_free(&w);
}

/* A config a session planted where the next launch finds it through
 * XDG_CONFIG_HOME (round 59g F2: {"enabled": false} in the project's
 * .config/cordon, and the next launch pointed there ran unsandboxed, unsaid)
 * is refused, as root and as the test user; judged by a marker outside the
 * project. Control: a config in a directory no session could write is read. */
Test(cli, a_config_a_session_planted_is_refused)
{
	for (int as_user = 0; as_user < 2; as_user++) {
		struct world w;
		world_init(&w, "xdgplant", "");
		if (as_user)
			world_as_user(&w);
		struct run_result r =
			sh_in(&w, "",
			      "mkdir -p .config/cordon && echo '{\"enabled\": false}' > "
			      ".config/cordon/config.json; echo made=$?");
		cr_assert(strstr(r.out, "made=0"), "as user %d: the plant: %s%s", as_user, r.out,
			  r.err);
		run_free(&r);
		char *marker = path_join(w.outside, "planted-ran");
		char *xdg = fmt("XDG_CONFIG_HOME=%s/.config", w.proj);
		world_setenv(&w, xdg);
		const char *bin = as_user ? w.user_cordon : CORDON_BIN;
		char *touch[] = {(char *)bin, "run", "--", "/usr/bin/touch", marker, NULL};
		r = world_run(&w, touch, w.proj);
		cr_expect_eq(r.status, 125, "as user %d: %s", as_user, r.err);
		cr_expect(strstr(r.err, "lies where a session may write"), "as user %d: %s",
			  as_user, r.err);
		cr_expect_not(file_exists(marker), "as user %d: it ran", as_user);
		run_free(&r);
		/* Control: elsewhere, read (and the sandbox off, as it says). */
		char *apart = path_join(w.dir, "xdg-apart");
		char *made[] = {"/bin/sh", "-c",
				"mkdir -p \"$0/cordon\" && echo '{\"enabled\": false}' > "
				"\"$0/cordon/config.json\"",
				apart, NULL};
		r = world_run(&w, made, w.proj);
		run_free(&r);
		char *xdg2 = fmt("XDG_CONFIG_HOME=%s", apart);
		world_setenv(&w, xdg2);
		r = world_run(&w, touch, w.proj);
		cr_expect(file_exists(marker), "as user %d: control: %s", as_user, r.err);
		run_free(&r);
		unlink(marker);
		free(xdg2), free(apart), free(xdg), free(marker);
		world_free(&w);
	}
}

/* The shim on a file system mounted noexec (round 59g F1): the loader
 * would skip it and the command would run unsandboxed until the
 * confirmation timed out. Refused before the command starts (judged by a
 * marker outside); control: the same copy on an exec mount runs, in the
 * sandbox (the marker outside is not written, the one inside is). In a
 * mount namespace of the test's own. */
Test(cli, a_shim_on_a_noexec_mount_is_refused)
{
	struct world w;
	world_init(&w, "noexecshim", "");
	char *out = path_join(w.outside, "ran"), *in = path_join(w.proj, "ran");
	for (int noexec = 0; noexec < 2; noexec++) {
		char *mnt = fmt("%s/m%d", w.dir, noexec);
		cr_assert_eq(mkdir(mnt, 0755), 0);
		char *script = fmt("mount -t tmpfs -o %s tmpfs %s && cp %s %s/libcordon.so && "
				   "CORDON_SHIM=%s/libcordon.so %s run --config %s -- /bin/sh -c "
				   "'touch %s; touch %s'",
				   noexec ? "noexec" : "exec", mnt, CORDON_SHIM_SO, mnt, mnt,
				   CORDON_BIN, w.cfg, in, out);
		char *argv[] = {"/usr/bin/unshare", "-m", "--propagation", "private",
				"/bin/sh",          "-c", script,          NULL};
		struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
		if (noexec) {
			cr_expect_eq(r.status, 125, "%s", r.err);
			cr_expect(strstr(r.err, "mounted noexec"), "%s", r.err);
			cr_expect_not(file_exists(in) || file_exists(out), "the command ran: %s",
				      r.err);
		} else {
			cr_expect(file_exists(in) && !file_exists(out),
				  "control: not run, or not sandboxed: %s", r.err);
		}
		unlink(in);
		unlink(out);
		run_free(&r);
		free(script);
		free(mnt);
	}
	free(in), free(out);
	world_free(&w);
}

/* A watcher of SHIM: renames it to GONE (a package upgrade's rename) as
 * the WANT-th open of it is asked for, or (LATER) as the first open of
 * LATER asked for after the first of SHIM: fanotify's permission events,
 * where the path is resolved and the open not yet done. It lets every open
 * go on. Returns its pid once it watches. */
static pid_t rename_shim_at(const char *shim, const char *gone, int want, const char *later)
{
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	struct stat shim_st;
	cr_assert_eq(stat(shim, &shim_st), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(ready[0]);
		int fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC);
		if (fan < 0 ||
		    fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_PERM, AT_FDCWD, shim) < 0 ||
		    (later && fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN_PERM | FAN_ONDIR, AT_FDCWD,
					    later) < 0))
			_exit(1);
		(void)!write(ready[1], "r", 1);
		int seen = 0;
		char buf[4096] __attribute__((aligned(8)));
		for (;;) {
			ssize_t n = read(fan, buf, sizeof(buf));
			if (n <= 0)
				_exit(1);
			const struct fanotify_event_metadata *ev = (const void *)buf;
			for (; FAN_EVENT_OK(ev, n); ev = FAN_EVENT_NEXT(ev, n)) {
				struct stat st;
				bool is_shim = ev->fd >= 0 && fstat(ev->fd, &st) == 0 &&
					       st.st_ino == shim_st.st_ino &&
					       st.st_dev == shim_st.st_dev;
				if (is_shim ? ++seen == want : later && seen == 1 && ++seen)
					(void)rename(shim, gone);
				struct fanotify_response ok = {.fd = ev->fd, .response = FAN_ALLOW};
				(void)!write(fan, &ok, sizeof(ok));
				if (ev->fd >= 0)
					close(ev->fd);
			}
		}
	}
	close(ready[1]);
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1, "the watcher did not start");
	close(ready[0]);
	return pid;
}

/* Round 59g F1: the loader opened the shim again by its path at the
 * command's exec. Renamed away after the launcher's check (a package
 * upgrade), it was skipped with a warning, and the command ran with no
 * sandbox until the confirmation timed out. The launcher now passes the
 * very file it checked (/proc/self/fd/N): renamed after its check, the
 * command still runs sandboxed, or the launch is refused; it never writes
 * outside. Judged by the files the command makes, in the project and
 * outside; as root and as the test user. */
ParameterizedTestParameters(cli, a_shim_renamed_during_the_launch_never_leaves_it_unsandboxed)
{
	static int as_user[] = {0, 1};
	return cr_make_param_array(int, as_user, 2);
}

ParameterizedTest(int *as_user, cli, a_shim_renamed_during_the_launch_never_leaves_it_unsandboxed)
{
	struct world w;
	world_init(&w, "shimrename", "");
	if (*as_user)
		world_as_user(&w);
	char *dir = path_join(w.dir, "lib"), *shim = path_join(dir, "libcordon.so");
	char *gone = fmt("%s.gone", shim);
	char *in = path_join(w.proj, "ran"), *out = path_join(w.outside, "ran");
	cr_assert_eq(mkdir(dir, 0755), 0);
	char *setenv_shim = fmt("CORDON_SHIM=%s", shim);
	world_setenv(&w, setenv_shim);
	char *script = fmt("touch %s; touch %s 2>/dev/null; true", in, out);
	char *cmd[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	/* The rename as the launcher first opens the project after its check
	 * of the shim (its look through the project, just before the start),
	 * then as the shim is opened the second time (now the launcher's open
	 * of the fd it passes; before, the loader's own). */
	for (int i = 0; i < 2; i++) {
		unlink(gone);
		copy_exec(CORDON_SHIM_SO, shim);
		chmod(shim, 0644);
		pid_t watcher = rename_shim_at(shim, gone, i == 0 ? 0 : 2, i == 0 ? w.proj : NULL);
		struct run_result r = world_run(&w, cmd, w.proj);
		kill(watcher, SIGKILL);
		int st;
		waitpid(watcher, &st, 0);
		cr_expect_not(file_exists(out),
			      "round %d: the command ran unsandboxed (exit %d): %s", i, r.status,
			      r.err);
		if (r.status == 125)
			cr_expect(strstr(r.err, shim) && !file_exists(in), "round %d: %s", i,
				  r.err);
		else
			cr_expect(r.status == 0 && file_exists(in),
				  "round %d: neither ran sandboxed nor refused (exit %d): %s", i,
				  r.status, r.err);
		if (i == 1)
			cr_expect_eq(r.status, 0,
				     "renamed after the launcher opened it, the shim it checked "
				     "still loads: %s",
				     r.err);
		unlink(in);
		unlink(out);
		run_free(&r);
	}
	/* Control: the probe writes outside when nothing sandboxes it. */
	char *sh[] = {"/bin/sh", "-c", script, NULL};
	struct run_result c = world_run(&w, sh, w.proj);
	cr_expect(file_exists(out), "control: the probe wrote nothing outside: %s", c.err);
	run_free(&c);
	unlink(in);
	unlink(out);
	unlink(shim);
	unlink(gone);
	rmdir(dir);
	free(script), free(setenv_shim), free(in), free(out), free(gone), free(shim), free(dir);
	world_free(&w);
}

/* Round 60f F6: the loader had the shim by the name /proc/self/fd/N. A
 * program that loads a library from memory (memfd_create, then dlopen of
 * /proc/self/fd/M) was given the shim back where M came out as N: the
 * loader matches a name already loaded, and the library's symbols were
 * not found. The shim's name is /proc/self/fd/./N now. Judged by what the
 * program prints: each of its libraries, at fds 3 to 12, gives its
 * symbol. Control: the same program unsandboxed. */
ParameterizedTestParameters(cli, a_library_loaded_from_memory_is_not_taken_for_the_shim)
{
	static int as_user[] = {0, 1};
	return cr_make_param_array(int, as_user, 2);
}

ParameterizedTest(int *as_user, cli, a_library_loaded_from_memory_is_not_taken_for_the_shim)
{
	struct world w;
	world_init(&w, "memfdlib", "");
	if (*as_user)
		world_as_user(&w);
	static const char prog[] =
		"import ctypes, os\n"
		"ctypes.CDLL('libm.so.6')\n"
		"path = [l.split()[-1] for l in open('/proc/self/maps') if 'libm.so' in l][0]\n"
		"data = open(path, 'rb').read()\n"
		"ok = bad = 0\n"
		"for i in range(10):\n"
		" fd = os.memfd_create('lib%d' % i, 0)\n"
		" os.write(fd, data)\n"
		" try:\n  ctypes.CDLL('/proc/self/fd/%d' % fd).cos; ok += 1\n"
		" except (OSError, AttributeError) as e:\n  bad += 1; print('fd', fd, e)\n"
		"print('loaded %d failed %d' % (ok, bad))\n";
	char *py = write_file(w.proj, "memlib.py", prog);
	world_give(&w);
	for (int ctl = 0; ctl < 2; ctl++) {
		char *in[] = {CORDON_BIN,         "run", "--config", w.cfg, "--",
			      "/usr/bin/python3", py,    NULL};
		char *out[] = {"/usr/bin/python3", py, NULL};
		struct run_result r = world_run(&w, ctl ? out : in, w.proj);
		cr_expect(strstr(r.out, "loaded 10 failed 0"), "%s: %s%s",
			  ctl ? "control" : "inside", r.out, r.err);
		run_free(&r);
	}
	free(py);
	world_free(&w);
}

/* Limits under which the launcher died unsaid halfway (round 59g F5:
 * exit 153 from SIGXFSZ, a record left half written; 139 from a small
 * stack) are refused first, with a line; the command never runs (a
 * marker in the project). Control: without them, it runs. */
Test(cli, limits_that_would_kill_the_launcher_are_refused)
{
	struct world w;
	world_init(&w, "limits", "");
	char *marker = path_join(w.proj, "ran");
	char *touch = fmt("touch %s", marker);
	const char *limits[] = {"--fsize=4096", "--stack=65536", NULL};
	const char *says[] = {"the file size limit (ulimit -f)",
			      "the stack size limit (ulimit -s)"};
	for (int i = 0; i < 3; i++) {
		char *argv[] = {"/usr/bin/prlimit",
				(char *)(i < 2 ? limits[i] : "--nofile=1024"),
				"--",
				CORDON_BIN,
				"run",
				"--config",
				w.cfg,
				"--",
				"/bin/sh",
				"-c",
				touch,
				NULL};
		struct run_result r = run_cmd(argv, w.env, w.proj, 20000);
		if (i < 2) {
			cr_expect_eq(r.status, 125, "%s: %s", limits[i], r.err);
			cr_expect(strstr(r.err, says[i]), "%s: %s", limits[i], r.err);
			cr_expect_not(file_exists(marker), "%s: the command ran", limits[i]);
		} else {
			cr_expect(file_exists(marker), "control: %s", r.err);
		}
		unlink(marker);
		run_free(&r);
	}
	free(touch);
	free(marker);
	world_free(&w);
}

Test(cli, check_reports_what_is_enforceable)
{
	struct world w;
	world_init(&w, "check", "");
	struct run_result r = run_cordon(w.env, w.proj, "check", NULL);
	cr_expect_eq(r.status, 0, "this machine enforces the default policy: %s", r.out);
	cr_expect(strstr(r.out, "landlock:  ABI ") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "seccomp:   available") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "tracking:  cgroup") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "(built with this cordon)") != NULL, "%s", r.out);
	run_free(&r);
	/* Another library as the shim: every run would stop; check says so. */
	char *shim = fmt("CORDON_SHIM=%s", "/etc/passwd");
	char *envshim[] = {"/usr/bin/env", shim, CORDON_BIN, "check", NULL};
	r = run_cmd(envshim, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 1, "%s", r.out);
	cr_expect(strstr(r.out, "shim:      NOT usable: CORDON_SHIM=/etc/passwd") != NULL, "%s",
		  r.out);
	run_free(&r);
	free(shim);
	/* Without Landlock: not enforceable, and it says what is missing. */
	char *argv[] = {CORDON_NOLANDLOCK, CORDON_BIN, "check", NULL};
	r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "NOT fully enforceable") && strstr(r.out, "missing Landlock"), "%s",
		  r.out);
	run_free(&r);
	/* And explain says so, as run would act (round 59g F3: "sandbox: on"). */
	char *ex[] = {CORDON_NOLANDLOCK, CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = run_cmd(ex, w.env, w.proj, 20000);
	cr_expect(strstr(r.out, "NOT enforceable here: missing Landlock") &&
			  strstr(r.out, "refuses (exit 125)"),
		  "%s%s", r.out, r.err);
	run_free(&r);
	char *warn = write_file(w.dir, "warn.json", "{\"on_unsupported\": \"warn\"}");
	char *exw[] = {CORDON_NOLANDLOCK, CORDON_BIN, "explain", "--config", warn, NULL};
	r = run_cmd(exw, w.env, w.proj, 20000);
	cr_expect(strstr(r.out, "runs WITHOUT that"), "%s%s", r.out, r.err);
	run_free(&r);
	free(warn);
	world_free(&w);
}

/* A run with OPTS (a NULL-terminated list) that must be refused with 125
 * and WANT on stderr, its command never run (the marker it would write in
 * the project is judged from outside); explain with the same options is
 * refused the same way. */
static void expect_refused(struct world *w, const char *const *opts, const char *want)
{
	char *marker = path_join(w->proj, "ran");
	char *script = fmt("touch '%s'", marker);
	char *argv[24];
	int n = 0;
	argv[n++] = CORDON_BIN;
	argv[n++] = "run";
	for (size_t i = 0; opts[i]; i++)
		argv[n++] = (char *)opts[i];
	argv[n++] = "--";
	argv[n++] = "/bin/sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n] = NULL;
	struct run_result r = run_cmd(argv, w->env, w->proj, 20000);
	cr_expect_eq(r.status, 125, "%s: %s", want, r.err);
	cr_expect(strstr(r.err, want) != NULL, "want '%s': %s", want, r.err);
	cr_expect_not(file_exists(marker), "the command ran: %s", want);
	run_free(&r);
	argv[1] = "explain";
	n = 2;
	for (size_t i = 0; opts[i]; i++)
		argv[n++] = (char *)opts[i];
	argv[n] = NULL;
	r = run_cmd(argv, w->env, w->proj, 20000);
	cr_expect_eq(r.status, 125, "explain: %s: %s%s", want, r.out, r.err);
	cr_expect(strstr(r.err, want) != NULL, "explain: want '%s': %s", want, r.err);
	run_free(&r);
	free(script);
	free(marker);
}

/* What run refuses, explain refuses: a project that is a file (explain
 * showed "sandbox: on"), a write rule on / (as --project / is), a config
 * given twice (the first, restrictive one was dropped), --allow-env
 * patterns the config refuses. Control: the same run without them runs. */
Test(cli, refused_alike_by_run_and_explain)
{
	struct world w;
	world_init(&w, "refalike", "");
	char *file = write_file(w.dir, "afile", "");
	char *nonet = write_file(w.dir, "nonet.json", "{\"allow_network\": false}");
	char *want = fmt("%s: project directory: Not a directory", file);
	expect_refused(&w, (const char *[]){"--project", file, NULL}, want);
	free(want);
	expect_refused(&w, (const char *[]){"--allow-write", "/", NULL},
		       "cordon: --allow-write /: the whole file system would be writable");
	/* Through "..": run names it as given (the kernel resolves its rules),
	 * explain as resolved. */
	expect_refused(&w, (const char *[]){"--allow-write", "/proc/..", NULL},
		       ": the whole file system would be writable");
	char *rootcfg =
		write_file(w.dir, "root.json", "{\"additional_read_write_paths\": [\"/\"]}");
	want = fmt("cordon: %s: additional_read_write_paths: /: the whole file system", rootcfg);
	expect_refused(&w, (const char *[]){"--config", rootcfg, NULL}, want);
	free(want);
	expect_refused(&w, (const char *[]){"--config", nonet, "--config", w.cfg, NULL},
		       "cordon: --config: given twice");
	expect_refused(&w, (const char *[]){"--allow-env", "*", NULL},
		       "cordon: --allow-env: expected a variable name");
	expect_refused(&w, (const char *[]){"--allow-env", "LD_PRELOAD", NULL},
		       "cordon: --allow-env: LD_PRELOAD never passes into a session");

	/* Control: a directory, one --config, a name: the command runs. */
	char *marker = path_join(w.proj, "ran");
	char *script = fmt("touch '%s'", marker);
	struct run_result r = run_cordon(w.env, w.proj, "run", "--project", w.proj, "--config",
					 nonet, "--allow-write", w.outside, "--allow-env", "A_B*",
					 "--", "/bin/sh", "-c", script, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(file_exists(marker), "control: the command did not run: %s", r.err);
	run_free(&r);
	free(script);
	free(marker);
	free(rootcfg);
	free(nonet);
	free(file);
	world_free(&w);
}

/* A link at the default config path whose file is gone means no built-in
 * defaults: refused, naming it (the run never starts). Control: the link
 * fixed, the config it leads to applies. */
Test(cli, dangling_default_config_link_stops_everything)
{
	struct world w;
	world_init(&w, "dangling", "");
	char *dir = path_join(w.home, ".config/cordon");
	free(write_file(dir, "keep", ""));
	char *link = path_join(dir, "config.json");
	char *target = path_join(w.dir, "dotfiles/cordon.json");
	cr_assert_eq(symlink(target, link), 0);
	char *want = fmt("cordon: %s: a symbolic link to %s, which does not exist", link, target);
	expect_refused(&w, (const char *[]){NULL}, want);
	free(want);
	free(write_file(w.dir, "dotfiles/cordon.json", "{\"enabled\": false}"));
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c",
					 "echo \"sandbox=$CORDON_SANDBOX\"", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "sandbox=0") != NULL, "control: the linked config: %s%s", r.out,
		  r.err);
	run_free(&r);
	free(target);
	free(link);
	free(dir);
	world_free(&w);
}

/* With the sandbox off (enabled false, or apply_to not covering --kind),
 * the run passes the whole environment, and explain says so instead of the
 * list. Control: with it on, the list, and the variable does not pass. */
Test(cli, explain_environment_with_the_sandbox_off)
{
	struct world w;
	world_init(&w, "envoff", "");
	char *off = write_file(w.dir, "off.json", "{\"enabled\": false}");
	char *term = write_file(w.dir, "term.json", "{\"apply_to\": \"terminal\"}");
	const char *cases[][3] = {{off, "terminal", "SECRET_TOKEN=hunter2"},
				  {term, "tool", "SECRET_TOKEN=hunter2"},
				  {term, "terminal", "SECRET_TOKEN=unset"}};
	for (size_t i = 0; i < 3; i++) {
		struct run_result r = run_cordon(
			w.env, w.proj, "run", "--config", cases[i][0], "--kind", cases[i][1], "--",
			"/bin/sh", "-c", "echo \"SECRET_TOKEN=${SECRET_TOKEN-unset}\"", NULL);
		cr_expect_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.out, cases[i][2]) != NULL, "case %zu: %s", i, r.out);
		run_free(&r);
		bool passed = strstr(cases[i][2], "hunter2") != NULL;
		r = run_cordon(w.env, w.proj, "explain", "--config", cases[i][0], "--kind",
			       cases[i][1], NULL);
		cr_expect_eq(r.status, 0, "%s", r.err);
		char *line = strstr(r.out, "\nenvironment:");
		cr_assert_not_null(line, "%s", r.out);
		static const char off_line[] = "\nenvironment:    all of it (sandbox off)";
		static const char on_line[] = "\nenvironment:    PATH HOME";
		cr_expect_eq(strncmp(line, off_line, strlen(off_line)) == 0, passed, "case %zu: %s",
			     i, line);
		cr_expect_eq(strncmp(line, on_line, strlen(on_line)) == 0, !passed, "case %zu: %s",
			     i, line);
		run_free(&r);
	}
	free(term);
	free(off);
	world_free(&w);
}

/* The shell-history directory a run makes writable is in explain's rules,
 * and explain of a file there says where its access comes from. Judged
 * from outside: the run's file is where explain said. */
Test(cli, explain_shows_the_history_directory)
{
	struct world w;
	world_init(&w, "explhist", "");
	struct run_result r = run_cordon(w.env, w.proj, "run", "--", "/bin/sh", "-c",
					 "echo planted > \"$CORDON_HISTORY_DIR/planted\"; "
					 "echo \"$CORDON_HISTORY_DIR\"",
					 NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *dir = strdup(r.out);
	dir[strcspn(dir, "\n")] = '\0';
	cr_assert(strncmp(dir, w.home, strlen(w.home)) == 0, "%s", dir);
	char *planted = path_join(dir, "planted");
	cr_expect(contains(planted, "planted"), "the run did not write %s", planted);
	run_free(&r);
	char *canon = realpath(dir, NULL);
	cr_assert_not_null(canon);
	r = run_cordon(w.env, w.proj, "explain", planted, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *rule = fmt("rwx     %s  (history)", canon);
	cr_expect(strstr(r.out, rule) != NULL, "%s not in:\n%s", rule, r.out);
	char *said = fmt("access: rwx (from history: %s)", canon);
	cr_expect(strstr(r.out, said) != NULL, "%s not in:\n%s", said, r.out);
	run_free(&r);
	free(said);
	free(rule);
	free(canon);
	free(planted);
	free(dir);
	world_free(&w);
}

/* A rule naming a hidden path itself exposes it (documented): the run says
 * so in one line, and explain lists it and proposes nothing more for it
 * (it proposed a write rule on the key). Judged from outside: the key is
 * printed only where the line is. Control: without the rule, no line and
 * no key. */
Test(cli, exposed_hidden_path_is_said)
{
	struct world w;
	world_init(&w, "exposed", "");
	char *ssh = path_join(w.home, ".ssh");
	char *key = write_file(ssh, "id_test", "PRIVATE-KEY-" SECRET "\n");
	char *line = fmt("cordon: %s is in hidden_paths (default), but --allow-read names it: not "
			 "hidden in this session\n",
			 ssh);
	struct run_result r =
		run_cordon(w.env, w.proj, "run", "--allow-read", ssh, "--", "/bin/cat", key, NULL);
	cr_expect(strstr(r.out, "PRIVATE-KEY-") != NULL, "exposed, as documented: %s", r.err);
	cr_expect(strstr(r.err, line) != NULL, "not said: %s", r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "run", "--", "/bin/cat", key, NULL);
	cr_expect_null(strstr(r.out, "PRIVATE-KEY-"), "control: the key was read");
	cr_expect_null(strstr(r.err, "not hidden"), "control: said without a rule: %s", r.err);
	run_free(&r);
	/* cordon's registry named: what a session could then change there is
	 * said too (round 35d X4). (Root's: /run/cordon, and its lasting
	 * state /var/lib/cordon.) */
	for (int k = 0; geteuid() == 0 && k < 2; k++) {
		const char *dir = k ? "/var/lib/cordon" : "/run/cordon";
		r = run_cordon(w.env, w.proj, "run", "--allow-read", dir, "--", "/bin/true", NULL);
		char *said = fmt("cordon: %s is in cordon's state, but --allow-read "
				 "names it: not hidden in this session; what a session "
				 "writes there, later sessions trust",
				 dir);
		cr_expect(strstr(r.err, said), "%s", r.err);
		free(said);
		run_free(&r);
	}

	r = run_cordon(w.env, w.proj, "explain", "--allow-read", ssh, key, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	char *listed =
		fmt("exposed   %s  (in hidden_paths (default), but --allow-read names it", ssh);
	cr_expect(strstr(r.out, listed) != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "not hidden in this session; a credential store") != NULL, "%s",
		  r.out);
	cr_expect_null(strstr(r.out, "to allow"), "a line proposed for a credential store: %s",
		       r.out);
	run_free(&r);

	/* The config's own hidden_paths entry, named by its own rule. */
	char *json = fmt("{\"hidden_paths\": [\"%s\"], \"additional_read_only_paths\": [\"%s\"]}",
			 key, key);
	char *cfg = write_file(w.dir, "c.json", json);
	free(json);
	r = run_cordon(w.env, w.proj, "run", "--config", cfg, "--", "/bin/cat", key, NULL);
	char *conflict = fmt("cordon: %s is in hidden_paths, but additional_read_only_paths names "
			     "it: not hidden in this session",
			     key);
	cr_expect(strstr(r.err, conflict) != NULL, "%s", r.err);
	run_free(&r);
	free(conflict);
	free(cfg);
	free(listed);
	free(line);
	free(key);
	free(ssh);
	world_free(&w);
}
