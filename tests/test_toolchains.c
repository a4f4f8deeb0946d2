/* Toolchain presets (issue 21): a fake pyenv and a fake cargo in the world's
 * home, run through cordon with and without the preset; judged from
 * outside: the marker a tool writes, a file's content, what check prints. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape/both.h"
#include "helpers.h"

/* DIR/NAME with CONTENT, mode 0755. */
static void script(const char *dir, const char *name, const char *content)
{
	char *p = write_file(dir, name, content);
	cr_assert_eq(chmod(p, 0755), 0, "chmod %s", p);
	free(p);
}

/* ~/.pyenv as pyenv lays it out: bin/pyenv, shims/python that execs into
 * versions/3.12.0/bin/python, which writes "python ARGS" to its first
 * argument (a marker file). */
static void fake_pyenv(const struct world *w)
{
	char *root = path_join(w->home, ".pyenv");
	script(root, "bin/pyenv", "#!/bin/sh\necho 'export PYENV_SHELL=sh'\n");
	script(root, "versions/3.12.0/bin/python", "#!/bin/sh\necho \"python $*\" > \"$1\"\n");
	char *shim = fmt("#!/bin/sh\nexec '%s/versions/3.12.0/bin/python' \"$@\"\n", root);
	script(root, "shims/python", shim);
	free(shim);
	free(root);
}

/* ~/.cargo: bin/cargo writes "cargo ARGS" to its first argument, env sets
 * CARGO_ENV_SOURCED, credentials.toml holds a token. */
static void fake_cargo(const struct world *w, const char *dir)
{
	char *root = path_join(w->home, dir);
	script(root, "bin/cargo", "#!/bin/sh\necho \"cargo $*\" > \"$1\"\n");
	free(write_file(root, "env", "CARGO_ENV_SOURCED=yes\n"));
	free(write_file(root, "credentials.toml", "[registry]\ntoken = \"" SECRET "\"\n"));
	free(root);
}

/* A config file outside the project: WORLD_BASE_RW and EXTRA. */
static char *config(const struct world *w, const char *name, const char *extra)
{
	char *json = fmt("{" WORLD_BASE_RW "%s}", extra);
	char *p = write_file(w->dir, name, json);
	free(json);
	return p;
}

/* The shim'd python refuses without the preset (up front, and through a
 * shell), and runs with "toolchains": ["python"] and with --toolchain
 * python; pip's cache is then made and writable. */
BOTH_USERS(toolchains, python_preset_runs_pyenv_shims, .timeout = 120)
{
	struct world w;
	world_init(&w, "tcpy", "");
	fake_pyenv(&w);
	char *without = config(&w, "without.json", "");
	char *with = config(&w, "with.json", ", \"toolchains\": [\"python\"]");
	if (who->user)
		world_as_user(&w);
	char *orig = w.cfg;
	char *shim = fmt("%s/.pyenv/shims/python", w.home);
	char *marker = path_join(w.proj, "ran-python");
	char *cache = fmt("%s/.cache/pip", w.home);

	/* Control: outside, the fake pyenv works. */
	char *outside = fmt("'%s' '%s'", shim, marker);
	struct run_result r = sh_outside(&w, outside);
	cr_assert(contains(marker, "python"), "the fake python does not run outside: %s", r.err);
	run_free(&r);
	unlink(marker);

	w.cfg = without;
	r = run_in(&w, NULL, (char *[]){shim, marker, NULL});
	cr_expect_not(file_exists(marker), "python ran without the preset");
	cr_expect_eq(r.status, 125, "status %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "add to your config: \"toolchains\": [\"python\"]"),
		  "the refusal does not name the preset: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "'%s' '%s'", shim, marker);
	cr_expect_not(file_exists(marker), "python ran through a shell without the preset");
	cr_expect(strstr(r.err, "Permission denied") != NULL, "%s", r.err);
	run_free(&r);
	cr_expect_not(file_exists(cache), "pip's cache was made without the preset");

	const char *ways[] = {"config", "--toolchain"};
	for (size_t i = 0; i < 2; i++) {
		w.cfg = i == 0 ? with : without;
		r = sh_in(&w, i == 0 ? NULL : "--toolchain python",
			  "'%s' '%s' && echo cached > \"$HOME/.cache/pip/wheel\"", shim, marker);
		cr_expect(contains(marker, "python"), "%s: python did not run: %s", ways[i], r.err);
		char *wheel = path_join(cache, "wheel");
		cr_expect(contains(wheel, "cached"), "%s: pip's cache is not writable: %s", ways[i],
			  r.err);
		struct stat st;
		cr_expect(stat(cache, &st) == 0 && (st.st_mode & 0777) == 0700 &&
				  st.st_uid == (who->user ? w.uid : 0),
			  "%s: pip's cache was not made private and the user's", ways[i]);
		unlink(wheel);
		unlink(marker);
		free(wheel);
		run_free(&r);
	}
	w.cfg = orig;
	free(without);
	free(with);
	free(shim);
	free(marker);
	free(cache);
	free(outside);
	world_free(&w);
}

