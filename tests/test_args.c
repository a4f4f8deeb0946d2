/* Command-line parsing (launcher/args.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

/* The parsed arguments point into argv, so argv must outlive the assertion
 * the call sits in: a static array per call site, not a compound literal. */
#define PARSE(a, err, ...)                                                                         \
	({                                                                                         \
		static char *argv_[] = {"cordon", __VA_ARGS__, NULL};                              \
		cordon_args_parse((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_, a, err);     \
	})

Test(args, run_with_everything)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "run", "--config", "/c.json", "-p", "/proj", "--kind", "tool",
			   "--allow-read", "/r1", "--allow-read", "/r2", "--allow-write", "/w",
			   "--allow-exec", "/x", "--no-network", "--allow-env", "TOKEN", "-v", "--",
			   "ls", "-l"),
		     0, "%s", err.msg);
	cr_expect_eq(a.cmd, CORDON_CMD_RUN);
	cr_expect_str_eq(a.config, "/c.json");
	cr_expect_str_eq(a.project, "/proj");
	cr_expect_eq(a.kind, CORDON_KIND_TOOL);
	cr_expect_eq(a.extra[CORDON_CLASS_RO].n, 2);
	cr_expect_str_eq(a.extra[CORDON_CLASS_RO].v[1], "/r2");
	cr_expect_str_eq(a.extra[CORDON_CLASS_RW].v[0], "/w");
	cr_expect_str_eq(a.extra[CORDON_CLASS_EXEC].v[0], "/x");
	cr_expect(a.no_network);
	cr_expect(a.verbose);
	cr_expect_str_eq(a.extra_env.v[0], "TOKEN");
	cr_assert_eq(a.n_rest, 2);
	cr_expect_str_eq(a.rest[0], "ls");
	cr_expect_str_eq(a.rest[1], "-l");
	cordon_args_free(&a);
}

Test(args, run_defaults_and_no_command)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "run"), 0, "%s", err.msg);
	cr_expect_eq(a.kind, CORDON_KIND_TERMINAL);
	cr_expect_eq(a.n_rest, 0, "no command: the login shell");
	cr_expect_null(a.config);
	cordon_args_free(&a);
}

Test(args, options_after_the_command_belong_to_it)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "run", "grep", "--config", "x"), 0, "%s", err.msg);
	cr_expect_null(a.config);
	cr_assert_eq(a.n_rest, 3);
	cr_expect_str_eq(a.rest[1], "--config");
	cordon_args_free(&a);
	cr_assert_eq(PARSE(&a, &err, "run", "--config=/c", "--", "--weird-cmd"), 0, "%s", err.msg);
	cr_expect_str_eq(a.config, "/c");
	cr_expect_str_eq(a.rest[0], "--weird-cmd");
	cordon_args_free(&a);
}

/* Patterns as the config takes them, and names in any case. */
Test(args, allow_env_takes_names_and_prefixes)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "run", "--allow-env", "LC_*", "--allow-env", "npm_config_*",
			   "--allow-env", "_X1"),
		     0, "%s", err.msg);
	cr_assert_eq(a.extra_env.n, 3);
	cr_expect_str_eq(a.extra_env.v[1], "npm_config_*");
	cordon_args_free(&a);
}

Test(args, explain_paths)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "explain", "--project", "/p", "/etc/passwd", "~/.ssh"), 0,
		     "%s", err.msg);
	cr_expect_eq(a.cmd, CORDON_CMD_EXPLAIN);
	cr_expect_eq(a.n_rest, 2);
	cordon_args_free(&a);
}

Test(args, help_forms)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "run", "--help"), 0);
	cr_expect(a.help);
	cr_expect_eq(a.cmd, CORDON_CMD_RUN);
	cordon_args_free(&a);
	cr_assert_eq(PARSE(&a, &err, "help", "explain"), 0);
	cr_expect(a.help);
	cr_expect_eq(a.cmd, CORDON_CMD_EXPLAIN);
	cr_assert_eq(PARSE(&a, &err, "--help"), 0);
	cr_expect_eq(a.cmd, CORDON_CMD_HELP);
	cr_assert_eq(PARSE(&a, &err, "check", "-h"), 0);
	cr_expect(a.help);
	/* help's own --help is the general one (46b F8: "unknown command"). */
	cr_assert_eq(PARSE(&a, &err, "help", "--help"), 0, "%s", err.msg);
	cr_expect_eq(a.cmd, CORDON_CMD_HELP);
	cr_assert_eq(PARSE(&a, &err, "help", "help"), 0, "%s", err.msg);
	cr_expect_eq(a.cmd, CORDON_CMD_HELP);
	cr_expect(strstr(cordon_usage(CORDON_CMD_RUN), "--allow-write") != NULL);
	cr_expect(strstr(cordon_usage(CORDON_CMD_NONE), "explain") != NULL);
}

struct bad {
	const char *argv[8];
	int argc;
	const char *expect;
};

