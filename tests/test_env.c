/* Environment filtering. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cordon/env.h"
#include "cordon/policy.h"

static const char *get(const struct cordon_strv *env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=')
			return env->v[i] + n + 1;
	return NULL;
}

static char *input[] = {"PATH=/usr/bin",
			"HOME=/home/u",
			"AWS_SECRET_ACCESS_KEY=hunter2",
			"GITHUB_TOKEN=ghp_x",
			"TERM=xterm-256color",
			"COLORTERM=truecolor",
			"TERM_PROGRAM=vscode",
			"TERM_PROGRAM_VERSION=1.9",
			"LD_PRELOAD=/evil.so",
			"DYLD_INSERT_LIBRARIES=/evil.dylib",
			"CORDON_CONFIG_FD=9",
			"CORDON_SESSION=outer",
			"CORDON_SANDBOX=0",
			"LC_ALL=C",
			"LC_CTYPE=UTF-8",
			"LC_TOKEN=secret",
			"XDG_STATE_HOME=/home/u/state",
			"PATH=/second",
			"noequals",
			"=novalue",
			NULL};

Test(env, default_allowlist)
{
	struct cordon_strv allow = {0}, out = {0};
	for (size_t i = 0; cordon_default_env[i]; i++)
		cordon_strv_push(&allow, cordon_default_env[i]);
	cr_assert_eq(cordon_env_build(input, true, &allow, "abc", true, &out), 0);
	cr_expect_str_eq(get(&out, "PATH"), "/usr/bin", "first occurrence wins");
	cr_expect_str_eq(get(&out, "HOME"), "/home/u");
	cr_expect_null(get(&out, "AWS_SECRET_ACCESS_KEY"));
	cr_expect_null(get(&out, "GITHUB_TOKEN"));
	cr_expect_str_eq(get(&out, "TERM"), "xterm-256color");
	cr_expect_str_eq(get(&out, "COLORTERM"), "truecolor");
	cr_expect_str_eq(get(&out, "TERM_PROGRAM_VERSION"), "1.9",
			 "terminal variables always pass");
	cr_expect_null(get(&out, "LD_PRELOAD"));
	cr_expect_null(get(&out, "DYLD_INSERT_LIBRARIES"));
	cr_expect_null(get(&out, "CORDON_CONFIG_FD"));
	cr_expect_str_eq(get(&out, "LC_ALL"), "C", "the locale's categories pass");
	cr_expect_str_eq(get(&out, "LC_CTYPE"), "UTF-8", "the locale's categories pass");
	cr_expect_null(get(&out, "LC_TOKEN"), "any LC_ name passes (round 54d F7)");
	cr_expect_str_eq(get(&out, "XDG_STATE_HOME"), "/home/u/state",
			 "tools inside keep their state where they do outside");
	cr_expect_str_eq(get(&out, "CORDON_SESSION"), "abc", "the outer session id is replaced");
	cr_expect_str_eq(get(&out, "CORDON_SANDBOX"), "1");
	for (size_t i = 0; i < out.n; i++) {
		cr_expect_neq(strcmp(out.v[i], "noequals"), 0);
		cr_expect_neq(out.v[i][0], '=');
	}
	cr_expect_null(out.v[out.n], "NULL-terminated for execve");
	cordon_strv_free(&allow);
	cordon_strv_free(&out);
}

Test(env, patterns_and_forced_drops)
{
	struct cordon_strv allow = {0}, out = {0};
	cordon_strv_push(&allow, "LC_*");
	cordon_strv_push(&allow, "LD_PRELOAD");       /* never honoured */
	cordon_strv_push(&allow, "CORDON_CONFIG_FD"); /* never honoured */
	cr_assert_eq(cordon_env_build(input, true, &allow, "s", true, &out), 0);
	cr_expect_str_eq(get(&out, "LC_ALL"), "C");
	cr_expect_str_eq(get(&out, "LC_CTYPE"), "UTF-8");
	cr_expect_null(get(&out, "PATH"), "not in this allowlist");
	cr_expect_null(get(&out, "LD_PRELOAD"));
	cr_expect_null(get(&out, "CORDON_CONFIG_FD"));
	cordon_strv_free(&allow);
	cordon_strv_free(&out);
}

Test(env, unfiltered_when_sandbox_off)
{
	struct cordon_strv allow = {0}, out = {0};
	cr_assert_eq(cordon_env_build(input, false, &allow, "s", false, &out), 0);
	cr_expect_str_eq(get(&out, "GITHUB_TOKEN"), "ghp_x");
	cr_expect_null(get(&out, "LD_PRELOAD"), "LD_PRELOAD never reaches the shell");
	cr_expect_null(get(&out, "CORDON_CONFIG_FD"));
	cr_expect_str_eq(get(&out, "CORDON_SANDBOX"), "0");
	cordon_strv_free(&out);
}

Test(env, allowed_matching)
{
	struct cordon_strv allow = {0};
	cordon_strv_push(&allow, "PATH");
	cordon_strv_push(&allow, "XDG_*");
	cr_expect(cordon_env_allowed(&allow, "PATH", 4));
	cr_expect_not(cordon_env_allowed(&allow, "PATHX", 5));
	cr_expect_not(cordon_env_allowed(&allow, "PAT", 3));
	cr_expect(cordon_env_allowed(&allow, "XDG_DATA_HOME", 13));
	cr_expect(cordon_env_allowed(&allow, "XDG_", 4));
	cr_expect_not(cordon_env_allowed(&allow, "XDG", 3));
	cordon_strv_free(&allow);
}

Test(env, strip_preload)
{
	char *s = cordon_env_strip_preload("/a/libcordon.so", "/a/libcordon.so");
	cr_expect_str_eq(s, "");
	free(s);
	s = cordon_env_strip_preload("/x/libfoo.so:/b/libcordon.so /y/libbar.so",
				     "/a/libcordon.so");
	cr_expect_str_eq(s, "/x/libfoo.so:/y/libbar.so");
	free(s);
	s = cordon_env_strip_preload("libcordon.so.evil::/b/libcordon.so", "libcordon.so");
	cr_expect_str_eq(s, "libcordon.so.evil");
	free(s);
}