/* rust: cargo runs and ~/.cargo/env can be sourced; the registry is
 * writable, ~/.cargo/bin is not (cargo unchanged, judged outside), and
 * credentials.toml is not read (its content never reaches the project),
 * though the user reads it outside. */
BOTH_USERS(toolchains, rust_preset_keeps_credentials_and_bin, .timeout = 90)
{
	struct world w;
	world_init(&w, "tcrust", ", \"toolchains\": [\"rust\"]");
	fake_cargo(&w, ".cargo");
	if (who->user)
		world_as_user(&w);
	char *cargo_dir = path_join(w.home, ".cargo");
	char *cargo = path_join(cargo_dir, "bin/cargo");
	char *before = read_file(cargo);
	char *creds_out = path_join(w.proj, "creds.txt");

	struct run_result r = sh_outside(&w, "cat \"$HOME/.cargo/credentials.toml\" > creds.txt");
	cr_assert(contains(creds_out, SECRET), "control: the user cannot read it outside");
	run_free(&r);
	unlink(creds_out);

	r = sh_in(&w, NULL,
		  "'%s' ran-cargo build;"
		  ". \"$HOME/.cargo/env\" && echo \"$CARGO_ENV_SOURCED\" > env-sourced;"
		  "echo crate > \"$HOME/.cargo/registry/crate\";"
		  "echo evil > \"$HOME/.cargo/bin/cargo\";"
		  "echo evil > \"$HOME/.cargo/bin/rustc\";"
		  "cat \"$HOME/.cargo/credentials.toml\" > creds.txt; true",
		  cargo);
	char *ran = path_join(w.proj, "ran-cargo"), *sourced = path_join(w.proj, "env-sourced"),
	     *crate = path_join(cargo_dir, "registry/crate"),
	     *rustc = path_join(cargo_dir, "bin/rustc");
	cr_expect(contains(ran, "cargo ran-cargo build"), "cargo did not run: %s", r.err);
	cr_expect(contains(sourced, "yes"), "~/.cargo/env was not sourced: %s", r.err);
	cr_expect(contains(crate, "crate"), "the registry is not writable: %s", r.err);
	char *after = read_file(cargo);
	cr_expect(after && before && strcmp(before, after) == 0, "~/.cargo/bin/cargo was changed");
	cr_expect_not(file_exists(rustc), "a file was made in ~/.cargo/bin");
	cr_expect_not(contains(creds_out, SECRET), "credentials.toml was read inside");
	run_free(&r);
	free(after);
	free(before);
	free(ran);
	free(sourced);
	free(crate);
	free(rustc);
	free(cargo);
	free(cargo_dir);
	free(creds_out);
	world_free(&w);
}

/* CARGO_HOME moves the preset with it; one that lies in a hidden path
 * (here ~/.aws) is not granted at all. */
BOTH_USERS(toolchains, cargo_home_is_followed_but_never_into_a_hidden_path, .timeout = 90)
{
	const char *homes[] = {"cargo2", ".aws/cargo"};
	for (size_t i = 0; i < 2; i++) {
		struct world w;
		world_init(&w, "tccargohome", ", \"toolchains\": [\"rust\"]");
		fake_cargo(&w, homes[i]);
		if (who->user)
			world_as_user(&w);
		char *home = path_join(w.home, homes[i]);
		char *kv = fmt("CARGO_HOME=%s", home);
		world_setenv(&w, kv);
		struct run_result r = sh_in(&w, NULL, "'%s/bin/cargo' ran-cargo; true", home);
		char *ran = path_join(w.proj, "ran-cargo");
		if (i == 0)
			cr_expect(contains(ran, "cargo"), "CARGO_HOME was not followed: %s", r.err);
		else
			cr_expect_not(file_exists(ran), "a preset granted a hidden path");
		run_free(&r);
		free(ran);
		free(kv);
		free(home);
		world_free(&w);
	}
}