/* check parses the config a run would use, or the one --config names. */
Test(args, check_takes_a_config)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	cr_assert_eq(PARSE(&a, &err, "check", "--config", "/c.json"), 0, "%s", err.msg);
	cr_expect_eq(a.cmd, CORDON_CMD_CHECK);
	cr_expect_str_eq(a.config, "/c.json");
	cordon_args_free(&a);
	cr_assert_eq(PARSE(&a, &err, "check", "-c", "/d.json"), 0, "%s", err.msg);
	cr_expect_str_eq(a.config, "/d.json");
	cordon_args_free(&a);
}

Test(args, errors_name_the_option)
{
	static const struct bad cases[] = {
		{{"cordon", "frobnicate"}, 2, "unknown command 'frobnicate'"},
		{{"cordon", "run", "--kind", "daemon"},
		 4,
		 "--kind: expected \"terminal\" or \"tool\""},
		{{"cordon", "run", "--bogus"}, 3, "unknown option '--bogus'"},
		{{"cordon", "run", "--config"}, 3, "--config: missing argument"},
		/* A short option last on the line: getopt leaves nothing to name
		 * it by ("(null): missing argument" before). */
		{{"cordon", "run", "-p"}, 3, "-p: missing argument"},
		{{"cordon", "run", "-c"}, 3, "-c: missing argument"},
		{{"cordon", "run", "-vp"}, 3, "-p: missing argument"},
		{{"cordon", "explain", "-p"}, 3, "-p: missing argument"},
		{{"cordon", "learn", "--project"}, 3, "--project: missing argument"},
		{{"cordon", "run", "--pass-fd"}, 3, "--pass-fd: missing argument"},
		{{"cordon", "check", "-c"}, 3, "-c: missing argument"},
		{{"cordon", "run", "--allow-read", ""},
		 4,
		 "--allow-read: expected a non-empty value"},
		{{"cordon", "run", "--config", ""}, 4, "--config: expected a file"},
		/* As the config takes them (round 8: ~root was a relative name,
		 * a preset given twice was taken). */
		{{"cordon", "run", "--allow-read", "~root"}, 4, "--allow-read: expected a path"},
		{{"cordon", "explain", "--allow-write", "~x/y"}, 4, "(~user is not supported)"},
		/* (Quoted, a variable reaches cordon unexpanded: refused.) */
		{{"cordon", "run", "--allow-read", "$HOME/x"},
		 4,
		 "--allow-read: \"$HOME/x\": variables are not expanded here"},
		{{"cordon", "run", "--allow-exec", "${X}"}, 4, "--allow-exec: \"${X}\": variables"},
		{{"cordon", "run", "--toolchain", "python", "--toolchain", "python"},
		 6,
		 "--toolchain: \"python\" is given twice"},
		{{"cordon", "check", "--project", "/p"}, 4, "check: unknown option"},
		{{"cordon", "check", "extra"}, 3, "check: unexpected argument 'extra'"},
		{{"cordon", "help", "nope"}, 3, "help: unknown command 'nope'"},
		{{"cordon", "help", "run", "extra"}, 4, "help: unexpected argument 'extra'"},
		{{"cordon", "--version", "--bogus"}, 3, "--version: unexpected argument '--bogus'"},
		/* --allow-env takes what additional_env_vars takes. */
		{{"cordon", "run", "--allow-env", "*"},
		 4,
		 "--allow-env: expected a variable name (letters, digits, _; optional trailing *), "
		 "got \"*\""},
		{{"cordon", "run", "--allow-env", "A-B"},
		 4,
		 "--allow-env: expected a variable name"},
		{{"cordon", "run", "--allow-env", "A=B"},
		 4,
		 "--allow-env: expected a variable name"},
		{{"cordon", "explain", "--allow-env", "1X"},
		 4,
		 "--allow-env: expected a variable name"},
		{{"cordon", "run", "--allow-env", "LD_PRELOAD"},
		 4,
		 "--allow-env: LD_PRELOAD never passes into a session"},
		/* A single-valued option given again: the first is never dropped
		 * without a word. */
		{{"cordon", "run", "--config", "/a", "--config", "/b"}, 6, "--config: given twice"},
		{{"cordon", "run", "-c", "/a", "--config=/b"}, 5, "--config: given twice"},
		{{"cordon", "explain", "-p", "/a", "--project", "/b"}, 6, "--project: given twice"},
		{{"cordon", "run", "--kind", "tool", "--kind", "tool"}, 6, "--kind: given twice"},
		{{"cordon", "check", "-c", "/a", "-c", "/b"}, 6, "--config: given twice"},
		{{"cordon", "run", "--tracking", "auto", "--tracking", "cgroup"},
		 6,
		 "--tracking: given twice"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_args a;
		struct cordon_error err = {0};
		cr_expect_lt(cordon_args_parse(cases[i].argc, (char **)cases[i].argv, &a, &err), 0,
			     "case %zu accepted", i);
		cr_expect(strstr(err.msg, cases[i].expect) != NULL, "case %zu: got '%s', want '%s'",
			  i, err.msg, cases[i].expect);
	}
}
