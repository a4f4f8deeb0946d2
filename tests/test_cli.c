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
#include <sys/stat.h>

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
	{"{\"additional_env_vars\": [\"LD_PRELOAD\"]}",
	 "additional_env_vars[0]: LD_PRELOAD never passes into a session"},
	{"{\"toolchains\": [\"go\", \"go\"]}", "toolchains[1]: \"go\" is given twice"},
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

Test(cli, explain_lists_rules_and_paths)
{
	struct world w;
	world_init(&w, "explain", "");
	char *cfg = write_file(w.dir, "c.json",
			       "{\"additional_read_only_paths\": [\"~/docs\", \"~/gone\"]}");
	char *docs = path_join(w.home, "docs");
	mkdir(docs, 0755);
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", cfg, "/usr/bin/ls",
					 "/root/.ssh/id_rsa", docs, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, cfg) != NULL, "names the config: %s", r.out);
	cr_expect(strstr(r.out, "rwx     ") && strstr(r.out, "(project)"), "%s", r.out);
	cr_expect(strstr(r.out, "r-x     /usr/bin  (system_paths.executable (default))") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "~/gone (additional_read_only_paths)") != NULL,
		  "skipped path listed: %s", r.out);
	cr_expect(strstr(r.out, "/usr/bin/ls\n  access: r-x") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "/root/.ssh/id_rsa\n  access: ---") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "\"additional_read_only_paths\": [\"/root/.ssh/id_rsa\"]") != NULL,
		  "%s", r.out);
	run_free(&r);
	free(docs);
	free(cfg);
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
	run_free(&r);
	/* Without Landlock: not enforceable, and it says what is missing. */
	char *argv[] = {CORDON_NOLANDLOCK, CORDON_BIN, "check", NULL};
	r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.out, "NOT fully enforceable") && strstr(r.out, "missing Landlock"), "%s",
		  r.out);
	run_free(&r);
	world_free(&w);
}