/* An unknown preset stops the session: 125, one line naming the key, the
 * value and the valid names; nothing runs. The same with --toolchain. */
Test(toolchains, unknown_preset_is_a_config_error)
{
	struct world w;
	world_init(&w, "tcunknown", ", \"toolchains\": [\"python\", \"pyhton\"]");
	char *marker = path_join(w.proj, "ran");
	struct run_result r = sh_in(&w, NULL, "echo ran > ran");
	cr_expect_eq(r.status, 125, "status %d", r.status);
	cr_expect_not(file_exists(marker), "the command ran");
	cr_expect(strstr(r.err, "toolchains[1]") && strstr(r.err, "\"pyhton\"") &&
			  strstr(r.err, "python, rust, node, go, local-bin"),
		  "%s", r.err);
	cr_expect(strncmp(r.err, "cordon: ", 8) == 0 && strchr(r.err, '\n') == strrchr(r.err, '\n'),
		  "not one line: %s", r.err);
	run_free(&r);

	char *good = config(&w, "good.json", "");
	char *orig = w.cfg;
	w.cfg = good;
	r = sh_in(&w, "--toolchain nodejs", "echo ran > ran");
	cr_expect_eq(r.status, 125, "status %d", r.status);
	cr_expect_not(file_exists(marker), "the command ran");
	cr_expect(strstr(r.err, "--toolchain") && strstr(r.err, "\"nodejs\""), "%s", r.err);
	run_free(&r);
	/* Control: a known name runs. */
	r = sh_in(&w, "--toolchain node", "echo ran > ran");
	cr_expect(contains(marker, "ran"), "%s", r.err);
	run_free(&r);
	w.cfg = orig;
	free(good);
	free(marker);
	world_free(&w);
}

/* The go preset lets the Go variables through; without it they are dropped. */
Test(toolchains, go_preset_passes_go_env)
{
	struct world w;
	world_init(&w, "tcgo", "");
	char *with = config(&w, "with.json", ", \"toolchains\": [\"go\"]");
	const char *vars[] = {"GOROOT=/usr/local/go",
			      "GOFLAGS=-mod=mod",
			      "GOPROXY=https://proxy.golang.org",
			      "GOPRIVATE=example.com/*",
			      "GONOSUMDB=example.com",
			      "GONOPROXY=example.com",
			      "GOTOOLCHAIN=local"};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		world_setenv(&w, vars[i]);
	char *out = path_join(w.proj, "env.txt");
	char *orig = w.cfg;
	for (int k = 0; k < 2; k++) {
		w.cfg = k ? with : orig;
		struct run_result r = sh_in(&w, NULL, "env > env.txt");
		cr_assert_eq(r.status, 0, "%s", r.err);
		char *env = read_file(out);
		cr_assert_not_null(env);
		for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
			char *line = fmt("\n%s\n", vars[i]);
			char *env_nl = fmt("\n%s", env);
			if (k)
				cr_expect(strstr(env_nl, line), "go preset: %s missing", vars[i]);
			else
				cr_expect_not(strstr(env_nl, line), "without it: %s passed",
					      vars[i]);
			free(env_nl);
			free(line);
		}
		free(env);
		run_free(&r);
	}
	w.cfg = orig;
	free(with);
	free(out);
	world_free(&w);
}

/* explain names the preset as the rule's source. */
Test(toolchains, explain_names_the_preset)
{
	struct world w;
	world_init(&w, "tcexplain", ", \"toolchains\": [\"python\"]");
	fake_pyenv(&w);
	char *shim = fmt("%s/.pyenv/shims/python", w.home);
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, shim, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "access: r-x") && strstr(r.out, "toolchains: python"), "%s", r.out);
	run_free(&r);
	free(shim);
	world_free(&w);
}

/* cordon check, with PATH holding the fake ~/.pyenv/shims, a tool directory
 * outside the presets and the home itself, and a ~/.bashrc sourcing
 * ~/.cargo/env: one line for each, and the line that fixes them, naming the
 * presets and the tool directory but never the home. With the presets and
 * the directory in the config: nothing about them. The exit status is
 * check's own either way. */
BOTH_USERS(toolchains, check_lists_what_will_not_execute, .timeout = 90)
{
	struct world w;
	world_init(&w, "tccheck", "");
	fake_pyenv(&w);
	fake_cargo(&w, ".cargo");
	char *tools = path_join(w.outside, "tools/bin");
	script(tools, "tool", "#!/bin/sh\n");
	free(write_file(w.home, ".bashrc",
			"# rust\n"
			"export PYENV_ROOT=\"$HOME/.pyenv\"\n"
			"[ -f \"$HOME/.cargo/env\" ] && . \"$HOME/.cargo/env\"\n"
			"eval \"$($PYENV_ROOT/bin/pyenv init -)\"\n"
			"alias ll='ls -l'\n"));
	char *plain = config(&w, "plain.json", "");
	char *fixed_extra = fmt(", \"toolchains\": [\"python\", \"rust\"], "
				"\"additional_executable_paths\": [\"%s\"]",
				tools);
	char *fixed = config(&w, "fixed.json", fixed_extra);
	free(fixed_extra);
	if (who->user)
		world_as_user(&w);
	/* No system directory: a system npm or go would add its cache's line. */
	char *path = fmt("PATH=%s/.pyenv/shims:%s:%s", w.home, tools, w.home);
	world_setenv(&w, path);

	char *cfgs[] = {plain, fixed};
	int status[2];
	for (int k = 0; k < 2; k++) {
		char *argv[] = {CORDON_BIN, "check", "--config", cfgs[k], NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		status[k] = r.status;
		cr_expect(r.status == 0 || r.status == 1, "check failed (%d): %s", r.status, r.err);
		const char *want[] = {"PATH has ~/.pyenv/shims: does not execute",
				      "~/.bashrc:3 sources ~/.cargo/env: not readable",
				      "~/.bashrc:4 runs ~/.pyenv/bin/pyenv: does not execute",
				      "\"toolchains\": [\"python\", \"rust\"]",
				      "\"additional_executable_paths\": [\""};
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (k == 0)
				cr_expect(strstr(r.out, want[i]), "missing %s:\n%s", want[i],
					  r.out);
			else
				cr_expect_not(strstr(r.out, want[i]), "with the presets: %s\n%s",
					      want[i], r.out);
		char *tool_line = fmt("\"additional_executable_paths\": [\"%s\"]", tools);
		char *home_line = fmt("PATH has ~: does not execute in a session (---); no line "
				      "suggested");
		if (k == 0) {
			cr_expect(strstr(r.out, tool_line), "%s\n%s", tool_line, r.out);
			cr_expect(strstr(r.out, home_line), "%s\n%s", home_line, r.out);
		} else {
			cr_expect_not(strstr(r.out, tools), "%s", r.out);
			cr_expect_not(strstr(r.out, "to fix"), "%s", r.out);
		}
		char *quoted_home = fmt("\"%s\"", w.home);
		cr_expect_not(strstr(r.out, quoted_home), "the home was suggested:\n%s", r.out);
		free(quoted_home);
		free(tool_line);
		free(home_line);
		run_free(&r);
	}
	cr_expect_eq(status[0], status[1], "the findings changed check's exit status");
	free(path);
	free(plain);
	free(fixed);
	free(tools);
	world_free(&w);
}

/* A tool on PATH that runs in a session but whose download cache the
 * session cannot write (a system npm and ~/.npm: "npm error enoent", nothing
 * naming cordon): cordon check names the cache and the preset; with the
 * preset, nothing. */
BOTH_USERS(toolchains, check_names_a_tool_whose_cache_is_not_writable, .timeout = 60)
{
	struct world w;
	world_init(&w, "tccache", "");
	char *tools = path_join(w.outside, "tools/bin");
	script(tools, "npm", "#!/bin/sh\n");
	char *extra = fmt(", \"additional_executable_paths\": [\"%s\"]", tools);
	char *plain = config(&w, "plain.json", extra);
	char *with_extra = fmt("%s, \"toolchains\": [\"node\"]", extra);
	char *fixed = config(&w, "fixed.json", with_extra);
	if (who->user)
		world_as_user(&w);
	char *path = fmt("PATH=%s", tools);
	world_setenv(&w, path);
	char *line = fmt("PATH has %s/npm: its cache ~/.npm is not writable in a session "
			 "(---); toolchain node",
			 tools);
	char *cfgs[] = {plain, fixed};
	for (int k = 0; k < 2; k++) {
		char *argv[] = {CORDON_BIN, "check", "--config", cfgs[k], NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		cr_expect(r.status == 0 || r.status == 1, "check failed (%d): %s", r.status, r.err);
		if (k == 0) {
			cr_expect(strstr(r.out, line), "missing %s:\n%s", line, r.out);
			cr_expect(strstr(r.out, "\"toolchains\": [\"node\"]"), "%s", r.out);
		} else {
			cr_expect_not(strstr(r.out, "~/.npm"), "with the preset:\n%s", r.out);
			cr_expect_not(strstr(r.out, "to fix"), "with the preset:\n%s", r.out);
		}
		run_free(&r);
	}
	free(line);
	free(path);
	free(fixed);
	free(with_extra);
	free(plain);
	free(extra);
	free(tools);
	world_free(&w);
}

/* An interactive shell says, in one line before its rc files complain, what
 * on PATH does not execute and the line that fixes it; with the preset it
 * says nothing of it, and a command (an agent's) never hears it. */
BOTH_USERS(toolchains, terminal_start_names_what_will_not_execute, .timeout = 90)
{
	struct world w;
	world_init(&w, "tchint", "");
	fake_pyenv(&w);
	free(write_file(w.home, ".bashrc", "eval \"$(pyenv init -)\"\n"));
	char *plain = config(&w, "plain.json", "");
	char *fixed = config(&w, "fixed.json", ", \"toolchains\": [\"python\"]");
	if (who->user)
		world_as_user(&w);
	char *path = fmt("PATH=%s/.pyenv/shims:/usr/bin:/bin", w.home);
	world_setenv(&w, path);
	const char *hint = "cordon: ~/.pyenv/shims (your PATH and rc files) does not execute "
			   "in this session; to allow it, add to your config \"toolchains\": "
			   "[\"python\"]";
	char *cfgs[] = {plain, fixed};
	for (int k = 0; k < 2; k++) {
		char *argv[] = {CORDON_BIN, "run", "--config", cfgs[k], "--", NULL};
		/* An interactive shell: no command after "--" is not allowed, so
		 * none at all. */
		argv[4] = NULL;
		int master;
		char *name;
		pid_t pid = world_pty_spawn(&w, argv, &master, &name);
		char out[16384] = "";
		/* bash's own prompt: root's ends in "# ". */
		pty_read_until(master, who->user ? "$ " : "# ", 10000, out, sizeof(out), false);
		cr_assert_eq(write(master, "exit\n", 5), 5);
		int st = 0;
		for (long end = ms_now() + 10000;
		     ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
			pty_read_until(master, NULL, 50, out, sizeof(out), false);
		if (k == 0)
			cr_expect(strstr(out, hint) != NULL, "not said:\n%s", out);
		else
			cr_expect_null(strstr(out, "does not execute"), "said with the preset:\n%s",
				       out);
		/* pyenv's rehash cannot write its shims: said, with the preset. */
		if (k == 1)
			cr_expect(strstr(out, "\"pyenv: cannot rehash\" is expected") != NULL,
				  "not said:\n%s", out);
		close(master);
		free(name);
	}
	char *argv[] = {CORDON_BIN, "run", "--config", plain, "--", "/bin/true", NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char out[8192] = "";
	int st = 0;
	for (long end = ms_now() + 10000; ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
		pty_read_until(master, NULL, 50, out, sizeof(out), false);
	cr_expect_null(strstr(out, "does not execute"), "said to a command:\n%s", out);
	close(master);
	free(name);
	free(path);
	free(plain);
	free(fixed);
	world_free(&w);
}
